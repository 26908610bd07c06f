/*
 * loop_batches.c - the one loop of loop.c in batches (several tiles whose
 * devices offer batch_*; the report's "loop batched"): the threads meet once a
 * batch instead of twice an iteration.
 *
 *   all:        start batch b + 1 (n sweeps the devices order among themselves,
 *               each iteration's block sums into its slot) once batch b is done
 *   each thread: add its tile's slots of batch b in the fixed order
 *   --------------------------- barrier -------------------------------------
 *   one thread: walk batch b's iterations in order with loop_decide
 *   --------------------------- barrier -------------------------------------
 *   on a stop:  wait for batch b + 1, rewind to a checkpoint, replay to the stop
 *
 * So the bits, the iteration count and every norm are the host loop's. No thread
 * can be left waiting: the devices' batch_start and batch_wait meet through
 * meet(), which every thread reaches on every path, failed or not, and which
 * gives every thread the same answer; the barriers above are reached by all.
 */
#include "loop_batches.h"

#include <stdio.h>
#include <stdlib.h>

/* batch_call's meeting point: the failure recorded, every thread agreeing. */
static int meet(void *context, struct tile *me, int rc)
{
    struct loop_state *st = context;
    loop_record(st, me, rc);
    return loop_agree(st);
}

/* Taken by one thread: the verdict on every iteration of the batch, in order,
 * from the tiles' totals, as the host loop would have taken them. */
static void walk_batch(struct loop_state *st, long from)
{
    const int tiles = partition_count(st->partition);
    st->result->batches_ran = 1;
    for (long j = 0; j < st->plan.batch && !st->stop; j++)
        loop_decide(st, from + j, st->batch_sums + j * tiles);
}

/* Back to batch b's checkpoint (iteration b->from - 1) and the sweeps again up to
 * iteration `to`, one by one: the same bits, since a sweep is deterministic. */
static void replay(struct loop_state *st, struct tile *me, const struct batch_call *b,
                   long to)
{
    struct sweep_args args = {0};
    double unused;
    tile_neighbours(st->tiles, me, args.neighbour);
    loop_record(st, me, st->ops->batch_rewind(me, b));
    if (loop_agree(st))
        return;
    for (args.iteration = b->from; args.iteration <= to; args.iteration++) {
        loop_start_sweep(st, me, &args);
        if (loop_agree(st)) /* also orders sweep k + 1 after every sweep k */
            break;
    }
    loop_record(st, me, st->ops->finish(me, args.iteration - 1, 0, &unused));
}

/* Every tile's totals of batch b, then one thread's verdicts on its iterations. */
static void decide_batch(struct loop_state *st, struct tile *me,
                         const struct batch_call *b)
{
    const int tiles = partition_count(st->partition);
    for (long j = 0; j < b->n; j++)
        if (solve_wants_norm(st->settings, &st->rule, b->from + j))
            loop_record(
                st, me,
                st->ops->batch_total(me, b, j, &st->batch_sums[j * tiles + me->index]));
#pragma omp barrier
#pragma omp single
    walk_batch(st, b->from);
}

/*
 * The loop in batches: the devices run st->plan.batch iterations among themselves,
 * then the host adds every tile's totals and takes the decisions in order, while
 * the devices already run the next batch. A stop inside a batch (or with the next
 * one started) rewinds every tile to a checkpoint and replays up to it. The
 * iterations after the last whole batch run in the host loop. Returns the last
 * iteration this thread started (as iterate does).
 */
long loop_batches_iterate(struct loop_state *st, struct tile *me)
{
    const struct solve_settings *s = st->settings;
    const struct device_ops *ops = st->ops;
    struct batch_call b = {.from = 1,
                           .n = st->plan.batch,
                           .tiles = st->tiles,
                           .count = partition_count(st->partition),
                           .meet = meet,
                           .context = st};
    int running = b.n <= s->max_iter;
    if (running && ops->batch_start(me, &b) != 0)
        return 0;
    while (running) {
        if (ops->batch_wait(me, &b) != 0)
            return 0;
        struct batch_call next = b;
        next.from += b.n;
        int ahead = next.from + b.n - 1 <= s->max_iter;
        if (ahead && ops->batch_start(me, &next) != 0)
            return 0;
        decide_batch(st, me, &b);
        if (st->stop) {
            long last = st->state.iteration; /* the next batch ends before any leaves */
            if (ahead && ops->batch_wait(me, &next) != 0)
                return 0;
            /* the field of the batch's end is the next one's checkpoint */
            if (!st->failed && ahead && last == b.from + b.n - 1)
                replay(st, me, &next, last);
            else if (!st->failed && (ahead || last < b.from + b.n - 1))
                replay(st, me, &b, last);
            return 0;
        }
        running = ahead;
        b = next;
    }
#pragma omp single
    st->resume = b.from;
    return loop_iterate(st, me);
}

/* Slots for the tile totals of a batch, and the devices' own batch buffers. */
int loop_batches_open(struct loop_state *st, struct tile *me)
{
    const int tiles = partition_count(st->partition);
#pragma omp single
    {
        st->batch_sums = malloc((size_t)st->plan.batch * (size_t)tiles * sizeof(double));
        if (!st->batch_sums) {
            st->failed = 1;
            st->result->reason = STOP_FAILED;
            snprintf(st->result->error, sizeof st->result->error,
                     "out of host memory for the batch sums");
        }
    }
    if (!st->failed)
        loop_record(st, me, st->ops->batch_open(me, st->plan.batch));
    return loop_agree(st);
}

/*
 * loop_batches.c - the one loop of loop.c in batches, the one protocol of every
 * batch (the loop plan's batched, singles and pairs: one tile or several whose
 * devices offer batch_*; the report's "loop batched"): the threads meet once a
 * batch instead of twice an iteration.
 *
 *   all:        start batch b + 1 (n sweeps the devices order among themselves,
 *               each iteration's block sums into its slot) behind batch b, then
 *               wait for batch b: the devices go from one batch to the next with
 *               no host between them
 *   each thread: add its tile's slots of batch b in the fixed order
 *   --------------------------- barrier -------------------------------------
 *   one thread: walk batch b's iterations in order with loop_decide
 *   --------------------------- barrier -------------------------------------
 *   on a stop:  wait for batch b + 1, rewind to a checkpoint, replay to the stop
 *   the tail:   the iterations left before --max-iter, fewer than a batch, as one
 *               shorter batch (a multiple of the plan's), then the host loop
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
static void walk_batch(struct loop_state *st, const struct batch_call *b)
{
    const int tiles = partition_count(st->partition);
    if (!b->direct) /* a run shorter than a batch still says "the host" */
        st->result->batches_ran = 1;
    for (long j = 0; j < b->n && !st->stop; j++)
        loop_decide(st, b->from + j, st->batch_sums + j * tiles);
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

/* Every tile's totals of batch b, then one thread's verdicts on its iterations, then
 * (no stop inside it) the device's notes of it. */
static void decide_batch(struct loop_state *st, struct tile *me,
                         const struct batch_call *b)
{
    const int tiles = partition_count(st->partition);
    for (long j = 0; j < b->n; j++)
        if (solve_wants_norm(st->settings, &st->stop_rule, b->from + j))
            loop_record(
                st, me,
                st->ops->batch_total(me, b, j, &st->batch_sums[j * tiles + me->index]));
#pragma omp barrier
#pragma omp single
    walk_batch(st, b);
    if (st->ops->batch_note && !st->stop) /* a batch run whole, while the next one runs */
        loop_record(st, me, st->ops->batch_note(me, b));
}

/* After batch b was decided with a stop: the batch started after it (next, when
 * ahead) waited for, then every tile back to a checkpoint and the sweeps replayed
 * up to the stop, unless the stop is b's last iteration and nothing ran past it.
 * Returns 0 (the last iteration started, as the loop counts it). */
static long end_at_stop(struct loop_state *st, struct tile *me,
                        const struct batch_call *b, const struct batch_call *next,
                        int ahead)
{
    long last = st->state.iteration; /* the next batch ends before any leaves */
    if (ahead && st->ops->batch_wait(me, next) != 0)
        return 0;
    /* the field of the batch's end is the next one's checkpoint */
    if (!st->failed && ahead && last == b->from + b->n - 1)
        replay(st, me, next, last);
    else if (!st->failed && (ahead || last < b->from + b->n - 1))
        replay(st, me, b, last);
    return 0;
}

/* The iterations from b->from to --max-iter, fewer than a batch: as many as whole
 * multiples of the plan's allow in one shorter batch, queued directly, decided as
 * the others; the rest in the host loop. Returns the last iteration this thread
 * started. */
static long run_tail(struct loop_state *st, struct tile *me, struct batch_call b)
{
    const long left = st->settings->max_iter - b.from + 1;
    b.n = left - left % st->plan.multiple;
    b.direct = 1;
    if (b.n > 0) {
        if (st->ops->batch_start(me, &b) != 0 || st->ops->batch_wait(me, &b) != 0)
            return 0;
        decide_batch(st, me, &b);
        if (st->stop)
            return end_at_stop(st, me, &b, NULL, 0);
    }
#pragma omp single
    st->resume = b.from + b.n;
    return loop_iterate(st, me);
}

/* The plan's batch with the buffers of `set`, as the loop first starts it: batch 1
 * uses set 0, batch 2 set 1 (then every batch the other set of the one before). */
static struct batch_call plan_batch(struct loop_state *st, int set)
{
    return (struct batch_call){.from = 1 + set * st->plan.batch,
                               .n = st->plan.batch,
                               .set = set,
                               .tiles = st->tiles,
                               .count = partition_count(st->partition),
                               .meet = meet,
                               .context = st};
}

/*
 * The loop in batches: the devices run st->plan.batch iterations among themselves,
 * then the host adds every tile's totals and takes the decisions in order, while
 * the devices already run the next batch, queued before the host waited for this
 * one (its set of buffers is the batch before's, decided already). A stop inside a batch
 * (or with the next one started) rewinds every tile to a checkpoint and replays up to it.
 * The iterations after the last whole batch run as one shorter batch and the host loop
 * (run_tail). Returns the last iteration this thread started (as iterate does).
 */
long loop_batches_iterate(struct loop_state *st, struct tile *me)
{
    const struct solve_settings *s = st->settings;
    const struct device_ops *ops = st->ops;
    struct batch_call b = plan_batch(st, 0);
    int running = b.n <= s->max_iter;
    if (running && ops->batch_start(me, &b) != 0)
        return 0;
    while (running) {
        struct batch_call next = b;
        next.from += b.n;
        next.set = 1 - b.set;
        int ahead = next.from + b.n - 1 <= s->max_iter;
        /* on a failure every thread waits for what it queued: nothing runs on when the
         * tiles close (a GPU's batch may read its neighbours' fields) */
        if (ahead && ops->batch_start(me, &next) != 0) {
            ops->batch_wait(me, &b);
            return 0;
        }
        if (ops->batch_wait(me, &b) != 0) {
            if (ahead)
                ops->batch_wait(me, &next);
            return 0;
        }
        decide_batch(st, me, &b);
        if (st->stop)
            return end_at_stop(st, me, &b, &next, ahead);
        running = ahead;
        b = next;
    }
    return run_tail(st, me, b);
}

/* Slots for the tile totals of a batch, the devices' own batch buffers, and what
 * each set's batch launches (recorded now, for the batches the run reaches). */
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
        loop_record(st, me, st->ops->batch_open(me, &st->plan));
    if (loop_agree(st))
        return 1;
    for (int set = 0; set < 2 && st->ops->batch_record; set++) {
        struct batch_call b = plan_batch(st, set);
        if (b.from + b.n - 1 <= st->settings->max_iter && st->ops->batch_record(me, &b))
            return 1;
    }
    return 0;
}

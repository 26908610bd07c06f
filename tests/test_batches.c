/*
 * test_batches.c - the batched loop of several tiles (solver.c's iterate_batched
 * and device.h's batch_* protocol) on the host tiles, which run the same
 * protocol as the GPUs: the slots of every iteration's sums, the fixed-order
 * totals, the checkpoint and the replay when the stop falls inside a batch, the
 * host loop for the iterations after the last whole batch. Every case must give
 * the reference's field bit for bit, its iteration count and its norms.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "devices/device.h"
#include "gpu_partition.h"
#include "helpers.h"
#include "solve/reference.h"
#include "solver.h"

/* The host tiles' batch length when batches are asked for (plan/loop_plan.c). */
#define HOST_BATCH 16

/* The batch a run's loop ran with (0: the host loop). */
static long batch_that_ran(const struct solve_result *r)
{
    return r->plan.way == LOOP_WAY_BATCHED && r->batches_ran ? r->plan.batch : 0;
}

static void check_loop_equals_reference(const struct problem *pb, struct solve_settings s,
                                        int ngx, int ngy, enum loop_mode loop)
{
    struct field want, got;
    struct solve_result rw, rg;
    run_reference(pb, &s, &want, &rw);
    s.loop = loop;
    run_tiles(pb, ngx, ngy, &s, &got, &rg);
    const char *name = loop == LOOP_HOST ? "host loop" : "batched loop";
    cr_assert_eq(rg.iterations, rw.iterations, "%s %dx%d: %ld iterations, reference %ld",
                 name, ngx, ngy, rg.iterations, rw.iterations);
    cr_assert_eq(rg.reason, rw.reason, "%s %dx%d: stop reason", name, ngx, ngy);
    cr_assert_eq(rg.norm_checks, rw.norm_checks, "%s %dx%d: norm checks", name, ngx, ngy);
    cr_assert_eq(rg.final_norm_iteration, rw.final_norm_iteration);
    cr_assert(field_bit_identical(&got, &want), "%s %dx%d: field differs (max %g)", name,
              ngx, ngy, field_max_difference(&got, &want));
    /* a run shorter than a batch is all host loop, and says so */
    long batch = loop == LOOP_BATCHED && s.max_iter >= HOST_BATCH ? HOST_BATCH : 0;
    cr_assert_eq(batch_that_ran(&rg), batch, "%s: the result names the loop (batch %ld)",
                 name, batch_that_ran(&rg));
    field_free(&got);
    field_free(&want);
}

static const int layouts[][2] = {{2, 1}, {1, 2}, {2, 2}, {3, 1}};
#define LAYOUTS ((int)(sizeof layouts / sizeof layouts[0]))

static void check_both_loops(const struct problem *pb, const struct solve_settings *s)
{
    for (int i = 0; i < LAYOUTS; i++) {
        check_loop_equals_reference(pb, *s, layouts[i][0], layouts[i][1], LOOP_BATCHED);
        check_loop_equals_reference(pb, *s, layouts[i][0], layouts[i][1], LOOP_HOST);
    }
}

Test(batches, a_stop_inside_a_batch_replays_to_that_iteration)
{
    struct problem pb = test_problem(41, 29, PRECISION_FLOAT);
    struct solve_settings s = test_settings(1e-4, 100000);
    struct field f;
    struct solve_result r;
    run_reference(&pb, &s, &f, &r);
    field_free(&f);
    cr_assert_eq(r.reason, STOP_CONVERGED);
    cr_assert_neq(r.iterations % HOST_BATCH, 0, "the case must stop inside a batch");
    check_both_loops(&pb, &s);
}

Test(batches, max_iter_at_a_batch_end_and_past_the_last_batch)
{
    struct problem pb = test_problem(37, 23, PRECISION_DOUBLE);
    const long max_iters[] = {1, HOST_BATCH - 1, HOST_BATCH, 3 * HOST_BATCH,
                              3 * HOST_BATCH + 5};
    for (int i = 0; i < 5; i++) {
        struct solve_settings s = test_settings(0.0, max_iters[i]);
        check_both_loops(&pb, &s);
    }
}

Test(batches, norms_every_k_iterations_and_diverging_runs)
{
    struct problem pb = test_problem(33, 35, PRECISION_DOUBLE);
    struct solve_settings s = test_settings(1e-6, 100000);
    s.check_every = 7;
    check_both_loops(&pb, &s);
    s.check_every = 40; /* longer than a batch: some batches have no norm */
    check_both_loops(&pb, &s);
    s.check_every = HOST_BATCH; /* the stop at a batch's end, the next one already run */
    check_both_loops(&pb, &s);
}

/* The monitor and the history see the same norms, in the same order, whichever
 * loop ran: the batched loop decides iteration by iteration too. */
Test(batches, monitor_and_history_see_every_norm_of_the_host_loop)
{
    static struct norm_log monitor[2], history[2];
    struct problem pb = test_problem(27, 19, PRECISION_FLOAT);
    for (int loop = 0; loop < 2; loop++) {
        struct solve_settings s = test_settings(1e-4, 3000);
        s.check_every = 3;
        s.monitor_every = 5;
        s.monitor = record_norm;
        s.monitor_context = &monitor[loop];
        s.observe = record_norm;
        s.observe_context = &history[loop];
        s.observe_all = 1;
        s.loop = loop ? LOOP_BATCHED : LOOP_HOST;
        struct field f;
        struct solve_result r;
        run_tiles(&pb, 2, 1, &s, &f, &r);
        field_free(&f);
        cr_assert_eq(batch_that_ran(&r), loop ? HOST_BATCH : 0);
    }
    cr_assert_gt(history[0].count, 10);
    cr_assert_lt(history[0].count, 20000);
    cr_assert_eq(monitor[1].count, monitor[0].count, "monitor lines");
    cr_assert_eq(history[1].count, history[0].count, "history rows");
    for (long i = 0; i < history[0].count; i++) {
        cr_assert_eq(history[1].iteration[i], history[0].iteration[i]);
        cr_assert_eq(memcmp(&history[1].norm[i], &history[0].norm[i], sizeof(double)), 0,
                     "norm %ld differs", i);
    }
    for (long i = 0; i < monitor[0].count; i++)
        cr_assert_eq(monitor[1].iteration[i] % 5, 0, "monitor at its multiples only");
}

/* A host tile that offers a tile too large for batches to pay (as tile 2 does here)
 * leaves the host loop under auto; --loop batched takes the batches anyway. The same
 * field and iterations either way. */
static int large_offer(struct tile *t, int tiles, struct tile_offer *o)
{
    if (device_host_ops.offer(t, tiles, o) != 0)
        return -1;
    if (t->index == 2)
        o->field_bytes = 1 << 20;
    return 0;
}

Test(batches, a_tile_that_declines_leaves_the_host_loop)
{
    struct problem pb = test_problem(40, 30, PRECISION_DOUBLE);
    struct solve_settings s = test_settings(1e-5, 100000);
    struct field want, got;
    struct solve_result rw, rg;
    run_reference(&pb, &s, &want, &rw);
    struct device_ops ops = device_host_ops;
    struct partition p;
    cr_assert_eq(partition_init(&p, pb.nx, pb.ny, 3, 1), 0);
    ops.offer = large_offer;
    cr_assert_eq(solver_run(&ops, &pb, &p, &s, &got, &rg), 0, "%s", rg.error);
    cr_assert_eq(rg.plan.way, LOOP_WAY_HOST, "a tile declined: the host loop");
    cr_assert_eq(batch_that_ran(&rg), 0);
    cr_assert(field_bit_identical(&got, &want));
    field_free(&got);
    s.loop = LOOP_BATCHED;
    cr_assert_eq(solver_run(&ops, &pb, &p, &s, &got, &rg), 0, "%s", rg.error);
    cr_assert_eq(batch_that_ran(&rg), HOST_BATCH, "--loop batched: every tile batches");
    cr_assert_eq(rg.iterations, rw.iterations);
    cr_assert(field_bit_identical(&got, &want));
    field_free(&got);
    field_free(&want);
    partition_free(&p);
}

/* Batches as tile 0's device saw them: their first iteration, length, set and whether
 * queued directly (the tail before --max-iter); the last in the last place once the log
 * is full. Kept for the batches a run started, recorded ahead and noted. */
#define LOGGED_MOST 256
struct batch_log {
    long from[LOGGED_MOST], n[LOGGED_MOST];
    int set[LOGGED_MOST], direct[LOGGED_MOST], count;
};
static struct batch_log started, recorded, noted;

static void log_batch(struct batch_log *log, const struct tile *t,
                      const struct batch_call *b)
{
    if (t->index != 0)
        return;
    const int i = log->count < LOGGED_MOST ? log->count++ : LOGGED_MOST - 1;
    log->from[i] = b->from;
    log->n[i] = b->n;
    log->set[i] = b->set;
    log->direct[i] = b->direct;
}

static int logging_batch_start(struct tile *t, const struct batch_call *b)
{
    log_batch(&started, t, b);
    return device_host_ops.batch_start(t, b);
}

/* The iterations left before --max-iter, fewer than a batch, run as one shorter batch
 * (a multiple of two), then the host loop: whole batches of 16, then 6 of the 7 left
 * in one, then one; a stop inside that shorter batch replays from its checkpoint.
 * Every case equals serial. */
Test(batches, the_tail_before_max_iter_is_one_shorter_batch)
{
    struct problem pb = test_problem(37, 23, PRECISION_DOUBLE);
    struct device_ops ops = device_host_ops;
    ops.batch_start = logging_batch_start;
    struct partition p;
    cr_assert_eq(partition_init(&p, pb.nx, pb.ny, 3, 1), 0);
    struct solve_settings s = test_settings(0.0, 3 * HOST_BATCH + 7);
    s.loop = LOOP_BATCHED;
    struct field want, got;
    struct solve_result rw, rg;
    run_reference(&pb, &s, &want, &rw);
    started.count = 0;
    cr_assert_eq(solver_run(&ops, &pb, &p, &s, &got, &rg), 0, "%s", rg.error);
    cr_assert_eq(started.count, 4, "three batches and the tail's: %d", started.count);
    cr_assert_eq(started.direct[3], 1);
    cr_assert_eq(started.from[3], 3 * HOST_BATCH + 1);
    cr_assert_eq(started.n[3], 6, "the tail batch: %ld", started.n[3]);
    cr_assert_eq(rg.iterations, rw.iterations);
    cr_assert(field_bit_identical(&got, &want));
    field_free(&got);
    field_free(&want);
    /* a stop inside the tail batch: --max-iter a little past the stop */
    s = test_settings(1e-4, 100000);
    s.loop = LOOP_BATCHED;
    run_reference(&pb, &s, &want, &rw);
    int replayed = 0;
    for (long extra = 1; extra < HOST_BATCH; extra++) {
        s.max_iter = rw.iterations + extra;
        started.count = 0;
        cr_assert_eq(solver_run(&ops, &pb, &p, &s, &got, &rg), 0, "%s", rg.error);
        cr_assert_eq(rg.iterations, rw.iterations, "--max-iter %ld", s.max_iter);
        cr_assert_eq(rg.reason, STOP_CONVERGED);
        cr_assert(field_bit_identical(&got, &want), "--max-iter %ld", s.max_iter);
        const int last = started.count - 1;
        replayed |= started.direct[last] && started.from[last] <= rw.iterations &&
                    rw.iterations < started.from[last] + started.n[last] - 1;
        field_free(&got);
    }
    cr_assert(replayed, "no case stopped inside the tail batch");
    field_free(&want);
    partition_free(&p);
}

static int logging_batch_record(struct tile *t, const struct batch_call *b)
{
    log_batch(&recorded, t, b);
    return b->meet(b->context, t, 0);
}

/* Notes each batch recorded whole (not the tail, queued directly) as the GPUs' does:
 * its iterations into the tile's breakdown. */
static int logging_batch_note(struct tile *t, const struct batch_call *b)
{
    log_batch(&noted, t, b);
    if (!b->direct)
        t->breakdown.iterations += b->n;
    return 0;
}

/* The graphs recorded before the loop are those of the batches the run reaches: both
 * sets from two batches on, set 0 alone from one, none below; each as its batch
 * starts (batch 1 set 0, batch 2 set 1). */
Test(batches, the_batches_the_run_reaches_are_recorded_before_the_loop)
{
    struct problem pb = test_problem(37, 23, PRECISION_DOUBLE);
    struct device_ops ops = device_host_ops;
    ops.batch_record = logging_batch_record;
    struct partition p;
    cr_assert_eq(partition_init(&p, pb.nx, pb.ny, 3, 1), 0);
    const long max_iters[] = {3 * HOST_BATCH + 7, 2 * HOST_BATCH, 2 * HOST_BATCH - 1,
                              HOST_BATCH, HOST_BATCH - 1};
    const int sets[] = {2, 2, 1, 1, 0};
    for (int i = 0; i < 5; i++) {
        struct solve_settings s = test_settings(0.0, max_iters[i]);
        s.loop = LOOP_BATCHED;
        struct field got;
        struct solve_result r;
        recorded.count = 0;
        cr_assert_eq(solver_run(&ops, &pb, &p, &s, &got, &r), 0, "%s", r.error);
        field_free(&got);
        cr_expect_eq(recorded.count, sets[i], "--max-iter %ld: %d sets recorded",
                     max_iters[i], recorded.count);
        for (int k = 0; k < recorded.count; k++) {
            cr_expect_eq(recorded.set[k], k);
            cr_expect_eq(recorded.from[k], 1 + k * HOST_BATCH);
            cr_expect_eq(recorded.n[k], HOST_BATCH);
        }
    }
    partition_free(&p);
}

/* The device notes every batch decided with no stop inside it, the tail too (which
 * the GPUs' skip: queued directly, it has no events), never the batch the stop falls
 * in; and the result keeps each tile's breakdown. */
Test(batches, the_device_notes_the_batches_run_whole)
{
    struct problem pb = test_problem(41, 29, PRECISION_FLOAT);
    struct device_ops ops = device_host_ops;
    ops.batch_note = logging_batch_note;
    struct partition p;
    cr_assert_eq(partition_init(&p, pb.nx, pb.ny, 1, 3), 0);
    struct solve_settings s = test_settings(0.0, 3 * HOST_BATCH + 7);
    s.loop = LOOP_BATCHED;
    struct field got;
    struct solve_result r;
    noted.count = 0;
    cr_assert_eq(solver_run(&ops, &pb, &p, &s, &got, &r), 0, "%s", r.error);
    field_free(&got);
    cr_assert_eq(noted.count, 4, "three batches and the tail: %d", noted.count);
    cr_expect_eq(noted.direct[3], 1, "the tail");
    for (int t = 0; t < 3; t++)
        cr_expect_eq(r.breakdown[t].iterations, 3 * HOST_BATCH, "tile %d: %ld", t,
                     r.breakdown[t].iterations);
    /* to eps: the stop inside a batch */
    s = test_settings(1e-4, 100000);
    s.loop = LOOP_BATCHED;
    noted.count = 0;
    cr_assert_eq(solver_run(&ops, &pb, &p, &s, &got, &r), 0, "%s", r.error);
    field_free(&got);
    cr_assert_neq(r.iterations % HOST_BATCH, 0, "the case must stop inside a batch");
    cr_expect_eq(noted.count, r.iterations / HOST_BATCH, "%d batches noted, stop at %ld",
                 noted.count, r.iterations);
    for (int k = 0; k < noted.count; k++)
        cr_expect_leq(noted.from[k] + noted.n[k] - 1, r.iterations);
    cr_expect_eq(r.breakdown[0].iterations, noted.count * HOST_BATCH);
    partition_free(&p);
}

/* A batch that fails on one tile stops every thread with that tile's message. */
static int failing_batch_start(struct tile *t, const struct batch_call *b)
{
    if (b->from > 2 * 16 && t->index == 1) {
        snprintf(t->error, sizeof t->error, "planted failure in batch %ld", b->from);
        return b->meet(b->context, t, -1);
    }
    return device_host_ops.batch_start(t, b);
}

Test(batches, a_failing_batch_stops_every_tile)
{
    struct problem pb = test_problem(40, 30, PRECISION_DOUBLE);
    struct solve_settings s = test_settings(0.0, 1000);
    s.loop = LOOP_BATCHED;
    struct device_ops ops = device_host_ops;
    ops.batch_start = failing_batch_start;
    struct partition p;
    struct field out;
    struct solve_result r;
    cr_assert_eq(partition_init(&p, pb.nx, pb.ny, 2, 2), 0);
    cr_assert_eq(solver_run(&ops, &pb, &p, &s, &out, &r), -1);
    cr_assert_eq(r.reason, STOP_FAILED);
    cr_assert(strstr(r.error, "tile 1: planted failure in batch 33"), "%s", r.error);
    partition_free(&p);
}

/* Tile 0's starts and waits in the order it made them: +from for a start, -from for a
 * wait; the wait for batch `failing_wait` (0: none) fails on tile 1. */
static struct {
    long call[LOGGED_MOST];
    int count;
} calls;
static long failing_wait;

static void log_call(const struct tile *t, long call)
{
    if (t->index == 0 && calls.count < LOGGED_MOST)
        calls.call[calls.count++] = call;
}

static int ordered_start(struct tile *t, const struct batch_call *b)
{
    log_call(t, b->from);
    return device_host_ops.batch_start(t, b);
}

static int ordered_wait(struct tile *t, const struct batch_call *b)
{
    log_call(t, -b->from);
    if (b->from != failing_wait)
        return device_host_ops.batch_wait(t, b);
    if (t->index == 1)
        snprintf(t->error, sizeof t->error, "planted failure in the wait for batch %ld",
                 b->from);
    return b->meet(b->context, t, t->index == 1 ? -1 : 0);
}

/* Batch b + 1 is started before batch b is waited for (the GPUs go on from one to the
 * next with no host between them); a failed wait also waits for the batch started
 * behind it, and nothing starts after it (no batch runs on while the tiles close). */
Test(batches, the_next_batch_starts_before_the_wait_and_a_failed_wait_waits_for_it)
{
    struct problem pb = test_problem(40, 30, PRECISION_DOUBLE);
    struct solve_settings s = test_settings(0.0, 6 * HOST_BATCH);
    s.loop = LOOP_BATCHED;
    struct device_ops ops = device_host_ops;
    ops.batch_start = ordered_start;
    ops.batch_wait = ordered_wait;
    struct partition p;
    struct field out;
    struct solve_result r;
    cr_assert_eq(partition_init(&p, pb.nx, pb.ny, 2, 1), 0);
    const long b = HOST_BATCH;
    const long in_order[] = {1,
                             1 + b,
                             -1,
                             1 + 2 * b,
                             -(1 + b),
                             1 + 3 * b,
                             -(1 + 2 * b),
                             1 + 4 * b,
                             -(1 + 3 * b),
                             1 + 5 * b,
                             -(1 + 4 * b),
                             -(1 + 5 * b)};
    const int count = (int)(sizeof in_order / sizeof *in_order);
    failing_wait = 0;
    calls.count = 0;
    cr_assert_eq(solver_run(&ops, &pb, &p, &s, &out, &r), 0, "%s", r.error);
    field_free(&out);
    cr_assert_eq(calls.count, count, "%d calls", calls.count);
    for (int i = 0; i < count; i++)
        cr_expect_eq(calls.call[i], in_order[i], "call %d: %ld, expected %ld", i,
                     calls.call[i], in_order[i]);
    failing_wait = 1 + 2 * b;
    calls.count = 0;
    cr_assert_eq(solver_run(&ops, &pb, &p, &s, &out, &r), -1);
    cr_assert_eq(r.reason, STOP_FAILED);
    cr_assert(strstr(r.error, "planted failure in the wait for batch 33"), "%s", r.error);
    cr_assert_eq(calls.count, 8, "%d calls", calls.count);
    for (int i = 0; i < 7; i++)
        cr_expect_eq(calls.call[i], in_order[i], "call %d", i);
    cr_expect_eq(calls.call[7], -(1 + 3 * b),
                 "the batch behind the failed one waited for");
    partition_free(&p);
}

/* SOR's two phases meet inside a batch; sources and regions go through the
 * general sweep: the command line, batched and host loop against serial. In double
 * the run converges at iteration 98, inside a batch of 16; in float SOR never gets
 * below eps (it cycles), so --max-iter 3000 ends it (it ran 1000000 iterations,
 * 80 s of make test on 2 cores, for no more checking). */
static void sor_in_batches_equals_serial(const char *precision, const char *limit)
{
    char problem[256];
    snprintf(problem, sizeof problem,
             "--nx 45 --ny 31 --method sor --source x*y-1 --eps 1e-6 --precision %s %s "
             "--csv",
             precision, limit);
    const char *loops[] = {"serial", "batched", "host"};
    char *fields[3];
    for (int i = 0; i < 3; i++) {
        char path[256];
        out_path(path, sizeof path, loops[i]);
        strcat(path, ".dat");
        struct run r = i == 0
                           ? laplace_run("--backend serial %s --output %s", problem, path)
                           : laplace_run("--backend cpu --partition 2x2 --loop %s %s "
                                         "--output %s",
                                         loops[i], problem, path);
        cr_assert_eq(r.status, 0, "%s: %s", loops[i], r.err);
        run_free(&r);
        fields[i] = slurp(path);
        cr_assert_not_null(fields[i]);
    }
    cr_assert_str_eq(fields[1], fields[0], "batched SOR differs from serial (%s)",
                     precision);
    cr_assert_str_eq(fields[2], fields[0], "host-loop SOR differs from serial (%s)",
                     precision);
    for (int i = 0; i < 3; i++)
        free(fields[i]);
}

Test(batches, sor_with_a_source_in_batches_equals_serial, .init = require_laplace)
{
    sor_in_batches_equals_serial("double", "");
    sor_in_batches_equals_serial("float", "--max-iter 3000");
}

Test(batches, the_report_names_the_loop, .init = require_laplace)
{
    struct run r =
        laplace_run("--backend cpu --partition 2x1 --nx 40 --ny 30 --eps 1e-4");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "  loop          batched on the host tiles, 16 iterations a "
                            "batch\n"),
              "%s", r.out);
    run_free(&r);
    r = laplace_run(
        "--backend cpu --partition 2x1 --nx 40 --ny 30 --eps 1e-4 --loop host");
    cr_assert(strstr(r.out, "  loop          the host at every iteration\n"), "%s",
              r.out);
    cr_assert_null(strstr(r.out, "loop why"), "the loop asked for: no why");
    run_free(&r);
    r = laplace_run("--backend serial --nx 40 --ny 30 --eps 1e-4");
    cr_assert_null(strstr(r.out, "  loop "), "the reference has no such choice");
    run_free(&r);
}

/* A --loop that the run could not take: the report says why, as --dry-run does. */
Test(batches, the_report_says_why_the_loop_asked_for_did_not_run, .init = require_laplace)
{
    struct run r = laplace_run(
        "--backend cpu --partition 1x1 --nx 40 --ny 30 --eps 1e-4 --loop batched");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "  loop          the host at every iteration\n"
                            "  loop why      host: one tile whose device has no loop of "
                            "its own\n"),
              "%s", r.out);
    run_free(&r);
    r = laplace_run(
        "--backend cpu --partition 2x1 --nx 40 --ny 30 --max-iter 5 --loop batched");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "  loop          the host at every iteration\n"
                            "  loop why      the run ended before its first whole batch "
                            "of 16 iterations\n"),
              "%s", r.out);
    run_free(&r);
    r = laplace_run("--backend cpu --partition 2x1 --nx 40 --ny 30 --max-iter 50 "
                    "--loop batched");
    cr_assert_null(strstr(r.out, "loop why"), "batched as asked: %s", r.out);
    run_free(&r);
}

/*
 * test_solver.c - the host tiles (solver.c + device_host.c) against the
 * reference, the stopping test, and the reference against exact solutions.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "devices/device.h"
#include "gpu_partition.h"
#include "helpers.h"
#include "laplace_kernels.h"
#include "solve/reference.h"
#include "solver.h"

/*
 * The host tiles on ngx x ngy give the reference's field bit for bit, with the
 * same iteration count and stop reason.
 */
static void check_same_as_reference(const struct problem *pb,
                                    const struct solve_settings *s,
                                    const int (*layouts)[2], int layout_count)
{
    struct field want;
    struct solve_result rw;
    run_reference(pb, s, &want, &rw);
    for (int i = 0; i < layout_count; i++) {
        int ngx = layouts[i][0], ngy = layouts[i][1];
        if (ngx > pb->nx - 2 || ngy > pb->ny - 2)
            continue;
        struct field got;
        struct solve_result rg;
        run_tiles(pb, ngx, ngy, s, &got, &rg);
        cr_assert_eq(rg.iterations, rw.iterations,
                     "%ldx%ld %s %dx%d block %dx%d: %ld iterations, reference %ld",
                     pb->nx, pb->ny, precision_name(pb->precision), ngx, ngy,
                     s->tile.block_x, s->tile.block_y, rg.iterations, rw.iterations);
        cr_assert_eq(rg.reason, rw.reason, "%dx%d: stop reason", ngx, ngy);
        cr_assert(
            field_bit_identical(&got, &want),
            "%ldx%ld %s %dx%d block %dx%d: field differs from the reference (max %g)",
            pb->nx, pb->ny, precision_name(pb->precision), ngx, ngy, s->tile.block_x,
            s->tile.block_y, field_max_difference(&got, &want));
        cr_assert(fabs(rg.final_norm - rw.final_norm) <= 1e-12 * rw.final_norm + 1e-300,
                  "%dx%d: final norm %.17g, reference %.17g", ngx, ngy, rg.final_norm,
                  rw.final_norm);
        field_free(&got);
    }
    field_free(&want);
}

static const int all_layouts[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 1}, {1, 3},
                                     {3, 2}, {4, 4}, {8, 1}, {1, 8}, {2, 4}, {4, 2}};
#define ALL_LAYOUTS ((int)(sizeof all_layouts / sizeof all_layouts[0]))

/* Converged runs: the iteration count must match as well as the field. */
Test(solver, host_tiles_equal_reference_converged_37x23_double)
{
    struct problem pb = test_problem(37, 23, PRECISION_DOUBLE);
    struct solve_settings s = test_settings(1e-4, 100000);
    check_same_as_reference(&pb, &s, all_layouts, ALL_LAYOUTS);
}

Test(solver, host_tiles_equal_reference_converged_37x23_float)
{
    struct problem pb = test_problem(37, 23, PRECISION_FLOAT);
    struct solve_settings s = test_settings(1e-4, 100000);
    check_same_as_reference(&pb, &s, all_layouts, ALL_LAYOUTS);
}

/* A fixed number of sweeps, far from convergence: every site still moving. */
Test(solver, host_tiles_equal_reference_50x17_both_precisions)
{
    for (int prec = 0; prec < 2; prec++) {
        struct problem pb =
            test_problem(50, 17, prec ? PRECISION_DOUBLE : PRECISION_FLOAT);
        struct solve_settings s = test_settings(0.0, 97);
        check_same_as_reference(&pb, &s, all_layouts, ALL_LAYOUTS);
    }
}

Test(solver, host_tiles_equal_reference_5x5_both_precisions)
{
    static const int small[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2},
                                   {3, 1}, {1, 3}, {3, 2}, {3, 3}};
    for (int prec = 0; prec < 2; prec++) {
        struct problem pb = test_problem(5, 5, prec ? PRECISION_DOUBLE : PRECISION_FLOAT);
        struct solve_settings s = test_settings(1e-7, 100000);
        check_same_as_reference(&pb, &s, small, (int)(sizeof small / sizeof small[0]));
    }
}

/* Tiles of width and height 1 and tiles holding only boundary sites. */
Test(solver, host_tiles_equal_reference_with_one_site_wide_tiles)
{
    static const int thin[][2] = {{8, 1}, {1, 7}, {8, 7}, {7, 2}, {5, 6}};
    for (int prec = 0; prec < 2; prec++) {
        struct problem pb =
            test_problem(10, 9, prec ? PRECISION_DOUBLE : PRECISION_FLOAT);
        struct solve_settings s = test_settings(0.0, 40);
        check_same_as_reference(&pb, &s, thin, (int)(sizeof thin / sizeof thin[0]));
    }
}

Test(solver, host_tiles_equal_reference_for_every_block_shape)
{
    static const int blocks[][2] = {{32, 8},  {4, 4}, {3, 5}, {1, 1},
                                    {64, 16}, {7, 1}, {0, 0}};
    static const int layouts[][2] = {{1, 1}, {2, 2}, {3, 2}, {1, 3}};
    for (int b = 0; b < (int)(sizeof blocks / sizeof blocks[0]); b++)
        for (int prec = 0; prec < 2; prec++) {
            struct problem pb =
                test_problem(37, 23, prec ? PRECISION_DOUBLE : PRECISION_FLOAT);
            struct solve_settings s = test_settings(1e-3, 100000);
            s.tile.block_x = blocks[b][0];
            s.tile.block_y = blocks[b][1];
            check_same_as_reference(&pb, &s, layouts, 4);
        }
}

/* One sweep of ngx x 1 host tiles over a field of varied values (no zeros): every
 * tile's block sums, tile after tile, into sums (*count of them), by the plain sweep
 * (kernel auto) or site by site (KERNEL_GENERAL). */
static void one_sweep_block_sums(enum precision precision, long nx, long ny, int ngx,
                                 int bx, int by, int kernel, double *sums, long *count)
{
    struct problem pb = test_problem(nx, ny, precision);
    struct partition p;
    cr_assert_eq(partition_init(&p, nx, ny, ngx, 1), 0);
    struct tile tiles[4] = {{0}};
    void *field = malloc((size_t)(nx * ny) * precision_size(precision));
    for (long i = 0; i < nx * ny; i++) {
        double v = sin(1.3 * (double)i) * (double)(1 + i % 7);
        if (precision == PRECISION_FLOAT)
            ((float *)field)[i] = (float)v;
        else
            ((double *)field)[i] = v;
    }
    struct tile_input in = {.field = field, .pitch = nx};
    for (int t = 0; t < ngx; t++) {
        tiles[t] = (struct tile){
            .index = t, .extent = &p.tiles[t], .device = -1, .precision = precision};
        tiles[t].settings = (struct tile_settings){
            .block_x = bx,
            .block_y = by,
            .kernel = kernel,
            .update_rule = update_rule_make(&pb, METHOD_JACOBI, 1.0, NORM_L2)};
        cr_assert_eq(device_host_ops.open(&tiles[t]), 0, "%s", tiles[t].error);
        cr_assert_eq(device_host_ops.upload(&tiles[t], &in), 0);
    }
    *count = 0;
    for (int t = 0; t < ngx; t++) {
        struct sweep_args a = {.iteration = 1, .want_sums = 1, .part = SWEEP_WHOLE};
        tile_neighbours(tiles, &tiles[t], a.neighbour);
        cr_assert_eq(device_host_ops.sweep(&tiles[t], &a), 0, "%s", tiles[t].error);
        memcpy(sums + *count, tiles[t].block_sums[1],
               (size_t)tiles[t].block_count * sizeof(double));
        *count += tiles[t].block_count;
    }
    for (int t = 0; t < ngx; t++)
        device_host_ops.close(&tiles[t]);
    free(field);
    partition_free(&p);
}

/*
 * Rows of many partial-sum blocks: the plain sweep adds the squares of four whole
 * blocks side by side (a float row's widened in a pass first where the four hold at
 * most 512 sites: 128 wide, not 130), the general sweep site by site. Their block
 * sums are the same bits, so each block's sites are still added in their one order,
 * on tiles with a west neighbour (rows from site 0) and without (from site 1). (In
 * double an order changed shows in the last bits; a float's squares add up exactly in
 * double over these blocks, so in float the check is of the sites, not the order.)
 */
Test(solver, host_rows_of_many_blocks_add_each_blocks_sites_in_order)
{
    static const int blocks[][2] = {{128, 2}, {130, 2}, {32, 8}, {5, 3}, {1, 1}};
    static double plain[20000], general[20000];
    for (int b = 0; b < (int)(sizeof blocks / sizeof blocks[0]); b++)
        for (int prec = 0; prec < 2; prec++)
            for (int ngx = 1; ngx <= 3; ngx += 2) {
                enum precision precision = prec ? PRECISION_DOUBLE : PRECISION_FLOAT;
                long n_plain, n_general;
                one_sweep_block_sums(precision, 1100, 13, ngx, blocks[b][0], blocks[b][1],
                                     KERNEL_AUTO, plain, &n_plain);
                one_sweep_block_sums(precision, 1100, 13, ngx, blocks[b][0], blocks[b][1],
                                     KERNEL_GENERAL, general, &n_general);
                cr_assert_eq(n_plain, n_general);
                for (long i = 0; i < n_plain; i++)
                    cr_assert(memcmp(&plain[i], &general[i], sizeof(double)) == 0,
                              "%s block %dx%d on %dx1: block %ld sums %.17g, site by "
                              "site %.17g",
                              precision_name(precision), blocks[b][0], blocks[b][1], ngx,
                              i, plain[i], general[i]);
            }
}

/* One sweep's norm is known in closed form: only sites next to an edge move. */
Test(solver, first_sweep_norm_matches_hand_computation)
{
    struct problem pb = test_problem(9, 7, PRECISION_DOUBLE);
    double sum = 0.0;
    for (long y = 1; y < pb.ny - 1; y++)
        for (long x = 1; x < pb.nx - 1; x++) {
            double s = (y == 1 ? TEST_BOTTOM : 0) + (x == 1 ? TEST_LEFT : 0);
            s = s + (x == pb.nx - 2 ? TEST_RIGHT : 0);
            s = s + (y == pb.ny - 2 ? TEST_TOP : 0);
            sum += (0.25 * s) * (0.25 * s);
        }
    struct solve_settings s = test_settings(0.0, 1);
    struct field f;
    struct solve_result r;
    run_reference(&pb, &s, &f, &r);
    cr_assert_float_eq(r.final_norm, sqrt(sum), 1e-15, "reference: %.17g vs %.17g",
                       r.final_norm, sqrt(sum));
    field_free(&f);
    run_tiles(&pb, 2, 2, &s, &f, &r);
    cr_assert_float_eq(r.final_norm, sqrt(sum), 1e-15, "host 2x2: %.17g vs %.17g",
                       r.final_norm, sqrt(sum));
    cr_assert_eq(r.iterations, 1);
    cr_assert_eq(r.final_norm_iteration, 1);
    field_free(&f);
}

/* 3x3: one interior site, the mean of its four edges after one sweep, then still.
 * The second sweep changes no site after a norm >= eps: named stagnated (stop_rule.h
 * cannot tell an exact solution from the last one the precision can reach). */
Test(solver, single_interior_site_converges_in_two_sweeps)
{
    struct problem pb = test_problem(3, 3, PRECISION_DOUBLE);
    struct solve_settings s = test_settings(1e-12, 1000);
    struct field f;
    struct solve_result r;
    double want = 0.25 * (((TEST_BOTTOM + TEST_LEFT) + TEST_RIGHT) + TEST_TOP);
    run_reference(&pb, &s, &f, &r);
    cr_assert_eq(r.iterations, 2, "reference: %ld iterations", r.iterations);
    cr_assert_eq(r.reason, STOP_STAGNATED);
    cr_assert_eq(field_get(&f, 1, 1), want);
    field_free(&f);
    run_tiles(&pb, 1, 1, &s, &f, &r);
    cr_assert_eq(r.iterations, 2, "host: %ld iterations", r.iterations);
    cr_assert_eq(r.reason, STOP_STAGNATED);
    cr_assert_eq(field_get(&f, 1, 1), want);
    cr_assert_eq(field_get(&f, 0, 0), TEST_BOTTOM, "corners belong to the bottom row");
    cr_assert_eq(field_get(&f, 2, 2), TEST_TOP, "corners belong to the top row");
    field_free(&f);
}

/* ---- the stopping test --------------------------------------------------- */

Test(solver, converged_run_stops_at_first_norm_below_eps)
{
    static struct norm_log log;
    struct problem pb = test_problem(21, 13, PRECISION_DOUBLE);
    for (int backend = 0; backend < 2; backend++) {
        struct solve_settings s = test_settings(1e-5, 100000);
        s.monitor = record_norm;
        s.monitor_context = &log;
        s.monitor_every = 1;
        log.count = 0;
        struct field f;
        struct solve_result r;
        if (backend)
            run_tiles(&pb, 2, 3, &s, &f, &r);
        else
            run_reference(&pb, &s, &f, &r);
        cr_assert_eq(r.reason, STOP_CONVERGED, "backend %d", backend);
        cr_assert_lt(r.final_norm, 1e-5);
        cr_assert_eq(r.final_norm_iteration, r.iterations);
        cr_assert_eq(log.count, r.iterations, "monitor called once per iteration");
        cr_assert_eq(r.norm_checks, r.iterations);
        for (long i = 0; i + 1 < log.count; i++) {
            cr_assert_eq(log.iteration[i], i + 1);
            cr_assert_geq(log.norm[i], 1e-5, "norm below eps at %ld but no stop", i + 1);
        }
        cr_assert_eq(log.norm[log.count - 1], r.final_norm);
        field_free(&f);
    }
}

Test(solver, max_iter_stops_after_exactly_max_iter)
{
    struct problem pb = test_problem(37, 23, PRECISION_FLOAT);
    for (long max_iter = 1; max_iter <= 33; max_iter += 8) {
        struct solve_settings s = test_settings(0.0, max_iter);
        struct field f;
        struct solve_result r;
        run_reference(&pb, &s, &f, &r);
        cr_assert_eq(r.reason, STOP_MAX_ITER);
        cr_assert_eq(r.iterations, max_iter, "reference: %ld iterations", r.iterations);
        field_free(&f);
        run_tiles(&pb, 3, 2, &s, &f, &r);
        cr_assert_eq(r.reason, STOP_MAX_ITER);
        cr_assert_eq(r.iterations, max_iter, "host: %ld iterations", r.iterations);
        cr_assert(isfinite(r.final_norm) && r.final_norm > 0);
        field_free(&f);
    }
}

/* Norms seen at every iteration with check_every 1, used to predict check_every K. */
static long first_multiple_below(const struct norm_log *log, long k, double eps)
{
    for (long i = 0; i < log->count; i++)
        if (log->iteration[i] % k == 0 && log->norm[i] < eps)
            return log->iteration[i];
    return -1;
}

Test(solver, check_every_k_stops_at_first_multiple_of_k_below_eps)
{
    static struct norm_log log;
    const double eps = 1e-6;
    struct problem pb = test_problem(19, 14, PRECISION_DOUBLE);
    for (int backend = 0; backend < 2; backend++) {
        struct solve_settings s = test_settings(eps, 100000);
        struct field every, f;
        struct solve_result r;
        s.monitor = record_norm;
        s.monitor_context = &log;
        s.monitor_every = 1;
        log.count = 0;
        if (backend)
            run_tiles(&pb, 2, 2, &s, &every, &r);
        else
            run_reference(&pb, &s, &every, &r);
        cr_assert_eq(r.reason, STOP_CONVERGED);
        long base = r.iterations;
        /* extend the log past convergence so every K has its multiple */
        s.eps = 0.0;
        s.max_iter = base + 64;
        log.count = 0;
        field_free(&every);
        if (backend)
            run_tiles(&pb, 2, 2, &s, &every, &r);
        else
            run_reference(&pb, &s, &every, &r);
        field_free(&every);
        for (long k = 2; k <= 37; k += 5) {
            long want = first_multiple_below(&log, k, eps);
            cr_assert_gt(want, 0);
            s = test_settings(eps, 100000);
            s.check_every = k;
            if (backend)
                run_tiles(&pb, 2, 2, &s, &f, &r);
            else
                run_reference(&pb, &s, &f, &r);
            cr_assert_eq(r.reason, STOP_CONVERGED, "K=%ld", k);
            cr_assert_eq(r.iterations % k, 0, "K=%ld: %ld iterations", k, r.iterations);
            cr_assert_eq(r.iterations, want, "backend %d K=%ld: stopped at %ld, want %ld",
                         backend, k, r.iterations, want);
            cr_assert_eq(r.norm_checks, r.iterations / k,
                         "K=%ld: norm computed %ld times", k, r.norm_checks);
            field_free(&f);
        }
    }
}

Test(solver, monitor_and_check_every_compute_the_union_of_their_iterations)
{
    static struct norm_log log;
    struct problem pb = test_problem(12, 11, PRECISION_DOUBLE);
    for (int backend = 0; backend < 2; backend++) {
        struct solve_settings s = test_settings(0.0, 15);
        s.check_every = 3;
        s.monitor_every = 5;
        s.monitor = record_norm;
        s.monitor_context = &log;
        log.count = 0;
        struct field f;
        struct solve_result r;
        if (backend)
            run_tiles(&pb, 2, 1, &s, &f, &r);
        else
            run_reference(&pb, &s, &f, &r);
        cr_assert_eq(log.count, 3, "backend %d: monitor called %ld times", backend,
                     log.count);
        cr_assert(log.iteration[0] == 5 && log.iteration[1] == 10 &&
                  log.iteration[2] == 15);
        cr_assert_eq(r.norm_checks, 7, "iterations 3 5 6 9 10 12 15; got %ld",
                     r.norm_checks);
        cr_assert_eq(r.iterations, 15);
        field_free(&f);
    }
}

/* check_every beyond max_iter: the norm is still computed, and tested, at max_iter. */
Test(solver, the_norm_at_max_iter_when_check_every_exceeds_it)
{
    struct problem pb = test_problem(12, 11, PRECISION_FLOAT);
    struct solve_settings s = test_settings(1e30, 10);
    s.check_every = 100;
    struct field f;
    struct solve_result r;
    for (int tiles = 0; tiles < 2; tiles++) {
        if (tiles)
            run_tiles(&pb, 2, 2, &s, &f, &r);
        else
            run_reference(&pb, &s, &f, &r);
        cr_assert_eq(r.reason, STOP_CONVERGED, "the norm at 10 is below eps 1e30");
        cr_assert_eq(r.iterations, 10);
        cr_assert_eq(r.norm_checks, 1);
        cr_assert_eq(r.final_norm_iteration, 10);
        cr_assert(isfinite(r.final_norm) && r.final_norm > 0, "got %g", r.final_norm);
        field_free(&f);
    }
}

Test(solver, wants_norm_at_multiples_of_check_every_and_monitor)
{
    struct solve_settings s = test_settings(1e-6, 100);
    s.check_every = 3;
    struct stop_rule rule = solve_stop_rule(&s);
    for (long i = 1; i <= 30; i++)
        cr_assert_eq(solve_wants_norm(&s, &rule, i), i % 3 == 0, "check 3, iteration %ld",
                     i);
    s.monitor_every = 5;
    for (long i = 1; i <= 30; i++)
        cr_assert_eq(solve_wants_norm(&s, &rule, i), i % 3 == 0 || i % 5 == 0,
                     "check 3 monitor 5, iteration %ld", i);
    s.check_every = 1;
    s.monitor_every = 0;
    rule = solve_stop_rule(&s);
    for (long i = 1; i <= 30; i++)
        cr_assert(solve_wants_norm(&s, &rule, i));
}

/* One decision of stop_rule.h's rule on a state whose first norm is given. */
static int step_once(const struct solve_settings *s, long k, int has_norm, double norm,
                     double first_norm, enum stop_reason *why)
{
    struct stop_rule rule = solve_stop_rule(s);
    struct stop_state state = stop_state_start();
    state.first_norm = first_norm;
    if (!stop_state_step(&rule, &state, k, has_norm, norm))
        return 0;
    *why = (enum stop_reason)state.reason;
    return 1;
}

Test(solver, should_stop_decisions)
{
    struct solve_settings s = test_settings(1e-6, 100);
    enum stop_reason why = STOP_FAILED;
    s.check_every = 4;
    s.monitor_every = 3;
    cr_assert_eq(step_once(&s, 8, 1, 1e-7, NAN, &why), 1);
    cr_assert_eq(why, STOP_CONVERGED);
    cr_assert_eq(step_once(&s, 8, 1, 1e-6, NAN, &why), 0, "norm == eps is not below eps");
    cr_assert_eq(step_once(&s, 8, 1, 2e-6, NAN, &why), 0);
    cr_assert_eq(step_once(&s, 9, 1, 1e-9, NAN, &why), 0,
                 "a monitor-only norm must not stop the run");
    cr_assert_eq(step_once(&s, 8, 0, 0.0, NAN, &why), 0, "no norm, no convergence");
    why = STOP_FAILED;
    cr_assert_eq(step_once(&s, 100, 0, NAN, NAN, &why), 1);
    cr_assert_eq(why, STOP_MAX_ITER);
    cr_assert_eq(step_once(&s, 99, 0, NAN, NAN, &why), 0,
                 "NaN without a norm is ignored");
    cr_assert_eq(step_once(&s, 12, 1, NAN, NAN, &why), 1);
    cr_assert_eq(why, STOP_DIVERGED);
    cr_assert_eq(step_once(&s, 9, 1, INFINITY, NAN, &why), 1,
                 "an infinite monitor norm is divergence too");
    cr_assert_eq(why, STOP_DIVERGED);
    cr_assert_eq(step_once(&s, 100, 1, 1e-9, NAN, &why), 1);
    cr_assert_eq(why, STOP_CONVERGED,
                 "converged wins over max-iter at the same iteration");
    s.eps = 0.0;
    cr_assert_eq(step_once(&s, 8, 1, 0.0, NAN, &why), 0, "eps 0 never converges");
    cr_assert_eq(step_once(&s, 8, 1, 2e5, 1e-3, &why), 1);
    cr_assert_eq(why, STOP_DIVERGED, "over 1e8 times the first norm is divergence");
    cr_assert_eq(step_once(&s, 8, 1, 9e4, 1e-3, &why), 0, "below 1e8 times is not");
}

Test(solver, stop_state_counts_every_iteration)
{
    struct solve_settings s = test_settings(1e-6, 100);
    s.check_every = 2;
    struct stop_rule rule = solve_stop_rule(&s);
    struct stop_state state = stop_state_start();
    cr_assert_eq(stop_state_step(&rule, &state, 1, 0, NAN), 0);
    cr_assert_eq(state.iteration, 1);
    cr_assert_eq(state.norm_checks, 0);
    cr_assert(isnan(state.first_norm), "no norm yet, no first norm");
    cr_assert_eq(stop_state_step(&rule, &state, 2, 1, 0.5), 0);
    cr_assert_eq(stop_state_step(&rule, &state, 3, 1, 0.25), 0);
    cr_assert_eq(state.iteration, 3);
    cr_assert_eq(state.norm_checks, 2);
    cr_assert_eq(state.norm_iteration, 3);
    cr_assert_eq(state.norm, 0.25);
    cr_assert_eq(state.first_norm, 0.5, "the first norm stays the first");
    stop_state_interrupt(&state);
    cr_assert(state.stopped);
    cr_assert_eq(state.reason, STOP_INTERRUPTED);
}

Test(solver, stop_reason_texts_name_the_reason)
{
    cr_assert(strstr(stop_rule_reason_text(STOP_CONVERGED), "converged"));
    cr_assert(strstr(stop_rule_reason_text(STOP_MAX_ITER), "max-iter"));
    cr_assert(strstr(stop_rule_reason_text(STOP_DIVERGED), "diverged"));
    cr_assert(strstr(stop_rule_reason_text(STOP_FAILED), "fail"));
}

/* ---- exact discrete-harmonic fields ------------------------------------ */

typedef double (*exact_fn)(double x, double y);

static double linear_dyadic(double x, double y)
{
    return 0.5 * x - 0.25 * y + 3.0;
}
static double linear_inexact(double x, double y)
{
    return 0.3 * x - 0.7 * y + 1.1;
}
static double saddle(double x, double y)
{
    return x * x - y * y;
}

static void fill(struct field *f, exact_fn u, int interior_too)
{
    for (long y = 0; y < f->ny; y++)
        for (long x = 0; x < f->nx; x++) {
            int edge = x == 0 || y == 0 || x == f->nx - 1 || y == f->ny - 1;
            field_set(f, x, y, edge || interior_too ? u((double)x, (double)y) : 0.0);
        }
}

static void check_fixed_point(exact_fn u, enum precision precision, double norm_tol,
                              double field_tol)
{
    struct problem pb = test_problem(17, 11, precision);
    struct solve_settings s = test_settings(0.0, 1);
    struct field start, out;
    struct solve_result r;
    cr_assert_eq(field_alloc(&start, pb.nx, pb.ny, precision), 0);
    fill(&start, u, 1);
    cr_assert_eq(reference_solve(&pb, &start, &s, &out, &r), 0);
    cr_assert_eq(r.iterations, 1);
    cr_assert_leq(r.final_norm, norm_tol, "%s: one sweep moved u by %g",
                  precision_name(precision), r.final_norm);
    double d = field_max_difference(&out, &start);
    cr_assert_leq(d, field_tol, "%s: field changed by %g", precision_name(precision), d);
    field_free(&start);
    field_free(&out);
}

Test(exact, linear_field_is_a_fixed_point_exactly_when_dyadic)
{
    check_fixed_point(linear_dyadic, PRECISION_DOUBLE, 0.0, 0.0);
    check_fixed_point(linear_dyadic, PRECISION_FLOAT, 0.0, 0.0);
}

Test(exact, linear_field_is_a_fixed_point_to_rounding)
{
    check_fixed_point(linear_inexact, PRECISION_DOUBLE, 1e-13, 1e-14);
    check_fixed_point(linear_inexact, PRECISION_FLOAT, 1e-4, 1e-5);
}

Test(exact, saddle_x2_minus_y2_is_a_fixed_point)
{
    check_fixed_point(saddle, PRECISION_DOUBLE, 0.0, 0.0);
    check_fixed_point(saddle, PRECISION_FLOAT, 0.0, 0.0);
}

static void check_converges_to(exact_fn u)
{
    struct problem pb = test_problem(20, 15, PRECISION_DOUBLE);
    struct solve_settings s = test_settings(1e-12, 200000);
    struct field start, out, want;
    struct solve_result r;
    cr_assert_eq(field_alloc(&start, pb.nx, pb.ny, PRECISION_DOUBLE), 0);
    cr_assert_eq(field_alloc(&want, pb.nx, pb.ny, PRECISION_DOUBLE), 0);
    fill(&start, u, 0);
    fill(&want, u, 1);
    cr_assert_eq(reference_solve(&pb, &start, &s, &out, &r), 0);
    cr_assert_eq(r.reason, STOP_CONVERGED);
    cr_assert_gt(r.iterations, 100, "from a zero interior it takes many sweeps");
    double d = field_max_difference(&out, &want);
    cr_assert_leq(d, 1e-9, "converged field differs from u by %g", d);
    field_free(&start);
    field_free(&out);
    field_free(&want);
}

Test(exact, zero_interior_converges_to_linear_field)
{
    check_converges_to(linear_inexact);
}

Test(exact, zero_interior_converges_to_saddle)
{
    check_converges_to(saddle);
}

Test(exact, plate_norm_decreases_monotonically)
{
    static struct norm_log log;
    struct problem pb = {.nx = 37, .ny = 23, .top = 1.0, .precision = PRECISION_DOUBLE};
    for (int backend = 0; backend < 2; backend++) {
        struct solve_settings s = test_settings(0.0, 400);
        s.monitor = record_norm;
        s.monitor_context = &log;
        s.monitor_every = 1;
        log.count = 0;
        struct field f;
        struct solve_result r;
        if (backend)
            run_tiles(&pb, 3, 2, &s, &f, &r);
        else
            run_reference(&pb, &s, &f, &r);
        cr_assert_eq(log.count, 400);
        for (long i = 1; i < log.count; i++)
            cr_assert_lt(log.norm[i], log.norm[i - 1],
                         "backend %d: norm rose at iteration %ld", backend, i + 1);
        /* the plate's field stays between its edge values */
        for (long y = 0; y < pb.ny; y++)
            for (long x = 0; x < pb.nx; x++)
                cr_assert(field_get(&f, x, y) >= 0.0 && field_get(&f, x, y) <= 1.0);
        field_free(&f);
    }
}

/*
 * The report names the neighbour edges that came by copy instead of peer access.
 * A host device whose connect() marks every neighbour edge as a fallback (what
 * the CUDA device does for a pair without peer access) stands in for the GPUs.
 */
static int connect_without_peers(struct tile *t, const struct tile *neighbour[SIDE_COUNT])
{
    for (int side = 0; side < SIDE_COUNT; side++)
        t->peer_fallback[side] = neighbour[side] != NULL;
    return 0;
}

Test(solver, fallback_edges_are_listed_with_their_devices)
{
    struct device_ops no_peers = device_host_ops;
    no_peers.connect = connect_without_peers;
    struct problem pb = test_problem(20, 12, PRECISION_DOUBLE);
    struct solve_settings s = test_settings(0.0, 3);
    const int devices[2] = {5, 7};
    s.devices = devices;
    struct partition p;
    struct field out;
    struct solve_result r;
    cr_assert_eq(partition_init(&p, pb.nx, pb.ny, 2, 1), 0);
    cr_assert_eq(solver_run(&no_peers, &pb, &p, &s, &out, &r), 0);
    cr_assert_eq(r.peer_fallback_pairs, 2);
    cr_assert_str_eq(r.peer_fallback, "GPU 5 <- GPU 7 (east), GPU 7 <- GPU 5 (west)");
    field_free(&out);
    partition_free(&p);
}

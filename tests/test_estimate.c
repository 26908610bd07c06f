/*
 * test_estimate.c - estimates before a run (issue 26, item 2): the iterations
 * expected from the spectral radius (problem/estimate.h) against the course table
 * measured in float and against runs in double; --dry-run's estimate and time
 * lines; the warning of a run whose --max-iter is short; a default --max-iter that
 * the course's lattices up to 2048^2 fit in.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "problem/estimate.h"
#include "settings/config.h"

#define COURSE "config/course-512.ini"

/* The course problem (top 1, the rest 0) on n x n in precision. */
static struct problem course(long n, enum precision precision)
{
    return (struct problem){.nx = n, .ny = n, .top = 1.0, .precision = precision};
}

static struct estimate estimate_of(const struct problem *p, enum method method,
                                   enum norm_kind norm, double eps)
{
    struct estimate e;
    struct update_rule rule = update_rule_make(p, method, 0.0, norm);
    estimate_make(p, &rule, eps, &e);
    return e;
}

/* The course table in float at eps 1e-10 (./laplace config/course-512.ini --nx N
 * --ny N, every backend alike): float stagnates before eps, and the estimate of
 * where it does lies within 0.8 to 1.25 times the measured count. */
Test(estimate, the_course_table_in_float_within_a_factor_of_1_25)
{
    const long side[] = {16, 32, 64, 128, 256, 512, 1024};
    const long measured[] = {676, 2606, 9745, 35073, 124611, 423553, 1399571};
    for (int k = 0; k < 7; k++) {
        struct problem p = course(side[k], PRECISION_FLOAT);
        struct estimate e = estimate_of(&p, METHOD_JACOBI, NORM_L2, 1e-10);
        double ratio = (double)e.expected / (double)measured[k];
        cr_assert(e.stagnates, "%ld: float stagnates first", side[k]);
        cr_assert(ratio >= 0.8 && ratio <= 1.25, "%ld^2: estimate %ld, measured %ld",
                  side[k], e.expected, measured[k]);
        cr_assert_gt(e.to_eps, e.expected, "eps itself lies beyond");
    }
}

/* The iterations of ./laplace args (its CSV's column 8), or -1. */
static long iterations_of(const char *args)
{
    struct run r = laplace_run("%s --csv", args);
    char field[64];
    long iterations = -1;
    if (r.status == 0 && nth_line(r.out, 1) &&
        csv_field(nth_line(r.out, 1), 7, field, sizeof field))
        iterations = atol(field);
    run_free(&r);
    return iterations;
}

/* In double the norm reaches eps: Jacobi within 5% of the estimate; weighted
 * Jacobi, SOR and the other norms within a factor of 1.5. */
Test(estimate, runs_in_double_reach_eps_near_the_estimate)
{
    struct {
        long side;
        enum method method;
        enum norm_kind norm;
        const char *args;
        double factor;
    } cases[] = {
        {16, METHOD_JACOBI, NORM_L2, "", 1.05},
        {40, METHOD_JACOBI, NORM_L2, "", 1.05},
        {64, METHOD_JACOBI, NORM_L2, "", 1.05},
        {64, METHOD_WEIGHTED, NORM_L2, "--method weighted", 1.5},
        {64, METHOD_SOR, NORM_L2, "--method sor", 1.5},
        {64, METHOD_JACOBI, NORM_MAX, "--norm max", 1.5},
        {64, METHOD_JACOBI, NORM_RESIDUAL, "--norm residual", 1.5},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct problem p = course(cases[k].side, PRECISION_DOUBLE);
        struct update_rule rule = update_rule_make(
            &p, cases[k].method,
            cases[k].method == METHOD_WEIGHTED ? WEIGHTED_OMEGA_DEFAULT : 0.0,
            cases[k].norm);
        struct estimate e;
        estimate_make(&p, &rule, 1e-10, &e);
        char args[256];
        snprintf(args, sizeof args,
                 COURSE " --precision double --backend serial --nx %ld --ny %ld %s",
                 cases[k].side, cases[k].side, cases[k].args);
        long ran = iterations_of(args);
        cr_assert_gt(ran, 0, "%s did not run", args);
        double ratio = (double)e.expected / (double)ran;
        cr_assert(!e.stagnates, "%s: double reaches eps", args);
        cr_assert(ratio >= 1.0 / cases[k].factor && ratio <= cases[k].factor,
                  "%s: estimate %ld, ran %ld", args, e.expected, ran);
    }
}

Test(estimate, dry_run_prints_the_estimate_and_a_measured_time)
{
    require_laplace();
    struct run r = laplace_run(COURSE " --nx 1024 --ny 1024 --backend cpu --dry-run");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "  estimate      about 1.") &&
                  strstr(r.out, "million iterations, where float stagnates") &&
                  strstr(r.out, "an estimate from the spectral radius"),
              "%s", r.out);
    double seconds = 0.0;
    const char *time = strstr(r.out, "  time          about ");
    cr_assert(time && sscanf(time, "  time          about %lf s", &seconds) == 1 &&
                  seconds > 0.0,
              "a measured time: %s", r.out);
    cr_assert(strstr(r.out, "measured over a warm-up of"), "%s", r.out);
    cr_assert_str_eq(r.err, "", "the default --max-iter is enough: %s", r.err);
    run_free(&r);
}

/* Issue 45, item 9: --steps N runs N iterations, so its dry run says so and times
 * them (it printed neither). */
Test(estimate, dry_run_of_steps_gives_their_count_and_time)
{
    require_laplace();
    struct run r = laplace_run("--nx 32 --method weighted --steps 10 --backend cpu --dry-run");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "  estimate      10 time steps (--steps)"), "%s", r.out);
    cr_assert(strstr(r.out, "  time          about ") &&
                  strstr(r.out, "s for the time steps"),
              "%s", r.out);
    run_free(&r);
}

/* The iterations --dry-run's estimate line gives for args, or -1. */
static long dry_run_estimate(const char *args)
{
    struct run r = laplace_run("%s --dry-run", args);
    const char *line = strstr(r.out, "  estimate      about ");
    long count = -1;
    if (!line || sscanf(line, "  estimate      about %ld iteration", &count) != 1)
        cr_log_error("%s: %s%s", args, r.out, r.err);
    run_free(&r);
    return count;
}

/* Issue 45, item 9: a lattice much longer than wide, whose slowest mode the edges
 * hardly excite, was estimated at "about 1 iterations" (5 x 100000 needs 62,
 * 3 x 100000 16): the modes along the long side are counted too. */
Test(estimate, thin_lattices_near_their_count)
{
    require_laplace();
    const char *cases[] = {"--nx 5 --ny 100000", "--nx 3 --ny 100000",
                           "--nx 100000 --ny 5", "--nx 9 --ny 20000 --top 0 --left 1"};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char args[128];
        snprintf(args, sizeof args, "--backend serial %s", cases[k]);
        long estimate = dry_run_estimate(args), ran = iterations_of(args);
        cr_assert_gt(ran, 1, "%s did not run", args);
        double ratio = (double)estimate / (double)ran;
        cr_assert(ratio >= 0.8 && ratio <= 1.25, "%s: estimate %ld, ran %ld", args,
                  estimate, ran);
    }
}

/* Issue 45, item 9: with every edge 0 and no source the field is the solution from
 * the start: the estimate says one iteration and the dry run times no warm-up. */
Test(estimate, a_problem_at_rest_takes_one_iteration)
{
    require_laplace();
    struct run r = laplace_run("--top 0 --nx 256 --backend cpu --dry-run");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "  estimate      1 iteration: every edge is 0"), "%s", r.out);
    cr_assert(strstr(r.out, "  time          none to measure") &&
                  !strstr(r.out, "warm-up"),
              "%s", r.out);
    run_free(&r);
    cr_assert_eq(iterations_of("--top 0 --nx 256 --backend cpu"), 1);
}

/* A limit the run did not choose on its command line (the default's, a file's) that
 * the estimate exceeds: one line on stderr at the start, and the run goes on. A
 * --max-iter typed for this run is its choice: the report's estimate line says it. */
Test(estimate, a_run_whose_max_iter_is_short_is_warned_at_its_start)
{
    char ini[256];
    require_laplace();
    out_path(ini, sizeof ini, "short.ini");
    cr_assert_eq(write_text(ini, "[problem]\nnx = 64\nny = 64\n[solver]\neps = 1e-10\n"
                                 "max-iter = 500\n"),
                 0);
    struct run r = laplace_run("%s --backend cpu", ini);
    cr_assert_eq(r.status, 0, "still runs: %s", r.err);
    cr_assert_eq(count_lines(r.err), 1, "one line: %s", r.err);
    cr_assert(strstr(r.err, "laplace: warning: about ") &&
                  strstr(r.err, "iterations are expected (an estimate") &&
                  strstr(r.err, "more than --max-iter 500"),
              "%s", r.err);
    cr_assert(strstr(r.out, "  estimate      about "), "the report tells it: %s", r.out);
    run_free(&r);
    r = laplace_run("%s --backend cpu --dry-run", ini);
    cr_assert(strstr(r.err, "more than --max-iter 500"), "--dry-run too: %s", r.err);
    run_free(&r);
    const char *silent[] = {" -q", " --max-iter 500", " --max-iter 100000", " --eps 0",
                            " --method weighted --steps 50"};
    for (size_t k = 0; k < sizeof silent / sizeof silent[0]; k++) {
        r = laplace_run("%s --backend cpu%s", ini, silent[k]);
        cr_assert_eq(r.status, 0, "%s: %s", silent[k], r.err);
        cr_assert_str_eq(r.err, "", "%s: %s", silent[k], r.err);
        run_free(&r);
    }
}

/* The course's 2048^2 at eps 1e-10 fits the default --max-iter, and the preset's. */
Test(estimate, the_default_max_iter_fits_the_course_up_to_2048)
{
    struct config c;
    config_defaults(&c);
    struct problem p = course(2048, PRECISION_FLOAT);
    struct estimate e = estimate_of(&p, METHOD_JACOBI, NORM_L2, 1e-10);
    /* 4.6 million by the N^2 trend of the measured table */
    cr_assert_geq(c.max_iter, 2 * 4600000, "default %ld", c.max_iter);
    cr_assert_lt(e.expected, c.max_iter);
    struct run r = laplace_run(COURSE " --nx 2048 --ny 2048 --backend cpu --dry-run");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "", "no warning: %s", r.err);
    run_free(&r);
}

/* Fixed regions change the lattice's modes: no number is made up (heater.ini's edges
 * are all 0, its heat comes from a region), and so no warning either. */
Test(estimate, fixed_regions_get_no_estimate)
{
    require_laplace();
    struct run r = laplace_run("config/heater.ini --backend cpu --dry-run");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "  estimate      none: fixed regions"), "%s", r.out);
    cr_assert_null(strstr(r.out, "  time "), "%s", r.out);
    cr_assert_str_eq(r.err, "");
    run_free(&r);
    struct problem p = course(64, PRECISION_DOUBLE);
    p.region_count = 1;
    struct estimate e = estimate_of(&p, METHOD_JACOBI, NORM_L2, 1e-10);
    cr_assert(e.regions && e.expected == 0);
}

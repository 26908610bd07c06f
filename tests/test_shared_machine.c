/*
 * test_shared_machine.c - host tiles on a machine that other work shares (issue 44,
 * item 1): their threads spin briefly, then sleep, unless the user chose how
 * (support/waits.h),
 * and a comparison or a sweep timed while other processes hold the cores says so in
 * one line, from the load average against the cores (support/load.h).
 */
#include <criterion/criterion.h>

#include <omp.h>
#include <string.h>

#include "helpers.h"

TestSuite(shared_machine, .init = require_laplace);

/* ./laplace ARGS under ENV (env's arguments), what it printed. */
static struct run run_with(const char *env, const char *args)
{
    char program[256];
    snprintf(program, sizeof program, "env %s ./laplace", env);
    return program_run(120, program, args);
}

#define TILES "--backend cpu --partition 1x2 --nx 64 --ny 64 --dry-run"

Test(shared_machine, host_tiles_never_spin_long_unless_told)
{
    struct run r = run_with("-u OMP_WAIT_POLICY -u GOMP_SPINCOUNT", TILES);
    cr_assert_eq(r.status, 0, "%s", r.err);
    if (strstr(r.out, "  waits         libgomp's own"))
        cr_skip_test("a shared libgomp (SANITIZE=1) keeps its own spin: %s", r.out);
    cr_assert(strstr(r.out, "  waits         short: a waiting thread spins 1000 times "
                            "(microseconds), then gives its core away"),
              "%s", r.out);
    run_free(&r);
    r = run_with("-u GOMP_SPINCOUNT OMP_WAIT_POLICY=active", TILES);
    cr_assert(strstr(r.out, "  waits         as the environment says "
                            "(OMP_WAIT_POLICY=active)"),
              "the user's choice wins: %s", r.out);
    run_free(&r);
    r = run_with("-u OMP_WAIT_POLICY GOMP_SPINCOUNT=1000", TILES);
    cr_assert(strstr(r.out, "(GOMP_SPINCOUNT=1000)"), "%s", r.out);
    run_free(&r);
    r = run_with("-u OMP_WAIT_POLICY", "--backend serial --nx 64 --dry-run");
    cr_assert(!strstr(r.out, "  waits"), "the serial reference has no threads: %s",
              r.out);
    run_free(&r);
}

/* The lines of stderr that name the load average. */
static int load_lines(const char *err)
{
    int lines = 0;
    for (const char *p = err; (p = strstr(p, "load average")); p++)
        lines++;
    return lines;
}

Test(shared_machine, a_comparison_on_a_busy_machine_says_so_once)
{
    char env[64];
    int cores = omp_get_num_procs();
    snprintf(env, sizeof env, "LAPLACE_LOADAVG=%d.25", cores + 3);
    struct run r = run_with(env, "--backend cpu --partition 1x2 --nx 32 --compare");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(load_lines(r.err), 1, "one line: %s", r.err);
    cr_assert(strstr(r.err, "laplace: note: the load average was") &&
                  strstr(r.err, "when this comparison started") &&
                  strstr(r.err, "speed-up are uncertain"),
              "%s", r.err);
    cr_assert(strstr(r.out, "speed-up"), "the comparison still runs: %s", r.out);
    run_free(&r);
    r = run_with("LAPLACE_LOADAVG=0.00",
                 "--backend cpu --partition 1x2 --nx 32 --compare");
    cr_assert_eq(load_lines(r.err), 0, "a quiet machine: nothing said: %s", r.err);
    run_free(&r);
    r = run_with(env, "--backend cpu --partition 1x2 --nx 32"); /* no comparison */
    cr_assert_eq(load_lines(r.err), 0, "%s", r.err);
    run_free(&r);
    r = run_with(env, "--backend cpu --partition 1x2 --nx 32 --compare -q");
    cr_assert_eq(load_lines(r.err), 0, "-q: errors only: %s", r.err);
    run_free(&r);
}

Test(shared_machine, a_sweep_on_a_busy_machine_says_so_once)
{
    char env[64];
    snprintf(env, sizeof env, "LAPLACE_LOADAVG=%d", omp_get_num_procs() + 2);
    struct run r = run_with(env, "--backend cpu --sides 8,16 --csv");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(load_lines(r.err), 1, "%s", r.err);
    cr_assert(strstr(r.err, "when this sweep started") &&
                  strstr(r.err, "fitted time exponent are uncertain"),
              "%s", r.err);
    cr_assert_eq(count_lines(r.out), 3, "stdout keeps its CSV: %s", r.out);
    run_free(&r);
}

/*
 * test_faults.c - failures that must stop the whole run cleanly: a device fault
 * injected on one tile (LAPLACE_INJECT_FAULT, fault.h) at a chosen iteration or
 * at set-up, and a lattice too large for the host's memory (memory_check.h).
 *
 * Each run has a time limit: a thread left waiting at a barrier would show as
 * status 124 (timeout) instead of 1. Under `make test SANITIZE=1` the same runs
 * also prove that every allocation is freed on the failure paths (LeakSanitizer
 * would change the status).
 */
#include "helpers.h"

#define FAULT_RUN "--backend cpu --nx 96 --ny 80 --eps 1e-12 --max-iter 400 --quiet"

/* Runs FAULT_RUN on a layout with LAPLACE_INJECT_FAULT=value (NULL: unset). */
static struct run run_with_fault(const char *value, const char *layout)
{
    if (value)
        setenv("LAPLACE_INJECT_FAULT", value, 1);
    else
        unsetenv("LAPLACE_INJECT_FAULT");
    struct run r = laplace_run_within(30, FAULT_RUN " --partition %s", layout);
    unsetenv("LAPLACE_INJECT_FAULT");
    return r;
}

/* A failed run: status 1 within the time limit, one line naming tile and step. */
static void check_fault_stopped(struct run *r, const char *tile, const char *step)
{
    cr_assert_neq(r->status, 124, "the run hung (timeout); stderr: %s", r->err);
    check_refused(r, 1, tile);
    cr_assert(strstr(r->err, step), "stderr '%s' does not name '%s'", r->err, step);
    cr_assert(strstr(r->err, "injected fault"), "stderr '%s' does not say injected",
              r->err);
}

TestSuite(faults, .init = require_laplace);

Test(faults, a_sweep_failing_on_each_tile_of_2x2_stops_every_thread)
{
    for (int tile = 0; tile < 4; tile++) {
        char value[32], named[32];
        snprintf(value, sizeof value, "%d:57", tile);
        snprintf(named, sizeof named, "tile %d", tile);
        struct run r = run_with_fault(value, "2x2");
        check_fault_stopped(&r, named, "sweep 57");
        run_free(&r);
    }
}

Test(faults, the_first_and_the_last_iteration_fail_too)
{
    struct run first = run_with_fault("1:1", "2x1");
    check_fault_stopped(&first, "tile 1", "sweep 1 ");
    struct run last = run_with_fault("0:400", "2x1");
    check_fault_stopped(&last, "tile 0", "sweep 400");
    run_free(&first);
    run_free(&last);
}

Test(faults, a_failed_set_up_stops_every_thread)
{
    struct run r = run_with_fault("5:0", "4x2");
    check_fault_stopped(&r, "tile 5", "set-up");
    run_free(&r);
}

Test(faults, eight_tiles_stop_on_one_failing_tile)
{
    struct run r = run_with_fault("6:123", "2x4");
    check_fault_stopped(&r, "tile 6", "sweep 123");
    run_free(&r);
}

Test(faults, a_fault_past_the_end_or_on_no_tile_changes_nothing)
{
    struct run clean = run_with_fault(NULL, "2x2");
    cr_assert_eq(clean.status, 0, "clean run: status %d; stderr: %s", clean.status,
                 clean.err);
    const char *values[] = {"3:401", "4:10", ""};
    for (int i = 0; i < 3; i++) {
        struct run r = run_with_fault(values[i], "2x2");
        cr_assert_eq(r.status, 0, "'%s': status %d; stderr: %s", values[i], r.status,
                     r.err);
        cr_assert_str_eq(r.err, "", "'%s' wrote on stderr", values[i]);
        run_free(&r);
    }
    run_free(&clean);
}

Test(faults, a_malformed_fault_variable_is_a_usage_error)
{
    const char *values[] = {"x:1", "1", "1:", "-1:5", "1:-5", "1:5x", "1;5"};
    for (int i = 0; i < 7; i++) {
        struct run r = run_with_fault(values[i], "2x2");
        check_refused(&r, 2, "LAPLACE_INJECT_FAULT");
        run_free(&r);
    }
}

/* ---- memory ---------------------------------------------------------------- */

/* A refusal for memory: status 1 at once, naming the sizes needed and available. */
static void check_memory_refused(const char *args, const char *extra)
{
    struct run r = laplace_run_within(10, "%s", args);
    check_refused(&r, 1, "GiB of host memory");
    cr_assert(strstr(r.err, "GiB is available"), "'%s': %s", args, r.err);
    cr_assert(strstr(r.err, "2000000x3000000"), "'%s' does not name the lattice: %s",
              args, r.err);
    if (extra)
        cr_assert(strstr(r.err, extra), "'%s' does not name '%s': %s", args, extra,
                  r.err);
    run_free(&r);
}

Test(faults, a_lattice_too_large_for_the_host_is_refused_before_any_allocation)
{
    check_memory_refused("--nx 2000000 --ny 3000000 --backend serial", NULL);
    check_memory_refused("--nx 2000000 --ny 3000000 --backend cpu --partition 2x2 "
                         "--precision float",
                         "float");
    check_memory_refused("--nx 2000000 --ny 3000000 --backend cpu --compare",
                         "with the comparisons");
}

/*
 * test_stop_column.c - every CSV row says why its run stopped (issue 26, item 3):
 * the stop column (converged, stagnated, max-iter, steps, diverged, interrupted,
 * failed) after every older column, so that no script's column number moves; the
 * report's "stopped" line begins with the same word; a run that diverges or whose
 * device fails still writes its row; --compare and --compare-cpu rows carry the
 * speed-up and efficiency of their line; --help explains stagnation.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

#define PROBLEM "--nx 37 --ny 23 --top 1 --left 0.3 --right -0.7 --bottom 2.5"
#define STOP 25 /* the column, 0-based: after role (23) and ranks (24) */
#define SPEEDUP 26
#define EFFICIENCY 27

TestSuite(stop_column, .init = require_laplace);

/* The stop column of the one row that `laplace ARGS --csv` prints; status checked. */
static void check_stop(const char *args, int status, const char *stop)
{
    char f[64];
    struct run r = laplace_run("%s --csv", args);
    cr_assert_eq(r.status, status, "%s: status %d, want %d: %s", args, r.status, status,
                 r.err);
    const char *row = nth_line(r.out, 1);
    cr_assert(row && strstr(r.out, ",role,ranks,stop,speedup,efficiency\n"),
              "%s: the header ends with the new columns: %s", args, r.out);
    cr_assert_str_eq(csv_field(row, STOP, f, sizeof f), stop, "%s: %s", args, row);
    cr_assert_str_eq(csv_field(row, 23, f, sizeof f), "run", "role stays column 24");
    run_free(&r);
}

Test(stop_column, each_reason_is_named_in_the_csv)
{
    check_stop(PROBLEM " --backend cpu --partition 2x1", 0, "converged");
    check_stop(PROBLEM " --backend serial --max-iter 10", 0, "max-iter");
    check_stop("--nx 8 --ny 8 --top 1 --precision float --eps 1e-12 --backend cpu", 0,
               "stagnated");
    check_stop(PROBLEM " --backend cpu --method weighted --steps 7", 0, "steps");
    check_stop("--nx 16 --ny 16 --precision float --lx 1e18 --ly 1e18 --source 1e4 "
               "--backend serial",
               1, "diverged");
}

Test(stop_column, a_failed_device_still_writes_its_row_then_one_line_and_status_1)
{
    char path[256], f[64];
    out_path(path, sizeof path, "failed.csv");
    setenv("LAPLACE_INJECT_FAULT", "1:5", 1);
    struct run r = laplace_run(PROBLEM " --backend cpu --partition 2x1 --csv "
                                       "--csv-append %s",
                               path);
    unsetenv("LAPLACE_INJECT_FAULT");
    cr_assert_eq(r.status, 1, "status %d: %s", r.status, r.err);
    cr_assert_eq(count_lines(r.err), 1, "one line on stderr: %s", r.err);
    cr_assert_str_eq(csv_field(nth_line(r.out, 1), STOP, f, sizeof f), "failed", "%s",
                     r.out);
    char *table = slurp(path);
    cr_assert(table && count_lines(table) == 2, "the row appended: %s", table);
    cr_assert_str_eq(csv_field(nth_line(table, 1), STOP, f, sizeof f), "failed");
    free(table);
    run_free(&r);
}

/* A comparison whose device fails (tile 1 of --compare-cpu's every core; the main
 * run has one tile) writes its row too: stop failed, no speed-up or efficiency. */
Test(stop_column, a_failed_comparison_still_writes_its_row_then_one_line_and_status_1)
{
    char path[256], f[64];
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        cr_skip_test("needs two cores: --compare-cpu's second tile fails");
    out_path(path, sizeof path, "failed-comparison.csv");
    setenv("LAPLACE_INJECT_FAULT", "1:5", 1);
    struct run r = laplace_run(PROBLEM " --backend cpu --partition 1x1 --compare-cpu "
                                       "--csv --csv-append %s",
                               path);
    unsetenv("LAPLACE_INJECT_FAULT");
    cr_assert_eq(r.status, 1, "status %d: %s", r.status, r.err);
    cr_assert_eq(count_lines(r.err), 1, "one line on stderr: %s", r.err);
    const char *run = nth_line(r.out, 1), *cpu = nth_line(r.out, 2);
    cr_assert(run && cpu, "two rows: %s", r.out);
    cr_assert_str_eq(csv_field(run, STOP, f, sizeof f), "converged", "%s", r.out);
    cr_assert_str_eq(csv_field(cpu, 23, f, sizeof f), "compare-cpu", "%s", r.out);
    cr_assert_str_eq(csv_field(cpu, STOP, f, sizeof f), "failed", "%s", r.out);
    cr_assert_str_eq(csv_field(cpu, SPEEDUP, f, sizeof f), "", "no speed-up: %s", cpu);
    cr_assert_str_eq(csv_field(cpu, EFFICIENCY, f, sizeof f), "");
    char *table = slurp(path);
    cr_assert(table && count_lines(table) == 3, "both rows appended: %s", table);
    cr_assert_str_eq(csv_field(nth_line(table, 2), STOP, f, sizeof f), "failed");
    free(table);
    run_free(&r);
}

Test(stop_column, an_interrupted_run_is_named_interrupted, .timeout = 60)
{
    char out[256], command[1024];
    out_path(out, sizeof out, "interrupted.csv");
    snprintf(command, sizeof command,
             "./laplace --backend cpu --partition 1x1 --nx 300 --ny 300 --eps 1e-14 "
             "--max-iter 100000000 --csv > %s 2>/dev/null & pid=$!; sleep 1; "
             "kill -INT $pid; wait $pid",
             out);
    int raw = system(command);
    cr_assert(WIFEXITED(raw) && WEXITSTATUS(raw) == 130, "status %d", raw);
    char *text = slurp(out), f[64];
    cr_assert(text && nth_line(text, 1), "%s", text);
    cr_assert_str_eq(csv_field(nth_line(text, 1), STOP, f, sizeof f), "interrupted");
    free(text);
}

Test(stop_column, the_report_begins_its_stopped_line_with_the_same_word)
{
    struct run r = laplace_run(PROBLEM " --backend serial --max-iter 10");
    cr_assert(strstr(r.out, "\n  stopped       max-iter: "), "%s", r.out);
    run_free(&r);
    r = laplace_run(PROBLEM " --backend serial --method weighted --steps 7");
    cr_assert(strstr(r.out, "\n  stopped       steps: the 7 time steps"), "%s", r.out);
    run_free(&r);
}

/* The speed-up and efficiency of a CSV row, the time of its compute. */
static double field_number(const char *row, int n)
{
    char f[64];
    csv_field(row, n, f, sizeof f);
    return f[0] ? atof(f) : NAN;
}

Test(stop_column, comparison_rows_carry_the_speedup_and_efficiency)
{
    char f[64];
    struct run r = laplace_run(PROBLEM " --backend cpu --partition 2x1 --compare "
                                       "--compare-cpu --csv");
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *run = nth_line(r.out, 1), *one = nth_line(r.out, 2),
               *cpu = nth_line(r.out, 3);
    cr_assert(run && one && cpu, "three rows: %s", r.out);
    cr_assert_str_eq(csv_field(run, SPEEDUP, f, sizeof f), "", "the main run: none");
    cr_assert_str_eq(csv_field(run, EFFICIENCY, f, sizeof f), "");
    cr_assert_str_eq(csv_field(one, 23, f, sizeof f), "compare-1-device");
    double t = field_number(run, 11), t1 = field_number(one, 11);
    double s1 = field_number(one, SPEEDUP), e1 = field_number(one, EFFICIENCY);
    cr_assert(fabs(s1 - t1 / t) <= 0.01 * s1 + 1e-3, "speed-up %g of %g / %g", s1, t1, t);
    cr_assert(fabs(e1 - s1 / 2) <= 1e-3, "efficiency %g = speed-up / 2 tiles", e1);
    cr_assert_str_eq(csv_field(one, STOP, f, sizeof f), "converged");
    cr_assert_str_eq(csv_field(cpu, 23, f, sizeof f), "compare-cpu");
    cr_assert(field_number(cpu, SPEEDUP) > 0, "the speed-up over the CPU: %s", cpu);
    cr_assert_str_eq(csv_field(cpu, EFFICIENCY, f, sizeof f), "",
                     "no efficiency against another kind of device");
    run_free(&r);
}

Test(stop_column, help_explains_the_stops_and_stagnation)
{
    struct run r = laplace_run("--help");
    const char *stops = strstr(r.out, "\nStops");
    cr_assert(stops, "a Stops section: %s", r.out);
    const char *names[] = {"converged", "stagnated",   "max-iter", "steps",
                           "diverged",  "interrupted", "failed"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        cr_assert(strstr(stops, names[i]), "names %s", names[i]);
    cr_assert(strstr(stops, "working precision can move no site"), "why it stagnates");
    run_free(&r);
}

/*
 * test_sides_time.c - time before the wait (issue 44, item 2): --sides --dry-run
 * gives each side's iterations and time and their total, nothing solved; a run, or
 * the sides, expected to take more than a minute says so in its first line; Ctrl-C
 * in --sides prints the rows done and their fit, then exits 130.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "helpers.h"

#define COURSE "config/course-512.ini --backend cpu"

TestSuite(sides_time, .init = require_laplace);

Test(sides_time, dry_run_gives_each_side_and_the_total, .timeout = 120)
{
    struct run r = laplace_run(COURSE " --sides 16,32,64 --dry-run");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "laplace --sides --dry-run: float, jacobi, eps 1e-10"), "%s",
              r.out);
    const char *sides[] = {"      16^2  about ", "      32^2  about ",
                           "      64^2  about "};
    for (int k = 0; k < 3; k++) {
        const char *line = strstr(r.out, sides[k]);
        cr_assert(line, "side %d: %s", k, r.out);
        char text[512] = "";
        sscanf(line, "%511[^\n]", text);
        cr_assert(strstr(text, "where float stagnates") && strstr(text, "s (") &&
                      strstr(text, "over a warm-up of"),
                  "its iterations and time: %s", r.out);
    }
    cr_assert(strstr(r.out, "  total         about ") &&
                  strstr(r.out, " for 3 sides (each side's estimated iterations"),
              "%s", r.out);
    cr_assert(strstr(r.out, "  nothing solved (--dry-run)"), "%s", r.out);
    cr_assert(!strstr(r.out, "stagnated") && !strstr(r.out, "  fit "), "no solve: %s",
              r.out);
    run_free(&r);
}

/* Starts ./laplace ARGS in the background, waits (at most 60 s) until its stdout
 * holds `until`, sends SIGINT and waits for it; returns the status, the outputs in
 * out and err. */
static int interrupt_when(const char *args, const char *until, char **out, char **err)
{
    char o[256], e[256], command[2048];
    int status;
    out_path(o, sizeof o, "interrupted.out");
    out_path(e, sizeof e, "interrupted.err");
    snprintf(command, sizeof command,
             "./laplace %s > %s 2> %s & p=$!; for i in $(seq 600); do "
             "grep -q '%s' %s && break; sleep 0.1; done; kill -INT $p; wait $p; "
             "echo status=$?",
             args, o, e, until, o);
    char *said = shell_run(command, &status);
    const char *at = strstr(said, "status=");
    status = at ? atoi(at + 7) : -1;
    free(said);
    *out = slurp(o);
    *err = slurp(e);
    cr_assert(*out && *err, "no outputs");
    remove(o);
    remove(e);
    return status;
}

Test(sides_time, ctrl_c_prints_the_rows_done_and_their_fit, .timeout = 120)
{
    char *out, *err;
    int status = interrupt_when(COURSE " --sides 16,32,1024", "32^2 ", &out, &err);
    cr_assert_eq(status, 130, "status %d: %s%s", status, out, err);
    cr_assert(strstr(out, "      16^2         634 iterations") ||
                  strstr(out, "      16^2         676 iterations"),
              "%s", out);
    cr_assert(strstr(out, "      32^2        2606 iterations"), "%s", out);
    cr_assert(strstr(out, "  interrupted   by SIGINT at 1024^2: the rows above are "
                          "the sides done"),
              "%s", out);
    cr_assert(strstr(out, "  fit           iterations ~ N^") &&
                  strstr(out, "over 2 sides that converged or stagnated"),
              "the fit of the sides done: %s", out);
    free(out);
    free(err);
}

Test(sides_time, long_sides_say_so_in_their_first_line, .timeout = 120)
{
    char *out, *err;
    int status = interrupt_when(COURSE " --sides 16,1024", "16^2 ", &out, &err);
    cr_assert_eq(status, 130, "status %d: %s%s", status, out, err);
    cr_assert(strncmp(err, "laplace: this sweep is expected to take about ", 46) == 0,
              "the first line: %s", err);
    cr_assert(strstr(err, "(2 sides; --sides ... --dry-run gives each side's time"), "%s",
              err);
    free(out);
    free(err);
    struct run r = laplace_run(COURSE " --sides 16,32");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(!strstr(r.err, "expected to take"), "a short one says nothing: %s", r.err);
    run_free(&r);
}

Test(sides_time, a_long_run_says_so_in_its_first_line, .timeout = 120)
{
    char *out, *err;
    int status = interrupt_when(COURSE " --nx 1024 --ny 1024 --monitor 1000",
                                "iteration ", &out, &err);
    cr_assert_eq(status, 130, "status %d: %s%s", status, out, err);
    cr_assert(strncmp(err, "laplace: this run is expected to take about ", 44) == 0,
              "the first line: %s", err);
    cr_assert(strstr(err, "million iterations") &&
                  strstr(err, "--dry-run tells this without solving"),
              "%s", err);
    free(out);
    free(err);
    struct run r = laplace_run(COURSE " --nx 64 --ny 64");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(!strstr(r.err, "expected to take"), "a short one says nothing: %s", r.err);
    run_free(&r);
}

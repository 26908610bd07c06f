/*
 * test_trust_numbers.c - numbers that mean what they say (issue 16, items 8-12):
 * a stop is named for what happened (stagnation is not convergence), the host
 * tiles fit what OpenMP gives and say when they outnumber the cores, settings
 * the host would ignore or repeat are refused, the last norm of a run is always
 * one it computed, numbers are decimal, and what laplace echoes stays one line.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <omp.h>

#include "helpers.h"
#include "progress.h"

TestSuite(trust_numbers, .init = require_laplace);

/* A float lattice whose update becomes exactly 0 while the norm is still above
 * eps: the last norms are 5.6e-9, 1.9e-9, then 0 at iteration 165. */
#define STAGNATES "--nx 8 --ny 8 --top 1 --precision float --eps 1e-12"

/* The last line of text that holds anything, copied into line. */
static void last_line(const char *text, char *line, size_t n)
{
    const char *end = text + strlen(text);
    while (end > text && end[-1] == '\n')
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(line, n, "%.*s", (int)(end - start), start);
}

/* ---- 8. stagnation is named ----------------------------------------------- */

Test(trust_numbers, a_float_run_whose_update_vanishes_is_named_stagnated)
{
    char history[256], row[128];
    out_path(history, sizeof history, "stagnates.csv");
    struct run r = laplace_run(STAGNATES " --backend serial --history %s", history);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "stopped       stagnated: no site changed at iteration 165"),
              "%s", r.out);
    cr_assert_null(strstr(r.out, "converged"), "not named converged: %s", r.out);
    cr_assert(strstr(r.out, "iterations    165 "), "the stop itself is unchanged: %s",
              r.out);
    /* the history shows it: the last norm is 0 and the one before it >= eps */
    char *h = slurp(history);
    cr_assert_not_null(h);
    last_line(h, row, sizeof row);
    cr_assert(strncmp(row, "165,0.000000000e+00,", 20) == 0, "last history row: %s", row);
    const char *before = strstr(h, "\n164,");
    cr_assert(before && strtod(before + 5, NULL) >= 1e-12, "row 164: %s", h);
    free(h);
    run_free(&r);
    /* the host tiles name it the same; the CSV keeps converged = 1 */
    r = laplace_run(STAGNATES " --backend cpu --partition 2x1 --csv");
    cr_assert_eq(r.status, 0, "%s", r.err);
    char f[64];
    const char *csv = nth_line(r.out, 1);
    cr_assert_not_null(csv, "%s", r.out);
    cr_assert_str_eq(csv_field(csv, 7, f, sizeof f), "165");
    cr_assert_str_eq(csv_field(csv, 8, f, sizeof f), "1", "converged column");
    run_free(&r);
    /* the same lattice in double does converge */
    r = laplace_run("--nx 8 --ny 8 --top 1 --precision double --eps 1e-12 --backend cpu");
    cr_assert(strstr(r.out, "stopped       converged: the norm fell below eps"), "%s",
              r.out);
    run_free(&r);
}

Test(trust_numbers, stagnation_is_named_with_sparse_checks_and_a_monitor)
{
    struct run r = laplace_run(STAGNATES " --backend cpu --check-every 10 --monitor 1");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "stagnated: no site changed at iteration 170"), "%s", r.out);
    run_free(&r);
}

/* ---- 9. the host tiles and OpenMP ------------------------------------------ */

Test(trust_numbers, auto_partition_fits_omp_thread_limit)
{
    setenv("OMP_THREAD_LIMIT", "1", 1);
    struct run r = laplace_run("--nx 37 --ny 23 --backend cpu --max-iter 5 --csv");
    cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
    char f[64];
    const char *csv = nth_line(r.out, 1);
    cr_assert_not_null(csv, "%s", r.out);
    cr_assert_str_eq(csv_field(csv, 4, f, sizeof f), "1x1", "one thread: one tile");
    run_free(&r);
}

Test(trust_numbers, a_partition_beyond_what_openmp_gives_names_the_variable)
{
    setenv("OMP_THREAD_LIMIT", "1", 1);
    struct run r = laplace_run("--nx 37 --ny 23 --backend cpu --partition 2x1");
    cr_assert_eq(r.status, 1, "status %d", r.status);
    cr_assert_eq(count_lines(r.err), 1, "%s", r.err);
    cr_assert(strstr(r.err, "OMP_THREAD_LIMIT allows 1"), "%s", r.err);
    run_free(&r);
    unsetenv("OMP_THREAD_LIMIT");
    setenv("OMP_MAX_ACTIVE_LEVELS", "0", 1);
    r = laplace_run("--nx 37 --ny 23 --backend cpu --partition 2x1");
    cr_assert_eq(r.status, 1, "status %d", r.status);
    cr_assert(strstr(r.err, "OMP_MAX_ACTIVE_LEVELS allows 1"), "%s", r.err);
    run_free(&r);
}

Test(trust_numbers, more_host_tiles_than_cores_warn_once_and_run, .timeout = 60)
{
    if (access("/usr/bin/script", X_OK) != 0)
        cr_skip_test("needs script(1) for a terminal");
    int tiles = omp_get_num_procs() + 1;
    char out[256], command[1024];
    out_path(out, sizeof out, "tiles.txt");
    /* on a terminal (the note is for a person); laplace chooses the waits itself */
    snprintf(command, sizeof command,
             "env -u OMP_WAIT_POLICY script -qc './laplace --nx %d --ny 8 --backend cpu "
             "--partition %dx1 --max-iter 20 --compare' /dev/null > %s",
             tiles + 2, tiles, out);
    cr_assert_eq(system(command), 0);
    char *text = slurp(out), want[128];
    cr_assert_not_null(text);
    snprintf(want, sizeof want, "laplace: warning: %d host tiles on %d cores", tiles,
             tiles - 1);
    const char *at = strstr(text, want);
    cr_assert(at, "no warning: %s", text);
    cr_assert_null(strstr(at + strlen(want), "warning"), "said once: %s", text);
    /* passive where libgomp is linked statically (make); a shared libgomp
     * (make SANITIZE=1) has no spin count to set, and the note says so */
    int shared_gomp = system("ldd ./laplace 2>/dev/null | grep -q libgomp") == 0;
    cr_assert(
        strstr(text, shared_gomp ? "waits as OpenMP was told" : "waits made passive"),
        "%s", text);
    cr_assert(strstr(text, "iterations    20 "), "the run went on: %s", text);
    free(text);
    /* a script's stderr stays clean */
    struct run r = laplace_run(
        "--nx %d --ny 8 --backend cpu --partition %dx1 --max-iter 5", tiles + 2, tiles);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "");
    run_free(&r);
}

/* ---- 10. what the host backends would ignore or repeat --------------------- */

Test(trust_numbers, compare_cpu_of_the_host_tiles_on_every_core_is_refused)
{
    struct run r = laplace_run("--nx 37 --ny 23 --backend cpu --compare-cpu");
    cr_assert_eq(r.status, 2, "status %d", r.status);
    cr_assert_eq(count_lines(r.err), 1, "%s", r.err);
    cr_assert(strncmp(r.err, "laplace: --compare-cpu:", 23) == 0, "%s", r.err);
    run_free(&r);
}

Test(trust_numbers, a_gpu_kernel_on_the_host_backends_is_refused)
{
    const char *refused[] = {"--backend cpu --kernel rows",
                             "--backend cpu --partition 2x1 --kernel global",
                             "--backend serial --kernel shared"};
    for (int i = 0; i < 3; i++) {
        struct run r = laplace_run("--nx 37 --ny 23 %s", refused[i]);
        cr_assert_eq(r.status, 2, "%s: status %d", refused[i], r.status);
        cr_assert_eq(count_lines(r.err), 1, "%s: %s", refused[i], r.err);
        cr_assert(strncmp(r.err, "laplace: --kernel:", 18) == 0, "%s", r.err);
        run_free(&r);
    }
    struct run r = laplace_run(
        "--nx 37 --ny 23 --backend cpu --kernel auto --block 8x8 --max-iter 3");
    cr_assert_eq(r.status, 0, "--kernel auto and --block stay: %s", r.err);
    run_free(&r);
}

/* ---- 11. the last norm is one computed; Ctrl-C's report -------------------- */

Test(trust_numbers, check_every_beyond_max_iter_reports_the_norm_at_max_iter)
{
    const char *backends[] = {"serial", "cpu --partition 2x1"};
    for (int i = 0; i < 2; i++) {
        struct run r = laplace_run("--nx 37 --ny 23 --top 1 --backend %s --check-every "
                                   "50 --max-iter 30",
                                   backends[i]);
        cr_assert_eq(r.status, 0, "%s", r.err);
        const char *line = strstr(r.out, "final norm    ");
        cr_assert(line, "%s", r.out);
        double norm = strtod(line + 14, NULL);
        cr_assert(isfinite(norm) && norm > 0, "%s: %s", backends[i], r.out);
        cr_assert(strstr(line, "at iteration 30 "), "%s", r.out);
        cr_assert(strstr(r.out, "stopped at --max-iter"), "%s", r.out);
        run_free(&r);
    }
}

Test(trust_numbers, ctrl_c_without_outputs_does_not_speak_of_outputs, .timeout = 60)
{
    char report[256], command[1024];
    out_path(report, sizeof report, "interrupted.txt");
    snprintf(command, sizeof command,
             "./laplace --backend cpu --partition 1x1 --nx 300 --ny 300 --eps 1e-14 "
             "--max-iter 100000000 > %s 2>&1 & pid=$!; sleep 1; kill -INT $pid; "
             "wait $pid",
             report);
    int raw = system(command);
    cr_assert(WIFEXITED(raw) && WEXITSTATUS(raw) == 130, "status %d", raw);
    char *text = slurp(report);
    cr_assert(text && strstr(text, "interrupted at iteration "), "%s", text);
    cr_assert_null(strstr(text, "outputs hold"), "no outputs were asked for: %s", text);
    free(text);
}

/* ---- 12. numbers are decimal; echoed names stay one line ------------------- */

Test(trust_numbers, numbers_are_decimal_without_spaces)
{
    static const char *refused[][2] = {
        {"--top 0x10", "--top"},
        {"--nx ' 64'", "--nx"},
        {"--nx '64 '", "--nx"},
        {"--nx 0x40", "--nx"},
        {"--eps 0x1p-3", "--eps"},
        {"--eps ' 1e-3'", "--eps"},
        {"--max-iter 1e3", "--max-iter"},
        {"--partition ' 2x2'", "--partition"},
        {"--partition '2x 2'", "--partition"},
        {"--left ' 1'", "--left"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        struct run r = laplace_run("--nx 37 --ny 23 --max-iter 2 -q %s", refused[i][0]);
        cr_assert_eq(r.status, 2, "%s: status %d", refused[i][0], r.status);
        cr_assert_eq(count_lines(r.err), 1, "%s: %s", refused[i][0], r.err);
        char want[64];
        snprintf(want, sizeof want, "laplace: %s:", refused[i][1]);
        cr_assert(strncmp(r.err, want, strlen(want)) == 0, "%s: %s", refused[i][0],
                  r.err);
        run_free(&r);
    }
    struct run r = laplace_run(
        "--nx +37 --ny 23 --top -.5 --bottom 2.5e-1 --eps .5e-3 --max-iter 2 -q");
    cr_assert_eq(r.status, 0, "plain decimals: %s", r.err);
    run_free(&r);
}

/* Runs laplace ARGS and checks its one line of stderr holds want. */
static void one_line_with(const char *args, const char *want)
{
    struct run r = laplace_run("%s", args);
    cr_assert_neq(r.status, 0, "%s", args);
    cr_assert_eq(count_lines(r.err), 1, "%s: '%s'", args, r.err);
    cr_assert(strstr(r.err, want), "%s: '%s' lacks '%s'", args, r.err, want);
    run_free(&r);
}

Test(trust_numbers, names_echoed_in_errors_stay_on_one_line, .timeout = 120)
{
    one_line_with("\"$(printf 'no\\nsuch\\t\\377.ini')\"", "no\\nsuch\\t\\xFF.ini");
    one_line_with("\"$(printf -- '--x\\033[31m')\"", "'--x\\x1B[31m'");
    one_line_with("\"$(printf -- '--csv=\\nq')\"", "'--csv=\\nq'");
    one_line_with("\"$(printf 'a\\rb')\" \"$(printf 'c\\nd')\"", "'a\\rb' and 'c\\nd'");
    setenv("LAPLACE_INJECT_FAULT", "1\n:x", 1);
    one_line_with("--nx 8 --ny 8", "LAPLACE_INJECT_FAULT='1\\n:x'");
    unsetenv("LAPLACE_INJECT_FAULT");
    setenv("LAPLACE_BENCH_DIR", "/nonexistent\n/x", 1);
    one_line_with("--bench", "/nonexistent\\n/x");
}

/* The progress line drawn with the environment as it is, as a string. */
static char *progress_text(void)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    struct progress p;
    progress_start(&p, out, 1e-300, "comparing: 1 tile");
    for (long k = 1; k <= 2000; k++)
        progress_add(&p, k, 1e100 * pow(0.9, (double)k), (double)k * 1e-3);
    progress_end(&p);
    fclose(out);
    char *copy = strdup(text);
    free(text);
    return copy;
}

Test(trust_numbers, the_progress_line_on_a_dumb_terminal_has_no_escapes)
{
    const char *settings[][2] = {{"TERM", "dumb"}, {"NO_COLOR", "1"}};
    for (int i = 0; i < 2; i++) {
        unsetenv("NO_COLOR");
        setenv("TERM", "xterm", 1);
        setenv(settings[i][0], settings[i][1], 1);
        char *text = progress_text();
        cr_assert(strstr(text, "\r  comparing: 1 tile  iteration "), "%s", text);
        cr_assert_null(strchr(text, '\033'), "%s=%s: an escape sequence in '%s'",
                       settings[i][0], settings[i][1], text);
        size_t n = strlen(text);
        cr_assert(n > 2 && text[n - 1] == '\r' && text[n - 2] == ' ',
                  "the end clears the line with spaces");
        free(text);
    }
}

Test(trust_numbers, the_progress_line_of_laplace_on_a_dumb_terminal_has_no_escapes,
     .timeout = 60)
{
    if (access("/usr/bin/script", X_OK) != 0)
        cr_skip_test("needs script(1) for a terminal");
    char out[256], command[1024];
    out_path(out, sizeof out, "dumb.txt");
    snprintf(command, sizeof command,
             "TERM=dumb script -qc './laplace --backend cpu --partition 1x1 --nx 200 "
             "--ny 200 --eps 1e-9' /dev/null > %s",
             out);
    cr_assert_eq(system(command), 0);
    char *text = slurp(out);
    cr_assert(text && strstr(text, "\r  iteration "), "no progress line: %s", text);
    cr_assert_null(strchr(text, '\033'), "an escape sequence: %s", text);
    free(text);
}

/* Item 7, in part: an edge value with no float is refused, named. */
Test(trust_numbers, an_edge_value_beyond_the_largest_float_is_refused)
{
    require_laplace();
    struct run big = laplace_run("--backend serial --precision float --top 1e39");
    check_refused(&big, 2, "--top");
    run_free(&big);
    struct run fits = laplace_run("--backend serial --precision double --top 1e39 --nx 8 "
                                  "--ny 8 --max-iter 5 -q");
    cr_assert_eq(fits.status, 0, "double holds it: %s", fits.err);
    run_free(&fits);
}

/* Item 12 for --region too: its numbers are decimal, as every other number. */
Test(trust_numbers, region_numbers_are_decimal)
{
    const char *bad[] = {"rect 0x1 0 1 1 5", "disc 0.5 0.5 0.2 inf", "rect 0 0 1 1 0x10"};
    for (int i = 0; i < 3; i++) {
        struct run r = laplace_run("--backend serial --region '%s'", bad[i]);
        check_refused(&r, 2, "--region");
        run_free(&r);
    }
    struct run ok = laplace_run("--backend serial --nx 32 --ny 32 --max-iter 5 -q "
                                "--region 'rect 0.2 0.2 0.4 0.4 5'");
    cr_assert_eq(ok.status, 0, "%s", ok.err);
    run_free(&ok);
}

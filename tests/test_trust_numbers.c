/*
 * test_trust_numbers.c - numbers that mean what they say (issue 16, items 7-12):
 * a huge but finite field is not divergence (its norm is scaled, not overflowed),
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
#include "watch/progress.h"
#include "problem/update_rule.h"

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

/* Issue 44, item 5: where the run stagnated the final norm is 0, below eps; the
 * same line names the last nonzero norm (the history's row before the 0), so the
 * stop line ("the update before it still >= eps") and the norms agree. */
Test(trust_numbers, a_stagnated_run_names_its_last_nonzero_norm)
{
    char history[256], expected[128];
    out_path(history, sizeof history, "nonzero.csv");
    struct run r = laplace_run(STAGNATES " --backend serial --history %s", history);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *h = slurp(history);
    cr_assert_not_null(h);
    const char *before = strstr(h, "\n164,");
    cr_assert_not_null(before, "%s", h);
    double norm = strtod(before + 5, NULL);
    cr_assert(norm >= 1e-12, "row 164: %s", h);
    snprintf(expected, sizeof expected,
             "final norm    0.000000e+00 at iteration 165 (eps 1e-12); last nonzero "
             "norm %.6e at iteration 164\n",
             norm);
    cr_assert(strstr(r.out, expected), "want \"%s\" in:\n%s", expected, r.out);
    free(h);
    run_free(&r);
    /* norms every 10 iterations: the last nonzero one is at 160; tiles alike */
    r = laplace_run(STAGNATES " --backend cpu --partition 2x1 --check-every 10");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "(eps 1e-12); last nonzero norm ") &&
                  strstr(r.out, " at iteration 160\n"),
              "%s", r.out);
    run_free(&r);
    /* a converged run's line is as before */
    r = laplace_run("--nx 8 --ny 8 --top 1 --precision double --eps 1e-12 --backend cpu");
    cr_assert_null(strstr(r.out, "last nonzero"), "%s", r.out);
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
    /* a script's log is told too (issue 26, item 11), in one line; -q: errors only */
    struct run r = laplace_run(
        "--nx %d --ny 8 --backend cpu --partition %dx1 --max-iter 5", tiles + 2, tiles);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, want) && count_lines(r.err) == 1, "%s", r.err);
    run_free(&r);
    r = laplace_run("--nx %d --ny 8 --backend cpu --partition %dx1 --max-iter 5 -q",
                    tiles + 2, tiles);
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
             "--ny 200 --eps 1e-9 --max-iter 3000' /dev/null > %s",
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

/* ---- 7. overflow is not divergence ------------------------------------------ */

/* 300 sweeps of a small lattice, eps 0 so that nothing stops them early. */
#define OVERFLOW_RUN "--nx 33 --ny 17 --max-iter 300 --eps 0 --csv"

/* The n values of a .bin file (behind its 48-byte header) as doubles; malloc'd. */
static double *bin_values(const char *path, size_t value_size, long n)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s was not written", path);
    double *values = malloc((size_t)n * sizeof *values);
    unsigned char raw[8];
    cr_assert_eq(fseek(f, 48, SEEK_SET), 0);
    for (long i = 0; i < n; i++) {
        cr_assert_eq(fread(raw, value_size, 1, f), 1, "%s: value %ld missing", path, i);
        float v;
        if (value_size == sizeof v)
            memcpy(&v, raw, sizeof v), values[i] = v;
        else
            memcpy(&values[i], raw, sizeof values[i]);
    }
    fclose(f);
    return values;
}

/* Runs laplace OVERFLOW_RUN ARGS --output BIN; returns the final norm of its CSV
 * row; the run must finish (status 0, 300 iterations) without saying diverged. */
static double overflow_run(const char *bin, const char *args)
{
    struct run r = laplace_run(OVERFLOW_RUN " %s --output %s", args, bin);
    cr_assert_eq(r.status, 0, "%s: status %d, stderr: %s", args, r.status, r.err);
    cr_assert_null(strstr(r.err, "diverged"), "%s: %s", args, r.err);
    char f[64];
    const char *csv = nth_line(r.out, 1);
    cr_assert_not_null(csv, "%s: %s", args, r.out);
    cr_assert_str_eq(csv_field(csv, 7, f, sizeof f), "300", "%s: iterations", args);
    double norm = strtod(csv_field(csv, 9, f, sizeof f), NULL);
    cr_assert(isfinite(norm) && norm > 0, "%s: final norm %s", args, f);
    run_free(&r);
    return norm;
}

/*
 * The top edge at 2^shift: every value of the problem 2^shift times that of top 1,
 * so in exact power-of-two scaling every sum, product and square is 2^shift (or
 * 4^shift) times the small problem's, bit for bit. The host tiles must give the
 * serial reference's field, that field must be 2^shift times the small one, and
 * the norm 2^shift times the small one's (to the 10 digits the CSV prints), where
 * the unscaled square of an update of about 2^(shift - 2) overflows.
 */
static void check_huge_top(const char *precision, int shift)
{
    const long n = 33 * 17;
    const size_t size = strcmp(precision, "float") == 0 ? 4 : 8;
    char huge[512], small[256], tiles[256], serial[256], args[1024];
    snprintf(huge, sizeof huge, "--precision %s --top %.0f", precision, ldexp(1, shift));
    out_path(small, sizeof small, "top-one.bin");
    out_path(tiles, sizeof tiles, "huge-tiles.bin");
    out_path(serial, sizeof serial, "huge-serial.bin");
    snprintf(args, sizeof args, "%s --backend cpu --partition 2x1", huge);
    double norm = overflow_run(tiles, args);
    snprintf(args, sizeof args, "%s --backend serial", huge);
    overflow_run(serial, args);
    snprintf(args, sizeof args, "--precision %s --top 1 --backend serial", precision);
    double small_norm = overflow_run(small, args);

    double *t = bin_values(tiles, size, n), *r = bin_values(serial, size, n);
    double *one = bin_values(small, size, n);
    for (long i = 0; i < n; i++) {
        cr_assert(memcmp(&t[i], &r[i], sizeof t[i]) == 0,
                  "%s: site %ld: tiles %a, serial %a", precision, i, t[i], r[i]);
        cr_assert_eq(r[i], ldexp(one[i], shift), "%s: site %ld: %a is not 2^%d x %a",
                     precision, i, r[i], shift, one[i]);
    }
    cr_assert(fabs(norm - ldexp(small_norm, shift)) <= 2e-9 * norm,
              "%s: norm %.9e is not 2^%d x %.9e", precision, norm, shift, small_norm);
    free(t);
    free(r);
    free(one);
}

Test(trust_numbers, a_huge_float_field_is_not_divergence)
{
    check_huge_top("float", 66); /* updates of 2^64: their float square is inf */
    /* issue 16's own example */
    struct run r =
        laplace_run("--backend cpu --precision float --top 1e20 --nx 64 --ny 64 "
                    "--max-iter 100 -q");
    cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
    run_free(&r);
}

Test(trust_numbers, a_huge_double_field_is_not_divergence)
{
    check_huge_top("double", 530); /* updates of 2^528: their square is past 2^1024 */
    struct run r = laplace_run("--backend cpu --precision double --top 1e160 --nx 64 "
                               "--ny 64 --max-iter 100 -q");
    cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
    run_free(&r);
}

/* The problem of the exact check below: every value 2^shift times the plain one. */
static struct problem scaled_problem(enum precision precision, int shift,
                                     const char *source)
{
    double s = ldexp(1, shift);
    struct problem pb = {.nx = 33,
                         .ny = 17,
                         .top = s,
                         .bottom = 2.5 * s,
                         .left = 0.3 * s,
                         .right = 0.7 * s,
                         .precision = precision};
    snprintf(pb.source, sizeof pb.source, "%s", source);
    pb.regions[0] = (struct region){.shape = REGION_RECT,
                                    .x0 = 0.4,
                                    .y0 = 0.1,
                                    .x1 = 0.6,
                                    .y1 = 0.3,
                                    .value = 1.5 * s};
    pb.region_count = source[0] != '\0';
    return pb;
}

/* Solves pb on the reference and on 2x1 host tiles, for 200 iterations. */
static void solve_twice(const struct problem *pb, const struct solve_settings *s,
                        struct field f[2], struct solve_result r[2])
{
    run_reference(pb, s, &f[0], &r[0]);
    run_tiles(pb, 2, 1, s, &f[1], &r[1]);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(r[i].reason, STOP_MAX_ITER, "%s %s, top %g, %s: %s",
                     method_name(s->tile.update_rule.method),
                     precision_name(pb->precision), pb->top,
                     i ? "host tiles" : "reference", stop_rule_reason_text(r[i].reason));
    cr_assert(field_bit_identical(&f[0], &f[1]), "tiles and reference differ");
}

/*
 * Below the command line and to the last bit: for each rule (plain Jacobi with the
 * l2 norm; weighted Jacobi with a source formula, a fixed region and the residual
 * norm; SOR with both and the l2 norm), the problem scaled by 2^shift gives 2^shift
 * times the plain problem's field and final norm exactly, on the reference and on
 * the host tiles (whose norms differ from the reference's in the last bits: the
 * sums are added in another order).
 */
Test(trust_numbers, a_huge_field_has_exactly_the_scaled_norm_on_every_rule)
{
    const struct {
        enum method method;
        double omega;
        enum norm_kind norm;
        int source;
    } rules[] = {{METHOD_JACOBI, 1.0, NORM_L2, 0},
                 {METHOD_WEIGHTED, 0.8, NORM_RESIDUAL, 1},
                 {METHOD_SOR, 0.0, NORM_L2, 1}};
    const struct {
        enum precision precision;
        int shift;
        const char *source; /* f = -3 (x + y), times 2^shift */
    } scales[] = {{PRECISION_FLOAT, 66, "-3*2^66*(x+y)"},
                  {PRECISION_DOUBLE, 530, "-3*2^530*(x+y)"}};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 3; k++) {
            int shift = scales[i].shift, src = rules[k].source;
            struct problem one =
                scaled_problem(scales[i].precision, 0, src ? "-3*(x+y)" : "");
            struct problem big =
                scaled_problem(scales[i].precision, shift, src ? scales[i].source : "");
            struct solve_settings s = test_settings(0.0, 200);
            s.tile.update_rule =
                update_rule_make(&one, rules[k].method, rules[k].omega, rules[k].norm);
            struct field f1[2], fb[2];
            struct solve_result r1[2], rb[2];
            solve_twice(&one, &s, f1, r1);
            solve_twice(&big, &s, fb, rb);
            const char *what = method_name(rules[k].method);
            for (int b = 0; b < 2; b++) {
                cr_assert_eq(rb[b].final_norm, ldexp(r1[b].final_norm, shift),
                             "%s %s, %s: norm %a, not 2^%d x %a", what,
                             precision_name(big.precision), b ? "tiles" : "reference",
                             rb[b].final_norm, shift, r1[b].final_norm);
            }
            for (long y = 0; y < one.ny; y++)
                for (long x = 0; x < one.nx; x++)
                    cr_assert_eq(field_get(&fb[0], x, y),
                                 ldexp(field_get(&f1[0], x, y), shift),
                                 "%s: site (%ld, %ld)", what, x, y);
            for (int b = 0; b < 2; b++) {
                field_free(&f1[b]);
                field_free(&fb[b]);
            }
        }
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

/* Issue 45, item 10: a value refused by its setter (on the command line or in an INI
 * file: a key, a value, a section) was echoed with its raw tab, where README
 * promises \t: every refusal is one line of escaped text. */
Test(trust_numbers, a_tab_in_a_refused_value_is_echoed_as_backslash_t, .timeout = 60)
{
    char ini[256];
    one_line_with("--precision \"$(printf 'a\\tb')\"", "'a\\tb'");
    one_line_with("--partition \"$(printf '2\\tx2')\"", "2\\tx2");
    out_path(ini, sizeof ini, "tab.ini");
    cr_assert_eq(write_text(ini, "[problem]\nnx = 8\tx\n"), 0);
    struct run r = laplace_run("%s", ini);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "'8\\tx'") && !strchr(r.err, '\t'), "'%s'", r.err);
    run_free(&r);
    cr_assert_eq(write_text(ini, "[pro\tblem]\nnx = 8\n"), 0);
    r = laplace_run("%s", ini);
    cr_assert(strstr(r.err, "[pro\\tblem]") && !strchr(r.err, '\t'), "'%s'", r.err);
    run_free(&r);
}

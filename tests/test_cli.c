/*
 * test_cli.c - ./laplace end to end, as a user sees it: exit statuses, the
 * one-line messages on stderr, the report, the CSV row and the .dat files.
 * The tests run from the repository root (make test).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "p2p.h"

TestSuite(cli, .init = require_laplace);

/* The small problem most tests solve: odd, non-square, non-zero edges. */
#define PROBLEM "--nx 37 --ny 23 --top 1 --left 0.3 --right -0.7 --bottom 2.5"

/* ---- help and version ---------------------------------------------------- */

Test(cli, help_lists_every_option)
{
    static const char *options[] = {"--nx",
                                    "--ny",
                                    "--top",
                                    "--bottom",
                                    "--left",
                                    "--right",
                                    "--precision",
                                    "--method",
                                    "--omega",
                                    "--eps",
                                    "--norm",
                                    "--max-iter",
                                    "--check-every",
                                    "--steps",
                                    "--snapshot-every",
                                    "--backend",
                                    "--partition",
                                    "--devices",
                                    "--block",
                                    "--kernel",
                                    "--reduce",
                                    "--no-p2p",
                                    "--compare",
                                    "--monitor",
                                    "--history",
                                    "--csv",
                                    "--output",
                                    "--quiet",
                                    "--topology",
                                    "--bench",
                                    "--help",
                                    "--version",
                                    "-q",
                                    "-h"};
    struct run r = laplace_run("--help");
    cr_assert_eq(r.status, 0, "--help exits 0, got %d", r.status);
    cr_assert_str_eq(r.err, "");
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        char word[64];
        snprintf(word, sizeof word, "%s ", options[i]);
        cr_assert(strstr(r.out, word), "--help does not mention %s", options[i]);
    }
    cr_assert(strstr(r.out, "Exit status"), "help explains the exit status");
    run_free(&r);
    r = laplace_run("-h");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "--partition"));
    run_free(&r);
}

Test(cli, version_names_laplace_and_cuda)
{
    struct run r = laplace_run("--version");
    cr_assert_eq(r.status, 0);
    cr_assert_eq(strncmp(r.out, "laplace ", 8), 0, "starts with 'laplace ': %s", r.out);
    cr_assert(strstr(r.out, "CUDA"), "names the CUDA runtime (or its absence): %s",
              r.out);
    cr_assert_eq(count_lines(r.out), 1);
    run_free(&r);
}

/* The licence is chosen on purpose (README's Licence): LICENSE holds the GPL-3
 * text, and --version names it, as the statically linked libmatheval requires. */
Test(cli, licence_file_and_version_name_gpl3)
{
    char *text = slurp("LICENSE");
    cr_assert(text, "LICENSE not found at the repository root");
    const char *first = text + strspn(text, " \n");
    cr_assert_eq(strncmp(first, "GNU GENERAL PUBLIC LICENSE", 26), 0,
                 "LICENSE starts as the GPL text: %.60s", first);
    cr_assert(strstr(text, "Version 3, 29 June 2007"), "LICENSE is the GPL version 3");
    free(text);
    struct run r = laplace_run("--version");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "GPL-3.0-or-later"), "--version names the licence: %s",
              r.out);
    run_free(&r);
}

Test(cli, topology_counts_the_devices)
{
    struct run r = laplace_run("--topology");
#ifdef HAVE_CUDA
    char want[64];
    int n = p2p_device_count();
    snprintf(want, sizeof want, ": %d CUDA device%s", n, n == 1 ? "" : "s");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert(strstr(r.out, want), "'%s' not in: %s", want, r.out);
#else
    check_refused(&r, 1, "CUDA");
#endif
    run_free(&r);
}

/* ---- refusals: a status, one line on stderr, nothing on stdout ----------- */

/* An INI file a refusal reads, written under tests/out before the run. */
struct ini_file {
    const char *name; /* out_path's name; NULL: none */
    const char *text;
};

struct refusal {
    const char *args;         /* after ./laplace, through the shell; %s, %s: the files */
    struct ini_file files[2]; /* written first, in order */
    int status;               /* 2: bad command line or file; 1: fails before solving */
    const char *named;        /* stderr names it; %s: the last file written */
    const char *also[2];      /* more that stderr must hold; NULL: nothing */
};

static const struct refusal refusals[] = {
    {"--nx abc", .status = 2, .named = "--nx", .also = {"abc"}}, /* quotes the value */
    {"--nx 5 --ny 5 --backend cpu --partition 9x9", .status = 2, .named = "--partition"},
    {PROBLEM " --backend serial --partition 2x2", .status = 2, .named = "--partition"},
    {PROBLEM " --backend serial --compare", .status = 2, .named = "--compare"},
    {PROBLEM " --speed 11", .status = 2, .named = "--speed"},
    {"--nx 9 --eps", .status = 2, .named = "--eps"},
    {PROBLEM " --output field.jpg", .status = 2, .named = "--output",
     .also = {".jpg", ".png"}},
    {TEST_OUT "/there-is-no-such.ini", .status = 2, .named = "there-is-no-such.ini"},
    {"%s %s",
     .files = {{"one.ini", "[problem]\nnx = 9\n"}, {"two.ini", "[problem]\nnx = 9\n"}},
     .status = 2, .named = "%s"},
    {"%s", .files = {{"bad-line.ini", "; test\n[problem]\nnx = 37\nny = twenty\n"}},
     .status = 2, .named = "%s:4:"},
    {"--nx 2000 --ny 2000 --backend cpu --partition 64x32", .status = 2,
     .named = "--partition", .also = {"at most 1024"}},
    /* Regression (config_load_file): fopen() opens a directory, inih read nothing from
     * it and "laplace DIR" ran the default problem with status 0. */
    {TEST_OUT " --nx 5 --ny 5 --max-iter 1", .status = 2, .named = TEST_OUT},
    /* --monitor 1 would show that the solve started: a monitor line per sweep. */
    {PROBLEM " --backend serial --max-iter 3 --monitor 1 --output " TEST_OUT
             "/no-such-dir/field.dat",
     .status = 1, .named = "no-such-dir/field.dat"},
};

/* 1 when the run was refused as e says (named: e->named with its file); else 0 with
 * why. The checks of helpers.h's check_refused, and e->also. */
static int refused_as(const struct run *r, const struct refusal *e, const char *named,
                      char *why, size_t n)
{
    size_t length = strlen(r->err);
    if (r->status != e->status)
        return snprintf(why, n, "status %d, want %d", r->status, e->status), 0;
    if (count_lines(r->err) != 1 || length == 0 || r->err[length - 1] != '\n')
        return snprintf(why, n, "stderr is not exactly one line"), 0;
    if (!strstr(r->err, named))
        return snprintf(why, n, "stderr does not name '%s'", named), 0;
    for (int k = 0; k < 2; k++)
        if (e->also[k] && !strstr(r->err, e->also[k]))
            return snprintf(why, n, "stderr lacks '%s'", e->also[k]), 0;
    if (r->out[0] != '\0')
        return snprintf(why, n, "nothing on stdout, got: %s", r->out), 0;
    return 1;
}

Test(cli, refusals_exit_with_one_line_naming_the_cause)
{
    ensure_out_dir();
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        const struct refusal *e = &refusals[i];
        char paths[2][256] = {"", ""}, args[1024], named[512], why[1024];
        int last = 0;
        for (int k = 0; k < 2 && e->files[k].name; k++) {
            out_path(paths[k], sizeof paths[k], e->files[k].name);
            cr_assert_eq(write_text(paths[k], e->files[k].text), 0, "%s", paths[k]);
            last = k;
        }
        snprintf(args, sizeof args, e->args, paths[0], paths[1]);
        snprintf(named, sizeof named, e->named, paths[last]);
        struct run r = laplace_run("%s", args);
        cr_expect(refused_as(&r, e, named, why, sizeof why), "laplace %s: %s; stderr: %s",
                  args, why, r.err);
        run_free(&r);
    }
}

Test(cli, gpu_backend_without_gpu_fails_with_status_1)
{
    if (p2p_device_count() > 0)
        cr_skip_test("this machine has a GPU");
    struct run r = laplace_run(PROBLEM " --backend gpu");
    check_refused(&r, 1, "CUDA");
    cr_assert(strstr(r.err, "--backend cpu"), "suggests the CPU backend: %s", r.err);
    run_free(&r);
}

/* ---- the report and the CSV row ------------------------------------------ */

#define CSV_HEADER                                                                       \
    "backend,precision,nx,ny,partition,devices,method,iterations,converged,final_norm,"  \
    "time_input_s,time_compute_s,time_output_s,time_total_s,glups,gbps,gflops"

static void check_csv_row(const char *row, const char *backend, const char *precision,
                          const char *partition, long iterations, int converged)
{
    char f[128];
    cr_assert_str_eq(csv_field(row, 0, f, sizeof f), backend);
    cr_assert_str_eq(csv_field(row, 1, f, sizeof f), precision);
    cr_assert_str_eq(csv_field(row, 2, f, sizeof f), "37");
    cr_assert_str_eq(csv_field(row, 3, f, sizeof f), "23");
    cr_assert_str_eq(csv_field(row, 4, f, sizeof f), partition);
    cr_assert_str_eq(csv_field(row, 5, f, sizeof f), "-", "no GPU ids on the host");
    cr_assert_str_eq(csv_field(row, 6, f, sizeof f), "jacobi");
    if (iterations > 0)
        cr_assert_eq(atol(csv_field(row, 7, f, sizeof f)), iterations, "iterations: %s",
                     f);
    cr_assert_eq(atoi(csv_field(row, 8, f, sizeof f)), converged, "converged: %s", f);
    double norm = atof(csv_field(row, 9, f, sizeof f));
    cr_assert(isfinite(norm) && norm > 0, "final_norm %s", f);
    double times[4];
    for (int i = 0; i < 4; i++) {
        times[i] = atof(csv_field(row, 10 + i, f, sizeof f));
        cr_assert_geq(times[i], 0.0, "time column %d is %s", 10 + i, f);
    }
    cr_assert_geq(times[3] + 1e-6, times[1], "total time >= compute time");
    for (int i = 14; i < 17; i++)
        cr_assert_geq(atof(csv_field(row, i, f, sizeof f)), 0.0, "column %d is %s", i, f);
}

Test(cli, csv_prints_the_contract_header_and_one_row)
{
    struct run r =
        laplace_run(PROBLEM " --backend cpu --partition 2x2 --max-iter 11 --eps 0 --csv");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_eq(count_lines(r.out), 2, "header and one row:\n%s", r.out);
    /* DESIGN.md: these columns in this order, more may follow (test_trust_cli.c) */
    cr_assert_eq(strncmp(r.out, CSV_HEADER ",", strlen(CSV_HEADER) + 1), 0,
                 "header is\n%.*s\nwant it to start with\n%s", (int)strcspn(r.out, "\n"),
                 r.out, CSV_HEADER);
    check_csv_row(nth_line(r.out, 1), "cpu", "double", "2x2", 11, 0);
    run_free(&r);
}

Test(cli, csv_row_of_a_converged_serial_run)
{
    struct run r =
        laplace_run(PROBLEM " --backend serial --precision float --eps 1e-3 --csv");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_eq(count_lines(r.out), 2);
    check_csv_row(nth_line(r.out, 1), "serial", "float", "1x1", -1, 1);
    run_free(&r);
}

Test(cli, csv_is_not_mixed_with_monitor_lines)
{
    struct run r = laplace_run(
        PROBLEM " --backend cpu --partition 2x1 --max-iter 20 --monitor 1 --csv");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_eq(count_lines(r.out), 2, "CSV output stays machine-readable:\n%s", r.out);
    run_free(&r);
}

Test(cli, check_every_stops_on_a_multiple_of_k)
{
    struct run r = laplace_run(PROBLEM " --backend cpu --partition 2x2 --eps 1e-4 "
                                       "--check-every 7 --csv");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    const char *row = nth_line(r.out, 1);
    cr_assert_not_null(row, "no CSV row:\n%s", r.out);
    check_csv_row(row, "cpu", "double", "2x2", -1, 1);
    char f[64];
    long iterations = atol(csv_field(row, 7, f, sizeof f));
    cr_assert(iterations > 0 && iterations % 7 == 0,
              "%ld iterations, not a multiple of 7", iterations);
    run_free(&r);
}

Test(cli, max_iter_stops_with_status_0_and_says_so)
{
    struct run r = laplace_run(PROBLEM " --backend cpu --partition 1x2 --max-iter 7");
    cr_assert_eq(r.status, 0, "stopping at --max-iter is not an error; stderr: %s",
                 r.err);
    cr_assert(strstr(r.out, "max-iter"), "report says why it stopped:\n%s", r.out);
    cr_assert(strstr(r.out, "iterations    7 "), "report shows 7 iterations:\n%s", r.out);
    cr_assert_str_eq(r.err, "");
    run_free(&r);
}

Test(cli, converged_run_says_converged)
{
    struct run r = laplace_run(PROBLEM " --backend cpu --partition 2x2 --eps 1e-4");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert(strstr(r.out, "converged"), "%s", r.out);
    cr_assert(strstr(r.out, "37 x 23"), "report names the lattice:\n%s", r.out);
    cr_assert(strstr(r.out, "partition 2x2"), "report names the partition:\n%s", r.out);
    run_free(&r);
}

Test(cli, monitor_prints_every_k_iterations)
{
    struct run r =
        laplace_run(PROBLEM " --backend cpu --partition 2x2 --max-iter 30 --monitor 10");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    long seen[8];
    int count = 0;
    for (const char *line = r.out; line; line = nth_line(line, 1))
        if (strncmp(line, "  iteration ", 12) == 0 && count < 8)
            seen[count++] = atol(line + 12);
    cr_assert_eq(count, 3, "3 monitor lines in:\n%s", r.out);
    cr_assert(seen[0] == 10 && seen[1] == 20 && seen[2] == 30, "at 10, 20, 30");
    cr_assert(strstr(r.out, "norm"), "monitor lines show the norm");
    run_free(&r);
}

Test(cli, quiet_prints_nothing_but_still_writes)
{
    char dat[256];
    out_path(dat, sizeof dat, "quiet.dat");
    struct run r =
        laplace_run(PROBLEM " --backend cpu --partition 2x1 --max-iter 5 --monitor 1 "
                            "--quiet --output %s",
                    dat);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_str_eq(r.out, "", "--quiet printed:\n%s", r.out);
    cr_assert_str_eq(r.err, "");
    cr_assert_eq(access(dat, R_OK), 0, "the output file is still written");
    remove(dat);
    run_free(&r);
    r = laplace_run(PROBLEM " --backend serial --max-iter 5 -q");
    cr_assert_eq(r.status, 0);
    cr_assert_str_eq(r.out, "", "-q printed:\n%s", r.out);
    run_free(&r);
}

/* More host tiles than there are GPU device slots (64): each tile is a thread
 * with no device, and the field still equals one tile's (compare: difference 0). */
Test(cli, seventy_host_tiles_equal_one_tile)
{
    struct run r = laplace_run("--nx 80 --ny 9 --top 1 --left 0.3 --backend cpu "
                               "--partition 70x1 --max-iter 20 --compare");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert(strstr(r.out, "70 tiles"), "%s", r.out);
    cr_assert(strstr(r.out, "largest field difference 0\n"), "%s", r.out);
    run_free(&r);
}

Test(cli, compare_reports_zero_field_difference)
{
    struct run r =
        laplace_run(PROBLEM " --backend cpu --partition 2x2 --eps 1e-4 --compare");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert(strstr(r.out, "speed-up"), "%s", r.out);
    cr_assert(strstr(r.out, "largest field difference 0\n"),
              "host tiles equal one tile bit for bit:\n%s", r.out);
    run_free(&r);
}

Test(cli, compare_with_csv_prints_two_rows)
{
    struct run r = laplace_run(
        PROBLEM " --backend cpu --partition 3x2 --max-iter 9 --csv --compare");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_eq(count_lines(r.out), 3, "header and two rows:\n%s", r.out);
    check_csv_row(nth_line(r.out, 1), "cpu", "double", "3x2", 9, 0);
    check_csv_row(nth_line(r.out, 2), "cpu", "double", "1x1", 9, 0);
    run_free(&r);
}

Test(cli, compare_cpu_reports_speed_up_over_the_host_tiles)
{
    struct run r =
        laplace_run(PROBLEM " --backend cpu --partition 1x1 --eps 1e-4 --compare-cpu");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert(strstr(r.out, ": CPU ("), "%s", r.out);
    cr_assert(strstr(r.out, "largest field difference 0\n"), "%s", r.out);
    run_free(&r);
}

Test(cli, compare_and_compare_cpu_with_csv_print_three_rows)
{
    struct run r = laplace_run(
        PROBLEM
        " --backend cpu --partition 3x2 --max-iter 9 --csv --compare --compare-cpu");
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_eq(count_lines(r.out), 4, "header and three rows:\n%s", r.out);
    char f[128];
    const char *row = nth_line(r.out, 3); /* the host tiles on every core: any layout */
    cr_assert_str_eq(csv_field(row, 0, f, sizeof f), "cpu");
    cr_assert_eq(atol(csv_field(row, 7, f, sizeof f)), 9, "iterations: %s", row);
    run_free(&r);
}

Test(cli, options_override_the_config_file)
{
    char path[256];
    out_path(path, sizeof path, "override.ini");
    cr_assert_eq(write_text(path, "[problem]\nnx = 9\nny = 23\nprecision = float\n"
                                  "[parallel]\nbackend = serial\n"),
                 0);
    struct run r = laplace_run("--nx 37 %s --max-iter 3 --csv", path);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    char f[64];
    const char *row = nth_line(r.out, 1);
    cr_assert_not_null(row);
    cr_assert_str_eq(csv_field(row, 0, f, sizeof f), "serial", "backend from the file");
    cr_assert_str_eq(csv_field(row, 1, f, sizeof f), "float", "precision from the file");
    cr_assert_str_eq(csv_field(row, 2, f, sizeof f), "37", "--nx before the file wins");
    cr_assert_str_eq(csv_field(row, 3, f, sizeof f), "23");
    run_free(&r);
}

/* ---- output files -------------------------------------------------------- */

/* Reads a .dat file into rows of numbers; returns the row count. */
static int read_dat(const char *path, double *values, int max_values, int *per_row,
                    int max_rows)
{
    char *text = slurp(path);
    cr_assert_not_null(text, "cannot read %s", path);
    int rows = 0, n = 0;
    for (char *line = text; *line && rows < max_rows;) {
        char *end = strchr(line, '\n');
        cr_assert_not_null(end, "%s: last line has no newline", path);
        *end = '\0';
        per_row[rows] = 0;
        char *p = line, *q;
        for (;;) {
            double v = strtod(p, &q);
            if (q == p)
                break;
            cr_assert_lt(n, max_values);
            values[n++] = v;
            per_row[rows]++;
            p = q;
        }
        while (*p == ' ')
            p++;
        cr_assert_eq(*p, '\0', "%s line %d: junk '%s'", path, rows + 1, p);
        rows++;
        line = end + 1;
    }
    free(text);
    return rows;
}

Test(cli, dat_file_has_ny_rows_of_nx_values_top_row_first)
{
    static double v[64 * 64];
    int per_row[64];
    char dat[256];
    out_path(dat, sizeof dat, "shape.dat");
    struct run r =
        laplace_run("--nx 13 --ny 7 --top 1.5 --bottom -2 --left 0.25 --right 3 "
                    "--backend cpu --partition 2x2 --max-iter 3 --output %s",
                    dat);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    int rows = read_dat(dat, v, 64 * 64, per_row, 64);
    cr_assert_eq(rows, 7, "ny rows, got %d", rows);
    for (int y = 0; y < rows; y++)
        cr_assert_eq(per_row[y], 13, "row %d has %d values, want nx = 13", y, per_row[y]);
    for (int x = 0; x < 13; x++) {
        cr_assert_eq(v[x], 1.5, "first line is the top edge (corners too), x=%d: %g", x,
                     v[x]);
        cr_assert_eq(v[6 * 13 + x], -2.0, "last line is the bottom edge, x=%d: %g", x,
                     v[6 * 13 + x]);
    }
    for (int y = 1; y < 6; y++) {
        cr_assert_eq(v[y * 13], 0.25, "left edge on line %d", y + 1);
        cr_assert_eq(v[y * 13 + 12], 3.0, "right edge on line %d", y + 1);
    }
    /* after 3 sweeps the site next to the top-left corner has moved towards its edges */
    cr_assert(v[13 + 1] > 0.0 && v[13 + 1] < 1.5, "interior value %g", v[13 + 1]);
    cr_assert(v[5 * 13 + 1] < 0.25, "near the bottom edge it is pulled below 0: %g",
              v[5 * 13 + 1]);
    remove(dat);
    run_free(&r);
}

Test(cli, dat_values_read_back_to_the_same_bits)
{
    static double v[64 * 64];
    int per_row[64];
    char dat[256];
    out_path(dat, sizeof dat, "digits.dat");
    struct run r = laplace_run("--nx 9 --ny 6 --top 0.1 --left 0.3 --backend serial "
                               "--max-iter 2 --output %s",
                               dat);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_eq(read_dat(dat, v, 64 * 64, per_row, 64), 6);
    cr_assert_eq(v[0], 0.1, "0.1 written with round-trip digits");
    /* site (1, ny-2) after two sweeps, computed in the design's order */
    double s1_east = 0.25 * (((0.0 + 0.0) + 0.0) + 0.1);  /* (2,4) after sweep 1 */
    double s1_south = 0.25 * (((0.0 + 0.3) + 0.0) + 0.0); /* (1,3) after sweep 1 */
    double want = 0.25 * (((s1_south + 0.3) + s1_east) + 0.1);
    cr_assert_eq(v[1 * 9 + 1], want, "got %.17g want %.17g", v[9 + 1], want);
    remove(dat);
    run_free(&r);
}

/*
 * Regression test (output.c, output_check_writable): the check before the solve only
 * creates "PATH.tmpPID" beside PATH, so an output path that is an existing
 * directory passes it; the run solves and then fails at its end ("writing
 * '...' failed: Is a directory"), which output.h promises never happens.
 * Expected: status 1 before the first sweep (no monitor line on stdout).
 */
Test(cli, output_path_that_is_a_directory_fails_before_solving)
{
    char dir[256];
    out_path(dir, sizeof dir, "isdir.dat");
    cr_assert(mkdir(dir, 0777) == 0, "cannot create %s", dir);
    struct run r = laplace_run(
        PROBLEM " --backend serial --max-iter 3 --monitor 1 --output %s", dir);
    rmdir(dir);
    cr_assert_eq(r.status, 1, "status %d: %s", r.status, r.err);
    cr_assert_str_eq(
        r.out, "", "it solved before finding that the output is a directory:\n%s", r.out);
    run_free(&r);
}

static void check_same_dat(const char *precision)
{
    char a[256], b[256], c[256];
    out_path(a, sizeof a, "serial.dat");
    out_path(b, sizeof b, "cpu22.dat");
    out_path(c, sizeof c, "cpu31.dat");
    struct run r = laplace_run(
        PROBLEM " --precision %s --eps 1e-5 --backend serial --output %s", precision, a);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    run_free(&r);
    r = laplace_run(
        PROBLEM " --precision %s --eps 1e-5 --backend cpu --partition 2x2 --output %s",
        precision, b);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    run_free(&r);
    r = laplace_run(PROBLEM " --precision %s --eps 1e-5 --backend cpu --partition 3x1 "
                            "--block 4x4 --output %s --output %s",
                    precision, c, b);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    run_free(&r);
    char *sa = slurp(a), *sb = slurp(b), *sc = slurp(c);
    cr_assert(sa && sb && sc);
    cr_assert_eq(count_lines(sa), 23);
    cr_assert_str_eq(sa, sb, "%s: serial and cpu 2x2 .dat differ", precision);
    cr_assert_str_eq(sa, sc, "%s: serial and cpu 3x1 .dat differ", precision);
    free(sa), free(sb), free(sc);
    remove(a), remove(b), remove(c);
}

Test(cli, serial_and_cpu_tiles_write_identical_dat_double)
{
    check_same_dat("double");
}

Test(cli, serial_and_cpu_tiles_write_identical_dat_float)
{
    check_same_dat("float");
}

/* ---- presets ------------------------------------------------------------- */

static void check_preset(const char *path, const char *expect)
{
    if (access(path, R_OK) != 0)
        cr_skip_test("%s is not there yet", path);
    struct run r = laplace_run("%s --max-iter 5 --backend cpu", path);
    cr_assert_eq(r.status, 0, "%s: status %d, stderr: %s", path, r.status, r.err);
    cr_assert_str_eq(r.err, "", "%s: stderr: %s", path, r.err);
    cr_assert(strstr(r.out, expect), "%s: report lacks '%s':\n%s", path, expect, r.out);
    run_free(&r);
}

Test(cli, preset_default_ini_runs)
{
    check_preset("config/default.ini", "laplace: ");
}

/* A GPU job of make run, on host tiles and a 130 x 97 float lattice (on the CPU the
 * real one would take minutes): it runs `iterations` and prints its comparison. */
static void check_gpu_job(const char *args, const char *iterations)
{
    struct run r = laplace_run("%s --backend cpu --nx 130 --ny 97", args);
    cr_assert_eq(r.status, 0, "%s: status %d, stderr: %s", args, r.status, r.err);
    cr_assert(strstr(r.out, "130 x 97 lattice, float"), "%s", r.out);
    cr_assert(strstr(r.out, iterations), "%s", r.out);
    cr_assert(strstr(r.out, "speed-up"), "the comparison line:\n%s", r.out);
    run_free(&r);
}

/* make run's job on several GPUs (--compare). */
Test(cli, preset_default_gpu_ini_runs)
{
    check_gpu_job("config/default-gpu.ini", "iterations    1000 ");
}

/* make run's job on one GPU (--compare-cpu, which wants a partition on host tiles). */
Test(cli, preset_default_one_gpu_ini_runs)
{
    check_gpu_job("config/default-one-gpu.ini --partition 2x1", "iterations    300 ");
}

/* make run says which comparison it makes, chosen by the GPUs it finds
 * (scripts/run_job.sh; LAPLACE_RUN_GPUS stands for them). */
Test(cli, make_run_says_which_comparison_it_makes)
{
    static const struct {
        int gpus;
        const char *said, *job;
    } cases[] = {
        {0, "make run: no GPU visible: the host tiles on every core against one",
         "./laplace config/default.ini\n"},
        {1,
         "make run: 1 GPU: the GPU against the host tiles on every core (--compare-cpu)",
         "./laplace config/default-one-gpu.ini\n"},
        {3, "make run: 3 GPUs: every GPU against one (--compare)",
         "./laplace config/default-gpu.ini\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char program[128];
        snprintf(program, sizeof program,
                 "env LAPLACE_RUN_GPUS=%d bash scripts/run_job.sh --print",
                 cases[i].gpus);
        struct run r = program_run(30, program, "./laplace");
        cr_expect_eq(r.status, 0, "%d GPUs: status %d: %s", cases[i].gpus, r.status,
                     r.err);
        cr_expect(strstr(r.out, cases[i].said) && strstr(r.out, cases[i].job),
                  "%d GPUs: said\n%s", cases[i].gpus, r.out);
        run_free(&r);
    }
}

Test(cli, preset_course_512_ini_runs)
{
    check_preset("config/course-512.ini", "512 x 512 lattice, float");
}

Test(cli, preset_heat_plate_ini_runs)
{
    check_preset("config/heat-plate.ini", "1024 x 1024 lattice, double");
}

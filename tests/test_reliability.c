/*
 * test_reliability.c - nothing lost when one thing fails (issue 45), through
 * ./laplace in a shell: the run's record kept whatever output failed, the lab
 * sweep checked whole before its first solve, options a backend cannot honour
 * refused, and a closed stdout reported on every path. Each test works in a
 * folder of its own under tests/out, removed at the end.
 */
#define _GNU_SOURCE /* memmem */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define SERIAL "--backend serial --nx 64 --ny 64"

/* A fresh folder tests/out/<pid>-reliability-NAME in dir. */
static void fresh(char *dir, size_t n, const char *name)
{
    char label[128];
    snprintf(label, sizeof label, "reliability-%s", name);
    fresh_out_dir(dir, n, label);
}

static void remove_dir(const char *dir)
{
    char command[1200];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    cr_assert_eq(system(command), 0);
}

/* ---- item 1: a failing output keeps the run's record ------------------------- */

/* A 20-block file size limit: the .dat fails, the report is still printed. */
Test(reliability, a_failed_output_keeps_the_report, .timeout = 60)
{
    char dir[1024];
    require_laplace();
    fresh(dir, sizeof dir, "report");
    int status = run_in_dir(dir, "ulimit -f 20; $L " SERIAL
                                 " --output big.dat --output small.png > o.txt");
    cr_assert_eq(status, 1);
    err_in_dir_says(dir, "big.dat", "File too large");
    char *report = text_in_dir(dir, "o.txt");
    cr_assert(strstr(report, "converged") || strstr(report, "stopped"),
              "no report on stdout after a failed output:\n%s", report);
    cr_assert(exists_in_dir(dir, "small.png"));
    free(report);
    remove_dir(dir);
}

/* The same with --csv and --csv-append: the row on stdout and in the table. */
Test(reliability, a_failed_output_keeps_the_csv_rows, .timeout = 60)
{
    char dir[1024];
    require_laplace();
    fresh(dir, sizeof dir, "csv");
    int status = run_in_dir(dir, "ulimit -f 20; $L " SERIAL " --csv --csv-append ca.csv "
                                 "--output big.dat > o.txt");
    cr_assert_eq(status, 1);
    char *csv = text_in_dir(dir, "o.txt"), *table = text_in_dir(dir, "ca.csv");
    cr_assert_eq(count_lines(csv), 2, "want the header and a row on stdout:\n%s", csv);
    cr_assert_eq(count_lines(table), 2, "want the header and a row in ca.csv:\n%s",
                 table);
    cr_assert(strncmp(csv, "backend,", 8) == 0 && strcmp(csv, table) == 0);
    free(csv);
    free(table);
    remove_dir(dir);
}

/* The history is the file that fails (one block of 512 bytes): the report stays. */
Test(reliability, a_failed_history_keeps_the_report, .timeout = 60)
{
    char dir[1024];
    require_laplace();
    fresh(dir, sizeof dir, "history");
    int status = run_in_dir(dir, "ulimit -f 1; $L " SERIAL " --history h.csv --csv "
                                 "> o.txt");
    cr_assert_eq(status, 1);
    err_in_dir_says(dir, "h.csv", "");
    char *csv = text_in_dir(dir, "o.txt");
    cr_assert_eq(count_lines(csv), 2, "want the header and a row on stdout:\n%s", csv);
    free(csv);
    remove_dir(dir);
}

/* ---- items 3 and 4: the lab sweep ------------------------------------------- */

/* --error-if-not-converged holds for the sweep: status 1 after both rows. */
Test(reliability, sides_honour_error_if_not_converged, .timeout = 60)
{
    struct run r = laplace_run("--backend cpu --sides 8,16 --max-iter 10 "
                               "--error-if-not-converged");
    cr_assert_eq(r.status, 1, "status %d; stderr: %s", r.status, r.err);
    cr_assert_eq(count_lines(r.err), 1, "want one line on stderr: %s", r.err);
    cr_assert(strstr(r.err, "not converged") && strstr(r.err, "--max-iter 10"), "%s",
              r.err);
    cr_assert(strstr(r.out, "8^2") && strstr(r.out, "16^2"), "rows missing:\n%s", r.out);
    run_free(&r);
}

/* A source not finite on the second side alone: refused before the first solve,
 * no header, no row, no table. */
Test(reliability, sides_refuse_a_later_source_before_the_first_solve, .timeout = 60)
{
    char dir[1024];
    require_laplace();
    fresh(dir, sizeof dir, "sides-source");
    int status = run_in_dir(dir, "$L --backend cpu --sides 8,4 --source \"1/(3*x-1)\" "
                                 "--csv-append s.csv > o.txt");
    cr_assert_eq(status, 2);
    err_in_dir_says(dir, "--source", "not finite");
    char *out = text_in_dir(dir, "o.txt");
    cr_assert_str_empty(out, "the sweep printed before its refusal:\n%s", out);
    cr_assert_not(exists_in_dir(dir, "s.csv"), "a row was appended before the refusal");
    free(out);
    remove_dir(dir);
}

/* A side that does not fit memory: refused before the first side is solved. */
Test(reliability, sides_refuse_a_later_side_that_does_not_fit, .timeout = 60)
{
    struct run r = laplace_run("--backend cpu --sides 8,100000");
    cr_assert_eq(r.status, 1, "status %d; stderr: %s", r.status, r.err);
    cr_assert(strstr(r.err, "100000x100000"), "%s", r.err);
    cr_assert_str_empty(r.out, "the sweep printed before its refusal:\n%s", r.out);
    run_free(&r);
}

/* ---- item 10: the sweep's fit says what it needs and when its times are noise -- */

Test(reliability, sides_fit_asks_for_different_sides, .timeout = 60)
{
    struct run r = laplace_run("--backend cpu --sides 8,8,8");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "two different sides"), "%s", r.out);
    run_free(&r);
}

/* One tile, so that no thread meets another: with two tiles the 4^2 side took 1.9 ms
 * under SANITIZE=1 beside another test job (a CI run), past the caveat's 1 ms. */
Test(reliability, sides_fit_over_tiny_times_has_a_caveat, .timeout = 60)
{
    struct run r = laplace_run("--backend cpu --partition 1x1 --sides 4,8");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "caveat") && strstr(r.out, "time exponent says little"),
              "%s", r.out);
    run_free(&r);
}

/* ---- item 11: options a backend cannot honour, and a closed stdout ----------- */

/* The host backends refuse the GPU's ways of adding sums and reading edges, as
 * they refuse a GPU kernel. */
Test(reliability, host_backends_refuse_gpu_mechanisms, .timeout = 60)
{
    const char *backends[] = {"cpu", "serial"};
    const char *options[] = {"--reduce device", "--no-p2p"};
    for (int b = 0; b < 2; b++)
        for (int o = 0; o < 2; o++) {
            struct run r = laplace_run("--backend %s --nx 16 %s", backends[b], options[o]);
            cr_assert_eq(r.status, 2, "--backend %s %s: status %d", backends[b],
                         options[o], r.status);
            cr_assert_eq(count_lines(r.err), 1, "%s", r.err);
            cr_assert(strstr(r.err, options[o]) && strstr(r.err, backends[b]), "%s",
                      r.err);
            cr_assert_str_empty(r.out);
            run_free(&r);
        }
}

/* A closed stdout loses what --help, --print-config, --version and a run print:
 * status 1 and one line; -q printed nothing and lost nothing. */
Test(reliability, a_closed_stdout_is_status_1_on_every_path, .timeout = 60)
{
    const char *paths[] = {"--help", "--print-config", "--version",
                           "--backend cpu --nx 16 --csv", "--backend cpu --nx 16"};
    for (int i = 0; i < 5; i++) {
        int status;
        char command[256];
        snprintf(command, sizeof command, "./laplace %s >&-", paths[i]);
        char *err = shell_run(command, &status);
        cr_assert_eq(status, 1, "'%s >&-': status %d: %s", paths[i], status, err);
        cr_assert(strstr(err, "standard output") && strstr(err, "closed"), "'%s': %s",
                  paths[i], err);
        cr_assert_eq(count_lines(err), 1, "'%s': %s", paths[i], err);
        free(err);
    }
    int status;
    char *err = shell_run("./laplace --backend cpu --nx 16 -q >&-", &status);
    cr_assert_eq(status, 0, "-q >&-: status %d: %s", status, err);
    free(err);
}

/* --csv-append on the file stdout writes from its start is refused before the
 * solve (the report would overwrite the rows); stdout appending (>>) is fine. */
Test(reliability, csv_append_to_stdout_is_refused_unless_appending, .timeout = 60)
{
    char dir[1024];
    require_laplace();
    fresh(dir, sizeof dir, "stdout-table");
    cr_assert_eq(run_in_dir(dir, "$L --backend cpu --nx 16 --csv-append /proc/self/fd/1 "
                                 "> out.txt"),
                 2);
    err_in_dir_says(dir, "--csv-append", "standard output");
    cr_assert_eq(run_in_dir(dir, "$L --backend cpu --nx 16 -q --csv-append "
                                 "/proc/self/fd/1 >> out.txt"),
                 0);
    char *table = text_in_dir(dir, "out.txt");
    cr_assert(strncmp(table, "backend,", 8) == 0 && count_lines(table) == 2, "%s", table);
    free(table);
    remove_dir(dir);
}

/* ---- item 5: every catchable terminating signal removes the temporaries ------ */

/* USR1, USR2, ALRM, VTALRM, PROF and XCPU at the first file's rename: the outputs
 * are finished, the status is 128 + the signal, no temporary is left. */
Test(reliability, every_terminating_signal_leaves_no_temporary, .timeout = 120)
{
    const int signals[] = {SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        char dir[1024];
        fresh(dir, sizeof dir, "signal");
        int status = run_in_dir(dir, "LAPLACE_INJECT_SIGNAL=%d:1 $L --backend cpu "
                                     "--nx 32 -q --output a.dat --output b.vti",
                                signals[i]);
        cr_assert_eq(status, 128 + signals[i], "signal %d: status %d", signals[i],
                     status);
        cr_assert(exists_in_dir(dir, "a.dat") && exists_in_dir(dir, "b.vti"),
                  "signal %d: an output is missing", signals[i]);
        cr_assert_eq(run_in_dir(dir, "ls -A | grep -q \"^\\.lp\""), 1,
                     "signal %d left a temporary in %s", signals[i], dir);
        remove_dir(dir);
    }
}

/* ---- item 6: a .pvti set is whole (new), whole (old) or absent, never mixed ---- */

/* The pieces that dir/NAME.pvti names, each checked to hold the extent the index
 * gives it: their count, or -1 when one is missing or from another set. */
static int whole_set_pieces(const char *dir, const char *name)
{
    char *index = text_in_dir(dir, name), *at = index;
    int count = 0;
    while (count >= 0 && (at = strstr(at, "<Piece Extent=\"")) != NULL) {
        char extent[64], source[256], want[128], path[1400];
        if (sscanf(at, "<Piece Extent=\"%63[^\"]\" Source=\"%255[^\"]\"", extent,
                   source) != 2)
            break;
        snprintf(want, sizeof want, "<Piece Extent=\"%s\">", extent);
        snprintf(path, sizeof path, "%s/%s", dir, source);
        long size = 0;
        char *piece = (char *)slurp_bytes(path, &size);
        count = piece && memmem(piece, (size_t)size, want, strlen(want)) ? count + 1 : -1;
        free(piece);
        at++;
    }
    free(index);
    return count;
}

/* A second Ctrl-C during the renames of a 1x3 set over a 1x2 one: the renames are
 * finished first, so the new set is whole; then the program ends at once. */
Test(reliability, a_second_signal_in_a_pvti_sets_renames_leaves_it_whole, .timeout = 60)
{
    char dir[1024];
    require_laplace();
    fresh(dir, sizeof dir, "pvti-signal");
    cr_assert_eq(run_in_dir(dir, "$L --backend cpu --nx 64 --partition 1x2 -q "
                                 "--output c.pvti"),
                 0);
    cr_assert_eq(whole_set_pieces(dir, "c.pvti"), 2);
    int status = run_in_dir(dir, "LAPLACE_INJECT_SIGNAL=2:1,2:2 $L --backend cpu "
                                 "--nx 64 --partition 1x3 -q --output c.pvti");
    cr_assert_eq(status, 130);
    err_in_dir_says(dir, "SIGINT again", "stopped at once");
    cr_assert_eq(whole_set_pieces(dir, "c.pvti"), 3, "the set is not the new one whole");
    cr_assert_eq(run_in_dir(dir, "ls -A | grep -q \"^\\.lp\""), 1, "a temporary left");
    remove_dir(dir);
}

/* A piece that does not fit (a file size limit): the old set is kept whole and the
 * message names the set as well as the piece. */
Test(reliability, a_failed_piece_keeps_the_old_set_and_names_it, .timeout = 60)
{
    char dir[1024];
    require_laplace();
    fresh(dir, sizeof dir, "pvti-full");
    cr_assert_eq(run_in_dir(dir, "$L --backend cpu --nx 64 --partition 1x2 -q "
                                 "--output c.pvti"),
                 0);
    int status = run_in_dir(dir, "ulimit -f 20; $L --backend cpu --nx 128 "
                                 "--partition 1x3 -q --output c.pvti");
    cr_assert_eq(status, 1);
    err_in_dir_says(dir, "writing 'c.pvti' failed: its piece 'c_", "File too large");
    cr_assert_eq(whole_set_pieces(dir, "c.pvti"), 2, "the old set is not whole");
    cr_assert_eq(run_in_dir(dir, "ls -A | grep -q \"^\\.lp\""), 1, "a temporary left");
    remove_dir(dir);
}

/* ---- item 7: values whose four-neighbour sum overflows are refused, named ---- */

Test(reliability, values_the_sum_cannot_hold_are_refused_before_the_run, .timeout = 60)
{
    const char *cases[][2] = {
        {"--top 1e308", "--top"},
        {"--precision float --top 1e38", "--top"},
        {"--left 5e307", "--left"},
        {"--region \"rect 0.3 0.3 0.5 0.5 1e308\"", "--region"},
        {"--precision float --region \"rect 0.3 0.3 0.5 0.5 -1e38\"", "--region"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct run r = laplace_run("--backend serial --nx 16 %s", cases[i][0]);
        cr_assert_eq(r.status, 2, "'%s': status %d: %s", cases[i][0], r.status, r.err);
        cr_assert_eq(count_lines(r.err), 1, "%s", r.err);
        cr_assert(strstr(r.err, cases[i][1]) && strstr(r.err, "four neighbours"),
                  "'%s': %s", cases[i][0], r.err);
        run_free(&r);
    }
    /* a quarter of the largest number is held: the run converges */
    struct run r = laplace_run("--backend serial --nx 16 --top 4e307 -q");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    r = laplace_run("--backend serial --nx 16 --precision float --top 8e37 -q");
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
}

/* ---- item 8: numbers that would lie are refused before the run ---------------- */

/* An --exact solution not finite on the lattice, as a --source is. */
Test(reliability, an_exact_solution_not_finite_is_refused_before_the_run, .timeout = 60)
{
    struct run r = laplace_run("--backend serial --nx 16 --exact \"sqrt(x-0.5)\"");
    cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
    cr_assert_eq(count_lines(r.err), 1, "%s", r.err);
    cr_assert(strstr(r.err, "--exact") && strstr(r.err, "not finite"), "%s", r.err);
    cr_assert_str_empty(r.out, "a report for a refused run:\n%s", r.out);
    run_free(&r);
}

/* A --png-range whose width overflows: its colour bar would read inf. */
Test(reliability, a_png_range_wider_than_a_double_is_refused, .timeout = 60)
{
    struct run r = laplace_run("--backend serial --nx 16 --png-range -1.7e308:1.7e308 "
                               "--output " TEST_OUT "/never.png");
    cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "--png-range"), "%s", r.err);
    run_free(&r);
}

/* ---- item 10: messages that name the right thing ------------------------------ */

Test(reliability, an_option_missing_its_value_is_named_not_a_file, .timeout = 60)
{
    struct run r = laplace_run("--nx --ny 5");
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "'--nx' needs a value") && strstr(r.err, "--ny"), "%s",
              r.err);
    cr_assert_null(strstr(r.err, "config file"), "%s", r.err);
    run_free(&r);
}

Test(reliability, too_few_threads_names_omp_thread_limit, .timeout = 60)
{
    struct run r = program_run(60, "env OMP_THREAD_LIMIT=4 ./laplace",
                               "--backend cpu --partition 3x3 --nx 32");
    cr_assert_eq(r.status, 1, "status %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "OMP_THREAD_LIMIT allows 4"), "%s", r.err);
    run_free(&r);
}

Test(reliability, a_too_long_snapshot_name_is_named_with_its_iteration, .timeout = 60)
{
    char name[300];
    memset(name, 'a', 245);
    snprintf(name + 245, sizeof name - 245, ".dat");
    struct run r = laplace_run("--backend serial --nx 16 --output " TEST_OUT "/%s "
                               "--snapshot-every 1",
                               name);
    cr_assert_eq(r.status, 1, "status %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "snapshot") && strstr(r.err, "-10000000.dat"), "%s", r.err);
    run_free(&r);
}

/* A second signal ends the program at once, and says so. */
Test(reliability, a_second_signal_says_the_run_stopped_at_once, .timeout = 60)
{
    char dir[1024];
    require_laplace();
    fresh(dir, sizeof dir, "second-signal");
    int status = run_in_dir(dir, "LAPLACE_INJECT_SIGNAL=2:1,2:2 $L --backend cpu --nx 32 "
                                 "-q --output a.dat --output b.vti");
    cr_assert_eq(status, 130);
    err_in_dir_says(dir, "SIGINT again", "stopped at once");
    remove_dir(dir);
}

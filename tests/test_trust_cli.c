/*
 * test_trust_cli.c - what makes the command line trustworthy in a lab (issue 16,
 * items 13, 14, 17, 20): the CSV's run columns and --csv-append; a --help that
 * fits a terminal and names the exit statuses and environment, -V, the "did you
 * mean" hint; --error-if-not-converged, --print-config (read back by
 * config_load_file), --dry-run; and make test naming the tests it skipped.
 * The tests run ./laplace from the repository root (make test).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "settings/config.h"
#include "helpers.h"
#include "p2p.h"

TestSuite(trust_cli, .init = require_laplace);

/* The small problem most tests solve: odd, non-square, non-zero edges. */
#define PROBLEM "--nx 37 --ny 23 --top 1 --left 0.3 --right -0.7 --bottom 2.5"

/* DESIGN.md's columns, which keep their places, then the run's. */
#define DESIGN_COLUMNS                                                                   \
    "backend,precision,nx,ny,partition,devices,method,iterations,converged,final_norm,"  \
    "time_input_s,time_compute_s,time_output_s,time_total_s,glups,gbps,gflops"
#define CSV_HEADER                                                                       \
    DESIGN_COLUMNS ",kernel,block,eps,check_every,loop,reduce,role,ranks,stop,speedup,"  \
                   "efficiency\n"

/* ---- 13: the CSV of a timing exercise -------------------------------------- */

Test(trust_cli,
     csv_row_ends_with_kernel_block_eps_check_every_loop_reduce_role_ranks_stop)
{
    char f[64];
    struct run r = laplace_run(PROBLEM " --backend cpu --partition 2x1 --block 16x4 "
                                       "--check-every 3 --eps 1e-5 --loop host --csv");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(count_lines(r.out), 2, "a header and one row: %s", r.out);
    cr_assert_eq(strncmp(r.out, CSV_HEADER, strlen(CSV_HEADER)), 0, "header: %s", r.out);
    const char *row = nth_line(r.out, 1);
    cr_assert_str_eq(csv_field(row, 0, f, sizeof f), "cpu");
    cr_assert_str_eq(csv_field(row, 4, f, sizeof f), "2x1");
    cr_assert_str_eq(csv_field(row, 17, f, sizeof f), "auto", "kernel");
    cr_assert_str_eq(csv_field(row, 18, f, sizeof f), "16x4", "block");
    cr_assert_str_eq(csv_field(row, 19, f, sizeof f), "1e-05", "eps");
    cr_assert_str_eq(csv_field(row, 20, f, sizeof f), "3", "check_every");
    cr_assert_str_eq(csv_field(row, 21, f, sizeof f), "host", "loop");
    cr_assert_str_eq(csv_field(row, 22, f, sizeof f), "host", "reduce");
    cr_assert_str_eq(csv_field(row, 23, f, sizeof f), "run", "role");
    cr_assert_str_eq(csv_field(row, 24, f, sizeof f), "1x1", "ranks: one process");
    cr_assert_str_eq(csv_field(row, 25, f, sizeof f), "converged", "stop");
    cr_assert_str_eq(csv_field(row, 26, f, sizeof f), "", "no speedup: not a comparison");
    cr_assert_str_eq(csv_field(row, 27, f, sizeof f), "", "no efficiency");
    cr_assert_eq(strcspn(row, "\n") - strlen("1x1,converged,,"),
                 (size_t)(strstr(row, "1x1,converged,,") - row), "efficiency is last: %s",
                 row);
    run_free(&r);
}

Test(trust_cli, rows_of_compare_and_compare_cpu_are_told_apart_by_role)
{
    static const char *roles[] = {"run", "compare-1-device", "compare-cpu"};
    char f[64];
    struct run r = laplace_run(PROBLEM " --backend cpu --partition 2x1 --csv --compare "
                                       "--compare-cpu");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(count_lines(r.out), 4, "a header and three rows: %s", r.out);
    for (int i = 0; i < 3; i++) {
        const char *row = nth_line(r.out, i + 1);
        cr_assert_str_eq(csv_field(row, 23, f, sizeof f), roles[i], "row %d: %s", i + 1,
                         row);
        cr_assert_str_eq(csv_field(row, 8, f, sizeof f), "1", "converged, row %d", i + 1);
    }
    run_free(&r);
}

Test(trust_cli, csv_append_builds_one_table_from_several_runs)
{
    char path[256], f[64];
    out_path(path, sizeof path, "timings.csv");
    remove(path);
    const char *blocks[] = {"8x8", "16x16"};
    for (int i = 0; i < 2; i++) {
        struct run r = laplace_run(PROBLEM " --backend cpu --partition 1x2 --block %s "
                                           "--csv-append %s",
                                   blocks[i], path);
        cr_assert_eq(r.status, 0, "%s", r.err);
        cr_assert(strstr(r.out, "iterations"), "the report still goes to stdout: %s",
                  r.out);
        cr_assert_null(strstr(r.out, "backend,precision"), "no CSV on stdout");
        run_free(&r);
    }
    struct run q =
        laplace_run(PROBLEM " --backend cpu --partition 1x2 --block 4x4 -q --compare-cpu "
                            "--csv-append %s",
                    path);
    cr_assert_eq(q.status, 0, "%s", q.err);
    cr_assert_str_eq(q.out, "", "-q: nothing on stdout");
    run_free(&q);
    char *table = slurp(path);
    cr_assert(table, "%s was not written", path);
    cr_assert_eq(count_lines(table), 5, "one header and four rows:\n%s", table);
    cr_assert_eq(strncmp(table, CSV_HEADER, strlen(CSV_HEADER)), 0, "%s", table);
    const char *want[4][2] = {
        {"8x8", "run"}, {"16x16", "run"}, {"4x4", "run"}, {"4x4", "compare-cpu"}};
    for (int i = 0; i < 4; i++) {
        const char *row = nth_line(table, i + 1);
        cr_assert_str_eq(csv_field(row, 18, f, sizeof f), want[i][0], "row %d", i + 1);
        cr_assert_str_eq(csv_field(row, 23, f, sizeof f), want[i][1], "row %d", i + 1);
    }
    free(table);
}

Test(trust_cli, csv_append_to_an_empty_file_writes_the_header)
{
    char path[256];
    out_path(path, sizeof path, "empty.csv");
    cr_assert_eq(write_text(path, ""), 0);
    struct run r = laplace_run(PROBLEM " --backend serial --csv-append %s --csv", path);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *table = slurp(path);
    cr_assert(table && count_lines(table) == 2, "%s", table ? table : "(none)");
    cr_assert_eq(strncmp(table, CSV_HEADER, strlen(CSV_HEADER)), 0, "%s", table);
    cr_assert_str_eq(table, r.out, "the same header and row as on stdout");
    free(table);
    run_free(&r);
}

Test(trust_cli, csv_append_that_cannot_be_written_is_refused_before_the_run)
{
    struct run r = laplace_run(PROBLEM " --backend serial --csv-append "
                                       "tests/out/no-such-folder/t.csv");
    check_refused(&r, 1, "tests/out/no-such-folder/t.csv");
    run_free(&r);
}

/* ---- 14: help, -V, the hint -------------------------------------------------- */

Test(trust_cli, help_fits_80_columns)
{
    struct run r = laplace_run("--help");
    cr_assert_eq(r.status, 0);
    for (int i = 0; nth_line(r.out, i); i++) {
        const char *line = nth_line(r.out, i);
        size_t length = strcspn(line, "\n");
        cr_expect_leq(length, 80, "line %d has %zu columns: %.*s", i + 1, length,
                      (int)length, line);
    }
    run_free(&r);
}

Test(trust_cli, help_lists_the_exit_statuses_and_the_environment)
{
    static const char *words[] = {"Exit status",
                                  "  0 ",
                                  "  1 ",
                                  "  2 ",
                                  "130",
                                  "143",
                                  "SIGINT",
                                  "SIGTERM",
                                  "LAPLACE_INJECT_FAULT",
                                  "LAPLACE_BENCH_QUICK",
                                  "LAPLACE_BENCH_ONLY",
                                  "LAPLACE_BENCH_DIR",
                                  "LAPLACE_INJECT_SIGNAL",
                                  "LAPLACE_TUNE",
                                  "chip_way=",
                                  "chip_depth=",
                                  "spread_depth=",
                                  "spread_lag=",
                                  "spread_blocks=",
                                  "spread_columns=",
                                  "spread_unroll=",
                                  "sweep_order=",
                                  "pairs=",
                                  "OMP_NUM_THREADS",
                                  "OMP_WAIT_POLICY",
                                  "CUDA_VISIBLE_DEVICES",
                                  "-V"};
    struct run r = laplace_run("--help");
    cr_assert_eq(r.status, 0);
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        cr_expect(strstr(r.out, words[i]), "--help does not mention '%s'", words[i]);
    run_free(&r);
}

/* At most 8 LAPLACE_* variables, each listed once in --help (issue 41: the tuning
 * knobs are one variable, LAPLACE_TUNE, read by one reader). */
Test(trust_cli, help_lists_at_most_eight_environment_variables)
{
    struct run r = laplace_run("--help");
    cr_assert_eq(r.status, 0);
    char seen[16][48];
    int count = 0;
    for (const char *p = strstr(r.out, "LAPLACE_"); p; p = strstr(p + 1, "LAPLACE_")) {
        char name[48];
        size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
        snprintf(name, sizeof name, "%.*s", (int)(n < 47 ? n : 47), p);
        int known = 0;
        for (int i = 0; i < count; i++)
            known |= strcmp(seen[i], name) == 0;
        if (!known && count < 16)
            snprintf(seen[count++], sizeof seen[0], "%s", name);
    }
    cr_expect_leq(count, 8, "--help lists %d LAPLACE_* variables", count);
    cr_expect_geq(count, 6, "--help lists only %d LAPLACE_* variables", count);
    run_free(&r);
}

/* A set but invalid LAPLACE_TUNE is refused in one line, status 2, before anything
 * runs; a valid one runs. */
Test(trust_cli, an_invalid_tuning_knob_is_refused)
{
    static const char *bad[][2] = {
        {"foo=1", "unknown knob 'foo'"},
        {"pairs=2", "pairs takes a whole number from 0 to 1, not '2'"},
        {"spread_lag=4x", "spread_lag takes a whole number from 1 to 4, not '4x'"},
        {"chip_way=both", "chip_way takes cluster or spread, not 'both'"},
        {"spread_depth", "'spread_depth' is not KEY=VALUE"},
        {"pairs=1,", "a comma ends the list"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("LAPLACE_TUNE", bad[i][0], 1);
        struct run r = laplace_run("--backend serial --nx 8 --max-iter 2 -q");
        unsetenv("LAPLACE_TUNE");
        cr_expect_eq(r.status, 2, "LAPLACE_TUNE=%s: status %d", bad[i][0], r.status);
        cr_expect(strstr(r.err, bad[i][1]), "LAPLACE_TUNE=%s: %s", bad[i][0], r.err);
        cr_expect(strstr(r.err, "LAPLACE_TUNE"), "the message names the variable: %s",
                  r.err);
        run_free(&r);
    }
    static const char *retired[][3] = {
        {"LAPLACE_PAIRS", "0",
         "LAPLACE_PAIRS is no longer read: set LAPLACE_TUNE=pairs=VALUE"},
        {"LAPLACE_SPREAD_LAG", "4x", "set LAPLACE_TUNE=spread_lag=VALUE"},
        {"LAPLACE_OVERLAP", "0",
         "LAPLACE_OVERLAP is no longer read: its experiment "
         "concluded"},
    };
    for (size_t i = 0; i < sizeof retired / sizeof retired[0]; i++) {
        setenv(retired[i][0], retired[i][1], 1);
        struct run r = laplace_run("--backend serial --nx 8 --max-iter 2 -q");
        unsetenv(retired[i][0]);
        cr_expect_eq(r.status, 2, "%s=%s: status %d", retired[i][0], retired[i][1],
                     r.status);
        cr_expect(strstr(r.err, retired[i][2]), "%s: %s", retired[i][0], r.err);
        run_free(&r);
    }
    setenv("LAPLACE_TUNE", "chip_way=spread,spread_depth=0,sweep_order=forward", 1);
    struct run ok = laplace_run("--backend serial --nx 8 --max-iter 2 -q");
    unsetenv("LAPLACE_TUNE");
    cr_expect_eq(ok.status, 0, "a valid list: %s", ok.err);
    run_free(&ok);
}

Test(trust_cli, dash_V_is_version)
{
    struct run v = laplace_run("-V"), version = laplace_run("--version");
    cr_assert_eq(v.status, 0, "-V: status %d, %s", v.status, v.err);
    cr_assert_str_eq(v.out, version.out);
    cr_assert(strncmp(v.out, "laplace ", 8) == 0, "%s", v.out);
    run_free(&v);
    run_free(&version);
}

Test(trust_cli, misspelt_option_gets_a_did_you_mean_on_the_same_line)
{
    static const char *tries[][2] = {
        {"--partiton 2x2", "did you mean '--partition'?"},
        {"--compre", "did you mean '--compare'?"},
        {"--max_iter 10", "did you mean '--max-iter'?"},
        {"--precison=float", "did you mean '--precision'?"},
        {"--mointor 5", "did you mean '--monitor'?"},
    };
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
        struct run r = laplace_run("%s", tries[i][0]);
        check_refused(&r, 2, tries[i][1]);
        cr_assert(strstr(r.err, "unknown option"), "%s", r.err);
        run_free(&r);
    }
    struct run far = laplace_run("--xyzzy");
    check_refused(&far, 2, "unknown option '--xyzzy'");
    cr_assert_null(strstr(far.err, "did you mean"), "no hint for a word far from all: %s",
                   far.err);
    run_free(&far);
}

/* NVIDIA's multi-GPU samples spell long names with one dash (-nx 64 -niter 10
 * -csv): refused naming the word typed, not the program, with the long option of
 * ours that does the same (issue 44 item 6). */
Test(trust_cli, single_dash_long_name_is_refused_with_its_long_option)
{
    static const char *tries[][2] = {
        {"-nx 64", "unknown option '-nx'; did you mean '--nx'?"},
        {"-ny 64", "unknown option '-ny'; did you mean '--ny'?"},
        {"-niter 10", "unknown option '-niter'; did you mean '--max-iter'?"},
        {"-nccheck 5", "unknown option '-nccheck'; did you mean '--check-every'?"},
        {"-csv", "unknown option '-csv'; did you mean '--csv'?"},
        {"--nx 16 -qcsv", "unknown option '-qcsv'"},
        {"--nx 16 -q -nx 8", "unknown option '-nx'; did you mean '--nx'?"},
    };
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
        struct run r = laplace_run("%s", tries[i][0]);
        check_refused(&r, 2, tries[i][1]);
        cr_assert_null(strstr(r.err, "'./laplace'"), "names the program: %s", r.err);
        run_free(&r);
    }
}

/* ---- 17: PETSc-style controls ---------------------------------------------- */

Test(trust_cli, error_if_not_converged_fails_a_run_that_max_iter_ended)
{
    struct run r = laplace_run(PROBLEM " --backend serial --max-iter 50 "
                                       "--error-if-not-converged");
    cr_assert_eq(r.status, 1, "status %d: %s", r.status, r.err);
    cr_assert_eq(count_lines(r.err), 1, "one line on stderr: %s", r.err);
    cr_assert(strstr(r.err, "not converged") && strstr(r.err, "--max-iter 50"), "%s",
              r.err);
    cr_assert(strstr(r.out, "iterations    50"), "the report first: %s", r.out);
    run_free(&r);
}

Test(trust_cli, error_if_not_converged_passes_converged_runs_and_steps)
{
    struct run converged = laplace_run(PROBLEM " --backend serial -q "
                                               "--error-if-not-converged");
    cr_assert_eq(converged.status, 0, "%s", converged.err);
    cr_assert_str_eq(converged.err, "");
    run_free(&converged);
    struct run steps =
        laplace_run(PROBLEM " --backend serial --method weighted --steps 20 "
                            "-q --error-if-not-converged");
    cr_assert_eq(steps.status, 0, "--steps has no eps to miss: %s", steps.err);
    run_free(&steps);
    struct run plain = laplace_run(PROBLEM " --backend serial --max-iter 50 -q");
    cr_assert_eq(plain.status, 0, "without the option max-iter is a finish: %s",
                 plain.err);
    run_free(&plain);
}

/* The options of the round trip: a value of every kind the INI file holds. */
#define ROUND_TRIP_OPTIONS                                                               \
    "--nx 41 --ny 29 --top 'sin(pi*x)' --bottom 2.5 --left 0.3 --right -0.7 "            \
    "--lx 2 --ly 1.5 --source '-2*x' --region 'rect 0.3 0.2 0.5 0.6 0.25' "              \
    "--region 'disc 1.5 1 0.2 -1' --precision float --method sor --omega 1.7 "           \
    "--eps 1e-5 --norm max --max-iter 3000 --check-every 2 --backend gpu "               \
    "--partition 2x1 --block 16x4 --reduce device --loop host --monitor 0 "              \
    "--error-if-not-converged"

Test(trust_cli, print_config_is_an_ini_file_that_reads_back_to_the_same_settings)
{
    char ini[256], again_ini[256], err[CONFIG_ERROR_MAX];
    out_path(ini, sizeof ini, "printed.ini");
    out_path(again_ini, sizeof again_ini, "printed-again.ini");
    struct run r = laplace_run(ROUND_TRIP_OPTIONS " --print-config");
    cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "");
    cr_assert(strstr(r.out, "[problem]") && strstr(r.out, "[solver]") &&
                  strstr(r.out, "[parallel]") && strstr(r.out, "[output]"),
              "%s", r.out);
    cr_assert_null(strstr(r.out, "\n  iterations "), "nothing solved: %s", r.out);
    cr_assert_eq(write_text(ini, r.out), 0);

    /* config_load_file reads it into what the options made */
    struct config from_file, from_args;
    config_defaults(&from_file);
    config_defaults(&from_args);
    cr_assert_eq(config_load_file(&from_file, ini, err, sizeof err), 0, "%s\n%s", err,
                 r.out);
    char *argv[] = {"laplace",
                    "--nx",
                    "41",
                    "--ny",
                    "29",
                    "--top",
                    "sin(pi*x)",
                    "--bottom",
                    "2.5",
                    "--left",
                    "0.3",
                    "--right",
                    "-0.7",
                    "--lx",
                    "2",
                    "--ly",
                    "1.5",
                    "--source",
                    "-2*x",
                    "--region",
                    "rect 0.3 0.2 0.5 0.6 0.25",
                    "--region",
                    "disc 1.5 1 0.2 -1",
                    "--precision",
                    "float",
                    "--method",
                    "sor",
                    "--omega",
                    "1.7",
                    "--eps",
                    "1e-5",
                    "--norm",
                    "max",
                    "--max-iter",
                    "3000",
                    "--check-every",
                    "2",
                    "--backend",
                    "gpu",
                    "--partition",
                    "2x1",
                    "--block",
                    "16x4",
                    "--reduce",
                    "device",
                    "--loop",
                    "host",
                    "--error-if-not-converged"};
    cr_assert_eq(
        config_from_args(&from_args, sizeof argv / sizeof argv[0], argv, err, sizeof err),
        0, "%s", err);
    const struct problem *a = &from_args.problem, *b = &from_file.problem;
    cr_assert(a->nx == b->nx && a->ny == b->ny && a->lx == b->lx && a->ly == b->ly);
    cr_assert(a->bottom == b->bottom && a->left == b->left && a->right == b->right);
    cr_assert_str_eq(b->edge_formula[EDGE_TOP], "sin(pi*x)");
    cr_assert_str_eq(b->source, a->source);
    cr_assert_eq(b->region_count, 2);
    for (int k = 0; k < 2; k++)
        cr_assert(a->regions[k].shape == b->regions[k].shape &&
                      a->regions[k].x0 == b->regions[k].x0 &&
                      a->regions[k].y1 == b->regions[k].y1 &&
                      a->regions[k].cx == b->regions[k].cx &&
                      a->regions[k].r == b->regions[k].r &&
                      a->regions[k].value == b->regions[k].value,
                  "region %d", k);
    cr_assert(a->precision == b->precision && from_args.method == from_file.method &&
              from_args.omega == from_file.omega && from_args.eps == from_file.eps &&
              from_args.norm == from_file.norm &&
              from_args.max_iter == from_file.max_iter &&
              from_args.check_every == from_file.check_every);
    cr_assert(from_args.backend == from_file.backend && from_file.partition_x == 2 &&
              from_file.partition_y == 1 && from_file.block_x == 16 &&
              from_file.block_y == 4 && from_args.reduce == from_file.reduce &&
              from_args.loop == from_file.loop && from_args.use_p2p == from_file.use_p2p);
    cr_assert(from_file.error_if_not_converged == 1);

    /* printed again from the file, it is the same file */
    struct run again = laplace_run("%s --print-config", ini);
    cr_assert_eq(again.status, 0, "%s", again.err);
    cr_assert_str_eq(again.out, r.out);
    run_free(&again);
    run_free(&r);
}

/* The round trip's options made a run of the host tiles (the later options win). */
#define HOST_RUN " --backend cpu --reduce host"

Test(trust_cli, print_config_reproduces_the_run)
{
    char ini[256], f[64], g[64];
    out_path(ini, sizeof ini, "run.ini");
    /* run on the host tiles, which add their sums on the host */
    struct run printed = laplace_run(ROUND_TRIP_OPTIONS HOST_RUN " --print-config");
    cr_assert_eq(printed.status, 0, "%s", printed.err);
    cr_assert_eq(write_text(ini, printed.out), 0);
    struct run direct = laplace_run(ROUND_TRIP_OPTIONS HOST_RUN " --csv");
    struct run from_file = laplace_run("%s --csv", ini);
    cr_assert_eq(direct.status, 0, "%s", direct.err);
    cr_assert_eq(from_file.status, 0, "%s", from_file.err);
    const char *a = nth_line(direct.out, 1), *b = nth_line(from_file.out, 1);
    cr_assert(a && b);
    for (int column = 0; column < 10; column++) /* up to final_norm: no timings */
        cr_assert_str_eq(csv_field(a, column, f, sizeof f),
                         csv_field(b, column, g, sizeof g), "column %d", column + 1);
    run_free(&printed);
    run_free(&direct);
    run_free(&from_file);
}

Test(trust_cli, print_config_refuses_what_the_run_would_refuse)
{
    struct run r = laplace_run("--nx 10 --ny 10 --backend cpu --partition 20x1 "
                               "--print-config");
    check_refused(&r, 2, "partition");
    cr_assert_null(strstr(r.err, "unknown option"), "%s", r.err);
    run_free(&r);
}

Test(trust_cli, dry_run_prints_the_plan_and_memory_and_solves_nothing)
{
    char dat[256];
    out_path(dat, sizeof dat, "dry.dat");
    remove(dat);
    struct run r = laplace_run("--nx 100 --ny 60 --backend cpu --partition 2x2 "
                               "--output %s --dry-run",
                               dat);
    cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "");
    cr_assert(strstr(r.out, "partition 2x2"), "%s", r.out);
    cr_assert(strstr(r.out, "tile 0") && strstr(r.out, "tile 3"), "%s", r.out);
    cr_assert(strstr(r.out, "x 50..99, y 30..59, 50 x 30 sites"), "%s", r.out);
    cr_assert(strstr(r.out, "host: about"), "the host's memory: %s", r.out);
    cr_assert(strstr(r.out, "MiB"), "%s", r.out);
    cr_assert_null(strstr(r.out, "\n  iterations "), "nothing solved: %s", r.out);
    cr_assert_neq(access(dat, F_OK), 0, "no output written");
    run_free(&r);
}

Test(trust_cli, dry_run_refuses_a_bad_plan_like_a_run)
{
    struct run r =
        laplace_run("--nx 10 --ny 10 --backend cpu --partition 20x1 --dry-run");
    check_refused(&r, 2, "partition");
    run_free(&r);
}

/* ---- 20: make test names the skipped tests --------------------------------- */

Test(trust_cli, make_test_runs_the_unit_tests_through_the_skip_report)
{
    char *makefile = slurp("Makefile");
    cr_assert(makefile, "Makefile not found");
    const char *rule = strstr(makefile, "\ntest:");
    cr_assert(rule, "no test rule");
    const char *end = strstr(rule + 1, "\n\n");
    cr_assert(end && strstr(rule, "tests/run_unit_tests.sh") &&
                  strstr(rule, "tests/run_unit_tests.sh") < end,
              "make test runs tests/run_unit_tests.sh");
    free(makefile);
}

Test(trust_cli, skipped_gpu_tests_are_named_before_the_summary, .timeout = 120)
{
    char self[1024], command[2048];
    int status;
    if (p2p_device_count() >= 2)
        cr_skip_test("this machine has 2 GPUs: the test below runs instead of skipping");
    /* BXFI_MAP marks Criterion's own workers: without it the binary is a runner */
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    cr_assert(n > 0);
    self[n] = '\0';
    snprintf(command, sizeof command,
             "env -u BXFI_MAP bash tests/run_unit_tests.sh %s "
             "--filter 'gpu/two_gpus_stacked_equal_serial'",
             self);
    char *out = shell_run(command, &status);
    cr_assert_eq(status, 0, "%s", out);
    cr_assert(strstr(out, "1 test skipped (they need a GPU): "
                          "gpu::two_gpus_stacked_equal_serial\n"),
              "%s", out);
    int lines = count_lines(out);
    const char *last = nth_line(out, lines - 1);
    cr_assert(last && strstr(last, "Synthesis"),
              "Criterion's summary is the last line: %s", out);
    free(out);
}

Test(trust_cli, skip_report_keeps_the_tests_exit_status)
{
    char script[256], command[512];
    int status;
    out_path(script, sizeof script, "fails.sh");
    cr_assert_eq(write_text(script, "#!/bin/sh\necho '[====] Synthesis: Failing: 1'\n"
                                    "exit 3\n"),
                 0);
    chmod(script, 0755);
    snprintf(command, sizeof command, "bash tests/run_unit_tests.sh %s", script);
    char *out = shell_run(command, &status);
    cr_assert_eq(status, 3, "%s", out);
    const char *last = nth_line(out, count_lines(out) - 1);
    cr_assert(last && strstr(last, "Synthesis"), "%s", out);
    free(out);
}

/*
 * test_output_paths.c - outputs that cannot collide or break (issue 26, item 4),
 * through ./laplace in a shell: two names of one file among the outputs, their
 * .pvti pieces, snapshots, --history and --csv-append (".", "..", a linked folder)
 * refused before the solve with status 2; a name too long for the file system, a
 * read-only file, a FIFO refused before the solve with status 1 and left as they
 * were; --csv-append refusing a table cut short or of other columns, and undoing a
 * row cut short by a file size limit. Each test works in its own folder.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helpers.h"

TestSuite(output_paths, .init = require_laplace);

#define SMALL "--backend cpu --partition 2x1 --nx 16 --ny 16 --max-iter 20 -q"

/* No file of the run was written (the solve did not start): only what the test
 * put there, and err.txt. */
static void nothing_written(const char *dir, const char *kept)
{
    char command[600];
    snprintf(command, sizeof command, "ls -A | grep -v -x -e err.txt %s | grep -q .",
             kept);
    cr_assert_eq(run_in_dir(dir, "%s", command), 1, "the run wrote files in %s", dir);
}

Test(output_paths, two_names_of_one_file_are_refused_before_the_solve, .timeout = 60)
{
    /* the options, and the names the one line must hold */
    const char *cases[][3] = {
        {"--output c.pvti --output ./c_0.vti", "c_0.vti", "c.pvti"},
        {"--output sub/../a.dat --output ./a.dat", "sub/../a.dat", "./a.dat"},
        {"--output lnk/x.dat --output sub/x.dat", "lnk/x.dat", "sub/x.dat"},
        {"--history h.csv --csv-append ./sub/../h.csv", "--history", "--csv-append"},
        {"--history h.csv --csv-append link.csv", "--history", "link.csv"},
        {"--output heat.dat --output heat-000010.dat --snapshot-every 10", "snapshot",
         "heat-000010.dat"},
        {"--output heat.pvti --output heat-000020_1.vti --snapshot-every 10", "snapshot",
         "heat-000020_1.vti"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char dir[512];
        fresh_out_dir(dir, sizeof dir, "paths-same");
        cr_assert_eq(
            run_in_dir(dir, "mkdir sub && ln -s sub lnk && ln -s h.csv link.csv"), 0);
        int status = run_in_dir(dir, "$L " SMALL " %s", cases[k][0]);
        cr_assert_eq(status, 2, "'%s': status %d", cases[k][0], status);
        err_in_dir_says(dir, cases[k][1], cases[k][2]);
        nothing_written(dir, "-e sub -e lnk -e link.csv");
    }
}

/* Distinct names stay accepted: a snapshot of another stem, another extension. */
Test(output_paths, distinct_names_are_accepted, .timeout = 60)
{
    char dir[512];
    fresh_out_dir(dir, sizeof dir, "paths-distinct");
    int status = run_in_dir(dir, "$L " SMALL " --output heat.dat --output heat.png "
                                 "--output heat-000010.vti --snapshot-every 10 "
                                 "--history heat.csv --csv-append table.csv");
    cr_assert_eq(status, 0, "status %d", status);
}

Test(output_paths, a_name_too_long_for_the_file_system_is_refused_before_the_solve,
     .timeout = 60)
{
    char dir[512], name[320];
    fresh_out_dir(dir, sizeof dir, "paths-long");
    memset(name, 'n', 300);
    strcpy(name + 300, ".dat");
    time_t start = time(NULL);
    int status = run_in_dir(dir,
                            "$L --backend cpu --nx 600 --ny 600 --eps 1e-12 -q "
                            "--output b.dat --output %s",
                            name);
    cr_assert_eq(status, 1, "status %d", status);
    cr_assert(time(NULL) - start < 20, "refused only after the solve");
    err_in_dir_says(dir, "nnnn", "the file system takes");
    nothing_written(dir, "");
}

/* A read-only file (mode 444, refused even to root) is kept as it was. */
Test(output_paths, a_read_only_output_is_refused_and_kept, .timeout = 60)
{
    const char *options[] = {"--output ro.dat", "--history ro.csv",
                             "--csv-append ro.csv"};
    for (int k = 0; k < 3; k++) {
        char dir[512];
        fresh_out_dir(dir, sizeof dir, "paths-ro");
        cr_assert_eq(run_in_dir(dir, "echo kept > ro.dat && echo kept > ro.csv && "
                                     "chmod 444 ro.dat ro.csv"),
                     0);
        int status = run_in_dir(dir, "$L " SMALL " %s", options[k]);
        cr_assert_eq(status, 1, "'%s': status %d", options[k], status);
        err_in_dir_says(dir, "ro.", "read-only");
        char *dat = text_in_dir(dir, "ro.dat"), *csv = text_in_dir(dir, "ro.csv");
        cr_assert(strcmp(dat, "kept\n") == 0 && strcmp(csv, "kept\n") == 0);
        free(dat);
        free(csv);
    }
}

/* A FIFO (no reader) as any target: one line, status 1, no wait. */
Test(output_paths, a_fifo_is_refused_without_waiting, .timeout = 60)
{
    const char *options[] = {"--output f.dat", "--history f.csv", "--csv-append f.csv"};
    for (int k = 0; k < 3; k++) {
        char dir[512];
        fresh_out_dir(dir, sizeof dir, "paths-fifo");
        cr_assert_eq(run_in_dir(dir, "mkfifo f.dat f.csv"), 0);
        int status = run_in_dir(dir, "timeout 10 $L " SMALL " %s", options[k]);
        cr_assert_eq(status, 1, "'%s': status %d (124: it waited)", options[k], status);
        err_in_dir_says(dir, "f.", "not a regular file");
    }
}

/* This program's CSV header line, with its newline (malloc'd), and dir/name's path. */
static char *csv_header(const char *dir, const char *name, char *path, size_t n)
{
    cr_assert_eq(run_in_dir(dir, "$L --backend cpu --nx 16 --ny 16 --max-iter 2 --csv | "
                                 "head -1 > header.txt"),
                 0);
    snprintf(path, n, "%s/%s", dir, name);
    char *header = text_in_dir(dir, "header.txt");
    cr_assert(strlen(header) > 100, "no header: '%s'", header);
    return header;
}

/* A table that does not end in a newline, or of other columns: refused, kept. */
Test(output_paths, csv_append_refuses_a_table_cut_short_or_of_other_columns,
     .timeout = 60)
{
    for (int k = 0; k < 2; k++) {
        char dir[512], path[600], table[2048];
        fresh_out_dir(dir, sizeof dir, "paths-table");
        char *header = csv_header(dir, "t.csv", path, sizeof path);
        snprintf(table, sizeof table, "%s", k == 0 ? "a,b\n1,2\n" : header);
        if (k == 1)
            strcat(table, "cpu,double,16"); /* a row cut short */
        cr_assert_eq(write_text(path, table), 0);
        int status = run_in_dir(dir, "$L " SMALL " --csv-append t.csv");
        cr_assert_eq(status, 1, "table %d: status %d", k, status);
        err_in_dir_says(dir, "t.csv", k == 0 ? "header" : "newline");
        char *after = text_in_dir(dir, "t.csv");
        cr_assert_str_eq(after, table, "the table changed");
        free(after);
        free(header);
    }
}

/* A row that does not fit (a file size limit of 1 KiB cuts the write short) is
 * undone: the table (1000 bytes) is as it was, the run says so with status 1. */
Test(output_paths, a_csv_row_cut_short_is_undone, .timeout = 60)
{
    char dir[512], path[600], table[1001];
    fresh_out_dir(dir, sizeof dir, "paths-short");
    char *header = csv_header(dir, "t.csv", path, sizeof path);
    size_t length = strlen(header);
    memcpy(table, header, length);
    memset(table + length, '0', 999 - length);
    table[999] = '\n';
    table[1000] = '\0';
    cr_assert_eq(write_text(path, table), 0);
    int status = run_in_dir(dir, "ulimit -f 1; $L " SMALL " --csv-append t.csv");
    cr_assert_eq(status, 1, "status %d", status);
    err_in_dir_says(dir, "t.csv", "not added");
    char *after = text_in_dir(dir, "t.csv");
    cr_assert_str_eq(after, table, "half a row was left");
    free(after);
    free(header);
}

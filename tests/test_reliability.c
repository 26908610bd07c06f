/*
 * test_reliability.c - nothing lost when one thing fails (issue 45), through
 * ./laplace in a shell: the run's record kept whatever output failed, the lab
 * sweep checked whole before its first solve, options a backend cannot honour
 * refused, and a closed stdout reported on every path. Each test works in a
 * folder of its own under tests/out, removed at the end.
 */
#include <criterion/criterion.h>

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

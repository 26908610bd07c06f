/*
 * bench_report.h - what laplace --bench says about its matrix: the plan (the
 * largest square, how many configurations, how long), the table (one line per
 * configuration, its better run), the CSV (its header, one row per run) and the
 * summary against the targets of the speed issue. Nothing here runs anything.
 */
#ifndef LAPLACE_BENCH_REPORT_H
#define LAPLACE_BENCH_REPORT_H

#include <stdio.h>

#include "bench_state.h"
#include "run/report.h"

/* The estimated wall time of the matrix (from b->costs). */
double bench_report_matrix_estimate_s(const struct bench_state *b);

/* The largest square and the matrix: how many configurations, how long; each line
 * after prefix ("# " atop the CSV). */
void bench_report_matrix_plan(FILE *out, const char *prefix, const struct bench_state *b);

/* The table's header on stdout; one line for entry i: its better run r. */
void bench_report_table_header(const struct bench_state *b);
void bench_report_table_row(const struct bench_state *b, int i,
                            const struct run_report *r);

/* The CSV header: DESIGN.md's columns, then the bench's own. */
void bench_report_csv_header(FILE *out);

/* One row of b->csv for run repeat (1, 2) of entry i: DESIGN.md's columns, then
 * the bench's (bench_report_csv_header); command is the entry's command line. */
void bench_report_csv_row(const struct bench_state *b, int i, const struct run_report *r,
                          int repeat, const char *command);

/* The targets of the speed issue, from the better runs in b->best. */
void bench_report_summary(const struct bench_state *b);

#endif

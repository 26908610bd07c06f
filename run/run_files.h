/*
 * run_files.h - the files a run will write, checked before the solve: no two on
 * one file (their names resolved, the snapshots' names included), each one
 * writable; and --csv-append's row.
 */
#ifndef LAPLACE_RUN_FILES_H
#define LAPLACE_RUN_FILES_H

#include <stddef.h>

#include "run/report.h"
#include "plan/plan.h"

/* Refuses, before any work, two of the run's files on one file (output_paths.h:
 * the history, --csv-append, each --output, its .pvti pieces and its snapshots):
 * EXIT_BAD_USAGE, one line naming both; then every file the run would write that
 * cannot be written (its name too long, read-only, not a regular file, a CSV of
 * other columns...): EXIT_FAILURE_RUN, one line per file in err. */
int run_files_check(const struct plan *plan, char *err, size_t n);

/* --csv-append: the report's row (csv_append.h: whole or not at all), after the
 * header when the file is new; r NULL: only checks that it could be. 0, or -1
 * with err set. */
int run_files_csv_append(const char *path, const struct run_report *r, char *err,
                         size_t n);

#endif

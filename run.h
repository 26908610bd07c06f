/*
 * run.h - the one path from a configuration to a result:
 *
 *   config --plan_resolve, plan_make--> plan --run_execute--> field + run_report
 *            (settings/plan.h)            |                         |
 *                            memory_check, outputs          report (human, CSV)
 *
 * main's run, both comparisons and the bench all go through it.
 */
#ifndef LAPLACE_RUN_H
#define LAPLACE_RUN_H

#include <stddef.h>

#include "settings/config.h"
#include "settings/plan.h"
#include "outputs/output.h"
#include "report.h"

#define LAPLACE_VERSION "0.1.0"

/* Refuses, before any work, two of the run's files on one file (output_paths.h:
 * the history, --csv-append, each --output, its .pvti pieces and its snapshots):
 * EXIT_BAD_USAGE, one line naming both; then every file the run would write that
 * cannot be written (its name too long, read-only, not a regular file, a CSV of
 * other columns...): EXIT_FAILURE_RUN, one line per file in err. */
int run_check_outputs(const struct plan *plan, char *err, size_t n);

/* --csv-append: the report's row (csv_append.h: whole or not at all), after the
 * header when the file is new; r NULL: only checks that it could be. 0, or -1
 * with err set. */
int run_csv_append(const char *path, const struct run_report *r, char *err, size_t n);

/*
 * Runs the plan: the history, the monitor and the progress line follow it, and
 * the field ends in *field. Returns EXIT_OK with the report filled in (the run may
 * have been interrupted: report->result.reason), or EXIT_FAILURE_RUN with err
 * saying why (a device failed, the run diverged, the history could not be
 * written); then *field holds nothing, but for a failed history alone: the field
 * is kept, for the outputs. report->time_total_s is this call's time.
 */
int run_execute(const struct plan *plan, struct field *field, struct run_report *report,
                char *err, size_t n);

/* The lattices a warm-up runs on (4096^2): larger ones take too long to allocate. */
#define RUN_WARM_UP_SITES_MAX (4096L * 4096L)

/* --dry-run's warm-up: the plan's own backend and layout run a few iterations
 * (about 2e7 site updates, 5 to 1000 iterations), written nowhere and quiet;
 * *seconds is its compute time per iteration, *iterations how many ran. -1 where
 * it is not cheap (several ranks, or more than RUN_WARM_UP_SITES_MAX sites) or
 * failed: the dry run then says the time is not measured. */
int run_time_per_iteration(const struct plan *plan, double *seconds, long *iterations);

/* Every --output of the plan (with the .pvti pieces its tiles staged): each one
 * that can be written is, whatever happens to the others. Exit status; err has
 * one line per output that failed. */
int run_write_outputs(const struct plan *plan, const struct field *field,
                      const struct solve_result *r, char *err, size_t n);

/* What the output files of this run say besides the field: the tiles of the
 * partition (NULL: one), the spacing, and the iteration and how the run ended. */
void run_output_context(const struct config *c, const struct partition *tiles,
                        const struct solve_result *r, struct output_context *out);

#endif

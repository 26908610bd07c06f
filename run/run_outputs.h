/*
 * run_outputs.h - a run's --output files written: what they say besides the field
 * (the caption, the tiles, the spacing), from the whole field with one process or
 * from every rank's part under MPI, at the end and at each snapshot; and the .pvti
 * pieces each tile's thread stages. run.c hands the snapshot and the pieces to the
 * solve; main writes the final outputs.
 */
#ifndef LAPLACE_RUN_OUTPUTS_H
#define LAPLACE_RUN_OUTPUTS_H

#include <stddef.h>

#include "outputs/output.h"
#include "plan/plan.h"
#include "solve/solve.h"

/* What the output files of this run say besides the field: the tiles of the
 * partition (NULL: one), the spacing, and the iteration and how the run ended. */
void run_outputs_context(const struct config *c, const struct partition *tiles,
                         const struct solve_result *r, struct output_context *out);

/* Every --output of the plan (with the .pvti pieces its tiles staged): each one
 * that can be written is, whatever happens to the others. Exit status; err has
 * one line per output that failed. */
int run_outputs_write(const struct plan *plan, const struct field *field,
                      const struct solve_result *r, char *err, size_t n);

/* A snapshot_fn (solve.h), context the plan: every --output named
 * NAME-ITERATION.EXT, written as the final outputs are. */
int run_outputs_snapshot(void *context, long iteration, const struct field *field,
                         char *err, size_t n);

/* A tile_done_fn (solve.h), context the plan: this tile's piece of every .pvti
 * output, staged under a temporary name. */
int run_outputs_piece(void *context, int tile, const struct partition *partition,
                      const struct field *whole, const struct solve_result *r, char *err,
                      size_t n);

#endif

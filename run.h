/*
 * run.h - from a configuration to a solved field (main and the bench).
 */
#ifndef LAPLACE_RUN_H
#define LAPLACE_RUN_H

#include <stddef.h>

#include "config.h"
#include "device.h"
#include "output.h"
#include "solver.h"

#define LAPLACE_VERSION "0.1.0"

/* What will run: the device implementation and the devices of the tiles. */
struct run_plan {
    const struct device_ops *ops; /* NULL for the serial reference */
    int devices[CONFIG_MAX_DEVICES];
    char device_list[256]; /* "0,1,2,3" or "-" */
    char device_names[256];
    observe_fn observe; /* every norm of the run (history, progress line), or NULL */
    void *observe_context;
    int observe_all; /* the observer needs every norm (the history) */
};

/* --backend auto: the GPUs if any; --partition auto: every GPU or every core. */
void run_resolve_auto(struct config *c);

/* Picks the device of every tile; returns an exit status (config.h), err says why. */
int run_make_plan(const struct config *c, struct run_plan *plan, char *err, size_t n);

/* Solves the configured problem as planned on a partx x party partition into
 * *field (allocated here). Returns 0, or -1 with result->error set. */
int run_solve(const struct config *c, const struct run_plan *plan, int partx, int party,
              struct field *field, struct solve_result *result);

/* What the output files of this run say besides the field: the tiles of the
 * partition (NULL: one), the spacing, and the iteration and how the run ended. */
void run_output_context(const struct config *c, const struct partition *tiles,
                        const struct solve_result *r, struct output_context *out);

#endif

/*
 * run.h - the one path from a configuration to a result:
 *
 *   config --run_plan_make--> plan --run_execute--> field + run_report
 *                               |                         |
 *                 memory_check, outputs            report (human, CSV)
 *
 * main's run, both comparisons and the bench all go through it.
 */
#ifndef LAPLACE_RUN_H
#define LAPLACE_RUN_H

#include <stddef.h>

#include "settings/config.h"
#include "devices/device.h"
#include "gpu_partition.h"
#include "outputs/output.h"
#include "report.h"
#include "solver.h"

#define LAPLACE_VERSION "0.1.0"

/*
 * What will run, made once from a configuration: the configuration itself with
 * nothing left on auto, the tiles, the device of each tile and the device
 * implementation. Everything after (memory check, solve, outputs, report) reads
 * it from here.
 */
struct run_plan {
    struct config config;         /* resolved: the backend and partition are set */
    struct partition partition;   /* the tiles (one for the serial reference) */
    const struct device_ops *ops; /* NULL for the serial reference */
    int devices[CPU_TILES_MAX];   /* CUDA device of each tile (GPU backend) */
    char device_list[256];        /* "0,1,2,3" or "-" */
    char device_names[256];
    char label[64]; /* the progress line's prefix, e.g. "comparing: 1 GPU" ("": none) */
    struct output_pieces *staged; /* per --output: the .pvti pieces its tiles wrote
                                     under temporary names, until run_write_outputs */
};

/* What a comparison runs the main run's problem on. */
enum run_comparison {
    RUN_ON_ONE_DEVICE, /* --compare: one device of the same backend */
    RUN_ON_CPU,        /* --compare-cpu: the host tiles, every core */
};

/* --backend auto: the GPUs if any; --partition auto: every GPU or every core.
 * Asks CUDA for its devices only when the answer matters (never for cpu/serial). */
void run_resolve_auto(struct config *c);

/* The plan of a configuration (resolved here if it is not yet). Returns an exit
 * status (config.h) with err set; on success run_plan_free releases it. */
int run_plan_make(const struct config *c, struct run_plan *plan, char *err, size_t n);

/* The plan of a comparison with the main run: the same problem, written nowhere
 * and followed by nothing but its own progress line. */
int run_plan_comparison(const struct run_plan *main_run, enum run_comparison kind,
                        struct run_plan *plan, char *err, size_t n);

void run_plan_free(struct run_plan *plan);

/* Refuses, before any work, two outputs on one file (an --output on a .pvti's piece
 * included): EXIT_BAD_USAGE, one line naming the option; then every file the run
 * would write (the history, each --output and its pieces for the plan's tiles)
 * that cannot be written: EXIT_FAILURE_RUN, one line per file in err. */
int run_check_outputs(const struct run_plan *plan, char *err, size_t n);

/*
 * Runs the plan: the history, the monitor and the progress line follow it, and
 * the field ends in *field. Returns EXIT_OK with the report filled in (the run may
 * have been interrupted: report->result.reason), or EXIT_FAILURE_RUN with err
 * saying why (a device failed, the run diverged, the history could not be
 * written); then *field holds nothing, but for a failed history alone: the field
 * is kept, for the outputs. report->time_total_s is this call's time.
 */
int run_execute(const struct run_plan *plan, struct field *field,
                struct run_report *report, char *err, size_t n);

/* Every --output of the plan (with the .pvti pieces its tiles staged): each one
 * that can be written is, whatever happens to the others. Exit status; err has
 * one line per output that failed. */
int run_write_outputs(const struct run_plan *plan, const struct field *field,
                      const struct solve_result *r, char *err, size_t n);

/* What the output files of this run say besides the field: the tiles of the
 * partition (NULL: one), the spacing, and the iteration and how the run ended. */
void run_output_context(const struct config *c, const struct partition *tiles,
                        const struct solve_result *r, struct output_context *out);

#endif

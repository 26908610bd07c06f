/*
 * plan.h - what will run, made once from a configuration (plan.c):
 *
 *   config --plan_resolve--> config, nothing left on auto, checked as a whole
 *          --plan_make-----> plan: + the loop's rule, eps and limit, the estimate
 *                                  of its iterations, the tiles,
 *                                  the device of each tile, the implementation
 *
 * Everything after (memory check, solve, outputs, report) reads the plan and
 * derives nothing again.
 */
#ifndef LAPLACE_PLAN_H
#define LAPLACE_PLAN_H

#include <stddef.h>

#include "devices/device.h"
#include "gpu_partition.h"
#include "outputs/output.h"
#include "problem/estimate.h"
#include "problem/update_rule.h"
#include "settings/config.h"

struct plan {
    struct config config;           /* resolved: the backend and partition are set */
    struct update_rule update_rule; /* the method with its omega, and the norm */
    double eps;                     /* the loop's tolerance: --eps, 0 with --steps */
    long max_iter;                  /* the loop's limit: --max-iter, or --steps N */
    struct estimate estimate;       /* the iterations expected to eps (estimate.h) */
    struct partition partition;     /* the tiles (one for the serial reference) */
    const struct device_ops *ops;   /* NULL for the serial reference */
    int devices[CPU_TILES_MAX];     /* CUDA device of each tile (GPU backend) */
    char device_list[256];          /* "0,1,2,3" or "-" */
    char device_names[256];
    char label[64]; /* the progress line's prefix, e.g. "comparing: 1 GPU" ("": none) */
    struct output_pieces *staged; /* per --output: the .pvti pieces its tiles wrote
                                     under temporary names, until run_outputs_write */
};

/* What a comparison runs the main run's problem on. */
enum plan_comparison_kind {
    PLAN_ON_ONE_DEVICE, /* --compare: one device of the same backend */
    PLAN_ON_CPU,        /* --compare-cpu: the host tiles, every core */
};

/*
 * The one resolve step: --backend auto (the GPUs if any), --partition auto (every
 * GPU or every core) and the ranks' layout set in c, then the whole checked
 * (config_validate). Asks CUDA for its devices only when the answer matters. When
 * auto found no GPU, the options only a GPU reads (--devices, --kernel, --reduce
 * device, --no-p2p) are refused.
 * Returns 0, or EXIT_BAD_USAGE with one line in err.
 */
int plan_resolve(struct config *c, char *err, size_t n);

/* 1 when --backend auto found no GPU and resolved to the host tiles, with why in
 * a few words (p2p_none_reason); 0 for every other backend, chosen or given. */
int plan_on_host_for_want_of_gpu(const struct config *c, char *why, size_t n);

/* The plan of a resolved configuration. Returns an exit status (error.h) with err
 * set; on success plan_free releases it. */
int plan_make(const struct config *c, struct plan *plan, char *err, size_t n);

/* The plan of a comparison with the main run: the same problem, written nowhere
 * and followed by nothing but its own progress line. */
int plan_comparison(const struct plan *main_run, enum plan_comparison_kind kind,
                    struct plan *plan, char *err, size_t n);

/* The source (and --exact's solution) finite at every site this process holds of
 * the tiles (its rank's part under MPI; tiles NULL or one process: the whole
 * lattice): EXIT_OK, or EXIT_BAD_USAGE with one line (the ranks agree on it as on
 * any refusal). */
int plan_check_source(const struct config *c, const struct partition *tiles, char *err,
                      size_t n);

void plan_free(struct plan *plan);

#endif

/*
 * run.c - from a configuration to a solved field: --backend and --partition
 * auto resolved, the devices of the tiles chosen, and one solve on the
 * backend's devices (or the serial reference). Used by main and the bench.
 */
#include "run.h"

#include <stdio.h>
#include <string.h>

#include <omp.h>

#include "gpu_partition.h"
#include "laplace_kernels.h"
#include "output.h"
#include "p2p.h"
#include "reference.h"
#include "report.h"

/* --backend auto: the GPUs if any; --partition auto: every GPU or every core. */
void run_resolve_auto(struct config *c)
{
    int gpus = p2p_device_count();
    if (c->backend == BACKEND_AUTO)
        c->backend = gpus > 0 ? BACKEND_GPU : BACKEND_CPU;
    if (c->partition_x > 0)
        return;
    int n = 1;
    if (c->backend == BACKEND_GPU)
        n = c->device_count > 0 ? c->device_count : (gpus > 0 ? gpus : 1);
    else if (c->backend == BACKEND_CPU)
        n = omp_get_num_procs() < CPU_TILES_MAX ? omp_get_num_procs() : CPU_TILES_MAX;
    partition_auto_layout(n, c->problem.nx, c->problem.ny, &c->partition_x,
                          &c->partition_y);
}

/* Picks the device of every tile; returns an exit status. */
int run_make_plan(const struct config *c, struct run_plan *plan, char *err, size_t n)
{
    int tiles = c->partition_x * c->partition_y;
    memset(plan, 0, sizeof *plan);
    if (c->backend == BACKEND_GPU)
        return p2p_plan_devices(c, plan->devices, plan->device_list,
                                sizeof plan->device_list, plan->device_names,
                                sizeof plan->device_names, &plan->ops, err, n);
    plan->ops = c->backend == BACKEND_CPU ? &device_host_ops : NULL;
    snprintf(plan->device_list, sizeof plan->device_list, "-");
    snprintf(plan->device_names, sizeof plan->device_names, "host, %d thread%s", tiles,
             tiles > 1 ? "s" : "");
    return EXIT_OK;
}

void run_output_context(const struct config *c, const struct partition *tiles,
                        const struct solve_result *r, struct output_context *out)
{
    const struct problem *p = &c->problem;
    const char *how = r->reason == STOP_INTERRUPTED ? "interrupted at iteration"
                      : r->reason == STOP_CONVERGED ? "converged at iteration"
                                                    : "stopped at iteration";
    *out = (struct output_context){.partition = tiles,
                                   .png_tiles = c->png_tiles,
                                   .iteration = r->iterations,
                                   .interrupted = r->reason == STOP_INTERRUPTED};
    problem_spacing(p, &out->dx, &out->dy);
    snprintf(out->text, sizeof out->text, "laplace %s, %ldx%ld %s, %s, %s %ld",
             LAPLACE_VERSION, p->nx, p->ny, precision_name(p->precision),
             method_name(c->method), how, r->iterations);
}

/* A snapshot_fn: every --output of the run, named NAME-ITERATION.EXT. */
static int write_snapshot(void *context, long iteration, const struct field *field,
                          char *error, size_t n)
{
    const struct config *c = context;
    struct solve_result now = {.iterations = iteration, .reason = STOP_MAX_ITER};
    struct output_context oc;
    run_output_context(c, NULL, &now, &oc);
    snprintf(oc.text + strlen(oc.text), sizeof oc.text - strlen(oc.text), " (snapshot)");
    for (int i = 0; i < c->output_count; i++) {
        char path[CONFIG_PATH_MAX + 32];
        if (output_snapshot_path(c->outputs[i], iteration, path, sizeof path) != 0)
            return snprintf(error, n, "snapshot name of '%s' too long", c->outputs[i]),
                   -1;
        if (output_write(path, field, &oc, error, n) != 0)
            return -1;
    }
    return 0;
}

/* A tile_done_fn: this tile's piece of every .pvti output, by the tile's thread. */
static int write_pieces(void *context, int tile, const struct partition *partition,
                        const struct field *whole, const struct solve_result *r,
                        char *error, size_t n)
{
    const struct config *c = context;
    struct output_context oc;
    run_output_context(c, partition, r, &oc);
    for (int i = 0; i < c->output_count; i++)
        if (output_has_pieces(c->outputs[i]) &&
            output_write_piece(c->outputs[i], whole, &oc, tile, error, n) != 0)
            return -1;
    return 0;
}

/* Solves the problem as planned on a partx x party partition into *field. */
int run_solve(const struct config *c, const struct run_plan *plan, int partx, int party,
              struct field *field, struct solve_result *result)
{
    struct solve_settings s = {
        .eps = config_eps(c),
        .max_iter = config_max_iter(c),
        .check_every = c->check_every,
        .monitor_every = (c->csv || c->quiet) ? 0 : c->monitor_every,
        .monitor = report_monitor_line,
        .monitor_context = stdout,
        .tile = {.block_x = c->block_x,
                 .block_y = c->block_y,
                 .use_p2p = c->use_p2p,
                 .kernel = kernel_by_name(c->kernel),
                 .reduce = c->reduce,
                 .rule = config_update_rule(c)},
        .snapshot_every = c->snapshot_every,
        .snapshot = write_snapshot,
        .snapshot_context = (void *)c,
        .observe = plan->observe,
        .observe_context = plan->observe_context,
        .observe_all = plan->observe_all,
        .tile_done = write_pieces,
        .tile_done_context = (void *)c,
        .devices = c->backend == BACKEND_GPU ? plan->devices : NULL,
        .loop = c->loop,
    };
    if (!plan->ops)
        return reference_solve(&c->problem, NULL, &s, field, result);
    struct partition partition;
    int split = partition_init(&partition, c->problem.nx, c->problem.ny, partx, party);
    if (split != 0) {
        *field = (struct field){0};
        *result = (struct solve_result){.reason = STOP_FAILED, .failed_device = -1};
        snprintf(result->error, sizeof result->error,
                 split == -1 ? "out of host memory for %dx%d tiles"
                             : "cannot split the lattice into %dx%d tiles",
                 partx, party);
        return -1;
    }
    int rc = solver_run(plan->ops, &c->problem, &partition, &s, field, result);
    partition_free(&partition);
    return rc;
}

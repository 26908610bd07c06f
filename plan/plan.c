/*
 * plan.c - the one resolve step and the plan (plan.h): a configuration's auto values
 * resolved (backend, tiles, ranks) and the whole checked, then what the loop runs
 * with derived once, the tiles laid out, their devices chosen and the device
 * implementation named. Used by main's run, both comparisons and the bench.
 */
#include "plan/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "laplace_kernels.h"
#include "mpi/binding.h"
#include "mpi/rank_part.h"
#include "problem/exact.h"
#include "mpi/ranks.h"
#include "p2p.h"
#include "plan/gpu_layout.h"
#include "plan/loop_plan.h"
#include "plan/on_chip.h"
#include "support/threads.h"
#include "support/error.h"

/* The tiles one rank drives under --partition auto: its share of the node's GPUs
 * (or its --devices), or every core it has (one of several ranks: its share of the
 * node's, as under mpirun --bind-to none; a comparison's one process: every core),
 * as many as OpenMP gives threads. */
static int auto_tiles(const struct config *c, int gpus)
{
    const char *limited_by;
    int threads = threads_limit(&limited_by),
        cores = c->world_size > 1 ? binding_rank_cores() : omp_get_num_procs();
    int n = 1;
    if (c->backend == BACKEND_GPU && c->device_count > 0)
        n = c->device_count;
    else if (c->backend == BACKEND_GPU)
        n = gpus / ranks_local_size() < threads ? gpus / ranks_local_size() : threads;
    else if (c->backend == BACKEND_CPU)
        n = cores < threads ? cores : threads;
    return n < 1 ? 1 : n < CPU_TILES_MAX ? n : CPU_TILES_MAX;
}

/* The loop a run's GPU tiles stacked in rows may take: passes of two iterations where
 * the loop plan allows them (loop_plan_pairs_allowed) with a loop other than the
 * host's and no snapshots (which take the host loop), and also the spread strips on
 * chip where the loop on chip pays (on_chip_pays) and no monitor is shown. */
static enum stacked_loop stacked_loop_of(const struct config *c)
{
    const struct tile_settings asked = {.block_x = c->block_x,
                                        .block_y = c->block_y,
                                        .kernel = kernel_by_name(c->kernel),
                                        .reduce = c->reduce,
                                        .loop = c->loop,
                                        .update_rule = config_update_rule(c),
                                        .tune = c->tune};
    if (c->loop == LOOP_HOST || c->snapshot_every > 0 || !loop_plan_pairs_allowed(&asked))
        return STACKED_NONE;
    return on_chip_pays(&asked) && !config_shows_monitor(c) ? STACKED_ON_CHIP
                                                            : STACKED_PASSES;
}

/* --backend auto: the GPUs if any; --partition auto: one process's GPUs as many as pay
 * on the lattice (gpu_layout.c), every core, or under MPI each rank's share.
 * Asks CUDA for its devices only when the answer matters (never for cpu/serial). */
static void resolve_auto(struct config *c)
{
    int asks_gpus =
        c->backend == BACKEND_AUTO ||
        (c->backend == BACKEND_GPU && c->partition_x == 0 && c->device_count == 0);
    int gpus = asks_gpus ? p2p_device_count() : 0;
    if (c->world_size == 0) /* a comparison's plan is one process's: 1 */
        c->world_size = ranks_size();
    if (c->backend == BACKEND_AUTO) {
        c->backend = gpus > 0 ? BACKEND_GPU : BACKEND_CPU;
        c->backend_auto = 1;
    }
    if (c->partition_x == 0 && c->backend == BACKEND_GPU && c->world_size == 1 &&
        c->device_count == 0) {
        /* one process on every GPU: as many as pay on this lattice (gpu_layout.c) */
        struct gpu_layout l;
        char model[256] = "";
        if (gpus > 1)
            p2p_device_name(0, model, sizeof model); /* "" where CUDA cannot say */
        gpu_layout_auto(auto_tiles(c, gpus), model, c->problem.nx, c->problem.ny,
                        stacked_loop_of(c), &l);
        c->partition_auto = 1;
        c->partition_x = l.ngx;
        c->partition_y = l.ngy;
        snprintf(c->partition_why, sizeof c->partition_why, "%s", l.why);
    }
    if (c->partition_x == 0) {
        /* each rank's block of tiles laid out as one workstation's would be */
        c->partition_auto = 1;
        int rx = c->ranks_x, ry = c->ranks_y, ax, ay;
        if (rx == 0)
            partition_auto_layout(c->world_size, c->problem.nx, c->problem.ny, &rx, &ry);
        partition_auto_layout(auto_tiles(c, gpus), c->problem.nx / rx, c->problem.ny / ry,
                              &ax, &ay);
        c->partition_x = rx * ax;
        c->partition_y = ry * ay;
    }
    if (c->ranks_x == 0 && c->world_size > 1 &&
        partition_rank_layout(c->world_size, c->partition_x, c->partition_y, &c->ranks_x,
                              &c->ranks_y) != 0)
        c->ranks_x = c->ranks_y = 0; /* none: config_validate says so */
    if (c->ranks_x == 0 && c->world_size == 1)
        c->ranks_x = c->ranks_y = 1;
    if (c->world_size > 1) { /* nodes may differ (cores, GPUs): rank 0's layout for all */
        int layout[5] = {c->partition_x, c->partition_y, c->ranks_x, c->ranks_y,
                         c->partition_auto};
        ranks_share(0, layout, sizeof layout);
        c->partition_x = layout[0], c->partition_y = layout[1];
        c->ranks_x = layout[2], c->ranks_y = layout[3], c->partition_auto = layout[4];
    }
}

/* The device implementation of a backend; NULL runs the serial reference. */
static const struct device_ops *ops_of(enum backend backend)
{
#ifdef HAVE_CUDA
    if (backend == BACKEND_GPU)
        return &device_cuda_ops;
#endif
    return backend == BACKEND_CPU ? &device_host_ops : NULL;
}

/*
 * Under MPI, the GPUs of this rank's tiles: its --devices, or the node's GPUs
 * dealt out by the rank's place on its node (local rank r takes r * k .. r * k +
 * k - 1 for k tiles a rank). Checked by p2p.c as one workstation's list, then
 * each given to its tile.
 */
static int choose_rank_devices(struct plan *plan, char *err, size_t n)
{
    struct config mine = plan->config;
    const struct partition *p = &plan->partition;
    int per = partition_count(p) / mine.world_size, gpus = p2p_device_count();
    int local[CONFIG_MAX_DEVICES], k = 0, list[CONFIG_MAX_DEVICES];
    if (per > CONFIG_MAX_DEVICES || partition_count(p) > CPU_TILES_MAX)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--partition %dx%d: at most %d GPU tiles a rank and %d in "
                            "all",
                            p->ngx, p->ngy, CONFIG_MAX_DEVICES, CPU_TILES_MAX);
    if (mine.device_count == 0 && ranks_local_size() * per > gpus)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "rank %d (%s): %d ranks on this node with %d tile%s each "
                            "need %d GPUs; it has %d",
                            ranks_rank(), ranks_node(), ranks_local_size(), per,
                            per > 1 ? "s" : "", ranks_local_size() * per, gpus);
    for (int i = 0; mine.device_count == 0 && i < per; i++)
        mine.devices[i] = ranks_local_rank() * per + i;
    mine.device_count = per;
    mine.partition_x /= mine.ranks_x;
    mine.partition_y /= mine.ranks_y;
    int status = p2p_plan_devices(mine.partition_x, mine.partition_y, mine.devices,
                                  mine.device_count, list, plan->device_list,
                                  sizeof plan->device_list, plan->device_names,
                                  sizeof plan->device_names, err, n);
    for (int t = 0; t < partition_count(p); t++) {
        plan->devices[t] = -1;
        if (partition_rank_of(p, mine.ranks_x, mine.ranks_y, t) == ranks_rank())
            local[k++] = t;
    }
    for (int i = 0; status == EXIT_OK && i < k; i++)
        plan->devices[local[i]] = list[i];
    return status;
}

/* The devices of the tiles: the GPUs (p2p.c checks they exist), or the host. */
static int choose_devices(struct plan *plan, char *err, size_t n)
{
    const struct config *c = &plan->config;
    int tiles = partition_count(&plan->partition) / c->world_size;
    if (c->backend == BACKEND_GPU && c->world_size > 1)
        return choose_rank_devices(plan, err, n);
    if (c->backend == BACKEND_GPU)
        return p2p_plan_devices(c->partition_x, c->partition_y, c->devices,
                                c->device_count, plan->devices, plan->device_list,
                                sizeof plan->device_list, plan->device_names,
                                sizeof plan->device_names, err, n);
    snprintf(plan->device_list, sizeof plan->device_list, "-");
    snprintf(plan->device_names, sizeof plan->device_names, "host, %d thread%s", tiles,
             tiles > 1 ? "s" : "");
    return EXIT_OK;
}

/* An empty set of staged pieces for every .pvti output of the plan. 0, or -1. */
static int stage_pieces(struct plan *plan)
{
    const struct config *c = &plan->config;
    int tiles = plan->ops ? partition_count(&plan->partition) : 1;
    plan->staged = calloc(CONFIG_MAX_OUTPUTS, sizeof *plan->staged);
    for (int i = 0; plan->staged && i < c->output_count; i++)
        if (output_has_pieces(c->outputs[i]) &&
            output_pieces_init(&plan->staged[i], tiles) != 0)
            return -1;
    return plan->staged ? 0 : -1;
}

/* What a rank other than 0 leaves to rank 0: the report, the watchers, the
 * comparisons' solves. It writes every output from its part, measures --exact's
 * error over it and compares it with rank 0's comparisons (part_compare.h), with the
 * other ranks (run.c, main.c). */
static void follows_rank_0(struct config *c)
{
    c->quiet = 1; /* the monitor's norms computed, not shown */
    c->csv = 0;
    c->csv_append[0] = '\0';
    c->history[0] = '\0';
}

int plan_on_host_for_want_of_gpu(const struct config *c, char *why, size_t n)
{
    if (!c->backend_auto || c->backend != BACKEND_CPU)
        return 0;
    p2p_none_reason(why, n);
    return 1;
}

/* The options only a GPU run reads, refused rather than ignored when --backend auto
 * found no GPU, as --backend gpu is refused there. --block and --loop are not among
 * them: the host tiles have a partial-sum block and batches of their own. */
static int refuse_gpu_options(const struct config *c, char *err, size_t n)
{
    char why[128];
    const char *option = c->device_count > 0                        ? "--devices"
                         : kernel_by_name(c->kernel) != KERNEL_AUTO ? "--kernel"
                         : config_gpu_mechanism(c) ? config_gpu_mechanism(c)
                         : c->loop == LOOP_CHIP    ? "--loop chip"
                                                   : NULL;
    if (!option || !plan_on_host_for_want_of_gpu(c, why, sizeof why))
        return EXIT_OK;
    return error_status(EXIT_BAD_USAGE, err, n,
                        "%s: a GPU option, but no GPU can run here (%s) and --backend "
                        "auto takes the host tiles; leave it out",
                        option, why);
}

int plan_resolve(struct config *c, char *err, size_t n)
{
    if (tuning_read(&c->tune, err, n) != 0)
        return EXIT_BAD_USAGE;
    resolve_auto(c);
    if (refuse_gpu_options(c, err, n) != EXIT_OK)
        return EXIT_BAD_USAGE;
    return config_validate(c, err, n);
}

/* What the loop runs with, derived once: the update rule of the method, its omega
 * and the norm; --steps N: exactly N iterations, no tolerance; the iterations
 * expected to eps. */
static void derive(struct plan *plan)
{
    const struct config *c = &plan->config;
    plan->update_rule = config_update_rule(c);
    plan->eps = c->steps > 0 ? 0.0 : c->eps;
    plan->max_iter = c->steps > 0 ? c->steps : c->max_iter;
    estimate_make(&c->problem, &plan->update_rule, plan->eps, &plan->estimate);
}

int plan_make(const struct config *c, struct plan *plan, char *err, size_t n)
{
    memset(plan, 0, sizeof *plan);
    plan->config = *c;
    if (plan->config.world_size > 1 && ranks_rank() != 0)
        follows_rank_0(&plan->config);
    derive(plan);
    const struct config *r = &plan->config;
    if (plan->estimate.step_too_small)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--omega %g: weighted Jacobi's first step, omega times the "
                            "correction, is below eps %g at once: the run would stop at "
                            "its first iteration with the field barely moved; raise "
                            "--omega or lower --eps",
                            r->omega, plan->eps);
    int split = partition_init(&plan->partition, r->problem.nx, r->problem.ny,
                               r->partition_x, r->partition_y);
    if (split != 0) {
        error_set(err, n,
                  split == -1 ? "out of host memory for %dx%d tiles"
                              : "cannot split the lattice into %dx%d tiles",
                  r->partition_x, r->partition_y);
        return EXIT_FAILURE_RUN;
    }
    plan->ops = ops_of(r->backend);
    int status = choose_devices(plan, err, n);
    if (status == EXIT_OK && stage_pieces(plan) != 0)
        status = error_status(EXIT_FAILURE_RUN, err, n, "out of host memory");
    if (status != EXIT_OK)
        plan_free(plan);
    return status;
}

/* What a comparison leaves out: the outputs, the history and the monitor belong
 * to the main run, whose field is compared with; a label heads its progress line. */
static void unwatched(struct config *c)
{
    c->output_count = 0;
    c->history[0] = '\0';
    c->exact[0] = '\0';
    c->monitor_every = 0;
    c->snapshot_every = 0;
    c->compare = c->compare_cpu = 0;
    c->ranks_x = c->ranks_y = 1; /* under MPI, rank 0 alone runs the comparisons */
    c->world_size = 1;
}

int plan_comparison(const struct plan *main_run, enum plan_comparison_kind kind,
                    struct plan *plan, char *err, size_t n)
{
    struct config c = main_run->config;
    unwatched(&c);
    c.partition_x = c.partition_y = kind == PLAN_ON_ONE_DEVICE ? 1 : 0;
    if (kind == PLAN_ON_CPU)
        c.backend = BACKEND_CPU;
    if (kind == PLAN_ON_ONE_DEVICE && c.backend == BACKEND_GPU) {
        c.devices[0] = main_run->devices[0];
        c.device_count = 1;
    }
    resolve_auto(&c); /* the CPU's tiles: every core */
    int status = plan_make(&c, plan, err, n);
    if (status != EXIT_OK)
        return status;
    int tiles = partition_count(&plan->partition);
    if (kind == PLAN_ON_CPU)
        snprintf(plan->label, sizeof plan->label, "comparing: CPU (%d threads)", tiles);
    else
        snprintf(plan->label, sizeof plan->label, "comparing: 1 %s",
                 c.backend == BACKEND_GPU ? "GPU" : "tile");
    return EXIT_OK;
}

int plan_check_source(const struct config *c, const struct partition *tiles, char *err,
                      size_t n)
{
    struct lattice_rect own = problem_whole(&c->problem);
    char why[CONFIG_ERROR_MAX - 16];
    if (tiles && c->world_size > 1) {
        struct rank_part rp;
        rank_part_make(&rp, tiles, c->ranks_x, c->ranks_y, ranks_rank());
        own = rp.own;
    }
    if (problem_check_source(&c->problem, own, why, sizeof why) != 0)
        return error_status(EXIT_BAD_USAGE, err, n, "[problem] %s", why);
    if (c->exact[0] && exact_check(&c->problem, c->exact, own, why, sizeof why) != 0)
        return error_status(EXIT_BAD_USAGE, err, n, "%s", why);
    return EXIT_OK;
}

void plan_free(struct plan *plan)
{
    for (int i = 0; plan->staged && i < CONFIG_MAX_OUTPUTS; i++)
        output_pieces_discard(&plan->staged[i]); /* the pieces of a failed run */
    free(plan->staged);
    plan->staged = NULL;
    partition_free(&plan->partition);
    memset(&plan->partition, 0, sizeof plan->partition);
}

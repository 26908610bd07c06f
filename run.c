/*
 * run.c - the one path from a configuration to a result (run.h): the plan
 * (auto resolved, the tiles, their devices, the device implementation), the
 * solve on it with its watchers, the outputs and the report's facts. Used by
 * main's run, both comparisons and the bench.
 */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>
#include <unistd.h>

#include "support/error.h"
#include "laplace_kernels.h"
#include "p2p.h"
#include "mpi/ranks.h"
#include "reference.h"
#include "watch/watchers.h"

/*
 * libgomp's spin count for a wait while its threads outnumber the cores (100
 * spins by default, then a futex). It reads OMP_WAIT_POLICY and GOMP_SPINCOUNT
 * once, when the program starts, so setting them at run time is too late; this
 * variable is read at every wait. Weak: present where libgomp is linked
 * statically (the Makefile's way), NULL through a shared libgomp (SANITIZE=1),
 * which then keeps its own short spin.
 */
extern unsigned long long gomp_throttled_spin_count_var __attribute__((weak));

/* More host tiles than cores: the threads take turns, so a thread waiting at a
 * barrier must give its core away at once (a passive wait) rather than spin.
 * Says so once, on stderr when it is a terminal (a script's stderr keeps its one
 * line a failure); the user's own OMP_WAIT_POLICY or GOMP_SPINCOUNT wins.
 * Tiles beyond what OpenMP gives fail in solver_run instead, with their reason. */
static void host_tiles_over_cores(const struct run_plan *plan)
{
    static int said;
    const char *limited_by;
    int tiles = partition_count(&plan->partition) / plan->config.world_size,
        cores = omp_get_num_procs();
    if (plan->config.backend != BACKEND_CPU || tiles <= cores ||
        tiles > solver_thread_limit(&limited_by))
        return;
    int mine = !getenv("OMP_WAIT_POLICY") && !getenv("GOMP_SPINCOUNT") &&
               &gomp_throttled_spin_count_var;
    if (mine)
        gomp_throttled_spin_count_var = 0;
    if (!said++ && isatty(STDERR_FILENO)) /* a note for a person, not for scripts */
        fprintf(stderr,
                "laplace: warning: %d host tiles on %d cores take turns (%s); "
                "--partition auto fits the cores\n",
                tiles, cores, mine ? "waits made passive" : "waits as OpenMP was told");
}

/* The tiles one rank drives under --partition auto: its share of the node's GPUs
 * (or its --devices), or every core it has, as many as OpenMP gives threads. */
static int auto_tiles(const struct config *c, int gpus)
{
    const char *limited_by;
    int threads = solver_thread_limit(&limited_by), cores = omp_get_num_procs();
    int n = 1;
    if (c->backend == BACKEND_GPU && c->device_count > 0)
        n = c->device_count;
    else if (c->backend == BACKEND_GPU)
        n = gpus / ranks_local_size() < threads ? gpus / ranks_local_size() : threads;
    else if (c->backend == BACKEND_CPU)
        n = cores < threads ? cores : threads;
    return n < 1 ? 1 : n < CPU_TILES_MAX ? n : CPU_TILES_MAX;
}

void run_resolve_auto(struct config *c)
{
    int asks_gpus =
        c->backend == BACKEND_AUTO ||
        (c->backend == BACKEND_GPU && c->partition_x == 0 && c->device_count == 0);
    int gpus = asks_gpus ? p2p_device_count() : 0;
    if (c->world_size == 0) /* a comparison's plan is one process's: 1 */
        c->world_size = ranks_size();
    if (c->backend == BACKEND_AUTO)
        c->backend = gpus > 0 ? BACKEND_GPU : BACKEND_CPU;
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
static int choose_rank_devices(struct run_plan *plan, char *err, size_t n)
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
    int status =
        p2p_plan_devices(&mine, list, plan->device_list, sizeof plan->device_list,
                         plan->device_names, sizeof plan->device_names, err, n);
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
static int choose_devices(struct run_plan *plan, char *err, size_t n)
{
    const struct config *c = &plan->config;
    int tiles = partition_count(&plan->partition) / c->world_size;
    if (c->backend == BACKEND_GPU && c->world_size > 1)
        return choose_rank_devices(plan, err, n);
    if (c->backend == BACKEND_GPU)
        return p2p_plan_devices(c, plan->devices, plan->device_list,
                                sizeof plan->device_list, plan->device_names,
                                sizeof plan->device_names, err, n);
    snprintf(plan->device_list, sizeof plan->device_list, "-");
    snprintf(plan->device_names, sizeof plan->device_names, "host, %d thread%s", tiles,
             tiles > 1 ? "s" : "");
    return EXIT_OK;
}

/* An empty set of staged pieces for every .pvti output of the plan. 0, or -1. */
static int stage_pieces(struct run_plan *plan)
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
 * comparisons; of the outputs it writes only its tiles' .pvti pieces. */
static void follows_rank_0(struct config *c)
{
    c->quiet = 1;
    c->csv = 0;
    c->csv_append[0] = '\0';
    c->history[0] = '\0';
    c->exact[0] = '\0';
    c->compare = c->compare_cpu = 0; /* quiet: the monitor's norms computed, not shown */
}

int run_plan_make(const struct config *c, struct run_plan *plan, char *err, size_t n)
{
    memset(plan, 0, sizeof *plan);
    plan->config = *c;
    run_resolve_auto(&plan->config);
    if (plan->config.world_size > 1 && ranks_rank() != 0)
        follows_rank_0(&plan->config);
    const struct config *r = &plan->config;
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
        run_plan_free(plan);
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

int run_plan_comparison(const struct run_plan *main_run, enum run_comparison kind,
                        struct run_plan *plan, char *err, size_t n)
{
    struct config c = main_run->config;
    unwatched(&c);
    c.partition_x = c.partition_y = kind == RUN_ON_ONE_DEVICE ? 1 : 0;
    if (kind == RUN_ON_CPU)
        c.backend = BACKEND_CPU;
    if (kind == RUN_ON_ONE_DEVICE && c.backend == BACKEND_GPU) {
        c.devices[0] = main_run->devices[0];
        c.device_count = 1;
    }
    int status = run_plan_make(&c, plan, err, n);
    if (status != EXIT_OK)
        return status;
    int tiles = partition_count(&plan->partition);
    if (kind == RUN_ON_CPU)
        snprintf(plan->label, sizeof plan->label, "comparing: CPU (%d threads)", tiles);
    else
        snprintf(plan->label, sizeof plan->label, "comparing: 1 %s",
                 c.backend == BACKEND_GPU ? "GPU" : "tile");
    return EXIT_OK;
}

void run_plan_free(struct run_plan *plan)
{
    for (int i = 0; plan->staged && i < CONFIG_MAX_OUTPUTS; i++)
        output_pieces_discard(&plan->staged[i]); /* the pieces of a failed run */
    free(plan->staged);
    plan->staged = NULL;
    partition_free(&plan->partition);
    memset(&plan->partition, 0, sizeof plan->partition);
}

/* The files a run writes: the history, each --output, each .pvti's pieces. */
struct run_file {
    char path[OUTPUT_PATH_MAX];
    const char *option; /* "--history", "--output", or the .pvti of a piece */
};

/* Every file of the plan in files (calloc'd, *count of them); NULL: no memory. */
static struct run_file *files_of(const struct run_plan *plan, int *count)
{
    const struct config *c = &plan->config;
    int tiles = plan->ops ? partition_count(&plan->partition) : 1, k = 0;
    struct run_file *files =
        calloc((size_t)(1 + c->output_count * (tiles + 1)), sizeof *files);
    if (files && c->history[0]) {
        snprintf(files[k].path, sizeof files[k].path, "%s", c->history);
        files[k++].option = "--history";
    }
    for (int i = 0; files && i < c->output_count; i++) {
        snprintf(files[k].path, sizeof files[k].path, "%s", c->outputs[i]);
        files[k++].option = "--output";
        for (int t = 0; output_has_pieces(c->outputs[i]) && t < tiles; t++)
            if (output_piece_path(c->outputs[i], t, files[k].path,
                                  sizeof files[k].path) == 0)
                files[k++].option = c->outputs[i];
    }
    *count = k;
    return files;
}

/* Two outputs on one file: EXIT_BAD_USAGE naming the option. (Pieces of two
 * different .pvti cannot share a name: their stems differ.) */
static int check_distinct(const struct run_file *files, int count, char *err, size_t n)
{
    for (int i = 0; i < count; i++)
        for (int j = i + 1; j < count; j++) {
            const struct run_file *a = &files[i], *b = &files[j];
            if ((a->option[0] != '-' && b->option[0] != '-') ||
                strcmp(a->path, b->path) != 0)
                continue;
            if (a->option[0] != '-') /* b is an option on a's piece */
                return error_status(EXIT_BAD_USAGE, err, n,
                                    "%s '%s': it is a piece of --output '%s'", b->option,
                                    b->path, a->option);
            if (b->option[0] != '-')
                return error_status(EXIT_BAD_USAGE, err, n,
                                    "%s '%s': it is a piece of --output '%s'", a->option,
                                    a->path, b->option);
            return error_status(EXIT_BAD_USAGE, err, n, "%s '%s': also given as %s",
                                b->option, b->path, a->option);
        }
    return EXIT_OK;
}

/* Appends line to err (n bytes) after a newline if err holds one already. */
static void add_line(char *err, size_t n, const char *line)
{
    size_t used = strlen(err);
    snprintf(err + used, n - used, "%s%s", used ? "\n" : "", line);
}

int run_check_outputs(const struct run_plan *plan, char *err, size_t n)
{
    int count, status = EXIT_OK;
    char line[CONFIG_ERROR_MAX];
    struct run_file *files = files_of(plan, &count);
    if (!files)
        return error_status(EXIT_FAILURE_RUN, err, n, "out of host memory");
    err[0] = '\0';
    status = check_distinct(files, count, err, n);
    for (int i = 0; status != EXIT_BAD_USAGE && i < count; i++) {
        int known =
            files[i].option[0] != '-' || strcmp(files[i].option, "--history") == 0;
        if ((known ? output_check_file(files[i].path, line, sizeof line)
                   : output_check_writable(files[i].path, line, sizeof line)) != 0) {
            add_line(err, n, line);
            status = EXIT_FAILURE_RUN;
        }
    }
    free(files);
    return status;
}

void run_output_context(const struct config *c, const struct partition *tiles,
                        const struct solve_result *r, struct output_context *out)
{
    const struct problem *p = &c->problem;
    const char *how = r->reason == STOP_INTERRUPTED ? "interrupted at iteration"
                      : r->reason == STOP_CONVERGED ? "converged at iteration"
                      : r->reason == STOP_STAGNATED ? "stagnated at iteration"
                                                    : "stopped at iteration";
    *out = (struct output_context){.partition = tiles,
                                   .png_tiles = c->png_tiles,
                                   .png_range = c->png_range,
                                   .png_lo = c->png_lo,
                                   .png_hi = c->png_hi,
                                   .iteration = r->iterations,
                                   .interrupted = r->reason == STOP_INTERRUPTED};
    problem_spacing(p, &out->dx, &out->dy);
    snprintf(out->text, sizeof out->text, "laplace %s, %ldx%ld %s, %s, %s %ld",
             LAPLACE_VERSION, p->nx, p->ny, precision_name(p->precision),
             method_name(c->method), how, r->iterations);
}

/*
 * One --output of a run over several MPI ranks: rank 0 writes the whole-field
 * formats (it holds the merged field); a .pvti's pieces were staged by the ranks
 * that own their tiles, so every rank renames its own once all ranks have staged
 * theirs, then rank 0 writes the index. Every rank calls it for every output; a
 * failure is said by rank 0 with the first failing rank's message.
 */
static int write_shared_output(const char *path, struct output_pieces *set,
                               const struct field *field,
                               const struct output_context *context, char *err, size_t n)
{
    int root = ranks_rank() == 0;
    if (!output_has_pieces(path))
        return root ? output_write(path, field, context, err, n) : 0;
    int first = ranks_first_flagged(set->failed);
    if (first < 0) {
        int failed = output_pieces_commit(path, set, err, n) != 0;
        first = ranks_first_flagged(failed);
    } else if (set->failed) {
        snprintf(err, n, "%s", set->error);
    }
    if (first >= 0) {
        ranks_share(first, err, n);
        err[n - 1] = '\0';
        output_pieces_discard(set);
        return -1;
    }
    return root ? output_write_index(path, field, context, err, n) : 0;
}

/* Every --output: each one written if it can be, each failure a line of err. */
int run_write_outputs(const struct run_plan *plan, const struct field *field,
                      const struct solve_result *r, char *err, size_t n)
{
    const struct config *c = &plan->config;
    struct output_context context;
    char line[CONFIG_ERROR_MAX];
    int status = EXIT_OK;
    run_output_context(c, plan->ops ? &plan->partition : NULL, r, &context);
    err[0] = '\0';
    for (int i = 0; i < c->output_count; i++) {
        context.pieces = plan->ops && plan->staged[i].count ? &plan->staged[i] : NULL;
        int failed =
            c->world_size > 1
                ? write_shared_output(c->outputs[i], &plan->staged[i], field, &context,
                                      line, sizeof line) != 0
                : output_write(c->outputs[i], field, &context, line, sizeof line) != 0;
        if (failed) {
            add_line(err, n, line);
            status = EXIT_FAILURE_RUN;
        }
    }
    return status;
}

/* A snapshot_fn: every --output of the run, named NAME-ITERATION.EXT (a .pvti's
 * pieces NAME-ITERATION_T.vti, one per tile, cut from the gathered field). */
static int write_snapshot(void *context, long iteration, const struct field *field,
                          char *err, size_t n)
{
    const struct run_plan *plan = context;
    const struct config *c = &plan->config;
    struct solve_result now = {.iterations = iteration, .reason = STOP_MAX_ITER};
    struct output_context oc;
    /* the tiles, as the final output has them: a .pvti snapshot gets a piece each */
    run_output_context(c, plan->ops ? &plan->partition : NULL, &now, &oc);
    snprintf(oc.text + strlen(oc.text), sizeof oc.text - strlen(oc.text), " (snapshot)");
    for (int i = 0; i < c->output_count; i++) {
        char path[CONFIG_PATH_MAX + 32];
        if (output_snapshot_path(c->outputs[i], iteration, path, sizeof path) != 0)
            return error_set(err, n, "snapshot name of '%s' too long", c->outputs[i]);
        if (output_write(path, field, &oc, err, n) != 0)
            return -1;
    }
    return 0;
}

/* A tile_done_fn: this tile's piece of every .pvti output, by the tile's thread,
 * staged under a temporary name. A failure is kept in the set, for
 * run_write_outputs to report: it does not stop the other outputs. */
static int write_pieces(void *context, int tile, const struct partition *partition,
                        const struct field *whole, const struct solve_result *r,
                        char *err, size_t n)
{
    const struct run_plan *plan = context;
    const struct config *c = &plan->config;
    struct output_context oc;
    run_output_context(c, partition, r, &oc);
    for (int i = 0; i < c->output_count; i++) {
        oc.pieces = &plan->staged[i];
        if (output_has_pieces(c->outputs[i]))
            output_write_piece(c->outputs[i], whole, &oc, tile, err, n);
    }
    return 0;
}

/* The solver's settings for the plan, followed by the watchers. */
static struct solve_settings settings_of(const struct run_plan *plan, struct watchers *w)
{
    const struct config *c = &plan->config;
    int observed = w->has_history || w->has_progress;
    return (struct solve_settings){
        .eps = config_eps(c),
        .max_iter = config_max_iter(c),
        .check_every = c->check_every,
        /* under MPI every rank computes the monitor's norms, rank 0 alone shows them */
        .monitor_every = w->has_monitor || c->world_size > 1 ? c->monitor_every : 0,
        .monitor = w->has_monitor ? watchers_monitor : NULL,
        .monitor_context = w,
        .tile = {.block_x = c->block_x,
                 .block_y = c->block_y,
                 .use_p2p = c->use_p2p,
                 .kernel = kernel_by_name(c->kernel),
                 .reduce = c->reduce,
                 .rule = config_update_rule(c)},
        .snapshot_every = c->snapshot_every,
        .snapshot = write_snapshot,
        .snapshot_context = (void *)plan,
        .observe = observed ? watchers_observe : NULL,
        .observe_context = w,
        .observe_all = w->has_history,
        .tile_done = write_pieces,
        .tile_done_context = (void *)plan,
        .devices = c->backend == BACKEND_GPU ? plan->devices : NULL,
        .loop = c->loop,
        .ranks_x = c->ranks_x,
        .ranks_y = c->ranks_y,
    };
}

/* Why a solve that returned did not give a field to use, as main prints it. */
static void describe_failure(const struct solve_result *r, char *err, size_t n)
{
    char where[128] = ""; /* under MPI: the failing rank and its node */
    if (r->reason == STOP_FAILED && r->failed_rank >= 0)
        snprintf(where, sizeof where, "rank %d (%s): ", r->failed_rank, r->failed_node);
    if (r->reason == STOP_FAILED && r->failed_device >= 0)
        snprintf(err, n, "%sdevice %d failed: %s", where, r->failed_device, r->error);
    else if (r->reason == STOP_FAILED)
        snprintf(err, n, "%s%s", where, r->error);
    else
        snprintf(err, n,
                 "diverged at iteration %ld: the norm is %g (not finite, or 1e8 times "
                 "its first value)",
                 r->iterations, r->final_norm);
}

static int solve(const struct run_plan *plan, const struct solve_settings *s,
                 struct field *field, struct solve_result *result)
{
    if (!plan->ops)
        return reference_solve(&plan->config.problem, NULL, s, field, result);
    return solver_run(plan->ops, &plan->config.problem, &plan->partition, s, field,
                      result);
}

/* --exact: the solved field's error against the known solution, for the report. */
static int measure_exact(const struct run_plan *plan, struct field *field,
                         struct run_report *report, char *err, size_t n)
{
    const struct config *c = &plan->config;
    if (!c->exact[0])
        return EXIT_OK;
    if (exact_error(&c->problem, c->exact, field, &report->exact, err, n) != 0) {
        field_free(field);
        return EXIT_FAILURE_RUN;
    }
    report->has_exact = 1;
    return EXIT_OK;
}

int run_execute(const struct run_plan *plan, struct field *field,
                struct run_report *report, char *err, size_t n)
{
    struct watchers w;
    double start = omp_get_wtime();
    *field = (struct field){0};
    *report = (struct run_report){.config = &plan->config,
                                  .backend = backend_name(plan->config.backend),
                                  .devices = plan->device_list,
                                  .device_names = plan->device_names,
                                  .result.failed_device = -1};
    int status = watchers_start(&w, &plan->config, plan->label, err, n) == 0
                     ? EXIT_OK
                     : EXIT_FAILURE_RUN;
    if (plan->config.world_size > 1) /* rank 0's history: every rank or none solves */
        status = ranks_agree_status(status, err, n);
    if (status != EXIT_OK) {
        char unused[8];
        watchers_stop(&w, 0, unused, sizeof unused); /* what started, if anything */
        return status;
    }
    host_tiles_over_cores(plan);
    struct solve_settings s = settings_of(plan, &w);
    struct solve_result *r = &report->result;
    int solved = solve(plan, &s, field, r) == 0;
    char history_error[CONFIG_ERROR_MAX];
    int kept = watchers_stop(&w, solved, history_error, sizeof history_error) == 0;
    report->time_total_s = omp_get_wtime() - start;
    if (!solved || r->reason == STOP_DIVERGED) {
        describe_failure(r, err, n);
        field_free(field);
        return EXIT_FAILURE_RUN;
    }
    if (!kept) { /* only the history failed: the field is kept for the outputs */
        snprintf(err, n, "%s", history_error);
        return EXIT_FAILURE_RUN;
    }
    return measure_exact(plan, field, report, err, n);
}

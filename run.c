/*
 * run.c - the one path from a plan to a result (run.h): the solve on it with its
 * watchers, the outputs and the report's facts. Used by main's run, both
 * comparisons and the bench.
 */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>
#include <unistd.h>

#include "support/error.h"
#include "outputs/csv_append.h"
#include "outputs/output_paths.h"
#include "outputs/part_output.h"
#include "support/threads.h"
#include "laplace_kernels.h"
#include "mpi/binding.h"
#include "mpi/part_exact.h"
#include "mpi/rank_part.h"
#include "mpi/ranks.h"
#include "reference.h"
#include "solver.h"
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
 * Says so once on stderr, to a script's log as to a terminal (a slow run should
 * say why wherever it is read; -q silences it), unless binding_check says it
 * with its hint (an affinity narrower than the machine) or ranks run (binding.c
 * speaks for them); the user's own OMP_WAIT_POLICY or GOMP_SPINCOUNT wins.
 * Tiles beyond what OpenMP gives fail in solver_run instead, with their reason. */
static void host_tiles_over_cores(const struct plan *plan)
{
    static int said;
    const char *limited_by;
    int tiles = partition_count(&plan->partition) / plan->config.world_size,
        cores = omp_get_num_procs();
    if (plan->config.backend != BACKEND_CPU || tiles <= cores ||
        tiles > threads_limit(&limited_by))
        return;
    int mine = !getenv("OMP_WAIT_POLICY") && !getenv("GOMP_SPINCOUNT") &&
               &gomp_throttled_spin_count_var;
    if (mine)
        gomp_throttled_spin_count_var = 0;
    int by_places, bound = binding_crowded(tiles, 0, binding_cores(&by_places),
                                           (int)sysconf(_SC_NPROCESSORS_ONLN));
    if (!said++ && !plan->config.quiet && plan->config.world_size <= 1 && !bound)
        fprintf(stderr,
                "laplace: warning: %d host tiles on %d cores take turns (%s); "
                "--partition auto fits the cores\n",
                tiles, cores, mine ? "waits made passive" : "waits as OpenMP was told");
}

/* The files a run writes: the history, the CSV appended to, each --output, each
 * .pvti's pieces; each also as one name for its file (output_paths.h). */
struct run_file {
    char path[OUTPUT_PATH_MAX];
    char resolved[OUTPUT_PATH_MAX];
    const char *option; /* "--history", "--csv-append", "--output", or a piece's .pvti */
};

/* Adds path to files[*k] under option. */
static void add_file(struct run_file *files, int *k, const char *path, const char *option)
{
    struct run_file *f = &files[(*k)++];
    snprintf(f->path, sizeof f->path, "%s", path);
    output_paths_resolve(path, strcmp(option, "--csv-append") == 0, f->resolved,
                         sizeof f->resolved);
    f->option = option;
}

/* Every file of the plan in files (calloc'd, *count of them); NULL: no memory. */
static struct run_file *files_of(const struct plan *plan, int *count)
{
    const struct config *c = &plan->config;
    int tiles = plan->ops ? partition_count(&plan->partition) : 1, k = 0;
    char piece[OUTPUT_PATH_MAX];
    struct run_file *files =
        calloc((size_t)(2 + c->output_count * (tiles + 1)), sizeof *files);
    if (files && c->history[0])
        add_file(files, &k, c->history, "--history");
    if (files && c->csv_append[0])
        add_file(files, &k, c->csv_append, "--csv-append");
    for (int i = 0; files && i < c->output_count; i++) {
        add_file(files, &k, c->outputs[i], "--output");
        for (int t = 0; output_has_pieces(c->outputs[i]) && t < tiles; t++)
            if (output_piece_path(c->outputs[i], t, piece, sizeof piece) == 0)
                add_file(files, &k, piece, c->outputs[i]);
    }
    *count = k;
    return files;
}

/* a and b, two names of one file: EXIT_BAD_USAGE naming both. (Pieces of two
 * different .pvti cannot share a name: their stems differ.) */
static int same_file(const struct run_file *a, const struct run_file *b, char *err,
                     size_t n)
{
    if (a->option[0] != '-') /* b is an option on a's piece */
        return error_status(EXIT_BAD_USAGE, err, n,
                            "%s '%s': it is a piece of --output '%s'", b->option, b->path,
                            a->option);
    if (b->option[0] != '-')
        return error_status(EXIT_BAD_USAGE, err, n,
                            "%s '%s': it is a piece of --output '%s'", a->option, a->path,
                            b->option);
    return error_status(EXIT_BAD_USAGE, err, n, "%s '%s': the same file as %s '%s'",
                        b->option, b->path, a->option, a->path);
}

/* file would be overwritten by a snapshot of output (--snapshot-every). */
static int snapshot_on(const struct run_file *file, const struct run_file *output,
                       long every, char *err, size_t n)
{
    if (file == output || strcmp(output->option, "--output") != 0 ||
        !output_paths_is_snapshot(file->resolved, output->resolved, every))
        return EXIT_OK;
    return error_status(EXIT_BAD_USAGE, err, n,
                        "%s '%s': a snapshot of --output '%s' (--snapshot-every %ld) "
                        "takes that name",
                        file->option, file->path, output->path, every);
}

/* Two of the files on one file: EXIT_BAD_USAGE, one line naming both. */
static int check_distinct(const struct run_file *files, int count, long snapshot_every,
                          char *err, size_t n)
{
    for (int i = 0; i < count; i++)
        for (int j = 0; j < count; j++) {
            const struct run_file *a = &files[i], *b = &files[j];
            int status = snapshot_on(b, a, snapshot_every, err, n);
            if (status != EXIT_OK)
                return status;
            if (j > i && (a->option[0] == '-' || b->option[0] == '-') &&
                strcmp(a->resolved, b->resolved) == 0)
                return same_file(a, b, err, n);
        }
    return EXIT_OK;
}

/* Appends line to err (n bytes) after a newline if err holds one already. */
static void add_line(char *err, size_t n, const char *line)
{
    size_t used = strlen(err);
    snprintf(err + used, n - used, "%s%s", used ? "\n" : "", line);
}

/* The report's CSV header, or a row of r (r NULL: the header), as text (malloc'd;
 * NULL: no memory). */
static char *csv_text(const struct run_report *r)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    if (r)
        report_csv_row(f, r);
    else
        report_csv_header(f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int run_csv_append(const char *path, const struct run_report *r, char *err, size_t n)
{
    char *header = csv_text(NULL), *row = r ? csv_text(r) : NULL;
    int rc = !header || (r && !row)
                 ? error_set(err, n, "cannot append to %s: out of memory", path)
             : r ? csv_append_row(path, header, row, err, n)
                 : csv_append_check(path, header, err, n);
    free(header);
    free(row);
    return rc;
}

/* Each file the plan writes (and its snapshots' names) can be written: one line
 * of err each that cannot. */
static int check_each(const struct plan *plan, const struct run_file *files, int count,
                      char *err, size_t n)
{
    char line[CONFIG_ERROR_MAX], snapshot[OUTPUT_PATH_MAX];
    int status = EXIT_OK;
    for (int i = 0; i < count; i++) {
        const struct run_file *f = &files[i];
        int failed = strcmp(f->option, "--csv-append") == 0
                         ? run_csv_append(f->path, NULL, line, sizeof line) != 0
                     : strcmp(f->option, "--output") == 0
                         ? output_check_writable(f->path, line, sizeof line) != 0
                         : output_check_file(f->path, line, sizeof line) != 0;
        if (!failed && strcmp(f->option, "--output") == 0 &&
            plan->config.snapshot_every > 0 &&
            (output_snapshot_path(f->path, plan->max_iter, snapshot, sizeof snapshot) ||
             output_paths_check_name(snapshot, line, sizeof line)))
            failed = 1; /* the longest snapshot name */
        if (failed) {
            add_line(err, n, line);
            status = EXIT_FAILURE_RUN;
        }
    }
    return status;
}

int run_check_outputs(const struct plan *plan, char *err, size_t n)
{
    int count, status;
    struct run_file *files = files_of(plan, &count);
    if (!files)
        return error_status(EXIT_FAILURE_RUN, err, n, "out of host memory");
    err[0] = '\0';
    status = check_distinct(files, count, plan->config.snapshot_every, err, n);
    if (status == EXIT_OK)
        status = check_each(plan, files, count, err, n);
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
 * Whether a run over several MPI ranks needs the whole field on every rank after
 * the solve: for an output not written from parts (none now: part_output.h;
 * snapshots and --exact are written and measured from the parts, the comparisons
 * compared with them: part_compare.h). Otherwise each rank keeps its part alone
 * (rank_part.h).
 */
static int run_needs_whole(const struct plan *plan)
{
    const struct config *c = &plan->config;
    if (c->world_size <= 1)
        return 0;
    for (int i = 0; i < c->output_count; i++)
        if (!part_output_can_write(c->outputs[i]) && !output_has_pieces(c->outputs[i]))
            return 1;
    return 0;
}

/* A snapshot's .pvti under MPI, whose pieces no tile's thread staged: this rank's
 * tiles' pieces staged in set (made here) from its part. A failure is kept in the
 * set, as output_write_piece keeps it, for the ranks to agree on. */
static void stage_own_pieces(const struct plan *plan, const char *path,
                             const struct field *part, const struct output_context *c,
                             struct output_pieces *set)
{
    const struct config *config = &plan->config;
    int tiles = partition_count(&plan->partition);
    struct output_context own = *c;
    char err[sizeof set->error];
    if (output_pieces_init(set, tiles) != 0) {
        set->failed = 1;
        snprintf(set->error, sizeof set->error,
                 "rank %d: cannot write '%s': out of memory", ranks_rank(), path);
        return;
    }
    own.pieces = set;
    for (int t = 0; t < tiles && !set->failed; t++)
        if (partition_rank_of(&plan->partition, config->ranks_x, config->ranks_y, t) ==
            ranks_rank())
            output_write_piece(path, part, &own, t, err, sizeof err);
}

/* A status of rank 0's alone (the file it writes alone) made every rank's: 0, or -1
 * on every rank with rank 0's message, so that all go on to the same next step. */
static int agree_root(int rc, char *err, size_t n)
{
    int status = ranks_agree_status(rc ? EXIT_FAILURE_RUN : EXIT_OK, err, n);
    return status == EXIT_OK ? 0 : -1;
}

/* A .pvti under MPI: every rank renames its own tiles' staged pieces once all ranks
 * have staged theirs, then rank 0 writes the index; a failure discards the set. */
static int write_shared_pvti(const char *path, struct output_pieces *set,
                             const struct field *field,
                             const struct output_context *context, char *err, size_t n)
{
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
    int rc = ranks_rank() == 0 ? output_write_index(path, field, context, err, n) : 0;
    return agree_root(rc, err, n);
}

/*
 * One --output of a run over several MPI ranks: .bin .npy .vti .dat .png by every
 * rank from its part (part_output.h); a .pvti's pieces by the ranks that own their
 * tiles: the final output's staged already by the tiles' threads (context->pieces),
 * a snapshot's staged here. Every rank calls it for every output; a failure is said
 * by rank 0 with the first failing rank's message.
 */
static int write_shared_output(const struct plan *plan, const char *path,
                               const struct field *field,
                               const struct output_context *context, char *err, size_t n)
{
    const struct config *c = &plan->config;
    if (part_output_can_write(path)) {
        struct rank_part rp;
        rank_part_make(&rp, &plan->partition, c->ranks_x, c->ranks_y, ranks_rank());
        return part_output_write(path, field, &rp, c->problem.nx, c->problem.ny, context,
                                 err, n);
    }
    if (!output_has_pieces(path)) {
        int rc = ranks_rank() == 0 ? output_write(path, field, context, err, n) : 0;
        return agree_root(rc, err, n);
    }
    if (context->pieces)
        return write_shared_pvti(path, context->pieces, field, context, err, n);
    struct output_pieces own = {0};
    stage_own_pieces(plan, path, field, context, &own);
    int rc = write_shared_pvti(path, &own, field, context, err, n);
    output_pieces_discard(&own);
    return rc;
}

/* One --output, as the final outputs and the snapshots both write it: the whole
 * field with one process; under MPI every rank from its part (every rank calls it). */
static int write_output(const struct plan *plan, const char *path,
                        const struct field *field, const struct output_context *context,
                        char *err, size_t n)
{
    if (plan->config.world_size > 1)
        return write_shared_output(plan, path, field, context, err, n);
    return output_write(path, field, context, err, n);
}

/* Every --output: each one written if it can be, each failure a line of err. */
int run_write_outputs(const struct plan *plan, const struct field *field,
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
        if (write_output(plan, c->outputs[i], field, &context, line, sizeof line) != 0) {
            add_line(err, n, line);
            status = EXIT_FAILURE_RUN;
        }
    }
    return status;
}

/* A snapshot_fn: every --output of the run, named NAME-ITERATION.EXT (a .pvti's
 * pieces NAME-ITERATION_T.vti, one per tile), written as the final outputs are
 * (write_output): under MPI every rank calls it with its part. */
static int write_snapshot(void *context, long iteration, const struct field *field,
                          char *err, size_t n)
{
    const struct plan *plan = context;
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
        if (write_output(plan, path, field, &oc, err, n) != 0)
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
    const struct plan *plan = context;
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
static struct solve_settings settings_of(const struct plan *plan, struct watchers *w)
{
    const struct config *c = &plan->config;
    int observed = w->has_history || w->has_progress;
    return (struct solve_settings){
        .eps = plan->eps,
        .max_iter = plan->max_iter,
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
                 .loop = c->loop,
                 .rule = plan->rule},
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
        .keep_part = !run_needs_whole(plan),
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

static int solve(const struct plan *plan, const struct solve_settings *s,
                 struct field *field, struct solve_result *result)
{
    if (!plan->ops)
        return reference_solve(&plan->config.problem, NULL, s, field, result);
    return solver_run(plan->ops, &plan->config.problem, &plan->partition, s, field,
                      result);
}

/* --exact: the solved field's error against the known solution, for the report;
 * under MPI every rank measures its part and the ranks reduce the numbers to one
 * process's (part_exact.h), every rank calling it. */
static int measure_exact(const struct plan *plan, struct field *field,
                         struct run_report *report, char *err, size_t n)
{
    const struct config *c = &plan->config;
    int rc;
    if (!c->exact[0])
        return EXIT_OK;
    if (c->world_size > 1) {
        struct rank_part rp;
        rank_part_make(&rp, &plan->partition, c->ranks_x, c->ranks_y, ranks_rank());
        rc = part_exact_error(&c->problem, c->exact, field, &rp, &report->exact, err, n);
    } else {
        rc = exact_error(&c->problem, c->exact, field, &report->exact, err, n);
    }
    if (rc != 0) {
        field_free(field);
        return EXIT_FAILURE_RUN;
    }
    report->has_exact = 1;
    return EXIT_OK;
}

int run_execute(const struct plan *plan, struct field *field, struct run_report *report,
                char *err, size_t n)
{
    struct watchers w;
    double start = omp_get_wtime();
    *field = (struct field){0};
    *report = (struct run_report){.plan = plan,
                                  .backend = backend_name(plan->config.backend),
                                  .devices = plan->device_list,
                                  .device_names = plan->device_names,
                                  .result.failed_device = -1};
    int status = watchers_start(&w, plan, err, n) == 0 ? EXIT_OK : EXIT_FAILURE_RUN;
    if (plan->config.world_size > 1) /* rank 0's history: every rank or none solves */
        status = ranks_agree_status(status, err, n);
    if (status != EXIT_OK) {
        char unused[8];
        watchers_stop(&w, 0, unused, sizeof unused); /* what started, if anything */
        return status;
    }
    host_tiles_over_cores(plan);
    if (plan->ops) /* not the serial reference: one thread a tile (binding.h) */
        binding_check(partition_count(&plan->partition) / plan->config.world_size,
                      plan->config.backend == BACKEND_GPU, plan->config.world_size > 1);
    struct solve_settings s = settings_of(plan, &w);
    struct solve_result *r = &report->result;
    int solved = solve(plan, &s, field, r) == 0;
    if (!solved)
        r->reason = STOP_FAILED;
    report->stopped = 1;
    char history_error[CONFIG_ERROR_MAX];
    int kept = watchers_stop(&w, solved, history_error, sizeof history_error) == 0;
    report->time_total_s = omp_get_wtime() - start;
    if (!solved || r->reason == STOP_DIVERGED) {
        describe_failure(r, err, n);
        field_free(field);
        return EXIT_FAILURE_RUN;
    }
    /* every rank measures, before the history's verdict (rank 0's alone) */
    if (measure_exact(plan, field, report, err, n) != EXIT_OK)
        return EXIT_FAILURE_RUN;
    if (!kept) { /* only the history failed: the field is kept for the outputs */
        snprintf(err, n, "%s", history_error);
        return EXIT_FAILURE_RUN;
    }
    return EXIT_OK;
}

/* The configuration of a warm-up: the plan's problem and layout, iterations
 * iterations and no tolerance, nothing written, watched or compared. */
static struct config warm_up_config(const struct config *c, long iterations)
{
    struct config w = *c;
    w.eps = 0.0, w.steps = 0, w.max_iter = iterations, w.check_every = 1;
    w.output_count = 0, w.snapshot_every = 0, w.monitor_every = 0;
    w.history[0] = w.csv_append[0] = w.exact[0] = '\0';
    w.csv = w.compare = w.compare_cpu = w.dry_run = w.error_if_not_converged = 0;
    w.quiet = 1;
    return w;
}

int run_time_per_iteration(const struct plan *plan, double *seconds, long *iterations)
{
    const struct config *c = &plan->config;
    long sites = problem_interior_sites(&c->problem);
    long k = sites > 0 ? 20000000L / sites : 1000;
    k = k < 5 ? 5 : k > 1000 ? 1000 : k;
    if (c->world_size > 1 || (long)c->problem.nx * c->problem.ny > RUN_WARM_UP_SITES_MAX)
        return -1;
    struct config w = warm_up_config(c, k);
    struct plan warm;
    struct field field;
    struct run_report report;
    char err[CONFIG_ERROR_MAX];
    if (plan_make(&w, &warm, err, sizeof err) != EXIT_OK)
        return -1;
    int status = run_execute(&warm, &field, &report, err, sizeof err);
    plan_free(&warm);
    if (status != EXIT_OK)
        return -1;
    field_free(&field);
    if (report.result.iterations <= 0)
        return -1;
    *iterations = report.result.iterations;
    *seconds = report.result.time_compute_s / (double)report.result.iterations;
    return 0;
}

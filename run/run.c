/*
 * run.c - the one path from a plan to a result (run.h): the solve on it with its
 * watchers (the snapshots and pieces written through run_outputs.h), --exact
 * measured, and the report's facts. Used by main's run, both comparisons and the
 * bench; --dry-run's warm-up runs through it too.
 */
#include "run/run.h"
#include "run/run_files.h"
#include "run/run_outputs.h"
#include "plan/memory_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>
#include <unistd.h>

#include "support/error.h"
#include "support/interrupt.h"
#include "support/threads.h"
#include "support/waits.h"
#include "laplace_kernels.h"
#include "mpi/binding.h"
#include "mpi/part_exact.h"
#include "mpi/rank_part.h"
#include "mpi/ranks.h"
#include "solve/reference.h"
#include "solver.h"
#include "watch/watchers.h"

/* More host tiles than cores (a rank's: its share of the node's, as the ranks on
 * one node take turns on them too): the threads take turns, so a thread waiting at
 * a barrier must give its core away at once (a passive wait, waits.h: every host
 * tile's wait is so unless the user chose) rather than spin.
 * Says so once on stderr (rank 0), to a script's log as to a terminal (a slow run
 * should say why wherever it is read; -q silences it), unless binding_check says
 * it with its hint (an affinity narrower than the machine); the user's own
 * OMP_WAIT_POLICY or GOMP_SPINCOUNT wins (and ranks whose user chose how their
 * threads wait, as the tests do, are not told).
 * Tiles beyond what OpenMP gives fail in solver_run instead, with their reason. */
static void host_tiles_over_cores(const struct plan *plan)
{
    static int said;
    const char *limited_by;
    int ranks = plan->config.world_size > 1, /* else one process: every core */
        tiles = partition_count(&plan->partition) / plan->config.world_size,
        cores = ranks ? binding_rank_cores() : omp_get_num_procs();
    if (plan->config.backend != BACKEND_CPU || tiles <= cores ||
        tiles > threads_limit(&limited_by))
        return;
    int mine = waits_way() == WAITS_SHORT; /* run_execute set the waits */
    int by_places, bound = binding_crowded(tiles, 0, binding_cores(&by_places),
                                           ranks ? binding_node_share()
                                                 : (int)sysconf(_SC_NPROCESSORS_ONLN));
    if (!said++ && !plan->config.quiet && ranks_rank() == 0 && !bound && (!ranks || mine))
        fprintf(stderr,
                "laplace: warning: %d host tiles%s on %d cores take turns (%s); "
                "--partition auto fits the cores\n",
                tiles, ranks ? " a rank" : "", cores,
                mine ? "waits made passive" : "waits as OpenMP was told");
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
                 .update_rule = plan->update_rule,
                 .tune = c->tune},
        .snapshot_every = c->snapshot_every,
        .snapshot = run_outputs_snapshot,
        .snapshot_context = (void *)plan,
        .observe = observed ? watchers_observe : NULL,
        .observe_context = w,
        .observe_all = w->has_history,
        .tile_done = run_outputs_piece,
        .tile_done_context = (void *)plan,
        .devices = c->backend == BACKEND_GPU ? plan->devices : NULL,
        .loop = c->loop,
        .ranks_x = c->ranks_x,
        .ranks_y = c->ranks_y,
    };
}

int run_plan(const struct config *c, struct plan *plan, char *err, size_t n)
{
    int status = plan_make(c, plan, err, n), made = status == EXIT_OK;
    if (made) /* each rank its own part's sites */
        status = plan_check_source(&plan->config, &plan->partition, err, n);
    status = ranks_agree_status(status, err, n);
    if (status == EXIT_OK) /* --csv-append's file among them */
        status = run_files_check(plan, err, n);
    if (status == EXIT_OK)
        status = memory_check(plan, err, n);
    status = ranks_agree_status(status, err, n); /* any rank's refusal: all */
    if (status != EXIT_OK && made)
        plan_free(plan);
    return status;
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
    waits_for(plan->ops && plan->config.backend == BACKEND_CPU);
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

int run_loop_plan(const struct plan *plan, struct loop_plan *out, char *err, size_t n)
{
    struct watchers w;
    struct field field;
    struct solve_result result = {.failed_device = -1};
    watchers_choose(&w, &plan->config);
    struct solve_settings s = settings_of(plan, &w);
    s.plan_only = 1;
    if (solver_run(plan->ops, &plan->config.problem, &plan->partition, &s, &field,
                   &result) != 0) {
        describe_failure(&result, err, n);
        return EXIT_FAILURE_RUN;
    }
    *out = result.plan;
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

/* One warm-up of k iterations of the plan: its compute time in *seconds; -1 when it
 * failed or ran none. */
static int warm_up(const struct plan *plan, long k, double *seconds, long *ran)
{
    struct config w = warm_up_config(&plan->config, k);
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
    *ran = report.result.iterations;
    *seconds = report.result.time_compute_s;
    return 0;
}

int run_time_per_iteration(const struct plan *plan, long most, struct run_warm_up *out)
{
    const struct config *c = &plan->config;
    long sites = problem_interior_sites(&c->problem);
    long k = sites > 0 ? 2000000L / sites : 100;
    double seconds = 0.0, spent = 0.0;
    long ran = 0;
    if (c->world_size > 1 || (long)c->problem.nx * c->problem.ny > RUN_WARM_UP_SITES_MAX)
        return -1;
    k = k < 5 ? 5 : k;
    /* longer each time (x4) until one lasts RUN_WARM_UP_S: the threads' start, the
     * first touch of the fields and a busy machine's moments are then a small part */
    for (;;) {
        k = most > 0 && k > most ? most : k;
        if (warm_up(plan, k, &seconds, &ran) != 0 || interrupt_requested())
            return -1; /* a signal: the run it was for stops at once */
        spent += seconds;
        if (seconds >= RUN_WARM_UP_S || ran >= most || spent >= RUN_WARM_UP_MOST_S)
            break;
        k = seconds > 0.0 && RUN_WARM_UP_S / seconds < 4.0
                ? (long)((double)k * 1.2 * RUN_WARM_UP_S / seconds) + 1
                : 4 * k;
    }
    *out = (struct run_warm_up){.per_iteration = seconds / (double)ran,
                                .iterations = ran,
                                .seconds = seconds,
                                .spent = spent};
    return 0;
}

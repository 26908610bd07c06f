/*
 * main.c - laplace: options and config -> the requested solver -> report and
 * outputs. Each phase is one call; main reads as the table of contents.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <omp.h>

#include "bench.h"
#include "config.h"
#include "fault.h"
#include "history.h"
#include "interrupt.h"
#include "memory_check.h"
#include "output.h"
#include "p2p.h"
#include "progress.h"
#include "report.h"
#include "run.h"

static int usage_error(const char *message)
{
    fprintf(stderr, "laplace: %s\n", message);
    return EXIT_BAD_USAGE;
}

static int run_error(const char *message)
{
    fprintf(stderr, "laplace: %s\n", message);
    return EXIT_FAILURE_RUN;
}

static void print_version(void)
{
    char cuda[128];
    p2p_runtime_version(cuda, sizeof cuda);
    printf("laplace %s (%s)\n", LAPLACE_VERSION, cuda);
}

static int check_outputs(const struct config *c, char *err, size_t n)
{
    for (int i = 0; i < c->output_count; i++)
        if (output_check_writable(c->outputs[i], err, n) != 0)
            return EXIT_FAILURE_RUN;
    return EXIT_OK;
}

/* Every --output; the tiles' threads have written the .pvti pieces already. */
static int write_outputs(const struct config *c, const struct run_plan *plan,
                         const struct field *field, const struct solve_result *r,
                         char *err, size_t n)
{
    struct partition tiles;
    struct output_context context;
    if (partition_init(&tiles, c->problem.nx, c->problem.ny, c->partition_x,
                       c->partition_y) != 0)
        return snprintf(err, n, "out of host memory"), EXIT_FAILURE_RUN;
    run_output_context(c, plan->ops ? &tiles : NULL, r, &context);
    context.pieces_written = plan->ops != NULL;
    int status = EXIT_OK;
    for (int i = 0; i < c->output_count && status == EXIT_OK; i++)
        if (output_write(c->outputs[i], field, &context, err, n) != 0)
            status = EXIT_FAILURE_RUN;
    partition_free(&tiles);
    return status;
}

/* What follows the run as it goes: --history and the live progress line. */
struct watchers {
    struct history history;
    struct progress progress;
    int has_history, has_progress;
};

static void observe(void *context, long iteration, double norm, double elapsed_s)
{
    struct watchers *w = context;
    if (w->has_history)
        history_add(&w->history, iteration, norm, elapsed_s);
    if (w->has_progress)
        progress_add(&w->progress, iteration, norm, elapsed_s);
}

/* The live line only on a terminal, and only when no plain monitor, CSV or quiet. */
static int start_watchers(const struct config *c, struct watchers *w,
                          struct run_plan *plan, char *err, size_t n)
{
    memset(w, 0, sizeof *w);
    if (c->history[0] && history_open(&w->history, c->history, err, n) != 0)
        return EXIT_FAILURE_RUN;
    w->has_history = c->history[0] != 0;
    w->has_progress =
        !c->csv && !c->quiet && c->monitor_every == 0 && isatty(STDOUT_FILENO);
    if (w->has_progress)
        progress_start(&w->progress, stdout, config_eps(c));
    if (w->has_history || w->has_progress) {
        plan->observe = observe;
        plan->observe_context = w;
        plan->observe_all = w->has_history;
    }
    return EXIT_OK;
}

/* The progress line cleared, the history given its name (or removed on failure). */
static int stop_watchers(struct watchers *w, int keep, char *err, size_t n)
{
    if (w->has_progress)
        progress_end(&w->progress);
    if (w->has_history && !keep)
        history_abandon(&w->history);
    if (w->has_history && keep && history_close(&w->history, err, n) != 0)
        return EXIT_FAILURE_RUN;
    return EXIT_OK;
}

static int solve_failed(const struct solve_result *r)
{
    if (r->reason == STOP_FAILED && r->failed_device >= 0)
        fprintf(stderr, "laplace: device %d failed: %s\n", r->failed_device, r->error);
    else if (r->reason == STOP_FAILED)
        fprintf(stderr, "laplace: %s\n", r->error);
    else
        fprintf(stderr,
                "laplace: diverged at iteration %ld: the norm is %g (not finite, or "
                "1e8 times its first value)\n",
                r->iterations, r->final_norm);
    return EXIT_FAILURE_RUN;
}

static void print_report(const struct config *c, const struct run_report *r)
{
    if (c->quiet)
        return;
    if (c->csv) {
        report_csv_header(stdout);
        report_csv_row(stdout, r);
    } else {
        report_print(stdout, r);
    }
}

/* --compare: the same problem on one device of the same backend. */
static int compare_with_one_device(const struct config *c, const struct run_plan *plan,
                                   const struct run_report *many,
                                   const struct field *field)
{
    struct run_report one = *many;
    struct run_plan unwatched =
        *plan; /* the history and progress line follow the main run */
    struct field one_field;
    struct config alone = *c;
    alone.monitor_every = 0;  /* the monitor followed the main run */
    alone.snapshot_every = 0; /* and the snapshots were written by it */
    unwatched.observe = NULL;
    if (run_solve(&alone, &unwatched, 1, 1, &one_field, &one.result) != 0)
        return solve_failed(&one.result);
    one.time_total_s =
        one.result.time_input_s + one.result.time_compute_s + one.result.time_output_s;
    double difference = field_max_difference(field, &one_field);
    if (c->csv && !c->quiet) {
        struct config single = *c;
        single.partition_x = single.partition_y = 1;
        one.config = &single;
        report_csv_row(stdout, &one);
    } else if (!c->quiet) {
        report_comparison(stdout, many, &one, difference);
    }
    field_free(&one_field);
    return EXIT_OK;
}

/* --compare-cpu: the same problem on the host tiles, every core. */
static int compare_with_cpu(const struct config *c, const struct run_report *run,
                            const struct field *field)
{
    struct config host = *c;
    struct run_plan plan;
    struct run_report cpu = *run;
    struct field cpu_field;
    char err[CONFIG_ERROR_MAX];
    host.backend = BACKEND_CPU;
    host.partition_x = host.partition_y = 0; /* auto: every core */
    host.monitor_every = 0;                  /* the monitor followed the main run */
    host.snapshot_every = 0;                 /* and so did the snapshots */
    run_resolve_auto(&host);
    if (run_make_plan(&host, &plan, err, sizeof err) != EXIT_OK)
        return run_error(err);
    if (run_solve(&host, &plan, host.partition_x, host.partition_y, &cpu_field,
                  &cpu.result))
        return solve_failed(&cpu.result);
    cpu.config = &host;
    cpu.backend = backend_name(BACKEND_CPU);
    cpu.devices = plan.device_list;
    cpu.time_total_s =
        cpu.result.time_input_s + cpu.result.time_compute_s + cpu.result.time_output_s;
    if (c->csv && !c->quiet)
        report_csv_row(stdout, &cpu);
    else if (!c->quiet)
        report_cpu_comparison(stdout, run, &cpu, host.partition_x * host.partition_y,
                              field_max_difference(field, &cpu_field));
    field_free(&cpu_field);
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    struct config config;
    struct run_plan plan;
    struct field field = {0};
    char err[CONFIG_ERROR_MAX];
    double start = omp_get_wtime();

    config_defaults(&config);
    if (config_from_args(&config, argc, argv, err, sizeof err) != 0)
        return usage_error(err);
    if (config.show_help)
        return config_print_help(argv[0]), EXIT_OK;
    if (config.show_version)
        return print_version(), EXIT_OK;
    if (config.show_topology)
        return p2p_print_topology(stdout, err, sizeof err) ? run_error(err) : EXIT_OK;
    if (config.bench)
        return bench_run(&config);
    run_resolve_auto(&config);
    if (config_validate(&config, err, sizeof err) != 0 ||
        fault_check_variable(err, sizeof err) != 0)
        return usage_error(err);

    int status = run_make_plan(&config, &plan, err, sizeof err);
    if (status == EXIT_OK)
        status = check_outputs(&config, err, sizeof err);
    if (status == EXIT_OK && memory_check(&config, &plan, err, sizeof err) != 0)
        status = EXIT_FAILURE_RUN;
    if (status != EXIT_OK)
        return status == EXIT_BAD_USAGE ? usage_error(err) : run_error(err);

    struct watchers watchers;
    if (start_watchers(&config, &watchers, &plan, err, sizeof err) != EXIT_OK)
        return run_error(err);
    interrupt_install();
    struct run_report report = {.config = &config,
                                .backend = backend_name(config.backend),
                                .devices = plan.device_list,
                                .device_names = plan.device_names};
    int solved = run_solve(&config, &plan, config.partition_x, config.partition_y, &field,
                           &report.result) == 0;
    status = stop_watchers(&watchers, solved, err, sizeof err);
    if (!solved || report.result.reason == STOP_DIVERGED) {
        field_free(&field);
        return solve_failed(&report.result);
    }
    if (status == EXIT_OK)
        status = write_outputs(&config, &plan, &field, &report.result, err, sizeof err);
    report.time_total_s = omp_get_wtime() - start;
    if (status == EXIT_OK)
        print_report(&config, &report);
    else
        run_error(err);
    if (status == EXIT_OK && report.result.reason == STOP_INTERRUPTED)
        return field_free(&field), interrupt_exit_status();
    if (status == EXIT_OK && config.compare)
        status = compare_with_one_device(&config, &plan, &report, &field);
    if (status == EXIT_OK && config.compare_cpu)
        status = compare_with_cpu(&config, &report, &field);
    field_free(&field);
    return status;
}

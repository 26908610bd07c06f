/*
 * main.c - laplace: options and config -> the requested solver -> report and
 * outputs. Each phase is one call; main reads as the table of contents.
 */
#include <stdio.h>
#include <string.h>

#include <omp.h>

#include "bench.h"
#include "config.h"
#include "output.h"
#include "p2p.h"
#include "report.h"
#include "run.h"

#define LAPLACE_VERSION "0.1.0"

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

static int write_outputs(const struct config *c, const struct field *field, char *err,
                         size_t n)
{
    for (int i = 0; i < c->output_count; i++)
        if (output_write(c->outputs[i], field, err, n) != 0)
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
    struct field one_field;
    struct config alone = *c;
    alone.monitor_every = 0;  /* the monitor followed the main run */
    alone.snapshot_every = 0; /* and the snapshots were written by it */
    if (run_solve(&alone, plan, 1, 1, &one_field, &one.result) != 0)
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
    if (config_validate(&config, err, sizeof err) != 0)
        return usage_error(err);

    int status = run_make_plan(&config, &plan, err, sizeof err);
    if (status == EXIT_OK)
        status = check_outputs(&config, err, sizeof err);
    if (status != EXIT_OK)
        return status == EXIT_BAD_USAGE ? usage_error(err) : run_error(err);

    struct run_report report = {.config = &config,
                                .backend = backend_name(config.backend),
                                .devices = plan.device_list,
                                .device_names = plan.device_names};
    if (run_solve(&config, &plan, config.partition_x, config.partition_y, &field,
                  &report.result) != 0 ||
        report.result.reason == STOP_DIVERGED) {
        field_free(&field);
        return solve_failed(&report.result);
    }
    status = write_outputs(&config, &field, err, sizeof err);
    report.time_total_s = omp_get_wtime() - start;
    if (status == EXIT_OK)
        print_report(&config, &report);
    else
        run_error(err);
    if (status == EXIT_OK && config.compare)
        status = compare_with_one_device(&config, &plan, &report, &field);
    if (status == EXIT_OK && config.compare_cpu)
        status = compare_with_cpu(&config, &report, &field);
    field_free(&field);
    return status;
}

/*
 * main.c - laplace: options and config -> the requested solver -> report and
 * outputs. Each phase is one call; main reads as the table of contents.
 */
#include <stdio.h>
#include <string.h>

#include <omp.h>

#include "config.h"
#include "gpu_partition.h"
#include "laplace_kernels.h"
#include "output.h"
#include "p2p.h"
#include "reference.h"
#include "report.h"
#include "solver.h"

#define LAPLACE_VERSION "0.1.0"

/* What will run: the device implementation and the devices of the tiles. */
struct plan {
    const struct device_ops *ops;  /* NULL for the serial reference */
    int devices[CONFIG_MAX_DEVICES];
    char device_list[256];         /* "0,1,2,3" or "-" */
    char device_names[256];
};

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

/* --backend auto: the GPUs if any; --partition auto: every GPU or every core. */
static void resolve_auto(struct config *c)
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
        n = omp_get_num_procs();
    partition_auto_layout(n, c->problem.nx, c->problem.ny, &c->partition_x, &c->partition_y);
}

/* Picks the device of every tile; returns an exit status. */
static int make_plan(const struct config *c, struct plan *plan, char *err, size_t n)
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

static int check_outputs(const struct config *c, char *err, size_t n)
{
    for (int i = 0; i < c->output_count; i++)
        if (output_check_writable(c->outputs[i], err, n) != 0)
            return EXIT_FAILURE_RUN;
    return EXIT_OK;
}

/* Solves the problem as planned on a partx x party partition into *field. */
static int solve(const struct config *c, const struct plan *plan, int partx, int party,
                 struct field *field, struct solve_result *result)
{
    struct solve_settings s = {
        .eps = c->eps,
        .max_iter = c->max_iter,
        .check_every = c->check_every,
        .monitor_every = (c->csv || c->quiet) ? 0 : c->monitor_every,
        .monitor = report_monitor_line,
        .monitor_context = stdout,
        .tile = {.block_x = c->block_x,
                 .block_y = c->block_y,
                 .use_p2p = c->use_p2p,
                 .kernel = kernel_by_name(c->kernel),
                 .reduce = c->reduce},
        .devices = plan->devices,
    };
    if (!plan->ops)
        return reference_solve(&c->problem, NULL, &s, field, result);
    struct partition partition;
    if (partition_init(&partition, c->problem.nx, c->problem.ny, partx, party) != 0) {
        snprintf(result->error, sizeof result->error, "cannot split the lattice");
        return -1;
    }
    int rc = solver_run(plan->ops, &c->problem, &partition, &s, field, result);
    partition_free(&partition);
    return rc;
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
        fprintf(stderr, "laplace: diverged at iteration %ld: the update norm is %g\n",
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
static int compare_with_one_device(const struct config *c, const struct plan *plan,
                                   const struct run_report *many, const struct field *field)
{
    struct run_report one = *many;
    struct field one_field;
    if (solve(c, plan, 1, 1, &one_field, &one.result) != 0)
        return solve_failed(&one.result);
    one.time_total_s = one.result.time_input_s + one.result.time_compute_s +
                       one.result.time_output_s;
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

int main(int argc, char **argv)
{
    struct config config;
    struct plan plan;
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
    resolve_auto(&config);
    if (config_validate(&config, err, sizeof err) != 0)
        return usage_error(err);

    int status = make_plan(&config, &plan, err, sizeof err);
    if (status == EXIT_OK)
        status = check_outputs(&config, err, sizeof err);
    if (status != EXIT_OK)
        return status == EXIT_BAD_USAGE ? usage_error(err) : run_error(err);

    struct run_report report = {.config = &config, .backend = backend_name(config.backend),
                                .devices = plan.device_list,
                                .device_names = plan.device_names};
    if (solve(&config, &plan, config.partition_x, config.partition_y, &field,
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
    field_free(&field);
    return status;
}

/*
 * main.c - laplace: options and config -> the requested solver -> report and
 * outputs. Each phase is one call; main reads as the table of contents.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <omp.h>

#include "bench/bench.h"
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

/* message may hold several lines (one per output that failed): each is prefixed. */
static int run_error(const char *message)
{
    for (const char *line = message; line;) {
        const char *end = strchr(line, '\n');
        int length = end ? (int)(end - line) : (int)strlen(line);
        fprintf(stderr, "laplace: %.*s\n", length, line);
        line = end ? end + 1 : NULL;
    }
    return EXIT_FAILURE_RUN;
}

static void print_version(void)
{
    char cuda[128];
    p2p_runtime_version(cuda, sizeof cuda);
    printf("laplace %s (%s)\n", LAPLACE_VERSION, cuda);
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

/*
 * --compare (one device of the same backend) or --compare-cpu (the host tiles):
 * the main run's problem again, written nowhere, then one line (or CSV row) set
 * against the main run. Interrupted, it prints nothing and gives the signal's status.
 */
static int compare(const struct run_plan *plan, enum run_comparison kind,
                   const struct run_report *run, const struct field *field)
{
    struct run_plan other;
    struct run_report report;
    struct field other_field;
    char err[CONFIG_ERROR_MAX];
    const struct config *c = &plan->config;
    int status = run_plan_comparison(plan, kind, &other, err, sizeof err);
    if (status == EXIT_OK)
        status = run_execute(&other, &other_field, &report, err, sizeof err);
    if (status != EXIT_OK) {
        run_plan_free(&other);
        return status == EXIT_BAD_USAGE ? usage_error(err) : run_error(err);
    }
    double difference = field_max_difference(field, &other_field);
    if (report.result.reason == STOP_INTERRUPTED)
        status = interrupt_exit_status();
    else if (c->csv && !c->quiet)
        report_csv_row(stdout, &report);
    else if (!c->quiet && kind == RUN_ON_ONE_DEVICE)
        report_comparison(stdout, run, &report, difference);
    else if (!c->quiet)
        report_cpu_comparison(stdout, run, &report, partition_count(&other.partition),
                              difference);
    field_free(&other_field);
    run_plan_free(&other);
    return status;
}

/* The plan of the configuration, checked: outputs writable, memory enough. */
static int plan_run(const struct config *c, struct run_plan *plan)
{
    char err[CONFIG_ERROR_MAX];
    int status = run_plan_make(c, plan, err, sizeof err);
    if (status != EXIT_OK)
        return status == EXIT_BAD_USAGE ? usage_error(err) : run_error(err);
    status = run_check_outputs(plan, err, sizeof err);
    if (status == EXIT_OK && memory_check(plan, err, sizeof err) != 0)
        status = EXIT_FAILURE_RUN;
    if (status != EXIT_OK)
        run_plan_free(plan);
    if (status == EXIT_BAD_USAGE)
        return usage_error(err);
    return status == EXIT_OK ? EXIT_OK : run_error(err);
}

/* Solves the plan, writes its outputs and prints its report; then the comparisons. */
static int run(const struct run_plan *plan, double start)
{
    const struct config *c = &plan->config;
    struct run_report report;
    struct field field;
    char err[CONFIG_ERROR_MAX];
    interrupt_install();
    int status = run_execute(plan, &field, &report, err, sizeof err);
    if (status != EXIT_OK && !field.data)
        return run_error(err);
    if (status != EXIT_OK)
        run_error(err); /* the history failed: the outputs are still written */
    if (run_write_outputs(plan, &field, &report.result, err, sizeof err) != EXIT_OK)
        status = run_error(err);
    report.time_total_s = omp_get_wtime() - start;
    if (status == EXIT_OK)
        print_report(c, &report);
    if (status == EXIT_OK && report.result.reason == STOP_INTERRUPTED)
        status = interrupt_exit_status();
    if (status == EXIT_OK && c->compare)
        status = compare(plan, RUN_ON_ONE_DEVICE, &report, &field);
    if (status == EXIT_OK && c->compare_cpu)
        status = compare(plan, RUN_ON_CPU, &report, &field);
    field_free(&field);
    return status;
}

/*
 * The descriptors 0, 1 and 2 open: one closed by the caller (">&-") would be
 * taken by the first file opened, and the monitor's lines would land in it.
 */
static void open_standard_descriptors(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1 && open("/dev/null", O_RDWR) != fd)
            _exit(EXIT_FAILURE_RUN);
}

/*
 * What was printed reached stdout, or the status says it did not (1, with a
 * message; none for a reader that went away, as with "| head -1").
 */
static int stdout_checked(int status)
{
    errno = 0;
    int flushed = fflush(stdout) == 0, error = errno;
    if (flushed && !ferror(stdout))
        return status;
    if (error != EPIPE)
        fprintf(stderr, "laplace: writing the standard output failed: %s\n",
                error ? strerror(error) : "a write failed");
    return status == EXIT_OK ? EXIT_FAILURE_RUN : status;
}

/* The options, then what they ask for: help, version, topology, bench or a run. */
static int laplace(int argc, char **argv)
{
    struct config config;
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
        return interrupt_install_at_once(), bench_run(&config);
    run_resolve_auto(&config);
    if (config_validate(&config, err, sizeof err) != 0 ||
        fault_check_variable(err, sizeof err) != 0)
        return usage_error(err);

    struct run_plan plan;
    int status = plan_run(&config, &plan);
    if (status != EXIT_OK)
        return status;
    status = run(&plan, start);
    run_plan_free(&plan);
    return status;
}

int main(int argc, char **argv)
{
    open_standard_descriptors();
    return stdout_checked(laplace(argc, argv));
}

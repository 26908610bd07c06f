/*
 * compare.c - the comparisons (compare.h): the main run's problem solved again,
 * written nowhere (plan_comparison), on rank 0 alone under MPI; the largest
 * difference of the fields piece by piece (part_compare.h); one line or CSV row by
 * rank 0; every status agreed on by every rank.
 */
#include "run/compare.h"

#include <string.h>

#include "mpi/part_compare.h"
#include "mpi/ranks.h"
#include "run/run.h"
#include "run/run_files.h"
#include "run/say.h"
#include "support/error.h"
#include "support/interrupt.h"

/*
 * The comparison's solve: on rank 0 alone under MPI (its plan is one process's,
 * its field whole there: memory_check made sure it fits), its status, then agreed
 * on every rank. A signal, on rank 0 or on a rank waiting for it meanwhile, is the
 * signal's status, said by nothing. The other ranks' *whole stays empty.
 */
static int solve_comparison(const struct plan *plan, enum plan_comparison_kind kind,
                            struct plan *other, struct field *whole,
                            struct run_report *report, char *err, size_t n)
{
    int status = EXIT_OK;
    memset(other, 0, sizeof *other);
    *whole = (struct field){0};
    *report = (struct run_report){0};
    if (ranks_rank() == 0) {
        status = plan_comparison(plan, kind, other, err, n);
        if (status == EXIT_OK)
            status = run_execute(other, whole, report, err, n);
    }
    ranks_wait_idle(); /* the other ranks leave rank 0's comparison the cores */
    if (status == EXIT_OK && (report->result.reason == STOP_INTERRUPTED ||
                              (ranks_rank() != 0 && interrupt_requested()))) {
        status = interrupt_exit_status();
        err[0] = '\0';
    }
    return plan->config.world_size > 1 ? ranks_agree_status(status, err, n) : status;
}

/* The comparison's CSV row: added to --csv-append's file, and on stdout (--csv). */
static int print_comparison_row(const struct config *c, const struct run_report *report)
{
    char err[CONFIG_ERROR_MAX];
    if (c->csv_append[0] && run_files_csv_append(c->csv_append, report, err, sizeof err))
        return say_run_error(err);
    if (c->csv && !c->quiet)
        report_csv_row(stdout, report);
    return EXIT_OK;
}

/* The comparison's line (or CSV row) set against the main run, by rank 0. */
static int print_comparison(const struct plan *plan, enum plan_comparison_kind kind,
                            const struct plan *other, struct run_report *report,
                            double difference)
{
    const struct config *c = &plan->config;
    int status = print_comparison_row(c, report);
    if (status != EXIT_OK || c->csv)
        return status;
    if (!c->quiet && kind == PLAN_ON_ONE_DEVICE)
        report_comparison(stdout, report->against, report, difference);
    else if (!c->quiet)
        report_cpu_comparison(stdout, report->against, report,
                              partition_count(&other->partition), difference);
    return EXIT_OK;
}

/* A comparison that diverged or whose device failed: its CSV row still tells it (stop
 * diverged or failed, no speed-up), before its one line on stderr, as the main run's
 * does (main.c). Rank 0's: the other ranks' reports are empty. */
static void print_failed_comparison(const struct plan *plan, struct run_report *report)
{
    if (!report_ended_badly(report))
        return;
    report->against = NULL; /* a run cut short has no speed-up */
    print_comparison_row(&plan->config, report);
}

/*
 * --compare (one device of the same backend) or --compare-cpu (the host tiles):
 * the main run's problem again, written nowhere, then one line (or CSV row) set
 * against the main run (its row also when it fails). Interrupted, it prints nothing
 * and gives the signal's status.
 * Under MPI every rank calls it: rank 0 solves the comparison whole, each rank's
 * part of the main run's field is compared with it piece by piece
 * (part_compare.h), and every rank ends with the same status.
 */
static int compare(const struct plan *plan, enum plan_comparison_kind kind,
                   const struct run_report *run, const struct field *field)
{
    struct plan other;
    struct run_report report;
    struct field whole;
    char err[CONFIG_ERROR_MAX] = "";
    const struct config *c = &plan->config;
    double difference = 0.0;
    int status = solve_comparison(plan, kind, &other, &whole, &report, err, sizeof err);
    if (status == EXIT_OK)
        status = part_compare_max_difference(&plan->partition, c->ranks_x, c->ranks_y,
                                             field, &whole, &difference, err, sizeof err);
    report.role = kind == PLAN_ON_ONE_DEVICE ? "compare-1-device" : "compare-cpu";
    report.against = run;
    if (status == EXIT_OK && ranks_rank() == 0)
        status = print_comparison(plan, kind, &other, &report, difference);
    else if (status != EXIT_OK && err[0]) {
        print_failed_comparison(plan, &report);
        status = status == EXIT_BAD_USAGE ? say_usage_error(err) : say_run_error(err);
    }
    field_free(&whole);
    plan_free(&other);
    if (c->world_size > 1) /* rank 0's CSV row: the next comparison runs on all or none */
        status = ranks_agree_status(status, err, sizeof err);
    return status;
}

/* --compare, then --compare-cpu, after a main run that ended with status. Under
 * MPI every rank takes part in each, so the ranks first agree that the main run
 * ended well everywhere (rank 0 alone prints its report, and may have failed to:
 * said there already). */
int compare_all(const struct plan *plan, const struct run_report *run,
                const struct field *field, int status)
{
    const struct config *c = &plan->config;
    char said[CONFIG_ERROR_MAX] = "";
    if (!c->compare && !c->compare_cpu)
        return status;
    if (c->world_size > 1)
        status = ranks_agree_status(status, said, sizeof said);
    if (status == EXIT_OK && c->compare)
        status = compare(plan, PLAN_ON_ONE_DEVICE, run, field);
    if (status == EXIT_OK && c->compare_cpu)
        status = compare(plan, PLAN_ON_CPU, run, field);
    return status;
}

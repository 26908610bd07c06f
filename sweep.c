/*
 * sweep.c - the lab sweep of sweep.h: each side's plan made and run as a single
 * run is (plan_resolve, run_plan, run_execute), its row printed (a line, or the
 * CSV row) and appended (--csv-append), then the fitted exponents.
 */
#include "sweep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mpi/ranks.h"
#include "report.h"
#include "run.h"
#include "run_files.h"
#include "settings/plan.h"
#include "support/error.h"
#include "support/interrupt.h"

double sweep_fit_exponent(const double *x, const double *y, int n)
{
    double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
    int used = 0;
    for (int i = 0; i < n; i++) {
        if (!(x[i] > 0.0) || !(y[i] > 0.0))
            continue;
        double lx = log(x[i]), ly = log(y[i]);
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, used++;
    }
    double spread = used * sxx - sx * sx;
    if (used < 2 || !(spread > 1e-12))
        return NAN;
    return (used * sxy - sx * sy) / spread;
}

/* What a sweep cannot take: a single lattice, files per run, other runs. */
static int refuse_options(const struct config *c, char *err, size_t n)
{
    const char *option = c->output_count    ? "--output"
                         : c->history[0]    ? "--history"
                         : c->compare       ? "--compare"
                         : c->compare_cpu   ? "--compare-cpu"
                         : c->steps         ? "--steps"
                         : c->dry_run       ? "--dry-run"
                         : c->monitor_every ? "--monitor"
                                            : NULL;
    if (option)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--sides runs each lattice to eps and writes only its rows "
                            "(--csv, --csv-append); %s cannot be given with it",
                            option);
    if (ranks_size() > 1)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--sides runs in one process; run it without mpirun");
    return EXIT_OK;
}

/* The run of one side: its plan checked (run_plan), solved. The report's plan is
 * *plan. */
static int run_side(const struct config *c, long side, struct plan *plan,
                    struct run_report *report, char *err, size_t n)
{
    struct config w = *c;
    struct field field;
    w.problem.nx = w.problem.ny = side;
    w.side_count = 0;
    int status = plan_resolve(&w, err, n);
    if (status != EXIT_OK)
        return status;
    status = run_plan(&w, plan, err, n);
    if (status != EXIT_OK)
        return status;
    if ((status = run_execute(plan, &field, report, err, n)) == EXIT_OK)
        field_free(&field);
    else
        plan_free(plan);
    return status;
}

/* The side's row: a line of the table (or the CSV row), and --csv-append's. */
static int print_row(const struct config *c, const struct run_report *r, char *err,
                     size_t n)
{
    if (c->csv && !c->quiet)
        report_csv_row(stdout, r);
    else if (!c->quiet)
        printf("  %6ld^2  %10ld iterations  %-11s compute %10.4f s  %.3e norm\n",
               r->plan->config.problem.nx, r->result.iterations, report_stop_name(r),
               r->result.time_compute_s, r->result.final_norm);
    fflush(stdout);
    if (c->csv_append[0] && run_files_csv_append(c->csv_append, r, err, n) != 0)
        return EXIT_FAILURE_RUN;
    return EXIT_OK;
}

/* The fitted exponents, over the sides that converged or stagnated. */
static void print_fit(const struct config *c, const double *side, const double *iters,
                      const double *seconds, int count)
{
    if (c->csv || c->quiet)
        return;
    double a = sweep_fit_exponent(side, iters, count),
           b = sweep_fit_exponent(side, seconds, count);
    if (isnan(a)) {
        printf("  fit           needs two sides that converged or stagnated\n");
        return;
    }
    printf("  fit           iterations ~ N^%.2f, compute time ~ N^%.2f (least squares on "
           "log-log axes over %d sides that converged or stagnated; Jacobi's "
           "iterations grow as N^2)\n",
           a, b, count);
}

int sweep_run(const struct config *c, char *err, size_t n)
{
    double side[CONFIG_SIDES_MAX], iters[CONFIG_SIDES_MAX], seconds[CONFIG_SIDES_MAX];
    int fitted = 0, status = refuse_options(c, err, n);
    if (status != EXIT_OK)
        return status;
    interrupt_install();
    if (c->csv && !c->quiet)
        report_csv_header(stdout);
    else if (!c->quiet)
        printf("laplace --sides: %s, %s, eps %g, the side N of each N x N lattice:\n",
               precision_name(c->problem.precision), method_name(c->method), c->eps);
    for (int k = 0; k < c->side_count && status == EXIT_OK; k++) {
        struct plan plan;
        struct run_report r;
        status = run_side(c, c->sides[k], &plan, &r, err, n);
        if (status != EXIT_OK)
            break;
        int reason = r.result.reason;
        if (reason == STOP_INTERRUPTED)
            status = interrupt_exit_status();
        else
            status = print_row(c, &r, err, n);
        if (reason == STOP_CONVERGED || reason == STOP_STAGNATED) {
            side[fitted] = (double)c->sides[k];
            iters[fitted] = (double)r.result.iterations;
            seconds[fitted++] = r.result.time_compute_s;
        }
        plan_free(&plan);
    }
    if (status == EXIT_OK)
        print_fit(c, side, iters, seconds, fitted);
    return status;
}

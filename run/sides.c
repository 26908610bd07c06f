/*
 * sides.c - the lab's sides of sides.h: each side's plan made and run as a single
 * run is (sides_plan.h, run_execute), its row printed (a line, or the CSV row) and
 * appended (--csv-append), then the fitted exponents (also of the rows done when a
 * signal stops it). --dry-run gives the sides' times instead (sides_time.h).
 */
#include "run/sides.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mpi/ranks.h"
#include "plan/plan.h"
#include "run/report.h"
#include "run/run.h"
#include "run/run_files.h"
#include "run/sides_plan.h"
#include "run/sides_time.h"
#include "support/error.h"
#include "support/interrupt.h"
#include "support/load.h"

double sides_fit_exponent(const double *x, const double *y, int n)
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

/* What --sides cannot take: a single lattice, files per run, other runs. */
static int refuse_options(const struct config *c, char *err, size_t n)
{
    const char *option = c->output_count    ? "--output"
                         : c->history[0]    ? "--history"
                         : c->compare       ? "--compare"
                         : c->compare_cpu   ? "--compare-cpu"
                         : c->steps         ? "--steps"
                         : c->monitor_every ? "--monitor"
                                            : NULL;
    if (option)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--sides runs each lattice to eps and writes only its rows "
                            "(--csv, --csv-append, or --dry-run's times); %s cannot be "
                            "given with it",
                            option);
    if (ranks_size() > 1)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--sides runs in one process; run it without mpirun");
    return EXIT_OK;
}

/* Every side's plan made and checked before the first solve, so that whatever a
 * side would refuse (its source, its memory, its files) is refused before any row.
 * *threads: the most threads a side's solve takes (a tile each; the serial one). */
static int check_sides(const struct config *c, int *threads, char *err, size_t n)
{
    *threads = 1;
    for (int k = 0; k < c->side_count; k++) {
        struct plan plan;
        int status = sides_plan_make(c, c->sides[k], &plan, err, n);
        if (status != EXIT_OK)
            return status;
        if (plan.ops && partition_count(&plan.partition) > *threads)
            *threads = partition_count(&plan.partition);
        plan_free(&plan);
    }
    return EXIT_OK;
}

/* The sides timed while other processes hold the cores its threads need: one line on
 * stderr before it starts (load.h), since its time exponent then says as much about
 * them (-q: errors only). */
static void say_if_busy(const struct config *c, int threads)
{
    char line[512];
    if (!c->quiet &&
        load_busy(threads, "sweep", "fitted time exponent", line, sizeof line))
        fprintf(stderr, "%s\n", line);
}

/* The run of one side: its plan checked (run_plan), solved. The report's plan is
 * *plan. */
static int run_side(const struct config *c, long side, struct plan *plan,
                    struct run_report *report, char *err, size_t n)
{
    struct field field;
    int status = sides_plan_make(c, side, plan, err, n);
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

/* The shortest compute time that a fitted time exponent is read from: below it
 * the timer's resolution and the first side's start (its threads) dominate. */
#define SIDES_FIT_SECONDS_MIN 1e-3

/* The fitted exponents, over the sides that converged or stagnated. */
static void print_fit(const struct config *c, const double *side, const double *iters,
                      const double *seconds, int count)
{
    double shortest = INFINITY;
    if (c->csv || c->quiet)
        return;
    double a = sides_fit_exponent(side, iters, count),
           b = sides_fit_exponent(side, seconds, count);
    if (isnan(a)) {
        printf("  fit           needs two different sides that converged or "
               "stagnated\n");
        return;
    }
    for (int i = 0; i < count; i++)
        shortest = fmin(shortest, seconds[i]);
    printf("  fit           iterations ~ N^%.2f, compute time ~ N^%.2f (least squares on "
           "log-log axes over %d sides that converged or stagnated; Jacobi's "
           "iterations grow as N^2)\n",
           a, b, count);
    /* a time growing slower than the iterations: a side's time per iteration fell
     * as its lattice grew, which only a start-up cost or the timer explains */
    if (shortest < SIDES_FIT_SECONDS_MIN || b < a)
        printf("  caveat        the shortest side computed in %.2g s%s: the times are "
               "mostly the timer's resolution and the first side's start (its "
               "threads), so the time exponent says little; add larger sides\n",
               shortest, b < a ? ", and the time grew slower than the iterations" : "");
}

/* --error-if-not-converged: the sides that --max-iter ended (count of them, the
 * first in *first) make the sides a failure, said after their rows. */
static int check_converged(const struct config *c, int count, long first, char *err,
                           size_t n)
{
    if (!c->error_if_not_converged || count == 0)
        return EXIT_OK;
    return error_status(EXIT_FAILURE_RUN, err, n,
                        "not converged: %d side%s (the first %ld) reached --max-iter %ld "
                        "before --eps %g (--error-if-not-converged)",
                        count, count > 1 ? "s" : "", first, c->max_iter, c->eps);
}

/* The header of the rows: the CSV's, or a line naming the problem. */
static void print_header(const struct config *c)
{
    if (c->csv && !c->quiet)
        report_csv_header(stdout);
    else if (!c->quiet)
        printf("laplace --sides: %s, %s, eps %g, the side N of each N x N lattice:\n",
               precision_name(c->problem.precision), method_name(c->method), c->eps);
}

/* What the sides gave: the points of the fit, and the sides --max-iter ended. */
struct sides_tally {
    double side[CONFIG_SIDES_MAX], iters[CONFIG_SIDES_MAX], seconds[CONFIG_SIDES_MAX];
    int fitted, unconverged;
    long first_unconverged;
};

static void tally_side(struct sides_tally *t, long side, const struct solve_result *r)
{
    if (r->reason == STOP_CONVERGED || r->reason == STOP_STAGNATED) {
        t->side[t->fitted] = (double)side;
        t->iters[t->fitted] = (double)r->iterations;
        t->seconds[t->fitted++] = r->time_compute_s;
    } else if (r->reason == STOP_MAX_ITER && t->unconverged++ == 0) {
        t->first_unconverged = side;
    }
}

/* A signal stopped the sides at side: said, then the fit of the rows done above it
 * (the CSV's rows are all there is with --csv). */
static void print_interrupted(const struct config *c, long side,
                              const struct sides_tally *t)
{
    if (c->csv || c->quiet)
        return;
    printf("  interrupted   by %s at %ld^2: the rows above are the sides done\n",
           interrupt_signal_name(), side);
    print_fit(c, t->side, t->iters, t->seconds, t->fitted);
    fflush(stdout);
}

int sides_run(const struct config *c, char *err, size_t n)
{
    struct sides_tally t = {.fitted = 0};
    int threads, status = refuse_options(c, err, n);
    if (status == EXIT_OK)
        status = check_sides(c, &threads, err, n);
    if (status != EXIT_OK)
        return status;
    if (c->dry_run)
        return sides_time_dry_run(c, err, n);
    interrupt_install();       /* also for the first line's warm-ups */
    sides_time_say_if_long(c); /* its first line, when it takes minutes */
    say_if_busy(c, threads);
    print_header(c);
    for (int k = 0; k < c->side_count && status == EXIT_OK; k++) {
        struct plan plan;
        struct run_report r;
        status = run_side(c, c->sides[k], &plan, &r, err, n);
        if (status != EXIT_OK)
            break;
        if (r.result.reason == STOP_INTERRUPTED) {
            status = interrupt_exit_status();
            print_interrupted(c, c->sides[k], &t);
        } else {
            status = print_row(c, &r, err, n);
            tally_side(&t, c->sides[k], &r.result);
        }
        plan_free(&plan);
    }
    if (status == EXIT_OK)
        print_fit(c, t.side, t.iters, t.seconds, t.fitted);
    if (status == EXIT_OK)
        status = check_converged(c, t.unconverged, t.first_unconverged, err, n);
    return status;
}

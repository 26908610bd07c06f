/*
 * sides_time.c - the sides' expected times (sides_time.h).
 */
#include "run/sides_time.h"

#include <stdio.h>

#include "run/expect.h"
#include "run/sides_plan.h"
#include "support/duration.h"
#include "support/error.h"

/* A side is warmed up for the first line only from this least time (expect.h);
 * a shorter one counts at its least time. */
#define SIDES_MEASURE_FROM_S 0.5

/* One side's dry-run line; adds its time to *total (or counts it in *unmeasured). */
static int dry_run_side(const struct config *c, long side, double *total, int *unmeasured,
                        char *err, size_t n)
{
    struct plan plan;
    struct run_warm_up warm;
    char count[64], time[64], each[32];
    int status = sides_plan_make(c, side, &plan, err, n);
    if (status != EXIT_OK)
        return status;
    const struct estimate *e = &plan.estimate;
    long iterations = expect_iterations(&plan);
    double seconds = expect_seconds(&plan, &warm);
    printf("  %6ld^2  %s iteration%s%s%s%s  ", side,
           estimate_count_text(iterations, count, sizeof count),
           iterations == 1 ? "" : "s", e->stagnates ? ", where " : "",
           e->stagnates ? precision_name(c->problem.precision) : "",
           e->stagnates ? " stagnates" : "");
    if (seconds >= 0.0)
        printf("%s (%s an iteration over a warm-up of %ld)\n",
               duration_text(seconds, time, sizeof time),
               duration_short_text(warm.per_iteration, each, sizeof each),
               warm.iterations);
    else
        printf("time not measured\n");
    *total += seconds > 0.0 ? seconds : 0.0;
    *unmeasured += seconds < 0.0 && iterations > 1;
    plan_free(&plan);
    return EXIT_OK;
}

int sides_time_dry_run(const struct config *c, char *err, size_t n)
{
    double total = 0.0;
    int unmeasured = 0;
    char time[64];
    printf("laplace --sides --dry-run: %s, %s, eps %g, the side N of each N x N "
           "lattice:\n",
           precision_name(c->problem.precision), method_name(c->method), c->eps);
    for (int k = 0; k < c->side_count; k++) {
        int status = dry_run_side(c, c->sides[k], &total, &unmeasured, err, n);
        if (status != EXIT_OK)
            return status;
    }
    printf("  total         %s%s for %d sides (each side's estimated iterations at the "
           "rate of its own warm-up)\n",
           unmeasured ? "more than " : "", duration_text(total, time, sizeof time),
           c->side_count);
    printf("  nothing solved (--dry-run)\n");
    return EXIT_OK;
}

/* The expected time of one side: measured where it may be long, else its least. */
static double side_seconds(const struct config *c, long side)
{
    struct plan plan;
    struct run_warm_up warm;
    char err[CONFIG_ERROR_MAX];
    if (sides_plan_make(c, side, &plan, err, sizeof err) != EXIT_OK)
        return 0.0; /* refused before the first solve (sides.c): not here */
    double least = expect_least_s(&plan), seconds = least;
    if (least >= SIDES_MEASURE_FROM_S) {
        seconds = expect_seconds(&plan, &warm);
        seconds = seconds < least ? least : seconds;
    }
    plan_free(&plan);
    return seconds;
}

void sides_time_say_if_long(const struct config *c)
{
    double least = 0.0, total = 0.0;
    char time[64];
    if (c->quiet)
        return;
    for (int k = 0; k < c->side_count; k++) {
        struct plan plan;
        char err[CONFIG_ERROR_MAX];
        if (sides_plan_make(c, c->sides[k], &plan, err, sizeof err) != EXIT_OK)
            return;
        least += expect_least_s(&plan);
        plan_free(&plan);
    }
    if (least < EXPECT_MEASURE_FROM_S)
        return; /* surely short: no warm-up */
    for (int k = 0; k < c->side_count; k++)
        total += side_seconds(c, c->sides[k]);
    if (total <= EXPECT_LONG_S)
        return;
    fprintf(stderr,
            "laplace: this sweep is expected to take %s (%d sides; --sides ... --dry-run "
            "gives each side's time without solving)\n",
            duration_text(total, time, sizeof time), c->side_count);
    fflush(stderr);
}

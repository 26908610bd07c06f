/*
 * expect.h - how long a plan is expected to take, before it runs (expect.c): the
 * iterations of its estimate (or --steps), within --max-iter, at the time an
 * iteration that a warm-up of the plan itself measures (run.h). --dry-run prints it,
 * a run or a sweep expected to take more than a minute says so in its first line,
 * and the sweep's dry run adds its sides.
 */
#ifndef LAPLACE_EXPECT_H
#define LAPLACE_EXPECT_H

#include "run/run.h"
#include "plan/plan.h"

/* A run or a sweep expected to take longer than this says so in its first line. */
#define EXPECT_LONG_S 60.0

/* A warm-up is made for a run's first line only when the run could last this long
 * on a fast machine (expect_least_s). */
#define EXPECT_MEASURE_FROM_S 6.0

/* The iterations the plan is expected to run: --steps, or the estimate's (within
 * --max-iter); 0 when there is none (eps 0 without --steps, fixed regions). */
long expect_iterations(const struct plan *plan);

/* The least time the plan could take, at a fast machine's rate (1e9 site updates a
 * second a host tile, 5e10 a GPU): below a few seconds no warm-up is worth its time. */
double expect_least_s(const struct plan *plan);

/* The expected time: expect_iterations at the rate of a warm-up (*warm). Returns the
 * seconds, or -1 when there is nothing to time or it cannot be measured. */
double expect_seconds(const struct plan *plan, struct run_warm_up *warm);

/* The first line of a run expected to take more than EXPECT_LONG_S, on stderr (rank
 * 0, not -q): measured only where expect_least_s says it may be that long. */
void expect_say_if_long(const struct plan *plan);

#endif

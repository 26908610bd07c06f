/*
 * expect.c - the expected time of a plan (expect.h).
 */
#include "run/expect.h"

#include <stdio.h>

#include "mpi/ranks.h"
#include "support/duration.h"

long expect_iterations(const struct plan *plan)
{
    long expected = plan->config.steps > 0 ? plan->config.steps
                    : plan->eps > 0.0      ? plan->estimate.expected
                                           : 0;
    return expected < plan->max_iter ? expected : plan->max_iter;
}

double expect_least_s(const struct plan *plan)
{
    const struct config *c = &plan->config;
    double tiles = plan->ops ? (double)partition_count(&plan->partition) : 1.0;
    double rate = (c->backend == BACKEND_GPU ? 5e10 : 1e9) * tiles;
    return (double)expect_iterations(plan) * (double)problem_interior_sites(&c->problem) /
           rate;
}

double expect_seconds(const struct plan *plan, struct run_warm_up *warm)
{
    long iterations = expect_iterations(plan);
    if (iterations <= 0 || (plan->config.steps <= 0 && plan->estimate.at_rest))
        return -1.0;
    if (run_time_per_iteration(plan, iterations, warm) != 0)
        return -1.0;
    return warm->per_iteration * (double)iterations;
}

void expect_say_if_long(const struct plan *plan)
{
    struct run_warm_up warm;
    char time[64], count[64], each[32];
    if (plan->config.quiet || plan->config.dry_run || ranks_rank() != 0 ||
        expect_least_s(plan) < EXPECT_MEASURE_FROM_S)
        return;
    double seconds = expect_seconds(plan, &warm);
    if (seconds <= EXPECT_LONG_S) /* or not measured: also when a signal came */
        return;
    fprintf(stderr,
            "laplace: this run is expected to take %s (%s iterations, %s each over a "
            "warm-up of %ld); --dry-run tells this without solving\n",
            duration_text(seconds, time, sizeof time),
            estimate_count_text(expect_iterations(plan), count, sizeof count),
            duration_short_text(warm.per_iteration, each, sizeof each), warm.iterations);
    fflush(stderr);
}

/*
 * dry_run.c - --dry-run's lines (dry_run.h): the tiles, memory_check's estimates of
 * every rank's memory, the loop plan, how host tiles wait, the report's estimate line,
 * and the time at the rate of a warm-up of the plan itself (expect.h).
 */
#include "run/dry_run.h"

#include <stdio.h>
#include <stdlib.h>

#include "run/expect.h"
#include "mpi/ranks.h"
#include "plan/loop_plan.h"
#include "run/report.h"
#include "run/run.h"
#include "run/say.h"
#include "plan/memory_check.h"
#include "support/duration.h"
#include "support/error.h"
#include "support/waits.h"

/* --dry-run's memory lines: each GPU and the host; under MPI, every rank's. */
static int print_memory(const struct plan *plan)
{
    const struct config *c = &plan->config;
    const double mib = 1024.0 * 1024.0;
    int ranks = c->world_size > 1 ? c->world_size : 1;
    char err[CONFIG_ERROR_MAX];
    struct memory_check_part *parts = calloc((size_t)ranks, sizeof *parts);
    int status = parts ? EXIT_OK
                       : error_status(EXIT_FAILURE_RUN, err, sizeof err,
                                      "out of host memory for the ranks' memory");
    if (ranks_agree_status(status, err, sizeof err) != EXIT_OK || /* every rank */
        memory_check_parts(plan, parts, err, sizeof err) != 0) {
        free(parts);
        return say_run_error(err);
    }
    for (int r = 0; r < ranks; r++) {
        char who[32] = "";
        if (ranks > 1)
            snprintf(who, sizeof who, "rank %d, ", r);
        for (int g = 0; g < parts[r].gpus; g++)
            printf("  memory        %sGPU %d: about %.1f MiB\n", who, parts[r].device[g],
                   parts[r].device_bytes[g] / mib);
        printf("  memory        %shost: about %.1f MiB%s\n", who,
               parts[r].host_bytes / mib,
               c->compare || c->compare_cpu ? " (with the comparisons)" : "");
    }
    free(parts);
    return EXIT_OK;
}

/* --dry-run's time: the estimate's iterations at the rate of a warm-up of the plan
 * itself (expect.h), where that is cheap. */
static void print_time_estimate(const struct plan *plan)
{
    struct run_warm_up warm;
    char time[64], each[32];
    if (expect_iterations(plan) <= 0)
        return;
    if (plan->config.steps <= 0 && plan->estimate.at_rest) {
        printf("  time          none to measure: the run ends at its first iteration\n");
        return;
    }
    double seconds = expect_seconds(plan, &warm);
    if (seconds < 0.0) {
        printf("  time          not measured (a warm-up is run only on one process "
               "and up to %ld sites)\n",
               RUN_WARM_UP_SITES_MAX);
        return;
    }
    printf("  time          %s for the %s, %s an iteration (measured over a "
           "warm-up of %ld iterations, %.2g s)\n",
           duration_text(seconds, time, sizeof time),
           plan->config.steps > 0 ? "time steps" : "estimate's iterations",
           duration_short_text(warm.per_iteration, each, sizeof each), warm.iterations,
           warm.seconds);
}

/* --dry-run's waits line: how the host tiles' threads wait at a barrier (waits.h). */
static void print_waits(const struct plan *plan)
{
    char line[256];
    if (plan->ops && plan->config.backend == BACKEND_CPU)
        printf("  waits         %s\n", waits_describe(line, sizeof line));
}

/* --dry-run's loop line: how the tiles would iterate and why (the loop plan, made on
 * the devices as the run makes it), or the serial reference's loop. */
static int print_loop(const struct plan *plan)
{
    struct loop_plan loop;
    char err[CONFIG_ERROR_MAX], line[600];
    if (!plan->ops) {
        printf("  loop          serial: the reference, one sweep after another\n");
        return EXIT_OK;
    }
    if (run_loop_plan(plan, &loop, err, sizeof err) != EXIT_OK)
        return say_run_error(err);
    loop_plan_describe(&loop, plan->config.backend == BACKEND_GPU, line, sizeof line);
    printf("  loop          %s\n  loop why      %s: %s\n", line,
           loop_plan_way_name(loop.way), loop.reason);
    return EXIT_OK;
}

/* --dry-run: each tile, its sites and device, the memory each device and the host
 * would hold (memory_check's estimates), the iterations and time expected, and
 * nothing solved. */
int dry_run_print(const struct plan *plan)
{
    const struct config *c = &plan->config;
    const struct partition *p = &plan->partition;
    int tiles = partition_count(p), gpu = c->backend == BACKEND_GPU;
    double mib = 1024.0 * 1024.0;
    printf("laplace --dry-run: %ld x %ld lattice, %s, backend %s, partition %dx%d\n",
           c->problem.nx, c->problem.ny, precision_name(c->problem.precision),
           backend_name(c->backend), p->ngx, p->ngy);
    if (c->partition_why[0])
        printf("  partition     auto: %s\n", c->partition_why);
    printf("  devices       %s (%s)\n", plan->device_list, plan->device_names);
    for (int t = 0; t < tiles; t++) {
        const struct tile_extent *e = &p->tiles[t];
        printf("  tile %-3d      (%d,%d): x %ld..%ld, y %ld..%ld, %ld x %ld sites", t,
               e->ix, e->iy, e->x0, e->x0 + e->lx - 1, e->y0, e->y0 + e->ly - 1, e->lx,
               e->ly);
        if (gpu && plan->devices[t] < 0)
            printf(", rank %d",
                   partition_rank_of(p, c->ranks_x, c->ranks_y, t)); /* not ours */
        else if (gpu)
            printf(", GPU %d, about %.1f MiB", plan->devices[t],
                   memory_check_tile_bytes(plan, e->lx, e->ly, tiles == 1) / mib);
        putchar('\n');
    }
    int status = print_memory(plan);
    if (status == EXIT_OK)
        status = print_loop(plan);
    if (status == EXIT_OK) {
        print_waits(plan);
        if (c->steps > 0)
            printf("  estimate      %ld time steps (--steps): every one runs\n",
                   c->steps);
        else
            report_estimate(stdout, plan);
        print_time_estimate(plan);
        printf("  nothing solved (--dry-run)\n");
    }
    return status;
}

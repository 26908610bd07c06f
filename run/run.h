/*
 * run.h - the one path from a configuration to a result:
 *
 *   config --plan_resolve, plan_make--> plan --run_execute--> field + run_report
 *            (plan/plan.h)            |                         |
 *                            memory_check, outputs          report (human, CSV)
 *
 * main's run, both comparisons and the bench all go through it. Before it, main
 * checks the run's files (run_files.h); the solve writes snapshots and pieces and
 * main the final outputs through run_outputs.h.
 */
#ifndef LAPLACE_RUN_H
#define LAPLACE_RUN_H

#include <stddef.h>

#include "settings/config.h"
#include "plan/plan.h"
#include "outputs/output.h"
#include "run/report.h"

/*
 * The plan of a resolved configuration, made and checked before anything runs: the
 * source on this rank's part (plan_check_source), the files the run will write
 * (run_files.h), the memory (memory_check.h); under MPI each refusal agreed by every
 * rank, the source's first, so that the refusal is one process's whichever rank's
 * part holds the site. EXIT_OK with *plan made, or the status with err and nothing
 * to free.
 */
int run_plan(const struct config *c, struct plan *plan, char *err, size_t n);

/*
 * Runs the plan: the history, the monitor and the progress line follow it, and
 * the field ends in *field. Returns EXIT_OK with the report filled in (the run may
 * have been interrupted: report->result.reason), or EXIT_FAILURE_RUN with err
 * saying why (a device failed, the run diverged, the history could not be
 * written); then *field holds nothing, but for a failed history alone: the field
 * is kept, for the outputs. report->time_total_s is this call's time.
 */
int run_execute(const struct plan *plan, struct field *field, struct run_report *report,
                char *err, size_t n);

/*
 * The loop plan of a plan with a backend of tiles (plan->ops set): every tile opened
 * and connected on its device (no field uploaded, nothing iterated), the plan made
 * from their offers as a run makes it (plan/loop_plan.h), the tiles closed. Under MPI
 * every rank calls it. EXIT_OK with *out, or EXIT_FAILURE_RUN with err (a device
 * failed, or what was asked cannot run: --loop chip on a lattice that does not fit).
 */
int run_loop_plan(const struct plan *plan, struct loop_plan *out, char *err, size_t n);

/* The lattices a warm-up runs on (4096^2): larger ones take too long to allocate. */
#define RUN_WARM_UP_SITES_MAX (4096L * 4096L)

/* A warm-up lasts RUN_WARM_UP_S of compute at least (all of them together at most
 * RUN_WARM_UP_MOST_S, or the run's own iterations): shorter ones were 15 times off
 * (the course problem: 76 iterations, 54 min said for a run of 3.5 min). */
#define RUN_WARM_UP_S 0.3
#define RUN_WARM_UP_MOST_S 2.0

/* What a warm-up measured: its time an iteration, over how many, in how long. */
struct run_warm_up {
    double per_iteration; /* compute seconds an iteration */
    long iterations;      /* of the warm-up whose rate it is */
    double seconds;       /* that warm-up's compute time */
    double spent;         /* every warm-up's together (they grow x4 to the last) */
};

/* The warm-up of --dry-run (and of a run's or a sweep's expected time): the plan's
 * own backend and layout run a few iterations, written nowhere and quiet, longer
 * each time until one lasts RUN_WARM_UP_S (never more than most iterations, the run's
 * own, when most > 0). -1 where it is not cheap (several ranks, or more than
 * RUN_WARM_UP_SITES_MAX sites) or failed: the time is then not measured. */
int run_time_per_iteration(const struct plan *plan, long most, struct run_warm_up *out);

#endif

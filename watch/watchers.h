/*
 * watchers.h - what follows a run as it goes: the --history file, the --monitor
 * lines and the live progress line on a terminal. run.c starts them for a plan
 * and hands the solver their two norm_fn entries.
 */
#ifndef LAPLACE_WATCHERS_H
#define LAPLACE_WATCHERS_H

#include <stddef.h>

#include "plan/plan.h"
#include "watch/history.h"
#include "watch/progress.h"

struct watchers {
    struct history history;
    struct progress progress;
    int has_history, has_progress;
    int has_monitor; /* --monitor lines on stdout (not with --csv or --quiet) */
};

/* Opens the history and starts the progress line as the plan asks; the progress
 * line (only on a terminal, without monitor, CSV or quiet) starts with the plan's
 * label when it is not empty. Returns 0, or -1 with err set. */
int watchers_start(struct watchers *w, const struct plan *plan, char *err, size_t n);

/* Which watchers a run of configuration c has (the has_* flags), nothing started:
 * what --dry-run's loop plan needs to know. */
void watchers_choose(struct watchers *w, const struct config *c);

/* A norm_fn with the watchers as context: every norm the run computes. */
void watchers_observe(void *watchers, long iteration, double norm, double elapsed_s);

/* A norm_fn with the watchers as context: the norms at the monitor's multiples. */
void watchers_monitor(void *watchers, long iteration, double norm, double elapsed_s);

/* Clears the progress line; gives the history its name when keep, else removes it.
 * Returns 0, or -1 with err set when the history could not be written. */
int watchers_stop(struct watchers *w, int keep, char *err, size_t n);

#endif

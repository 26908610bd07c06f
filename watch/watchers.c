/*
 * watchers.c - the history, the monitor and the progress line of a run
 * (watchers.h).
 */
#include "watch/watchers.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mpi/ranks.h"

void watchers_choose(struct watchers *w, const struct config *c)
{
    memset(w, 0, sizeof *w);
    w->has_history = c->history[0] != 0;
    w->has_monitor = config_shows_monitor(c);
    /* under mpirun stdout is a terminal Open MPI makes, even when redirected: none,
     * also for rank 0's comparisons (whose plan is one process's) */
    w->has_progress = !c->csv && !c->quiet && c->monitor_every == 0 &&
                      ranks_size() <= 1 && isatty(STDOUT_FILENO);
}

/* The progress line, counting to the run's estimate: eps, or where the precision
 * stagnates (the report's estimate line and --dry-run give the same count). */
static void start_progress(struct progress *p, const struct plan *plan)
{
    const struct estimate *e = &plan->estimate;
    char target[64];
    progress_start(p, stdout, plan->eps, plan->label);
    if (plan->eps <= 0.0 || plan->config.steps > 0 || e->expected <= 0)
        return;
    if (!e->stagnates) {
        progress_expect(p, e->expected, plan->eps, p->target);
        return;
    }
    snprintf(target, sizeof target, "where %s stagnates",
             precision_name(plan->config.problem.precision));
    progress_expect(p, e->expected, estimate_norm_at(e, e->stagnation), target);
}

int watchers_start(struct watchers *w, const struct plan *plan, char *err, size_t n)
{
    const struct config *c = &plan->config;
    watchers_choose(w, c);
    if (c->history[0] && history_open(&w->history, c->history, plan->eps, err, n) != 0)
        return -1;
    if (w->has_progress)
        start_progress(&w->progress, plan);
    return 0;
}

void watchers_observe(void *watchers, long iteration, double norm, double elapsed_s)
{
    struct watchers *w = watchers;
    if (w->has_history)
        history_add(&w->history, iteration, norm, elapsed_s);
    if (w->has_progress)
        progress_add(&w->progress, iteration, norm, elapsed_s);
}

void watchers_monitor(void *watchers, long iteration, double norm, double elapsed_s)
{
    (void)watchers;
    printf("  iteration %10ld   norm %.6e   elapsed %9.3f s\n", iteration, norm,
           elapsed_s);
    fflush(stdout);
}

int watchers_stop(struct watchers *w, int keep, char *err, size_t n)
{
    if (w->has_progress)
        progress_end(&w->progress);
    if (w->has_history && !keep)
        history_abandon(&w->history);
    if (w->has_history && keep && history_close(&w->history, err, n) != 0)
        return -1;
    return 0;
}

/*
 * history.h - --history FILE.csv: one row per norm the loop computes (iteration,
 * norm, seconds since the loop began, and the run's eps on every row, so that a
 * plot draws the target: scripts/plot_history.gp), written under a temporary name
 * and renamed when the run ends, so a broken run leaves no half file behind.
 */
#ifndef LAPLACE_HISTORY_H
#define LAPLACE_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "outputs/output.h"

struct history {
    FILE *file;
    char path[1100];
    struct temp_file temporary; /* guarded by interrupt.h until renamed */
    int failed;
    int error;  /* the errno of the first write that failed */
    double eps; /* the run's tolerance (0: --steps or eps 0), on every row */
};

/* Opens the temporary file and writes the header; eps goes on every row. 0, or -1
 * with err set. */
int history_open(struct history *h, const char *path, double eps, char *err, size_t n);

/* Adds a row (a norm_fn of solver.h, with the history as context). */
void history_add(void *history, long iteration, double norm, double elapsed_s);

/* Closes the file and gives it its name. 0, or -1 with err set (then no file). */
int history_close(struct history *h, char *err, size_t n);

/* Removes the temporary file (the run failed). */
void history_abandon(struct history *h);

#endif

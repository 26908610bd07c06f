/*
 * progress.h - the live progress line on a terminal: iteration, norm, the
 * iterations still needed to reach eps, or where the precision stagnates (the run's
 * estimate, refined by the norm's measured rate of decay once it is steady), the
 * elapsed time and the time left as a duration, redrawn in place a few times a second.
 * The count is damped: each redraw moves it a quarter of the way to what the norm
 * says, so it neither flips between "unknown" and a number nor leaps.
 */
#ifndef LAPLACE_PROGRESS_H
#define LAPLACE_PROGRESS_H

#include <stdio.h>

struct progress {
    FILE *out;
    double eps;
    double drawn_at;      /* elapsed time of the last redraw (-1: none yet) */
    long mark_iteration;  /* the earlier point of the decay rate */
    double mark_log_norm; /* its log(norm) */
    double mark_elapsed;
    double window_rate; /* the decay rate of the last whole window (NAN: none) */
    long expected;      /* the estimate's iterations to the target (0: none) */
    double log_target;  /* log of the norm counted to: eps, or where it stagnates */
    char target[64];    /* its name on the line: "eps 1e-10", "where float stagnates" */
    int stagnation;     /* 1: the target is where it stagnates, reached before eps */
    double left;        /* the damped count of iterations left (< 0: none yet) */
    long left_at;       /* the iteration it was counted at */
    int shown;          /* a line is on the terminal */
    int plain;          /* TERM=dumb or NO_COLOR: no escape sequences, spaces clear */
    int length;         /* characters of the line drawn last */
    const char
        *label; /* what the line is about, before it ("comparing: 1 GPU"), or NULL */
};

/* Starts a line of norms towards eps on out, headed by label (NULL or "": none).
 * The line never has colours; with TERM=dumb or NO_COLOR set it has no escape
 * sequence at all (what a longer line left is cleared with spaces). */
void progress_start(struct progress *p, FILE *out, double eps, const char *label);

/* Counts to the run's estimate: expected iterations to target_norm, named target
 * ("where float stagnates"); the measured decay then refines it. Without this call
 * the line counts to eps once the decay is steady, "ETA unknown" before. */
void progress_expect(struct progress *p, long expected, double target_norm,
                     const char *target);

/* Takes a norm (a norm_fn of solver.h, with the progress as context). */
void progress_add(void *progress, long iteration, double norm, double elapsed_s);

/* Iterations still needed to bring norm to eps at the decay rate per iteration
 * (log of the norm per iteration, < 0); -1 when it does not decay. */
long progress_iterations_left(double norm, double eps, double rate);

/* 1 when rate (log of the norm per iteration, since the mark) is within 10% of
 * the last whole window's: only then does the measured rate count (before, the
 * estimate's count, or "ETA unknown" without one). */
int progress_rate_is_steady(double rate, double window_rate);

/* Clears the line, so the report starts on a clean one. */
void progress_end(struct progress *p);

#endif

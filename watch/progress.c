/*
 * progress.c - the live progress line of progress.h. The decay rate is taken
 * between the newest norm and a mark set about a second earlier, so it follows
 * the slow phases of Jacobi's convergence rather than its first iterations; the
 * line gives iterations left and an ETA only once that rate is steady (within
 * STEADY of the previous window's), "ETA unknown" before: Jacobi's fast modes
 * die first, and a rate taken from them promised 1 s for a run of hours.
 */
#include "watch/progress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REDRAW_S 0.25 /* at most four redraws a second */
#define MARK_S 1.0    /* the rate's window */
#define STEADY 0.1    /* two windows' rates within 10%: the rate is steady */

void progress_start(struct progress *p, FILE *out, double eps, const char *label)
{
    const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");
    *p = (struct progress){.out = out,
                           .eps = eps,
                           .drawn_at = -1.0,
                           .window_rate = NAN,
                           .label = label,
                           .plain = (term && strcmp(term, "dumb") == 0) ||
                                    (no_color && no_color[0])};
}

/* Writes line over the one drawn before: \r, the line, then what a longer line
 * left cleared (ESC [ K, or spaces on a plain terminal). */
static void redraw(struct progress *p, const char *line)
{
    int length = (int)strlen(line);
    if (p->plain)
        fprintf(p->out, "\r%s%*s", line, p->length > length ? p->length - length : 0, "");
    else
        fprintf(p->out, "\r%s\033[K", line);
    p->length = length;
}

long progress_iterations_left(double norm, double eps, double rate)
{
    if (!(rate < 0.0) || !(norm > 0.0) || !(eps > 0.0))
        return -1;
    if (norm <= eps)
        return 0;
    double left = (log(eps) - log(norm)) / rate;
    /* a part of an iteration counts as one, a rounding error of the logs not */
    return left < 1e15 ? (long)ceil(left - 1e-6) : -1;
}

int progress_rate_is_steady(double rate, double window_rate)
{
    return rate < 0.0 && window_rate < 0.0 &&
           fabs(rate - window_rate) <= STEADY * fabs(window_rate);
}

static void draw(struct progress *p, long iteration, double norm, double elapsed_s)
{
    double rate =
        (log(norm) - p->mark_log_norm) / (double)(iteration - p->mark_iteration);
    long left = progress_rate_is_steady(rate, p->window_rate)
                    ? progress_iterations_left(norm, p->eps, rate)
                    : -1;
    int labelled = p->label && p->label[0];
    char line[512];
    int n = snprintf(line, sizeof line, "  %s%siteration %ld  norm %.3e  elapsed %.1f s",
                     labelled ? p->label : "", labelled ? "  " : "", iteration, norm,
                     elapsed_s);
    if (left >= 0 && n >= 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "  ~%ld more to eps %g, ETA %.0f s",
                 left, p->eps, (double)left * elapsed_s / (double)iteration);
    else if (p->eps > 0.0 && n >= 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n,
                 "  ETA unknown (the norm's decay is not steady yet)");
    redraw(p, line);
    fflush(p->out);
    p->shown = 1;
}

void progress_add(void *progress, long iteration, double norm, double elapsed_s)
{
    struct progress *p = progress;
    if (!(norm > 0.0) || !isfinite(norm))
        return;
    if (p->mark_iteration == 0 || elapsed_s - p->mark_elapsed > 2 * MARK_S) {
        p->mark_iteration = iteration, p->mark_log_norm = log(norm);
        p->mark_elapsed = elapsed_s;
        p->window_rate = NAN; /* a gap (or the start): no window to compare with */
        return;
    }
    if (p->drawn_at >= 0 && elapsed_s - p->drawn_at < REDRAW_S)
        return;
    if (iteration > p->mark_iteration)
        draw(p, iteration, norm, elapsed_s);
    p->drawn_at = elapsed_s;
    if (elapsed_s - p->mark_elapsed > MARK_S && iteration > p->mark_iteration) {
        p->window_rate =
            (log(norm) - p->mark_log_norm) / (double)(iteration - p->mark_iteration);
        p->mark_iteration = iteration, p->mark_log_norm = log(norm),
        p->mark_elapsed = elapsed_s;
    }
}

void progress_end(struct progress *p)
{
    if (p->shown && p->plain)
        fprintf(p->out, "\r%*s\r", p->length, "");
    else if (p->shown)
        fprintf(p->out, "\r\033[K");
    fflush(p->out);
    p->shown = 0;
}

/*
 * progress.c - the live progress line of progress.h. The decay rate is taken
 * between the newest norm and a mark set about a second earlier, so it follows
 * the slow phases of Jacobi's convergence rather than its first iterations; it
 * counts only once steady (within STEADY of the previous window's): Jacobi's fast
 * modes die first, and a rate taken from them promised 1 s for a run of hours.
 * Until then the estimate's count is shown (or "ETA unknown" without one). Each
 * redraw moves the shown count DAMPING of the way to the new one (growing by GROWTH
 * at most), after counting down the iterations done; once a count is shown, it is
 * never unknown again.
 */
#include "watch/progress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/duration.h"

#define REDRAW_S 0.25 /* at most four redraws a second */
#define MARK_S 1.0    /* the rate's window */
#define STEADY 0.1    /* two windows' rates within 10%: the rate is steady */
#define DAMPING 0.25  /* each redraw moves the count a quarter of the way */
#define GROWTH 1.5    /* and grows it by half at most, plus GROWTH_FLOOR */
#define GROWTH_FLOOR 100.0
#define ETA_FROM_S 0.2 /* the time an iteration, from the elapsed time: not before */

void progress_start(struct progress *p, FILE *out, double eps, const char *label)
{
    const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");
    *p = (struct progress){.out = out,
                           .eps = eps,
                           .drawn_at = -1.0,
                           .window_rate = NAN,
                           .log_target = eps > 0.0 ? log(eps) : NAN,
                           .left = -1.0,
                           .label = label,
                           .plain = (term && strcmp(term, "dumb") == 0) ||
                                    (no_color && no_color[0])};
    snprintf(p->target, sizeof p->target, "eps %g", eps);
}

void progress_expect(struct progress *p, long expected, double target_norm,
                     const char *target)
{
    if (expected <= 0 || !(target_norm > 0.0))
        return;
    p->expected = expected;
    p->stagnation = p->eps <= 0.0 || target_norm > p->eps; /* reached before eps */
    p->log_target = log(target_norm);
    snprintf(p->target, sizeof p->target, "%s", target);
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

/* The norm passed the estimate of where the precision stagnates and the run goes on:
 * from now on the count is to eps (the precision may still stagnate first). */
static void past_stagnation(struct progress *p, double norm)
{
    if (!p->stagnation || !(p->eps > 0.0) || log(norm) > p->log_target)
        return;
    p->stagnation = 0, p->expected = 0; /* the count goes on, damped as ever */
    p->log_target = log(p->eps);
    snprintf(p->target, sizeof p->target, "eps %g (it may stagnate first)", p->eps);
}

/* The count of iterations left that the norm says now: at the measured rate once it
 * is steady, else the estimate's; -1 when neither knows. */
static double count_now(struct progress *p, long iteration, double norm, double rate)
{
    past_stagnation(p, norm);
    if (progress_rate_is_steady(rate, p->window_rate) && isfinite(p->log_target)) {
        if (log(norm) <= p->log_target)
            return 0.0;
        return (p->log_target - log(norm)) / rate;
    }
    return p->expected > iteration ? (double)(p->expected - iteration) : -1.0;
}

/* The damped count: counted down by the iterations done, then moved DAMPING of the
 * way to what the norm says now (at once, the first time), growing by GROWTH at most. */
static void update_left(struct progress *p, long iteration, double now)
{
    double was = p->left - (double)(iteration - p->left_at);
    if (p->left < 0.0)
        p->left = now;
    else if (now >= 0.0)
        p->left = fmin(was + DAMPING * (now - was), GROWTH * was + GROWTH_FLOOR);
    else
        p->left = was;
    p->left = p->left > 0.0 ? p->left : 0.0;
    p->left_at = iteration;
}

static void draw(struct progress *p, long iteration, double norm, double elapsed_s)
{
    double rate =
        (log(norm) - p->mark_log_norm) / (double)(iteration - p->mark_iteration);
    double now = count_now(p, iteration, norm, rate);
    if (p->left >= 0.0 || now >= 0.0)
        update_left(p, iteration, now);
    int labelled = p->label && p->label[0];
    char line[512], eta[64];
    int n = snprintf(line, sizeof line, "  %s%siteration %ld  norm %.3e  elapsed %.1f s",
                     labelled ? p->label : "", labelled ? "  " : "", iteration, norm,
                     elapsed_s);
    long left = p->left >= 0.0 ? (long)ceil(p->left - 1e-6) : -1;
    if (left == 0 && n >= 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "  ~0 more to %s: any moment now",
                 p->target);
    else if (left > 0 && n >= 0 && (size_t)n < sizeof line) /* ETA: once timed a while */
        snprintf(line + n, sizeof line - (size_t)n, "  ~%ld more to %s%s%s", left,
                 p->target, elapsed_s >= ETA_FROM_S ? ", ETA " : "",
                 elapsed_s >= ETA_FROM_S
                     ? duration_text((double)left * elapsed_s / (double)iteration, eta,
                                     sizeof eta)
                     : "");
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

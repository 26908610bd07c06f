/*
 * stop_rule.h - the one stopping rule of every loop: the reference, the host
 * loop of the tiles, a lone GPU's batches, the multi-GPU batches and the loops on
 * chip (kernels/laplace_chip.cu, laplace_spread.cu) all count an iteration and decide with
 * stop_state_step() below, so they stop at the same iteration for the same reason.
 *
 * The inline part is plain C that also compiles as CUDA device code (HOST_DEVICE),
 * with no other header of the project, so that every layer may include it. The host
 * part (stop_rule.c) makes the rule from an update rule, combines the tiles' totals
 * into the norm in tile order and names the reasons.
 */
#ifndef LAPLACE_STOP_RULE_H
#define LAPLACE_STOP_RULE_H

#include <math.h>

/* Why a loop stopped; CONVERGED, MAX_ITER, DIVERGED and STAGNATED are the rule's. */
enum stop_reason {
    STOP_CONVERGED = 0,   /* the update norm fell below eps */
    STOP_MAX_ITER = 1,    /* --max-iter reached first */
    STOP_DIVERGED = 2,    /* the norm became NaN or infinite, or grew without bound */
    STOP_FAILED = 3,      /* a device call failed; see solve_result.error */
    STOP_INTERRUPTED = 4, /* a signal (Ctrl-C) asked to stop: the field is the last one */
    STOP_STAGNATED = 5,   /* the update became exactly 0 while the norm before it was
                             still >= eps: no site changed, the precision ran out */
};

/* The rule's numbers (stop_rule_make). */
struct stop_rule {
    double eps;
    long max_iter;
    long check_every;
    int norm_is_max;   /* the total is the norm (max); else sqrt(total) * norm_scale */
    double norm_scale; /* update_rule_norm_factor: 2^k of the square scale, times the
                          residual's scale */
};

/* Where a loop stands: what a finished run reports. */
struct stop_state {
    long iteration;      /* iterations done; field[iteration % 2] is the newest */
    long norm_iteration; /* iteration of the last norm */
    long norm_checks;    /* iterations at which the norm was computed */
    double norm;         /* the last norm */
    double first_norm;   /* the first norm (NAN before it), for the divergence test */
    int stopped;         /* 1 once the rule (or a signal) said stop */
    int reason;          /* an enum stop_reason, once stopped */
    int stagnant;        /* 1 while the norms are exactly 0 after one >= eps */
};

/* A norm this many times the first one means the iteration diverges. */
#define DIVERGENCE_GROWTH 1e8

#ifdef __CUDACC__
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

/* The state before the first iteration. */
static inline HOST_DEVICE struct stop_state stop_state_start(void)
{
    struct stop_state s = {0, 0, 0, 0.0, NAN, 0, STOP_CONVERGED, 0};
    return s;
}

/* Whether the convergence test is due at iteration k: every check_every, and at
 * max_iter, so that a run that stops there reports the norm it stopped with. Every
 * iteration (the default) is told first: a GPU has no 64-bit division instruction, and
 * the loops on chip take every iteration's decision in one lane, calling this twice
 * (here and in stop_state_step). Measured on an H100 without the remainder, float
 * 384^2 2.23 -> 2.15 us an iteration, 128^2 1.40 -> 1.37 (results/2026-11-27-regs). */
static inline HOST_DEVICE int stop_rule_wants_norm(const struct stop_rule *rule, long k)
{
    return rule->check_every == 1 || k % rule->check_every == 0 || k == rule->max_iter;
}

/* The norm from a total of block sums (0.0 + total: as the host adds tiles). */
static inline HOST_DEVICE double stop_rule_norm(const struct stop_rule *rule,
                                                double total)
{
    return rule->norm_is_max ? total : sqrt(0.0 + total) * rule->norm_scale;
}

/*
 * The decision after iteration k, counted into state: has_norm says whether
 * norm was computed at k (at check_every multiples, and wherever a monitor
 * wanted it). Diverged: a norm not finite, or DIVERGENCE_GROWTH times a positive
 * first norm; converged: a due norm below eps; max-iter: k reached max_iter.
 * A due norm of exactly 0 whose computed predecessor was >= eps (or was itself
 * such a 0) is named stagnated instead of converged: the update vanished because
 * the working precision cannot move any site, not because the norm fell through
 * eps. The name changes, never the iteration at which a run stops.
 * Returns state->stopped.
 */
static inline HOST_DEVICE int stop_state_step(const struct stop_rule *rule,
                                              struct stop_state *state, long k,
                                              int has_norm, double norm)
{
    state->iteration = k;
    if (has_norm) {
        state->stagnant =
            norm == 0.0 &&
            (state->stagnant || (state->norm_checks > 0 && state->norm >= rule->eps));
        state->norm = norm;
        state->norm_iteration = k;
        state->norm_checks++;
    }
    state->stopped = 1;
    if (has_norm && (!isfinite(norm) || (state->first_norm > 0 &&
                                         norm > DIVERGENCE_GROWTH * state->first_norm)))
        state->reason = STOP_DIVERGED;
    else if (has_norm && stop_rule_wants_norm(rule, k) && norm < rule->eps)
        state->reason = state->stagnant ? STOP_STAGNATED : STOP_CONVERGED;
    else if (k >= rule->max_iter)
        state->reason = STOP_MAX_ITER;
    else
        state->stopped = 0;
    if (has_norm && isnan(state->first_norm))
        state->first_norm = norm;
    return state->stopped;
}

/* A signal asked to stop after iteration k: the field of k is kept. */
static inline HOST_DEVICE void stop_state_interrupt(struct stop_state *state)
{
    state->stopped = 1;
    state->reason = STOP_INTERRUPTED;
}

#ifndef __CUDACC__
struct update_rule;

/* The rule of a loop: its tolerance, iteration limit and check interval, with the
 * norm's kind and scale taken from the update rule (fitted to the problem). */
struct stop_rule stop_rule_make(const struct update_rule *update, double eps,
                                long max_iter, long check_every);

/* The norm of an iteration from the tiles' totals of their block sums (one per
 * tile), combined in tile order: the same bits for any number of tiles. */
double stop_rule_combine(const struct stop_rule *rule, const double *totals, int count);

/* stop_state_step, then a signal (non-zero) that asked to stop: the rule's reason
 * wins when both fall on one iteration. Returns state->stopped. */
int stop_rule_decide(const struct stop_rule *rule, struct stop_state *state, long k,
                     int has_norm, double norm, int signal);

/* The reason in one word, as the CSV's stop column names it: converged, max-iter,
 * diverged, failed, interrupted, stagnated. */
const char *stop_rule_reason_name(enum stop_reason reason);

/* One line saying why a loop stopped, beginning with its name. */
const char *stop_rule_reason_text(enum stop_reason reason);
#endif

#endif

/*
 * stop_rule.c - the host side of the one stopping rule (stop_rule.h): the rule made
 * from an update rule, the norm combined from the tiles' totals, the decision with
 * a signal, and the reasons' names. The reference and the tiles' loop both decide
 * here, so they stop at the same iteration with the same norm.
 */
#include "problem/stop_rule.h"

#include "problem/update_rule.h"

struct stop_rule stop_rule_make(const struct update_rule *update, double eps,
                                long max_iter, long check_every)
{
    return (struct stop_rule){.eps = eps,
                              .max_iter = max_iter,
                              .check_every = check_every,
                              .norm_is_max = update->norm == NORM_MAX,
                              .norm_scale = update_rule_norm_factor(update)};
}

double stop_rule_combine(const struct stop_rule *rule, const double *totals, int count)
{
    enum norm_kind kind = rule->norm_is_max ? NORM_MAX : NORM_L2;
    double total = 0.0;
    for (int t = 0; t < count; t++)
        total = norm_combine(kind, total, totals[t]);
    return stop_rule_norm(rule, total);
}

int stop_rule_decide(const struct stop_rule *rule, struct stop_state *state, long k,
                     int has_norm, double norm, int signal)
{
    if (!stop_state_step(rule, state, k, has_norm, norm) && signal)
        stop_state_interrupt(state);
    return state->stopped;
}

const char *stop_rule_reason_name(enum stop_reason reason)
{
    static const char *names[] = {"converged", "max-iter",    "diverged",
                                  "failed",    "interrupted", "stagnated"};
    return reason >= STOP_CONVERGED && reason <= STOP_STAGNATED ? names[reason]
                                                                : "unknown";
}

const char *stop_rule_reason_text(enum stop_reason reason)
{
    switch (reason) {
    case STOP_CONVERGED:
        return "converged: the norm fell below eps";
    case STOP_MAX_ITER:
        return "max-iter: stopped at --max-iter without converging";
    case STOP_DIVERGED:
        return "diverged: the norm is not finite or grew without bound";
    case STOP_FAILED:
        return "failed";
    case STOP_INTERRUPTED:
        return "interrupted by a signal: the field is the last one reached";
    case STOP_STAGNATED:
        return "stagnated: no site changed before the norm fell below eps";
    }
    return "unknown";
}

/*
 * solve.c - the steps every solver takes alike (solve.h): the result's start,
 * when a norm is due, who is shown it, and the decision of the stop rule.
 */
#include "solve/solve.h"

#include <math.h>
#include <string.h>

#include "problem/update_rule.h"

void solve_result_start(struct solve_result *r)
{
    memset(r, 0, sizeof *r);
    r->final_norm = NAN;
    r->failed_device = -1;
    r->failed_rank = -1;
}

struct stop_rule solve_stop_rule(const struct solve_settings *s)
{
    return stop_rule_make(&s->tile.update_rule, s->eps, s->max_iter, s->check_every);
}

int solve_wants_norm(const struct solve_settings *s, const struct stop_rule *rule,
                     long iteration)
{
    if (stop_rule_wants_norm(rule, iteration))
        return 1;
    return s->monitor_every > 0 && iteration % s->monitor_every == 0;
}

void solve_note_norm(const struct solve_settings *s, long iteration, double norm,
                     double elapsed_s)
{
    if (s->monitor && s->monitor_every > 0 && iteration % s->monitor_every == 0)
        s->monitor(s->monitor_context, iteration, norm, elapsed_s);
    if (s->observe)
        s->observe(s->observe_context, iteration, norm, elapsed_s);
}

int solve_decide(const struct solve_settings *s, const struct stop_rule *rule,
                 struct stop_state *state, long k, int has_norm, double norm,
                 double elapsed_s, int signal)
{
    if (has_norm)
        solve_note_norm(s, k, norm, elapsed_s);
    return stop_rule_decide(rule, state, k, has_norm, norm, signal);
}

void solve_report_state(struct solve_result *r, const struct stop_state *state)
{
    r->iterations = state->iteration;
    r->norm_checks = state->norm_checks;
    r->final_norm = state->norm_checks ? state->norm : NAN;
    r->final_norm_iteration = state->norm_iteration;
    if (state->norm_checks > 0 && state->norm != 0.0) { /* called after each decision */
        r->nonzero_norm = state->norm;
        r->nonzero_iteration = state->norm_iteration;
    }
    if (state->stopped)
        r->reason = (enum stop_reason)state->reason;
}

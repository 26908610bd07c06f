/*
 * reference.c - the sequential solver, the test oracle.
 *
 * One sweep, for every interior site, in the design's order of additions:
 *     new(x,y) = 0.25 * (((old(x,y-1) + old(x-1,y)) + old(x+1,y)) + old(x,y+1))
 * and returns sum over sites of (new - old)^2, each square formed in the working
 * precision and added in double.
 */
#include "solve/reference.h"
#include "problem/update_rule.h"

#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "support/interrupt.h"

#define TEMPLATE "problem/reference_sweep.inc"
#include "problem/for_each_precision.inc"

/* The plain sweep; with the square scale 1 (every ordinary run) as a constant, so
 * that the compiler drops the multiply by it from the loop: that multiply cost 25%
 * of a float sweep here (the loop waits on its chain of additions). */
static double plain_sweep(const struct update_rule *rule, const struct field *old,
                          struct field *new_)
{
    const double scale = update_rule_square_scale(rule);
    long nx = old->nx, ny = old->ny;
    if (old->precision == PRECISION_FLOAT)
        return scale == 1
                   ? reference_sweep_float(nx, ny, old->data, new_->data, 1)
                   : reference_sweep_float(nx, ny, old->data, new_->data, (float)scale);
    return scale == 1 ? reference_sweep_double(nx, ny, old->data, new_->data, 1)
                      : reference_sweep_double(nx, ny, old->data, new_->data, scale);
}

/* One sweep of the rule from old into new_; returns the norm's total. */
static double sweep(const struct update_rule *rule, const struct problem_terms *terms,
                    const struct field *old, struct field *new_)
{
    if (update_rule_is_plain_jacobi(rule))
        return plain_sweep(rule, old, new_);
    if (old->precision == PRECISION_FLOAT)
        return general_sweep_float(old->nx, old->ny, rule, old->data, new_->data,
                                   terms->source.data, terms->fixed);
    return general_sweep_double(old->nx, old->ny, rule, old->data, new_->data,
                                terms->source.data, terms->fixed);
}

static int copy_field(const struct field *from, struct field *to)
{
    if (field_alloc(to, from->nx, from->ny, from->precision) != 0)
        return -1;
    memcpy(to->data, from->data,
           (size_t)from->nx * (size_t)from->ny * precision_size(from->precision));
    return 0;
}

/* Whether a snapshot of this iteration is wanted. */
static int snapshot_due(const struct solve_settings *s, long iteration)
{
    return s->snapshot && s->snapshot_every > 0 && iteration % s->snapshot_every == 0;
}

/* The loop: sweep, swap, norm, test; returns -1 when a snapshot failed. */
static int iterate(const struct solve_settings *s, const struct problem_terms *terms,
                   struct field **old, struct field **new_, struct solve_result *r)
{
    const struct update_rule *update = &s->tile.update_rule;
    const struct stop_rule stop_rule = solve_stop_rule(s);
    struct stop_state state = stop_state_start();
    double clock = omp_get_wtime();
    for (long iteration = 1;; iteration++) {
        double total = sweep(update, terms, *old, *new_);
        struct field *swap = *old;
        *old = *new_, *new_ = swap; /* old now holds the newest field */
        int has_norm = solve_wants_norm(s, &stop_rule, iteration);
        int stop = solve_decide(s, &stop_rule, &state, iteration, has_norm,
                                stop_rule_norm(&stop_rule, total),
                                omp_get_wtime() - clock, interrupt_requested());
        solve_report_state(r, &state);
        if (snapshot_due(s, iteration) && !(stop && r->reason == STOP_DIVERGED) &&
            s->snapshot(s->snapshot_context, iteration, *old, r->error, sizeof r->error))
            return r->reason = STOP_FAILED, -1;
        if (stop)
            return 0;
    }
}

int reference_solve(const struct problem *problem, const struct field *start,
                    const struct solve_settings *s, struct field *out,
                    struct solve_result *r)
{
    struct field a, b;
    struct problem_terms terms;
    double clock = omp_get_wtime();
    *out = (struct field){0};
    solve_result_start(r);
    r->reason = STOP_FAILED;
    if (problem_terms_build(problem, &terms, r->error, sizeof r->error) != 0)
        return -1;
    int rc = start ? copy_field(start, &a) : problem_initial_field(problem, &a);
    if (rc != 0 || copy_field(&a, &b) != 0) {
        field_free(&a);
        problem_terms_free(&terms);
        snprintf(r->error, sizeof r->error, "out of host memory for the lattice");
        return -1;
    }
    struct field *old = &a, *new_ = &b;
    struct solve_settings fitted = *s;
    update_rule_fit_norm(&fitted.tile.update_rule, problem, &terms);
    r->time_input_s = omp_get_wtime() - clock;
    clock = omp_get_wtime();
    rc = iterate(&fitted, &terms, &old, &new_, r);
    r->time_compute_s = omp_get_wtime() - clock;
    problem_terms_free(&terms);
    field_free(new_);
    if (rc != 0) {
        field_free(old);
        return -1;
    }
    *out = *old;
    return 0;
}

/*
 * update_rule.c - the rule every backend follows: the stencil's weights, the
 * relaxation factor and the norm (see update_rule.h for the arithmetic).
 */
#include "problem/update_rule.h"

#include <float.h>
#include <math.h>

/* Squares of the spacing; dx = lx / (nx - 1), the unit square when lx is unset. */
static void spacing_squared(const struct problem *p, double *dx2, double *dy2)
{
    double dx, dy;
    problem_spacing(p, &dx, &dy);
    *dx2 = dx * dx;
    *dy2 = dy * dy;
}

double update_rule_jacobi_radius(const struct problem *problem)
{
    double dx2, dy2;
    spacing_squared(problem, &dx2, &dy2);
    const double pi = acos(-1.0);
    double cx = dy2 / (2.0 * (dx2 + dy2)), cy = dx2 / (2.0 * (dx2 + dy2));
    return 2.0 * (cx * cos(pi / (double)(problem->nx - 1)) +
                  cy * cos(pi / (double)(problem->ny - 1)));
}

double update_rule_optimal_omega(const struct problem *problem)
{
    double rho = update_rule_jacobi_radius(problem);
    return 2.0 / (1.0 + sqrt(1.0 - rho * rho));
}

struct update_rule update_rule_make(const struct problem *problem, enum method method,
                                    double omega, enum norm_kind norm)
{
    double dx2, dy2, dx, dy;
    spacing_squared(problem, &dx2, &dy2);
    problem_spacing(problem, &dx, &dy);
    struct update_rule r = {
        .method = method,
        .norm = norm,
        .anisotropic = dx2 != dy2,
        .cx = dy2 / (2.0 * (dx2 + dy2)),
        .cy = dx2 / (2.0 * (dx2 + dy2)),
        .omega = 1.0,
        .has_source = problem->source[0] != '\0',
        .has_fixed = problem->region_count > 0,
    };
    if (method == METHOD_WEIGHTED)
        r.omega = omega;
    else if (method == METHOD_SOR)
        r.omega = omega > 0 ? omega : update_rule_optimal_omega(problem);
    if (norm == NORM_RESIDUAL) {
        /* r = (gs - u) (2/dx^2 + 2/dy^2) per site; the article's norm is
         * sqrt(dx dy sum r^2) / N over the N interior sites. */
        double inverse_factor = 2.0 / dx2 + 2.0 / dy2;
        r.norm_scale =
            inverse_factor * sqrt(dx * dy) / (double)problem_interior_sites(problem);
    }
    return r;
}

int update_rule_is_plain_jacobi(const struct update_rule *rule)
{
    return !rule->anisotropic && !rule->has_source && !rule->has_fixed &&
           rule->method == METHOD_JACOBI && rule->norm != NORM_MAX;
}

int update_rule_phases(const struct update_rule *rule)
{
    return rule->method == METHOD_SOR ? 2 : 1;
}

/* The least k >= 0 for which updates up to `largest` keep their scaled squares
 * within range (update_rule_fit_norm). An update is never past the largest finite
 * value of its precision, so k stays within 66 (float) or 556 (double), where
 * 2^-k is a normal number. */
static int norm_shift_for(enum precision precision, double largest, long sites)
{
    const double finite = precision == PRECISION_FLOAT ? FLT_MAX : DBL_MAX;
    largest = fmin(largest, finite);
    int k = 0;
    for (;; k++) {
        double e = ldexp(largest, -k); /* the largest scaled update */
        int square_fits = precision != PRECISION_FLOAT || e <= 0x1p62;
        if (square_fits && e * e * (double)sites <= 0x1p1000)
            return k;
    }
}

void update_rule_fit_norm(struct update_rule *rule, const struct problem *problem,
                          const struct problem_terms *terms)
{
    /* an update is new - old: twice the bound on |u| at most */
    double largest = 2.0 * problem_value_bound(problem, terms->source_max);
    rule->norm_shift = rule->norm == NORM_MAX
                           ? 0
                           : norm_shift_for(problem->precision, largest,
                                            problem_interior_sites(problem));
}

double update_rule_norm_factor(const struct update_rule *rule)
{
    return ldexp(rule->norm == NORM_RESIDUAL ? rule->norm_scale : 1.0, rule->norm_shift);
}

const char *method_name(enum method method)
{
    static const char *names[] = {"jacobi", "weighted", "sor"};
    return names[method];
}

const char *norm_name(enum norm_kind norm)
{
    static const char *names[] = {"l2", "max", "residual"};
    return names[norm];
}

/*
 * estimate.c - the expected iterations of a run (estimate.h). The slowest mode of
 * Jacobi on the lattice is v(i, j) = sx(i) sy(j), sx(i) = sqrt(2/(nx-1)) sin(pi i /
 * (nx-1)), of eigenvalue rho (update_rule_jacobi_radius). The interior starts at 0,
 * so the first update is c, the edges' and the source's share of a site's new
 * value, and the mode's share of it, A = |<c, v>|, is a sum along the four edges
 * (plus the source, sampled): A rho^(k-1) is that share of the k-th update.
 */
#include "problem/estimate.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

#include "problem/expression.h"

#define SOURCE_SAMPLES 256 /* the source is read at most 256 x 256 times */
#define THIN 4 /* a lattice this many times longer than wide: its modes along count */

/* sx(i) of a side of n sites. */
static double mode(long i, long n)
{
    const double pi = acos(-1.0);
    return sqrt(2.0 / (double)(n - 1)) * sin(pi * (double)i / (double)(n - 1));
}

/* The value of edge at (x, y): its formula's, or its number. */
static double edge_value(const struct problem *p, int edge, struct expression *f,
                         double x, double y)
{
    const double numbers[EDGE_COUNT] = {[EDGE_TOP] = p->top,
                                        [EDGE_BOTTOM] = p->bottom,
                                        [EDGE_LEFT] = p->left,
                                        [EDGE_RIGHT] = p->right};
    return f ? expression_eval(f, x, y) : numbers[edge];
}

/*
 * <edge values, the mode along the edge> for the interior sites beside it, and
 * the sum and count of |value| over the edge's sites (for the mean edge value).
 */
static double edge_share(const struct problem *p, int edge, double *sum_abs, long *count,
                         double *largest)
{
    struct expression *f = NULL;
    char err[256];
    int across = edge == EDGE_LEFT || edge == EDGE_RIGHT; /* the edge runs along y */
    long n = across ? p->ny : p->nx, readable = 1;
    if (p->edge_formula[edge][0] &&
        expression_parse(p->edge_formula[edge], &f, err, sizeof err) != 0)
        readable = 0; /* refused before any estimate; 0 here */
    double share = 0.0;
    for (long s = 1; readable && s < n - 1; s++) {
        long i = across ? (edge == EDGE_LEFT ? 0 : p->nx - 1) : s;
        long j = across ? s : (edge == EDGE_BOTTOM ? 0 : p->ny - 1);
        double v = edge_value(p, edge, f, problem_site_x(p, i), problem_site_y(p, j));
        if (!isfinite(v))
            continue;
        share += v * mode(s, n);
        *sum_abs += fabs(v);
        *largest = fmax(*largest, fabs(v));
        ++*count;
    }
    expression_free(f);
    return share;
}

/* <c, v> of the edges: each edge's share times the weight and the mode's value
 * at the row or column beside it. Sets *mean_edge to the mean |edge value| and
 * *largest to the largest. */
static double edges_share(const struct problem *p, const struct update_rule *rule,
                          double *mean_edge, double *largest)
{
    double sum_abs = 0.0, share = 0.0;
    long count = 0, nx = p->nx, ny = p->ny;
    share +=
        rule->cy * mode(1, ny) * edge_share(p, EDGE_BOTTOM, &sum_abs, &count, largest);
    share +=
        rule->cy * mode(ny - 2, ny) * edge_share(p, EDGE_TOP, &sum_abs, &count, largest);
    share += rule->cx * mode(1, nx) * edge_share(p, EDGE_LEFT, &sum_abs, &count, largest);
    share += rule->cx * mode(nx - 2, nx) *
             edge_share(p, EDGE_RIGHT, &sum_abs, &count, largest);
    *mean_edge = count > 0 ? sum_abs / (double)count : 0.0;
    return share;
}

/* <b, v> of the source's term, from a sample of at most SOURCE_SAMPLES^2 sites. */
static double source_share(const struct problem *p)
{
    struct expression *f;
    char err[256];
    if (!p->source[0] || expression_parse(p->source, &f, err, sizeof err) != 0)
        return 0.0;
    long step_x = (p->nx - 2 + SOURCE_SAMPLES - 1) / SOURCE_SAMPLES,
         step_y = (p->ny - 2 + SOURCE_SAMPLES - 1) / SOURCE_SAMPLES;
    double share = 0.0;
    for (long j = 1; j < p->ny - 1; j += step_y)
        for (long i = 1; i < p->nx - 1; i += step_x) {
            double b = problem_source_term(
                p, expression_eval(f, problem_site_x(p, i), problem_site_y(p, j)));
            if (isfinite(b))
                share += b * mode(i, p->nx) * mode(j, p->ny);
        }
    expression_free(f);
    return share * (double)(step_x * step_y);
}

/* The radius of the rule's iteration, from Jacobi's mu: weighted Jacobi's
 * 1 - omega (1 -+ mu), red-black SOR's (Young's formula, omega - 1 from the
 * optimum on). */
static double method_radius(const struct update_rule *rule, double mu)
{
    double w = rule->omega;
    if (rule->method == METHOD_WEIGHTED)
        return fmax(fabs(1.0 - w * (1.0 - mu)), fabs(1.0 - w * (1.0 + mu)));
    if (rule->method != METHOD_SOR)
        return mu;
    double root = w * w * mu * mu - 4.0 * (w - 1.0);
    if (root <= 0.0)
        return w - 1.0;
    double r = (w * mu + sqrt(root)) / 2.0;
    return r * r;
}

/* 1 + ln(from / to) / -ln(radius): the iteration whose update falls below to. */
static long iterations_to(double from, double to, double radius)
{
    if (!(from > to) || !(radius > 0.0))
        return 1;
    if (!(radius < 1.0))
        return 0;
    double k = 1.0 + ceil(log(from / to) / -log(radius));
    return k < 1e18 ? (long)k : 0;
}

/* The radius of the rule's iteration on a mode of Jacobi's eigenvalue mu. */
static double mode_radius(const struct update_rule *rule, double mu)
{
    if (rule->method == METHOD_WEIGHTED)
        return fabs(1.0 - rule->omega * (1.0 - mu));
    return rule->method == METHOD_SOR ? method_radius(rule, fabs(mu)) : fabs(mu);
}

/*
 * The norm of the k-th update made by two opposite edges (first: the one at site 0
 * along; last: the one at site n - 1), in the slowest mode across them and every
 * mode along: the edge's share of those modes, a_first and a_last, sits on the row
 * beside it. On a lattice much longer than wide the modes along are many and of
 * nearly the slowest radius, so together they hold far more of the norm than the
 * slowest mode alone (5 x 100000: 62 iterations, where that mode alone would say 1).
 */
static double modes_along_norm(const struct update_rule *rule, long n, long across_n,
                               double c_along, double c_across, double a_first,
                               double a_last, long k)
{
    const double pi = acos(-1.0);
    double across = c_across * cos(pi / (double)(across_n - 1)), sum = 0.0;
    for (long m = 1; m < n - 1; m++) {
        double mu = 2.0 * (across + c_along * cos(pi * (double)m / (double)(n - 1)));
        double a = a_first * mode(m, n) + a_last * mode(m * (n - 2), n);
        double r = pow(mode_radius(rule, mu), (double)(k - 1));
        sum += a * a * r * r;
    }
    return sqrt(sum);
}

/* The first k from `from` (the slowest mode's count, which the modes along only
 * add to) at which the norm of the four edges' modes along (modes_along_norm, along
 * y from the top and bottom edges, along x from the left and right ones), times
 * scale, falls below eps; 0 when none is found below 2^40. A search of steps that
 * double from `from`: a few sums over the sides where the slowest mode decides. */
static long modes_along_iterations(const struct problem *p,
                                   const struct update_rule *rule, double eps,
                                   double scale, long from)
{
    double unused = 0.0, top, bottom, left, right;
    long count = 0;
    bottom = rule->cy * edge_share(p, EDGE_BOTTOM, &unused, &count, &unused);
    top = rule->cy * edge_share(p, EDGE_TOP, &unused, &count, &unused);
    left = rule->cx * edge_share(p, EDGE_LEFT, &unused, &count, &unused);
    right = rule->cx * edge_share(p, EDGE_RIGHT, &unused, &count, &unused);
#define NORM_AT(k)                                                                       \
    (scale *                                                                             \
     hypot(modes_along_norm(rule, p->ny, p->nx, rule->cy, rule->cx, bottom, top, k),     \
           modes_along_norm(rule, p->nx, p->ny, rule->cx, rule->cy, left, right, k)))
    long low = from - 1, high = from;
    for (long step = 1; !(NORM_AT(high) < eps); step *= 2) { /* >= eps at low */
        if (high >= (1L << 40))
            return 0;
        low = high, high = from + step;
    }
    if (high == from)
        return from;
    while (high - low > 1) {
        long middle = low + (high - low) / 2;
        if (NORM_AT(middle) < eps)
            high = middle;
        else
            low = middle;
    }
#undef NORM_AT
    return high;
}

/*
 * Whether weighted Jacobi's first step is surely below eps while the correction it
 * is omega times of is not: the run would stop at its first iteration, "converged",
 * with the field barely moved. The first update is at most the largest edge value at
 * each site beside an edge (cx + cy = 1/2, two edges at a corner), without source;
 * the correction's norm is at least its slowest mode's share (lowest).
 */
static int first_step_too_small(const struct problem *p, const struct update_rule *rule,
                                double eps, double largest, double lowest)
{
    double beside = 2.0 * (double)(p->nx - 2) + 2.0 * (double)(p->ny - 2);
    double most = rule->norm == NORM_MAX ? largest
                  : rule->norm == NORM_RESIDUAL
                      ? largest * sqrt(beside) * rule->norm_scale
                      : largest * sqrt(beside);
    return rule->method == METHOD_WEIGHTED && !p->source[0] && eps > 0.0 &&
           rule->omega * most < eps && lowest >= eps;
}

void estimate_make(const struct problem *p, const struct update_rule *rule, double eps,
                   struct estimate *e)
{
    double mean_edge, vmax = mode((p->nx - 1) / 2, p->nx) * mode((p->ny - 1) / 2, p->ny);
    double largest = 0.0;
    double share = fabs(edges_share(p, rule, &mean_edge, &largest) + source_share(p));
    double w = rule->method == METHOD_JACOBI ? 1.0 : rule->omega;
    double norm_factor = rule->norm == NORM_MAX        ? vmax
                         : rule->norm == NORM_RESIDUAL ? rule->norm_scale
                                                       : 1.0;
    *e = (struct estimate){.radius = method_radius(rule, update_rule_jacobi_radius(p)),
                           .regions = p->region_count > 0};
    if (e->regions)
        return; /* their modes are not the lattice's: no estimate */
    e->first_norm = w * share * norm_factor;
    e->step_too_small = first_step_too_small(p, rule, eps, largest, share * norm_factor);
    e->at_rest = mean_edge == 0.0 && !p->source[0];
    if (e->at_rest) {
        e->to_eps = e->expected = eps > 0.0 ? 1 : 0;
        return;
    }
    e->to_eps = eps > 0.0 ? iterations_to(e->first_norm, eps, e->radius) : 0;
    long longer = p->nx > p->ny ? p->nx : p->ny, shorter = p->nx + p->ny - longer;
    if (e->to_eps > 0 && rule->norm != NORM_MAX && longer >= THIN * shorter) {
        long along = modes_along_iterations(p, rule, eps, w * norm_factor, e->to_eps);
        e->to_eps = along == 0 ? 0 : along > e->to_eps ? along : e->to_eps;
    }
    if (mean_edge > 0.0) { /* a quarter ulp of the mean edge value */
        int digits = p->precision == PRECISION_FLOAT ? FLT_MANT_DIG : DBL_MANT_DIG;
        double quarter_ulp = ldexp(1.0, ilogb(mean_edge) - (digits - 1) - 2);
        e->stagnation = iterations_to(w * share * vmax, quarter_ulp, e->radius);
    }
    e->stagnates = e->stagnation > 0 && (e->to_eps == 0 || e->stagnation < e->to_eps);
    e->expected = e->stagnates ? e->stagnation : e->to_eps;
}

double estimate_norm_at(const struct estimate *e, long k)
{
    if (e->regions || !(e->first_norm > 0.0) || k < 1)
        return 0.0;
    return e->first_norm * pow(e->radius, (double)(k - 1));
}

const char *estimate_count_text(long count, char *buf, size_t n)
{
    if (count < 10000)
        snprintf(buf, n, "about %ld", count);
    else if (count < 1000000)
        snprintf(buf, n, "about %.0f thousand", count / 1e3);
    else
        snprintf(buf, n, "about %.1f million", count / 1e6);
    return buf;
}

/*
 * update_rule.h - how every backend updates a site and measures a sweep: the
 * method (Jacobi, weighted Jacobi, red-black SOR), the 5-point stencil's
 * weights, and the stopping norm. Built once per run from the problem and the
 * method; the backends read it and never decide these things themselves.
 *
 * The Gauss-Seidel value of a site from its neighbours, in the working
 * precision and in exactly this order of operations:
 *     plain   (dx = dy):  gs = 0.25 * (((south + west) + east) + north)   [+ b]
 *     general (dx != dy): gs = (cx * (west + east) + cy * (south + north)) [+ b]
 * where cx = dy^2 / (2 (dx^2 + dy^2)), cy = dx^2 / (2 (dx^2 + dy^2)) and, with a
 * source f of  laplacian(u) = f,  b = -f dx^2 dy^2 / (2 (dx^2 + dy^2)), stored
 * per site (problem_source_term, problem.h). The new value is gs (Jacobi), or
 * omega * gs + (1 - omega) * old (weighted Jacobi and SOR). Sites of fixed
 * regions keep their value.
 *
 * SOR sweeps in two half-sweeps: phase 0 updates the red sites (x + y even, in
 * whole-lattice coordinates) from the old field; phase 1 updates the black
 * sites from the red values phase 0 just wrote. Both write the new field, so
 * each site is written once per iteration and the old field stays intact.
 */
#ifndef LAPLACE_UPDATE_RULE_H
#define LAPLACE_UPDATE_RULE_H

#include <math.h>

#include "problem/problem.h"

enum method { METHOD_JACOBI, METHOD_WEIGHTED, METHOD_SOR };

enum norm_kind {
    NORM_L2,       /* sqrt(sum (new - old)^2): the lecture's update norm */
    NORM_MAX,      /* max |new - old| */
    NORM_RESIDUAL, /* ||f - laplacian(u)||, scaled as in the HIP/OpenMP article */
};

struct update_rule {
    enum method method;
    enum norm_kind norm;
    int anisotropic;   /* 0: the plain stencil (dx = dy); 1: cx and cy (dx != dy) */
    double cx, cy;     /* weights of west + east and of south + north */
    double omega;      /* relaxation factor; 1 for Jacobi */
    int has_source;    /* a per-site term b exists */
    int has_fixed;     /* a per-site mask of fixed sites exists */
    double norm_scale; /* residual: the norm is sqrt(total) * norm_scale */
    int norm_shift;    /* k of the square scale 2^-k below, set for each solve by
                          update_rule_fit_norm; 0 for every ordinary problem */
};
/* A rule of all zeros is the course's plain Jacobi with the l2 norm. */

/* The rule for a problem, a method and a norm. omega is ignored for Jacobi;
 * for SOR, omega <= 0 means the optimal omega (update_rule_optimal_omega). */
struct update_rule update_rule_make(const struct problem *problem, enum method method,
                                    double omega, enum norm_kind norm);

/* rho = 2 (cx cos(pi/(nx-1)) + cy cos(pi/(ny-1))): the spectral radius of plain
 * Jacobi on the lattice (without regions), whose slowest mode is
 * sin(pi x/lx) sin(pi y/ly); estimate.c and the optimal omega below use it. */
double update_rule_jacobi_radius(const struct problem *problem);

/* omega_opt = 2 / (1 + sqrt(1 - rho^2)), rho = 2 (cx cos(pi/(nx-1)) + cy cos(pi/(ny-1)))
 * the Jacobi spectral radius; for dx = dy this is 4 / (2 + sqrt(4 - (c_x + c_y)^2)). */
double update_rule_optimal_omega(const struct problem *problem);

/* 1 when the rule is the course's plain Jacobi with the l2 or residual norm:
 * the fast kernels of every backend apply. */
int update_rule_is_plain_jacobi(const struct update_rule *rule);

/* Half-sweeps per iteration: 2 for SOR (red, black), else 1. */
int update_rule_phases(const struct update_rule *rule);

/*
 * A block accumulates, per site and in double, (double)(e * e) with e = d * 2^-k
 * and the square formed in the working precision (l2, residual:
 * update_square_float/double), or fabs((double)d) (max),
 * where d = new - old (l2, max) or gs - old (residual). Two partial results
 * combine by a sum, or for the max norm by the larger, where a NaN wins so that
 * a diverged site is never hidden. The norm is then sqrt(total) * 2^k (times
 * norm_scale for the residual): update_rule_norm_factor.
 *
 * The square scale 2^-k (k = norm_shift) keeps huge but finite fields from
 * overflowing the norm: a float update of 2^64 has no float square, and
 * 1e160 squared is past the double range (--top 1e20 in float, 1e160 in double
 * used to stop as "diverged"). k is chosen once per solve from a bound on the
 * field (update_rule_fit_norm): 0 unless the data could overflow, and 0 always
 * for the max norm. Multiplying by a power of two is exact and a correctly
 * rounded sqrt of x 4^k is sqrt(x) 2^k, so a scaled norm has the same bits as the
 * unscaled one would have had wherever that one did not overflow (barring
 * squares that the scale pushes below the smallest normal number), and with
 * k = 0 (a multiply by 1) nothing changes at all.
 */
/* The square of an update as the norm adds it (above); every backend's one formula. */
static inline double update_square_float(float d, float scale)
{
    const float e = d * scale;
    return (double)(e * e);
}

static inline double update_square_double(double d, double scale)
{
    const double e = d * scale;
    return e * e;
}

/* 2^-k, what an update is multiplied by before it is squared (above). */
static inline double update_rule_square_scale(const struct update_rule *rule)
{
    return ldexp(1.0, -rule->norm_shift);
}

static inline double norm_combine(enum norm_kind norm, double a, double b)
{
    if (norm != NORM_MAX)
        return a + b;
    return (a != a || a > b) ? a : b;
}

/* Sets rule->norm_shift for a solve of the problem whose per-site terms are built
 * (problem_terms_build): the smallest k >= 0 for which updates of twice
 * problem_value_bound(), times 2^-k, have a float square under 2^124 (float) and
 * fill the double sum of all interior sites to at most 2^1000. 0 for the max norm.
 * Both limits leave room (an update 4 times larger in float, 2^12 times in double)
 * for SOR's over-relaxation, which may overshoot the bound. */
void update_rule_fit_norm(struct update_rule *rule, const struct problem *problem,
                          const struct problem_terms *terms);

/* What sqrt(total) is multiplied by to make the l2 or residual norm: 2^k, times
 * norm_scale for the residual: the stop rule (stop_rule_make) takes it, so every
 * path makes the norm from a total alike (stop_rule_norm). */
double update_rule_norm_factor(const struct update_rule *rule);

const char *method_name(enum method method);
const char *norm_name(enum norm_kind norm);

#endif

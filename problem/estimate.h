/*
 * estimate.h - how many iterations a run is expected to take, before it runs: from
 * the spectral radius of its method on its lattice and the share of the slowest
 * mode in its first update (no field is made: O(nx + ny) work, a sample of the
 * source). An estimate, never a promise, and none with fixed regions (they change
 * the lattice's modes: heater.ini's edges are all 0, its heat comes from a region);
 * where the working precision runs out first the run stagnates.
 *
 *   norm at iteration k  ~  A rho^(k-1)       A: the slowest mode's share of the
 *                                                first norm, rho: the radius
 *   to eps:       k = 1 + ln(A / eps) / -ln(rho)
 *   stagnation:   when the slowest mode's largest site update falls below a
 *                 quarter of an ulp of the field's mean edge value (a fit to the
 *                 course table in float, 16^2 to 1024^2 within 0.8 to 1)
 */
#ifndef LAPLACE_ESTIMATE_H
#define LAPLACE_ESTIMATE_H

#include "problem/problem.h"
#include "problem/update_rule.h"

struct estimate {
    double radius;      /* of the method's iteration on the lattice */
    double first_norm;  /* A: the slowest mode's share of the first norm */
    long to_eps;        /* iterations until the norm < eps; 0: eps is 0 (never) */
    long stagnation;    /* iterations until no site changes any more; 0: never */
    long expected;      /* the first of the two that is set; 0: neither */
    int stagnates;      /* 1 when stagnation comes first (the report says so) */
    int regions;        /* 1: fixed regions, no estimate (expected is 0) */
    int step_too_small; /* 1: weighted Jacobi's first step, omega times a correction
                           >= eps, is below eps: the run would stop at once */
    int at_rest;        /* 1: every edge 0 and no source: the field starts at the
                           solution, the first update is 0 (expected is 1) */
};

/* The estimate of a problem solved by rule down to eps. */
void estimate_make(const struct problem *problem, const struct update_rule *rule,
                   double eps, struct estimate *e);

/* The norm expected at iteration k: A rho^(k-1) (0 without an estimate). The live
 * line counts to it where the precision stagnates (k: the stagnation's). */
double estimate_norm_at(const struct estimate *e, long k);

/* "about 3.4 million", "about 920": an iteration count as people read it. */
const char *estimate_count_text(long count, char *buf, size_t n);

#endif

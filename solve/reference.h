/*
 * reference.h - the plain sequential Jacobi solver (--backend serial): short,
 * obviously right, and the oracle every other backend is tested against.
 */
#ifndef LAPLACE_REFERENCE_H
#define LAPLACE_REFERENCE_H

#include "problem/problem.h"
#include "solve/solve.h"

/*
 * Solves the problem from its initial field, or from *start if start is not
 * NULL (used by tests to start from any field). The same stop rule as the tiles' loop
 * (stop_rule.h, through solve.h).
 * Returns 0, or -1 when memory runs out.
 */
int reference_solve(const struct problem *problem, const struct field *start,
                    const struct solve_settings *settings, struct field *out,
                    struct solve_result *result);

#endif

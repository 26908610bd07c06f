/*
 * exact.h - how far a solved field is from a known solution u(x, y) (--exact): the
 * largest error over the interior sites and the discrete L2 norm of the error,
 * sqrt(dx dy sum (u_ij - u(x_i, y_j))^2), which for a second-order scheme falls
 * four times each time the spacing halves.
 */
#ifndef LAPLACE_EXACT_H
#define LAPLACE_EXACT_H

#include <stddef.h>

#include "problem/problem.h"

struct exact_error {
    double max; /* max |u_ij - u(x_i, y_j)| over the interior sites */
    double l2;  /* sqrt(dx dy sum of the squared errors) */
};

/* The error of field against the formula u(x, y). Returns 0, or -1 with err set
 * (the formula does not parse). */
int exact_error(const struct problem *p, const char *formula, const struct field *field,
                struct exact_error *out, char *err, size_t n);

#endif

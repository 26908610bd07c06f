/*
 * exact.h - how far a solved field is from a known solution u(x, y) (--exact): the
 * largest error over the interior sites and the discrete L2 norm of the error,
 * sqrt(dx dy sum (u_ij - u(x_i, y_j))^2), which for a second-order scheme falls
 * four times each time the spacing halves.
 *
 * The sum is added in one order whatever holds the field: each row's squared errors
 * west to east into that row's sum, then the rows' sums bottom to top. So the ranks
 * of an MPI run, each holding a part (mpi/part_exact.h), carry a row on from the
 * rank west of them and find the same bits as one process.
 */
#ifndef LAPLACE_EXACT_H
#define LAPLACE_EXACT_H

#include <stddef.h>

#include "problem/problem.h"

struct exact_error {
    double max; /* max |u_ij - u(x_i, y_j)| over the interior sites */
    double l2;  /* sqrt(dx dy sum of the squared errors) */
};

/* The error of field (the whole lattice) against the formula u(x, y). Returns 0, or
 * -1 with err set (the formula does not parse, or no memory). */
int exact_error(const struct problem *p, const char *formula, const struct field *field,
                struct exact_error *out, char *err, size_t n);

/*
 * The errors of the interior sites of rect (lattice sites; field, whole or a part,
 * holds them): the squared errors of row y added west to east onto row_sum[y] (one
 * value per lattice row: 0, or the sum of the same row's sites west of rect), the
 * largest error into *largest if larger. 0, or -1 with err set (the formula does
 * not parse).
 */
int exact_error_rows(const struct problem *p, const char *formula,
                     const struct field *field, struct lattice_rect rect, double *row_sum,
                     double *largest, char *err, size_t n);

/* The formula u(x, y) is finite at every interior site of rect, where the error
 * will be measured: 0, or -1 with err naming the first site where it is not (or
 * why it does not parse), so that --exact is refused before the run. */
int exact_check(const struct problem *p, const char *formula, struct lattice_rect rect,
                char *err, size_t n);

/* The error from every interior row's complete sum (row_sum: one a lattice row),
 * added bottom to top, and the largest error. */
struct exact_error exact_error_total(const struct problem *p, const double *row_sum,
                                     double largest);

#endif

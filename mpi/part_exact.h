/*
 * part_exact.h - --exact under MPI: the error of the field against the known
 * solution, each rank measuring its own part (rank_part.h) and the ranks reducing
 * their numbers to the bits one process finds over the whole field (part_exact.c).
 */
#ifndef LAPLACE_PART_EXACT_H
#define LAPLACE_PART_EXACT_H

#include <stddef.h>

#include "mpi/rank_part.h"
#include "problem/exact.h"

/* The error of the field, of which part holds rp->own, against the formula u(x, y):
 * every rank calls it and gets the same *out, equal bit for bit to exact_error's on
 * the whole field. 0, or -1 on every rank with the first failing rank's message in
 * err. */
int part_exact_error(const struct problem *p, const char *formula,
                     const struct field *part, const struct rank_part *rp,
                     struct exact_error *out, char *err, size_t n);

#endif

/*
 * problem.h - the lattice and its boundary values, and the field that lives on it.
 *
 * The lattice has nx * ny sites, boundary included. Site (x, y) is stored at
 * index x + nx * y: x grows to the right, y grows towards the top edge.
 *
 *        y = ny-1   T T T T T T T      T: top value
 *                   L . . . . . R      L: left value, R: right value
 *                   L . . . . . R      .: interior, starts at 0
 *        y = 0      B B B B B B B      B: bottom value
 *                 x = 0       x = nx-1
 *
 * The four corners belong to the top and bottom rows. The 5-point stencil never
 * reads a corner, so this choice does not change the solution.
 */
#ifndef LAPLACE_PROBLEM_H
#define LAPLACE_PROBLEM_H

#include <stddef.h>

enum precision { PRECISION_FLOAT, PRECISION_DOUBLE };

struct problem {
    long nx, ny;                     /* sites per direction, boundary included */
    double top, bottom, left, right; /* Dirichlet values of the four edges */
    enum precision precision;        /* working precision of every backend */
};

/* A whole-lattice field in the working precision, in host memory. */
struct field {
    long nx, ny;
    enum precision precision;
    void *data; /* float or double, nx * ny values */
};

size_t precision_size(enum precision precision);
const char *precision_name(enum precision precision);

/* Allocates an nx * ny field of zeros; returns 0, or -1 when out of memory. */
int field_alloc(struct field *field, long nx, long ny, enum precision precision);
void field_free(struct field *field);

double field_get(const struct field *field, long x, long y);
void field_set(struct field *field, long x, long y, double value);

/* Largest |a - b| over all sites; the fields must have the same shape. */
double field_max_difference(const struct field *a, const struct field *b);

/* 1 when the two fields hold the same bits at every site, else 0. */
int field_bit_identical(const struct field *a, const struct field *b);

/* Allocates the initial field of the problem: boundary values, interior 0. */
int problem_initial_field(const struct problem *problem, struct field *field);

/* Sites updated by one sweep (the interior). */
long problem_interior_sites(const struct problem *problem);

#endif

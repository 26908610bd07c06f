/*
 * field.h - a whole-lattice field in host memory, in the working precision (float
 * or double), and what is done to one whole: allocate, read and write a site,
 * compare two (field.c).
 */
#ifndef LAPLACE_FIELD_H
#define LAPLACE_FIELD_H

#include <stddef.h>

enum precision { PRECISION_FLOAT, PRECISION_DOUBLE };

/* The field's name in the outputs: the .vti's point array, the PNG's colour bar. */
#define FIELD_NAME "u"

/* A field in the working precision, in host memory: the whole lattice, or the
 * rectangle of it that one MPI rank holds (its part), whose first value is the
 * lattice's site (x0, y0). */
struct field {
    long nx, ny; /* the values per direction: the lattice's, or the part's */
    long x0, y0; /* the lattice site of the first value: 0, 0 for a whole field */
    enum precision precision;
    void *data; /* float or double, nx * ny values */
};

size_t precision_size(enum precision precision);
const char *precision_name(enum precision precision);

/* Allocates an nx * ny field of zeros; returns 0, or -1 when out of memory. */
int field_alloc(struct field *field, long nx, long ny, enum precision precision);
void field_free(struct field *field);

/* Allocates a part of nx * ny zeros whose first value is lattice site (x0, y0). */
int field_alloc_at(struct field *field, long x0, long y0, long nx, long ny,
                   enum precision precision);

/* 1 when lattice site (x, y) lies in the field (whole, or a part). */
int field_holds(const struct field *field, long x, long y);

/* A value by its place in the array (x, y from the field's first value). */
double field_get(const struct field *field, long x, long y);
void field_set(struct field *field, long x, long y, double value);

/* Largest |a - b| over all sites; the fields must have the same shape. A NaN
 * difference anywhere makes it NaN. */
double field_max_difference(const struct field *a, const struct field *b);

/* The same from largest on, over b's sites against a's sites of the same lattice
 * site (their origins x0, y0): b a block of a rank's part, a the part. */
double field_max_difference_from(const struct field *a, const struct field *b,
                                 double largest);

/* 1 when the two fields hold the same bits at every site, else 0. */
int field_bit_identical(const struct field *a, const struct field *b);

#endif

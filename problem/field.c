/*
 * field.c - the whole-lattice field in host memory (field.h): its value type,
 * allocation, one site read and written, and two fields compared.
 */
#include "problem/field.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t precision_size(enum precision precision)
{
    return precision == PRECISION_FLOAT ? sizeof(float) : sizeof(double);
}

const char *precision_name(enum precision precision)
{
    return precision == PRECISION_FLOAT ? "float" : "double";
}

int field_alloc(struct field *field, long nx, long ny, enum precision precision)
{
    return field_alloc_at(field, 0, 0, nx, ny, precision);
}

int field_alloc_at(struct field *field, long x0, long y0, long nx, long ny,
                   enum precision precision)
{
    field->x0 = x0;
    field->y0 = y0;
    field->nx = nx;
    field->ny = ny;
    field->precision = precision;
    field->data = calloc((size_t)nx * (size_t)ny, precision_size(precision));
    return field->data ? 0 : -1;
}

void field_free(struct field *field)
{
    free(field->data);
    field->data = NULL;
}

int field_holds(const struct field *field, long x, long y)
{
    return x >= field->x0 && x < field->x0 + field->nx && y >= field->y0 &&
           y < field->y0 + field->ny;
}

double field_get(const struct field *field, long x, long y)
{
    size_t i = (size_t)x + (size_t)field->nx * (size_t)y;
    if (field->precision == PRECISION_FLOAT)
        return ((const float *)field->data)[i];
    return ((const double *)field->data)[i];
}

void field_set(struct field *field, long x, long y, double value)
{
    size_t i = (size_t)x + (size_t)field->nx * (size_t)y;
    if (field->precision == PRECISION_FLOAT)
        ((float *)field->data)[i] = (float)value;
    else
        ((double *)field->data)[i] = value;
}

double field_max_difference_from(const struct field *a, const struct field *b,
                                 double largest)
{
    for (long y = 0; y < b->ny; y++)
        for (long x = 0; x < b->nx; x++) {
            double d = fabs(field_get(a, b->x0 + x - a->x0, b->y0 + y - a->y0) -
                            field_get(b, x, y));
            if (d > largest || isnan(d)) /* once NaN, NaN */
                largest = d;
        }
    return largest;
}

double field_max_difference(const struct field *a, const struct field *b)
{
    return field_max_difference_from(a, b, 0.0);
}

int field_bit_identical(const struct field *a, const struct field *b)
{
    if (a->nx != b->nx || a->ny != b->ny || a->precision != b->precision)
        return 0;
    size_t bytes = (size_t)a->nx * (size_t)a->ny * precision_size(a->precision);
    return memcmp(a->data, b->data, bytes) == 0;
}

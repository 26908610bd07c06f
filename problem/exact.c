/*
 * exact.c - the error of a field against a known solution (exact.h): per row, then
 * the rows in order, so that parts of the field give one process's bits.
 */
#include "problem/exact.h"

#include <math.h>
#include <stdlib.h>

#include "problem/expression.h"
#include "support/error.h"

/* The interior sites of rect: i from x0 to x1 - 1, j from y0 to y1 - 1. */
static void interior_of(const struct problem *p, struct lattice_rect rect, long *x0,
                        long *x1, long *y0, long *y1)
{
    *x0 = rect.x0 > 1 ? rect.x0 : 1, *y0 = rect.y0 > 1 ? rect.y0 : 1;
    *x1 = rect.x0 + rect.nx < p->nx - 1 ? rect.x0 + rect.nx : p->nx - 1;
    *y1 = rect.y0 + rect.ny < p->ny - 1 ? rect.y0 + rect.ny : p->ny - 1;
}

int exact_error_rows(const struct problem *p, const char *formula,
                     const struct field *field, struct lattice_rect rect, double *row_sum,
                     double *largest, char *err, size_t n)
{
    struct expression *u;
    if (expression_parse(formula, &u, err, n) != 0)
        return -1;
    long x0, x1, y0, y1;
    interior_of(p, rect, &x0, &x1, &y0, &y1);
    for (long j = y0; j < y1; j++) {
        double sum = row_sum[j], y = problem_site_y(p, j);
        for (long i = x0; i < x1; i++) {
            double want = expression_eval(u, problem_site_x(p, i), y);
            double error = fabs(field_get(field, i - field->x0, j - field->y0) - want);
            *largest = error > *largest ? error : *largest;
            sum += error * error;
        }
        row_sum[j] = sum;
    }
    expression_free(u);
    return 0;
}

int exact_check(const struct problem *p, const char *formula, struct lattice_rect rect,
                char *err, size_t n)
{
    struct expression *u;
    if (expression_parse(formula, &u, err, n) != 0)
        return -1;
    long x0, x1, y0, y1;
    interior_of(p, rect, &x0, &x1, &y0, &y1);
    int rc = 0;
    for (long j = y0; j < y1 && rc == 0; j++)
        for (long i = x0; i < x1 && rc == 0; i++) {
            double x = problem_site_x(p, i), y = problem_site_y(p, j);
            if (!isfinite(expression_eval(u, x, y)))
                rc = error_set(err, n, "exact = %s (--exact) is not finite at x = %g, y = %g",
                               formula, x, y);
        }
    expression_free(u);
    return rc;
}

struct exact_error exact_error_total(const struct problem *p, const double *row_sum,
                                     double largest)
{
    double dx, dy, sum = 0.0;
    problem_spacing(p, &dx, &dy);
    for (long j = 1; j < p->ny - 1; j++)
        sum += row_sum[j];
    return (struct exact_error){.max = largest, .l2 = sqrt(dx * dy * sum)};
}

int exact_error(const struct problem *p, const char *formula, const struct field *field,
                struct exact_error *out, char *err, size_t n)
{
    double largest = 0.0, *row_sum = calloc((size_t)p->ny, sizeof *row_sum);
    if (!row_sum)
        return error_set(err, n, "out of host memory for the exact error");
    int rc =
        exact_error_rows(p, formula, field, problem_whole(p), row_sum, &largest, err, n);
    if (rc == 0)
        *out = exact_error_total(p, row_sum, largest);
    free(row_sum);
    return rc;
}

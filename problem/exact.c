/*
 * exact.c - the error of a field against a known solution (exact.h).
 */
#include "problem/exact.h"

#include <math.h>

#include "problem/expression.h"

int exact_error(const struct problem *p, const char *formula, const struct field *field,
                struct exact_error *out, char *err, size_t n)
{
    struct expression *u;
    double dx, dy, sum = 0.0, largest = 0.0;
    if (expression_parse(formula, &u, err, n) != 0)
        return -1;
    problem_spacing(p, &dx, &dy);
    for (long j = 1; j < p->ny - 1; j++)
        for (long i = 1; i < p->nx - 1; i++) {
            double want = expression_eval(u, problem_site_x(p, i), problem_site_y(p, j));
            double error = fabs(field_get(field, i, j) - want);
            largest = error > largest ? error : largest;
            sum += error * error;
        }
    expression_free(u);
    *out = (struct exact_error){.max = largest, .l2 = sqrt(dx * dy * sum)};
    return 0;
}

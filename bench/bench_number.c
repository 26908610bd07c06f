/*
 * bench_number.c - a number of laplace --bench that may be missing, in a table
 * ("-") and in a CSV (an empty field); bench_number.h.
 */
#include "bench_number.h"

#include <math.h>

const char *bench_number(char *s, size_t n, double v, int decimals)
{
    if (isfinite(v))
        snprintf(s, n, "%.*f", decimals, v);
    else
        snprintf(s, n, "-");
    return s;
}

void bench_number_csv(FILE *out, double v, int decimals)
{
    if (isfinite(v))
        fprintf(out, ",%.*f", decimals, v);
    else
        fputc(',', out);
}

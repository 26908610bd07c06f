/*
 * bench_number.c - a number of laplace --bench that may be missing, in a table
 * ("-") and in a CSV (an empty field), and a tiny time; bench_number.h.
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

const char *bench_number_us(char *s, size_t n, double seconds)
{
    double us = seconds * 1e6;
    if (!isfinite(us))
        snprintf(s, n, "- us");
    else if (us >= 0.1)
        snprintf(s, n, "%.2f us", us);
    else if (us >= 0.001)
        snprintf(s, n, "%.3g us", us);
    else
        snprintf(s, n, "under 0.001 us");
    return s;
}

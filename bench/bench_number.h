/*
 * bench_number.h - how laplace --bench writes a number that may be missing (a
 * failed run, nothing to compare with): in a table and in a CSV; and a time of
 * microseconds that may be tiny.
 */
#ifndef LAPLACE_BENCH_NUMBER_H
#define LAPLACE_BENCH_NUMBER_H

#include <stddef.h>
#include <stdio.h>

/* v with decimals digits in a table, or "-" when v is not a number; returns s. */
const char *bench_number(char *s, size_t n, double v, int decimals);

/* ",v" with decimals digits in a CSV, or "," (an empty field) when v is not a
 * number. */
void bench_number_csv(FILE *out, double v, int decimals);

/* seconds as microseconds: "%.2f us" from 0.1 us up (as ever), below it three
 * significant digits ("0.00312 us"), and "under 0.001 us" for 0 or less (a fitted
 * cost the measurement cannot tell from nothing), never "0.00 us"; returns s. */
const char *bench_number_us(char *s, size_t n, double seconds);

#endif

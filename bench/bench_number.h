/*
 * bench_number.h - how laplace --bench writes a number that may be missing (a
 * failed run, nothing to compare with): in a table and in a CSV.
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

#endif

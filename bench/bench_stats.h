/*
 * bench_stats.h - the statistics the bench takes of its repeated timings (the
 * ceilings and the sweep).
 */
#ifndef LAPLACE_BENCH_STATS_H
#define LAPLACE_BENCH_STATS_H

/* The median of n values (reorders them). */
double bench_stats_median(double *values, int n);

#endif

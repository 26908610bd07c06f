/*
 * bench.h - laplace --bench: the hardware ceilings, then the standard matrix of
 * runs (bench_plan.h, bench_report.h), then the lattice sweep (bench_sweep.h);
 * tables on stdout, every run of the matrix in results/bench-<gpu>-<date>.csv and
 * the sweep in ...-sweep.csv (written again after each lattice). Ctrl-C stops it
 * after the run under way: the part running writes its CSV with the rows done and
 * says where it stopped; the status is 130 (128 + the signal).
 *
 * Environment:
 *   LAPLACE_BENCH_QUICK=1   a tiny matrix and sweep and 16 MiB copies: the whole
 *                           bench in seconds, to test it end to end (not for numbers)
 *   LAPLACE_BENCH_DIR=DIR   where the CSVs go (default results)
 *   LAPLACE_BENCH_ONLY=P    run one part after the ceilings: matrix or sweep
 *                           (unset or empty: both)
 */
#ifndef LAPLACE_BENCH_H
#define LAPLACE_BENCH_H

#include <stddef.h>
#include <time.h>

#include "settings/config.h"

/* DIR/bench-<gpu>-<YYYY-MM-DD>.csv, the GPU's name with '-' for spaces ("cpu"
 * when gpu_name is NULL or empty). */
void bench_file_name(char *path, size_t n, const char *dir, const char *gpu_name,
                     time_t when);

/* laplace --bench: uses only c's --devices and --quiet. Prints the table (unless
 * quiet) and its errors ("laplace: ..."); returns the exit status. */
int bench_run(const struct config *c);

#endif

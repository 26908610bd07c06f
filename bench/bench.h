/*
 * bench.h - laplace --bench: the hardware ceilings, then the standard matrix of
 * runs, then the lattice sweep (bench_sweep.h); tables on stdout, every run of the
 * matrix in results/bench-<gpu>-<date>.csv and the sweep in ...-sweep.csv.
 *
 * The planning parts (the matrix, iteration counts, the largest square, the
 * file name, the CSV header) are public so that the tests can check them on a
 * machine without a GPU.
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
#include <stdio.h>
#include <time.h>

#include "settings/config.h"

#define BENCH_MAX_ENTRIES 160

/* What the matrix is planned for. */
struct bench_machine {
    int gpus;              /* GPUs the bench uses; 0: the CPU part only */
    size_t gpu_free_bytes; /* the least free memory among them */
    size_t host_bytes;     /* physical host memory */
    int cores;             /* host cores: the host tiles' "every core" */
    int quick;             /* 1: the tiny matrix of LAPLACE_BENCH_QUICK */
};

/* One configuration of the matrix; each is run twice. */
struct bench_entry {
    const char *group;    /* scaling, kernel, block, reduce or cpu */
    enum backend backend; /* BACKEND_GPU or BACKEND_CPU */
    enum precision precision;
    long n;                       /* an n x n lattice */
    int gpus;                     /* the first gpus GPUs of the bench; 0 on the CPU */
    int partition_x, partition_y; /* 0 x 0: auto (on the CPU: every core) */
    const char *kernel;           /* a name of kernel_variant_names */
    int block_x, block_y;         /* 0 x 0: auto */
    enum reduce_mode reduce;
    long iterations;
};

/* The largest n (a multiple of 1024) whose two n x n fields fit in 90% of the
 * free memory of one GPU; 0 when not even 1024 fits. */
long bench_largest_fit(size_t gpu_free_bytes, enum precision precision);

/* The largest square the matrix runs: the fit above, capped so that the host
 * can hold the field and the set-up stays short (see bench.c); 0 if none. */
long bench_largest_square(const struct bench_machine *m, enum precision precision);

/* Iterations for an n x n run: about 0.4 s of work on one GPU at 4 TB/s, rounded
 * to 1, 2 or 5 times a power of ten; the same on every machine. */
long bench_iterations(long n, enum precision precision);

/* Fills entries (at most max) with the matrix for the machine; returns the count.
 * Every 2- or 4-GPU entry comes after the 1-GPU entry it is compared with. */
int bench_matrix(const struct bench_machine *m, struct bench_entry *entries, int max);

/* The entry that entries[i] is compared with: the 1-GPU scaling run of the same
 * size and precision; -1 when there is none (the CPU row, or no such run). */
int bench_baseline(const struct bench_entry *entries, int count, int i);

/* The estimated wall time of an entry's two runs, set-up included, in seconds; of
 * one run. */
double bench_estimate_s(const struct bench_entry *e);
double bench_estimate_run_s(const struct bench_entry *e);

/* The CSV header: DESIGN.md's columns, then the bench's own. */
void bench_csv_header(FILE *out);

/* DIR/bench-<gpu>-<YYYY-MM-DD>.csv, the GPU's name with '-' for spaces ("cpu"
 * when gpu_name is NULL or empty). */
void bench_file_name(char *path, size_t n, const char *dir, const char *gpu_name,
                     time_t when);

/* laplace --bench: uses only c's --devices and --quiet. Prints the table (unless
 * quiet) and its errors ("laplace: ..."); returns the exit status. */
int bench_run(const struct config *c);

#endif

/*
 * bench_plan.h - what the matrix of laplace --bench will run, decided before any
 * device is touched: the machine it is planned for, one configuration (an entry),
 * the nominal machine the iteration counts are chosen for, the sizes that fit, the
 * iteration counts, the matrix, the 1-GPU run each entry is compared with and the
 * estimated duration. Public so that the tests check it on a machine without a GPU.
 */
#ifndef LAPLACE_BENCH_PLAN_H
#define LAPLACE_BENCH_PLAN_H

#include <stddef.h>

#include "settings/config.h"

#define BENCH_MAX_ENTRIES 160

/* The nominal machine the iteration counts are chosen for, the same everywhere so
 * that results of different machines compare run for run. */
#define NOMINAL_GPU_BYTES_S 4e12 /* per GPU */
#define NOMINAL_LATENCY_S 10e-6  /* per iteration: launch, partial sums, stopping test */
#define NOMINAL_THREAD_BYTES_S 10e9   /* one host thread (the host sweep's 1 thread) */
#define NOMINAL_THREAD_LATENCY_S 1e-6 /* per iteration on the host */

#define BENCH_RUNS 2           /* runs of each configuration of the matrix */
#define BENCH_TARGET_RUN_S 0.4 /* compute time of a 1-GPU run on the nominal machine */

/* What the matrix is planned for. */
struct bench_plan_machine {
    int gpus;              /* GPUs the bench uses; 0: the CPU part only */
    size_t gpu_free_bytes; /* the least free memory among them */
    size_t host_bytes;     /* physical host memory */
    int cores;             /* host cores: the host tiles' "every core" */
    int quick;             /* 1: the tiny matrix of LAPLACE_BENCH_QUICK */
};

/* One configuration of the matrix; each is run twice. */
struct bench_plan_entry {
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
long bench_plan_largest_fit(size_t gpu_free_bytes, enum precision precision);

/* The largest square the matrix runs: the fit above, capped so that the host
 * can hold the field and the set-up stays short (see bench_plan.c); 0 if none. */
long bench_plan_largest_square(const struct bench_plan_machine *m,
                               enum precision precision);

/* Iterations for an n x n run: about 0.4 s of work on one GPU at 4 TB/s, rounded
 * to 1, 2 or 5 times a power of ten; the same on every machine. */
long bench_plan_iterations(long n, enum precision precision);

/* Iterations for an n x n run of about seconds at bytes_s (one read and one write
 * of each site) plus latency_s per iteration, rounded to 1, 2 or 5 times a power of
 * ten; at least 10. */
long bench_plan_iterations_for(long n, enum precision precision, double seconds,
                               double bytes_s, double latency_s);

/* Whether two n x n fields fit in 90% of a GPU's free memory; whether one fits in an
 * eighth of the host's (bench_plan_largest_square says why an eighth). */
int bench_plan_fits_gpu(size_t gpu_free_bytes, long n, enum precision precision);
int bench_plan_fits_host(size_t host_bytes, long n, enum precision precision);

/* A configuration with the bench's defaults: kernel and block auto, host reduce;
 * on the GPUs the squarest layout of gpus tiles, on the host every core (0 x 0). */
struct bench_plan_entry bench_plan_entry_default(const char *group, enum backend backend,
                                                 enum precision precision, long n,
                                                 int gpus, long iterations);

/* The largest lattice of the scaling group's fixed sizes (16384; LAPLACE_BENCH_QUICK:
 * 256), where the layouts and the summary's targets are measured; the lattice of
 * the CPU baseline (4096; quick: 256). */
long bench_plan_top_scaling_n(const struct bench_plan_machine *m);
long bench_plan_cpu_n(const struct bench_plan_machine *m);

/* Fills entries (at most max) with the matrix for the machine; returns the count.
 * Every 2- or 4-GPU entry comes after the 1-GPU entry it is compared with. */
int bench_plan_matrix(const struct bench_plan_machine *m,
                      struct bench_plan_entry *entries, int max);

/* The entry that entries[i] is compared with: the 1-GPU scaling run of the same
 * size and precision; -1 when there is none (the CPU row, or no such run). */
int bench_plan_baseline(const struct bench_plan_entry *entries, int count, int i);

/* The estimated wall time of an entry's two runs, set-up included, in seconds; of
 * one run. */
double bench_plan_estimate_s(const struct bench_plan_entry *e);
double bench_plan_estimate_run_s(const struct bench_plan_entry *e);

#endif

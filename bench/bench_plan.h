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
 * on the GPUs gpus tiles stacked in rows (1 x gpus), on the host every core (0 x 0). */
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

/* What one run costs: a set-up (fixed, and per GiB of one field: the initial
 * values, scatter, upload, download, gather) and per iteration a latency and a rate
 * of sweep traffic (report_sweep_bytes). */
struct bench_plan_cost {
    double setup_s, setup_s_per_gib;
    double latency_s, bytes_s;
    int measured; /* 1: fitted to runs on this machine; 0: nominal or derived */
};

/* The costs the bench's duration is estimated from, per kind of run and precision
 * (indexed by enum precision: a host sweep is not bound by its bytes alone, so
 * float and double are measured apart): one GPU (an entry on g GPUs sweeps at g
 * times its rate), the host on every core and on one thread (t threads sweep at t
 * times one thread's rate, at most every core's). */
struct bench_plan_costs {
    struct bench_plan_cost gpu[2], host_all[2], host_one[2];
};

/* The nominal machine's costs (the iteration counts' machine, and set-ups as an
 * H200 at 16384^2 took them): what the estimate uses until the bench measures. */
struct bench_plan_costs bench_plan_costs_nominal(void);

/* The lattices the costs are measured on (bench.c): a small one (latency and fixed
 * set-up) and one larger than the caches (rate and set-up per GiB). */
enum {
    BENCH_PROBE_SMALL_N = 256,
    BENCH_PROBE_LARGE_N = 4096,
    BENCH_QUICK_PROBE_LARGE_N = 512, /* LAPLACE_BENCH_QUICK */
    BENCH_PROBE_REPEATS = 3,         /* each timed this often, the median kept */
};

/* A measured run: its lattice, iterations, wall time (set-up included) and compute
 * time. */
struct bench_plan_probe {
    long n;
    enum precision precision;
    long iterations;
    double wall_s, compute_s;
};

/* The cost that explains two runs of one kind, a small and a large lattice: the
 * set-up a line through their set-ups against the field's GiB, the iteration a line
 * through their times per iteration against the sweep's bytes; a negative part
 * (noise) is taken as 0. */
struct bench_plan_cost bench_plan_cost_fit(const struct bench_plan_probe *small,
                                           const struct bench_plan_probe *large);

/* The estimated wall time of an entry's two runs, set-up included, in seconds; of
 * one run. */
double bench_plan_estimate_s(const struct bench_plan_costs *k,
                             const struct bench_plan_entry *e);
double bench_plan_estimate_run_s(const struct bench_plan_costs *k,
                                 const struct bench_plan_entry *e);

#endif

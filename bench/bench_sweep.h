/*
 * bench_sweep.h - the lattice sweep of laplace --bench: from which lattice on do
 * all the devices beat one? Square lattices 128^2 ... 16384^2, float, Jacobi, the
 * norm every iteration, on one device and on all of them, in microseconds per
 * iteration. The planning parts and the crossover are public for the tests.
 */
#ifndef LAPLACE_BENCH_SWEEP_H
#define LAPLACE_BENCH_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "bench.h"

#define BENCH_SWEEP_MAX 8 /* lattices: 128^2, 256^2, ..., 16384^2 */

/* Runs of every point: untimed warm-ups, then timed ones whose median is the point
 * (an odd count, so that the median is one of the runs: its row goes to the CSV). */
#define SWEEP_WARMUPS 1
#define SWEEP_RUNS 5

/* What the sweep runs on a machine. */
struct bench_sweep_plan {
    enum backend backend; /* BACKEND_GPU, or BACKEND_CPU: the host tiles */
    int devices;          /* of the "all" side: GPUs, or host threads */
    int count;            /* lattices, ascending */
    struct bench_entry one[BENCH_SWEEP_MAX]; /* 1 GPU, or 1 host thread (1x1) */
    struct bench_entry all[BENCH_SWEEP_MAX]; /* every GPU, or every core */
    const char *skipped;                     /* why nothing runs, or NULL */
};

/*
 * The sweep for the machine: on the GPUs when there are two or more, else on the
 * host tiles (1 thread against every core, as the bench without GPUs runs its CPU
 * part); skipped (count 0, skipped set) with fewer than two cores too. Lattices
 * whose fields do not fit (bench_fits_gpu, bench_fits_host) are left out, and the
 * larger ones with them. Returns the count of lattices.
 */
int bench_sweep_plan(const struct bench_machine *m, struct bench_sweep_plan *p);

/* Iterations of an n x n float run of the sweep: about 0.1 s of work on one
 * nominal device (a GPU at 4 TB/s + 10 us per iteration, or a host thread at
 * 10 GB/s + 1 us), rounded to 1, 2 or 5 times a power of ten, at least 10. */
long bench_sweep_iterations(long n, enum backend backend);

/*
 * The crossover of a sweep of count lattices in ascending order, given the
 * microseconds per iteration on one device and on all of them: the index of the
 * smallest lattice from which all are faster than one at it and at every larger
 * lattice; -1 when they are not faster at the largest. A point that failed (NAN)
 * counts as not faster.
 */
int bench_sweep_crossover(const double *one_us, const double *all_us, int count);

/* The sweep's CSV, named after the matrix's: DIR/bench-<gpu>-<date>-sweep.csv. */
void bench_sweep_file_name(char *path, size_t n, const char *bench_csv);

/* The sweep CSV's header: DESIGN.md's columns, then the sweep's own. */
void bench_sweep_csv_header(FILE *out);

#endif

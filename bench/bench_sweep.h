/*
 * bench_sweep.h - the lattice sweep of laplace --bench: how close one device comes
 * to its floor, and from which lattice on all the devices beat one. Square lattices
 * 128^2 ... 16384^2, float, Jacobi, the norm every iteration, in microseconds per
 * iteration, against the floor (the sweep's bytes at the copy bandwidth measured in
 * the same bench); with two or more devices also on all of them. The planning
 * parts, the floor and the crossover are public for the tests.
 *
 * The sweep runs nothing itself: bench.c runs each point's warm-ups and timed runs
 * into the places the sweep gives (bench_sweep_slot), as it runs the matrix; the
 * sweep takes their median, prints its table and crossover and writes its CSV,
 * again after each lattice, so that a sweep that a signal stops keeps its rows.
 */
#ifndef LAPLACE_BENCH_SWEEP_H
#define LAPLACE_BENCH_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "bench_plan.h"
#include "bench_state.h"

#define BENCH_SWEEP_MAX 8 /* lattices: 128^2, 256^2, ..., 16384^2 */

/* Runs of every point: untimed warm-ups, then timed ones whose median is the point
 * (an odd count, so that the median is one of the runs: its row goes to the CSV). */
#define SWEEP_WARMUPS 1
#define SWEEP_RUNS 5

/* What the sweep runs on a machine. */
struct bench_sweep_plan {
    enum backend backend; /* BACKEND_GPU, or BACKEND_CPU: the host tiles */
    int devices;          /* of the "all" side: GPUs, or host threads */
    int alone;            /* 1: one GPU, measured against its floor only (no "all") */
    int two;              /* 1: also on 2 GPUs (a machine of more than two) */
    int count;            /* lattices, ascending */
    struct bench_plan_entry one[BENCH_SWEEP_MAX];    /* 1 GPU, or 1 host thread (1x1) */
    struct bench_plan_entry all[BENCH_SWEEP_MAX];    /* every GPU, or every core */
    struct bench_plan_entry on_two[BENCH_SWEEP_MAX]; /* 2 GPUs (1x2), where two */
    const char *skipped;                             /* why nothing runs, or NULL */
};

/*
 * The sweep for the machine: on the GPUs when there are two or more (1 GPU against
 * every GPU, and against 2 where there are more than two: each stacked in rows, as
 * --partition auto lays them); on the one GPU alone, against its floor, when there is
 * one; else on the host tiles (1 thread against every core, as the bench without GPUs
 * runs its CPU part), skipped (count 0, skipped set) with a single core. Lattices
 * whose fields do not fit (bench_plan_fits_gpu, bench_plan_fits_host) are left out, and
 * the larger ones with them. Returns the count of lattices.
 */
int bench_sweep_plan(const struct bench_plan_machine *m, struct bench_sweep_plan *p);

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

/* The points of a sweep as its sentences read them: per lattice the side, each
 * side's median and timed runs (us per iteration; NAN: failed). */
struct bench_sweep_points {
    int count;
    const long *n;
    const double *us[2]; /* [BENCH_SWEEP_ONE] one device, [BENCH_SWEEP_ALL] the devices
                            compared with it (all, or 2 GPUs) */
    const double (*runs[2])[SWEEP_RUNS]; /* every timed run of each point */
    const char *one, *all;               /* "1 GPU", "2 GPUs" */
};

/* The crossover's sentence: "crossover X^2: ALL are faster than ONE at every size
 * from X^2 up (k of m sizes faster)", or why there is none. */
void bench_sweep_crossover_text(const struct bench_sweep_points *p, char *text, size_t n);

/* The sizes where all were not faster than one, said apart from the crossover,
 * each with both medians and the spread (least to most) of their runs, and whether
 * those spreads overlap: "slower at 8192^2 (2 GPUs 13 us/it, runs 12.8-13.4; 1 GPU
 * 12.3, runs 12.1-12.6: apart)", or "slower at no size". */
void bench_sweep_slower_text(const struct bench_sweep_points *p, char *text, size_t n);

/* The floor of an n x n float sweep, in microseconds per iteration: its bytes (one
 * read and one write of every interior site, report_sweep_bytes) at copy_gbps, the
 * copy bandwidth measured (read + written, 1e9 bytes/s). */
double bench_sweep_floor_us(long n, double copy_gbps);

/* Whether the two n x n float fields fit in a cache of l2_bytes (0: unknown): the
 * lattices whose floor lies on chip, below the copy bandwidth's. */
int bench_sweep_on_chip(long n, size_t l2_bytes);

/* The sweep's CSV, named after the matrix's: DIR/bench-<gpu>-<date>-sweep.csv. */
void bench_sweep_file_name(char *path, size_t n, const char *bench_csv);

/* The sweep CSV's header: DESIGN.md's columns, then the sweep's own. */
void bench_sweep_csv_header(FILE *out);

/* ---- a sweep under way ---------------------------------------------------- */

/* The sides of a point: one device, all of them, and 2 GPUs of more (plan.two). */
enum { BENCH_SWEEP_ONE, BENCH_SWEEP_ALL, BENCH_SWEEP_TWO, BENCH_SWEEP_SIDES };

/* A sweep under way: its plan, its runs and their medians, its CSV. */
struct bench_sweep;

/* The sides the sweep runs: 2 (ONE, ALL), 3 (and TWO) on more than two GPUs, or 1
 * (ONE) on one GPU alone; they are the first that many of the enum. */
int bench_sweep_sides(const struct bench_sweep *s);

/* Plans the sweep for b->machine. When nothing can run, says why and sets *out
 * to NULL; else sets it to a new sweep, writes its CSV (named after b->csv_path,
 * never over an earlier file) with no row yet and prints its plan and its table's
 * header. An exit status, err set on failure. */
int bench_sweep_open(struct bench_state *b, struct bench_sweep **out, char *err,
                     size_t n);

/* The estimated wall time of the whole sweep, warm-ups included (from b->costs). */
double bench_sweep_estimate_s(const struct bench_sweep *s);

/* The lattices of the sweep; the entry of a side (BENCH_SWEEP_ONE, _ALL, _TWO) at
 * lattice i. */
int bench_sweep_count(const struct bench_sweep *s);
const struct bench_plan_entry *bench_sweep_entry(const struct bench_sweep *s, int side,
                                                 int i);

/* Where run r of a point goes: r from -SWEEP_WARMUPS (the warm-ups, overwritten)
 * to SWEEP_RUNS - 1 (the timed runs). */
struct bench_state_run *bench_sweep_slot(struct bench_sweep *s, int side, int i, int r);

/* Every timed run of a point is in: its median is taken. A point never done
 * counts as failed (NAN, no CSV row). */
void bench_sweep_point_done(struct bench_sweep *s, int side, int i);

/* Lattice i's sides ran (the lattices go in order): its table line, and the CSV
 * written again, whole (a temporary renamed over it), with its rows. An exit
 * status, err set on failure. */
int bench_sweep_lattice_done(struct bench_sweep *s, int i, char *err, size_t n);

/* The end, or a signal's stop after the lattices done: the crossover of those
 * lattices on stdout (after "interrupted by SIGINT at N^2: the rows above are the
 * lattices done" when some were not), the CSV written with it, s freed; an exit
 * status, err set on failure. */
int bench_sweep_close(struct bench_sweep *s, char *err, size_t n);

/* Frees s without writing (after a failure). */
void bench_sweep_free(struct bench_sweep *s);

#endif

/*
 * bench_internal.h - what bench.c shares with bench_sweep.c and nothing else: the
 * state of one laplace --bench, the nominal machine the iteration counts are
 * planned for, and the bench's one way of running a configuration.
 */
#ifndef LAPLACE_BENCH_INTERNAL_H
#define LAPLACE_BENCH_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "bench.h"
#include "bench_ceilings.h"
#include "config.h"
#include "report.h"
#include "run.h"

/* The nominal machine the iteration counts are chosen for, the same everywhere so
 * that results of different machines compare run for run. */
#define NOMINAL_GPU_BYTES_S 4e12 /* per GPU */
#define NOMINAL_LATENCY_S 10e-6  /* per iteration: launch, partial sums, stopping test */
#define NOMINAL_THREAD_BYTES_S 10e9   /* one host thread (the host sweep's 1 thread) */
#define NOMINAL_THREAD_LATENCY_S 1e-6 /* per iteration on the host */

/* The parts of the bench (LAPLACE_BENCH_ONLY selects one). */
enum { BENCH_PART_MATRIX = 1, BENCH_PART_SWEEP = 2 };

/* The better run of an entry: what the table, the summary and the speed-ups use. */
struct best {
    double compute_s; /* NAN when the entry failed */
    double gbps;
    int tiles; /* GPUs, or host threads */
};

struct bench {
    int quiet;
    int parts;                       /* BENCH_PART_MATRIX | BENCH_PART_SWEEP */
    int devices[CONFIG_MAX_DEVICES]; /* the bench's GPU i is device devices[i] */
    int gpus;
    char gpu_name[256]; /* of devices[0]; "" without GPU */
    struct ceilings ceilings;
    struct bench_machine machine;
    struct bench_entry entries[BENCH_MAX_ENTRIES];
    struct best best[BENCH_MAX_ENTRIES];
    int count;
    int failed;       /* entries of the matrix whose runs failed */
    int sweep_points; /* points of the lattice sweep planned (both sides) */
    int sweep_failed; /* of them, those whose runs failed */
    FILE *csv;        /* written under csv_temp's name until it is whole */
    struct output_temp csv_temp;
    char csv_path[CONFIG_PATH_MAX]; /* the matrix's CSV; the sweep's is named after it */
};

/* One run: its configuration, plan and report (which points into both). */
struct bench_one_run {
    struct run_plan plan; /* its partition freed after the run; its config kept */
    struct run_report report;
};

/* Prints on stdout unless --quiet, at once: a long bench shows its progress. */
void bench_say(const struct bench *b, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Iterations for an n x n run of about seconds at bytes_s (one read and one write
 * of each site) plus latency_s per iteration, rounded to 1, 2 or 5 times a power of
 * ten; at least 10. */
long bench_iterations_for(long n, enum precision precision, double seconds,
                          double bytes_s, double latency_s);

/* Whether two n x n fields fit in 90% of a GPU's free memory; whether one fits in an
 * eighth of the host's (bench_largest_square says why an eighth). */
int bench_fits_gpu(size_t gpu_free_bytes, long n, enum precision precision);
int bench_fits_host(size_t host_bytes, long n, enum precision precision);

/* A configuration with the bench's defaults: kernel and block auto, host reduce;
 * on the GPUs the squarest layout of gpus tiles, on the host every core (0 x 0). */
struct bench_entry bench_entry_default(const char *group, enum backend backend,
                                       enum precision precision, long n, int gpus,
                                       long iterations);

/* The laplace command line that makes the same run as the entry. */
void bench_entry_command(const struct bench *b, const struct bench_entry *e, char *s,
                         size_t n);

/* Solves the entry once into *r; 0, or -1 with err set. */
int bench_run_once(const struct bench *b, const struct bench_entry *e,
                   struct bench_one_run *r, char *err, size_t n);

/* The machine and the ceilings, each line after prefix ("# " atop a CSV). */
void bench_print_machine(FILE *out, const char *prefix, const struct bench *b);

/* ",v" with decimals digits in a CSV, or "," (an empty field) when v is not a number;
 * v with decimals digits in a table, or "-". */
void bench_csv_number(FILE *out, double v, int decimals);
const char *bench_number(char *s, size_t n, double v, int decimals);

/* The lattice sweep (bench_sweep.c): plans it for b->machine, runs it, prints its
 * table and crossover and writes its CSV next to b->csv_path; an exit status. */
int bench_sweep_run(struct bench *b, char *err, size_t n);

#endif

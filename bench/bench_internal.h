/*
 * bench_internal.h - what the files of bench/ share and nothing else: the state
 * of one laplace --bench, the nominal machine the iteration counts are planned
 * for, the bench's one way of running a configuration (bench.c), the planning
 * helpers (bench_plan.c) and the printing of the matrix (bench_report.c).
 */
#ifndef LAPLACE_BENCH_INTERNAL_H
#define LAPLACE_BENCH_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "bench.h"
#include "bench_ceilings.h"
#include "settings/config.h"
#include "report.h"
#include "run.h"

/* The nominal machine the iteration counts are chosen for, the same everywhere so
 * that results of different machines compare run for run. */
#define NOMINAL_GPU_BYTES_S 4e12 /* per GPU */
#define NOMINAL_LATENCY_S 10e-6  /* per iteration: launch, partial sums, stopping test */
#define NOMINAL_THREAD_BYTES_S 10e9   /* one host thread (the host sweep's 1 thread) */
#define NOMINAL_THREAD_LATENCY_S 1e-6 /* per iteration on the host */

#define BENCH_RUNS 2           /* runs of each configuration of the matrix */
#define BENCH_TARGET_RUN_S 0.4 /* compute time of a 1-GPU run on the nominal machine */

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
    struct plan plan; /* its partition freed after the run; its config kept */
    struct run_report report;
};

/* ---- bench.c ---- */

/* Prints on stdout unless --quiet, at once: a long bench shows its progress. */
void bench_say(const struct bench *b, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* The laplace command line that makes the same run as the entry. */
void bench_entry_command(const struct bench *b, const struct bench_entry *e, char *s,
                         size_t n);

/* Solves the entry once into *r; 0, or -1 with err set. */
int bench_run_once(const struct bench *b, const struct bench_entry *e,
                   struct bench_one_run *r, char *err, size_t n);

/* ---- bench_plan.c ---- */

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

/* The largest lattice of the scaling group's fixed sizes (16384; LAPLACE_BENCH_QUICK:
 * 256), where the layouts and the summary's targets are measured; the lattice of
 * the CPU baseline (4096; quick: 256). */
long bench_top_scaling_n(const struct bench_machine *m);
long bench_cpu_n(const struct bench_machine *m);

/* ---- bench_report.c ---- */

/* The machine and the ceilings, each line after prefix ("# " atop a CSV). */
void bench_print_machine(FILE *out, const char *prefix, const struct bench *b);

/* The largest square and the matrix: how many configurations, how long. */
void bench_print_matrix_plan(FILE *out, const char *prefix, const struct bench *b);

/* The table's header on stdout; one line for entry i: its better run r. */
void bench_table_header(const struct bench *b);
void bench_table_row(const struct bench *b, int i, const struct run_report *r);

/* One row of b->csv for run repeat (1, 2) of entry i: DESIGN.md's columns, then
 * the bench's (bench_csv_header); command is the entry's command line. */
void bench_csv_row(const struct bench *b, int i, const struct run_report *r, int repeat,
                   const char *command);

/* The targets of the speed issue, from the better runs in b->best. */
void bench_summary(const struct bench *b);

/* ",v" with decimals digits in a CSV, or "," (an empty field) when v is not a number;
 * v with decimals digits in a table, or "-". */
void bench_csv_number(FILE *out, double v, int decimals);
const char *bench_number(char *s, size_t n, double v, int decimals);

/* ---- bench_sweep.c ---- */

/* The lattice sweep: plans it for b->machine, runs it, prints its
 * table and crossover and writes its CSV next to b->csv_path; an exit status. */
int bench_sweep_run(struct bench *b, char *err, size_t n);

#endif

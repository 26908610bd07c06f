/*
 * bench_state.h - the state of one laplace --bench, shared by its parts (the
 * matrix's report, the sweep, bench.c on top), and what every part says with it:
 * its progress on stdout, the machine and the ceilings (on stdout and atop each
 * CSV), and the laplace command line of an entry.
 */
#ifndef LAPLACE_BENCH_STATE_H
#define LAPLACE_BENCH_STATE_H

#include <stddef.h>
#include <stdio.h>

#include "bench_ceilings.h"
#include "bench_plan.h"
#include "outputs/output.h"
#include "run/report.h"
#include "run/run.h"
#include "settings/config.h"

/* The parts of the bench (LAPLACE_BENCH_ONLY selects one). */
enum { BENCH_PART_MATRIX = 1, BENCH_PART_SWEEP = 2 };

/* The better run of an entry: what the table, the summary and the speed-ups use. */
struct bench_state_best {
    double compute_s; /* NAN when the entry failed */
    double gbps;
    int tiles; /* GPUs, or host threads */
};

struct bench_state {
    int quiet;
    int parts;                       /* BENCH_PART_MATRIX | BENCH_PART_SWEEP */
    int devices[CONFIG_MAX_DEVICES]; /* the bench's GPU i is device devices[i] */
    int gpus;
    char gpu_name[256]; /* of devices[0]; "" without GPU */
    struct bench_ceilings ceilings;
    struct bench_plan_costs costs; /* of a run, measured before the estimates */
    struct bench_plan_machine machine;
    struct bench_plan_entry entries[BENCH_MAX_ENTRIES];
    struct bench_state_best best[BENCH_MAX_ENTRIES];
    int count;
    int failed;       /* entries of the matrix whose runs failed */
    int sweep_points; /* points of the lattice sweep planned (both sides) */
    int sweep_failed; /* of them, those whose runs failed */
    FILE *csv;        /* written under csv_temp's name until it is whole */
    struct temp_file csv_temp;
    char csv_path[CONFIG_PATH_MAX]; /* the matrix's CSV; the sweep's is named after it */
};

/* One run: its configuration, plan and report (which points into both). */
struct bench_state_run {
    struct plan plan; /* its partition freed after the run; its config kept */
    struct run_report report;
};

/* Prints on stdout unless --quiet, at once: a long bench shows its progress. */
void bench_state_say(const struct bench_state *b, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* The machine and the ceilings, each line after prefix ("# " atop a CSV). */
void bench_state_print_machine(FILE *out, const char *prefix,
                               const struct bench_state *b);

/* The laplace command line that makes the same run as the entry. */
void bench_state_command(const struct bench_state *b, const struct bench_plan_entry *e,
                         char *s, size_t n);

#endif

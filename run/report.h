/*
 * report.h - what a run tells its user: the human report, the CSV row, the
 * progress monitor and the multi- against one-device comparison line.
 */
#ifndef LAPLACE_REPORT_H
#define LAPLACE_REPORT_H

#include <stdio.h>

#include "plan/plan.h"
#include "problem/exact.h"
#include "solve/solve.h"

struct run_report {
    const struct plan *plan;  /* what ran: its configuration and derived values */
    const char *backend;      /* gpu, cpu or serial: the backend that ran */
    const char *devices;      /* e.g. "0,1,2,3", or "-" on the host */
    const char *device_names; /* e.g. "NVIDIA H200", or the host */
    struct solve_result result;
    double time_total_s;      /* the whole run, output files included */
    int has_exact;            /* --exact given: exact holds the field's error */
    struct exact_error exact; /* against the known solution */
    const char *role;         /* the CSV's role: "run" (NULL), "compare-1-device" or
                               * "compare-cpu" */
    const struct run_report *against; /* a comparison's main run (NULL: this is it),
                                       * for its row's speed-up and efficiency */
    int stopped; /* the solve ran and stopped, for any reason (result.reason), so
                  * that a diverged or failed run still has its CSV row */
};

/* What a comparison shows, the same in its line and its CSV row: the main run's
 * speed-up over the compared run (their compute times), and, when the compared run
 * is one device of the same backend, the parallel efficiency speed-up / N (else
 * NAN). */
struct report_gain {
    double speedup, efficiency;
};

struct report_gain report_gain(const struct run_report *run,
                               const struct run_report *compared);

/* The stop column: the reason's name (stop_rule_reason_name), or "steps" for a
 * run of --steps that did them all. The report's "stopped" line begins with it. */
const char *report_stop_name(const struct run_report *r);

/* Whether the run stopped by diverging or by a failed device call (stop diverged or
 * failed): its CSV row still tells it, before the one line on stderr. */
int report_ended_badly(const struct run_report *r);

/* Throughput figures, counted as --help explains. */
struct run_metrics {
    double glups;  /* 1e9 interior site updates per second */
    double gbps;   /* 1e9 bytes per second (one read + one write per update) */
    double gflops; /* 1e9 floating-point operations per second */
};

/* The bytes one sweep moves: one read and one write of every interior site (the
 * one place this count is written; the bench's estimates and floors use it too). */
double report_sweep_bytes(long nx, long ny, enum precision precision);

struct run_metrics report_metrics(const struct run_report *r);

/* LAPLACE_TUNE's breakdown (asked, on GPUs): a line for each tile whose passes of two
 * were timed (of the first BREAKDOWN_TILES, and a line saying so when there are more),
 * in µs an iteration over the batches run whole (its passes' kernels, the steps between
 * them, the rest of the run's compute time), or one saying that none was; nothing
 * otherwise. */
void report_breakdown(FILE *out, const struct run_report *r);

/* The "  estimate" line of the report and of --dry-run: the iterations expected
 * to eps, or to where the precision stagnates first (estimate.h), said to be an
 * estimate; nothing for --steps or eps 0. */
void report_estimate(FILE *out, const struct plan *plan);

void report_print(FILE *out, const struct run_report *r);
/* The CSV of --csv and --csv-append: DESIGN.md's columns (report_csv_fields), then
 * kernel, block, eps, check_every, loop, reduce, role, ranks, stop, speedup and
 * efficiency, each new one at the end so that the scripts that read columns by
 * number still find theirs. */
void report_csv_header(FILE *out);
void report_csv_row(FILE *out, const struct run_report *r);

/* DESIGN.md's columns only, without the newline, for tables that add columns of
 * their own after them (bench: its kernel, block and reduce come there). */
void report_csv_header_fields(FILE *out);
void report_csv_fields(FILE *out, const struct run_report *r);

/* "NxM: 1 GPU 1.234 s, 4 GPUs 0.321 s, speed-up 3.84, efficiency 96%, ...". */
void report_comparison(FILE *out, const struct run_report *many,
                       const struct run_report *one, double max_difference);

/* "NxM: CPU (64 threads) 12.3 s, 4 GPUs 0.321 s, speed-up 38.3, ..." */
void report_cpu_comparison(FILE *out, const struct run_report *run,
                           const struct run_report *cpu, int cpu_threads,
                           double max_difference);

#endif

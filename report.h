/*
 * report.h - what a run tells its user: the human report, the CSV row, the
 * progress monitor and the multi- against one-device comparison line.
 */
#ifndef LAPLACE_REPORT_H
#define LAPLACE_REPORT_H

#include <stdio.h>

#include "config.h"
#include "exact.h"
#include "solver.h"

struct run_report {
    const struct config *config;
    const char *backend;      /* gpu, cpu or serial: the backend that ran */
    const char *devices;      /* e.g. "0,1,2,3", or "-" on the host */
    const char *device_names; /* e.g. "NVIDIA H200", or the host */
    struct solve_result result;
    double time_total_s;      /* the whole run, output files included */
    int has_exact;            /* --exact given: exact holds the field's error */
    struct exact_error exact; /* against the known solution */
};

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

void report_print(FILE *out, const struct run_report *r);
void report_csv_header(FILE *out);
void report_csv_row(FILE *out, const struct run_report *r);

/* The same header and row without the newline, for tables that add columns (bench). */
void report_csv_header_fields(FILE *out);
void report_csv_fields(FILE *out, const struct run_report *r);

/* A norm_fn (solver.h): one line per call, on the FILE given as context. */
void report_monitor_line(void *out_file, long iteration, double norm, double elapsed_s);

/* "NxM: 1 GPU 1.234 s, 4 GPUs 0.321 s, speed-up 3.84, efficiency 96%, ...". */
void report_comparison(FILE *out, const struct run_report *many,
                       const struct run_report *one, double max_difference);

/* "NxM: CPU (64 threads) 12.3 s, 4 GPUs 0.321 s, speed-up 38.3, ..." */
void report_cpu_comparison(FILE *out, const struct run_report *run,
                           const struct run_report *cpu, int cpu_threads,
                           double max_difference);

#endif

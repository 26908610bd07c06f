/*
 * bench_sweep_plan.c - the lattice sweep's plan and its measures (bench_sweep.h): which
 * lattices and sides it runs on the machine (bench_sweep_plan: 1 device against all,
 * and against 2 GPUs where there are more), each run's iterations, each lattice's
 * floor, the crossover and the sentences that name it, the CSV's name and header.
 * Pure: the tests check them on the CPU. A sweep under way is bench_sweep.c's.
 */
#include "bench_sweep.h"

#include "bench_number.h"
#include "bench_stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The sides of struct bench_sweep_points: one device, and the one it is compared with. */
enum { ONE = BENCH_SWEEP_ONE, ALL = BENCH_SWEEP_ALL };

/* Compute time of a run on one nominal device. Runs of 0.1 s (200 iterations at 16384^2)
 * put each run's start (its batches' buffers allocated, their graphs recorded) into its
 * time and understated several GPUs: 2 H200s 1.65x one at 16384^2 where 1000 iterations
 * measured 1.88-1.91x (results/2026-11-27-several-gpus, calls 14 and 20). */
#define SWEEP_RUN_S 0.5
#define QUICK_ITERATIONS 20

static const long sweep_sizes[BENCH_SWEEP_MAX] = {128,  256,  512,  1024,
                                                  2048, 4096, 8192, 16384};
static const long quick_sizes[] = {128, 256};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- planning ------------------------------------------------------------- */

long bench_sweep_iterations(long n, enum backend backend)
{
    if (backend == BACKEND_GPU)
        return bench_plan_iterations_for(n, PRECISION_FLOAT, SWEEP_RUN_S,
                                         NOMINAL_GPU_BYTES_S, NOMINAL_LATENCY_S);
    return bench_plan_iterations_for(n, PRECISION_FLOAT, SWEEP_RUN_S,
                                     NOMINAL_THREAD_BYTES_S, NOMINAL_THREAD_LATENCY_S);
}

/* Whether the n x n lattice of the sweep fits: on the host always, on one GPU too. */
static int sweep_fits(const struct bench_plan_machine *m, enum backend backend, long n)
{
    if (!bench_plan_fits_host(m->host_bytes, n, PRECISION_FLOAT))
        return 0;
    return backend != BACKEND_GPU ||
           bench_plan_fits_gpu(m->gpu_free_bytes, n, PRECISION_FLOAT);
}

/* The entries of lattice n: one device, all of them, and 2 GPUs where p->two. */
static void plan_lattice(const struct bench_plan_machine *m, struct bench_sweep_plan *p,
                         long n)
{
    long iterations = m->quick ? QUICK_ITERATIONS : bench_sweep_iterations(n, p->backend);
    int on_gpus = p->backend == BACKEND_GPU;
    struct bench_plan_entry *one = &p->one[p->count], *all = &p->all[p->count];
    *one = bench_plan_entry_default("sweep", p->backend, PRECISION_FLOAT, n,
                                    on_gpus ? 1 : 0, iterations);
    *all = bench_plan_entry_default("sweep", p->backend, PRECISION_FLOAT, n,
                                    on_gpus ? p->devices : 0, iterations);
    if (p->two)
        p->on_two[p->count] = bench_plan_entry_default("sweep", p->backend,
                                                       PRECISION_FLOAT, n, 2, iterations);
    if (!on_gpus)
        one->partition_x = one->partition_y = 1; /* one thread; all: every core */
    p->count++;
}

int bench_sweep_plan(const struct bench_plan_machine *m, struct bench_sweep_plan *p)
{
    int cores = m->cores < CPU_TILES_MAX ? m->cores : CPU_TILES_MAX;
    const long *sizes = m->quick ? quick_sizes : sweep_sizes;
    int count = m->quick ? COUNT(quick_sizes) : COUNT(sweep_sizes);
    *p = (struct bench_sweep_plan){.backend = m->gpus >= 1 ? BACKEND_GPU : BACKEND_CPU,
                                   .alone = m->gpus == 1,
                                   .two = m->gpus > 2};
    p->devices = p->backend == BACKEND_GPU ? m->gpus : cores;
    if (p->devices < 2 && !p->alone) {
        p->skipped = "fewer than two GPUs and a single CPU core: there is nothing to "
                     "compare one device with";
        return 0;
    }
    for (int i = 0; i < count && sweep_fits(m, p->backend, sizes[i]); i++)
        plan_lattice(m, p, sizes[i]);
    if (p->count == 0)
        p->skipped = "not even its smallest lattice fits";
    return p->count;
}

double bench_sweep_floor_us(long n, double copy_gbps)
{
    return 1e6 * report_sweep_bytes(n, n, PRECISION_FLOAT) / (copy_gbps * 1e9);
}

int bench_sweep_on_chip(long n, size_t l2_bytes)
{
    return 2.0 * (double)n * (double)n * (double)sizeof(float) <= (double)l2_bytes;
}

int bench_sweep_crossover(const double *one_us, const double *all_us, int count)
{
    int from = count;
    while (from > 0 && all_us[from - 1] < one_us[from - 1]) /* false for NAN */
        from--;
    return from < count ? from : -1;
}

void bench_sweep_crossover_text(const struct bench_sweep_points *p, char *text, size_t n)
{
    int last = p->count - 1, faster = 0, at = 0;
    int from = bench_sweep_crossover(p->us[ONE], p->us[ALL], p->count);
    for (int i = 0; i < p->count; i++)
        faster += p->us[ALL][i] < p->us[ONE][i];
    if (from >= 0)
        at = snprintf(text, n,
                      "crossover %ld^2: %s are faster than %s at every size from %ld^2 "
                      "up (%d of %d sizes faster)",
                      p->n[from], p->all, p->one, p->n[from], faster, p->count);
    else if (isfinite(p->us[ONE][last]) && isfinite(p->us[ALL][last]))
        snprintf(text, n,
                 "no crossover found: %s are not faster than %s at the largest lattice, "
                 "%ld^2 (%d of %d sizes faster)",
                 p->all, p->one, p->n[last], faster, p->count);
    else
        snprintf(text, n, "no crossover found: the largest lattice, %ld^2, failed",
                 p->n[last]);
    if (from == 0 && at > 0 && (size_t)at < n)
        snprintf(text + at, n - (size_t)at,
                 "; every lattice: the crossover may lie below %ld^2", p->n[0]);
}

/* The least and most of a point's timed runs. */
static void spread(const double *runs, double *least, double *most)
{
    *least = *most = runs[0];
    for (int r = 1; r < SWEEP_RUNS; r++)
        *least = fmin(*least, runs[r]), *most = fmax(*most, runs[r]);
}

/* "8192^2 (2 GPUs 13 us/it, runs 12.8-13.4; 1 GPU 12.3, runs 12.1-12.6: apart)" */
static int slower_point(const struct bench_sweep_points *p, int i, char *text, size_t n)
{
    double lo[2], hi[2];
    if (!isfinite(p->us[ONE][i]) || !isfinite(p->us[ALL][i]))
        return snprintf(text, n, "%ld^2 (failed)", p->n[i]);
    for (int side = ONE; side <= ALL; side++)
        spread(p->runs[side][i], &lo[side], &hi[side]);
    return snprintf(
        text, n, "%ld^2 (%s %.3g us/it, runs %.3g-%.3g; %s %.3g, runs %.3g-%.3g: %s)",
        p->n[i], p->all, p->us[ALL][i], lo[ALL], hi[ALL], p->one, p->us[ONE][i], lo[ONE],
        hi[ONE], lo[ALL] <= hi[ONE] ? "the runs overlap" : "apart");
}

void bench_sweep_slower_text(const struct bench_sweep_points *p, char *text, size_t n)
{
    size_t used = (size_t)snprintf(text, n, "slower at");
    int slower = 0;
    for (int i = 0; i < p->count && used < n; i++) {
        if (p->us[ALL][i] < p->us[ONE][i]) /* false for NAN: failed */
            continue;
        used += (size_t)snprintf(text + used, n - used, "%s ", slower++ ? "," : "");
        if (used < n)
            used += (size_t)slower_point(p, i, text + used, n - used);
    }
    if (slower == 0 && used < n)
        snprintf(text + used, n - used, " no size: %s are faster than %s at every one",
                 p->all, p->one);
}

void bench_sweep_file_name(char *path, size_t n, const char *bench_csv)
{
    size_t length = strlen(bench_csv);
    if (length >= 4 && strcmp(bench_csv + length - 4, ".csv") == 0)
        length -= 4;
    snprintf(path, n, "%.*s-sweep.csv", (int)length, bench_csv);
}

void bench_sweep_csv_header(FILE *out)
{
    report_csv_header_fields(out);
    fputs(",us_per_iter,us_per_iter_runs,speedup,efficiency,crossover,command,group,"
          "floor_us,"
          "pct_of_floor,on_chip,on_chip_floor_us\n",
          out);
}

/*
 * bench_report.c - what laplace --bench says about its matrix (bench_report.h):
 * the plan (the largest square, the count and the estimated duration, on stdout
 * and as "# " lines atop the CSV), the CSV header and one CSV row per run, one
 * table line per configuration (its better run), the numbers derived from the
 * ceilings and the 1-GPU runs (fraction of the copy bandwidth, speed-up,
 * efficiency), and the summary against the targets of the speed issue.
 *
 * Nothing here runs anything: bench.c runs the entries and hands their reports
 * over. The machine and the ceilings atop the CSV are bench_state.c's.
 */
#include "bench_report.h"

#include <math.h>
#include <string.h>

#include "bench_number.h"
#include "bench_plan.h"
#include "bench_state.h"
#include "run/report.h"

#define GIB ((size_t)1 << 30)

#define TARGET_FRACTION 0.9 /* of the copy bandwidth, for 1 GPU at 16384^2 */

/* ---- derived numbers ------------------------------------------------------ */

/* The compute time of entry i's better run per iteration: what speed-ups compare. */
static double best_s_per_iteration(const struct bench_state *b, int i)
{
    return b->best[i].compute_s / (double)b->entries[i].iterations;
}

/* What a run is compared with; NAN where there is nothing to compare with. */
struct derived {
    double copy_gbps;  /* GPUs x the first GPU's copy bandwidth, or the host's */
    double fraction;   /* of copy_gbps that the run's GB/s reach */
    double speedup;    /* against the best 1-GPU run, per iteration */
    double efficiency; /* speedup / GPUs: T1 / (N TN) */
};

static struct derived derive(const struct bench_state *b, int i,
                             const struct run_report *r)
{
    const struct bench_plan_entry *e = &b->entries[i];
    const struct bench_ceilings *c = &b->ceilings;
    struct derived d = {NAN, NAN, NAN, NAN};
    int base = bench_plan_baseline(b->entries, b->count, i);
    if (e->backend == BACKEND_CPU)
        d.copy_gbps = c->host_gbps;
    else if (c->gpus > 0)
        d.copy_gbps = e->gpus * c->copy_gbps[0];
    d.fraction = report_metrics(r).gbps / d.copy_gbps;
    if (base >= 0) {
        double tn = r->result.time_compute_s / (double)r->result.iterations;
        d.speedup = best_s_per_iteration(b, base) / tn;
        d.efficiency = d.speedup / e->gpus;
    }
    return d;
}

/* ---- table and CSV -------------------------------------------------------- */

static const char *block_text(const struct bench_plan_entry *e, char *s, size_t n)
{
    if (e->block_x > 0)
        snprintf(s, n, "%dx%d", e->block_x, e->block_y);
    else
        snprintf(s, n, "auto");
    return s;
}

/* What does not apply to the host tiles is "-". */
static const char *kernel_text(const struct bench_plan_entry *e)
{
    return e->backend == BACKEND_CPU ? "-" : e->kernel;
}

static const char *reduce_text(const struct bench_plan_entry *e)
{
    if (e->backend == BACKEND_CPU)
        return "-";
    return e->reduce == REDUCE_DEVICE ? "device" : "host";
}

void bench_report_table_header(const struct bench_state *b)
{
    bench_state_say(
        b, "\n%-7s %-8s %-6s %-4s %-6s %-8s %-5s %-6s %6s %9s %7s %7s %5s %8s %5s\n",
        "group", "lattice", "prec", "GPUs", "layout", "kernel", "block", "reduce",
        "iters", "compute_s", "Glups", "GB/s", "copy%", "speed-up", "eff%");
}

void bench_report_table_row(const struct bench_state *b, int i,
                            const struct run_report *r)
{
    const struct bench_plan_entry *e = &b->entries[i];
    const struct config *c = &r->plan->config;
    struct run_metrics m = report_metrics(r);
    struct derived d = derive(b, i, r);
    char lattice[32], gpus[16], layout[32], block[32], copy[16], speedup[16],
        efficiency[16];
    snprintf(lattice, sizeof lattice, "%ld^2", e->n);
    if (e->backend == BACKEND_CPU)
        snprintf(gpus, sizeof gpus, "cpu");
    else
        snprintf(gpus, sizeof gpus, "%d", e->gpus);
    snprintf(layout, sizeof layout, "%dx%d", c->partition_x, c->partition_y);
    bench_state_say(
        b, "%-7s %-8s %-6s %-4s %-6s %-8s %-5s %-6s %6ld %9.4f %7.2f %7.1f %5s %8s %5s\n",
        e->group, lattice, precision_name(e->precision), gpus, layout, kernel_text(e),
        block_text(e, block, sizeof block), reduce_text(e), r->result.iterations,
        r->result.time_compute_s, m.glups, m.gbps,
        bench_number(copy, sizeof copy, 100.0 * d.fraction, 0),
        bench_number(speedup, sizeof speedup, d.speedup, 2),
        bench_number(efficiency, sizeof efficiency, 100.0 * d.efficiency, 0));
}

void bench_report_csv_row(const struct bench_state *b, int i, const struct run_report *r,
                          int repeat, const char *command)
{
    const struct bench_plan_entry *e = &b->entries[i];
    struct derived d = derive(b, i, r);
    char block[32];
    report_csv_fields(b->csv, r);
    fprintf(b->csv, ",%s,%s,%s,%d", kernel_text(e), block_text(e, block, sizeof block),
            reduce_text(e), repeat);
    bench_number_csv(b->csv, d.copy_gbps, 1);
    bench_number_csv(b->csv, d.fraction, 4);
    bench_number_csv(b->csv, d.speedup, 3);
    bench_number_csv(b->csv, d.efficiency, 4);
    fprintf(b->csv, ",\"%s\",%s\n", command, e->group);
    fflush(b->csv);
}

/* ---- the plan (on stdout and atop the CSV) ---------------------------------- */

static void print_largest(FILE *out, const char *prefix, const struct bench_state *b)
{
    const struct bench_plan_machine *m = &b->machine;
    if (m->gpus == 0)
        return;
    if (m->quick) {
        fprintf(out, "%slargest square: not run (LAPLACE_BENCH_QUICK)\n", prefix);
        return;
    }
    for (int p = PRECISION_FLOAT; p <= PRECISION_DOUBLE; p++) {
        long fit = bench_plan_largest_fit(m->gpu_free_bytes, (enum precision)p);
        long run = bench_plan_largest_square(m, (enum precision)p);
        fprintf(out, "%slargest square, %s: %ld^2 fits one GPU (%.1f GiB free); ", prefix,
                precision_name((enum precision)p), fit, (double)m->gpu_free_bytes / GIB);
        if (run > bench_plan_top_scaling_n(m))
            fprintf(out, "run at %ld^2%s\n", run,
                    run < fit ? " (capped: host memory and set-up time)" : "");
        else
            fprintf(out, "not run (%ld^2 is not larger than the sizes above)\n", run);
    }
}

double bench_report_matrix_estimate_s(const struct bench_state *b)
{
    double estimate = 0.0;
    for (int i = 0; i < b->count; i++)
        estimate += bench_plan_estimate_s(&b->costs, &b->entries[i]);
    return estimate;
}

void bench_report_matrix_plan(FILE *out, const char *prefix, const struct bench_state *b)
{
    double estimate = bench_report_matrix_estimate_s(b);
    print_largest(out, prefix, b);
    fprintf(out, "%smatrix: %d configuration%s, each run %d times", prefix, b->count,
            b->count > 1 ? "s" : "", BENCH_RUNS);
    if (b->gpus > 0)
        fprintf(out, " (iterations for about %.1f s at %.0f TB/s on 1 GPU)",
                BENCH_TARGET_RUN_S, NOMINAL_GPU_BYTES_S * 1e-12);
    fprintf(out, "; estimated %.1f s%s\n", estimate,
            b->machine.quick ? " (LAPLACE_BENCH_QUICK: tiny lattices, not for numbers)"
                             : "");
}

/* ---- summary: the targets of the speed issue ------------------------------- */

/* The entry of group with this size, precision and GPU count that ran; or -1. */
static int find(const struct bench_state *b, const char *group, long n, enum precision p,
                int gpus)
{
    for (int i = 0; i < b->count; i++) {
        const struct bench_plan_entry *e = &b->entries[i];
        if (strcmp(e->group, group) == 0 && e->n == n && e->precision == p &&
            e->gpus == gpus && isfinite(b->best[i].compute_s))
            return i;
    }
    return -1;
}

/* 1 GPU against the copy-bandwidth floor: target 90% of the copy bandwidth. */
static void summary_floor(const struct bench_state *b, long n, enum precision p)
{
    int i = find(b, "scaling", n, p, 1);
    if (i < 0 || b->ceilings.gpus == 0)
        return;
    const struct bench_plan_entry *e = &b->entries[i];
    double bytes = report_sweep_bytes(n, n, p) * (double)e->iterations;
    double floor_s = bytes / (b->ceilings.copy_gbps[0] * 1e9);
    double fraction = floor_s / b->best[i].compute_s;
    bench_state_say(
        b,
        "  1 GPU %ld^2 %s: %.3f s for %ld iterations; copy-bandwidth floor %.3f s, "
        "target %.3f s (%.0f%% of copy bandwidth): reached %.0f%%, %s\n",
        n, precision_name(p), b->best[i].compute_s, e->iterations, floor_s,
        floor_s / TARGET_FRACTION, 100.0 * TARGET_FRACTION, 100.0 * fraction,
        fraction >= TARGET_FRACTION ? "met" : "not met");
}

static void summary_efficiency(const struct bench_state *b, long n, int gpus)
{
    int i = find(b, "scaling", n, PRECISION_FLOAT, gpus);
    int one = find(b, "scaling", n, PRECISION_FLOAT, 1);
    if (i < 0 || one < 0)
        return;
    double speedup = best_s_per_iteration(b, one) / best_s_per_iteration(b, i);
    bench_state_say(b,
                    "  %d GPUs %ld^2 float: %.3f s against 1 GPU %.3f s: speed-up %.2f, "
                    "efficiency %.0f%%\n",
                    gpus, n, b->best[i].compute_s, b->best[one].compute_s, speedup,
                    100.0 * speedup / gpus);
}

/* Every layout of the most GPUs run at n^2 float, the fastest named. */
static void summary_layouts(const struct bench_state *b, long n)
{
    int gpus = 0, fastest = -1;
    for (int i = 0; i < b->count; i++)
        if (b->entries[i].n == n && b->entries[i].gpus > gpus &&
            strcmp(b->entries[i].group, "layout") == 0)
            gpus = b->entries[i].gpus;
    if (gpus == 0)
        return;
    bench_state_say(b, "  layouts of %d GPUs at %ld^2 float:", gpus, n);
    for (int i = 0; i < b->count; i++) {
        const struct bench_plan_entry *e = &b->entries[i];
        int counted = strcmp(e->group, "layout") == 0 || strcmp(e->group, "scaling") == 0;
        if (!counted || e->n != n || e->gpus != gpus || e->precision != PRECISION_FLOAT ||
            !isfinite(b->best[i].compute_s))
            continue;
        bench_state_say(b, " %dx%d %.3f s", e->partition_x, e->partition_y,
                        b->best[i].compute_s);
        if (fastest < 0 || b->best[i].compute_s < b->best[fastest].compute_s)
            fastest = i;
    }
    if (fastest >= 0)
        bench_state_say(b, "; fastest %dx%d\n", b->entries[fastest].partition_x,
                        b->entries[fastest].partition_y);
    else
        bench_state_say(b, " none ran\n");
}

static void summary_cpu(const struct bench_state *b, long n)
{
    int i = find(b, "cpu", n, PRECISION_DOUBLE, 0);
    int gpu = find(b, "scaling", n, PRECISION_DOUBLE, 1);
    if (i < 0)
        return;
    bench_state_say(
        b,
        "  CPU %ld^2 double, %d threads: %.1f GB/s, %.0f%% of the host copy bandwidth "
        "(%.1f GB/s)",
        n, b->best[i].tiles, b->best[i].gbps,
        100.0 * b->best[i].gbps / b->ceilings.host_gbps, b->ceilings.host_gbps);
    if (gpu >= 0)
        bench_state_say(b, "; 1 GPU is %.0fx faster per iteration",
                        best_s_per_iteration(b, i) / best_s_per_iteration(b, gpu));
    bench_state_say(b, "\n");
}

void bench_report_summary(const struct bench_state *b)
{
    long big = bench_plan_top_scaling_n(&b->machine);
    bench_state_say(b, "\ntargets:\n");
    if (b->gpus == 0)
        bench_state_say(b, "  GPUs were not measured: %s\n",
                        bench_ceilings_no_gpu_reason());
    summary_floor(b, big, PRECISION_FLOAT);
    summary_floor(b, big, PRECISION_DOUBLE);
    summary_efficiency(b, big, 2);
    summary_efficiency(b, big, 4);
    summary_efficiency(b, big, 8);
    summary_layouts(b, big);
    summary_cpu(b, bench_plan_cpu_n(&b->machine));
}

/* ---- the CSV header ------------------------------------------------------- */

void bench_report_csv_header(FILE *out)
{
    report_csv_header_fields(out);
    fputs(",kernel,block,reduce,repeat,copy_gbps,bandwidth_fraction,speedup,efficiency,"
          "command,group\n",
          out);
}

/*
 * bench_plan.c - what the matrix of laplace --bench will run, decided before any
 * device is touched (and so tested without a GPU): the sizes that fit a GPU and
 * the host, the iteration count of each run, the entries of every group
 * (scaling, layout, kernel, block, reduce, cpu), the 1-GPU run each entry is
 * compared with, and the estimated duration.
 *
 *   scaling   512^2 ... 16384^2 and the largest square, float and double, on 1,
 *             2, 4 and 8 GPUs (stacked in rows, 1xN: passes of two iterations);
 *   layout    every other NGx x NGy of 4 and 8 GPUs at 16384^2 and the largest
 *             square;
 *   kernel, block, reduce   every variant, the course's block sweep, host and
 *             device reduce, at 8192^2 float;
 *   cpu       the host tiles on every core, the baseline GPUs are compared with.
 *
 * The iteration counts are chosen for a nominal machine (bench_plan.h), the
 * same everywhere, so that results of different machines compare run for run.
 */
#include "bench_plan.h"

#include <math.h>
#include <string.h>

#include "gpu_partition.h"
#include "laplace_kernels.h"
#include "run/report.h"

#define GIB ((size_t)1 << 30)

enum {
    FOCUS_N = 8192, /* the lattice of the kernel, block and reduce groups */
    CPU_N = 4096,   /* the host baseline: 4096^2 double, 100 iterations */
    CPU_ITERATIONS = 100,
    LARGEST_MAX = 20480, /* the cap of the largest square (bench_plan_largest_square) */
    QUICK_N = 256,       /* LAPLACE_BENCH_QUICK: lattices and iterations */
    QUICK_ITERATIONS = 20,
    QUICK_CPU_ITERATIONS = 10,
};

/* The nominal estimate of the bench's duration (bench_plan_costs_nominal): the
 * nominal GPU, a host sweep at 100 GB/s, and a run's set-up (host field, scatter,
 * upload, download, gather) as measured on an H200 at 16384^2: about 2.5 s per GiB
 * of field. The bench replaces it with costs it measures before it runs. */
#define ESTIMATE_HOST_BYTES_S 100e9
#define ESTIMATE_SETUP_S 0.2
#define ESTIMATE_SETUP_S_PER_GIB 2.5

static const long scaling_sizes[] = {512, 1024, 2048, 4096, 8192, 16384};
static const long quick_sizes[] = {128, QUICK_N};
static const int gpu_counts[] = {1, 2, 4, 8};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- sizes and iterations ------------------------------------------------ */

/* The most sites of one field when two must fit in 90% of a GPU's free memory. */
static double gpu_sites(size_t gpu_free_bytes, enum precision precision)
{
    return 0.9 * (double)gpu_free_bytes / (2.0 * (double)precision_size(precision));
}

/* The most sites of one field the host lends the bench: an eighth of its memory. */
static double host_sites(size_t host_bytes, enum precision precision)
{
    return (double)host_bytes / 8.0 / (double)precision_size(precision);
}

int bench_plan_fits_gpu(size_t gpu_free_bytes, long n, enum precision precision)
{
    return (double)n * (double)n <= gpu_sites(gpu_free_bytes, precision);
}

int bench_plan_fits_host(size_t host_bytes, long n, enum precision precision)
{
    return (double)n * (double)n <= host_sites(host_bytes, precision);
}

long bench_plan_largest_fit(size_t gpu_free_bytes, enum precision precision)
{
    return (long)sqrt(gpu_sites(gpu_free_bytes, precision)) / 1024 * 1024;
}

/*
 * The fit, capped twice. The host holds up to three whole fields during a run
 * (the initial field, a tile's staging buffer, the gathered result), so one field
 * may take an eighth of its memory. And a run's set-up costs about 2.5 s per GiB
 * of field, so LARGEST_MAX keeps the 12 runs of the largest square near 80 s on
 * 4 GPUs (on 141 GB H200s, 124928^2 float and 88064^2 double fit: 58 GiB
 * fields, about 30 minutes for those 12 runs alone).
 */
long bench_plan_largest_square(const struct bench_plan_machine *m,
                               enum precision precision)
{
    if (m->quick || m->gpus == 0)
        return 0;
    long n = bench_plan_largest_fit(m->gpu_free_bytes, precision);
    long host = (long)sqrt(host_sites(m->host_bytes, precision)) / 1024 * 1024;
    if (n > host)
        n = host;
    return n < LARGEST_MAX ? n : LARGEST_MAX;
}

/* x rounded to the nearest, in ratio, of 1, 2, 5, 10, 20, 50, ... */
static long round_125(double x)
{
    static const long mantissa[] = {1, 2, 5};
    long best = 1;
    for (long decade = 1; decade <= 100000000; decade *= 10)
        for (int i = 0; i < 3; i++) {
            long c = mantissa[i] * decade;
            if (fabs(log(x / (double)c)) < fabs(log(x / (double)best)))
                best = c;
        }
    return best;
}

long bench_plan_iterations_for(long n, enum precision precision, double seconds,
                               double bytes_s, double latency_s)
{
    double traffic = report_sweep_bytes(n, n, precision);
    long iterations = round_125(seconds / (traffic / bytes_s + latency_s));
    return iterations < 10 ? 10 : iterations;
}

long bench_plan_iterations(long n, enum precision precision)
{
    return bench_plan_iterations_for(n, precision, BENCH_TARGET_RUN_S,
                                     NOMINAL_GPU_BYTES_S, NOMINAL_LATENCY_S);
}

long bench_plan_top_scaling_n(const struct bench_plan_machine *m)
{
    return m->quick ? QUICK_N : scaling_sizes[COUNT(scaling_sizes) - 1];
}

long bench_plan_cpu_n(const struct bench_plan_machine *m)
{
    return m->quick ? QUICK_N : CPU_N;
}

/* ---- the matrix ---------------------------------------------------------- */

struct bench_plan_entry bench_plan_entry_default(const char *group, enum backend backend,
                                                 enum precision precision, long n,
                                                 int gpus, long iterations)
{
    struct bench_plan_entry e = {.group = group,
                                 .backend = backend,
                                 .precision = precision,
                                 .n = n,
                                 .gpus = gpus,
                                 .kernel = "auto",
                                 .reduce = REDUCE_HOST,
                                 .iterations = iterations};
    if (backend == BACKEND_GPU) { /* 1x1, 1x2, 1x4, 1x8: stacked, as auto lays them */
        e.partition_x = 1;
        e.partition_y = gpus;
    }
    return e;
}

/* The matrix as it is being built; entries past max are dropped into spare. */
struct matrix {
    const struct bench_plan_machine *machine;
    struct bench_plan_entry *entries;
    int count, max;
    struct bench_plan_entry spare;
};

/* Appends a GPU entry with the defaults (bench_plan_entry_default). */
static struct bench_plan_entry *add(struct matrix *mx, const char *group,
                                    enum precision p, long n, int gpus)
{
    struct bench_plan_entry *e =
        mx->count < mx->max ? &mx->entries[mx->count++] : &mx->spare;
    long iterations = mx->machine->quick ? QUICK_ITERATIONS : bench_plan_iterations(n, p);
    *e = bench_plan_entry_default(group, BACKEND_GPU, p, n, gpus, iterations);
    return e;
}

/* One size and precision on 1, 2, 4 and 8 GPUs, those the machine has. */
static void add_size(struct matrix *mx, long n, enum precision p)
{
    for (int i = 0; i < COUNT(gpu_counts); i++)
        if (gpu_counts[i] <= mx->machine->gpus)
            add(mx, "scaling", p, n, gpu_counts[i]);
}

static void add_scaling(struct matrix *mx)
{
    int quick = mx->machine->quick;
    const long *sizes = quick ? quick_sizes : scaling_sizes;
    int count = quick ? COUNT(quick_sizes) : COUNT(scaling_sizes);
    for (int s = 0; s < count; s++)
        for (int p = PRECISION_FLOAT; p <= PRECISION_DOUBLE; p++)
            add_size(mx, sizes[s], (enum precision)p);
    for (int p = PRECISION_FLOAT; p <= PRECISION_DOUBLE; p++) {
        long n = bench_plan_largest_square(mx->machine, (enum precision)p);
        if (n > sizes[count - 1])
            add_size(mx, n, (enum precision)p);
    }
}

/* At n^2, every layout of 4 and 8 GPUs (those the machine has) other than the
 * stacked one the scaling group runs: 2x2, 4x1; 2x4, 4x2, 8x1. */
static void add_layouts(struct matrix *mx, long n, enum precision p)
{
    for (int i = 0; i < COUNT(gpu_counts); i++) {
        int gpus = gpu_counts[i];
        if (gpus < 4 || gpus > mx->machine->gpus)
            continue;
        for (int x = 2; x <= gpus; x++) {
            if (gpus % x != 0)
                continue;
            struct bench_plan_entry *e = add(mx, "layout", p, n, gpus);
            e->partition_x = x;
            e->partition_y = gpus / x;
        }
    }
}

static void add_layout_group(struct matrix *mx)
{
    long big = bench_plan_top_scaling_n(mx->machine);
    for (int p = PRECISION_FLOAT; p <= PRECISION_DOUBLE; p++) {
        add_layouts(mx, big, (enum precision)p);
        long n = bench_plan_largest_square(mx->machine, (enum precision)p);
        if (n > big)
            add_layouts(mx, n, (enum precision)p);
    }
}

/* Every kernel variant, the course's block sweep (kernel global) and both reduce
 * modes, at n^2 float on one GPU (reduce also on all of them). */
static void add_variants(struct matrix *mx, long n)
{
    static const int blocks[][2] = {{4, 4}, {8, 8}, {16, 16}, {32, 32}, {32, 8}};
    int all = mx->machine->gpus;
    for (int k = 0; k < KERNEL_COUNT; k++)
        if (k != KERNEL_AUTO)
            add(mx, "kernel", PRECISION_FLOAT, n, 1)->kernel = kernel_variant_names[k];
    for (int b = 0; b < COUNT(blocks); b++) {
        struct bench_plan_entry *e = add(mx, "block", PRECISION_FLOAT, n, 1);
        e->kernel = kernel_variant_names[KERNEL_GLOBAL];
        e->block_x = blocks[b][0];
        e->block_y = blocks[b][1];
    }
    for (int r = REDUCE_HOST; r <= REDUCE_DEVICE; r++) {
        add(mx, "reduce", PRECISION_FLOAT, n, 1)->reduce = (enum reduce_mode)r;
        if (all > 1)
            add(mx, "reduce", PRECISION_FLOAT, n, all)->reduce = (enum reduce_mode)r;
    }
}

/* The host tiles on every core (--partition auto): the CPU baseline. */
static void add_cpu(struct matrix *mx)
{
    int quick = mx->machine->quick;
    struct bench_plan_entry *e =
        mx->count < mx->max ? &mx->entries[mx->count++] : &mx->spare;
    *e = bench_plan_entry_default("cpu", BACKEND_CPU, PRECISION_DOUBLE,
                                  quick ? QUICK_N : CPU_N, 0,
                                  quick ? QUICK_CPU_ITERATIONS : CPU_ITERATIONS);
}

int bench_plan_matrix(const struct bench_plan_machine *m,
                      struct bench_plan_entry *entries, int max)
{
    struct matrix mx = {.machine = m, .entries = entries, .max = max};
    if (m->gpus > 0) {
        add_scaling(&mx);
        add_layout_group(&mx);
        add_variants(&mx, m->quick ? QUICK_N : FOCUS_N);
    }
    add_cpu(&mx);
    return mx.count;
}

int bench_plan_baseline(const struct bench_plan_entry *entries, int count, int i)
{
    const struct bench_plan_entry *e = &entries[i];
    if (e->backend != BACKEND_GPU)
        return -1;
    for (int j = 0; j < count; j++) {
        const struct bench_plan_entry *b = &entries[j];
        if (strcmp(b->group, "scaling") == 0 && b->gpus == 1 && b->n == e->n &&
            b->precision == e->precision)
            return j;
    }
    return -1;
}

/* ---- the estimate --------------------------------------------------------- */

struct bench_plan_costs bench_plan_costs_nominal(void)
{
    struct bench_plan_costs k;
    for (int p = 0; p < 2; p++) {
        k.gpu[p] = (struct bench_plan_cost){ESTIMATE_SETUP_S, ESTIMATE_SETUP_S_PER_GIB,
                                            NOMINAL_LATENCY_S, NOMINAL_GPU_BYTES_S, 0};
        k.host_all[p] =
            (struct bench_plan_cost){ESTIMATE_SETUP_S, ESTIMATE_SETUP_S_PER_GIB,
                                     NOMINAL_THREAD_LATENCY_S, ESTIMATE_HOST_BYTES_S, 0};
        k.host_one[p] = k.host_all[p];
        k.host_one[p].bytes_s = NOMINAL_THREAD_BYTES_S;
    }
    return k;
}

static double probe_gib(const struct bench_plan_probe *p)
{
    return (double)p->n * (double)p->n * (double)precision_size(p->precision) /
           (double)GIB;
}

static double probe_setup_s(const struct bench_plan_probe *p)
{
    return p->wall_s > p->compute_s ? p->wall_s - p->compute_s : 0.0;
}

static double probe_iteration_s(const struct bench_plan_probe *p)
{
    return p->compute_s / (double)p->iterations;
}

struct bench_plan_cost bench_plan_cost_fit(const struct bench_plan_probe *small,
                                           const struct bench_plan_probe *large)
{
    struct bench_plan_cost c = {0, 0, 0, 0, 0};
    double gib = probe_gib(large) - probe_gib(small);
    double bytes = report_sweep_bytes(large->n, large->n, large->precision) -
                   report_sweep_bytes(small->n, small->n, small->precision);
    double setup = probe_setup_s(large) - probe_setup_s(small);
    double time = probe_iteration_s(large) - probe_iteration_s(small);
    c.setup_s_per_gib = setup > 0.0 ? setup / gib : 0.0;
    c.setup_s = fmax(probe_setup_s(small) - c.setup_s_per_gib * probe_gib(small), 0.0);
    c.bytes_s = time > 0.0 ? bytes / time
                           : report_sweep_bytes(large->n, large->n, large->precision) /
                                 probe_iteration_s(large);
    c.latency_s =
        fmax(probe_iteration_s(small) -
                 report_sweep_bytes(small->n, small->n, small->precision) / c.bytes_s,
             0.0);
    return c;
}

/* The host's cost for an entry: every core (0 x 0 tiles), or as many threads as
 * tiles at one thread's rate, at most every core's. */
static struct bench_plan_cost host_cost(const struct bench_plan_costs *k,
                                        const struct bench_plan_entry *e)
{
    double threads = (double)e->partition_x * (double)e->partition_y;
    const struct bench_plan_cost *one = &k->host_one[e->precision];
    if (threads > 0 && threads * one->bytes_s < k->host_all[e->precision].bytes_s) {
        struct bench_plan_cost c = *one;
        c.bytes_s *= threads;
        return c;
    }
    return k->host_all[e->precision];
}

double bench_plan_estimate_run_s(const struct bench_plan_costs *k,
                                 const struct bench_plan_entry *e)
{
    double size = (double)precision_size(e->precision);
    double field_gib = (double)e->n * (double)e->n * size / (double)GIB;
    double traffic = report_sweep_bytes(e->n, e->n, e->precision);
    struct bench_plan_cost c = k->gpu[e->precision];
    if (e->backend == BACKEND_CPU)
        c = host_cost(k, e);
    else
        c.bytes_s *= e->gpus;
    return (double)e->iterations * (traffic / c.bytes_s + c.latency_s) + c.setup_s +
           c.setup_s_per_gib * field_gib;
}

double bench_plan_estimate_s(const struct bench_plan_costs *k,
                             const struct bench_plan_entry *e)
{
    return BENCH_RUNS * bench_plan_estimate_run_s(k, e);
}

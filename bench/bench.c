/*
 * bench.c - laplace --bench (the "Speed" issue): the hardware ceilings first,
 * then the standard matrix, every configuration run twice through run_solve().
 *
 *   ceilings  per GPU a 1 GiB device-to-device copy; from the first GPU to each
 *             other a peer copy; the host a parallel copy on every core. Each
 *             is the median of 7 timed repetitions after 2 warm-ups.
 *   matrix    scaling: 512^2 ... 16384^2 and the largest square, float and
 *             double, on 1, 2, 4 and 8 GPUs (the lecture's squarest layout);
 *             layout: every other NGx x NGy of 4 and 8 GPUs at 16384^2 and the
 *             largest square; kernel: every variant; block: the course's block
 *             sweep; reduce: host and device; cpu: the host tiles on every
 *             core, the baseline GPUs are compared with.
 *   output    a table (the better of the two runs) and a summary against the
 *             targets on stdout; every run in the CSV, with the speed-up, the
 *             efficiency and the fraction of the copy bandwidth.
 *   sweep     then the lattice sweep, 1 device against all (bench_sweep.c), into
 *             its own CSV; LAPLACE_BENCH_ONLY=matrix|sweep runs one part.
 *
 * Sections: planning (no device needed, tested), runs, derived numbers, table
 * and CSV, summary, bench_run. The ceilings are measured in bench_ceilings.c;
 * the state and the runner of one configuration are shared with the sweep
 * through bench_internal.h.
 */
#include "bench.h"
#include "bench_ceilings.h"
#include "bench_internal.h"
#include "bench_stats.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <omp.h>

#include "error.h"
#include "gpu_partition.h"
#include "laplace_kernels.h"
#include "p2p.h"
#include "report.h"
#include "run.h"

#define MIB ((size_t)1 << 20)
#define GIB ((size_t)1 << 30)

enum {
    RUNS = 2,       /* runs of each configuration of the matrix */
    FOCUS_N = 8192, /* the lattice of the kernel, block and reduce groups */
    CPU_N = 4096,   /* the host baseline: 4096^2 double, 100 iterations */
    CPU_ITERATIONS = 100,
    LARGEST_MAX = 20480, /* the cap of the largest square (bench_largest_square) */
    QUICK_N = 256,       /* LAPLACE_BENCH_QUICK: lattices, iterations, copies */
    QUICK_ITERATIONS = 20,
    QUICK_CPU_ITERATIONS = 10,
    QUICK_COPY_MIB = 16,
};

#define TARGET_RUN_S 0.4 /* compute time of a 1-GPU run on the nominal machine */

/* The estimate of the bench's duration: the nominal GPU, a host sweep at 100 GB/s,
 * and a run's set-up (host field, scatter, upload, download, gather) as measured
 * on an H200 at 16384^2: about 2.5 s per GiB of field. */
#define ESTIMATE_HOST_BYTES_S 100e9
#define ESTIMATE_SETUP_S 0.2
#define ESTIMATE_SETUP_S_PER_GIB 2.5

#define TARGET_FRACTION 0.9 /* of the copy bandwidth, for 1 GPU at 16384^2 */

static const long scaling_sizes[] = {512, 1024, 2048, 4096, 8192, 16384};
static const long quick_sizes[] = {128, QUICK_N};
static const int gpu_counts[] = {1, 2, 4, 8};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- planning ------------------------------------------------------------- */

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

int bench_fits_gpu(size_t gpu_free_bytes, long n, enum precision precision)
{
    return (double)n * (double)n <= gpu_sites(gpu_free_bytes, precision);
}

int bench_fits_host(size_t host_bytes, long n, enum precision precision)
{
    return (double)n * (double)n <= host_sites(host_bytes, precision);
}

long bench_largest_fit(size_t gpu_free_bytes, enum precision precision)
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
long bench_largest_square(const struct bench_machine *m, enum precision precision)
{
    if (m->quick || m->gpus == 0)
        return 0;
    long n = bench_largest_fit(m->gpu_free_bytes, precision);
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

long bench_iterations_for(long n, enum precision precision, double seconds,
                          double bytes_s, double latency_s)
{
    double traffic = report_sweep_bytes(n, n, precision);
    long iterations = round_125(seconds / (traffic / bytes_s + latency_s));
    return iterations < 10 ? 10 : iterations;
}

long bench_iterations(long n, enum precision precision)
{
    return bench_iterations_for(n, precision, TARGET_RUN_S, NOMINAL_GPU_BYTES_S,
                                NOMINAL_LATENCY_S);
}

struct bench_entry bench_entry_default(const char *group, enum backend backend,
                                       enum precision precision, long n, int gpus,
                                       long iterations)
{
    struct bench_entry e = {.group = group,
                            .backend = backend,
                            .precision = precision,
                            .n = n,
                            .gpus = gpus,
                            .kernel = "auto",
                            .reduce = REDUCE_HOST,
                            .iterations = iterations};
    if (backend == BACKEND_GPU) /* 1x1, 1x2, 2x2, 2x4 */
        partition_auto_layout(gpus, n, n, &e.partition_x, &e.partition_y);
    return e;
}

/* The matrix as it is being built; entries past max are dropped into spare. */
struct matrix {
    const struct bench_machine *machine;
    struct bench_entry *entries;
    int count, max;
    struct bench_entry spare;
};

/* Appends a GPU entry with the defaults (bench_entry_default). */
static struct bench_entry *add(struct matrix *mx, const char *group, enum precision p,
                               long n, int gpus)
{
    struct bench_entry *e = mx->count < mx->max ? &mx->entries[mx->count++] : &mx->spare;
    long iterations = mx->machine->quick ? QUICK_ITERATIONS : bench_iterations(n, p);
    *e = bench_entry_default(group, BACKEND_GPU, p, n, gpus, iterations);
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
        long n = bench_largest_square(mx->machine, (enum precision)p);
        if (n > sizes[count - 1])
            add_size(mx, n, (enum precision)p);
    }
}

/* At n^2, every layout of 4 and 8 GPUs (those the machine has) other than the
 * squarest one the scaling group runs: 1x4, 4x1; 1x8, 4x2, 8x1. */
static void add_layouts(struct matrix *mx, long n, enum precision p)
{
    for (int i = 0; i < COUNT(gpu_counts); i++) {
        int gpus = gpu_counts[i];
        if (gpus < 4 || gpus > mx->machine->gpus)
            continue;
        int auto_x, auto_y;
        partition_auto_layout(gpus, n, n, &auto_x, &auto_y);
        for (int x = 1; x <= gpus; x++) {
            if (gpus % x != 0 || x == auto_x)
                continue;
            struct bench_entry *e = add(mx, "layout", p, n, gpus);
            e->partition_x = x;
            e->partition_y = gpus / x;
        }
    }
}

static void add_layout_group(struct matrix *mx)
{
    long big = mx->machine->quick ? QUICK_N : scaling_sizes[COUNT(scaling_sizes) - 1];
    for (int p = PRECISION_FLOAT; p <= PRECISION_DOUBLE; p++) {
        add_layouts(mx, big, (enum precision)p);
        long n = bench_largest_square(mx->machine, (enum precision)p);
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
        struct bench_entry *e = add(mx, "block", PRECISION_FLOAT, n, 1);
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
    struct bench_entry *e = mx->count < mx->max ? &mx->entries[mx->count++] : &mx->spare;
    *e =
        bench_entry_default("cpu", BACKEND_CPU, PRECISION_DOUBLE, quick ? QUICK_N : CPU_N,
                            0, quick ? QUICK_CPU_ITERATIONS : CPU_ITERATIONS);
}

int bench_matrix(const struct bench_machine *m, struct bench_entry *entries, int max)
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

int bench_baseline(const struct bench_entry *entries, int count, int i)
{
    const struct bench_entry *e = &entries[i];
    if (e->backend != BACKEND_GPU)
        return -1;
    for (int j = 0; j < count; j++) {
        const struct bench_entry *b = &entries[j];
        if (strcmp(b->group, "scaling") == 0 && b->gpus == 1 && b->n == e->n &&
            b->precision == e->precision)
            return j;
    }
    return -1;
}

/* The host's nominal GB/s for an entry: every core, or as many threads as tiles. */
static double host_bytes_s(const struct bench_entry *e)
{
    double threads = (double)e->partition_x * (double)e->partition_y;
    if (threads > 0 && threads * NOMINAL_THREAD_BYTES_S < ESTIMATE_HOST_BYTES_S)
        return threads * NOMINAL_THREAD_BYTES_S;
    return ESTIMATE_HOST_BYTES_S;
}

double bench_estimate_run_s(const struct bench_entry *e)
{
    double size = (double)precision_size(e->precision);
    double field_gib = (double)e->n * (double)e->n * size / (double)GIB;
    double traffic = report_sweep_bytes(e->n, e->n, e->precision);
    double sweep = e->backend == BACKEND_CPU
                       ? traffic / host_bytes_s(e)
                       : traffic / (e->gpus * NOMINAL_GPU_BYTES_S) + NOMINAL_LATENCY_S;
    return (double)e->iterations * sweep + ESTIMATE_SETUP_S +
           ESTIMATE_SETUP_S_PER_GIB * field_gib;
}

double bench_estimate_s(const struct bench_entry *e)
{
    return RUNS * bench_estimate_run_s(e);
}

void bench_csv_header(FILE *out)
{
    report_csv_header_fields(out);
    fputs(",kernel,block,reduce,repeat,copy_gbps,bandwidth_fraction,speedup,efficiency,"
          "command,group\n",
          out);
}

void bench_file_name(char *path, size_t n, const char *dir, const char *gpu_name,
                     time_t when)
{
    char gpu[128], date[16];
    struct tm tm;
    snprintf(gpu, sizeof gpu, "%s", gpu_name && *gpu_name ? gpu_name : "cpu");
    for (char *p = gpu; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-')
            *p = '-';
    localtime_r(&when, &tm);
    strftime(date, sizeof date, "%Y-%m-%d", &tm);
    snprintf(path, n, "%s/bench-%s-%s.csv", dir, gpu, date);
}

/* ---- printing (the bench's state is in bench_internal.h) ------------------ */

/* Prints on stdout unless --quiet, at once: a long bench shows its progress. */
void bench_say(const struct bench *b, const char *format, ...)
{
    va_list args;
    if (b->quiet)
        return;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    fflush(stdout);
}

/* Appends to the string in s (of size n). */
static void append(char *s, size_t n, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *s, size_t n, const char *format, ...)
{
    size_t used = strlen(s);
    va_list args;
    if (used + 1 >= n)
        return;
    va_start(args, format);
    vsnprintf(s + used, n - used, format, args);
    va_end(args);
}

/* ---- runs ----------------------------------------------------------------- */

void bench_entry_command(const struct bench *b, const struct bench_entry *e, char *s,
                         size_t n)
{
    snprintf(s, n,
             "laplace --backend %s --nx %ld --ny %ld --precision %s --eps 0 "
             "--max-iter %ld --check-every 1",
             backend_name(e->backend), e->n, e->n, precision_name(e->precision),
             e->iterations);
    if (e->backend == BACKEND_CPU) {
        if (e->partition_x > 0)
            append(s, n, " --partition %dx%d", e->partition_x, e->partition_y);
        else
            append(s, n, " --partition auto");
        return;
    }
    append(s, n, " --partition %dx%d --devices ", e->partition_x, e->partition_y);
    for (int i = 0; i < e->gpus; i++)
        append(s, n, "%s%d", i ? "," : "", b->devices[i]);
    if (strcmp(e->kernel, "auto") != 0)
        append(s, n, " --kernel %s", e->kernel);
    if (e->block_x > 0)
        append(s, n, " --block %dx%d", e->block_x, e->block_y);
    if (e->reduce == REDUCE_DEVICE)
        append(s, n, " --reduce device");
}

/* The entry as a configuration: its command line, read as laplace reads its own. */
static int entry_config(const struct bench *b, const struct bench_entry *e,
                        struct config *c, char *err, size_t n)
{
    char command[512], *argv[64], *save = NULL;
    int argc = 0;
    bench_entry_command(b, e, command, sizeof command);
    for (char *word = strtok_r(command, " ", &save); word && argc < 64;
         word = strtok_r(NULL, " ", &save))
        argv[argc++] = word;
    config_defaults(c);
    if (config_from_args(c, argc, argv, err, n) != 0)
        return -1;
    c->quiet = 1;
    run_resolve_auto(c);
    return config_validate(c, err, n) != 0 ? -1 : 0;
}

int bench_run_once(const struct bench *b, const struct bench_entry *e,
                   struct bench_one_run *r, char *err, size_t n)
{
    struct config c;
    struct field field;
    if (entry_config(b, e, &c, err, n) != 0 ||
        run_plan_make(&c, &r->plan, err, n) != EXIT_OK)
        return -1;
    int status = run_execute(&r->plan, &field, &r->report, err, n);
    field_free(&field);
    run_plan_free(&r->plan); /* the report keeps what it reads: the plan's config */
    return status == EXIT_OK ? 0 : -1;
}

/* ---- derived numbers ------------------------------------------------------ */

/* What a run is compared with; NAN where there is nothing to compare with. */
struct derived {
    double copy_gbps;  /* GPUs x the first GPU's copy bandwidth, or the host's */
    double fraction;   /* of copy_gbps that the run's GB/s reach */
    double speedup;    /* against the best 1-GPU run, per iteration */
    double efficiency; /* speedup / GPUs: T1 / (N TN) */
};

static struct derived derive(const struct bench *b, int i, const struct run_report *r)
{
    const struct bench_entry *e = &b->entries[i];
    const struct ceilings *c = &b->ceilings;
    struct derived d = {NAN, NAN, NAN, NAN};
    int base = bench_baseline(b->entries, b->count, i);
    if (e->backend == BACKEND_CPU)
        d.copy_gbps = c->host_gbps;
    else if (c->gpus > 0)
        d.copy_gbps = e->gpus * c->copy_gbps[0];
    d.fraction = report_metrics(r).gbps / d.copy_gbps;
    if (base >= 0) {
        double t1 = b->best[base].compute_s / (double)b->entries[base].iterations;
        d.speedup = t1 / (r->result.time_compute_s / (double)r->result.iterations);
        d.efficiency = d.speedup / e->gpus;
    }
    return d;
}

/* ---- table and CSV -------------------------------------------------------- */

const char *bench_number(char *s, size_t n, double v, int decimals)
{
    if (isfinite(v))
        snprintf(s, n, "%.*f", decimals, v);
    else
        snprintf(s, n, "-");
    return s;
}

void bench_csv_number(FILE *out, double v, int decimals)
{
    if (isfinite(v))
        fprintf(out, ",%.*f", decimals, v);
    else
        fputc(',', out);
}

static const char *block_text(const struct bench_entry *e, char *s, size_t n)
{
    if (e->block_x > 0)
        snprintf(s, n, "%dx%d", e->block_x, e->block_y);
    else
        snprintf(s, n, "auto");
    return s;
}

/* What does not apply to the host tiles is "-". */
static const char *kernel_text(const struct bench_entry *e)
{
    return e->backend == BACKEND_CPU ? "-" : e->kernel;
}

static const char *reduce_text(const struct bench_entry *e)
{
    if (e->backend == BACKEND_CPU)
        return "-";
    return e->reduce == REDUCE_DEVICE ? "device" : "host";
}

static void table_header(const struct bench *b)
{
    bench_say(b,
              "\n%-7s %-8s %-6s %-4s %-6s %-8s %-5s %-6s %6s %9s %7s %7s %5s %8s %5s\n",
              "group", "lattice", "prec", "GPUs", "layout", "kernel", "block", "reduce",
              "iters", "compute_s", "Glups", "GB/s", "copy%", "speed-up", "eff%");
}

/* One line per configuration: its better run. */
static void table_row(const struct bench *b, int i, const struct run_report *r)
{
    const struct bench_entry *e = &b->entries[i];
    const struct config *c = r->config;
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
    bench_say(
        b, "%-7s %-8s %-6s %-4s %-6s %-8s %-5s %-6s %6ld %9.4f %7.2f %7.1f %5s %8s %5s\n",
        e->group, lattice, precision_name(e->precision), gpus, layout, kernel_text(e),
        block_text(e, block, sizeof block), reduce_text(e), r->result.iterations,
        r->result.time_compute_s, m.glups, m.gbps,
        bench_number(copy, sizeof copy, 100.0 * d.fraction, 0),
        bench_number(speedup, sizeof speedup, d.speedup, 2),
        bench_number(efficiency, sizeof efficiency, 100.0 * d.efficiency, 0));
}

/* Every run: DESIGN.md's columns, then the bench's (bench_csv_header). */
static void csv_row(const struct bench *b, int i, const struct run_report *r, int repeat,
                    const char *command)
{
    const struct bench_entry *e = &b->entries[i];
    struct derived d = derive(b, i, r);
    char block[32];
    report_csv_fields(b->csv, r);
    fprintf(b->csv, ",%s,%s,%s,%d", kernel_text(e), block_text(e, block, sizeof block),
            reduce_text(e), repeat);
    bench_csv_number(b->csv, d.copy_gbps, 1);
    bench_csv_number(b->csv, d.fraction, 4);
    bench_csv_number(b->csv, d.speedup, 3);
    bench_csv_number(b->csv, d.efficiency, 4);
    fprintf(b->csv, ",\"%s\",%s\n", command, e->group);
    fflush(b->csv);
}

/* Runs an entry RUNS times: a CSV row per run, a table line for the better one.
 * A failed run is reported on stderr and counted; the bench goes on. */
static void run_entry(struct bench *b, int i)
{
    struct bench_one_run runs[RUNS];
    char err[CONFIG_ERROR_MAX], command[512];
    const struct bench_entry *e = &b->entries[i];
    int best = 0;
    bench_entry_command(b, e, command, sizeof command);
    b->best[i] = (struct best){.compute_s = NAN, .gbps = NAN};
    for (int r = 0; r < RUNS; r++)
        if (bench_run_once(b, e, &runs[r], err, sizeof err) != 0) {
            fprintf(stderr, "laplace: bench: %s: %s\n", command, err);
            b->failed++;
            return;
        }
    for (int r = 1; r < RUNS; r++)
        if (runs[r].report.result.time_compute_s <
            runs[best].report.result.time_compute_s)
            best = r;
    b->best[i] = (struct best){.compute_s = runs[best].report.result.time_compute_s,
                               .gbps = report_metrics(&runs[best].report).gbps,
                               .tiles = runs[best].plan.config.partition_x *
                                        runs[best].plan.config.partition_y};
    for (int r = 0; r < RUNS; r++)
        csv_row(b, i, &runs[r].report, r + 1, command);
    table_row(b, i, &runs[best].report);
}

/* ---- the preamble: machine, ceilings, plan (on stdout and atop the CSV) ----- */

static void print_ceilings(FILE *out, const char *prefix, const struct bench *b)
{
    const struct ceilings *c = &b->ceilings;
    fprintf(out, "%sceilings (median of %d timed repetitions after %d warm-ups):\n",
            prefix, CEILING_REPEATS, CEILING_WARMUPS);
    for (int i = 0; i < c->gpus; i++)
        fprintf(out,
                "%s  GPU %d copy        %8.1f GB/s  cudaMemcpyAsync device to device, "
                "%zu MiB, read + written\n",
                prefix, b->devices[i], c->copy_gbps[i], c->gpu_bytes / MIB);
    for (int j = 1; j < c->gpus; j++)
        fprintf(out,
                "%s  peer GPU %d -> %-3d %8.1f GB/s  cudaMemcpyPeerAsync, %zu MiB, "
                "copied once; peer access %s\n",
                prefix, b->devices[0], b->devices[j], c->peer_gbps[j], c->gpu_bytes / MIB,
                c->peer_access[j] ? "enabled"
                                  : "impossible (copies go through the host)");
    if (c->gpus == 0)
        fprintf(out, "%s  GPUs were not measured: %s\n", prefix,
                ceilings_no_gpu_reason());
    fprintf(out,
            "%s  host copy         %8.1f GB/s  %d threads, 2 x %zu MiB, read + written\n",
            prefix, c->host_gbps, c->host_threads, c->host_bytes / MIB);
}

static void print_largest(FILE *out, const char *prefix, const struct bench *b)
{
    const struct bench_machine *m = &b->machine;
    if (m->gpus == 0)
        return;
    if (m->quick) {
        fprintf(out, "%slargest square: not run (LAPLACE_BENCH_QUICK)\n", prefix);
        return;
    }
    for (int p = PRECISION_FLOAT; p <= PRECISION_DOUBLE; p++) {
        long fit = bench_largest_fit(m->gpu_free_bytes, (enum precision)p);
        long run = bench_largest_square(m, (enum precision)p);
        fprintf(out, "%slargest square, %s: %ld^2 fits one GPU (%.1f GiB free); ", prefix,
                precision_name((enum precision)p), fit, (double)m->gpu_free_bytes / GIB);
        if (run > scaling_sizes[COUNT(scaling_sizes) - 1])
            fprintf(out, "run at %ld^2%s\n", run,
                    run < fit ? " (capped: host memory and set-up time)" : "");
        else
            fprintf(out, "not run (%ld^2 is not larger than the sizes above)\n", run);
    }
}

void bench_print_machine(FILE *out, const char *prefix, const struct bench *b)
{
    char date[16], cuda[128];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d", &tm);
    p2p_runtime_version(cuda, sizeof cuda);
    fprintf(out, "%slaplace --bench, %s, %s; %d CPU cores; ", prefix, date, cuda,
            omp_get_num_procs());
    if (b->gpus > 0)
        fprintf(out, "%d GPU%s (first: %d, %s)\n", b->gpus, b->gpus > 1 ? "s" : "",
                b->devices[0], b->gpu_name);
    else
        fprintf(out, "no GPU\n");
    print_ceilings(out, prefix, b);
}

/* The largest square and the matrix: how many configurations, how long. */
static void print_matrix_plan(FILE *out, const char *prefix, const struct bench *b)
{
    double estimate = 0.0;
    print_largest(out, prefix, b);
    for (int i = 0; i < b->count; i++)
        estimate += bench_estimate_s(&b->entries[i]);
    fprintf(out, "%smatrix: %d configuration%s, each run %d times", prefix, b->count,
            b->count > 1 ? "s" : "", RUNS);
    if (b->gpus > 0)
        fprintf(out, " (iterations for about %.1f s at %.0f TB/s on 1 GPU)", TARGET_RUN_S,
                NOMINAL_GPU_BYTES_S * 1e-12);
    fprintf(out, "; estimated %.0f s%s\n", estimate,
            b->machine.quick ? " (LAPLACE_BENCH_QUICK: tiny lattices, not for numbers)"
                             : "");
}

/* ---- summary: the targets of the speed issue ------------------------------- */

/* The entry of group with this size, precision and GPU count that ran; or -1. */
static int find(const struct bench *b, const char *group, long n, enum precision p,
                int gpus)
{
    for (int i = 0; i < b->count; i++) {
        const struct bench_entry *e = &b->entries[i];
        if (strcmp(e->group, group) == 0 && e->n == n && e->precision == p &&
            e->gpus == gpus && isfinite(b->best[i].compute_s))
            return i;
    }
    return -1;
}

/* 1 GPU against the copy-bandwidth floor: target 90% of the copy bandwidth. */
static void summary_floor(const struct bench *b, long n, enum precision p)
{
    int i = find(b, "scaling", n, p, 1);
    if (i < 0 || b->ceilings.gpus == 0)
        return;
    const struct bench_entry *e = &b->entries[i];
    double bytes = report_sweep_bytes(n, n, p) * (double)e->iterations;
    double floor_s = bytes / (b->ceilings.copy_gbps[0] * 1e9);
    double fraction = floor_s / b->best[i].compute_s;
    bench_say(b,
              "  1 GPU %ld^2 %s: %.3f s for %ld iterations; copy-bandwidth floor %.3f s, "
              "target %.3f s (%.0f%% of copy bandwidth): reached %.0f%%, %s\n",
              n, precision_name(p), b->best[i].compute_s, e->iterations, floor_s,
              floor_s / TARGET_FRACTION, 100.0 * TARGET_FRACTION, 100.0 * fraction,
              fraction >= TARGET_FRACTION ? "met" : "not met");
}

static void summary_efficiency(const struct bench *b, long n, int gpus)
{
    int i = find(b, "scaling", n, PRECISION_FLOAT, gpus);
    int one = find(b, "scaling", n, PRECISION_FLOAT, 1);
    if (i < 0 || one < 0)
        return;
    double speedup = (b->best[one].compute_s / (double)b->entries[one].iterations) /
                     (b->best[i].compute_s / (double)b->entries[i].iterations);
    bench_say(b,
              "  %d GPUs %ld^2 float: %.3f s against 1 GPU %.3f s: speed-up %.2f, "
              "efficiency %.0f%%\n",
              gpus, n, b->best[i].compute_s, b->best[one].compute_s, speedup,
              100.0 * speedup / gpus);
}

/* Every layout of the most GPUs run at n^2 float, the fastest named. */
static void summary_layouts(const struct bench *b, long n)
{
    int gpus = 0, fastest = -1;
    for (int i = 0; i < b->count; i++)
        if (b->entries[i].n == n && b->entries[i].gpus > gpus &&
            strcmp(b->entries[i].group, "layout") == 0)
            gpus = b->entries[i].gpus;
    if (gpus == 0)
        return;
    bench_say(b, "  layouts of %d GPUs at %ld^2 float:", gpus, n);
    for (int i = 0; i < b->count; i++) {
        const struct bench_entry *e = &b->entries[i];
        int counted = strcmp(e->group, "layout") == 0 || strcmp(e->group, "scaling") == 0;
        if (!counted || e->n != n || e->gpus != gpus || e->precision != PRECISION_FLOAT ||
            !isfinite(b->best[i].compute_s))
            continue;
        bench_say(b, " %dx%d %.3f s", e->partition_x, e->partition_y,
                  b->best[i].compute_s);
        if (fastest < 0 || b->best[i].compute_s < b->best[fastest].compute_s)
            fastest = i;
    }
    if (fastest >= 0)
        bench_say(b, "; fastest %dx%d\n", b->entries[fastest].partition_x,
                  b->entries[fastest].partition_y);
    else
        bench_say(b, " none ran\n");
}

static void summary_cpu(const struct bench *b, long n)
{
    int i = find(b, "cpu", n, PRECISION_DOUBLE, 0);
    int gpu = find(b, "scaling", n, PRECISION_DOUBLE, 1);
    if (i < 0)
        return;
    bench_say(
        b,
        "  CPU %ld^2 double, %d threads: %.1f GB/s, %.0f%% of the host copy bandwidth "
        "(%.1f GB/s)",
        n, b->best[i].tiles, b->best[i].gbps,
        100.0 * b->best[i].gbps / b->ceilings.host_gbps, b->ceilings.host_gbps);
    if (gpu >= 0)
        bench_say(b, "; 1 GPU is %.0fx faster per iteration",
                  (b->best[i].compute_s / (double)b->entries[i].iterations) /
                      (b->best[gpu].compute_s / (double)b->entries[gpu].iterations));
    bench_say(b, "\n");
}

static void summary(const struct bench *b)
{
    int quick = b->machine.quick;
    long big = quick ? QUICK_N : scaling_sizes[COUNT(scaling_sizes) - 1];
    bench_say(b, "\ntargets:\n");
    if (b->gpus == 0)
        bench_say(b, "  GPUs were not measured: %s\n", ceilings_no_gpu_reason());
    summary_floor(b, big, PRECISION_FLOAT);
    summary_floor(b, big, PRECISION_DOUBLE);
    summary_efficiency(b, big, 2);
    summary_efficiency(b, big, 4);
    summary_efficiency(b, big, 8);
    summary_layouts(b, big);
    summary_cpu(b, quick ? QUICK_N : CPU_N);
}

/* ---- bench_run ------------------------------------------------------------ */

/* LAPLACE_BENCH_ONLY: matrix or sweep runs one part; unset or empty, both. */
static int bench_parts(struct bench *b, char *err, size_t n)
{
    const char *only = getenv("LAPLACE_BENCH_ONLY");
    if (!only || !*only)
        b->parts = BENCH_PART_MATRIX | BENCH_PART_SWEEP;
    else if (strcmp(only, "matrix") == 0)
        b->parts = BENCH_PART_MATRIX;
    else if (strcmp(only, "sweep") == 0)
        b->parts = BENCH_PART_SWEEP;
    else
        return error_status(EXIT_BAD_USAGE, err, n,
                            "LAPLACE_BENCH_ONLY: '%.64s' is not a part of the bench "
                            "(matrix or sweep; unset for both)",
                            only);
    return EXIT_OK;
}

/* The GPUs (--devices, or every one), quick mode and the host's memory. */
static int bench_setup(struct bench *b, const struct config *c, char *err, size_t n)
{
    const char *quick = getenv("LAPLACE_BENCH_QUICK");
    int count = p2p_device_count();
    b->quiet = c->quiet;
    b->machine.quick = quick && *quick && strcmp(quick, "0") != 0;
    b->machine.host_bytes =
        (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    b->machine.cores = omp_get_num_procs();
    b->gpus = c->device_count > 0 ? c->device_count : count;
    if (b->gpus > CONFIG_MAX_DEVICES)
        b->gpus = CONFIG_MAX_DEVICES;
    for (int i = 0; i < b->gpus; i++) {
        b->devices[i] = c->device_count > 0 ? c->devices[i] : i;
        if (b->devices[i] >= count && count == 0)
            return error_status(EXIT_BAD_USAGE, err, n,
                                "--devices: no CUDA device is visible");
        if (b->devices[i] >= count)
            return error_status(EXIT_BAD_USAGE, err, n,
                                "--devices: there is no GPU %d (this machine has %d: "
                                "0 to %d)",
                                b->devices[i], count, count - 1);
    }
    b->machine.gpus = b->gpus;
    if (b->gpus > 0 &&
        ceilings_gpu_name(b->devices[0], b->gpu_name, sizeof b->gpu_name, err, n))
        return EXIT_FAILURE_RUN;
    return EXIT_OK;
}

/* The ceilings, then the free memory the largest square is planned from. */
static int bench_measure(struct bench *b, char *err, size_t n)
{
    size_t copy = b->machine.quick ? QUICK_COPY_MIB * MIB : GIB;
    size_t host = copy;
    if (host > b->machine.host_bytes / 8)
        host = b->machine.host_bytes / 8 / MIB * MIB;
    const char *matrix = b->gpus > 0 ? "the matrix" : "the CPU baseline";
    bench_say(b, "laplace --bench: measuring the ceilings, then %s%s%s ...\n",
              b->parts & BENCH_PART_MATRIX ? matrix : "",
              b->parts == (BENCH_PART_MATRIX | BENCH_PART_SWEEP) ? " and " : "",
              b->parts & BENCH_PART_SWEEP ? "the lattice sweep" : "");
    if (ceilings_measure_gpus(&b->ceilings, b->devices, b->gpus, copy, err, n) != 0 ||
        ceilings_measure_host(&b->ceilings, host, err, n) != 0 ||
        ceilings_least_free(b->devices, b->gpus, &b->machine.gpu_free_bytes, err, n) != 0)
        return EXIT_FAILURE_RUN;
    if (b->parts & BENCH_PART_MATRIX)
        b->count = bench_matrix(&b->machine, b->entries, BENCH_MAX_ENTRIES);
    return EXIT_OK;
}

/* DIR (LAPLACE_BENCH_DIR or results) made, and the matrix's CSV named in it (the
 * sweep's is named after it); the machine and the ceilings on stdout. */
static int bench_paths(struct bench *b, char *err, size_t n)
{
    const char *dir = getenv("LAPLACE_BENCH_DIR");
    char shown[512]; /* LAPLACE_BENCH_DIR as the message echoes it (error_quote) */
    if (!dir || !*dir)
        dir = "results";
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return error_status(EXIT_FAILURE_RUN, err, n, "cannot create %s: %s",
                            error_quote(dir, shown, sizeof shown), strerror(errno));
    bench_file_name(b->csv_path, sizeof b->csv_path, dir, b->gpu_name, time(NULL));
    if (!b->quiet)
        bench_print_machine(stdout, "", b);
    return EXIT_OK;
}

/* Opens the matrix's CSV and writes the preamble and the header. */
static int bench_open_csv(struct bench *b, char *err, size_t n)
{
    char shown[CONFIG_PATH_MAX];
    b->csv = fopen(b->csv_path, "w");
    if (!b->csv)
        return error_status(EXIT_FAILURE_RUN, err, n, "cannot write %s: %s",
                            error_quote(b->csv_path, shown, sizeof shown),
                            strerror(errno));
    bench_print_machine(b->csv, "# ", b);
    print_matrix_plan(b->csv, "# ", b);
    bench_csv_header(b->csv);
    if (!b->quiet)
        print_matrix_plan(stdout, "", b);
    return EXIT_OK;
}

/* The matrix, the summary, and the CSV closed. Configurations that failed are
 * counted in b->failed (bench_failures reports them). */
static int bench_matrix_run(struct bench *b, char *err, size_t n)
{
    if (bench_open_csv(b, err, n) != EXIT_OK)
        return EXIT_FAILURE_RUN;
    table_header(b);
    for (int i = 0; i < b->count; i++)
        run_entry(b, i);
    summary(b);
    int bad = ferror(b->csv);
    if (fclose(b->csv) != 0 || bad) {
        b->csv = NULL;
        return error_status(EXIT_FAILURE_RUN, err, n, "cannot write %s", b->csv_path);
    }
    b->csv = NULL;
    bench_say(b, "\nwrote %s\n", b->csv_path);
    return EXIT_OK;
}

/* One line for the runs that failed, if any, after both parts had their turn. */
static int bench_failures(const struct bench *b, char *err, size_t n)
{
    if (b->failed == 0 && b->sweep_failed == 0)
        return EXIT_OK;
    if (b->sweep_failed == 0)
        snprintf(err, n,
                 "bench: %d of %d configurations failed (see above); %s holds the "
                 "others",
                 b->failed, b->count, b->csv_path);
    else if (b->failed == 0)
        snprintf(err, n,
                 "bench: %d of %d points of the lattice sweep failed (see above); its "
                 "CSV holds the others",
                 b->sweep_failed, b->sweep_points);
    else
        snprintf(err, n,
                 "bench: %d of %d configurations and %d of %d points of the lattice "
                 "sweep failed (see above); the CSVs hold the others",
                 b->failed, b->count, b->sweep_failed, b->sweep_points);
    return EXIT_FAILURE_RUN;
}

int bench_run(const struct config *c)
{
    char err[CONFIG_ERROR_MAX];
    struct bench *b = calloc(1, sizeof *b);
    if (!b)
        return fprintf(stderr, "laplace: out of memory\n"), EXIT_FAILURE_RUN;
    int status = bench_parts(b, err, sizeof err);
    if (status == EXIT_OK)
        status = bench_setup(b, c, err, sizeof err);
    if (status == EXIT_OK)
        status = bench_measure(b, err, sizeof err);
    if (status == EXIT_OK)
        status = bench_paths(b, err, sizeof err);
    if (status == EXIT_OK && (b->parts & BENCH_PART_MATRIX))
        status = bench_matrix_run(b, err, sizeof err);
    if (status == EXIT_OK && (b->parts & BENCH_PART_SWEEP))
        status = bench_sweep_run(b, err, sizeof err);
    if (status == EXIT_OK)
        status = bench_failures(b, err, sizeof err);
    if (status != EXIT_OK)
        fprintf(stderr, "laplace: %s\n", err);
    if (b->csv)
        fclose(b->csv);
    free(b);
    return status;
}

/*
 * bench_state.c - what every part of laplace --bench says with its state
 * (bench_state.h): its progress on stdout (nothing under --quiet), the machine and
 * the ceilings measured (on stdout and as "# " lines atop each CSV), and an entry
 * as the laplace command line that makes the same run.
 */
#include "bench_state.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>

#include <omp.h>

#include "bench/bench_number.h"
#include "p2p.h"

#define MIB ((size_t)1 << 20)

void bench_state_say(const struct bench_state *b, const char *format, ...)
{
    va_list args;
    if (b->quiet)
        return;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    fflush(stdout);
}

/* ---- the machine and the ceilings (on stdout and atop each CSV) ------------- */

static void print_ceilings(FILE *out, const char *prefix, const struct bench_state *b)
{
    const struct bench_ceilings *c = &b->ceilings;
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
    if (c->gpus > 0)
        fprintf(out,
                "%s  GPU %d grid.sync   %8.2f us    an empty loop's iteration, %d blocks "
                "of 1024 threads at a grid barrier\n"
                "%s  GPU %d cluster     %8.2f us    an empty loop's iteration, one "
                "cluster of %d blocks at its barrier, each reading a neighbour's shared "
                "memory: the floor of a loop on chip\n",
                prefix, b->devices[0], c->grid_sync_us, c->grid_sync_blocks, prefix,
                b->devices[0], c->cluster_sync_us, c->cluster_sync_blocks);
    if (c->gpus == 0)
        fprintf(out, "%s  GPUs were not measured: %s\n", prefix,
                bench_ceilings_no_gpu_reason());
    fprintf(out,
            "%s  host copy         %8.1f GB/s  %d threads, 2 x %zu MiB, read + written\n",
            prefix, c->host_gbps, c->host_threads, c->host_bytes / MIB);
}

/* One measured cost: its set-up and its iteration. */
static void print_cost(FILE *out, const char *prefix, const char *kind, int precision,
                       const struct bench_plan_cost *c)
{
    char latency[32];
    if (!c->measured)
        return;
    fprintf(out,
            "%s  %-16s %-6s set-up %.3f s + %.2f s/GiB, an iteration %s + its bytes "
            "at %.1f GB/s\n",
            prefix, kind, precision_name((enum precision)precision), c->setup_s,
            c->setup_s_per_gib, bench_number_us(latency, sizeof latency, c->latency_s),
            c->bytes_s * 1e-9);
}

/* The costs of a run that the estimates come from, those measured before them. */
static void print_costs(FILE *out, const char *prefix, const struct bench_state *b)
{
    fprintf(out,
            "%srun costs (a %d^2 and a %d^2 run timed whole, the median of %d, for the "
            "estimates):\n",
            prefix, BENCH_PROBE_SMALL_N,
            b->machine.quick ? BENCH_QUICK_PROBE_LARGE_N : BENCH_PROBE_LARGE_N,
            BENCH_PROBE_REPEATS);
    for (int p = PRECISION_FLOAT; p <= PRECISION_DOUBLE; p++) {
        print_cost(out, prefix, "1 GPU", p, &b->costs.gpu[p]);
        print_cost(out, prefix, "host, every core", p, &b->costs.host_all[p]);
        print_cost(out, prefix, "host, 1 thread", p, &b->costs.host_one[p]);
    }
}

void bench_state_print_machine(FILE *out, const char *prefix, const struct bench_state *b)
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
    print_costs(out, prefix, b);
}

/* ---- an entry as a command line ------------------------------------------- */

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

void bench_state_command(const struct bench_state *b, const struct bench_plan_entry *e,
                         char *s, size_t n)
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

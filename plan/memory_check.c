/*
 * memory_check.c - the bytes a run will hold, on each GPU and on the host,
 * against what they have (memory_check.h).
 */
#include "plan/memory_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "mpi/part_compare.h"
#include "mpi/rank_part.h"
#include "mpi/ranks.h"
#include "support/error.h"
#include "gpu_partition.h"

/* What a GPU holds besides the fields: block sums, halos, the context's own. */
#define DEVICE_MARGIN_BYTES (256.0 * 1024 * 1024)

/* Bytes of one value, and of the per-site terms per site. */
static double value_bytes(const struct plan *plan)
{
    return (double)precision_size(plan->config.problem.precision);
}

static double terms_bytes_per_site(const struct plan *plan)
{
    return (plan->update_rule.has_source ? value_bytes(plan) : 0.0) +
           (plan->update_rule.has_fixed ? 1.0 : 0.0);
}

double memory_check_tile_bytes(const struct plan *plan, long lx, long ly, int lone)
{
    double sites = (double)lx * (double)ly;
    double fields = lone ? 3.0 : 2.0; /* a lone tile keeps a checkpoint per batch */
    return sites * (fields * value_bytes(plan) + terms_bytes_per_site(plan)) +
           DEVICE_MARGIN_BYTES;
}

double memory_check_device_bytes(const struct plan *plan, int device)
{
    const struct partition *p = &plan->partition;
    int tiles = partition_count(p);
    double bytes = 0.0;
    for (int t = 0; t < tiles; t++)
        if (plan->devices[t] == device)
            bytes +=
                memory_check_tile_bytes(plan, p->tiles[t].lx, p->tiles[t].ly, tiles == 1);
    return bytes;
}

/* This rank's part, in doubles: host bytes, GPU count, then (device, bytes) each. */
#define PART_VALUES (2 + 2 * CONFIG_MAX_DEVICES)

static void my_part(const struct plan *plan, double *values)
{
    int gpus = 0;
    values[0] = memory_check_host_bytes(plan);
    for (int t = 0; t < partition_count(&plan->partition); t++)
        if (plan->config.backend == BACKEND_GPU &&
            memory_check_first_tile_of_device(plan, t) && gpus < CONFIG_MAX_DEVICES) {
            values[2 + 2 * gpus] = plan->devices[t];
            values[3 + 2 * gpus] = memory_check_device_bytes(plan, plan->devices[t]);
            gpus++;
        }
    values[1] = gpus;
}

int memory_check_parts(const struct plan *plan, struct memory_check_part *parts,
                       char *err, size_t n)
{
    int world = plan->config.world_size > 1 ? plan->config.world_size : 1;
    double mine[PART_VALUES] = {0};
    double *all = malloc((size_t)world * PART_VALUES * sizeof *all);
    int *counts = malloc((size_t)world * sizeof *counts);
    int status = all && counts ? 0
                               : error_set(err, n,
                                           "out of host memory for the "
                                           "ranks' memory");
    if (ranks_agree_status(status, err, n) != 0) { /* every rank, or none, gathers */
        free(all), free(counts);
        return -1;
    }
    for (int r = 0; r < world; r++)
        counts[r] = PART_VALUES;
    my_part(plan, mine);
    ranks_gather_all(mine, counts, all);
    for (int r = 0; r < world; r++) {
        const double *v = all + (size_t)r * PART_VALUES;
        parts[r] = (struct memory_check_part){.host_bytes = v[0], .gpus = (int)v[1]};
        for (int g = 0; g < parts[r].gpus; g++) {
            parts[r].device[g] = (int)v[2 + 2 * g];
            parts[r].device_bytes[g] = v[3 + 2 * g];
        }
    }
    free(all), free(counts);
    return 0;
}

int memory_check_first_tile_of_device(const struct plan *plan, int t)
{
    if (plan->devices[t] < 0) /* another MPI rank's tile */
        return 0;
    for (int u = 0; u < t; u++)
        if (plan->devices[u] == plan->devices[t])
            return 0;
    return 1;
}

/* The sites of the lattice, and of the field this rank solves and keeps: its part
 * (with its shadows) under several ranks (rank_part.h), the whole in one process. */
static double whole_sites(const struct plan *plan)
{
    return (double)plan->config.problem.nx * (double)plan->config.problem.ny;
}

static double rank_sites(const struct plan *plan)
{
    const struct config *c = &plan->config;
    struct rank_part rp;
    if (c->world_size <= 1)
        return whole_sites(plan);
    rank_part_make(&rp, &plan->partition, c->ranks_x, c->ranks_y, ranks_rank());
    return (double)rp.held.nx * (double)rp.held.ny;
}

/* Peak host bytes of one solve over `sites` on a backend: its field and terms,
 * which the tiles upload from and download into directly (no staging copy), and
 * the tiles' own fields (CPU) or the two fields (serial). */
static double solve_host_bytes(const struct plan *plan, enum backend backend,
                               double sites)
{
    double field = sites * value_bytes(plan), terms = sites * terms_bytes_per_site(plan);
    if (backend == BACKEND_SERIAL)
        return 2.0 * field + terms;
    double host = field + terms; /* the field and terms */
    if (backend == BACKEND_CPU)
        host += 2.0 * field + terms; /* the tiles' fields and terms */
    return host;
}

/* The main run's peak on this rank: its solve over its field (under several ranks
 * its part, from which its outputs, snapshots and --exact are taken too). */
static double main_run_host_bytes(const struct plan *plan)
{
    return solve_host_bytes(plan, plan->config.backend, rank_sites(plan));
}

/* The peak of a comparison on `backend`, the main run's field kept meanwhile: in one
 * process the comparison's solve; under several ranks a block of it on every rank
 * (part_compare.h), and, where `solves` (rank 0), its solve of the whole lattice. */
static double comparison_host_bytes(const struct plan *plan, enum backend backend,
                                    int solves)
{
    double kept = rank_sites(plan) * value_bytes(plan);
    double whole = solve_host_bytes(plan, backend, whole_sites(plan));
    if (plan->config.world_size <= 1)
        return kept + whole;
    double block =
        kept < (double)PART_COMPARE_BLOCK_BYTES ? kept : (double)PART_COMPARE_BLOCK_BYTES;
    return kept + block + (solves ? whole : 0.0);
}

/* A rank's host peak with the comparisons `one` (--compare) and `cpu` (--compare-cpu)
 * that are asked for (0 or 1 each); `solves`: the rank that solves them (rank 0). */
static double rank_bytes(const struct plan *plan, int solves, int one, int cpu)
{
    const struct config *c = &plan->config;
    double peak = main_run_host_bytes(plan);
    double compared = one ? comparison_host_bytes(plan, c->backend, solves) : 0.0;
    double on_cpu = cpu ? comparison_host_bytes(plan, BACKEND_CPU, solves) : 0.0;
    peak = compared > peak ? compared : peak;
    return on_cpu > peak ? on_cpu : peak;
}

double memory_check_host_bytes(const struct plan *plan)
{
    const struct config *c = &plan->config;
    return rank_bytes(plan, ranks_rank() == 0, c->compare, c->compare_cpu);
}

/* The other MPI ranks on this rank's node, which share its memory. */
static int node_others(const struct plan *plan)
{
    return plan->config.world_size > 1 ? ranks_local_size() - 1 : 0;
}

/* What this rank's node holds at this rank's peak: its other ranks hold parts
 * alike (equal blocks of tiles), never a comparison's solve (rank 0's alone). */
static double node_bytes(const struct plan *plan, int one, int cpu)
{
    return rank_bytes(plan, ranks_rank() == 0, one, cpu) +
           node_others(plan) * rank_bytes(plan, 0, one, cpu);
}

/* The host's available memory (MemAvailable), or 0 when it cannot be read. */
static double host_available_bytes(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    double kib = 0.0;
    if (!f)
        return 0.0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kib) == 1)
            break;
    fclose(f);
    return kib * 1024.0;
}

static double gib(double bytes)
{
    return bytes / (1024.0 * 1024.0 * 1024.0);
}

static int check_host(const struct plan *plan, char *err, size_t n)
{
    const struct config *c = &plan->config;
    double need = node_bytes(plan, c->compare, c->compare_cpu);
    double have = host_available_bytes();
    char ranks[64] = "";
    if (have <= 0.0 || need <= have)
        return 0;
    if (node_others(plan) > 0)
        snprintf(ranks, sizeof ranks, ", for the %d ranks on this node",
                 node_others(plan) + 1);
    snprintf(err, n,
             "the %ldx%ld %s lattice needs about %.1f GiB of host memory (fields, "
             "per-site terms and buffers%s%s); %.1f GiB is available",
             c->problem.nx, c->problem.ny, precision_name(c->problem.precision),
             gib(need), c->compare || c->compare_cpu ? ", with the comparisons" : "",
             ranks, gib(have));
    return -1;
}

#ifdef HAVE_CUDA
/* Free bytes of a GPU, or a negative number (err set) when it cannot be asked. */
static double device_free_bytes(int device, char *err, size_t n)
{
    size_t free_bytes = 0, total = 0;
    cudaError_t rc = cudaSetDevice(device);
    if (rc == cudaSuccess)
        rc = cudaMemGetInfo(&free_bytes, &total);
    if (rc != cudaSuccess)
        return error_set(err, n, "cudaMemGetInfo on GPU %d: %s", device,
                         cudaGetErrorString(rc));
    return (double)free_bytes;
}

static int refuse_device(const struct config *c, int device, const char *what,
                         double need, double have, char *err, size_t n)
{
    snprintf(err, n,
             "the %ldx%ld %s lattice needs about %.1f GiB on GPU %d (%s); it has %.1f "
             "GiB free%s",
             c->problem.nx, c->problem.ny, precision_name(c->problem.precision),
             gib(need), device, what, gib(have),
             c->partition_x * c->partition_y > 1
                 ? ""
                 : "; more GPUs (--partition) would share it");
    return -1;
}

/* Each GPU against its tiles. */
static int check_devices(const struct plan *plan, char *err, size_t n)
{
    const struct config *c = &plan->config;
    int tiles = partition_count(&plan->partition);
    for (int t = 0; t < tiles; t++) {
        if (!memory_check_first_tile_of_device(plan, t))
            continue;
        double need = memory_check_device_bytes(plan, plan->devices[t]);
        double have = device_free_bytes(plan->devices[t], err, n);
        if (have < 0.0)
            return -1;
        if (need > have)
            return refuse_device(c, plan->devices[t], "two fields of its tiles", need,
                                 have, err, n);
    }
    return 0; /* the comparisons: check_comparisons */
}
#endif

/* A comparison that its process (rank 0 under MPI) cannot hold: a setting this run
 * cannot take, refused before anything runs (status 2). `where`: "the host" or
 * "one device (GPU D)". */
static int refuse_comparison(const struct plan *plan, const char *option,
                             const char *where, double need, double have, char *err,
                             size_t n)
{
    const struct config *c = &plan->config;
    int host = strcmp(where, "the host") == 0;
    char ranks[64] = "";
    if (host && node_others(plan) > 0)
        snprintf(ranks, sizeof ranks, " with the %d ranks there", node_others(plan) + 1);
    return error_status(EXIT_BAD_USAGE, err, n,
                        "%s: the %ldx%ld %s lattice does not fit %s%s, which solves "
                        "it whole to compare (about %.1f GiB needed%s, %.1f GiB %s); "
                        "drop %s or run it on a smaller lattice",
                        option, c->problem.nx, c->problem.ny,
                        precision_name(c->problem.precision), where,
                        c->world_size > 1 ? " of rank 0" : "", gib(need), ranks,
                        gib(have), host ? "available" : "free", option);
}

/* Rank 0's host against each comparison's peak, where the main run itself fits
 * (where it does not, check_host says so). */
static int check_comparisons_host(const struct plan *plan, char *err, size_t n)
{
    const struct config *c = &plan->config;
    double have = host_available_bytes();
    if (have <= 0.0 || node_bytes(plan, 0, 0) > have)
        return EXIT_OK;
    double one = node_bytes(plan, c->compare, 0),
           cpu = node_bytes(plan, 0, c->compare_cpu);
    if (one > have)
        return refuse_comparison(plan, "--compare", "the host", one, have, err, n);
    if (cpu > have)
        return refuse_comparison(plan, "--compare-cpu", "the host", cpu, have, err, n);
    return EXIT_OK;
}

/*
 * --compare and --compare-cpu solve the whole lattice again, under several ranks on
 * rank 0 alone (the ranks then compare it with their parts piece by piece): the
 * process that solves it checks that its first GPU (--compare on GPUs) and its host
 * hold it, with one process as under mpirun. Status 2 when they do not, 1 when a GPU
 * cannot be asked.
 */
static int check_comparisons(const struct plan *plan, char *err, size_t n)
{
    const struct config *c = &plan->config;
    if (ranks_rank() != 0 || (!c->compare && !c->compare_cpu))
        return EXIT_OK;
#ifdef HAVE_CUDA
    if (c->compare && c->backend == BACKEND_GPU) {
        char where[64];
        double need = memory_check_tile_bytes(plan, c->problem.nx, c->problem.ny, 1);
        double have = device_free_bytes(plan->devices[0], err, n);
        if (have < 0.0)
            return EXIT_FAILURE_RUN;
        snprintf(where, sizeof where, "one device (GPU %d)", plan->devices[0]);
        if (need > have)
            return refuse_comparison(plan, "--compare", where, need, have, err, n);
    }
#endif
    return check_comparisons_host(plan, err, n);
}

int memory_check(const struct plan *plan, char *err, size_t n)
{
#ifdef HAVE_CUDA
    if (plan->config.backend == BACKEND_GPU && check_devices(plan, err, n) != 0)
        return EXIT_FAILURE_RUN;
#endif
    int status = check_comparisons(plan, err, n);
    if (status != EXIT_OK)
        return status;
    return check_host(plan, err, n) != 0 ? EXIT_FAILURE_RUN : EXIT_OK;
}

/*
 * binding.c - the check of binding.h: this process's cores against its tiles'
 * threads, every rank's verdict shared (ranks.h), one line said by rank 0.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "mpi/binding.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <omp.h>

#include "mpi/ranks.h"

/*
 * The cores of OpenMP's places where OMP_PROC_BIND binds the threads (0 where it
 * does not): all places' cores for close, spread or true; the initial thread's
 * place for primary, which puts every thread there.
 */
static int places_cores(void)
{
    omp_proc_bind_t bind = omp_get_proc_bind();
    if (bind == omp_proc_bind_false || omp_get_num_places() <= 0)
        return 0;
    if (bind != omp_proc_bind_close && bind != omp_proc_bind_spread &&
        bind != omp_proc_bind_true) /* primary */
        return omp_get_place_num() >= 0 ? omp_get_place_num_procs(omp_get_place_num())
                                        : 0;
    cpu_set_t cores;
    CPU_ZERO(&cores);
    for (int p = 0; p < omp_get_num_places(); p++) {
        int ids[CPU_SETSIZE], count = omp_get_place_num_procs(p);
        omp_get_place_proc_ids(p, ids);
        for (int i = 0; i < count && i < CPU_SETSIZE; i++)
            if (ids[i] >= 0 && ids[i] < CPU_SETSIZE)
                CPU_SET(ids[i], &cores);
    }
    return CPU_COUNT(&cores);
}

/* Where OMP_PROC_BIND binds, libgomp has already pinned this (the initial) thread
 * to its first place, so the mask is read from the process's start, which
 * omp_get_num_procs keeps; elsewhere the mask is this thread's, as the launcher
 * set it. */
int binding_cores(int *by_places)
{
    cpu_set_t mask;
    int places = places_cores(), affinity = omp_get_num_procs();
    if (!places && sched_getaffinity(0, sizeof mask, &mask) == 0)
        affinity = CPU_COUNT(&mask);
    *by_places = places > 0 && places < affinity;
    return *by_places ? places : affinity;
}

int binding_node_share(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int share = online > 0 ? (int)(online / ranks_local_size()) : 1;
    return share > 0 ? share : 1;
}

int binding_rank_cores(void)
{
    int cores = omp_get_num_procs(), share = binding_node_share();
    return share < cores ? share : cores;
}

/*
 * Host tiles: one busy thread each, so fewer cores than tiles is time lost, but
 * only what the node could give is worth a warning: a node with fewer cores than
 * its ranks' tiles (two ranks of four tiles on two cores, as the tests run) takes
 * turns with any binding, and --partition auto is the fix there (run.c says so).
 * GPU tiles: a thread mostly waits for its GPU (a launch, a copy, a
 * synchronize), so several share a core well; one core for two tiles or more is
 * what hurts, each exchange waiting for every thread's turn on it (and a spinning
 * wait at a barrier taking it from the thread with a launch to make).
 */
int binding_crowded(int tiles, int gpu, int cores, int share)
{
    if (gpu)
        return cores == 1 && tiles >= 2 && share >= 2;
    return cores < (tiles < share ? tiles : share);
}

/* The part of the line after "for N tiles: ...; ": how to give the threads cores. */
static void hint(const struct binding_verdict *v, int mpi, char *out, size_t n)
{
    if (v->by_places)
        snprintf(out, n, "widen OMP_PLACES or unset OMP_PROC_BIND");
    else if (mpi)
        snprintf(out, n,
                 "launch with mpirun --bind-to none (or --map-by slot:PE=%d), or srun "
                 "--cpus-per-task=%d",
                 v->tiles, v->tiles);
    else
        snprintf(out, n,
                 "give it %d cores (taskset -c 0-%d, a wider cgroup cpuset, srun "
                 "--cpus-per-task=%d or mpirun --bind-to none)",
                 v->tiles, v->tiles - 1, v->tiles);
}

void binding_line(const struct binding_verdict *v, int count, int mpi, int gpu,
                  char *line, size_t n)
{
    int first = -1, others = 0;
    for (int r = 0; r < count; r++)
        if (v[r].crowded && first < 0)
            first = r;
        else if (v[r].crowded)
            others++;
    const struct binding_verdict *w = &v[first < 0 ? 0 : first];
    char who[64] = "this process", also[64] = "", how[160];
    if (mpi)
        snprintf(who, sizeof who, "rank %d", first < 0 ? 0 : first);
    if (others)
        snprintf(also, sizeof also, " (and %d other rank%s)", others,
                 others > 1 ? "s" : "");
    hint(w, mpi, how, sizeof how);
    snprintf(line, n, "%s%s may run on %d core%s (%s) for %d %s tiles: %s; %s", who, also,
             w->cores, w->cores == 1 ? "" : "s",
             w->by_places ? "OpenMP's places" : "its CPU affinity", w->tiles,
             gpu ? "GPU" : "host",
             gpu ? "their threads take turns to drive the GPUs"
                 : "the tiles' threads take turns",
             how);
}

/* This process's verdict on tiles tiles of its own. */
static struct binding_verdict verdict_of(int tiles, int gpu)
{
    struct binding_verdict v = {.tiles = tiles};
    v.cores = binding_cores(&v.by_places);
    v.crowded = binding_crowded(tiles, gpu, v.cores, binding_node_share());
    return v;
}

/* Every rank's verdict (ranks_size() of them, malloc'd), or NULL on every rank
 * when one of them lacks the memory: every rank calls it. */
static struct binding_verdict *gather(const struct binding_verdict *mine, int size)
{
    int *counts = malloc((size_t)size * sizeof *counts);
    double *values = malloc((size_t)size * 4 * sizeof *values);
    struct binding_verdict *all = malloc((size_t)size * sizeof *all);
    int ok = ranks_max(!counts || !values || !all) == 0;
    if (ok) {
        double sent[4] = {mine->crowded, mine->cores, mine->tiles, mine->by_places};
        for (int r = 0; r < size; r++)
            counts[r] = 4;
        ranks_gather_all(sent, counts, values);
        for (int r = 0; r < size; r++) {
            const double *got = &values[4 * r];
            all[r] = (struct binding_verdict){.crowded = (int)got[0],
                                              .cores = (int)got[1],
                                              .tiles = (int)got[2],
                                              .by_places = (int)got[3]};
        }
    }
    free(counts), free(values);
    if (!ok)
        free(all);
    return ok ? all : NULL;
}

/*
 * Said always, on stderr, unlike run.c's note on more tiles than cores, which waits
 * for a terminal: a rank's stderr is never one (mpirun reads it through a pipe),
 * nor is a batch job's, and those are where a binding costs. It costs a line only
 * when the check holds, which a run whose cores fit its tiles never meets, so
 * stdout, what scripts read, is untouched, and stderr stays empty in normal runs.
 * --quiet leaves it too: it silences the report, not a warning.
 */
void binding_check(int tiles, int gpu, int shared)
{
    static int said;
    struct binding_verdict mine = verdict_of(tiles, gpu), *all = &mine;
    int count = 1;
    if (shared && ranks_max(mine.crowded) == 0)
        return; /* the usual case: one reduction, nothing to say */
    if (!shared && !mine.crowded)
        return;
    if (shared) {
        count = ranks_size();
        all = gather(&mine, count);
    }
    if (all && ranks_rank() == 0 && !said++) {
        char line[512];
        binding_line(all, count, ranks_size() > 1, gpu, line, sizeof line);
        fprintf(stderr, "laplace: warning: %s\n", line);
    }
    if (all != &mine)
        free(all);
}

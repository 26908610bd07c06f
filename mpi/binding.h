/*
 * binding.h - whether the cores a launcher's binding leaves this process are fewer
 * than its tiles' OpenMP threads need, said in one line on stderr (issue 25).
 *
 * Open MPI binds each rank to one core when it starts two ranks or fewer (to a
 * socket or NUMA node beyond): a rank's tiles' threads then share that core and the
 * run is 1.4-1.6x slower, silently. srun (--cpus-per-task=1), taskset and a cgroup's
 * cpuset do the same to one process. Every rank checks itself; rank 0 alone says
 * so, once, for every rank concerned, and names the launcher option that fixes it:
 *
 *   laplace: warning: rank 0 may run on 1 core (its CPU affinity) for 4 host
 *   tiles: the tiles' threads take turns; launch with mpirun --bind-to none (or
 *   --map-by slot:PE=4), or srun --cpus-per-task=4          (one line)
 */
#ifndef LAPLACE_BINDING_H
#define LAPLACE_BINDING_H

#include <stddef.h>

/* One rank's verdict, as the ranks share it. */
struct binding_verdict {
    int crowded;   /* its tiles take turns on cores a launcher could widen */
    int cores;     /* the cores its threads may run on */
    int tiles;     /* its tiles: one OpenMP thread each */
    int by_places; /* 1: OpenMP's own binding (OMP_PLACES) limits them, not the mask */
};

/* The cores this process's OpenMP threads may run on: its CPU affinity (what
 * mpirun, srun or taskset set), or fewer where OMP_PROC_BIND binds the threads to
 * OMP_PLACES that cover less of it (then *by_places is 1). */
int binding_cores(int *by_places);

/* The cores of the node this process could have: the node's online cores divided
 * among its ranks (ranks_local_size), at least 1. Under mpirun --bind-to none every
 * rank's affinity is the whole node: this share, not the affinity, is what each
 * rank's host tiles may keep busy without taking turns with the other ranks'. */
int binding_node_share(void);

/* The cores this process's host tiles may keep busy: its affinity's (as
 * omp_get_num_procs says), at most its share of the node. */
int binding_rank_cores(void);

/* 1 when tiles threads (GPU tiles when gpu is 1, host tiles else) on cores cores
 * take turns that a wider binding would spare: share is the cores of the node this
 * process could have (the node's, divided among its ranks). */
int binding_crowded(int tiles, int gpu, int cores, int share);

/* The warning, without "laplace: warning: ", for the verdicts of count ranks
 * (v[r] is rank r's; count 1 without MPI), of which one at least is crowded; mpi: a
 * launcher started the ranks, so the hint names mpirun and srun. */
void binding_line(const struct binding_verdict *v, int count, int mpi, int gpu,
                  char *line, size_t n);

/* This process's check before a solve on tiles tiles of its own (gpu: GPU tiles):
 * says so on stderr, once a process, when they crowd its cores. shared: every rank
 * calls it (a run over the ranks), and rank 0 speaks for all; 0: this process
 * alone runs (rank 0's comparisons under MPI, or no MPI). */
void binding_check(int tiles, int gpu, int shared);

#endif

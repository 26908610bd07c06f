/*
 * laplace_pairs.h - the extern "C" launcher of laplace_pairs.cu: two Jacobi
 * iterations of a tile in one pass through memory (CUDA builds only).
 */
#ifndef LAPLACE_PAIRS_H
#define LAPLACE_PAIRS_H

#include <cuda_runtime_api.h>

#include "problem/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where tiles stacked in rows meet through peer flags (the loop plan's `flags`)
 * instead of the graph's edges. Only a pass's edge strips, those that read a
 * neighbour's rows (and so also write the rows the neighbour reads), meet: they first
 * wait until both neighbours have finished as many passes' edges as this tile, and
 * the last of them to finish counts the pass and tells the neighbours, by a store
 * into their memory. The interior strips neither wait nor tell. */
struct pass_flags {
    unsigned long long *heard; /* [2]: passes the tile below and the tile above have
                                  finished at their edges, each stored here by that
                                  tile (this GPU) */
    unsigned long long *done;  /* passes this tile has finished at its edges */
    unsigned int *arrived;     /* this pass's edge blocks finished so far (0 between
                                  passes; the fourth 8-byte word of the tile's flags) */
    unsigned int edge_blocks;  /* blocks of edge strips a pass (filled by the launch) */
    unsigned long long *south_slot; /* the tile below's heard[1] (its GPU), or NULL */
    unsigned long long *north_slot; /* the tile above's heard[0] (its GPU), or NULL */
    volatile int *stop; /* mapped host word: nonzero once a tile failed or a wait timed
                           out; waits end (never cleared: a tile solves once) */
    int *timed_out;     /* mapped host word: set by a wait past PASS_WAIT_MOST_S */
};

/* A wait for a neighbour's pass ends after this many seconds, says so in *timed_out
 * and stops the tile's later waits: a neighbour whose passes cannot run (tiles sharing
 * a GPU whose kernels it runs one at a time: CUDA_DEVICE_MAX_CONNECTIONS=1 or a tool
 * that serialises them). A GPU that hangs outright is beyond it: its own thread waits
 * for it. */
#define PASS_WAIT_MOST_S 60

/* One pass: iterations k + 1 and k + 2 of plain Jacobi on a tile as wide as the
 * lattice (its west and east columns the lattice's fixed edges), from the field of
 * iteration k in old into new_; the tiles below and above it, if any, read in place. */
struct pair_launch {
    enum precision precision;
    const void *old; /* lx * ly values of iteration k */
    void *new_;      /* receives iteration k + 2; never old */
    void *keep;      /* NULL, or receives a copy of old (the batch's checkpoint) */
    long lx, ly;
    const void *south; /* the last row (of lx values) of the tile below, its iteration
                          k, with the row under it; NULL at the lattice's edge */
    const void *north; /* the first row of the tile above, with the row over it; NULL
                          at the lattice's edge; every tile at least 2 rows high */
    double *first_sums, *second_sums; /* block sums of iterations k + 1 and k + 2 */
    double square_scale;              /* update_rule_square_scale: 1 for every
                                         ordinary run */
    const struct pass_flags *flags;   /* NULL: the stream orders the pass after its
                                         neighbours' last (the graph's edges) */
};

/* Whether a lattice's passes fit the GPU's grid (at most 65535 rows of blocks). */
int laplace_pairs_fits(long lx, long ly);

/* The block sums each iteration of a pass writes: one per block of its grid. */
long laplace_pairs_blocks(long lx, long ly);

/* Queues one pass on the stream; returns the launch's error. */
cudaError_t laplace_pairs_sweep(const struct pair_launch *launch, cudaStream_t stream);


#ifdef __cplusplus
}
#endif

#endif

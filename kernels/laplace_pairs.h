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

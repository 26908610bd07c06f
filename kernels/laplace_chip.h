/*
 * laplace_chip.h - the extern "C" side of laplace_chip.cu: the loop on chip, where
 * a lone tile small enough for its two fields to fit in the shared memory of one
 * thread-block cluster runs every iteration there (CUDA builds only).
 */
#ifndef LAPLACE_CHIP_H
#define LAPLACE_CHIP_H

#include <cuda_runtime_api.h>

#include "laplace_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the loop on chip holds a tile: `blocks` blocks of one cluster, each a strip
 * of at most `rows` rows in both fields, threads_x x threads_y threads a block. */
struct chip_plan {
    int blocks; /* 0: the tile does not fit on chip */
    int plain;  /* 1: plain Jacobi's fast walk (update_rule_is_plain_jacobi) */
    int depth;  /* plain Jacobi in rounds of `depth` iterations (chip_rounds); 0: the
                   cluster meets every iteration */
    int threads_x, threads_y;
    long rows;
    size_t shared_bytes; /* dynamic shared memory of a block */
};

/*
 * The cluster for a lone tile (tile: its precision, size and rule; plain_jacobi:
 * whether the rule is the course's plain Jacobi) on the current device, in rounds of
 * `depth` iterations (1 .. CHIP_MOST_DEPTH of laplace_kernels.h, plain Jacobi only) or
 * meeting every iteration (0): the most blocks whose strips fit; plan->blocks is 0 when
 * the fields do not fit in one cluster's shared memory at that depth or the device has
 * no clusters. Which depth a run takes is the loop plan's (plan/loop_plan.c). Returns a
 * CUDA call's error, if one failed.
 */
cudaError_t laplace_chip_plan(const struct sweep_launch *tile, int plain_jacobi,
                              int depth, struct chip_plan *plan);

/*
 * Runs up to `batch` iterations of the lone tile on chip, starting from state
 * (device memory, iteration k reading field[(k - 1) % 2]): each block loads its
 * strip, iterates with one cluster barrier an iteration (two for SOR; one a round of
 * plan->depth iterations in rounds), adds the blocks' sums in block order and takes
 * the stop decision itself, then writes the fields back (in rounds only the last
 * iteration's, field[k % 2]: the other holds an older one) and the state. norms
 * (device memory, batch doubles): norms[j] is the norm of the launch's (j + 1)-th
 * iteration when the rule computed one there. Returns the launch's error.
 */
cudaError_t laplace_chip_loop(const struct chip_plan *plan,
                              const struct sweep_launch *tile, void *field0, void *field1,
                              long batch, struct stop_state *state, double *norms,
                              struct stop_rule rule, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif

/*
 * device_cuda_pairs.h - a lone tile's batches in passes of two iterations
 * (device_cuda_pairs.c, kernels/laplace_pairs.cu): whether the tile takes them, how
 * long a batch is, and the queueing of one; device_cuda_alone.c runs them as it runs
 * batches of single sweeps.
 */
#ifndef LAPLACE_DEVICE_CUDA_PAIRS_H
#define LAPLACE_DEVICE_CUDA_PAIRS_H

#include "devices/cuda_tile.h"

/* Into *n the iterations of a batch of passes where the lone tile takes them, else
 * 0; `singles_pay`: whether batches of single sweeps would pay on this tile. -1 when
 * a CUDA call failed, with t->error. */
int device_cuda_pairs_batch(struct tile *t, int singles_pay, long *n);

/* The block sums each iteration of a pass leaves. */
long device_cuda_pairs_sums(const struct tile *t);

/* Queues a batch of n iterations (a multiple of 4) on the tile's stream, their block
 * sums into c->slots_d and then c->slots_h, the field's copy into c->checkpoint_d. */
int device_cuda_pairs_queue(struct tile *t, long n);

#endif

/*
 * device_cuda_pairs.h - a lone tile's batches in passes of two iterations
 * (device_cuda_pairs.c, kernels/laplace_pairs.cu): the queueing of one batch, for
 * device_cuda_batches.c.
 */
#ifndef LAPLACE_DEVICE_CUDA_PAIRS_H
#define LAPLACE_DEVICE_CUDA_PAIRS_H

#include "devices/cuda_tile.h"

/* The block sums each iteration of a pass leaves. */
long device_cuda_pairs_sums(const struct tile *t);

/* Queues a batch of n iterations (a multiple of 4) on the tile's stream, their block
 * sums into slots_d (device_cuda_pairs_sums a slot), the field's copy into
 * checkpoint_d. */
int device_cuda_pairs_queue(struct tile *t, long n, void *checkpoint_d, double *slots_d);

#endif

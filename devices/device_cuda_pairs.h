/*
 * device_cuda_pairs.h - batches in passes of two iterations (device_cuda_pairs.c,
 * kernels/laplace_pairs.cu): a lone tile's whole batch, or one pass of a tile stacked
 * among others, for device_cuda_batches.c.
 */
#ifndef LAPLACE_DEVICE_CUDA_PAIRS_H
#define LAPLACE_DEVICE_CUDA_PAIRS_H

#include "devices/cuda_tile.h"

/* The block sums each iteration of a pass leaves. */
long device_cuda_pairs_sums(const struct tile *t);

/* Queues pass q (1, 2, ...: iterations 2q - 1 and 2q of the batch) of a tile stacked
 * among others in rows as wide as the lattice, after its neighbours' pass q - 1, reading
 * their nearest rows in place; then records done[q % 2]. Its block sums go into slots
 * 2q - 2 and 2q - 1 of slots_d; keep (or NULL) receives the field it reads (the
 * checkpoint, on the first pass). No neighbour at all: a lone tile's pass, no events.
 * marks (or NULL; only while a graph is captured): marks[0] recorded just before the
 * pass's kernel, marks[1] just after it, as event nodes of the graph. */
int device_cuda_pairs_queue_pass(struct tile *t, long q,
                                 const struct tile *const neighbour[SIDE_COUNT],
                                 void *keep, double *slots_d, cudaEvent_t *marks);

/* Queues a batch of n iterations (a multiple of 4) on the tile's stream, their block
 * sums into slots_d (device_cuda_pairs_sums a slot), the field's copy into
 * checkpoint_d; marks (or NULL) two a pass, as device_cuda_pairs_queue_pass's. */
int device_cuda_pairs_queue(struct tile *t, long n, void *checkpoint_d, double *slots_d,
                            cudaEvent_t *marks);

#endif

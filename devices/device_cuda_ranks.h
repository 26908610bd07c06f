/*
 * device_cuda_ranks.h - the edges of other MPI ranks' tiles on a GPU
 * (device_cuda_ranks.c; device.h's shadow_open, edge_read, edges_wait, shadow_write,
 * shadow_close, edge_buffer, edge_buffer_free).
 */
#ifndef LAPLACE_DEVICE_CUDA_RANKS_H
#define LAPLACE_DEVICE_CUDA_RANKS_H

#include "devices/device.h"

int device_cuda_ranks_shadow_open(struct tile *t, struct tile *shadow);
int device_cuda_ranks_edge_read(struct tile *t, int side, int which, void *edge_h);
int device_cuda_ranks_edges_wait(struct tile *t);
int device_cuda_ranks_shadow_write(struct tile *t, struct tile *shadow, int which,
                                   const void *edge_h);
void device_cuda_ranks_shadow_close(struct tile *t, struct tile *shadow);
void *device_cuda_ranks_edge_buffer(struct tile *t, size_t bytes);
void device_cuda_ranks_edge_buffer_free(struct tile *t, void *edge_h);

#endif

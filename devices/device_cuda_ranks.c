/*
 * device_cuda_ranks.c - the edges of other MPI ranks' tiles on a GPU (device.h's
 * shadow_open, edge_read, shadow_write, shadow_close; rank_split.h says how
 * the loop uses them). A shadow lives on the GPU of the tile that reads it, so the
 * sweep reads it as it reads a neighbour of its own GPU. Every copy goes on the
 * tile's own stream, so it is ordered after the sweep that wrote the edge and
 * before the sweep that reads the shadow; each waits for the stream, since the
 * host buffer is sent (or was received) by MPI right before or after.
 */
#include "devices/device_cuda_ranks.h"

#include <cuda_runtime_api.h>

#include "devices/cuda_tile.h"

int device_cuda_ranks_shadow_open(struct tile *t, struct tile *shadow)
{
    for (int which = 0; which < 2; which++) {
        CUDA_CHECK(t, cudaMalloc(&shadow->field[which], device_tile_field_bytes(shadow)));
        CUDA_CHECK(t,
                   cudaMemset(shadow->field[which], 0, device_tile_field_bytes(shadow)));
    }
    return 0;
}

/* The row or column of field[which] facing `side`, packed into edge_h. */
int device_cuda_ranks_edge_read(struct tile *t, int side, int which, void *edge_h)
{
    struct cuda_tile *c = t->impl;
    size_t elem = precision_size(t->precision), pitch = (size_t)t->extent->lx * elem;
    long lx = t->extent->lx, ly = t->extent->ly;
    const char *field_d = t->field[which];
    if (side == SIDE_SOUTH || side == SIDE_NORTH) {
        size_t row = side == SIDE_SOUTH ? 0 : (size_t)(ly - 1);
        CUDA_CHECK(t, cudaMemcpyAsync(edge_h, field_d + row * pitch, pitch,
                                      cudaMemcpyDeviceToHost, c->stream));
    } else {
        size_t column = side == SIDE_WEST ? 0 : (size_t)(lx - 1);
        CUDA_CHECK(t,
                   cudaMemcpy2DAsync(edge_h, elem, field_d + column * elem, pitch, elem,
                                     (size_t)ly, cudaMemcpyDeviceToHost, c->stream));
    }
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

int device_cuda_ranks_shadow_write(struct tile *t, struct tile *shadow, int which,
                                   const void *edge_h)
{
    struct cuda_tile *c = t->impl;
    CUDA_CHECK(t, cudaMemcpyAsync(shadow->field[which], edge_h,
                                  device_tile_field_bytes(shadow), cudaMemcpyHostToDevice,
                                  c->stream));
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

void device_cuda_ranks_shadow_close(struct tile *t, struct tile *shadow)
{
    (void)t; /* the thread of t is bound to its GPU, where the shadow lives */
    for (int which = 0; which < 2; which++) {
        cudaFree(shadow->field[which]);
        shadow->field[which] = NULL;
    }
}

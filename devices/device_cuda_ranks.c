/*
 * device_cuda_ranks.c - the edges of other MPI ranks' tiles on a GPU (device.h's
 * shadow_open, edge_read, edges_wait, shadow_write, shadow_close, edge_buffer;
 * rank_split.h and loop.c say how the loop uses them). A shadow lives on the GPU of
 * the tile that reads it, so the sweep reads it as it reads a neighbour of its own GPU.
 *
 * Every copy is queued on the tile's own stream, between the sweeps, into or out of
 * page-locked host memory, and none waits: a west or east edge is first packed into
 * one contiguous column by a kernel (a strided copy of 4- or 8-byte pieces is slow),
 * then copied to the host with the row edges; an event after the last one tells
 * edges_wait when MPI may send them. The interior sweep queued next runs meanwhile;
 * the received edges are copied into the shadows before the edge strips' sweep. The
 * stream's order keeps a host buffer from being reused too early: the next edges'
 * copies come after this sweep, whose shadows' copies come before it.
 */
#include "devices/device_cuda_ranks.h"

#include <cuda_runtime_api.h>

#include "devices/cuda_tile.h"
#include "laplace_kernels.h"

/* The side of tile t on which the shadow lies. */
static int side_of(const struct tile *t, const struct tile *shadow)
{
    for (int side = 0; side < SIDE_COUNT; side++)
        if (t->extent->neighbour[side] == shadow->index)
            return side;
    return -1;
}

int device_cuda_ranks_shadow_open(struct tile *t, struct tile *shadow)
{
    struct cuda_tile *c = t->impl;
    const int side = side_of(t, shadow);
    for (int which = 0; which < 2; which++) {
        CUDA_CHECK(t, cudaMalloc(&shadow->field[which], device_tile_field_bytes(shadow)));
        CUDA_CHECK(t,
                   cudaMemset(shadow->field[which], 0, device_tile_field_bytes(shadow)));
    }
    if ((side == SIDE_WEST || side == SIDE_EAST) && !c->column_d[side])
        CUDA_CHECK(t, cudaMalloc(&c->column_d[side], device_tile_field_bytes(shadow)));
    if (!c->edges_copied)
        CUDA_CHECK(t, cudaEventCreateWithFlags(&c->edges_copied, cudaEventDisableTiming));
    return 0;
}

/* Queues the row or column of field[which] facing `side` into edge_h. */
int device_cuda_ranks_edge_read(struct tile *t, int side, int which, void *edge_h)
{
    struct cuda_tile *c = t->impl;
    size_t elem = cuda_tile_elem_size(t), pitch = (size_t)t->extent->lx * elem;
    long lx = t->extent->lx, ly = t->extent->ly;
    const char *field_d = t->field[which];
    if (side == SIDE_SOUTH || side == SIDE_NORTH) {
        size_t row = side == SIDE_SOUTH ? 0 : (size_t)(ly - 1);
        CUDA_CHECK(t, cudaMemcpyAsync(edge_h, field_d + row * pitch, pitch,
                                      cudaMemcpyDeviceToHost, c->stream));
    } else {
        long column = side == SIDE_WEST ? 0 : lx - 1;
        CUDA_CHECK(t, laplace_kernels_pack_column(field_d, lx, ly, column, elem,
                                                  c->column_d[side], c->stream));
        CUDA_CHECK(t, cudaMemcpyAsync(edge_h, c->column_d[side], (size_t)ly * elem,
                                      cudaMemcpyDeviceToHost, c->stream));
    }
    CUDA_CHECK(t, cudaEventRecord(c->edges_copied, c->stream));
    return 0;
}

int device_cuda_ranks_edges_wait(struct tile *t)
{
    struct cuda_tile *c = t->impl;
    CUDA_CHECK(t, cudaEventSynchronize(c->edges_copied));
    return 0;
}

int device_cuda_ranks_shadow_write(struct tile *t, struct tile *shadow, int which,
                                   const void *edge_h)
{
    struct cuda_tile *c = t->impl;
    CUDA_CHECK(t, cudaMemcpyAsync(shadow->field[which], edge_h,
                                  device_tile_field_bytes(shadow), cudaMemcpyHostToDevice,
                                  c->stream));
    return 0;
}

void device_cuda_ranks_shadow_close(struct tile *t, struct tile *shadow)
{
    struct cuda_tile *c = t->impl;
    const int side = side_of(t, shadow);
    if (c) /* nothing queued may still read what is freed */
        cudaStreamSynchronize(c->stream);
    for (int which = 0; which < 2; which++) {
        cudaFree(shadow->field[which]);
        shadow->field[which] = NULL;
    }
    if (c && side >= 0 && c->column_d[side]) {
        cudaFree(c->column_d[side]);
        c->column_d[side] = NULL;
    }
    if (c && c->edges_copied) {
        cudaEventDestroy(c->edges_copied); /* the tile's first shadow closed takes it */
        c->edges_copied = NULL;
    }
}

void *device_cuda_ranks_edge_buffer(struct tile *t, size_t bytes)
{
    void *edge_h = NULL;
    (void)t; /* page-locked memory serves every GPU: portable */
    return cudaHostAlloc(&edge_h, bytes, cudaHostAllocPortable) == cudaSuccess ? edge_h
                                                                               : NULL;
}

void device_cuda_ranks_edge_buffer_free(struct tile *t, void *edge_h)
{
    (void)t;
    cudaFreeHost(edge_h);
}

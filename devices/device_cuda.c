/*
 * device_cuda.c - the device interface on a CUDA GPU: one tile's life (open,
 * connect, upload, sweep, finish, download, close) and device_cuda_ops, which
 * wires in the files below.
 *
 * The thread that drives a tile binds to its GPU once (cudaSetDevice in
 * open) and issues everything on one stream of its own; the sweep's shape and grid
 * come from the loop plan (prepare). A sweep reads the
 * neighbours' old edges straight from their GPUs through peer pointers; where a
 * pair cannot access each other (or --no-p2p), connect gives that side a halo
 * buffer on this GPU, which cuda_tile.c fills before each sweep
 * (cudaMemcpyPeerAsync for rows, cudaMemcpy3DPeerAsync for columns), and the
 * kernel reads the halo instead.
 *
 * The files of the CUDA device, each calling only the layers below it:
 *
 *   device_cuda.c                    a tile's life, the ops table
 *        |             |                   |              |
 *   device_cuda_   device_cuda_       device_cuda_   device_cuda_
 *   chip.c         batches.c          ranks.c        offer.c
 *   (run_on_chip:  (batch_*; a lone   (shadow_*,     (offer: what the loop
 *   one tile or    tile's passes of   edge_*)        plan is told)
 *   stacked ones)
 *        |         two: device_cuda_pairs.c)  |              |
 *   cuda_tile.c                      the tile's state, CUDA_CHECK, one sweep
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "devices/cuda_tile.h"
#include "devices/device_cuda_batches.h"
#include "devices/device_cuda_chip.h"
#include "devices/device_cuda_offer.h"
#include "devices/device_cuda_ranks.h"
#include "laplace_kernels.h"
#include "p2p.h"

static size_t tile_sites(const struct tile *t)
{
    return (size_t)t->extent->lx * (size_t)t->extent->ly;
}

/* Host memory the device writes into directly; returns its device address too. */
static int alloc_mapped(struct tile *t, size_t bytes, double **host, double **device)
{
    CUDA_CHECK(t, cudaHostAlloc((void **)host, bytes, cudaHostAllocMapped));
    CUDA_CHECK(t, cudaHostGetDevicePointer((void **)device, *host, 0));
    return 0;
}

/*
 * Where the partial sums go (see struct cuda_tile). --reduce host: each sweep writes
 * its block sums straight into mapped host memory, one buffer for each parity of k,
 * whatever their number: measured on an H100, float, the norm every iteration
 * (results/2026-11-26-l2, probe-4), copying 16384 sums (8192^2) after each sweep cost
 * 215.3 us an iteration against 202.6 mapped, 65536 (16384^2) 789.8 against 768.7.
 * A rule of two phases (SOR) keeps its first phase's sums on the device: the second
 * adds its own to them into host memory without a read across PCIe (SOR 4096^2 float,
 * probe-8: 408.95 us an iteration with the sums copied, 563.90 with each block adding
 * in mapped memory). --reduce device: the device adds them (twice: its resident loop
 * keeps two iterations').
 */
static int alloc_sums(struct tile *t)
{
    struct cuda_tile *c = t->impl;
    const int on_gpu = device_tile_sums_on_gpu(&t->settings);
    double **sums_d =
        t->settings.reduce == REDUCE_DEVICE ? &c->block_sums_d : &c->phase_sums_d;
    if (on_gpu > 0)
        CUDA_CHECK(t, cudaMalloc((void **)sums_d, on_gpu * cuda_tile_sums_bytes(t)));
    for (int p = 0; p < 2; p++) {
        if (t->settings.reduce == REDUCE_DEVICE) {
            if (alloc_mapped(t, sizeof(double), &c->total_h[p], &c->total_d[p]) != 0)
                return -1;
            c->sums_target_d[p] = c->block_sums_d;
        } else if (alloc_mapped(t, cuda_tile_sums_bytes(t), &t->block_sums[p],
                                &c->sums_target_d[p]) != 0)
            return -1;
    }
    return 0;
}

static int cuda_open(struct tile *t)
{
    struct cuda_tile *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(t->error, sizeof t->error, "out of host memory");
        return -1;
    }
    t->impl = c;
    CUDA_CHECK(t, cudaSetDevice(t->device));
    CUDA_CHECK(t, laplace_kernels_can_overlap(&c->overlapping));
    CUDA_CHECK(t, cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
    for (int p = 0; p < 2; p++)
        CUDA_CHECK(t, cudaEventCreateWithFlags(&c->done[p], cudaEventDisableTiming));
    CUDA_CHECK(t, cudaMalloc(&t->field[0], device_tile_field_bytes(t)));
    CUDA_CHECK(t, cudaMalloc(&t->field[1], device_tile_field_bytes(t)));
    if (t->settings.update_rule.has_source)
        CUDA_CHECK(t, cudaMalloc(&t->source, device_tile_field_bytes(t)));
    if (t->settings.update_rule.has_fixed)
        CUDA_CHECK(t, cudaMalloc((void **)&t->fixed, tile_sites(t)));
    CUDA_CHECK(t, cuda_tile_injected_fault(t, 0, 0));
    return 0;
}

/* The tile's part of the loop plan: the sweep's shape and grid, and the block sums
 * they size. */
static int cuda_prepare(struct tile *t, const struct tile_plan *p)
{
    struct cuda_tile *c = t->impl;
    c->shape = p->shape;
    c->blocks_x = p->blocks_x;
    c->blocks_y = p->blocks_y;
    t->block_count = p->block_count;
    return alloc_sums(t);
}

static long halo_length(const struct tile *t, int side)
{
    return side == SIDE_WEST || side == SIDE_EAST ? t->extent->ly : t->extent->lx;
}

static int cuda_connect(struct tile *t, const struct tile *neighbour[SIDE_COUNT])
{
    struct cuda_tile *c = t->impl;
    for (int side = 0; side < SIDE_COUNT; side++) {
        const struct tile *nb = neighbour[side];
        if (!nb)
            continue;
        int peer = 0;
        if (t->settings.use_p2p && nb->device == t->device)
            peer = 1; /* two tiles of one GPU: its own memory */
        else if (t->settings.use_p2p) {
            peer = p2p_enable(t->device, nb->device, t->error, sizeof t->error);
            if (peer < 0)
                return -1;
        }
        if (peer)
            continue;
        t->peer_fallback[side] = 1;
        CUDA_CHECK(t, cudaMalloc(&c->halo_d[side],
                                 (size_t)halo_length(t, side) * cuda_tile_elem_size(t)));
    }
    return 0;
}

/* Queues the copy of the tile's rectangle of one of the input's host arrays (elem
 * bytes a value) into tile_d (pitch = width). From pageable memory the call returns
 * once the driver has taken the rows. */
static int upload_rows(struct tile *t, void *tile_d, const void *array_h,
                       const struct tile_input *in, size_t elem)
{
    struct cuda_tile *c = t->impl;
    size_t row_bytes = (size_t)t->extent->lx * elem;
    long pitch = in->pitch;
    const char *first_h =
        (const char *)array_h + device_tile_offset(t, in->x0, in->y0, pitch, elem);
    CUDA_CHECK(t, cudaMemcpy2DAsync(tile_d, row_bytes, first_h, (size_t)pitch * elem,
                                    row_bytes, (size_t)t->extent->ly,
                                    cudaMemcpyHostToDevice, c->stream));
    return 0;
}

/* One copy from the host per array; field[1] is copied from field[0] on the GPU. */
static int cuda_upload(struct tile *t, const struct tile_input *in)
{
    struct cuda_tile *c = t->impl;
    size_t elem = cuda_tile_elem_size(t);
    if (upload_rows(t, t->field[0], in->field, in, elem) != 0)
        return -1;
    CUDA_CHECK(t, cudaMemcpyAsync(t->field[1], t->field[0], device_tile_field_bytes(t),
                                  cudaMemcpyDeviceToDevice, c->stream));
    if (t->source && upload_rows(t, t->source, in->source, in, elem) != 0)
        return -1;
    if (t->fixed && upload_rows(t, t->fixed, in->fixed, in, 1) != 0)
        return -1;
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

/* Queues sweep k. If that fails part-way, waits for what was queued, so that no
 * work of this stream still reads a neighbour's memory when the tiles close. */
static int cuda_sweep(struct tile *t, const struct sweep_args *a)
{
    struct cuda_tile *c = t->impl;
    const int parity = (int)(a->iteration % 2);
    int rc = a->phase == 0 && a->part != SWEEP_EDGES /* once a sweep */
                 ? cuda_tile_check_fault(t, a->iteration, a->iteration)
                 : 0;
    if (rc == 0)
        rc = cuda_tile_queue_sweep(t, a, c->sums_target_d[parity], c->total_d[parity]);
    if (rc != 0)
        cudaStreamSynchronize(c->stream); /* best effort: the failure is reported */
    return rc;
}

static int cuda_finish(struct tile *t, long iteration, int want_sums, double *total)
{
    struct cuda_tile *c = t->impl;
    const int parity = (int)(iteration % 2);
    if (iteration < 1)
        return 0;
    CUDA_CHECK(t, cudaEventSynchronize(c->done[parity]));
    if (!want_sums)
        return 0;
    if (t->settings.reduce == REDUCE_DEVICE)
        *total = *c->total_h[parity];
    else
        *total = block_sums_total(t->block_sums[parity], t->block_count,
                                  t->settings.update_rule.norm);
    return 0;
}

/* One copy into the tile's rectangle of the host field `to` (whole or a part). */
static int cuda_download(struct tile *t, int which, struct field *to)
{
    struct cuda_tile *c = t->impl;
    size_t elem = cuda_tile_elem_size(t), row_bytes = (size_t)t->extent->lx * elem;
    long pitch = to->nx;
    char *first_h = (char *)to->data + device_tile_offset(t, to->x0, to->y0, pitch, elem);
    CUDA_CHECK(t, cudaMemcpy2DAsync(first_h, (size_t)pitch * elem, t->field[which],
                                    row_bytes, row_bytes, (size_t)t->extent->ly,
                                    cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

/* Frees what open(), connect(), prepare() and the loops allocated; errors here are
 * not reported. */
static void cuda_close(struct tile *t)
{
    struct cuda_tile *c = t->impl;
    if (!c)
        return;
    cudaSetDevice(t->device);
    if (c->stream)
        cudaStreamSynchronize(c->stream);
    for (int side = 0; side < SIDE_COUNT; side++)
        cudaFree(c->halo_d[side]);
    cudaFree(t->field[0]);
    cudaFree(t->field[1]);
    cudaFree(t->source);
    cudaFree(t->fixed);
    cudaFree(c->block_sums_d);
    cudaFree(c->phase_sums_d);
    device_cuda_chip_free(c);
    device_cuda_batches_free(c);
    for (int p = 0; p < 2; p++) {
        cudaFreeHost(t->block_sums[p]);
        cudaFreeHost(c->total_h[p]);
        if (c->done[p])
            cudaEventDestroy(c->done[p]);
        t->block_sums[p] = NULL;
    }
    if (c->stream)
        cudaStreamDestroy(c->stream);
    cudaGetLastError();
    free(c);
    t->impl = NULL;
    t->field[0] = t->field[1] = NULL;
    t->source = NULL;
    t->fixed = NULL;
}

const struct device_ops device_cuda_ops = {
    .name = "gpu",
    .open = cuda_open,
    .connect = cuda_connect,
    .upload = cuda_upload,
    .sweep = cuda_sweep,
    .finish = cuda_finish,
    .download = cuda_download,
    .close = cuda_close,
    .offer = device_cuda_offer,
    .prepare = cuda_prepare,
    .chip_open = device_cuda_chip_open,
    .run_on_chip = device_cuda_chip_run,
    .batch_open = device_cuda_batches_open,
    .batch_record = device_cuda_batches_record,
    .batch_start = device_cuda_batches_start,
    .batch_wait = device_cuda_batches_wait,
    .batch_total = device_cuda_batches_total,
    .batch_rewind = device_cuda_batches_rewind,
    .batch_note = device_cuda_batches_note,
    .shadow_open = device_cuda_ranks_shadow_open,
    .edge_read = device_cuda_ranks_edge_read,
    .edges_wait = device_cuda_ranks_edges_wait,
    .shadow_write = device_cuda_ranks_shadow_write,
    .shadow_close = device_cuda_ranks_shadow_close,
    .edge_buffer = device_cuda_ranks_edge_buffer,
    .edge_buffer_free = device_cuda_ranks_edge_buffer_free,
};

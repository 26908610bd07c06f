/*
 * cuda_tile.c - one tile on a CUDA GPU, below every file of the CUDA device
 * (device_cuda.c, device_cuda_chip.c, device_cuda_batches.c,
 * device_cuda_ranks.c): the record of a failed CUDA call, the fault injected on
 * purpose, the sizes of the tile's arrays, and the queueing of one sweep: the
 * waits for the neighbours' previous sweep, the views of their edges (peer
 * pointers, or halo copies where a pair cannot access each other or --no-p2p)
 * and the kernel's launch with its block sums.
 */
#include "devices/cuda_tile.h"

#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "support/error.h"
#include "support/fault.h"
#include "laplace_kernels.h"
#include "kernels/laplace_reduce.h"

int cuda_tile_failed(struct tile *t, cudaError_t rc, const char *call, const char *func,
                     const char *file, int line)
{
    int current = -1;
    cudaGetDevice(&current);
    snprintf(t->error, sizeof t->error, "%s: %s (%s) in %s at %s:%d, current device %d",
             call, cudaGetErrorString(rc), cudaGetErrorName(rc), func, file, line,
             current);
    return -1;
}

/* The fault injected on purpose (fault.h) as the CUDA error it stands for, when
 * it falls on this tile's GPU at an iteration from..to (0: the set-up); the
 * failure then takes the path of a real one. */
cudaError_t cuda_tile_injected_fault(const struct tile *t, long from, long to)
{
    if (!fault_injected(t->device, from, to))
        return cudaSuccess;
    return from == 0 ? cudaErrorMemoryAllocation : cudaErrorLaunchFailure;
}

/* 0, or -1 with the injected fault's message when it falls on iterations from..to. */
int cuda_tile_check_fault(struct tile *t, long from, long to)
{
    CUDA_CHECK(t, cuda_tile_injected_fault(t, from, to));
    return 0;
}

size_t cuda_tile_elem_size(const struct tile *t)
{
    return precision_size(t->precision);
}

size_t cuda_tile_sums_bytes(const struct tile *t)
{
    return (size_t)t->block_count * sizeof(double);
}

/* Copies a neighbour's column x of its old field into this tile's halo. */
static int copy_column(struct tile *t, const struct tile *nb, int old, long x, void *halo)
{
    struct cuda_tile *c = t->impl;
    size_t elem = cuda_tile_elem_size(t), pitch = (size_t)nb->extent->lx * elem;
    struct cudaMemcpy3DPeerParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = (struct cudaPitchedPtr){.ptr = nb->field[old],
                                       .pitch = pitch,
                                       .xsize = pitch,
                                       .ysize = (size_t)nb->extent->ly};
    p.srcPos = (struct cudaPos){.x = (size_t)x * elem};
    p.srcDevice = nb->device;
    p.dstPtr = (struct cudaPitchedPtr){
        .ptr = halo, .pitch = elem, .xsize = elem, .ysize = (size_t)t->extent->ly};
    p.dstDevice = t->device;
    p.extent =
        (struct cudaExtent){.width = elem, .height = (size_t)t->extent->ly, .depth = 1};
    CUDA_CHECK(t, cudaMemcpy3DPeerAsync(&p, c->stream));
    return 0;
}

/* The view of one neighbour's edge: a peer pointer, or a halo filled now. */
static int edge_of(struct tile *t, int side, const struct tile *nb, int old,
                   struct edge_view *view)
{
    struct cuda_tile *c = t->impl;
    size_t elem = cuda_tile_elem_size(t);
    long nlx = nb ? nb->extent->lx : 0, nly = nb ? nb->extent->ly : 0;
    long first = side == SIDE_WEST ? nlx - 1 : side == SIDE_SOUTH ? (nly - 1) * nlx : 0;
    *view = (struct edge_view){NULL, side == SIDE_WEST || side == SIDE_EAST ? nlx : 1};
    if (!nb)
        return 0;
    if (!t->peer_fallback[side]) {
        view->data = (const char *)nb->field[old] + (size_t)first * elem;
        return 0;
    }
    view->data = c->halo_d[side];
    view->stride = 1;
    if (side == SIDE_WEST || side == SIDE_EAST)
        return copy_column(t, nb, old, first, c->halo_d[side]);
    CUDA_CHECK(t, cudaMemcpyPeerAsync(c->halo_d[side], t->device,
                                      (const char *)nb->field[old] + (size_t)first * elem,
                                      nb->device, (size_t)nlx * elem, c->stream));
    return 0;
}

/* Orders sweep k after the neighbours' sweep k - 1 (phase 1: after their phase
 * 0 of sweep k): it reads what they wrote and overwrites what they read. Their
 * events were recorded before the loop's last barrier, so the waits below refer
 * to the step before this one. */
static int wait_for_neighbours(struct tile *t, const struct sweep_args *a)
{
    struct cuda_tile *c = t->impl;
    const long after = a->phase == 0 ? a->iteration - 1 : a->iteration;
    if (after == 0)
        return 0;
    for (int side = 0; side < SIDE_COUNT; side++) {
        const struct tile *nb = a->neighbour[side];
        if (nb && !nb->remote) /* a shadow is written on this tile's own stream */
            CUDA_CHECK(
                t, cudaStreamWaitEvent(
                       c->stream, ((struct cuda_tile *)nb->impl)->done[after % 2], 0));
    }
    return 0;
}

/* cuda_tile.h says what it queues. */
int cuda_tile_meet_neighbours(struct tile *t, const struct sweep_args *a, int src,
                              struct sweep_launch *l)
{
    return wait_for_neighbours(t, a) != 0 ? -1 : cuda_tile_neighbour_views(t, a, src, l);
}

/* cuda_tile.h says what it gives. */
int cuda_tile_neighbour_views(struct tile *t, const struct sweep_args *a, int src,
                              struct sweep_launch *l)
{
    if (edge_of(t, SIDE_WEST, a->neighbour[SIDE_WEST], src, &l->west) ||
        edge_of(t, SIDE_EAST, a->neighbour[SIDE_EAST], src, &l->east) ||
        edge_of(t, SIDE_SOUTH, a->neighbour[SIDE_SOUTH], src, &l->south) ||
        edge_of(t, SIDE_NORTH, a->neighbour[SIDE_NORTH], src, &l->north))
        return -1;
    return 0;
}

/* The launch of phase `phase` of sweep k, block sums into sums (NULL: none),
 * without the neighbours' edges. */
struct sweep_launch cuda_tile_sweep_launch(struct tile *t, long k, int phase,
                                           double *sums)
{
    struct cuda_tile *c = t->impl;
    const int from = (int)((k - 1) % 2), to = 1 - from;
    const struct update_rule *rule = &t->settings.update_rule;
    return (struct sweep_launch){
        .precision = t->precision,
        .shape = c->shape,
        .blocks_x = c->blocks_x,
        .blocks_y = c->blocks_y,
        .old = t->field[phase == 1 ? to : from], /* SOR's black sites read new red */
        .new_ = t->field[to],
        .lx = t->extent->lx,
        .ly = t->extent->ly,
        .block_sums = sums,
        .overlap = c->overlapping, /* a lone tile's: cuda_tile_queue_sweep */
        .update_rule = *rule,
        .own = t->field[from],
        .source = t->source,
        .fixed = t->fixed,
        .colour = rule->method == METHOD_SOR ? phase : -1,
        .first_colour = t->extent->x0 + t->extent->y0,
        .first_sums = phase == 1 ? sums : NULL, /* added to in place */
    };
}

/* cuda_tile.h says what it launches. */
int cuda_tile_launch_sweep(struct tile *t, const struct sweep_launch *l)
{
    struct cuda_tile *c = t->impl;
    CUDA_CHECK(t, laplace_kernels_sweep(l, c->stream));
    t->sweeps_overlapped |= l->overlap;
    return 0;
}

/* Launches the blocks of window w of the sweep l (none when w is empty). */
static int launch_window(struct tile *t, struct sweep_launch *l,
                         const struct block_window *w)
{
    if (w->columns <= 0 || w->rows <= 0)
        return 0;
    l->window = *w;
    return cuda_tile_launch_sweep(t, l);
}

/* Launches a->part of the sweep l: all of it, its interior (keeping l for the
 * edges), or the edge strips of the interior's launch kept in c->split. */
static int launch_part(struct tile *t, const struct sweep_args *a, struct sweep_launch *l)
{
    struct cuda_tile *c = t->impl;
    if (a->part == SWEEP_WHOLE)
        return cuda_tile_launch_sweep(t, l);
    struct block_window interior, strips[SIDE_COUNT];
    int count = device_sweep_windows(a, c->blocks_x, c->blocks_y, &interior, strips);
    if (a->part == SWEEP_INTERIOR) {
        c->split = *l;
        c->split_pending = 1;
        return launch_window(t, l, &interior);
    }
    if (!c->split_pending) /* its interior failed: no launch of a stale sweep */
        return error_set(t->error, sizeof t->error,
                         "the edges of sweep %ld queued without its interior",
                         a->iteration);
    c->split_pending = 0;
    for (int i = 0; i < count; i++)
        if (launch_window(t, &c->split, &strips[i]) != 0)
            return -1;
    return 0;
}

/* Whether the sweep's tile has no neighbour: its sweeps follow only each other.
 * Measured on an H100, float 2048^2 as 2x1 tiles of one GPU, us an iteration: 18.81
 * plain against 19.89-20.07 with overlapping sweeps (results/2026-11-26-overlap,
 * probe-6), so tiles with neighbours launch plainly. */
static int lone(const struct sweep_args *a)
{
    for (int side = 0; side < SIDE_COUNT; side++)
        if (a->neighbour[side])
            return 0;
    return 1;
}

/* cuda_tile.h says what it queues. */
int cuda_tile_queue_sweep(struct tile *t, const struct sweep_args *a, double *sums_d,
                          double *total_d)
{
    struct cuda_tile *c = t->impl;
    const int from = (int)((a->iteration - 1) % 2), parity = (int)(a->iteration % 2);
    const int src = a->phase == 1 ? 1 - from : from;
    const int last = a->phase == update_rule_phases(&t->settings.update_rule) - 1;
    struct sweep_launch l =
        cuda_tile_sweep_launch(t, a->iteration, a->phase, a->want_sums ? sums_d : NULL);
    l.overlap = l.overlap && lone(a);
    if (l.block_sums && c->phase_sums_d) { /* phase 0's sums wait on the device */
        l.first_sums = a->phase == 1 ? c->phase_sums_d : NULL;
        l.block_sums = a->phase == 1 ? l.block_sums : c->phase_sums_d;
    }
    if (a->part != SWEEP_EDGES && /* the edges' part goes on from the interior's */
        cuda_tile_meet_neighbours(t, a, src, &l) != 0)
        return -1;
    if (launch_part(t, a, &l) != 0)
        return -1;
    if (a->part == SWEEP_INTERIOR)
        return 0; /* the sweep ends with its edges' part */
    if (last && a->want_sums && t->settings.reduce == REDUCE_DEVICE)
        CUDA_CHECK(t, laplace_reduce(sums_d, t->block_count, t->settings.update_rule.norm,
                                     total_d, c->stream));
    CUDA_CHECK(t, cudaEventRecord(c->done[parity], c->stream));
    return 0;
}

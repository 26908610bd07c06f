/*
 * device_cuda_offer.c - what a CUDA tile offers the loop plan (device.h's offer,
 * plan/loop_plan.c decides): once the tile is open and connected, its sizes, what its
 * GPU allows a sweep, halo copies and the GPU's free memory; for a lone tile also how
 * it fits on chip at every depth and lag (the cluster's and the spread strips' plans,
 * kept in the tile for the run) and, for a lone tile or one stacked among several,
 * whether passes of two iterations fit and how its band of spread strips fits. Facts
 * only: nothing chosen.
 */
#include "devices/device_cuda_offer.h"

#include <stdio.h>

#include <cuda_runtime_api.h>

#include "kernels/laplace_chip.h"
#include "kernels/laplace_pairs.h"
#include "kernels/laplace_spread.h"

/* How a tile fits on chip at every depth (and lag) the kernels have: a lone tile in
 * one cluster, and for plain Jacobi the spread strips, either way (with LAPLACE_TUNE's
 * spread_blocks and _unroll), as one band of `tiles` (a lone tile: 1); each fit into
 * the tile's state, for device_cuda_chip.c to run the one the plan takes. */
static int fits_on_chip(struct tile *t, int tiles, struct tile_offer *o)
{
    struct cuda_tile *c = t->impl;
    const struct sweep_launch tile = cuda_tile_sweep_launch(t, 1, 0, NULL);
    const struct tuning *tune = &t->settings.tune;
    const int plain = update_rule_is_plain_jacobi(&t->settings.update_rule);
    for (int depth = 0; tiles == 1 && depth <= CHIP_MOST_DEPTH; depth++) {
        CUDA_CHECK(t, laplace_chip_plan(&tile, plain, depth, &c->cluster_at[depth]));
        o->cluster_blocks[depth] = c->cluster_at[depth].blocks;
    }
    for (int depth = 0; plain && depth <= SPREAD_MOST_DEPTH; depth++)
        for (int lag = 1; lag <= SPREAD_MOST_LAG; lag++)
            for (int columns = 0; columns < 2; columns++) {
                struct spread_plan *s = &c->strips_at[depth][lag - 1][columns];
                CUDA_CHECK(t, laplace_spread_plan(&tile, tune, depth, lag, columns, s));
                o->spread[depth][lag - 1][columns] =
                    (struct spread_fit){.blocks = s->blocks,
                                        .resident = s->resident,
                                        .possible = s->possible};
            }
    return 0;
}

/* Whether a tile of several may take passes of two: no tile west or east of it, at
 * least 2 rows high, and its neighbours' rows read in place (laplace_pairs.cu). */
static int stacked(const struct tile *t)
{
    return t->extent->neighbour[SIDE_WEST] < 0 && t->extent->neighbour[SIDE_EAST] < 0 &&
           t->extent->ly >= 2 && !t->peer_fallback[SIDE_SOUTH] &&
           !t->peer_fallback[SIDE_NORTH];
}

/* What the tile's GPU allows its sweep (the plan chooses the shape from these). */
static int gpu_facts(struct tile *t, struct gpu_facts *g)
{
    struct cudaDeviceProp p;
    CUDA_CHECK(t, cudaGetDeviceProperties(&p, t->device));
    *g = (struct gpu_facts){.multiprocessors = p.multiProcessorCount,
                            .threads_per_multiprocessor = p.maxThreadsPerMultiProcessor,
                            .l2_bytes = (size_t)p.l2CacheSize,
                            .block_threads_most = p.maxThreadsPerBlock,
                            .block_most = {p.maxThreadsDim[0], p.maxThreadsDim[1]},
                            .grid_most = {p.maxGridSize[0], p.maxGridSize[1]}};
    snprintf(g->name, sizeof g->name, "%s", p.name);
    return 0;
}

/* The GPUs whose memory the tile's GPU reaches directly (bit d: CUDA device d, up
 * to 64), itself included: the spread strips over several GPUs store into every
 * GPU's meeting. */
static int peers_of(struct tile *t, unsigned long long *peers)
{
    int count = 0;
    CUDA_CHECK(t, cudaGetDeviceCount(&count));
    for (int d = 0; d < count && d < 64; d++) {
        int reaches = d == t->device;
        if (!reaches)
            CUDA_CHECK(t, cudaDeviceCanAccessPeer(&reaches, t->device, d));
        if (reaches)
            *peers |= 1ull << d;
    }
    return 0;
}

int device_cuda_offer(struct tile *t, int tiles, struct tile_offer *o)
{
    const int alone = tiles == 1;
    size_t free_bytes = 0, total_bytes = 0;
    *o = (struct tile_offer){.gpu = 1,
                             .device = t->device,
                             .runs_alone = 1,
                             .lx = t->extent->lx,
                             .ly = t->extent->ly,
                             .value_size = precision_size(t->precision),
                             .field_bytes = device_tile_field_bytes(t)};
    if (gpu_facts(t, &o->facts) != 0)
        return -1;
    for (int side = 0; side < SIDE_COUNT; side++)
        o->fallback |= t->peer_fallback[side];
    CUDA_CHECK(t, cudaMemGetInfo(&free_bytes, &total_bytes));
    o->free_bytes = free_bytes;
    o->pairs_fit = laplace_pairs_fits(o->lx, o->ly) && (alone || stacked(t));
    o->pairs_blocks = laplace_pairs_blocks(o->lx, o->ly);
    const int band = !alone && tiles <= SPREAD_MOST_GPUS && stacked(t);
    if (band && peers_of(t, &o->peers) != 0)
        return -1;
    return alone || band ? fits_on_chip(t, tiles, o) : 0;
}

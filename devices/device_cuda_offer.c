/*
 * device_cuda_offer.c - what a CUDA tile offers the loop plan (device.h's offer,
 * plan/loop_plan.c decides): once the tile is open and connected, its sizes, block
 * sums, halo copies and the GPU's free memory; for a lone tile also the ways it fits
 * on chip (the cluster's and the spread strips' plans, kept in the tile for the run)
 * and, for a lone tile or one stacked among several, whether passes of two iterations
 * fit. Facts only: nothing chosen.
 */
#include "devices/device_cuda_offer.h"

#include <cuda_runtime_api.h>

#include "kernels/laplace_chip.h"
#include "kernels/laplace_pairs.h"
#include "kernels/laplace_spread.h"

/* The ways a lone tile fits on chip, planned with LAPLACE_TUNE's knobs, into the
 * tile's state (device_cuda_chip.c runs the one the plan takes). */
static int plan_on_chip(struct tile *t, struct tile_offer *o)
{
    struct cuda_tile *c = t->impl;
    const struct sweep_launch tile = cuda_tile_sweep_launch(t, 1, 0, NULL);
    const struct tuning *tune = &t->settings.tune;
    const int plain = update_rule_is_plain_jacobi(&t->settings.update_rule);
    CUDA_CHECK(t, laplace_chip_plan(&tile, plain, tune->chip_depth, &c->cluster));
    if (plain)
        CUDA_CHECK(t, laplace_spread_plan(&tile, tune, &c->strips));
    o->cluster_blocks = c->cluster.blocks;
    o->cluster_depth = c->cluster.depth;
    o->spread_blocks = c->strips.blocks;
    o->spread_depth = c->strips.depth;
    o->spread_columns = c->strips.columns;
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

int device_cuda_offer(struct tile *t, int alone, struct tile_offer *o)
{
    size_t free_bytes = 0, total_bytes = 0;
    *o = (struct tile_offer){.gpu = 1,
                             .device = t->device,
                             .runs_alone = 1,
                             .lx = t->extent->lx,
                             .ly = t->extent->ly,
                             .field_bytes = device_tile_field_bytes(t),
                             .block_count = t->block_count};
    for (int side = 0; side < SIDE_COUNT; side++)
        o->fallback |= t->peer_fallback[side];
    CUDA_CHECK(t, cudaMemGetInfo(&free_bytes, &total_bytes));
    o->free_bytes = free_bytes;
    o->pairs_fit = laplace_pairs_fits(o->lx, o->ly) && (alone || stacked(t));
    o->pairs_blocks = laplace_pairs_blocks(o->lx, o->ly);
    return alone ? plan_on_chip(t, o) : 0;
}

/*
 * sweep_shape.h - how a GPU tile sweeps, chosen by the loop plan (sweep_shape.c): the
 * kernel, its block, the rows and columns each thread updates, the order of its rows
 * of blocks, and the grid, from what the run asks (--kernel, --block, --reduce, the
 * update rule, LAPLACE_TUNE's sweep_order) and what the tile's GPU allows (its offer).
 * Pure arithmetic: the CPU's tests check it with GPU properties as inputs.
 */
#ifndef LAPLACE_SWEEP_SHAPE_H
#define LAPLACE_SWEEP_SHAPE_H

#include <stddef.h>

#include "devices/device.h"

/* The grid of a sweep of this shape over lx x ly sites: blocks across and up; returns
 * their product, the number of partial sums. */
long sweep_shape_grid(const struct sweep_shape *shape, long lx, long ly, long *blocks_x,
                      long *blocks_y);

/* GPU tile o's sweep as run settings s ask, into *p (shape, grid, block count); 0, or
 * -1 with why into why (n bytes) where the block or the grid does not fit the GPU. */
int sweep_shape_plan(const struct tile_settings *s, const struct tile_offer *o,
                     struct tile_plan *p, char *why, size_t n);

#endif

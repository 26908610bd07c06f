/*
 * device.c - what both implementations of the device interface share: a tile's
 * size and place in the whole lattice, the blocks each part of a sweep covers, and
 * the one fixed order in which its block partial sums are added.
 */
#include "devices/device.h"

#include <math.h>

size_t device_tile_field_bytes(const struct tile *t)
{
    return (size_t)t->extent->lx * (size_t)t->extent->ly * precision_size(t->precision);
}

size_t device_tile_offset(const struct tile *t, long x0, long y0, long pitch, size_t elem)
{
    return ((size_t)(t->extent->y0 - y0) * (size_t)pitch + (size_t)(t->extent->x0 - x0)) *
           elem;
}

int device_sweep_windows(const struct sweep_args *a, long gx, long gy,
                         struct block_window *interior,
                         struct block_window strips[SIDE_COUNT])
{
    unsigned late = 0;
    for (int side = 0; a->part != SWEEP_WHOLE && side < SIDE_COUNT; side++)
        if (a->neighbour[side] && a->neighbour[side]->remote)
            late |= SIDE_BIT(side);
    return block_window_split(gx, gy, late, interior, strips);
}

double device_block_sums_total(const double *sums, long n, enum norm_kind norm)
{
    double lane[BLOCK_SUM_LANES] = {0.0};
    for (long b = 0; b < n; b++)
        lane[b % BLOCK_SUM_LANES] =
            norm_combine(norm, lane[b % BLOCK_SUM_LANES], sums[b]);
    for (int half = BLOCK_SUM_LANES / 2; half > 0; half /= 2)
        for (int j = 0; j < half; j++)
            lane[j] = norm_combine(norm, lane[j], lane[j + half]);
    return lane[0];
}

/*
 * device.c - what both implementations of the device interface share: a tile's
 * size and place in the whole lattice, and the blocks each part of a sweep covers
 * (the fixed order of its block sums is problem/block_sums.c's).
 */
#include "devices/device.h"

int device_tile_sums_on_gpu(const struct tile_settings *s)
{
    if (s->reduce == REDUCE_DEVICE)
        return 2;
    return update_rule_phases(&s->update_rule) > 1 ? 1 : 0;
}

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

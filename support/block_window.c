/*
 * block_window.c - the interior and the edge strips of a sweep's blocks
 * (block_window.h).
 */
#include "support/block_window.h"

int block_window_split(long gx, long gy, unsigned late, struct block_window *interior,
                       struct block_window strips[SIDE_COUNT])
{
    const long south = (late & SIDE_BIT(SIDE_SOUTH)) ? 1 : 0;
    const long north = (late & SIDE_BIT(SIDE_NORTH)) && gy - south > 0 ? 1 : 0;
    const long west = (late & SIDE_BIT(SIDE_WEST)) ? 1 : 0;
    const long east = (late & SIDE_BIT(SIDE_EAST)) && gx - west > 0 ? 1 : 0;
    const long middle_rows = gy - south - north > 0 ? gy - south - north : 0;
    const long middle_columns = gx - west - east > 0 ? gx - west - east : 0;
    const struct block_window candidates[SIDE_COUNT] = {
        {0, south, west, middle_rows},         /* west strip */
        {gx - east, south, east, middle_rows}, /* east strip */
        {0, 0, gx, south},                     /* south strip */
        {0, gy - north, gx, north},            /* north strip */
    };
    static const int order[SIDE_COUNT] = {SIDE_SOUTH, SIDE_NORTH, SIDE_WEST, SIDE_EAST};
    *interior = (struct block_window){west, south, middle_columns, middle_rows};
    int count = 0;
    for (int i = 0; i < SIDE_COUNT; i++) {
        const struct block_window *w = &candidates[order[i]];
        if (w->columns > 0 && w->rows > 0)
            strips[count++] = *w;
    }
    return count;
}

/*
 * test_block_window.c - the split of a sweep's blocks into the interior and the
 * strips along the sides that wait for other ranks' edges (support/block_window.h).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "support/block_window.h"

/* Marks every block of w in seen[] (gx blocks a row), counting how often. */
static void mark(int *seen, long gx, const struct block_window *w)
{
    for (long y = w->y0; y < w->y0 + w->rows; y++)
        for (long x = w->x0; x < w->x0 + w->columns; x++)
            seen[x + y * gx]++;
}

/* Whether block (x, y) of a gx x gy grid lies on a side in `late`. */
static int on_late_side(long x, long y, long gx, long gy, unsigned late)
{
    return ((late & SIDE_BIT(SIDE_WEST)) && x == 0) ||
           ((late & SIDE_BIT(SIDE_EAST)) && x == gx - 1) ||
           ((late & SIDE_BIT(SIDE_SOUTH)) && y == 0) ||
           ((late & SIDE_BIT(SIDE_NORTH)) && y == gy - 1);
}

Test(block_window, every_block_is_launched_once_and_late_sides_wait)
{
    for (long gx = 1; gx <= 6; gx++)
        for (long gy = 1; gy <= 6; gy++)
            for (unsigned late = 0; late < 16; late++) {
                struct block_window interior, strips[SIDE_COUNT];
                int count = block_window_split(gx, gy, late, &interior, strips);
                int seen[36], in_interior[36];
                memset(seen, 0, sizeof seen);
                memset(in_interior, 0, sizeof in_interior);
                cr_assert(count >= 0 && count <= SIDE_COUNT);
                mark(in_interior, gx, &interior);
                mark(seen, gx, &interior);
                for (int i = 0; i < count; i++) {
                    cr_assert(strips[i].columns > 0 && strips[i].rows > 0,
                              "an empty strip of %ldx%ld, late %u", gx, gy, late);
                    mark(seen, gx, &strips[i]);
                }
                for (long y = 0; y < gy; y++)
                    for (long x = 0; x < gx; x++) {
                        cr_assert_eq(seen[x + y * gx], 1,
                                     "block (%ld,%ld) of %ldx%ld, late %u: launched %d "
                                     "times",
                                     x, y, gx, gy, late, seen[x + y * gx]);
                        if (on_late_side(x, y, gx, gy, late))
                            cr_assert_eq(in_interior[x + y * gx], 0,
                                         "block (%ld,%ld) of %ldx%ld, late %u, swept "
                                         "before its edge arrived",
                                         x, y, gx, gy, late);
                    }
            }
}

Test(block_window, no_late_side_leaves_one_launch_of_the_whole_grid)
{
    struct block_window interior, strips[SIDE_COUNT];
    cr_assert_eq(block_window_split(7, 5, 0, &interior, strips), 0);
    cr_assert(interior.x0 == 0 && interior.y0 == 0 && interior.columns == 7 &&
              interior.rows == 5);
}

Test(block_window, north_and_west_late_give_the_pictured_strips)
{
    struct block_window interior, strips[SIDE_COUNT];
    int count = block_window_split(5, 4, SIDE_BIT(SIDE_NORTH) | SIDE_BIT(SIDE_WEST),
                                   &interior, strips);
    cr_assert_eq(count, 2);
    cr_assert(interior.x0 == 1 && interior.y0 == 0 && interior.columns == 4 &&
              interior.rows == 3);
    cr_assert(strips[0].x0 == 0 && strips[0].y0 == 3 && strips[0].columns == 5 &&
              strips[0].rows == 1); /* north, across the grid */
    cr_assert(strips[1].x0 == 0 && strips[1].y0 == 0 && strips[1].columns == 1 &&
              strips[1].rows == 3); /* west, below it */
}

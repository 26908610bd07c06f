/*
 * block_window.h - a rectangle of a sweep's thread blocks (block_window.c).
 *
 * Under MPI, a tile that borders another rank's tile is swept in two launches: first
 * the interior blocks, whose sites read no edge of another rank, while those edges
 * travel; then the strips of blocks along the sides that wait for them, once they
 * have arrived. Every block is launched exactly once and writes its partial sum at its
 * place in the whole grid, so the sums, and the norm, are those of one launch.
 *
 *   +-------------------+      late = west and north:
 *   |       north       |        interior: the blocks no late edge touches
 *   +---+---------------+        strips: north (every column), then west (the
 *   | W |               |        rows the north strip left)
 *   | e |   interior    |
 *   | s |               |
 *   | t |               |
 *   +---+---------------+
 */
#ifndef LAPLACE_BLOCK_WINDOW_H
#define LAPLACE_BLOCK_WINDOW_H

#include "gpu_partition.h"

/* Blocks x0 .. x0 + columns - 1 across and y0 .. y0 + rows - 1 up; empty when
 * columns or rows is 0. */
struct block_window {
    long x0, y0, columns, rows;
};

/* The bit of a side in a set of sides. */
#define SIDE_BIT(side) (1u << (side))

/*
 * The launches of a grid of gx x gy blocks whose sides in `late` (SIDE_BIT) wait for
 * another rank's edge: *interior (maybe empty), and the strips along the late sides,
 * south and north across the whole grid, west and east over the rows between them.
 * Returns the number of strips (0 .. 4), each non-empty; together with the interior
 * they hold every block once.
 */
int block_window_split(long gx, long gy, unsigned late, struct block_window *interior,
                       struct block_window strips[SIDE_COUNT]);

#endif

/*
 * heat_map.h - the lattice reduced (box filter) or kept site for site as the cells
 * of a PNG heat map (heat_map.c): their shape, and their averages summed in one
 * fixed order, so that every MPI rank's block of the lattice gives the bits one
 * process gives (png_output.c draws the cells, png_part.c gathers them).
 *
 * A cell's average is ((0 + r(y0)) + r(y0+1)) + ... over its rows, divided by its
 * site count, where r(y) = ((0 + u(x0,y)) + u(x0+1,y)) + ... over its columns. A
 * block that begins inside a cell carries on from the sums the block west of it
 * (the row's sum so far) and south of it (the cell's sum so far) handed over:
 *
 *         +---------+---------+       across: per row, the sum so far of the
 *         |         |  :      |               row's cell that goes on east
 *         |  west --across--> |       up:     per cell column, the sum so far of
 *         |         |  :      |               the cell that goes on north
 *         +---------+--^------+
 *         |  south --up       |
 */
#ifndef LAPLACE_HEAT_MAP_H
#define LAPLACE_HEAT_MAP_H

#include "problem/problem.h"

/* The lattice as cells_x x cells_y cells, each drawn as zoom_x x zoom_y pixels
 * (a square, unless a thin side is stretched for its axis: png_axes_fit). */
struct heat_map {
    long nx, ny;           /* the lattice */
    long cells_x, cells_y; /* cells per direction */
    long zoom_x, zoom_y;   /* pixels per cell along x and along y */
    long width, height;    /* in pixels: cells times zoom */
    double *value;         /* the cell averages, row 0 at the bottom like y */
    double lo, hi;         /* finite range of the field; NaN when it has none */
};

/*
 * The cells and the zoom of an nx x ny lattice, longest side L = max(nx, ny):
 * L > max_side: reduced to max_side cells along L, the other side in proportion
 * (at least 2 when it has 2 sites or more, so that its first and last sites keep
 * cells of their own); L < min_side: one cell a site, enlarged to about min_side pixels
 * (at most max_side); otherwise one pixel a site. value stays NULL; lo, hi empty.
 */
void heat_map_shape(long nx, long ny, long max_side, long min_side, struct heat_map *hm);

/* Stretches the cells along x (along y) to zoom_x (zoom_y) pixels when they are
 * shorter, and sets width and height again. */
void heat_map_stretch(struct heat_map *hm, long zoom_x, long zoom_y);

/* The cell of site s of n along a side of `cells` cells; cell_of(n) is `cells`. */
long heat_map_cell_of(long s, long n, long cells);

/* Sites [x0, x1) x [y0, y1) of the lattice, and the cells whose last site lies in
 * them: [i0, i1) x [j0, j1), whose averages it completes. */
struct heat_map_block {
    long x0, x1, y0, y1;
    long i0, i1, j0, j1;
};

void heat_map_block_of(const struct heat_map *hm, long x0, long x1, long y0, long y1,
                       struct heat_map_block *b);

/*
 * Adds block b of field (whole, or a part that holds it) to the cells: across
 * (y1 - y0 values) and up (i1 - i0) hold the sums handed over from west and south
 * (0 where a cell begins in the block) and come back with those to hand east and
 * north; row is scratch (i1 - i0); the averages of the cells completed here go
 * into cells, (j1 - j0) x (i1 - i0), row by row. Widens hm->lo and hm->hi.
 */
void heat_map_add_block(const struct field *field, struct heat_map *hm,
                        const struct heat_map_block *b, double *across, double *up,
                        double *row, double *cells);

/* The range after the last block: lo = hi = NaN when no site was finite. */
void heat_map_end_range(struct heat_map *hm);

/* The cells of hm (shaped for the whole field) from the whole field: value
 * allocated (the caller frees it), lo and hi set. 0, or -1 when out of memory. */
int heat_map_fill(const struct field *field, struct heat_map *hm);

#endif

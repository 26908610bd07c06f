/*
 * png_output.h - the field as a PNG heat map (viridis), with axes labelled in site
 * indices, a colour bar, the value range, an optional caption and optional tile
 * borders. The colour bar is named after the field (FIELD_NAME, "u"), under it
 * on the line of the x axis's name.
 *
 *   +--------------------------------------------------------+
 *   |  margin                                                |
 *   |      ny-1 -+----------------------+   +--+- 1 (max)    |
 *   |            | heat map             |   |  |- 0.75       |
 *   |   y    20 -| top row = y = ny-1   |   |  |- 0.5        |
 *   |            | left column = x = 0  |   |  |- 0.25       |
 *   |         0 -+----------------------+   +--+- 0 (min)    |
 *   |             |     |     |        |    colour bar,      |
 *   |             0    20    40     nx-1    5 ticks          |
 *   |                        x               u               |
 *   |  caption, wrapped after its commas to this width       |
 *   +--------------------------------------------------------+
 *
 * The heat map's top-left pixel is at (png_heat_map_left(ny), PNG_MARGIN): right
 * of the y axis, whose width grows with its widest label. The axes are
 * png_axes.h's: ticks at round site indices, 0 and the last site, each on the
 * middle of the pixels of the site it names.
 */
#ifndef LAPLACE_PNG_OUTPUT_H
#define LAPLACE_PNG_OUTPUT_H

#include <stddef.h>

#include "gpu_partition.h"
#include "outputs/heat_map.h"
#include "problem/problem.h"

#define PNG_MARGIN 16            /* white border around everything, in pixels */
#define PNG_MAX_SIDE 1024        /* max_side when the options give 0 */
#define PNG_MIN_SIDE 256         /* small lattices are enlarged to at least this */
#define PNG_MAX_SIDE_LIMIT 16384 /* the largest max_side accepted */

struct png_options {
    const struct partition *tiles; /* non-NULL: draw the NGx x NGy tile borders */
    const char *caption;           /* one line of text under the picture, or NULL */
    long max_side;                 /* longest side of the heat map; 0: PNG_MAX_SIDE */
    int fixed_range;           /* colours span [range_lo, range_hi], not the field's */
    double range_lo, range_hi; /* (values outside take the end colours) */
};

/* The caption drawn under the picture (out: PNG_TEXT_MAX + 1 bytes): options'
 * caption in printable ASCII, ending ", white lines: tile borders" where the
 * borders of several tiles are drawn. */
void png_caption_text(const struct png_options *options, char *out);

/*
 * The size of the heat map in pixels for an nx x ny lattice (max_side 0 means
 * PNG_MAX_SIDE). Longest side L = max(nx, ny):
 *   L > max_side:  scaled down to max_side, the other side rounded down (at
 *                  least 2 pixels when it has 2 sites or more, else 1); every
 *                  pixel is the average of the sites in it.
 *   L < 256:       enlarged by the integer factor ceil(256 / L), but never past
 *                  max_side; each site becomes a square of pixels, so that the
 *                  sites and the axes' labels stay readable (16x16: 16 pixels a
 *                  site, 64x64: 4; the axes tell the lattice, the size does not).
 *   otherwise:     one pixel per site.
 * Then a thin side is stretched until its axis has room for the labels of its
 * first and last sites (png_axes_fit): 257x3 -> 257x33, 5000x3 -> 1024x44.
 * Examples: 100x40 -> 300x120, 512x512 -> 512x512, 3000x1000 -> 1024x341.
 */
void png_heat_map_size(long nx, long ny, long max_side, long *width, long *height);

/* The heat map of that size: its cells and their pixels (heat_map_shape, then
 * png_axes_fit), as png_write draws it; max_side 0 means PNG_MAX_SIDE. */
void png_heat_map_shape(long nx, long ny, long max_side, struct heat_map *hm);

/* The left edge of the heat map in the picture of a lattice of ny rows: the margin
 * and the y axis (its name, labels and ticks). Its top edge is at PNG_MARGIN. */
long png_heat_map_left(long ny);

/*
 * Writes the field as a PNG heat map to path (the caller handles temporary
 * names and renaming). Colours span the finite values of the field, min to max
 * (or the fixed range of the options); a pixel that holds a NaN or Inf site is
 * magenta. Returns 0, or -1 with a
 * message in err.
 */
int png_write(const char *path, const struct field *field,
              const struct png_options *options, char *err, size_t n);

/*
 * The same in steps, for cells that are not summed here (png_part.c: every MPI
 * rank's cells as they arrive, so that no rank holds them all): png_heat_map_start
 * checks the options against an nx x ny lattice and shapes hm (heat_map.h; no cells
 * yet), 0 or -1 with err set. Once hm's range is known, png_picture_begin lays out
 * its picture (NULL: out of memory); png_picture_paint paints cells [i0, i1) x
 * [j0, j1) of it, given row by row from row j0 (any order of rectangles: each cell
 * once); png_picture_write adds the tile borders, axes, colour bar and caption and
 * writes the file (0, or -1 with err set); png_picture_free frees it (NULL: nothing).
 */
int png_heat_map_start(const char *path, long nx, long ny,
                       const struct png_options *options, struct heat_map *hm, char *err,
                       size_t n);
struct png_picture;
struct png_picture *png_picture_begin(const struct heat_map *hm,
                                      const struct png_options *options);
void png_picture_paint(struct png_picture *p, long i0, long i1, long j0, long j1,
                       const double *cells);
int png_picture_write(const char *path, struct png_picture *p, char *err, size_t n);
void png_picture_free(struct png_picture *p);

#endif

/*
 * png_axes.h - the axes of a PNG heat map (png_axes.c): x under the map, y left of
 * it, each with a few ticks labelled with site indices and with its name. A tick
 * marks the middle of the pixels that show the site it names (the pixel of its cell
 * when the lattice is reduced), y = 0 at the bottom as the field is drawn:
 *
 *               15 -+----------------+
 *                   |                |
 *               10 -|                |
 *          y        |    heat map    |      a 16 x 16 lattice, each site a
 *                5 -|                |      square of 16 x 16 pixels: the ticks
 *                   |                |      are on the middle two pixels of
 *                0 -+----------------+      sites 0, 5, 10 and 15
 *                     |    |    |   |
 *                     0    5   10  15
 *                            x
 *
 * The ticks name site 0, the last site and the multiples of a round step between
 * them: 1, 2 or 5 times a power of ten, the smallest that crosses the axis in at
 * most 5 steps and leaves a label's room between two ticks. A tick closer than
 * that room to the last one is left out (64 sites: 0 20 40 63, not 60).
 */
#ifndef LAPLACE_PNG_AXES_H
#define LAPLACE_PNG_AXES_H

#include "outputs/heat_map.h"
#include "outputs/png_canvas.h"

#define PNG_AXES_TICKS_MAX 6 /* 0, at most 4 multiples of the step, the last site */

enum png_axis { PNG_AXIS_X, PNG_AXIS_Y };

/* The labelled ticks of one axis, sites in increasing order. */
struct png_axes_ticks {
    int count;
    long site[PNG_AXES_TICKS_MAX];      /* the site index each names */
    long pixel[PNG_AXES_TICKS_MAX];     /* its mark's first pixel column (x) or row
                                           (y), from the heat map's left or top edge */
    long mark;                          /* the marks' width: 1, 2 for an even zoom */
    char label[PNG_AXES_TICKS_MAX][24]; /* the site index, as drawn */
};

/* Stretches a thin side of the heat map hm (shaped: heat_map_shape) until its
 * first and last sites' ticks are a label's room apart, so that every axis of a
 * lattice of 2 sites or more along it names its last site: 257 x 3 is drawn
 * 257 x 33 pixels, its y axis labelled 0 and 2. */
void png_axes_fit(struct heat_map *hm);

/* The ticks of one axis of the heat map hm (shaped: png_heat_map_shape). */
void png_axes_ticks(const struct heat_map *hm, enum png_axis axis,
                    struct png_axes_ticks *t);

/* The room the y axis takes left of the heat map of a lattice of ny rows: its
 * name, its widest label (that of site ny - 1), the marks and the gaps. */
long png_axes_width(long ny);

/* The room the x axis takes under the heat map: the marks, labels and name. */
long png_axes_height(void);

/* How far the x axis's last label reaches past the heat map's right edge (or 0). */
long png_axes_overhang(const struct heat_map *hm);

/* Draws both axes of hm, whose top-left pixel is at (x, y) on c. */
void png_axes_paint(struct png_canvas *c, const struct heat_map *hm, long x, long y);

#endif

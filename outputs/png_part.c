/*
 * png_part.c - a heat map's cells from every MPI rank's part (png_part.h). A cell
 * that spans ranks is summed in one process's order (heat_map.h): the ranks of a
 * row of blocks hand the sums so far of their rows' last cells east, one after
 * the other, then the ranks of a column hand their cells' sums so far north. Every
 * rank waits only for the ranks west and south of it, so the chain cannot close:
 *
 *     (0,1) -> (1,1) -> (2,1)        each arrow: one message, sent once the rank
 *       ^        ^        ^          has summed its block; a rank whose block
 *     (0,0) -> (1,0) -> (2,0)        shares no cell with its neighbour sends 0s
 *
 * The range is the smallest and largest finite site of any rank (exact). Rank 0
 * receives each rank's completed cells, a rectangle of cells, one rank after
 * another, and paints them into the picture: the cells are never held whole.
 */
#include "outputs/png_part.h"

#include <stdlib.h>

#include "mpi/ranks.h"
#include "support/error.h"

enum { TAG_ACROSS = 2501, TAG_UP = 2502, TAG_CELLS = 2503 };

/* count doubles to or from a rank beside this one (none off the grid's edge). */
static void pass(int peer, int tag, double *data, long count, int receive)
{
    if (count <= 0)
        return;
    struct rank_message m = {.peer = peer,
                             .tag = tag,
                             .data = data,
                             .bytes = (size_t)count * sizeof *data,
                             .receive = receive};
    ranks_exchange(&m, 1);
}

/* This rank's block of the lattice summed, carrying on from west and south and
 * handing on east and north (the buffers: heat_map_add_block's). */
static void sum_in_chain(const struct field *part, const struct rank_part *rp,
                         struct heat_map *hm, const struct heat_map_block *b,
                         double *across, double *up, double *row, double *cells)
{
    int me = ranks_rank();
    long height = b->y1 - b->y0, width = b->i1 - b->i0;
    if (rp->bx > 0)
        pass(me - 1, TAG_ACROSS, across, height, 1);
    if (rp->by > 0)
        pass(me - rp->rx, TAG_UP, up, width, 1);
    heat_map_add_block(part, hm, b, across, up, row, cells);
    if (rp->bx < rp->rx - 1)
        pass(me + 1, TAG_ACROSS, across, height, 0);
    if (rp->by < rp->ry - 1)
        pass(me + rp->rx, TAG_UP, up, width, 0);
}

/* Cells i0..i1 x j0..j1 (a rank's rectangle: corners[0..3]), row after row in
 * data, into their places in hm->value. */
static void paint_cells(struct png_picture *picture, const double *corners,
                        const double *data)
{
    png_picture_paint(picture, (long)corners[0], (long)corners[1], (long)corners[2],
                      (long)corners[3], data);
}

/* Every rank's completed cells to rank 0, painted into its picture (begun there):
 * rank after rank through one buffer of the largest rank's rectangle, so that rank 0
 * never holds the image's cells whole. */
static int gather_cells(const struct heat_map *hm, const struct png_options *options,
                        struct png_picture **picture, const struct heat_map_block *b,
                        double *cells, double *corners, int *counts)
{
    double mine[4] = {(double)b->i0, (double)b->i1, (double)b->j0, (double)b->j1};
    int size = ranks_size();
    size_t largest = 0;
    for (int r = 0; r < size; r++)
        counts[r] = 4;
    ranks_gather_all(mine, counts, corners);
    for (int r = 0; r < size; r++) {
        const double *c = corners + 4 * r;
        size_t area = (size_t)((c[1] - c[0]) * (c[3] - c[2]));
        largest = area > largest ? area : largest;
    }
    double *buffer = NULL;
    int root = ranks_rank() == 0;
    if (root) {
        *picture = png_picture_begin(hm, options);
        buffer = malloc(largest * sizeof *buffer + 1);
    }
    if (ranks_first_flagged(root && (!*picture || !buffer)) >= 0) {
        free(buffer);
        png_picture_free(*picture);
        *picture = NULL;
        return -1;
    }
    if (root)
        paint_cells(*picture, corners, cells);
    for (int r = 1; r < size; r++) {
        double *c = corners + 4 * r;
        struct rank_message m = {.peer = root ? r : 0,
                                 .tag = TAG_CELLS,
                                 .data = root ? buffer : cells,
                                 .bytes = (size_t)((c[1] - c[0]) * (c[3] - c[2])) *
                                          sizeof *cells,
                                 .receive = root};
        if ((root || ranks_rank() == r) && m.bytes > 0)
            ranks_exchange(&m, 1);
        if (root)
            paint_cells(*picture, c, buffer);
    }
    free(buffer);
    return 0;
}

int png_part_picture(const struct field *part, const struct rank_part *rp,
                     struct heat_map *hm, const struct png_options *options,
                     struct png_picture **picture, char *err, size_t n)
{
    const struct lattice_rect *o = &rp->own;
    struct heat_map_block b;
    heat_map_block_of(hm, o->x0, o->x0 + o->nx, o->y0, o->y0 + o->ny, &b);
    size_t width = (size_t)(b.i1 - b.i0), size = (size_t)ranks_size();
    double *across = calloc((size_t)o->ny, sizeof *across);
    double *up = calloc(width + 1, sizeof *up), *row = calloc(width + 1, sizeof *row);
    double *cells = calloc(width * (size_t)(b.j1 - b.j0) + 1, sizeof *cells);
    double *corners = malloc(4 * size * sizeof *corners);
    int *counts = malloc(size * sizeof *counts), rc = 0;
    *picture = NULL;
    if (ranks_first_flagged(!across || !up || !row || !cells || !corners || !counts) >=
        0) { /* agreed before any rank waits for another */
        rc = error_set(err, n, "rank %d: out of memory for a heat map", ranks_rank());
        goto out;
    }
    sum_in_chain(part, rp, hm, &b, across, up, row, cells);
    hm->lo = -ranks_largest(-hm->lo); /* the smallest, exactly */
    hm->hi = ranks_largest(hm->hi);
    heat_map_end_range(hm);
    if (gather_cells(hm, options, picture, &b, cells, corners, counts) != 0)
        rc = error_set(err, n,
                       "rank 0: out of memory for the picture of a %ldx%ld heat map",
                       hm->cells_x, hm->cells_y);
out:
    free(across), free(up), free(row), free(cells), free(corners), free(counts);
    return rc;
}

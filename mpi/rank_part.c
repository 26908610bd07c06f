/*
 * rank_part.c - the part of the field one MPI rank holds (rank_part.h): its
 * rectangle and its shadows filled from the neighbouring ranks. No rank holds the
 * whole field: outputs, snapshots, --exact and the comparisons work on the parts.
 */
#include "mpi/rank_part.h"

#include <stdlib.h>
#include <string.h>

#include "mpi/ranks.h"

/* Tags of the shadows' messages: the sites sent west, south and south-west. */
enum { TAG_COLUMN = 1, TAG_ROW, TAG_CORNER };

/* Sites from the first tile of column (or row) `from` to the end of `to` - 1. */
static void span(const struct partition *p, int from, int to, int along_x, long *start,
                 long *count)
{
    const struct tile_extent *first = &p->tiles[along_x ? from : from * p->ngx];
    const struct tile_extent *last = &p->tiles[along_x ? to - 1 : (to - 1) * p->ngx];
    *start = along_x ? first->x0 : first->y0;
    *count = along_x ? last->x0 + last->lx - first->x0 : last->y0 + last->ly - first->y0;
}

void rank_part_make(struct rank_part *rp, const struct partition *p, int rx, int ry,
                    int rank)
{
    if (rx < 1 || ry < 1)
        rx = ry = 1;
    int cols = p->ngx / rx, rows = p->ngy / ry;
    *rp = (struct rank_part){.rx = rx, .ry = ry, .bx = rank % rx, .by = rank / rx};
    span(p, rp->bx * cols, (rp->bx + 1) * cols, 1, &rp->own.x0, &rp->own.nx);
    span(p, rp->by * rows, (rp->by + 1) * rows, 0, &rp->own.y0, &rp->own.ny);
    rp->held = rp->own;
    rp->held.nx += rp->bx < rx - 1;
    rp->held.ny += rp->by < ry - 1;
}

int rank_part_is_whole(const struct rank_part *rp)
{
    return rp->rx * rp->ry == 1;
}

/* The value of lattice site (x, y) in the part, as bytes. */
static char *site(struct field *part, long x, long y)
{
    size_t elem = precision_size(part->precision);
    return (char *)part->data +
           ((size_t)(y - part->y0) * (size_t)part->nx + (size_t)(x - part->x0)) * elem;
}

/* Copies `count` sites between a column of the part (x, from y0 up) and buf. */
static void column_copy(struct field *part, long x, long y0, long count, char *buf,
                        int into_part)
{
    size_t elem = precision_size(part->precision);
    for (long j = 0; j < count; j++) {
        char *at = site(part, x, y0 + j);
        memcpy(into_part ? at : buf + (size_t)j * elem,
               into_part ? buf + (size_t)j * elem : at, elem);
    }
}

int rank_part_fill_shadows(const struct rank_part *rp, struct field *part)
{
    const struct lattice_rect *o = &rp->own;
    size_t elem = precision_size(part->precision);
    int me = rp->bx + rp->by * rp->rx, west = rp->bx > 0, south = rp->by > 0;
    int east = rp->bx < rp->rx - 1, north = rp->by < rp->ry - 1;
    char *sent = malloc((size_t)o->ny * elem), *got = malloc((size_t)o->ny * elem);
    struct rank_message m[6];
    int k = 0;
    if (ranks_first_flagged(!sent || !got) >= 0) { /* agreed: no rank left waiting */
        free(sent), free(got);
        return -1;
    }
    column_copy(part, o->x0, o->y0, o->ny, sent, 0);
    if (west)
        m[k++] = (struct rank_message){me - 1, TAG_COLUMN, sent, (size_t)o->ny * elem, 0};
    if (south)
        m[k++] = (struct rank_message){me - rp->rx, TAG_ROW, site(part, o->x0, o->y0),
                                       (size_t)o->nx * elem, 0};
    if (west && south)
        m[k++] = (struct rank_message){me - rp->rx - 1, TAG_CORNER,
                                       site(part, o->x0, o->y0), elem, 0};
    if (east)
        m[k++] = (struct rank_message){me + 1, TAG_COLUMN, got, (size_t)o->ny * elem, 1};
    if (north)
        m[k++] =
            (struct rank_message){me + rp->rx, TAG_ROW, site(part, o->x0, o->y0 + o->ny),
                                  (size_t)o->nx * elem, 1};
    if (east && north)
        m[k++] = (struct rank_message){me + rp->rx + 1, TAG_CORNER,
                                       site(part, o->x0 + o->nx, o->y0 + o->ny), elem, 1};
    ranks_exchange(m, k);
    if (east)
        column_copy(part, o->x0 + o->nx, o->y0, o->ny, got, 1);
    free(sent), free(got);
    return 0;
}

/*
 * gpu_partition.c - tile extents, neighbours, and the automatic layout.
 */
#include "gpu_partition.h"

#include <stdlib.h>
#include <string.h>

/* Start and length of part i when n sites are split into parts; remainders first. */
static void split(long n, int parts, int i, long *start, long *length)
{
    long base = n / parts, extra = n % parts;
    *length = base + (i < extra ? 1 : 0);
    *start = i * base + (i < extra ? i : extra);
}

int partition_init(struct partition *p, long nx, long ny, int ngx, int ngy)
{
    memset(p, 0, sizeof *p);
    if (ngx < 1 || ngy < 1 || ngx > nx - 2 || ngy > ny - 2)
        return -2;
    p->tiles = calloc((size_t)ngx * (size_t)ngy, sizeof *p->tiles);
    if (!p->tiles)
        return -1;
    p->ngx = ngx;
    p->ngy = ngy;
    p->nx = nx;
    p->ny = ny;
    for (int t = 0; t < ngx * ngy; t++) {
        struct tile_extent *e = &p->tiles[t];
        e->ix = t % ngx;
        e->iy = t / ngx;
        split(nx, ngx, e->ix, &e->x0, &e->lx);
        split(ny, ngy, e->iy, &e->y0, &e->ly);
        e->neighbour[SIDE_WEST] = e->ix > 0 ? t - 1 : -1;
        e->neighbour[SIDE_EAST] = e->ix < ngx - 1 ? t + 1 : -1;
        e->neighbour[SIDE_SOUTH] = e->iy > 0 ? t - ngx : -1;
        e->neighbour[SIDE_NORTH] = e->iy < ngy - 1 ? t + ngx : -1;
    }
    return 0;
}

void partition_free(struct partition *p)
{
    free(p->tiles);
    p->tiles = NULL;
}

/* How far a x b is from square: |a - b|, with a <= b preferred on a tie. */
static long squareness(int a, int b)
{
    return 2L * labs((long)a - b) + (a > b);
}

void partition_auto_layout(int n, long nx, long ny, int *ngx, int *ngy)
{
    for (; n > 1; n--) {
        int best = 0;
        for (int a = 1; a <= n; a++)
            if (n % a == 0 && a <= nx - 2 && n / a <= ny - 2 &&
                (!best || squareness(a, n / a) < squareness(best, n / best)))
                best = a;
        if (best) {
            *ngx = best;
            *ngy = n / best;
            return;
        }
    }
    *ngx = *ngy = 1;
}

int partition_rank_of(const struct partition *p, int rx, int ry, int t)
{
    const struct tile_extent *e = &p->tiles[t];
    return e->ix / (p->ngx / rx) + (e->iy / (p->ngy / ry)) * rx;
}

int partition_rank_layout(int ranks, int ngx, int ngy, int *rx, int *ry)
{
    int best = 0;
    for (int a = 1; a <= ranks; a++)
        if (ranks % a == 0 && ngx % a == 0 && ngy % (ranks / a) == 0 &&
            (!best || squareness(a, ranks / a) < squareness(best, ranks / best)))
            best = a;
    if (!best)
        return -1;
    *rx = best;
    *ry = ranks / best;
    return 0;
}

const char *partition_side_name(enum side side)
{
    static const char *names[SIDE_COUNT] = {"west", "east", "south", "north"};
    return names[side];
}

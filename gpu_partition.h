/*
 * gpu_partition.h - the NGx x NGy split of the lattice into tiles, one per device.
 *
 * Tile t sits at column ix = t % NGx and row iy = t / NGx (the lecture's
 * numbering); row 0 is at the bottom, like y. Each tile owns a rectangle of
 * sites, boundary sites included, and stores it contiguously (pitch = width).
 * When NGx does not divide nx, the first nx % NGx columns of tiles get one
 * site more (the same for rows), so widths differ by at most one.
 *
 *      nx = 11, NGx = 3  ->  widths 4 4 3
 *      +------+------+-----+
 *      |  t3  |  t4  | t5  |   iy = 1   north of t1 is t4
 *      +------+------+-----+
 *      |  t0  |  t1  | t2  |   iy = 0   west of t1 is t0, east t2
 *      +------+------+-----+
 *
 * A neighbour that does not exist (at the edge of the whole lattice) is -1.
 */
#ifndef LAPLACE_GPU_PARTITION_H
#define LAPLACE_GPU_PARTITION_H

enum side { SIDE_WEST, SIDE_EAST, SIDE_SOUTH, SIDE_NORTH, SIDE_COUNT };

struct tile_extent {
    int ix, iy;                /* position in the NGx x NGy grid of tiles */
    long x0, y0;               /* lattice coordinates of the tile's first site */
    long lx, ly;               /* width and height in sites */
    int neighbour[SIDE_COUNT]; /* tile index on each side, -1 at the edge */
};

struct partition {
    int ngx, ngy;
    long nx, ny;
    struct tile_extent *tiles; /* ngx * ngy of them */
};

static inline int partition_count(const struct partition *p)
{
    return p->ngx * p->ngy;
}

/*
 * Splits nx * ny into ngx * ngy tiles. Returns 0; -1 when memory runs out;
 * -2 when the split is impossible (more tiles than interior sites per direction).
 */
int partition_init(struct partition *p, long nx, long ny, int ngx, int ngy);
void partition_free(struct partition *p);

const char *partition_side_name(enum side side);

/* The side across: west <-> east, south <-> north. */
static inline int side_opposite(int side)
{
    return side ^ 1;
}

/*
 * The MPI rank that drives tile t when rx x ry ranks split the tiles into
 * blocks of (NGx / rx) x (NGy / ry) tiles (both divide), numbered like the tiles:
 *
 *      NGx x NGy = 4 x 2 tiles, 2 x 1 ranks:  +----+----+----+----+
 *                                             | t4 | t5 | t6 | t7 |
 *                                             | t0 | t1 | t2 | t3 |
 *                                             +----+----+----+----+
 *                                               rank 0  |  rank 1
 */
int partition_rank_of(const struct partition *p, int rx, int ry, int t);

/* The rx x ry blocks that `ranks` ranks split ngx x ngy tiles into: rx divides
 * ngx, ry divides ngy, rx x ry as square as possible (rx <= ry on a tie, as
 * partition_auto_layout). 0, or -1 when no such split exists. */
int partition_rank_layout(int ranks, int ngx, int ngy, int *rx, int *ry);

/*
 * The layout for n tiles when the user asks for none (--partition auto):
 * ngx * ngy = n as close to square as fits the lattice, ngx <= ngy on a tie
 * (2 -> 1x2, 4 -> 2x2, 8 -> 2x4); fewer tiles only when no layout of n fits.
 */
void partition_auto_layout(int n, long nx, long ny, int *ngx, int *ngy);

#endif

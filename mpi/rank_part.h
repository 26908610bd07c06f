/*
 * rank_part.h - the part of the field one MPI rank holds (rank_part.c): the sites of
 * its block of tiles, plus the one-site shadows of the ranks east and north of it,
 * so that what reads a site's east or north neighbour (a .pvti piece) finds it here.
 *
 *        +-----------+ .        own:  this rank's tiles' sites
 *        |   north   | :        held: own, the column east of it and the row
 *        +===========+.:              north of it (with their corner) where other
 *        |           |e:              ranks' tiles lie: their shadows, filled by
 *        |    own    |a:              rank_part_fill_shadows once a field is here
 *        |           |s:
 *        +===========+t:
 *
 * With one process (1 x 1 ranks) own and held are the whole lattice.
 */
#ifndef LAPLACE_RANK_PART_H
#define LAPLACE_RANK_PART_H

#include "gpu_partition.h"
#include "problem/problem.h"

struct rank_part {
    int rx, ry;               /* the ranks' grid of blocks of tiles */
    int bx, by;               /* this rank's block in it (rank = bx + by rx) */
    struct lattice_rect own;  /* the sites of this rank's tiles */
    struct lattice_rect held; /* own and its shadows east and north */
};

/* The part of rank `rank` when rx x ry ranks split the partition's tiles. */
void rank_part_make(struct rank_part *rp, const struct partition *p, int rx, int ry,
                    int rank);

/* 1 when this part is the whole lattice (one rank). */
int rank_part_is_whole(const struct rank_part *rp);

/* The shadows of `part` (a field over rp->held whose own sites are set) from the
 * ranks east, north and north-east; every rank calls it. 0, or -1 on every rank when one
 * ran out of memory. */
int rank_part_fill_shadows(const struct rank_part *rp, struct field *part);


#endif

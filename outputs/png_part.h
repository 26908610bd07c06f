/*
 * png_part.h - the cells of a .png's heat map from every MPI rank's part (png_part.c),
 * so that no rank holds the whole field: each rank sums the cells over its own
 * sites, the ranks agree on the range, and rank 0 paints each rank's cells into the
 * picture as they arrive, the bits one process sums (heat_map.h).
 */
#ifndef LAPLACE_PNG_PART_H
#define LAPLACE_PNG_PART_H

#include <stddef.h>

#include "mpi/rank_part.h"
#include "outputs/heat_map.h"
#include "outputs/png_output.h"

/*
 * Paints hm's picture (hm shaped for the whole lattice, the same on every rank) from
 * every rank's part, which holds rp->own; every rank calls it. On every rank hm->lo
 * and hm->hi get the whole field's finite range; on rank 0 *picture is the painted
 * picture (png_output.h; the caller writes and frees it), elsewhere NULL. 0, or -1 on
 * every rank when one ran out of memory.
 */
int png_part_picture(const struct field *part, const struct rank_part *rp,
                     struct heat_map *hm, const struct png_options *options,
                     struct png_picture **picture, char *err, size_t n);

#endif

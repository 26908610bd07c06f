/*
 * part_compare.h - the largest difference between a field the MPI ranks hold in
 * parts (rank_part.h) and a whole field that rank 0 alone holds (a comparison's),
 * found piece by piece (part_compare.c):
 *
 *     rank 0: whole field          rank r: its part
 *     +---------+---------+        +---------+
 *     |         | rows of | -----> | compared|  max |part - rows| over its own
 *     |         | rank r  | blocks | with its|  sites, then the largest of
 *     +---------+---------+        | own     |  every rank's, on every rank
 *                                  +---------+
 *
 * Rank 0 sends each rank, one after another, the rows of the whole field over that
 * rank's own sites, in blocks of a bounded size: no rank holds a second whole field,
 * and none more than one block besides its part (rank 0: besides the whole).
 */
#ifndef LAPLACE_PART_COMPARE_H
#define LAPLACE_PART_COMPARE_H

#include <stddef.h>

#include "gpu_partition.h"
#include "problem/field.h"

/* The bytes of the largest block a rank holds while comparing (at most one part). */
#define PART_COMPARE_BLOCK_BYTES ((size_t)16 << 20)

/*
 * The largest |part - whole| over the lattice's sites, as field_max_difference
 * gives it for two whole fields (NaN where a difference is), into *difference on
 * every rank. `part` is this rank's field (its part when the partition's tiles are
 * split into rx x ry blocks of ranks, the whole lattice with one process); `whole`
 * is rank 0's whole field, not read on the other ranks. Every rank calls it.
 * Returns 0, or EXIT_FAILURE_RUN on every rank with err set when one rank ran out
 * of memory for its block.
 */
int part_compare_max_difference(const struct partition *p, int rx, int ry,
                                const struct field *part, const struct field *whole,
                                double *difference, char *err, size_t n);

#endif

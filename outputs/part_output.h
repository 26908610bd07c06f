/*
 * part_output.h - the formats that every MPI rank writes together, each from its
 * part of the field (rank_part.h), so that no rank holds the whole: .bin, .npy, .vti
 * and .dat, and .png from the heat map's cells alone, one file byte for byte as one
 * process writes it (part_output.c).
 */
#ifndef LAPLACE_PART_OUTPUT_H
#define LAPLACE_PART_OUTPUT_H

#include <stddef.h>

#include "mpi/rank_part.h"
#include "outputs/output.h"

/* 1 when path's format is written from parts (.bin .npy .vti .dat .png). */
int part_output_can_write(const char *path);

/*
 * Writes path from every rank's part (every rank calls it, with the same path); a
 * .png by rank 0 from the gathered cells (png_part.h), any other format
 * under a temporary name that rank 0 creates, each rank its rows at their offsets
 * (MPI-IO), rank 0 the head (and tail); renamed by rank 0 once every rank has written its
 * rows, else removed. part holds rp->own (its lattice is nx x ny). 0, or -1 on
 * every rank with the first failing rank's message in err.
 */
int part_output_write(const char *path, const struct field *part,
                      const struct rank_part *rp, long nx, long ny,
                      const struct output_context *context, char *err, size_t n);

#endif

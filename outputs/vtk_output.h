/*
 * vtk_output.h - the field as VTK XML ImageData, the files ParaView opens: one .vti
 * per rectangle of sites, and a .pvti that joins the pieces of a partition.
 */
#ifndef LAPLACE_VTK_OUTPUT_H
#define LAPLACE_VTK_OUTPUT_H

#include <stdio.h>

#include "gpu_partition.h"
#include "problem/problem.h"

/* Where the lattice sits in space: site (i, j) is at (x0 + i*dx, y0 + j*dy). */
struct vtk_grid {
    double x0, y0, dx, dy;
};

/*
 * What the run was at when the file was written. It goes into the file twice: as an
 * XML comment (the text, for a person reading the head of the file) and as FieldData
 * arrays "iteration" and "interrupted" (for ParaView).
 */
struct vtk_note {
    long iteration;
    int interrupted;  /* 1 when the run was stopped before it converged */
    const char *text; /* a free line ("laplace 0.1.0, 512x512 float, ..."); NULL: none */
};

/*
 * Writes sites [x0, x1] x [y0, y1] (inclusive, lattice coordinates) of the field to f
 * as one .vti: point data "u" in the field's precision, appended raw, UInt64 headers,
 * the machine's byte order. The whole lattice is x0 = y0 = 0, x1 = nx-1, y1 = ny-1;
 * the field may be a rank's part (field.h) that holds the rectangle.
 * note may be NULL (no comment, no FieldData). Flushes f, does not close it.
 * Returns 0; -1 when a write fails or the rectangle is not inside the field.
 */
int vtk_write_image(FILE *f, const struct field *field, long x0, long y0, long x1,
                    long y1, const struct vtk_grid *grid, const struct vtk_note *note);

/*
 * The parts of that .vti around its values, for writers that place the values
 * themselves (part_output.c, by MPI-IO from every rank's part): the head, up to and
 * including the UInt64 byte count of the values of [x0, x1] x [y0, y1] (0, or -1 when
 * a write fails), and the tail, which follows the last value.
 */
int vtk_write_image_head(FILE *f, enum precision precision, long x0, long y0, long x1,
                         long y1, const struct vtk_grid *grid,
                         const struct vtk_note *note);
#define VTK_IMAGE_TAIL "\n  </AppendedData>\n</VTKFile>\n"

/* Who holds a piece of a .pvti: its tile, and its MPI rank (-1: one process). */
struct vtk_piece_ids {
    int tile;
    int rank;
};

/*
 * Writes sites [x0, x1] x [y0, y1] as one piece of a .pvti: the .vti of
 * vtk_write_image, with cell arrays "tile" and (where ids->rank >= 0) "rank", each
 * Int32 and the same over the piece, appended after "u", so that ParaView, which
 * reads a .pvti as one image, colours the partition by "tile". Returns 0; -1 when
 * a write fails or the rectangle is not inside the field.
 */
int vtk_write_piece(FILE *f, const struct field *field, long x0, long y0, long x1,
                    long y1, const struct vtk_grid *grid, const struct vtk_note *note,
                    const struct vtk_piece_ids *ids);

/*
 * The sites piece t of a .pvti covers: tile t's rectangle, plus one more column on
 * the east and one more row on the north where a neighbour tile is there, so that the
 * pieces meet in ParaView without a gap (point data).
 */
void vtk_piece_extent(const struct partition *p, int t, long *x0, long *y0, long *x1,
                      long *y1);

/*
 * Writes the .pvti of the partition to f: the whole lattice, the declarations of "u"
 * and of the pieces' cell arrays ("tile"; "rank" too when ranked), and one piece
 * per tile, in tile order, read from piece_names[t] (as they are to appear in the
 * file: relative to the .pvti's folder). note may be NULL. Flushes f, does not close
 * it. Returns 0, or -1 when a write fails.
 */
int vtk_write_pvti(FILE *f, const struct field *field, const struct partition *p,
                   const struct vtk_grid *grid, const char *const piece_names[],
                   const struct vtk_note *note, int ranked);

#endif

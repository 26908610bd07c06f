/*
 * output.h - writing the field to files, the format chosen by the extension:
 *
 *   .dat   the course's text format: one lattice row per line, top row first, every
 *          value with the digits that read back the same bits
 *   .vti   VTK XML ImageData (ParaView): origin, spacing, raw appended values
 *   .pvti  VTK parallel ImageData: one .vti piece per tile (NAME_T.vti, beside it),
 *          to show the partition
 *   .png   a heat map (viridis) with a colour bar; --png-tiles draws the tile borders
 *   .bin   raw values behind a 48-byte header (below), for scripts
 *
 * Every file is written under a short temporary name in its own folder
 * (".lpXXXXXX", created exclusively, so unique even across PID namespaces) and
 * renamed, so an interrupted or failed run never leaves a half file under the name
 * asked for. The pieces of a .pvti stay under their temporary names until the
 * index is written; then all are renamed, the index last: the set is replaced
 * whole or not at all.
 *
 * The .bin header, in the byte order of the machine that wrote it:
 *   0  char[8]  "LAPLACEB"            24 int64  ny
 *   8  uint32   version (1)           32 int64  iteration
 *  12  uint32   bytes per value (4/8) 40 uint32 flags (bit 0: interrupted)
 *  16  int64    nx                    44 uint32 0x01020304 (shows the byte order)
 * then nx * ny values, row y = 0 (the bottom) first, x fastest.
 */
#ifndef LAPLACE_OUTPUT_H
#define LAPLACE_OUTPUT_H

#include <stddef.h>

#include <stdio.h>

#include "gpu_partition.h"
#include "problem/problem.h"
#include "outputs/heat_map.h"
#include "outputs/output_formats.h"
#include "outputs/png_output.h"
#include "outputs/temp_file.h"

/*
 * The pieces of one .pvti staged under temporary names, by the tiles' threads
 * (output_write_piece) or by output_write, until output_write renames them with
 * the index. A piece that failed keeps its message until then.
 */
struct output_pieces {
    int count;               /* the tiles */
    struct temp_file *piece; /* count of them */
    int *staged;             /* 1: piece t is written under piece[t].name */
    int failed;
    char error[256];
};

/* What a file says about the run besides the field. */
struct output_context {
    const struct partition *partition; /* the run's tiles, or NULL (one piece) */
    double x0, y0, dx, dy;             /* site (i, j) is at (x0 + i dx, y0 + j dy) */
    int png_tiles;                     /* draw the tile borders on .png */
    int png_range;                     /* .png colours span png_lo..png_hi */
    double png_lo, png_hi;
    long iteration;               /* the iteration of the field */
    int interrupted;              /* 1: a signal stopped the run there */
    struct output_pieces *pieces; /* .pvti: pieces staged already, or NULL */
    int ranks_x, ranks_y;         /* the tiles split among MPI ranks (0 or 1 x 1:
                                   * one process): the pieces' "rank" cell array */
    char text[256]; /* one line: "laplace 0.1.0, 512x512 float, ..., iteration N" */
};

/*
 * Checks before the solve that path can be written: a known extension, a name the
 * file system takes (output_paths.h), a folder that exists and is writable, and
 * nothing there but a regular file with a write permission (not a directory, a
 * FIFO, a device, a read-only file). 0, or -1 with err set.
 */
int output_check_writable(const char *path, char *err, size_t n);

/* The same for a file of any extension (the history, a .pvti's pieces). */
int output_check_file(const char *path, char *err, size_t n);

/* The name of piece t of the .pvti at index: "dir/a.pvti", 3 -> "dir/a_3.vti".
 * 0, or -1 when it does not fit in n. */
int output_piece_path(const char *index, int t, char *out, size_t n);

/* An empty set of count pieces (0, or -1: out of memory); discard frees it,
 * removing the pieces not renamed. */
int output_pieces_init(struct output_pieces *p, int count);
void output_pieces_discard(struct output_pieces *p);

/* Writes the field to path in the format of its extension. 0, or -1 with err set. */
int output_write(const char *path, const struct field *field,
                 const struct output_context *context, char *err, size_t n);

/* 1 when path is a .pvti, whose pieces the tiles' threads may write themselves. */
int output_has_pieces(const char *path);

/* Stages piece t of the .pvti at path in context->pieces: tile t of
 * context->partition (with the one shared column and row of vtk_piece_extent), to
 * be renamed NAME_t.vti by output_write. 0, or -1 with err set (and kept in the
 * set, which output_write then reports). */
int output_write_piece(const char *path, const struct field *field,
                       const struct output_context *context, int t, char *err, size_t n);

/* Under MPI (run.c), where each rank stages its own tiles' pieces: renames the
 * pieces staged in set to their names (then the index may be written), and
 * writes the index alone. Each 0, or -1 with err set. */
int output_pieces_commit(const char *path, struct output_pieces *set, char *err,
                         size_t n);
int output_write_index(const char *path, const struct field *field,
                       const struct output_context *context, char *err, size_t n);

/* ---- what the writers of a rank's part (part_output.h) share with these ---- */

#define OUTPUT_HEADER_MAX 256 /* the longest .bin or .npy header */
#define OUTPUT_DAT_VALUE_MAX                                                             \
    32 /* the most bytes of one .dat value, its space included                           \
        */

/* The header of a .bin or .npy (format: output_formats.h) of an nx x ny field in
 * out; its length in bytes. The values follow it, row y = 0 first. */
size_t output_raw_header(enum output_format format, long nx, long ny,
                         enum precision precision, const struct output_context *c,
                         unsigned char out[OUTPUT_HEADER_MAX]);

/* The head of a whole .vti of an nx x ny field (vtk_write_image_head), the values
 * to follow it, then VTK_IMAGE_TAIL. 0, or -1 when a write fails. */
int output_vti_head(FILE *f, long nx, long ny, enum precision precision,
                    const struct output_context *c);

/* Lattice sites x0..x1 of row y of field (whole, or a part that holds them) as the
 * text of a .dat line (a space before each value but the lattice's first; a newline
 * after when ends_row), into out (size bytes: OUTPUT_DAT_VALUE_MAX a value and 2
 * more), or only counted when out is NULL. Its length in bytes. */
size_t output_dat_segment(char *out, size_t size, const struct field *field, long y,
                          long x0, long x1, int ends_row);

/* A .png painted elsewhere (png_part.h): output_png_options are the picture's options
 * the context asks for; output_heat_map_start shapes hm for an nx x ny lattice as the
 * context asks the picture drawn (0, or -1 with err set); output_write_picture writes
 * path from the painted picture, as output_write does (0, or -1 with err set). */
struct png_options output_png_options(const struct output_context *c);
int output_heat_map_start(const char *path, long nx, long ny,
                          const struct output_context *c, struct heat_map *hm, char *err,
                          size_t n);
int output_write_picture(const char *path, struct png_picture *picture,
                         const struct output_context *context, char *err, size_t n);

/* The name of a snapshot of path at an iteration: "heat.dat" -> "heat-000100.dat".
 * 0, or -1 when it does not fit in n. */
int output_snapshot_path(const char *path, long iteration, char *out, size_t n);

#endif

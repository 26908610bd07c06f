/*
 * output.c - the field to files (output.h): the format by extension, each file
 * written under a temporary name that interrupt.c removes if a second signal
 * ends the program, then renamed. The .dat and .bin formats are written here;
 * vtk_output.c and png_output.c write the others.
 */
#include "output.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "interrupt.h"
#include "png_output.h"
#include "vtk_output.h"

#define PIECE_NAME 4200 /* a path or a piece's name, with room for "_T.vti" */

enum format {
    FORMAT_DAT,
    FORMAT_VTI,
    FORMAT_PVTI,
    FORMAT_PNG,
    FORMAT_BIN,
    FORMAT_UNKNOWN
};

/* What one file is made of; the writers below take it. */
struct job {
    const struct field *field;
    const struct output_context *context;
    int piece;              /* .pvti pieces: the tile, else -1 */
    const char *index_path; /* .pvti: where the index goes (for the pieces' names) */
};

static enum format format_of(const char *path)
{
    static const char *extensions[] = {".dat", ".vti", ".pvti", ".png", ".bin"};
    const char *dot = strrchr(path, '.');
    for (int f = 0; dot && f < FORMAT_UNKNOWN; f++)
        if (strcmp(dot, extensions[f]) == 0)
            return (enum format)f;
    return FORMAT_UNKNOWN;
}

int output_has_pieces(const char *path)
{
    return format_of(path) == FORMAT_PVTI;
}

void output_temporary_name(const char *path, char *tmp, size_t n)
{
    snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
}

int output_check_writable(const char *path, char *err, size_t errlen)
{
    char tmp[PIECE_NAME + 32];
    struct stat info;
    if (format_of(path) == FORMAT_UNKNOWN)
        return error_set(err, errlen, "cannot write '%s': unknown extension", path);
    if (stat(path, &info) == 0 && S_ISDIR(info.st_mode))
        return error_set(err, errlen, "cannot write '%s': it is a directory", path);
    output_temporary_name(path, tmp, sizeof tmp);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return error_set(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    fclose(f);
    remove(tmp);
    return 0;
}

/* ---- the formats written here ---------------------------------------------- */

static int write_dat(FILE *f, const struct job *job)
{
    const struct field *field = job->field;
    int digits = field->precision == PRECISION_FLOAT ? 9 : 17;
    for (long y = field->ny - 1; y >= 0; y--) {
        for (long x = 0; x < field->nx; x++)
            if (fprintf(f, x ? " %.*g" : "%.*g", digits, field_get(field, x, y)) < 0)
                return -1;
        if (fputc('\n', f) == EOF)
            return -1;
    }
    return 0;
}

static int write_bin(FILE *f, const struct job *job)
{
    const struct field *field = job->field;
    char magic[8] = {'L', 'A', 'P', 'L', 'A', 'C', 'E', 'B'};
    uint32_t version = 1, size = (uint32_t)precision_size(field->precision);
    uint32_t flags = job->context->interrupted ? 1u : 0u, order = 0x01020304u;
    int64_t nx = field->nx, ny = field->ny, iteration = job->context->iteration;
    size_t values = (size_t)field->nx * (size_t)field->ny;
    int ok = fwrite(magic, 8, 1, f) == 1 && fwrite(&version, 4, 1, f) == 1 &&
             fwrite(&size, 4, 1, f) == 1 && fwrite(&nx, 8, 1, f) == 1 &&
             fwrite(&ny, 8, 1, f) == 1 && fwrite(&iteration, 8, 1, f) == 1 &&
             fwrite(&flags, 4, 1, f) == 1 && fwrite(&order, 4, 1, f) == 1 &&
             fwrite(field->data, size, values, f) == values;
    return ok ? 0 : -1;
}

/* ---- the formats of vtk_output.c and png_output.c ------------------------- */

static struct vtk_grid grid_of(const struct output_context *c)
{
    return (struct vtk_grid){.x0 = c->x0, .y0 = c->y0, .dx = c->dx, .dy = c->dy};
}

static struct vtk_note note_of(const struct output_context *c)
{
    return (struct vtk_note){
        .iteration = c->iteration, .interrupted = c->interrupted, .text = c->text};
}

static int write_vti(FILE *f, const struct job *job)
{
    const struct field *field = job->field;
    struct vtk_grid grid = grid_of(job->context);
    struct vtk_note note = note_of(job->context);
    long x0 = 0, y0 = 0, x1 = field->nx - 1, y1 = field->ny - 1;
    if (job->piece >= 0 && job->context->partition)
        vtk_piece_extent(job->context->partition, job->piece, &x0, &y0, &x1, &y1);
    return vtk_write_image(f, field, x0, y0, x1, y1, &grid, &note);
}

/* "dir/a.pvti", tile 3 -> "dir/a_3.vti" (path) and "a_3.vti" (the name in the index). */
static void piece_path(const char *index, int t, char *out, size_t n, int name_only)
{
    const char *slash = strrchr(index, '/');
    const char *start = name_only && slash ? slash + 1 : index;
    int stem = (int)(strrchr(index, '.') - start);
    snprintf(out, n, "%.*s_%d.vti", stem, start, t);
}

static int write_pvti(FILE *f, const struct job *job)
{
    const struct output_context *c = job->context;
    struct partition whole = {0};
    const struct partition *p = c->partition;
    if (!p && partition_init(&whole, job->field->nx, job->field->ny, 1, 1) != 0)
        return -1;
    p = p ? p : &whole;
    int tiles = partition_count(p), rc = -1;
    char(*names)[PIECE_NAME] = malloc((size_t)tiles * sizeof *names);
    const char **list = malloc((size_t)tiles * sizeof *list);
    if (names && list) {
        for (int t = 0; t < tiles; t++) {
            piece_path(job->index_path, t, names[t], PIECE_NAME, 1);
            list[t] = names[t];
        }
        struct vtk_grid grid = grid_of(c);
        struct vtk_note note = note_of(c);
        rc = vtk_write_pvti(f, job->field, p, &grid, list, &note);
    }
    free(names);
    free(list);
    partition_free(&whole);
    return rc;
}

/* ---- temporary name, guard, rename ---------------------------------------- */

/* Writes path through writer (a FILE writer, or png_write by name when NULL). */
static int write_file(const char *path, int (*writer)(FILE *, const struct job *),
                      const struct job *job, char *err, size_t errlen)
{
    char tmp[PIECE_NAME + 32];
    output_temporary_name(path, tmp, sizeof tmp);
    int guard = interrupt_guard(tmp), rc = -1, said = 0;
    if (writer) {
        FILE *f = fopen(tmp, "wb");
        if (f) {
            rc = writer(f, job);
            rc = fclose(f) != 0 ? -1 : rc;
        }
    } else {
        struct png_options options = {
            .tiles = job->context->png_tiles ? job->context->partition : NULL,
            .caption = job->context->text,
            .fixed_range = job->context->png_range,
            .range_lo = job->context->png_lo,
            .range_hi = job->context->png_hi};
        rc = png_write(tmp, job->field, &options, err, errlen);
        said = rc != 0; /* png_write named what failed */
    }
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1;
    if (rc != 0) {
        if (!said)
            snprintf(err, errlen, "writing '%s' failed: %s", path,
                     errno ? strerror(errno) : "a write failed");
        remove(tmp);
    }
    interrupt_release(guard);
    return rc;
}

int output_write_piece(const char *path, const struct field *field,
                       const struct output_context *context, int t, char *err,
                       size_t errlen)
{
    char piece[PIECE_NAME];
    struct job job = {.field = field, .context = context, .piece = t, .index_path = path};
    piece_path(path, t, piece, sizeof piece, 0);
    return write_file(piece, write_vti, &job, err, errlen);
}

/* The pieces of a .pvti whose tiles did not write them, then the index. */
static int write_pieces_and_index(const char *path, const struct job *job, char *err,
                                  size_t errlen)
{
    const struct partition *p = job->context->partition;
    int tiles = p ? partition_count(p) : 1;
    for (int t = 0; !job->context->pieces_written && t < tiles; t++)
        if (output_write_piece(path, job->field, job->context, t, err, errlen) != 0)
            return -1;
    return write_file(path, write_pvti, job, err, errlen);
}

int output_write(const char *path, const struct field *field,
                 const struct output_context *context, char *err, size_t errlen)
{
    struct job job = {
        .field = field, .context = context, .piece = -1, .index_path = path};
    errno = 0;
    switch (format_of(path)) {
    case FORMAT_DAT:
        return write_file(path, write_dat, &job, err, errlen);
    case FORMAT_VTI:
        return write_file(path, write_vti, &job, err, errlen);
    case FORMAT_PVTI:
        return write_pieces_and_index(path, &job, err, errlen);
    case FORMAT_BIN:
        return write_file(path, write_bin, &job, err, errlen);
    case FORMAT_PNG:
        return write_file(path, NULL, &job, err, errlen);
    case FORMAT_UNKNOWN:
        break;
    }
    snprintf(err, errlen, "cannot write '%s': unknown extension", path);
    return -1;
}

int output_snapshot_path(const char *path, long iteration, char *out, size_t n)
{
    const char *dot = strrchr(path, '.');
    int stem = dot ? (int)(dot - path) : (int)strlen(path);
    int written = snprintf(out, n, "%.*s-%06ld%s", stem, path, iteration, dot ? dot : "");
    return written < 0 || (size_t)written >= n ? -1 : 0;
}

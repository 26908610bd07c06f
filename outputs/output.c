/*
 * output.c - the field to files (output.h): the format by extension, each file
 * written whole (temp_file.h: under a temporary name beside it, then renamed). The .dat
 * and .bin formats are written here; vtk_output.c and png_output.c write the others.
 */
#include "outputs/output.h"
#include "outputs/output_formats.h"
#include "outputs/output_paths.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/error.h"
#include "support/interrupt.h"
#include "outputs/png_output.h"
#include "outputs/vtk_output.h"

/* What one file is made of; the writers below take it. */
struct job {
    const struct field *field;
    const struct output_context *context;
    int piece;                   /* .pvti pieces: the tile, else -1 */
    const char *index_path;      /* .pvti: where the index goes (for the pieces' names) */
    struct png_picture *picture; /* .png: painted already (png_part.c), else NULL */
};

int output_has_pieces(const char *path)
{
    return output_format_of(path) == FORMAT_PVTI;
}

/* ---- checks before the solve ---------------------------------------------- */

/* What is at path already, if anything, may be replaced: a regular file with a
 * write permission (root may write any: the bits say what its owner meant). */
static int check_target(const char *path, char *err, size_t n)
{
    struct stat info;
    if (stat(path, &info) != 0)
        return 0; /* nothing there (or a dangling link, which the rename replaces) */
    if (S_ISDIR(info.st_mode))
        return error_set(err, n, "cannot write '%s': it is a directory", path);
    if (!S_ISREG(info.st_mode))
        return error_set(err, n,
                         "cannot write '%s': not a regular file (a FIFO, a "
                         "device or a socket)",
                         path);
    if (access(path, W_OK) != 0 || !(info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)))
        return error_set(err, n, "cannot write '%s': it is read-only", path);
    return 0;
}

int output_check_file(const char *path, char *err, size_t n)
{
    struct temp_file t;
    if (output_paths_check_name(path, err, n) != 0 || check_target(path, err, n) != 0)
        return -1;
    FILE *f = temp_file_open(path, &t, err, n);
    if (!f)
        return -1;
    fclose(f);
    temp_file_discard(&t);
    return 0;
}

int output_check_writable(const char *path, char *err, size_t n)
{
    if (output_format_of(path) == FORMAT_UNKNOWN)
        return error_set(err, n, "cannot write '%s': unknown extension", path);
    return output_check_file(path, err, n);
}

/* ---- the formats written here ---------------------------------------------- */

/* The .bin header (output.h) in out; its length. */
static size_t bin_header(long nx, long ny, enum precision precision,
                         const struct output_context *c, unsigned char *out)
{
    const char magic[8] = {'L', 'A', 'P', 'L', 'A', 'C', 'E', 'B'};
    uint32_t version = 1, size = (uint32_t)precision_size(precision);
    uint32_t flags = c->interrupted ? 1u : 0u, order = 0x01020304u;
    int64_t nx64 = nx, ny64 = ny, iteration = c->iteration;
    memcpy(out, magic, 8);
    memcpy(out + 8, &version, 4);
    memcpy(out + 12, &size, 4);
    memcpy(out + 16, &nx64, 8);
    memcpy(out + 24, &ny64, 8);
    memcpy(out + 32, &iteration, 8);
    memcpy(out + 40, &flags, 4);
    memcpy(out + 44, &order, 4);
    return 48;
}

/*
 * NumPy's .npy (format 1.0): the magic, the header length, a Python dict giving the
 * dtype in this machine's byte order and the shape (ny, nx), padded so the values
 * start at a multiple of 64 bytes; then the values, the bottom row (y = 0) first, x
 * fastest, as in .bin: u[j, i] is the site at (x_i, y_j). The head in out; its length.
 */
static size_t npy_header(long nx, long ny, enum precision precision, unsigned char *out)
{
    const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    const uint16_t probe = 1;
    char order = *(const unsigned char *)&probe == 1 ? '<' : '>';
    char *header = (char *)out + 10;
    int length = snprintf(header, OUTPUT_HEADER_MAX - 10,
                          "{'descr': '%cf%zu', 'fortran_order': False, 'shape': (%ld, "
                          "%ld), }",
                          order, precision_size(precision), ny, nx);
    int padded = ((10 + length + 1 + 63) / 64) * 64 - 10; /* with the closing \n */
    memset(header + length, ' ', (size_t)(padded - length - 1));
    header[padded - 1] = '\n';
    memcpy(out, magic, 8);
    out[8] = (unsigned char)(padded & 0xff);
    out[9] = (unsigned char)(padded >> 8);
    return (size_t)(10 + padded);
}

size_t output_dat_segment(char *out, size_t size, const struct field *field, long y,
                          long x0, long x1, int ends_row)
{
    int digits = field->precision == PRECISION_FLOAT ? 9 : 17;
    size_t used = 0;
    for (long x = x0; x <= x1; x++) {
        double v = field_get(field, x - field->x0, y - field->y0);
        int k = snprintf(out ? out + used : NULL, out ? size - used : 0,
                         x ? " %.*g" : "%.*g", digits, v);
        used += (size_t)k;
    }
    if (ends_row) {
        if (out)
            out[used] = '\n';
        used++;
    }
    return used;
}

static int write_dat(FILE *f, const struct job *job)
{
    const struct field *field = job->field;
    size_t size = (size_t)field->nx * OUTPUT_DAT_VALUE_MAX + 2;
    char *row = malloc(size);
    int rc = row ? 0 : -1;
    for (long y = field->ny - 1; rc == 0 && y >= 0; y--) {
        size_t bytes = output_dat_segment(row, size, field, y, 0, field->nx - 1, 1);
        if (fwrite(row, 1, bytes, f) != bytes)
            rc = -1;
    }
    free(row);
    return rc;
}

size_t output_raw_header(enum output_format format, long nx, long ny,
                         enum precision precision, const struct output_context *c,
                         unsigned char out[OUTPUT_HEADER_MAX])
{
    return format == FORMAT_BIN ? bin_header(nx, ny, precision, c, out)
                                : npy_header(nx, ny, precision, out);
}

static int write_raw(FILE *f, const struct job *job, enum output_format format)
{
    const struct field *field = job->field;
    unsigned char header[OUTPUT_HEADER_MAX];
    size_t size = precision_size(field->precision);
    size_t values = (size_t)field->nx * (size_t)field->ny;
    size_t bytes = output_raw_header(format, field->nx, field->ny, field->precision,
                                     job->context, header);
    int ok = fwrite(header, 1, bytes, f) == bytes &&
             fwrite(field->data, size, values, f) == values;
    return ok ? 0 : -1;
}

static int write_bin(FILE *f, const struct job *job)
{
    return write_raw(f, job, FORMAT_BIN);
}

static int write_npy(FILE *f, const struct job *job)
{
    return write_raw(f, job, FORMAT_NPY);
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

/* Whether the tiles are split among MPI ranks (the pieces then name their rank). */
static int ranked(const struct output_context *c)
{
    return c->partition && c->ranks_x * c->ranks_y > 1;
}

/* A .vti: the whole field, or piece job->piece of a .pvti with its tile and rank. */
static int write_vti(FILE *f, const struct job *job)
{
    const struct field *field = job->field;
    const struct output_context *c = job->context;
    struct vtk_grid grid = grid_of(c);
    struct vtk_note note = note_of(c);
    long x0 = 0, y0 = 0, x1 = field->nx - 1, y1 = field->ny - 1;
    if (job->piece < 0)
        return vtk_write_image(f, field, x0, y0, x1, y1, &grid, &note);
    if (c->partition)
        vtk_piece_extent(c->partition, job->piece, &x0, &y0, &x1, &y1);
    struct vtk_piece_ids ids = {
        .tile = job->piece,
        .rank = ranked(c)
                    ? partition_rank_of(c->partition, c->ranks_x, c->ranks_y, job->piece)
                    : -1};
    return vtk_write_piece(f, field, x0, y0, x1, y1, &grid, &note, &ids);
}

int output_vti_head(FILE *f, long nx, long ny, enum precision precision,
                    const struct output_context *c)
{
    struct vtk_grid grid = grid_of(c);
    struct vtk_note note = note_of(c);
    return vtk_write_image_head(f, precision, 0, 0, nx - 1, ny - 1, &grid, &note);
}

/* "dir/a.pvti", tile 3 -> "dir/a_3.vti" (path) and "a_3.vti" (the name in the index). */
static int piece_path(const char *index, int t, char *out, size_t n, int name_only)
{
    const char *slash = strrchr(index, '/');
    const char *start = name_only && slash ? slash + 1 : index;
    const char *dot = strrchr(index, '.');
    int stem = dot && dot > start ? (int)(dot - start) : (int)strlen(start);
    int written = snprintf(out, n, "%.*s_%d.vti", stem, start, t);
    return written < 0 || (size_t)written >= n ? -1 : 0;
}

int output_piece_path(const char *index, int t, char *out, size_t n)
{
    return piece_path(index, t, out, n, 0);
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
    char(*names)[OUTPUT_PATH_MAX] = malloc((size_t)tiles * sizeof *names);
    const char **list = malloc((size_t)tiles * sizeof *list);
    if (names && list) {
        for (int t = 0; t < tiles; t++) {
            piece_path(job->index_path, t, names[t], OUTPUT_PATH_MAX, 1);
            list[t] = names[t];
        }
        struct vtk_grid grid = grid_of(c);
        struct vtk_note note = note_of(c);
        rc = vtk_write_pvti(f, job->field, p, &grid, list, &note, ranked(c));
    }
    free(names);
    free(list);
    partition_free(&whole);
    return rc;
}

/* How the run asks for its .png to be drawn. */
struct png_options output_png_options(const struct output_context *c)
{
    return (struct png_options){.tiles = c->png_tiles ? c->partition : NULL,
                                .caption = c->text,
                                .fixed_range = c->png_range,
                                .range_lo = c->png_lo,
                                .range_hi = c->png_hi};
}

int output_heat_map_start(const char *path, long nx, long ny,
                          const struct output_context *c, struct heat_map *hm, char *err,
                          size_t n)
{
    struct png_options options = output_png_options(c);
    return png_heat_map_start(path, nx, ny, &options, hm, err, n);
}

/* ---- writing under a temporary name, then renaming ------------------------ */

/* Writes the file of path under the temporary name t (a FILE writer, or png_write
 * by name when writer is NULL); path is a piece of the .pvti set when set is not
 * NULL, and the message names the set. 0, or -1 with err set and nothing left. */
static int write_temporary(const char *path, const char *set,
                           int (*writer)(FILE *, const struct job *),
                           const struct job *job, struct temp_file *t, char *err,
                           size_t n)
{
    FILE *f = temp_file_open(path, t, err, n);
    if (!f && set)
        error_set(err, n, "cannot write '%s': its piece '%s': %s", set, path,
                  strerror(errno));
    if (!f)
        return -1;
    errno = 0;
    int rc = writer ? writer(f, job) : 0, saved = errno;
    if (fclose(f) != 0 && rc == 0)
        rc = -1, saved = errno;
    if (rc == 0 && !writer) {
        char png_error[256];
        struct png_options options = output_png_options(job->context);
        rc = job->picture
                 ? png_picture_write(t->name, job->picture, png_error, sizeof png_error)
                 : png_write(t->name, job->field, &options, png_error, sizeof png_error);
        saved = errno;
    }
    const char *why = saved ? strerror(saved) : "a write failed";
    if (rc != 0 && set)
        error_set(err, n, "writing '%s' failed: its piece '%s': %s", set, path, why);
    else if (rc != 0)
        error_set(err, n, "writing '%s' failed: %s", path, why);
    if (rc != 0)
        temp_file_discard(t);
    return rc;
}

/* Writes path whole: under a temporary name, then renamed over it. */
static int write_file(const char *path, int (*writer)(FILE *, const struct job *),
                      const struct job *job, char *err, size_t n)
{
    struct temp_file t;
    if (write_temporary(path, NULL, writer, job, &t, err, n) != 0)
        return -1;
    if (temp_file_commit(&t, path, 1) != 0)
        return error_set(err, n, "writing '%s' failed: %s", path, strerror(errno));
    return 0;
}

int output_pieces_init(struct output_pieces *p, int count)
{
    *p = (struct output_pieces){.count = count};
    p->piece = calloc((size_t)count, sizeof *p->piece);
    p->staged = calloc((size_t)count, sizeof *p->staged);
    if (p->piece && p->staged)
        return 0;
    output_pieces_discard(p);
    return -1;
}

void output_pieces_discard(struct output_pieces *p)
{
    for (int t = 0; p->staged && t < p->count; t++)
        if (p->staged[t])
            temp_file_discard(&p->piece[t]);
    free(p->piece);
    free(p->staged);
    *p = (struct output_pieces){0};
}

int output_write_piece(const char *path, const struct field *field,
                       const struct output_context *context, int t, char *err, size_t n)
{
    char piece[OUTPUT_PATH_MAX];
    struct output_pieces *set = context->pieces;
    struct job job = {.field = field, .context = context, .piece = t, .index_path = path};
    int rc = -1;
    if (piece_path(path, t, piece, sizeof piece, 0) != 0)
        error_set(err, n, "cannot write '%s': its pieces' names are too long", path);
    else
        rc = write_temporary(piece, path, write_vti, &job, &set->piece[t], err, n);
    if (rc == 0)
        set->staged[t] = 1;
#pragma omp critical(output_pieces)
    if (rc != 0 && !set->failed) {
        set->failed = 1;
        snprintf(set->error, sizeof set->error, "%s", err);
    }
    return rc;
}

int output_pieces_commit(const char *path, struct output_pieces *set, char *err, size_t n)
{
    char piece[OUTPUT_PATH_MAX];
    int renamed = 0;
    for (int t = 0; t < set->count; t++) {
        if (!set->staged[t])
            continue; /* another rank's */
        piece_path(path, t, piece, sizeof piece, 0);
        set->staged[t] = 0;
        if (temp_file_commit(&set->piece[t], piece, 1) == 0) {
            renamed++;
            continue;
        }
        int saved = errno, removed = renamed > 0 && remove(path) == 0;
        error_set(err, n, "writing '%s' failed: renaming its piece '%s': %s%s", path,
                  piece, strerror(saved),
                  removed ? " (the old index is removed: some of its pieces were "
                            "replaced already)"
                          : "");
        return -1;
    }
    return 0;
}

/* Every piece renamed, then the index, with a second signal held until the last
 * rename: the set is replaced whole. A rename that fails removes the old index
 * once any piece was replaced (output_pieces_commit): the set is then absent. */
static int commit_set(const char *path, struct output_pieces *set,
                      struct temp_file *index, char *err, size_t n)
{
    int rc = 0;
    interrupt_hold();
    if (output_pieces_commit(path, set, err, n) != 0) {
        temp_file_discard(index);
        rc = -1;
    } else if (temp_file_commit(index, path, 1) != 0) {
        rc = error_set(err, n, "writing '%s' failed: %s", path, strerror(errno));
    }
    interrupt_end_hold();
    return rc;
}

int output_write_index(const char *path, const struct field *field,
                       const struct output_context *context, char *err, size_t n)
{
    struct job job = {
        .field = field, .context = context, .piece = -1, .index_path = path};
    struct temp_file index;
    if (write_temporary(path, NULL, write_pvti, &job, &index, err, n) != 0)
        return -1;
    if (temp_file_commit(&index, path, 1) != 0)
        return error_set(err, n, "writing '%s' failed: %s", path, strerror(errno));
    return 0;
}

/* The pieces of a .pvti that are not staged yet, the index, then all renamed. */
static int write_pieces_and_index(const char *path, const struct job *job, char *err,
                                  size_t n)
{
    struct output_context context = *job->context;
    struct output_pieces own = {0};
    const struct partition *p = context.partition;
    if (!context.pieces && output_pieces_init(&own, p ? partition_count(p) : 1) != 0)
        return error_set(err, n, "cannot write '%s': out of memory", path);
    struct output_pieces *set = context.pieces ? context.pieces : &own;
    struct job index_job = *job;
    struct temp_file index;
    context.pieces = set;
    index_job.context = &context;
    int rc = set->failed ? error_set(err, n, "%s", set->error) : 0;
    for (int t = 0; rc == 0 && t < set->count; t++)
        if (!set->staged[t])
            rc = output_write_piece(path, job->field, &context, t, err, n);
    if (rc == 0)
        rc = write_temporary(path, NULL, write_pvti, &index_job, &index, err, n);
    if (rc == 0)
        rc = commit_set(path, set, &index, err, n);
    output_pieces_discard(set); /* what was not renamed is removed */
    return rc;
}

int output_write(const char *path, const struct field *field,
                 const struct output_context *context, char *err, size_t n)
{
    struct job job = {
        .field = field, .context = context, .piece = -1, .index_path = path};
    switch (output_format_of(path)) {
    case FORMAT_DAT:
        return write_file(path, write_dat, &job, err, n);
    case FORMAT_VTI:
        return write_file(path, write_vti, &job, err, n);
    case FORMAT_PVTI:
        return write_pieces_and_index(path, &job, err, n);
    case FORMAT_BIN:
        return write_file(path, write_bin, &job, err, n);
    case FORMAT_NPY:
        return write_file(path, write_npy, &job, err, n);
    case FORMAT_PNG:
        return write_file(path, NULL, &job, err, n);
    case FORMAT_UNKNOWN:
        break;
    }
    snprintf(err, n, "cannot write '%s': unknown extension", path);
    return -1;
}

int output_write_picture(const char *path, struct png_picture *picture,
                         const struct output_context *context, char *err, size_t n)
{
    struct job job = {.context = context, .piece = -1, .picture = picture};
    return write_file(path, NULL, &job, err, n);
}

int output_snapshot_path(const char *path, long iteration, char *out, size_t n)
{
    const char *dot = strrchr(path, '.');
    int stem = dot ? (int)(dot - path) : (int)strlen(path);
    int written = snprintf(out, n, "%.*s-%06ld%s", stem, path, iteration, dot ? dot : "");
    return written < 0 || (size_t)written >= n ? -1 : 0;
}

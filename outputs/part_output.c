/*
 * part_output.c - .bin, .npy, .vti and .dat written by every rank at once from its
 * part (part_output.h); a .png drawn by rank 0 from the cells the ranks sum
 * (png_part.h). The raw formats (.vti's values are raw too, between its XML
 * head and tail) put row y of the lattice at a known offset after the head, so a
 * rank writes each of its rows' pieces straight there. The text of .dat has values
 * of varying width: each rank formats its pieces of rows once to count their bytes,
 * the ranks add up the counts of every piece (MPI_Allreduce), and every rank finds
 * where its pieces start by adding the counts before them in file order (the top row
 * first, west to east); then it formats them again, into place.
 */
#include "outputs/part_output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/ranks.h"
#include "outputs/output_formats.h"
#include "outputs/png_part.h"
#include "outputs/vtk_output.h"
#include "support/error.h"

int part_output_can_write(const char *path)
{
    enum output_format f = output_format_of(path);
    return f == FORMAT_BIN || f == FORMAT_NPY || f == FORMAT_DAT || f == FORMAT_VTI ||
           f == FORMAT_PNG;
}

/* The bytes before the values of a .bin, .npy or .vti, into *head (the caller frees
 * it): their count, or -1 (out of memory). Every rank builds them, for the offsets. */
static long fixed_head(enum output_format format, long nx, long ny,
                       enum precision precision, const struct output_context *c,
                       char **head)
{
    size_t size = 0;
    if (format != FORMAT_VTI) {
        *head = malloc(OUTPUT_HEADER_MAX);
        return *head ? (long)output_raw_header(format, nx, ny, precision, c,
                                               (unsigned char *)*head)
                     : -1;
    }
    FILE *f = open_memstream(head, &size);
    if (!f)
        return -1;
    int rc = output_vti_head(f, nx, ny, precision, c);
    if (fclose(f) != 0 || rc != 0) {
        free(*head);
        *head = NULL;
        return -1;
    }
    return (long)size;
}

/* This rank's rows of a .bin, .npy or .vti into the file, at their offsets after
 * the head; rank 0 writes the head, and a .vti's tail after the last value. */
static int write_fixed(struct ranks_file *file, enum output_format format,
                       const struct field *part, const struct rank_part *rp, long nx,
                       long ny, const struct output_context *c, char *err, size_t n)
{
    char *header = NULL;
    size_t elem = precision_size(part->precision);
    long head = fixed_head(format, nx, ny, part->precision, c, &header);
    const struct lattice_rect *o = &rp->own;
    long long end = head + (long long)nx * ny * (long long)elem;
    int rc = head < 0
                 ? error_set(err, n, "rank %d: out of memory for a header", ranks_rank())
                 : 0;
    if (rc == 0 && ranks_rank() == 0)
        rc = ranks_file_write_at(file, 0, header, (size_t)head, err, n);
    if (rc == 0 && ranks_rank() == 0 && format == FORMAT_VTI)
        rc = ranks_file_write_at(file, end, VTK_IMAGE_TAIL, strlen(VTK_IMAGE_TAIL), err,
                                 n);
    for (long y = o->y0; rc == 0 && y < o->y0 + o->ny; y++) {
        size_t at =
            (size_t)(y - part->y0) * (size_t)part->nx + (size_t)(o->x0 - part->x0);
        long long offset =
            (long long)head + ((long long)y * nx + o->x0) * (long long)elem;
        rc = ranks_file_write_at(file, offset, (const char *)part->data + at * elem,
                                 (size_t)o->nx * elem, err, n);
    }
    free(header);
    return rc;
}

/* Where each of this rank's .dat pieces starts: every piece's bytes added in file
 * order (counts: ny x rx, piece (y, bx) at [y rx + bx], every rank's counts). */
static void dat_offsets(const long long *counts, const struct rank_part *rp, long ny,
                        long long *start)
{
    long long at = 0;
    for (long y = ny - 1; y >= 0; y--)
        for (int bx = 0; bx < rp->rx; bx++) {
            if (bx == rp->bx && y >= rp->own.y0 && y < rp->own.y0 + rp->own.ny)
                start[y - rp->own.y0] = at;
            at += counts[(size_t)y * (size_t)rp->rx + (size_t)bx];
        }
}

/* This rank's pieces of the .dat's lines into the file, each at its offset. */
static int write_dat(struct ranks_file *file, const struct field *part,
                     const struct rank_part *rp, long nx, long ny, char *err, size_t n)
{
    const struct lattice_rect *o = &rp->own;
    long x1 = o->x0 + o->nx - 1;
    int last = x1 == nx - 1, rc = 0;
    size_t size = (size_t)o->nx * OUTPUT_DAT_VALUE_MAX + 2;
    long long *counts = calloc((size_t)ny * (size_t)rp->rx, sizeof *counts);
    long long *start = malloc((size_t)o->ny * sizeof *start);
    char *text = malloc(size);
    int failed = !counts || !start || !text;
    if (ranks_first_flagged(failed) >= 0) { /* agreed before the ranks add counts */
        rc = error_set(err, n, "rank %d: out of memory for a .dat", ranks_rank());
        goto out;
    }
    for (long y = o->y0; y < o->y0 + o->ny; y++)
        counts[(size_t)y * (size_t)rp->rx + (size_t)rp->bx] =
            (long long)output_dat_segment(NULL, 0, part, y, o->x0, x1, last);
    ranks_sum(counts, (size_t)ny * (size_t)rp->rx);
    dat_offsets(counts, rp, ny, start);
    for (long y = o->y0; rc == 0 && y < o->y0 + o->ny; y++) {
        size_t bytes = output_dat_segment(text, size, part, y, o->x0, x1, last);
        rc = ranks_file_write_at(file, start[y - o->y0], text, bytes, err, n);
    }
out:
    free(counts), free(start), free(text);
    return rc;
}

/* Every rank's rows into the temporary file `name` (0, or -1 with err set). */
static int write_rows(const char *name, const char *path, const struct field *part,
                      const struct rank_part *rp, long nx, long ny,
                      const struct output_context *c, char *err, size_t n)
{
    struct ranks_file file;
    enum output_format format = output_format_of(path);
    int rc = ranks_file_open(&file, name, err, n);
    if (ranks_agree_status(rc ? EXIT_FAILURE_RUN : EXIT_OK, err, n) != EXIT_OK)
        return -1; /* MPI_File_open is collective: none holds the file */
    rc = format == FORMAT_DAT ? write_dat(&file, part, rp, nx, ny, err, n)
                              : write_fixed(&file, format, part, rp, nx, ny, c, err, n);
    char close_error[256];
    if (ranks_file_close(&file, close_error, sizeof close_error) != 0 && rc == 0)
        rc = error_set(err, n, "%s", close_error);
    return rc;
}

/* A .png: the heat map's cells from every rank's part (png_part.h), then rank 0
 * writes the picture as one process does. */
static int write_png(const char *path, const struct field *part,
                     const struct rank_part *rp, long nx, long ny,
                     const struct output_context *c, char *err, size_t n)
{
    struct heat_map hm = {0};
    struct png_picture *picture = NULL;
    const struct png_options options = output_png_options(c);
    int rc = output_heat_map_start(path, nx, ny, c, &hm, err, n); /* same on all */
    if (rc == 0)
        rc = png_part_picture(part, rp, &hm, &options, &picture, err, n);
    if (rc == 0 && ranks_rank() == 0)
        rc = output_write_picture(path, picture, c, err, n);
    png_picture_free(picture);
    return ranks_agree_status(rc ? EXIT_FAILURE_RUN : EXIT_OK, err, n) == EXIT_OK ? 0
                                                                                  : -1;
}

int part_output_write(const char *path, const struct field *part,
                      const struct rank_part *rp, long nx, long ny,
                      const struct output_context *context, char *err, size_t n)
{
    if (output_format_of(path) == FORMAT_PNG)
        return write_png(path, part, rp, nx, ny, context, err, n);
    struct temp_file t = {.guard = -1};
    int root = ranks_rank() == 0, rc = 0;
    if (root) { /* rank 0 makes the temporary file, whose name every rank opens */
        FILE *f = temp_file_open(path, &t, err, n);
        rc = f ? 0 : -1;
        if (f && fclose(f) != 0) {
            rc = error_set(err, n, "cannot write '%s': a close failed", path);
            temp_file_discard(&t);
        }
    }
    if (ranks_agree_status(rc ? EXIT_FAILURE_RUN : EXIT_OK, err, n) != EXIT_OK)
        return -1;
    ranks_share(0, t.name, sizeof t.name);
    rc = write_rows(t.name, path, part, rp, nx, ny, context, err, n);
    if (rc != 0 && !strstr(err, path)) {
        char why[512];
        snprintf(why, sizeof why, "%s", err);
        error_set(err, n, "writing '%s' failed: %s", path, why);
    }
    int status = ranks_agree_status(rc ? EXIT_FAILURE_RUN : EXIT_OK, err, n);
    if (root && status != EXIT_OK)
        temp_file_discard(&t);
    else if (root && temp_file_commit(&t, path, 1) != 0)
        rc = error_set(err, n, "writing '%s' failed: %s", path, strerror(errno));
    if (status == EXIT_OK)
        status = ranks_agree_status(rc ? EXIT_FAILURE_RUN : EXIT_OK, err, n);
    return status == EXIT_OK ? 0 : -1;
}

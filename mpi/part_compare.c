/*
 * part_compare.c - rank 0's whole field against the ranks' parts, piece by piece
 * (part_compare.h): rank 0 cuts each rank's own rows out of the whole field in
 * blocks and sends them, rank after rank; each rank compares the blocks it gets
 * with its part; the largest difference is then agreed on every rank.
 */
#include "mpi/part_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/rank_part.h"
#include "mpi/ranks.h"
#include "support/error.h"

/* The blocks' tag, apart from the other messages' (2501.. png_part, 2601 part_exact); it
 * may equal an edge's (tile x 4 + side, rank_split.c): no edge is in flight once the
 * solve has ended, when the comparison runs. */
enum { TAG_BLOCK = 2701 };

/* The rows of a block over `own`: as many as PART_COMPARE_BLOCK_BYTES holds, one at
 * least, no more than own has. */
static long block_rows(const struct lattice_rect *own, size_t elem)
{
    size_t row = (size_t)own->nx * elem;
    long rows =
        row < PART_COMPARE_BLOCK_BYTES ? (long)(PART_COMPARE_BLOCK_BYTES / row) : 1;
    return rows < own->ny ? rows : own->ny;
}

static size_t block_bytes(const struct lattice_rect *own, size_t elem)
{
    return (size_t)block_rows(own, elem) * (size_t)own->nx * elem;
}

/* The bytes of the largest block rank 0 cuts: of any rank's own rows. */
static size_t largest_block(const struct partition *p, int rx, int ry, size_t elem)
{
    size_t largest = 0;
    for (int r = 0; r < rx * ry; r++) {
        struct rank_part rp;
        rank_part_make(&rp, p, rx, ry, r);
        size_t bytes = block_bytes(&rp.own, elem);
        largest = bytes > largest ? bytes : largest;
    }
    return largest;
}

/* The block of own's rows from y (rows of them, fewer at own's top) over buf. */
static struct field block_at(const struct lattice_rect *own, long y, long rows,
                             enum precision precision, void *buf)
{
    long top = own->y0 + own->ny;
    return (struct field){.nx = own->nx,
                          .ny = y + rows < top ? rows : top - y,
                          .x0 = own->x0,
                          .y0 = y,
                          .precision = precision,
                          .data = buf};
}

static size_t bytes_of(const struct field *block)
{
    return (size_t)block->nx * (size_t)block->ny * precision_size(block->precision);
}

/* The block's sites copied out of the whole field. */
static void cut_block(const struct field *whole, struct field *block)
{
    size_t elem = precision_size(whole->precision), row = (size_t)block->nx * elem;
    for (long j = 0; j < block->ny; j++) {
        size_t at = (size_t)(block->y0 + j) * (size_t)whole->nx + (size_t)block->x0;
        memcpy((char *)block->data + (size_t)j * row,
               (const char *)whole->data + at * elem, row);
    }
}

/* Rank 0: every rank's own rows cut from the whole field, block by block, one
 * rank after another; its own compared here, the others' sent to their rank. */
static double send_blocks(const struct partition *p, int rx, int ry,
                          const struct field *part, const struct field *whole, void *buf)
{
    size_t elem = precision_size(whole->precision);
    double largest = 0.0;
    for (int r = 0; r < rx * ry; r++) {
        struct rank_part rp;
        rank_part_make(&rp, p, rx, ry, r);
        long rows = block_rows(&rp.own, elem);
        for (long y = rp.own.y0; y < rp.own.y0 + rp.own.ny; y += rows) {
            struct field block = block_at(&rp.own, y, rows, whole->precision, buf);
            cut_block(whole, &block);
            if (r == 0) {
                largest = field_max_difference_from(part, &block, largest);
            } else {
                struct rank_message m = {r, TAG_BLOCK, buf, bytes_of(&block), 0};
                ranks_exchange(&m, 1);
            }
        }
    }
    return largest;
}

/* Another rank: its own rows from rank 0, block by block, each compared with its
 * part as it comes. */
static double receive_blocks(const struct rank_part *rp, const struct field *part,
                             void *buf)
{
    long rows = block_rows(&rp->own, precision_size(part->precision));
    double largest = 0.0;
    for (long y = rp->own.y0; y < rp->own.y0 + rp->own.ny; y += rows) {
        struct field block = block_at(&rp->own, y, rows, part->precision, buf);
        struct rank_message m = {0, TAG_BLOCK, buf, bytes_of(&block), 1};
        ranks_exchange(&m, 1);
        largest = field_max_difference_from(part, &block, largest);
    }
    return largest;
}

int part_compare_max_difference(const struct partition *p, int rx, int ry,
                                const struct field *part, const struct field *whole,
                                double *difference, char *err, size_t n)
{
    if (rx * ry <= 1) { /* one process: its field is the whole */
        *difference = field_max_difference(part, whole);
        return 0;
    }
    struct rank_part rp;
    int me = ranks_rank();
    size_t elem = precision_size(part->precision);
    rank_part_make(&rp, p, rx, ry, me);
    void *buf =
        malloc(me == 0 ? largest_block(p, rx, ry, elem) : block_bytes(&rp.own, elem));
    int short_of_memory = ranks_first_flagged(!buf); /* before anyone sends */
    if (short_of_memory >= 0) {
        free(buf);
        return error_status(EXIT_FAILURE_RUN, err, n,
                            "rank %d: out of host memory for a block of the comparison "
                            "(the fields are compared piece by piece)",
                            short_of_memory);
    }
    double largest = me == 0 ? send_blocks(p, rx, ry, part, whole, buf)
                             : receive_blocks(&rp, part, buf);
    free(buf);
    int any_nan = ranks_first_flagged(isnan(largest)) >= 0; /* MPI_MAX may drop a NaN */
    *difference = any_nan ? NAN : ranks_largest(largest);
    return 0;
}

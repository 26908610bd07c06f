/*
 * part_exact.c - --exact from every rank's part (part_exact.h), in exact.h's order
 * of additions: each row west to east, then the rows bottom to top. The ranks of a
 * row of blocks carry their rows' sums so far east, one after the other, so that a
 * row spanning them is added as one process adds it; a rank waits only for the one
 * west of it, so the chain cannot close:
 *
 *     (0,1) -> (1,1) -> (2,1)      each arrow: one message, the sums of the rows of
 *     (0,0) -> (1,0) -> (2,0)      the block, sent once the rank has added its sites
 *
 * The rank at the east end of each row of blocks then holds its rows' complete
 * sums; every rank gets them all, bit for bit (ranks_merge: every other rank holds
 * 0 there), and adds them bottom to top. The largest error is the largest of the
 * ranks' (exact).
 */
#include "mpi/part_exact.h"

#include <stdlib.h>
#include <string.h>

#include "mpi/ranks.h"
#include "support/error.h"

enum { TAG_ROW_SUMS = 2601 };

/* The sums so far of this block's rows from the rank west of it (receive) or to
 * the rank east of it. */
static void pass_rows(const struct rank_part *rp, double *row_sum, int receive)
{
    const struct lattice_rect *o = &rp->own;
    struct rank_message m = {.peer = ranks_rank() + (receive ? -1 : 1),
                             .tag = TAG_ROW_SUMS,
                             .data = row_sum + o->y0,
                             .bytes = (size_t)o->ny * sizeof *row_sum,
                             .receive = receive};
    ranks_exchange(&m, 1);
}

/* This block's sites added onto its rows' sums from the rank west of it, then handed
 * east (even after a failure: no rank is left waiting); a rank that hands them on
 * keeps 0 there, so that the merge takes the complete sums of the east end alone. */
static int sum_in_chain(const struct problem *p, const char *formula,
                        const struct field *part, const struct rank_part *rp,
                        double *row_sum, double *largest, char *err, size_t n)
{
    const struct lattice_rect *o = &rp->own;
    if (rp->bx > 0)
        pass_rows(rp, row_sum, 1);
    int rc = exact_error_rows(p, formula, part, *o, row_sum, largest, err, n);
    if (rp->bx < rp->rx - 1) {
        pass_rows(rp, row_sum, 0);
        memset(row_sum + o->y0, 0, (size_t)o->ny * sizeof *row_sum);
    }
    return rc;
}

/* 0 when no rank's rc is set, else -1 on every rank with the first one's message. */
static int agree(int rc, char *err, size_t n)
{
    return ranks_agree_status(rc ? EXIT_FAILURE_RUN : EXIT_OK, err, n) == EXIT_OK ? 0
                                                                                  : -1;
}

int part_exact_error(const struct problem *p, const char *formula,
                     const struct field *part, const struct rank_part *rp,
                     struct exact_error *out, char *err, size_t n)
{
    double largest = 0.0, *row_sum = calloc((size_t)p->ny, sizeof *row_sum);
    int rc = row_sum
                 ? 0
                 : error_set(err, n, "rank %d: out of host memory for the exact error",
                             ranks_rank());
    rc = agree(rc, err, n); /* before any rank waits for another */
    if (rc == 0)
        rc = agree(sum_in_chain(p, formula, part, rp, row_sum, &largest, err, n), err, n);
    if (rc == 0) {
        ranks_merge(row_sum, (size_t)p->ny, sizeof *row_sum);
        *out = exact_error_total(p, row_sum, ranks_largest(largest));
    }
    free(row_sum);
    return rc;
}

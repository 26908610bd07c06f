/*
 * block_sums.h - the one fixed order in which a tile's block partial sums are added
 * (block_sums.c on the host; kernels/laplace_block_sums.cuh on the device, which
 * follows it), so that every backend gives the same norm to the last bit.
 */
#ifndef LAPLACE_BLOCK_SUMS_H
#define LAPLACE_BLOCK_SUMS_H

#include "problem/update_rule.h"

/* The lanes of the fixed order in which a tile's block sums are added. */
#define BLOCK_SUM_LANES 1024

/*
 * The sum of n block sums in the one fixed order every backend uses: lane j
 * (0 <= j < 1024) adds sums j, j + 1024, j + 2048, ... in turn; then the lanes
 * are added pairwise, lane j += lane j + h for h = 512, 256, ..., 1. The GPU's
 * reduction kernel follows the same order, so host and device agree bit for bit.
 * For the max norm, "add" is norm_combine's max.
 */
double block_sums_total(const double *sums, long n, enum norm_kind norm);

#endif

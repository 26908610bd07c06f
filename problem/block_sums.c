/*
 * block_sums.c - a tile's block partial sums added in the one fixed order
 * (block_sums.h).
 */
#include "problem/block_sums.h"

double block_sums_total(const double *sums, long n, enum norm_kind norm)
{
    double lane[BLOCK_SUM_LANES] = {0.0};
    for (long b = 0; b < n; b++)
        lane[b % BLOCK_SUM_LANES] =
            norm_combine(norm, lane[b % BLOCK_SUM_LANES], sums[b]);
    for (int half = BLOCK_SUM_LANES / 2; half > 0; half /= 2)
        for (int j = 0; j < half; j++)
            lane[j] = norm_combine(norm, lane[j], lane[j + half]);
    return lane[0];
}

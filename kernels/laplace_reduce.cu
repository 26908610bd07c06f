/*
 * laplace_reduce.cu - the device adds a tile's block sums (--reduce device):
 * one block of BLOCK_SUM_LANES threads, in block_sums_total()'s order (the
 * maximum for the max norm), so the total is the host's to the bit.
 */
#include "kernels/laplace_reduce.h"

#include "kernels/laplace_block_sums.cuh"

/* Adds the block sums in block_sums_total()'s order into *total. */
template <bool MAX>
__global__ void reduce_block_sums(const double *sums, long n, double *total)
{
    __shared__ double lane[BLOCK_SUM_LANES];
    add_in_lanes<MAX>(sums, n, lane);
    if (threadIdx.x == 0)
        *total = lane[0];
}

extern "C" cudaError_t laplace_reduce(const double *block_sums, long n,
                                      enum norm_kind norm, double *total,
                                      cudaStream_t stream)
{
    if (norm == NORM_MAX)
        reduce_block_sums<true><<<1, BLOCK_SUM_LANES, 0, stream>>>(block_sums, n, total);
    else
        reduce_block_sums<false><<<1, BLOCK_SUM_LANES, 0, stream>>>(block_sums, n, total);
    return cudaGetLastError();
}

/*
 * laplace_block_sums.cuh - the partial sums of the kernels, included by their
 * .cu files (laplace_kernels.cu, laplace_reduce.cu): a thread
 * block's total in a fixed tree order (warp shuffles, no atomics), written at
 * the block's place, and the sum of many block sums in block_sums_total()'s
 * order, so that the host and the device add them alike.
 */
#ifndef LAPLACE_BLOCK_SUMS_CUH
#define LAPLACE_BLOCK_SUMS_CUH

#include "problem/block_sums.h"

/* Two partial results of a block or lane: a sum, or (MAX) the larger, NaN winning
 * (norm_combine of update_rule.h). */
template <bool MAX> __device__ __forceinline__ double combine(double a, double b)
{
    if (MAX)
        return (a != a || a > b) ? a : b;
    return a + b;
}

/*
 * The sum of n block sums in block_sums_total()'s order, by all threads of the
 * block: lane j adds sums j, j + 1024, ... in turn, then the 1024 lanes are
 * added pairwise (j += j + h, h = 512 ... 1). Valid in lane[0] on return.
 */
template <bool MAX = false>
__device__ static void add_in_lanes(const double *sums, long n, double *lane)
{
    const int threads = blockDim.x * blockDim.y;
    const int tid = threadIdx.x + threadIdx.y * blockDim.x;
    for (int j = tid; j < BLOCK_SUM_LANES; j += threads) {
        double acc = 0.0;
        for (long b = j; b < n; b += BLOCK_SUM_LANES)
            acc = combine<MAX>(acc,
                               __ldcg(sums + b)); /* from L2: other blocks wrote them */
        lane[j] = acc;
    }
    __syncthreads();
    for (int half = BLOCK_SUM_LANES / 2; half > 0; half >>= 1) {
        for (int j = tid; j < half; j += threads)
            lane[j] = combine<MAX>(lane[j], lane[j + half]);
        __syncthreads();
    }
}

/* Sum (MAX: maximum) of v over the thread block in a fixed tree order, returned
 * to thread 0. */
template <bool MAX = false> __device__ static double block_total(double v)
{
    __shared__ double warp_sums[32];
    const int threads = blockDim.x * blockDim.y;
    const int tid = threadIdx.x + threadIdx.y * blockDim.x;
    const int lane = tid & 31, warp = tid >> 5;
    const int lanes = min(32, threads - warp * 32); /* lanes present in this warp */
    const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
    for (int offset = 16; offset > 0; offset >>= 1) {
        double other = __shfl_down_sync(mask, v, offset);
        if (lane + offset < lanes)
            v = combine<MAX>(v, other);
    }
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const int warps = (threads + 31) / 32;
        v = lane < warps ? warp_sums[lane] : 0.0;
        for (int offset = 16; offset > 0; offset >>= 1) {
            double other = __shfl_down_sync(mask, v, offset);
            if (lane + offset < lanes)
                v = combine<MAX>(v, other);
        }
    }
    __syncthreads(); /* warp_sums may be reused at once by the caller's next block */
    return v;
}

/* Writes the block's sum of v at its place b in block_sums (NULL: no sums). */
__device__ static void write_block_sum(double v, double *block_sums, long b)
{
    if (!block_sums)
        return;
    v = block_total(v);
    if (threadIdx.x == 0 && threadIdx.y == 0)
        block_sums[b] = v;
}

#endif

/*
 * laplace_chip_meeting.cuh - what the blocks of the loop on chip's cluster are given
 * (chip_args), where each block's strip starts, and how the blocks meet at the norm:
 * each warp sends its sum to every block's shared memory, and a warp of every block
 * adds them in one fixed order. Included by laplace_chip.cu and
 * laplace_chip_rounds.cuh.
 */
#ifndef LAPLACE_CHIP_MEETING_CUH
#define LAPLACE_CHIP_MEETING_CUH

#include <cooperative_groups.h>

#include "kernels/laplace_block_sums.cuh" /* combine */
#include "kernels/laplace_chip.h"
#include "kernels/laplace_sites.cuh" /* rule_args */

namespace cg = cooperative_groups;

/* The most blocks of a cluster (16 needs the non-portable size allowed). */
#define CHIP_MOST_BLOCKS 16
/* The most threads a block may have, and so warps. */
#define CHIP_THREADS 1024
#define CHIP_MOST_WARPS (CHIP_THREADS / 32)

/* Everything the loop on chip is given. */
template <typename T> struct chip_args {
    T *field[2]; /* global memory: read at the start, written back at the end */
    long lx, ly;
    long rows; /* the most rows of a strip: the stride between a block's two fields */
    long batch;
    stop_state *state;
    double *norms;
    struct stop_rule stop_rule;
    rule_args<T> r;
    bool sor;
    int threads_x, threads_y; /* chip_rounds' sweeping threads (a flat block) */
    int depth;                /* chip_rounds' halo rows and iterations a round */
};

/* The first lattice row of block b's strip among `blocks`. */
__device__ __forceinline__ long strip_start(long b, long blocks, long ly)
{
    return b * ly / blocks;
}

/* The sum (MAX: maximum) of v over the 32 lanes of a warp in a fixed tree order,
 * in lane 0. */
template <bool MAX> __device__ __forceinline__ double warp_total(double v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v = combine<MAX>(v, __shfl_down_sync(0xffffffffu, v, offset));
    return v;
}

/* Every warp's sum of an iteration, as every block holds them: [block][warp], for up
 * to W warps a block; a loop keeps a few of them, its slots, one for each iteration
 * whose sums are in flight. */
template <int W> using warp_sums = double[CHIP_MOST_BLOCKS][W];
typedef warp_sums<CHIP_MOST_WARPS> chip_sums;

/* Sends the warp's total of v to every block of the cluster, at this block's and
 * warp's place of slot `slot`: lane b stores to block b, so the stores go out
 * together and no thread of the block waits for another. (Measured on an H100,
 * 512^2 float: 3.9 us an iteration; a block total sent by warp 0, with its two
 * block barriers, 4.1; warp 0 reading every block's sums after the barrier, 4.5.) */
template <bool MAX, int W>
__device__ static void send_warp_sum(cg::cluster_group &cluster, double v,
                                     warp_sums<W> *sums, int slot)
{
    v = __shfl_sync(0xffffffffu, warp_total<MAX>(v), 0);
    const int tid = threadIdx.x + threadIdx.y * blockDim.x, lane = tid & 31;
    if ((unsigned)lane < cluster.num_blocks())
        cluster.map_shared_rank(&sums[slot][cluster.block_rank()][tid / 32],
                                (unsigned)lane)[0] = v;
}

/* The iteration's total, by a warp of every block alike from the sums it received
 * before the barrier from the blocks' first `warps` warps: lane w adds warp w's sums
 * of the blocks in block order, then the lanes are added in warp_total's order.
 * Valid in lane 0. */
template <bool MAX, int W>
__device__ static double cluster_total(cg::cluster_group &cluster,
                                       const warp_sums<W> *sums, int slot, int warps)
{
    const int lane = threadIdx.x & 31;
    double t = 0.0;
    if (lane < warps)
        for (unsigned b = 0; b < cluster.num_blocks(); b++)
            t = combine<MAX>(t, sums[slot][b][lane]);
    return warp_total<MAX>(t);
}

#endif

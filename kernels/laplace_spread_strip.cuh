/*
 * laplace_spread_strip.cuh - a spread block's strip, shared by the spread loop's two
 * sweeps (laplace_spread.cu): its fields in shared memory (laplace_spread_fields.cuh)
 * or its columns in registers (laplace_spread_columns.cuh). The loop's sizes, where a
 * strip lies, how an iteration ends (the block's norm sum published for the deciding
 * warps) and how a lap ends.
 */
#ifndef LAPLACE_SPREAD_STRIP_CUH
#define LAPLACE_SPREAD_STRIP_CUH

#include "kernels/laplace_sites.cuh"          /* sweepers_meet */
#include "kernels/laplace_spread_decide.cuh"  /* warp_total */
#include "kernels/laplace_spread_meeting.cuh" /* spread_args, meeting, sum_of */
#include "kernels/laplace_tagged.cuh"         /* put */

/* The most threads a block has: its sweepers and one warp. Measured on an H100, double,
 * 1024^2: 5.8 us an iteration with 512 sweepers, 7.2 with 992 (results/2026-11-26-spread,
 * probe-5), whose limit of 64 registers a thread spilled 264 bytes (512: 96 registers,
 * 28 bytes). */
#define SPREAD_THREADS 544
#define SPREAD_SWEEPERS (SPREAD_THREADS - 32)
/* A strip has at least this many rows, and at least the plan's depth; a block at least
 * about SPREAD_BLOCK_THREADS sweeping threads (a thread a column, rows of threads until
 * there are at least that many). */
#define SPREAD_LEAST_ROWS 2
#define SPREAD_BLOCK_THREADS 512
/* The depth of the rounds the columns kernel is compiled for is SPREAD_DEPTH, the
 * deepest halo (take_columns' registers) SPREAD_MOST_DEPTH (laplace_kernels.h).
 * F = edge_depth(depth) + lag fields (depth, or 1 at depth 0): the deciding warps may
 * decide an iteration up to lag iterations after the sweepers finished it, at most
 * SPREAD_MOST_LAG (laplace_kernels.h): the sum slots hold 2F iterations. */
static_assert(2 * (SPREAD_MOST_DEPTH + SPREAD_MOST_LAG) <= SPREAD_SUM_SLOTS,
              "a block's sum must stay in its slot until every deciding warp read it");
/* What one sweeping thread holds and sees: its block's strip and its place. The block
 * keeps F copies in shared memory, copy f at shared + f * size: with the fields there,
 * a field of depth rows of halo, the strip's rows, depth rows of halo; with the columns
 * in registers, the strip's own rows. */
template <typename T> struct strip {
    T *shared; /* copy f at shared + f * size */
    long size; /* a copy's values */
    long b, y0, rows;
    int tx, ty; /* the thread's column and row among threads_x x threads_y */
};

template <typename T, bool A>
__device__ static strip<T> strip_of(const spread_args<T, A> &a, T *shared, long size)
{
    strip<T> s;
    s.shared = shared;
    s.size = size;
    const long place = blockIdx.x; /* in this GPU's band */
    s.b = a.first + place;
    s.y0 = a.row0 + place * a.tile_rows / a.band;
    s.rows = a.row0 + (place + 1) * a.tile_rows / a.band - s.y0;
    s.tx = threadIdx.x % a.threads_x;
    s.ty = threadIdx.x / a.threads_x;
    return s;
}

/* The field rows the block may update (field row l: the lattice's row y0 - depth + l),
 * [lo, hi): those inside the lattice's edge rows, which the first and last blocks'
 * halos reach past. Both sweeps update within them (rows_of_step, column_loop). */
template <typename T, bool A>
__device__ __forceinline__ void inner_rows(const spread_args<T, A> &a, const strip<T> &s,
                                           int *lo, int *hi)
{
    const int below = (int)s.y0 - a.depth; /* the lattice's row of field row 0 */
    *lo = max(0, 1 - below);
    *hi = min((int)s.rows + 2 * a.depth, (int)a.ly - 1 - below);
}

/* Counts iteration k, the one just swept (since_check: k % check_every, counted);
 * whether it takes the norm (stop_rule_wants_norm). */
template <typename T, bool A>
__device__ __forceinline__ bool takes_norm(const spread_args<T, A> &a, long k,
                                           long *since_check)
{
    *since_check = *since_check + 1 == a.stop_rule.check_every ? 0 : *since_check + 1;
    return *since_check == 0 || k == a.stop_rule.max_iter;
}

/* The warps' sums of an iteration, by its parity: [k % 2][warp]. */
typedef double warp_sums_of[2][32];

/* The end of iteration k, before the block's barrier: each warp's sum of its threads'
 * squares v (0 where k takes no norm) into sums[k % 2]. */
__device__ __forceinline__ void hand_warp_sum(double v, bool norm, warp_sums_of &sums,
                                              long k)
{
    v = norm ? warp_total(v) : 0.0;
    if ((threadIdx.x & 31) == 0)
        sums[k & 1][threadIdx.x / 32] = v;
}

/* After the block's barrier: warp 0 adds the warps' sums of k in warp_total's order
 * and publishes the strip's, tagged k, for the deciding warps of every GPU (lane g
 * into GPU g's meeting). */
template <typename T, bool A>
__device__ __forceinline__ void
publish_block_sum(const spread_args<T, A> &a, const meeting &m, const strip<T> &s,
                  const warp_sums_of &sums, long k, int warps)
{
    if (threadIdx.x < 32) {
        double total = warp_total(threadIdx.x < warps ? sums[k & 1][threadIdx.x] : 0.0);
        if (!A && threadIdx.x == 0)
            put<A>(sum_of(a, m, s.b, k), total, k);
        if (A) /* lane g into GPU g's meeting */
            total = __shfl_sync(0xffffffffu, total, 0);
        if (A && threadIdx.x < a.gpus)
            put<A>(sum_of(a, meeting_at(a, threadIdx.x), s.b, k), total, k);
    }
}

/* The lap's end: the strip's own rows of iteration k, at `own` (rows lx apart), into
 * the tile's field[k % 2] (global memory). */
template <typename T, bool A>
__device__ static void store_rows(const spread_args<T, A> &a, const strip<T> &s, long k,
                                  const T *own, int threads)
{
    const long n = s.rows * a.lx;
    T *global = a.field[k & 1] + (s.y0 - a.row0) * a.lx;
    for (long i = threadIdx.x; i < n; i += threads)
        global[i] = own[i];
}

#endif

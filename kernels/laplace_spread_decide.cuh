/*
 * laplace_spread_decide.cuh - the spread loop's deciding warp, one in every block
 * beside its sweepers (laplace_spread.cu): it takes every block's norm sum of an
 * iteration once its tag says so, adds them in one fixed order, in double, and takes
 * the stop decision (stop_rule.h), the same in every block; and how it tells its
 * block's sweepers, in shared memory.
 */
#ifndef LAPLACE_SPREAD_DECIDE_CUH
#define LAPLACE_SPREAD_DECIDE_CUH

#include "kernels/laplace_spread_meeting.cuh"

/* The sum of v over the 32 lanes of a warp in a fixed tree order, in lane 0. */
__device__ __forceinline__ double warp_total(double v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/* What the deciding warp tells the sweepers of its block, in shared memory; read and
 * written by atomic operations (racecheck follows them as such), the final iteration
 * after the block's last barrier. */
struct decisions {
    unsigned long long decided; /* the last iteration decided (tell, stopped_by) */
    unsigned long long stop_at; /* the iteration the loop stopped at; 0: none */
    long final;                 /* the iteration whose field the lap ends with */
};

/* The deciding warp's lane 0 tells its block: the stop first, then that k is decided
 * (fenced: a thread that sees k decided sees the stop too). */
__device__ __forceinline__ void tell(decisions *d, long k, bool stop)
{
    if (stop)
        atomicExch(&d->stop_at, (unsigned long long)k);
    __threadfence_block();
    atomicExch(&d->decided, (unsigned long long)k);
}

/* Thread 0 of the sweepers waits until k is decided, or a stop before it (after which
 * nothing more is decided); whether the loop stopped at or before k. */
__device__ __forceinline__ bool stopped_by(decisions *d, long k)
{
    while ((long)atomicAdd(&d->decided, 0ull) < k && atomicAdd(&d->stop_at, 0ull) == 0) {
    }
    __threadfence_block();
    const unsigned long long stop = atomicAdd(&d->stop_at, 0ull);
    return stop > 0 && (long)stop <= k;
}

/* Lane l's part of the B sums of k: blocks l, l + 32, ... added in that order, once
 * every one is there (all their loads out at once: one trip to memory). */
template <typename T>
__device__ static double lane_sum(const spread_args<T> &a, const meeting &m, long k,
                                  int lane)
{
    const int per = SPREAD_MOST_BLOCKS / 32;
    word w[SPREAD_MOST_BLOCKS / 32][2];
    bool there;
    do {
        there = true;
#pragma unroll
        for (int i = 0; i < per; i++)
            if (lane + 32 * i < a.blocks)
                for (int h = 0; h < 2; h++)
                    w[i][h] = load_word(sum_of(a, m, lane + 32 * i, k) + h);
#pragma unroll
        for (int i = 0; i < per; i++)
            if (lane + 32 * i < a.blocks)
                there = there && (tag)(w[i][0] >> 32) == tag_of(k) &&
                        (tag)(w[i][1] >> 32) == tag_of(k);
    } while (!there);
    double t = 0.0;
#pragma unroll
    for (int i = 0; i < per; i++)
        if (lane + 32 * i < a.blocks) {
            const unsigned halves[2] = {(unsigned)w[i][0], (unsigned)w[i][1]};
            double v;
            memcpy(&v, halves, sizeof v);
            t += v;
        }
    return t;
}

/*
 * The deciding warp's loop: once every block's sum of k is there, adds them in block
 * order (lane l adds blocks l, l + 32, ..., then the lanes in warp_total's order, in
 * double), takes the stop decision of k (stop_rule.h), the same in every block, and
 * tells the sweepers. Block 0's also keeps the norms and the state.
 */
template <typename T>
__device__ static void decide_loop(const spread_args<T> &a, const meeting &m,
                                   decisions *d, stop_state mine, long batch)
{
    const int lane = threadIdx.x & 31;
    const long start = mine.iteration;
    for (long j = 0; j < batch; j++) {
        const long k = start + j + 1;
        const double t = warp_total(lane_sum(a, m, k, lane));
        int stop = 0;
        if (lane == 0) {
            const bool check = stop_rule_wants_norm(&a.rule, k);
            const double norm = check ? stop_rule_norm(&a.rule, t) : NAN;
            if (check && blockIdx.x == 0)
                a.norms[j] = norm;
            stop = stop_state_step(&a.rule, &mine, k, check, norm);
            tell(d, k, stop);
        }
        if (__shfl_sync(0xffffffffu, stop, 0))
            break;
    }
    if (lane == 0) {
        d->final = mine.iteration;
        if (blockIdx.x == 0)
            *a.state = mine;
    }
}

#endif

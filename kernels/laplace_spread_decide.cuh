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

/* What the deciding warp tells the sweepers of its block, in shared memory: one word,
 * read and written by atomic operations (racecheck follows them as such), so that the
 * stop and its iteration travel together, unfenced; the final iteration after the
 * block's last barrier. */
struct decisions {
    unsigned long long decided; /* the last iteration decided, STOPPED set where the
                                   loop stopped at it (tell, stopped_by) */
    long final;                 /* the iteration whose field the lap ends with */
};
#define STOPPED (1ull << 63)

/* The deciding warp's lane 0 tells its block that k is decided, and whether the loop
 * stopped there (after which nothing more is decided). */
__device__ __forceinline__ void tell(decisions *d, long k, bool stop)
{
    atomicExch(&d->decided, (unsigned long long)k | (stop ? STOPPED : 0ull));
}

/* Thread 0 of the sweepers waits until k is decided, or a stop before it, polling
 * every SPREAD_POLL_NS ns; whether the loop stopped at or before k. Measured on an H100
 * (results/2026-11-27-regs, run-6): polling without a pause, its atomics delay the
 * deciding warp's, which sets the loop's pace (float 384^2 2.25 against 2.06 us an
 * iteration with 32 ns). */
#define SPREAD_POLL_NS 32
__device__ __forceinline__ bool stopped_by(decisions *d, long k)
{
    unsigned long long w = atomicAdd(&d->decided, 0ull);
    while ((long)(w & ~STOPPED) < k && !(w & STOPPED)) {
        __nanosleep(SPREAD_POLL_NS);
        w = atomicAdd(&d->decided, 0ull);
    }
    return (w & STOPPED) && (long)(w & ~STOPPED) <= k;
}

/* Lane l's part of the sums of k of blocks from .. from + SPREAD_MOST_BLOCKS - 1 (of
 * the B): blocks from + l, from + l + 32, ... added to t in that order, once every one
 * is there (all their loads out at once: one trip to memory), or the wait gave up. */
template <typename T, bool A>
__device__ __forceinline__ double lane_part(const spread_args<T, A> &a, const meeting &m,
                                            long k, long from, double t)
{
    const int per = SPREAD_MOST_BLOCKS / 32;
    word w[SPREAD_MOST_BLOCKS / 32][2];
    bool there;
    unsigned tries = 0;
    unsigned long long since = 0;
    do {
        there = true;
#pragma unroll
        for (int i = 0; i < per; i++)
            if (from + 32 * i < a.blocks)
                for (int h = 0; h < 2; h++)
                    w[i][h] = load_word<A>(sum_of(a, m, from + 32 * i, k) + h);
#pragma unroll
        for (int i = 0; i < per; i++)
            if (from + 32 * i < a.blocks)
                there = there && (tag)(w[i][0] >> 32) == tag_of(k) &&
                        (tag)(w[i][1] >> 32) == tag_of(k);
    } while (!there && !gives_up<A>(a.wait, ++tries, &since));
#pragma unroll
    for (int i = 0; i < per; i++)
        if (from + 32 * i < a.blocks) {
            const unsigned halves[2] = {(unsigned)w[i][0], (unsigned)w[i][1]};
            double v;
            memcpy(&v, halves, sizeof v);
            t += v;
        }
    return t;
}

/* Lane l's part of the B sums of k: blocks l, l + 32, ... added in that order,
 * SPREAD_MOST_BLOCKS at a time (the bands of several GPUs may hold more). */
template <typename T, bool A>
__device__ static double lane_sum(const spread_args<T, A> &a, const meeting &m, long k,
                                  int lane)
{
    if (!A || a.blocks <= SPREAD_MOST_BLOCKS) /* a lone GPU's blocks: at most that */
        return lane_part(a, m, k, lane, 0.0);
    double t = 0.0;
    for (long from = lane; from < a.blocks + lane; from += SPREAD_MOST_BLOCKS)
        t = lane_part(a, m, k, from, t);
    return t;
}

/*
 * The deciding warp's loop: once every block's sum of k is there, adds them in block
 * order (lane l adds blocks l, l + 32, ..., then the lanes in warp_total's order, in
 * double), takes the stop decision of k (stop_rule.h), the same in every block, and
 * tells the sweepers. The GPU's first block's also keeps the norms and the state (over
 * several GPUs, each GPU its own copy, the same).
 */
template <typename T, bool A>
__device__ static void decide_loop(const spread_args<T, A> &a, const meeting &m,
                                   decisions *d, stop_state mine, long batch)
{
    const int lane = threadIdx.x & 31;
    const long start = mine.iteration;
    for (long j = 0; j < batch; j++) {
        const long k = start + j + 1;
        const double t = warp_total(lane_sum(a, m, k, lane));
        int stop = 0;
        if (lane == 0) {
            const bool check = stop_rule_wants_norm(&a.stop_rule, k);
            const double norm = check ? stop_rule_norm(&a.stop_rule, t) : NAN;
            stop = stop_state_step(&a.stop_rule, &mine, k, check, norm);
            tell(d, k, stop);
            if (check && blockIdx.x == 0) /* after telling: the sweepers wait for that */
                a.norms[j] = norm;
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

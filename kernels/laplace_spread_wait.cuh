/*
 * laplace_spread_wait.cuh - how long the spread loop's waits for tagged words
 * (laplace_tagged.cuh) may last: a lone GPU's always end, a band's of a loop over
 * several GPUs give up once the host says a tile failed, or after SPREAD_WAIT_MOST_S.
 */
#ifndef LAPLACE_SPREAD_WAIT_CUH
#define LAPLACE_SPREAD_WAIT_CUH

#include "kernels/laplace_spread.h" /* SPREAD_WAIT_MOST_S */

/* How long a wait for tagged words may last, where words come from other GPUs: the
 * host's stop word and, beside it, the word that says a wait timed out (mapped
 * memory: stop[0], stop[1]; NULL: a lone GPU, whose waits always end). The stop word
 * is looked at every 1024 tries (it lies across PCIe); a wait that gives up notes it
 * in the block's gave_up (shared memory), which every later wait of the block looks
 * at first. A wait given up ends at once with whatever it holds: the lap runs out
 * without meeting anyone, and the host, which raised the stop for a failure,
 * discards it. */
struct patience {
    volatile int *stop;
};
__shared__ int gave_up; /* the block gave up waiting (set to 0 at a lap's start) */

__device__ __forceinline__ unsigned long long globaltimer_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Whether a wait at its try `tries` (from 1) gives up; *since: 0, or when it first
 * looked at the stop word. Only waits for other GPUs' words (SYSTEM) give up. */
template <bool SYSTEM>
__device__ __forceinline__ bool gives_up(const patience &p, unsigned tries,
                                         unsigned long long *since)
{
    if (!SYSTEM || !p.stop)
        return false;
    if (*(volatile int *)&gave_up)
        return true;
    if (tries % 1024 != 0)
        return false;
    if (p.stop[0] == 0) { /* a failure elsewhere comes first: the host names it */
        const unsigned long long now = globaltimer_ns();
        if (*since == 0)
            *since = now;
        if (now - *since <= SPREAD_WAIT_MOST_S * 1000000000ull)
            return false;
        p.stop[1] = 1; /* timed out */
        p.stop[0] = 1;
    }
    *(volatile int *)&gave_up = 1;
    return true;
}

#endif

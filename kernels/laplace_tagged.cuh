/*
 * laplace_tagged.cuh - values that travel between thread blocks (or GPUs) through
 * global memory with the iteration that wrote them, included by laplace_spread.cu.
 *
 * A tagged word: 32 bits of a value and 32 bits of the iteration that wrote it
 * (tag_of), stored and loaded whole (8 bytes, one access, so the two never tear). A
 * reader waits until the tag says the iteration it needs, so it needs no flag, nor a
 * fence between a value and its flag. A float takes one word, a double two. Words
 * that travel between GPUs (peer memory over NVLink) are stored and loaded at the
 * scope of the system, the others at the GPU's.
 */
#ifndef LAPLACE_TAGGED_CUH
#define LAPLACE_TAGGED_CUH

#include <cuda/atomic>

#include "kernels/laplace_spread_wait.cuh" /* patience, gives_up */

typedef unsigned long long word;
typedef unsigned int tag;

__device__ __forceinline__ tag tag_of(long k)
{
    return (tag)(k + 1); /* 0, the tag of memory not yet written, only after 2^32 - 1 */
}

template <typename T> struct words_of {
    static const int count = (int)(sizeof(T) / 4);
};

/* A word's store and load at the scope of the GPU, or (SYSTEM) of the system. */
template <bool SYSTEM> __device__ __forceinline__ void store_word(word *w, word v)
{
    constexpr cuda::thread_scope scope =
        SYSTEM ? cuda::thread_scope_system : cuda::thread_scope_device;
    cuda::atomic_ref<word, scope>(*w).store(v, cuda::memory_order_relaxed);
}

template <bool SYSTEM> __device__ __forceinline__ word load_word(word *w)
{
    constexpr cuda::thread_scope scope =
        SYSTEM ? cuda::thread_scope_system : cuda::thread_scope_device;
    return cuda::atomic_ref<word, scope>(*w).load(cuda::memory_order_relaxed);
}

/* Stores v tagged with iteration k into w[0 .. words_of<T> - 1], at the scope of the
 * system (SYSTEM: another GPU reads it) or of the GPU. */
template <bool SYSTEM, typename T>
__device__ __forceinline__ void put(word *w, T v, long k)
{
    unsigned halves[words_of<T>::count];
    memcpy(halves, &v, sizeof v);
#pragma unroll
    for (int i = 0; i < words_of<T>::count; i++)
        store_word<SYSTEM>(w + i, ((word)tag_of(k) << 32) | halves[i]);
}

/* The values tagged with iteration k at p + r stride and q + r stride for r < count
 * (count <= N; p or q may be NULL: none), once all are there (or the wait gave up):
 * every word's load goes out before any tag is looked at, so they wait for one trip to
 * memory, not one a value. */
template <int N, bool SYSTEM, typename T>
__device__ __forceinline__ void take_columns(word *p, word *q, long stride, int count,
                                             long k, T *vp, T *vq, const patience &wait)
{
    const int n = words_of<T>::count;
    const word ready = (word)tag_of(k) << 32;
    word wp[N][words_of<T>::count], wq[N][words_of<T>::count];
    bool there;
    unsigned tries = 0;
    unsigned long long since = 0;
    do {
        there = true;
#pragma unroll
        for (int r = 0; r < N; r++)
#pragma unroll
            for (int i = 0; i < n; i++) {
                wp[r][i] = p && r < count ? load_word<SYSTEM>(p + r * stride + i) : ready;
                wq[r][i] = q && r < count ? load_word<SYSTEM>(q + r * stride + i) : ready;
            }
#pragma unroll
        for (int r = 0; r < N; r++)
#pragma unroll
            for (int i = 0; i < n; i++)
                there = there && (tag)(wp[r][i] >> 32) == tag_of(k) &&
                        (tag)(wq[r][i] >> 32) == tag_of(k);
    } while (!there && !gives_up<SYSTEM>(wait, ++tries, &since));
#pragma unroll
    for (int r = 0; r < N; r++) {
        unsigned hp[words_of<T>::count], hq[words_of<T>::count];
#pragma unroll
        for (int i = 0; i < n; i++) {
            hp[i] = (unsigned)wp[r][i];
            hq[i] = (unsigned)wq[r][i];
        }
        memcpy(vp + r, hp, sizeof *vp);
        memcpy(vq + r, hq, sizeof *vq);
    }
}

#endif

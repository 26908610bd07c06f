/*
 * sweep_floor.cu - what a spread block's own iteration costs at the course problem's
 * size, with no other block: 132 blocks of 512 sweeping threads, each block a strip of
 * 4 rows of 512 floats with 2 halo rows on each side (8 field rows), in rounds of 2
 * steps as the spread loop sweeps them (step 1 field rows 1-6, step 2 rows 2-5; the
 * squares of rows 2-5 added in double), every step ending at the block's meeting (warp
 * sums, a barrier, warp 0's total). No halo travels and nothing is decided: this is the
 * floor under the spread loop's 2.17 us an iteration (results/2026-11-27-shapes).
 *   meet     the meeting alone (floors.cu's `block`)
 *   shared   the fields in shared memory, each thread walking its column 3 rows at a
 *            time, three loads a site (walk_column, as the loop does now)
 *   regs     each thread's column of 8 field rows in registers: west and east by warp
 *            shuffles, the warps' edge columns through shared memory (written before
 *            the barrier that ends a step, which so hands them over: one barrier a
 *            step, as in `shared`); no field in shared memory
 * each with and without the norm's squares (-nonorm). The fields' values are not
 * checked against anything: the arithmetic is the loop's, the order of the squares is
 * too, but this is a timing probe.
 * Built by hand for sm_90: nvcc -O3 -std=c++17 -arch=sm_90 -fmad=false sweep_floor.cu
 * -o sweep_floor; every call checked. One line a variant: us an iteration, the median
 * of 5 timed launches after a warm-up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t rc_ = (call);                                                        \
        if (rc_ != cudaSuccess) {                                                        \
            fprintf(stderr, "sweep_floor: %s: %s\n", #call, cudaGetErrorString(rc_));    \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

#define LX 512       /* the lattice's width */
#define ROWS 8       /* field rows: 2 halo, 4 own, 2 halo */
#define FIELDS 4     /* the spread loop's fields at depth 2, lag 2 */
#define SWEEPERS 512 /* a thread a column (columns 1 .. 510 are swept) */

__device__ __forceinline__ double warp_total(double v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__device__ __forceinline__ void meet()
{
    __syncwarp();
    asm volatile("barrier.sync 1, %0;" ::"r"(SWEEPERS) : "memory");
}

__device__ __forceinline__ float jacobi(float s, float w, float e, float n)
{
    return 0.25f * (((s + w) + e) + n);
}

__device__ __forceinline__ double square_of(float d)
{
    return (double)(d * d);
}

/* The step's end: the warps' sums, the barrier, warp 0's total (kept in acc). */
__device__ __forceinline__ void block_meeting(double v, double (*sums)[16], long k,
                                              double *acc)
{
    v = warp_total(v);
    if ((threadIdx.x & 31) == 0)
        sums[k & 1][threadIdx.x / 32] = v;
    meet();
    if (threadIdx.x < 32)
        *acc += warp_total(threadIdx.x < 16 ? sums[k & 1][threadIdx.x] : 0.0);
}

__global__ void __launch_bounds__(544, 1) meet_loop(long n, double *out)
{
    __shared__ double sums[2][16];
    double acc = 0.0;
    if (threadIdx.x >= SWEEPERS)
        return;
    for (long k = 0; k < n; k++)
        block_meeting(threadIdx.x * 1e-3 + k, sums, k, &acc);
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

/* shared: walk column x of field rows lo .. hi - 1, 3 rows at a time. */
template <bool NORM>
__device__ __forceinline__ double walk(const float *in, float *out, int x, int lo, int hi)
{
    int i = lo * LX + x;
    float south = in[i - LX], here = in[i];
    double acc = 0.0;
#pragma unroll 3
    for (int y = lo; y < hi; y++, i += LX) {
        const float north = in[i + LX];
        const float v = jacobi(south, in[i - 1], in[i + 1], north);
        out[i] = v;
        if (NORM && y >= 2 && y < 6)
            acc += square_of(v - here);
        south = here;
        here = north;
    }
    return acc;
}

template <bool NORM> __global__ void __launch_bounds__(544, 1) shared_loop(long n, double *out)
{
    extern __shared__ float fields[]; /* FIELDS x ROWS x LX */
    __shared__ double sums[2][16];
    double acc = 0.0;
    if (threadIdx.x >= SWEEPERS)
        return;
    for (int i = threadIdx.x; i < FIELDS * ROWS * LX; i += SWEEPERS)
        fields[i] = (float)((i * 7919) % 1000) * 1e-3f;
    meet();
    const int x = 1 + threadIdx.x;
    int f = 0;
    for (long k = 0; k < n; k++) {
        const int step = (int)(k & 1); /* 0: rows 1-6, 1: rows 2-5 */
        const float *in = fields + f * ROWS * LX;
        f = f + 1 == FIELDS ? 0 : f + 1;
        float *o = fields + f * ROWS * LX;
        double v = 0.0;
        if (x < LX - 1)
            v = step == 0 ? walk<NORM>(in, o, x, 1, 7) : walk<NORM>(in, o, x, 2, 6);
        block_meeting(v, sums, k, &acc);
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

/* regs: field rows LO .. HI - 1 of this thread's column c (registers) from its
 * neighbours' (shuffles; the warp's edge lanes from the edges the neighbour warps
 * wrote), into next. */
template <bool NORM, int LO, int HI>
__device__ __forceinline__ double regs_step(const float (&c)[ROWS], float (&next)[ROWS],
                                            const float (*edges)[2][ROWS], int lane,
                                            int warp)
{
    double acc = 0.0;
#pragma unroll
    for (int y = LO; y < HI; y++) {
        float w = __shfl_up_sync(0xffffffffu, c[y], 1);
        float e = __shfl_down_sync(0xffffffffu, c[y], 1);
        if (lane == 0)
            w = edges[warp][0][y]; /* the column left of the warp */
        if (lane == 31)
            e = edges[warp][1][y]; /* the column right of it */
        next[y] = jacobi(c[y - 1], w, e, c[y + 1]);
        if (NORM && y >= 2 && y < 6)
            acc += square_of(next[y] - c[y]);
    }
    return acc;
}

/* This thread's column into the edges the neighbour warps read in the next step. */
__device__ __forceinline__ void hand_edges(const float (&c)[ROWS],
                                           float (*edges)[2][ROWS], int lane, int warp)
{
#pragma unroll
    for (int y = 0; y < ROWS; y++) {
        if (lane == 31 && warp + 1 < 16)
            edges[warp + 1][0][y] = c[y];
        if (lane == 0 && warp > 0)
            edges[warp - 1][1][y] = c[y];
    }
}

template <bool NORM> __global__ void __launch_bounds__(544, 1) regs_loop(long n, double *out)
{
    /* [parity][warp][side][row]: the columns beside warp w (side 0: its left, 1: its
     * right); step k reads parity k % 2, written at the end of step k - 1 before the
     * barrier that ends it (one barrier a step, as in `shared`) */
    __shared__ float edges[2][16][2][ROWS];
    __shared__ double sums[2][16];
    double acc = 0.0;
    if (threadIdx.x >= SWEEPERS)
        return;
    const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    for (int i = threadIdx.x; i < 2 * 16 * 2 * ROWS; i += SWEEPERS)
        (&edges[0][0][0][0])[i] = 0.0f;
    float c[ROWS], next[ROWS];
#pragma unroll
    for (int y = 0; y < ROWS; y++)
        c[y] = next[y] = (float)(((threadIdx.x + y * LX) * 7919) % 1000) * 1e-3f;
    meet();
    hand_edges(c, edges[0], lane, warp);
    meet();
    for (long k = 0; k < n; k++) {
        const int p = (int)(k & 1);
        const double v = p == 0 ? regs_step<NORM, 1, 7>(c, next, edges[p], lane, warp)
                                : regs_step<NORM, 2, 6>(c, next, edges[p], lane, warp);
#pragma unroll
        for (int y = 1; y < ROWS - 1; y++)
            c[y] = next[y];
        hand_edges(c, edges[p ^ 1], lane, warp);
        block_meeting(v, sums, k, &acc);
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc + c[3];
}

static double *out;

static void launch(const char *what, long n, cudaStream_t s)
{
    const size_t shared = (size_t)FIELDS * ROWS * LX * sizeof(float);
    if (!strcmp(what, "meet"))
        meet_loop<<<132, 544, 0, s>>>(n, out);
    else if (!strcmp(what, "shared"))
        shared_loop<true><<<132, 544, shared, s>>>(n, out);
    else if (!strcmp(what, "shared-nonorm"))
        shared_loop<false><<<132, 544, shared, s>>>(n, out);
    else if (!strcmp(what, "regs"))
        regs_loop<true><<<132, 544, 0, s>>>(n, out);
    else
        regs_loop<false><<<132, 544, 0, s>>>(n, out);
    CHECK(cudaGetLastError());
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void measure(const char *what)
{
    const long n = 100000;
    cudaStream_t s;
    cudaEvent_t start, stop;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    launch(what, 1000, s);
    CHECK(cudaStreamSynchronize(s));
    double us[5];
    for (int r = 0; r < 5; r++) {
        CHECK(cudaEventRecord(start, s));
        launch(what, n, s);
        CHECK(cudaEventRecord(stop, s));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        us[r] = 1e3 * ms / n;
    }
    qsort(us, 5, sizeof us[0], by_value);
    printf("%-14s %.3f us an iteration (min %.3f max %.3f)\n", what, us[2], us[0], us[4]);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaStreamDestroy(s));
}

int main(void)
{
    CHECK(cudaMalloc(&out, 1024 * sizeof(double)));
    CHECK(cudaFuncSetAttribute(shared_loop<true>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                               FIELDS * ROWS * LX * (int)sizeof(float)));
    CHECK(cudaFuncSetAttribute(shared_loop<false>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                               FIELDS * ROWS * LX * (int)sizeof(float)));
    for (const char *what : {"meet", "shared", "shared-nonorm", "regs", "regs-nonorm"})
        measure(what);
    CHECK(cudaFree(out));
    return 0;
}

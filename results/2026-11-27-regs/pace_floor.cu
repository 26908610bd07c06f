/*
 * pace_floor.cu - the probe of sweep_floor.cu (results/2026-11-27-shapes) moved toward
 * the program one difference at a time, to find why its registers sweep takes 1.49 us
 * an iteration inside the spread loop's mechanism while the program's columns kernel
 * (columns.patch) took 2.3-2.6 (results/2026-11-27-regs). Built here, not yet run.
 *   halo          the probe's mechanism around the registers sweep (as sweep_floor)
 *   shared-halo   the same around the fields in shared memory (the program's loop)
 *   +stop         the deciding warp's lane 0 takes the program's stop decision
 *                 (problem/stop_rule.h: stop_rule_wants_norm, stop_rule_norm,
 *                 stop_state_step; block 0 stores each norm), tells its block as the
 *                 program does (the stop word, a fence, the decided word), and thread 0
 *                 polls both words, as stopped_by does
 *   +rt           the registers sweep with the program's run-time parts: each step's
 *                 rows and the own rows as kernel arguments (rows outside a step's
 *                 range not shuffled, as colB), the ring's copy counted at run time
 * The decision never stops the loop (eps 0, max_iter past the end). One line a variant:
 * us an iteration, the median of 5 timed launches after a warm-up. Run it under
 * `timeout`. Build: nvcc -O3 -std=c++17 -arch=sm_90 -fmad=false pace_floor.cu
 * -o pace_floor (from this folder: it includes ../../problem/stop_rule.h).
 */
#include <cuda/atomic>
#include <math.h>

#include "../../problem/stop_rule.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long word;

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t rc_ = (call);                                                        \
        if (rc_ != cudaSuccess) {                                                        \
            fprintf(stderr, "pace_floor: %s: %s\n", #call, cudaGetErrorString(rc_));    \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

#define LX 512       /* the lattice's width */
#define ROWS 8       /* field rows: 2 halo, 4 own, 2 halo */
#define FIELDS 4     /* the spread loop's fields at depth 2, lag 2 */
#define SWEEPERS 512 /* a thread a column (columns 1 .. 510 are swept) */

/* A value and the iteration that wrote it in one 8-byte word (the spread loop's tagged
 * words, laplace_tagged.cuh): the tag k + 1 above, the value's bits below. */
__device__ __forceinline__ void put(word *w, float v, long k)
{
    const word bits = ((word)(k + 1) << 32) | __float_as_uint(v);
    cuda::atomic_ref<word, cuda::thread_scope_device>(*w).store(bits,
                                                                cuda::memory_order_relaxed);
}

__device__ __forceinline__ word load_word(word *w)
{
    return cuda::atomic_ref<word, cuda::thread_scope_device>(*w).load(
        cuda::memory_order_relaxed);
}

/* The N words at w[i] (NULL: none, its value 0) once every tag says k: all N loads go
 * out at once, one trip to memory a try. */
template <int N, int SLEEP = 0>
__device__ __forceinline__ void take(word *const (&w)[N], long k, float (&v)[N])
{
    word bits[N];
    bool there;
    for (int tries = 0;; tries++) {
        if (SLEEP && tries > 0)
            __nanosleep(SLEEP);
        there = true;
#pragma unroll
        for (int i = 0; i < N; i++) {
            bits[i] = w[i] ? load_word(w[i]) : (word)(k + 1) << 32;
            there = there && (bits[i] >> 32) == (word)(k + 1);
        }
        if (there)
            break;
    }
#pragma unroll
    for (int i = 0; i < N; i++)
        v[i] = __uint_as_float((unsigned)bits[i]);
}

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

/*
 * halo: the regs sweep inside the whole mechanism of the spread loop at depth 2: rounds
 * of 2 steps; at a round's start each thread takes its column's 2 halo rows below and
 * above from the edge rows the neighbour blocks published (tagged words, L2) while
 * thread 0 waits for its deciding warp to have decided k - 2 (four fields' worth of
 * lag); after each step warp 0 publishes the block's sum of the iteration, tagged; after
 * the round each thread publishes its column's first and last 2 own rows. The deciding
 * warp (threads 512-543) takes every block's sum of each iteration once its tag says so
 * and adds them in block order. Nothing stops: the blocks run n iterations. Cooperative
 * launch, so every block is resident.
 */
#define SUM_SLOTS 16

struct halo_meeting {
    word *sums;  /* [SUM_SLOTS][blocks][2]: a double as two tagged words */
    word *edges; /* [2 rounds][blocks][2 sides][2 rows][LX] */
};

__device__ __forceinline__ word *edge_of(const halo_meeting &m, int round, int b, int side,
                                         int row, int x)
{
    return m.edges + ((((long)(round & 1) * gridDim.x + b) * 2 + side) * 2 + row) * LX + x;
}

/* The program's stop decision for iteration k with total t, in lane 0 (STOP). */
struct decider_state {
    stop_rule rule;
    stop_state mine;
    double *norms;
};

template <bool STOP>
__device__ static void deciding_warp(const halo_meeting &m, long n,
                                     unsigned long long *decided,
                                     unsigned long long *stop_at, decider_state ds)
{
    const int lane = threadIdx.x & 31, blocks = (int)gridDim.x;
    for (long k = 1; k <= n; k++) {
        word *w[10]; /* lane l's blocks l, l + 32, ..., two words each (up to 160) */
        float v[10];
#pragma unroll
        for (int i = 0; i < 5; i++) {
            const int b = lane + 32 * i;
            word *slot = m.sums + ((k % SUM_SLOTS) * blocks + b) * 2;
            w[2 * i] = b < blocks ? slot : NULL;
            w[2 * i + 1] = b < blocks ? slot + 1 : NULL;
        }
        take<10>(w, k, v);
        double t = 0.0;
#pragma unroll
        for (int i = 0; i < 5; i++)
            t += __hiloint2double((int)__float_as_uint(v[2 * i + 1]),
                                  (int)__float_as_uint(v[2 * i]));
        t = warp_total(t);
        if (lane == 0 && !STOP)
            atomicExch(decided, (unsigned long long)k);
        if (lane == 0 && STOP) {
            const bool check = stop_rule_wants_norm(&ds.rule, k);
            const double norm = check ? stop_rule_norm(&ds.rule, t) : NAN;
            if (check && blockIdx.x == 0)
                ds.norms[k & 1023] = norm;
            const int stop = stop_state_step(&ds.rule, &ds.mine, k, check, norm);
            if (stop && k > n) /* never: the rule was made not to stop */
                atomicExch(stop_at, (unsigned long long)k);
            __threadfence_block();
            atomicExch(decided, (unsigned long long)k);
        }
    }
}

/* The run-time parts of +rt: each step's rows and the own rows, the ring's copies. */
struct run_time {
    int lo[2], hi[2], own_lo, own_hi, copies;
};

/* regs_step with the rows known at run time (the program's columns kernel, colB). */
__device__ __forceinline__ double regs_step_rt(float (&c)[ROWS],
                                               const float (*edges)[2][ROWS], int lane,
                                               int warp, bool inside, int lo, int hi,
                                               int own_lo, int own_hi)
{
    double acc = 0.0;
    float south = c[0];
#pragma unroll
    for (int y = 1; y < ROWS - 1; y++) {
        const float here = c[y];
        if (y >= lo && y < hi) { /* the same in the whole block */
            float w = __shfl_up_sync(0xffffffffu, here, 1);
            float e = __shfl_down_sync(0xffffffffu, here, 1);
            if (lane == 0)
                w = edges[warp][0][y];
            if (lane == 31)
                e = edges[warp][1][y];
            if (inside) {
                c[y] = jacobi(south, w, e, c[y + 1]);
                if (y >= own_lo && y < own_hi)
                    acc += square_of(c[y] - here);
            }
        }
        south = here;
    }
    return acc;
}

/* REGS: each column in its thread's registers (regs); else the fields in shared memory,
 * walked as the loop walks them (shared), its four fields being what a stop keeps. */
template <bool REGS, bool STOP, bool RT>
__global__ void __launch_bounds__(544, 1) halo_loop(long n, halo_meeting m, double *out,
                                                    decider_state ds, run_time rt)
{
    extern __shared__ float fields[]; /* !REGS: FIELDS x ROWS x LX */
    __shared__ float edges[2][16][2][ROWS];
    __shared__ double sums[2][16];
    __shared__ unsigned long long decided, stop_at;
    __shared__ float ring[REGS ? 4 : 1][4][LX]; /* REGS: own rows of k .. k - 3, a stop's */
    const int b = blockIdx.x, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    const int x = threadIdx.x;
    if (threadIdx.x == 0)
        decided = stop_at = 0;
    __syncthreads();
    if (threadIdx.x >= SWEEPERS) {
        deciding_warp<STOP>(m, n, &decided, &stop_at, ds);
        return;
    }
    for (int i = threadIdx.x; i < 2 * 16 * 2 * ROWS; i += SWEEPERS)
        (&edges[0][0][0][0])[i] = 0.0f;
    float c[ROWS], next[ROWS];
    int f = 0;    /* !REGS: the field of iteration k */
    int copy = 0; /* REGS && RT: the ring's copy of iteration k */
#pragma unroll
    for (int y = 0; y < ROWS; y++) {
        c[y] = next[y] = (float)(((x + (y + 4 * b) * LX) * 7919) % 1000) * 1e-3f;
        if (!REGS)
            for (int g = 0; g < FIELDS; g++)
                fields[(g * ROWS + y) * LX + x] = c[y];
    }
    for (int r = 0; r < 2; r++) { /* the lap's start: rows of iteration 0 */
        put(edge_of(m, 0, b, 0, r, x), c[2 + r], 0);
        put(edge_of(m, 0, b, 1, r, x), c[4 + r], 0);
    }
    double acc = 0.0;
    const bool inside = x > 0 && x < LX - 1;
    for (long k = 0; k < n; k += 2) {
        const int round = (int)(k / 2);
        { /* rows 0, 1: the block below's last own rows; 6, 7: the first of the one above */
            const bool below = b > 0, above = b + 1 < (int)gridDim.x;
            word *const w[4] = {below ? edge_of(m, round, b - 1, 1, 0, x) : NULL,
                                below ? edge_of(m, round, b - 1, 1, 1, x) : NULL,
                                above ? edge_of(m, round, b + 1, 0, 0, x) : NULL,
                                above ? edge_of(m, round, b + 1, 0, 1, x) : NULL};
            float v[4];
            take<4>(w, k, v);
            const int rows[4] = {0, 1, 6, 7};
            for (int i = 0; i < 4; i++)
                if (i < 2 ? below : above) {
                    if (REGS)
                        c[rows[i]] = v[i];
                    else
                        fields[(f * ROWS + rows[i]) * LX + x] = v[i];
                }
        }
        if (threadIdx.x == 0)
            while ((long)atomicAdd(&decided, 0ull) < k - 2 &&
                   (!STOP || atomicAdd(&stop_at, 0ull) == 0)) {
            }
        if (REGS)
            hand_edges(c, edges[0], lane, warp);
        meet(); /* the round's: halos in every column, the edges handed over */
        for (int step = 0; step < 2; step++) {
            double v = 0.0;
            if (REGS && RT) {
                v = regs_step_rt(c, edges[step], lane, warp, inside, rt.lo[step],
                                 rt.hi[step], rt.own_lo, rt.own_hi);
                copy = copy + 1 == rt.copies ? 0 : copy + 1;
#pragma unroll
                for (int y = 0; y < ROWS; y++) /* kept for a stop */
                    if (inside && y >= rt.own_lo && y < rt.own_hi)
                        ring[copy][y - rt.own_lo][x] = c[y];
                if (step == 0)
                    hand_edges(c, edges[1], lane, warp);
            } else if (REGS) {
                v = step == 0 ? regs_step<true, 1, 7>(c, next, edges[step], lane, warp)
                              : regs_step<true, 2, 6>(c, next, edges[step], lane, warp);
#pragma unroll
                for (int y = 1; y < ROWS - 1; y++)
                    if (inside)
                        c[y] = next[y];
#pragma unroll
                for (int y = 2; y < 6; y++) /* kept for a stop, as the loop's fields are */
                    ring[(k + step + 1) & 3][y - 2][x] = c[y];
                if (step == 0)
                    hand_edges(c, edges[1], lane, warp);
            } else {
                const float *in = fields + f * ROWS * LX;
                f = f + 1 == FIELDS ? 0 : f + 1;
                float *o = fields + f * ROWS * LX;
                if (inside)
                    v = step == 0 ? walk<true>(in, o, x, 1, 7) : walk<true>(in, o, x, 2, 6);
            }
            if (!inside)
                v = 0.0;
            v = warp_total(v);
            if (lane == 0)
                sums[(k + step) & 1][warp] = v;
            meet();
            if (threadIdx.x < 32) {
                const double t =
                    warp_total(threadIdx.x < 16 ? sums[(k + step) & 1][lane] : 0.0);
                acc += t;
                if (threadIdx.x == 0) {
                    word *slot =
                        m.sums + (((k + step + 1) % SUM_SLOTS) * gridDim.x + b) * 2;
                    put(slot, __int_as_float(__double2loint(t)), k + step + 1);
                    put(slot + 1, __int_as_float(__double2hiint(t)), k + step + 1);
                }
            }
        }
        for (int r = 0; r < 2; r++) { /* the round's end: rows of iteration k + 2 */
            const float *own = fields + (f * ROWS + 2) * LX + x;
            put(edge_of(m, round + 1, b, 0, r, x), REGS ? c[2 + r] : own[r * LX], k + 2);
            put(edge_of(m, round + 1, b, 1, r, x), REGS ? c[4 + r] : own[(2 + r) * LX],
                k + 2);
        }
    }
    if (threadIdx.x == 0)
        out[b] = acc + c[3] + (REGS ? ring[n & 3][1][x] : fields[f * ROWS * LX + 3 * LX]);
}

static double *out, *norms;
static halo_meeting meeting;

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
    else if (!strncmp(what, "halo", 4) || !strncmp(what, "shared-halo", 11)) {
        const bool regs = !strncmp(what, "halo", 4);
        const bool stop = strstr(what, "+stop") != NULL, rt = strstr(what, "+rt") != NULL;
        CHECK(cudaMemsetAsync(meeting.sums, 0, SUM_SLOTS * 132 * 2 * sizeof(word), s));
        CHECK(cudaMemsetAsync(meeting.edges, 0, 2 * 132 * 2 * 2 * LX * sizeof(word), s));
        decider_state ds = {};
        ds.rule.eps = 0.0; /* never converges */
        ds.rule.max_iter = n + 10;
        ds.rule.check_every = 1;
        ds.rule.norm_scale = 1.0;
        ds.mine.first_norm = NAN;
        ds.norms = norms;
        run_time times = {{1, 2}, {7, 6}, 2, 6, FIELDS};
        void *args[] = {&n, &meeting, &out, &ds, &times};
        const void *kernel = NULL;
#define PICK(R, S, T)                                                                    \
    if (regs == R && stop == S && rt == T)                                               \
        kernel = (const void *)halo_loop<R, S, T>;
        PICK(true, false, false) PICK(true, true, false) PICK(true, false, true)
        PICK(true, true, true) PICK(false, false, false) PICK(false, true, false)
        if (!kernel) {
            fprintf(stderr, "pace_floor: no variant %s\n", what);
            exit(1);
        }
        CHECK(cudaLaunchCooperativeKernel(kernel, dim3(132), dim3(544), args,
                                          regs ? 0 : shared, s));
    }
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
    printf("%-17s %.3f us an iteration (min %.3f max %.3f)\n", what, us[2], us[0], us[4]);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaStreamDestroy(s));
}

int main(void)
{
    CHECK(cudaMalloc(&out, 1024 * sizeof(double)));
    CHECK(cudaMalloc(&meeting.sums, SUM_SLOTS * 132 * 2 * sizeof(word)));
    CHECK(cudaMalloc(&meeting.edges, 2 * 132 * 2 * 2 * LX * sizeof(word)));
    CHECK(cudaFuncSetAttribute(shared_loop<true>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                               FIELDS * ROWS * LX * (int)sizeof(float)));
    CHECK(cudaFuncSetAttribute(shared_loop<false>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                               FIELDS * ROWS * LX * (int)sizeof(float)));
    CHECK(cudaMalloc(&norms, 1024 * sizeof(double)));
    for (const void *k : {(const void *)halo_loop<false, false, false>,
                          (const void *)halo_loop<false, true, false>})
        CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   FIELDS * ROWS * LX * (int)sizeof(float)));
    for (const char *what : {"halo", "halo+stop", "halo+rt", "halo+stop+rt", "shared-halo",
                             "shared-halo+stop", "halo", "shared-halo"})
        measure(what);
    CHECK(cudaFree(meeting.sums));
    CHECK(cudaFree(meeting.edges));
    CHECK(cudaFree(norms));
    CHECK(cudaFree(out));
    return 0;
}

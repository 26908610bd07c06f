/*
 * laplace_kernels.cu - the CUDA sweep kernels and their extern "C" launchers.
 *
 * Three levels, as in ggml's CUDA backend: templated __global__ kernels, a
 * static launcher that picks the launch shape, and the public entry points.
 * Templates give float and double from one text.
 *
 * Every variant computes the same thing, in the same order of additions:
 *     new = 0.25 * (((south + west) + east) + north)
 * Sites on a tile's edge read the missing neighbour from the neighbouring
 * tile's old field through a peer pointer (or from a halo copy of it); a NULL
 * edge is the edge of the whole lattice, where sites keep their boundary value.
 * Then every thread block adds its (new - old)^2 in double, in a fixed tree
 * order (warp shuffles), and writes one partial sum: no atomics, so the sums
 * are the same on every run. The variants differ only in how they load:
 *
 *   global    one site per thread, every load from global memory (the lecture)
 *   readonly  the same through the read-only data cache (__ldg)
 *   shared    the block's sites and a one-site halo staged in shared memory
 *   rows      each thread walks R sites up V neighbouring columns (V = 2:
 *             8- or 16-byte loads): the sites below and the sites themselves
 *             are already in registers, so one new row is loaded per step, and
 *             the block's partial sum covers R x V times more sites
 *
 * A loop run by the device alone (--reduce device, one tile) also hands every
 * sweep a stop_state: the last block to finish adds all block sums in the
 * fixed order, applies the stopping test and sets state->stopped, after which
 * every later sweep returns at once. No host round trip per iteration.
 */
#include "laplace_kernels.h"

#include <stdlib.h>

template <typename T> struct edges {
    const T *west, *east, *south, *north;
    long west_stride, east_stride;
};

/* Where a sweep's partial sums go, and, in a loop run by the device alone, the
 * loop's state: the last block to finish then also takes the loop's step. */
struct sums_out {
    double *block_sums; /* one per block, or NULL: no sums */
    stop_state *state;  /* NULL unless the device runs the loop alone */
    stop_rule rule;
    unsigned *ticket;   /* blocks finished so far in this sweep */
};

template <bool READONLY, typename T> __device__ __forceinline__ T load(const T *p)
{
    if (READONLY)
        return __ldg(p);
    return *p;
}

/* The old value at (x, y) of the tile, one step outside it included. */
template <bool READONLY, typename T>
__device__ __forceinline__ T old_at(const T *old, const edges<T> &e, long x, long y, long lx,
                                    long ly)
{
    if (x < 0)
        return e.west ? load<READONLY>(e.west + y * e.west_stride) : T(0);
    if (x >= lx)
        return e.east ? load<READONLY>(e.east + y * e.east_stride) : T(0);
    if (y < 0)
        return e.south ? load<READONLY>(e.south + x) : T(0);
    if (y >= ly)
        return e.north ? load<READONLY>(e.north + x) : T(0);
    return load<READONLY>(old + x + y * lx);
}

/* A site on the edge of the whole lattice keeps its value. */
template <typename T>
__device__ __forceinline__ bool is_fixed(const edges<T> &e, long x, long y, long lx, long ly)
{
    return (x == 0 && !e.west) || (x == lx - 1 && !e.east) || (y == 0 && !e.south) ||
           (y == ly - 1 && !e.north);
}

template <typename T> __device__ __forceinline__ T jacobi(T south, T west, T east, T north)
{
    return T(0.25) * (((south + west) + east) + north);
}

/* Updates one site with every edge case handled; returns (new - old)^2. */
template <bool READONLY, typename T>
__device__ __forceinline__ double update_site(const T *old, T *out, const edges<T> &e, long x,
                                              long y, long lx, long ly)
{
    if (x >= lx || y >= ly || is_fixed(e, x, y, lx, ly))
        return 0.0;
    const T v = jacobi(old_at<READONLY>(old, e, x, y - 1, lx, ly),
                       old_at<READONLY>(old, e, x - 1, y, lx, ly),
                       old_at<READONLY>(old, e, x + 1, y, lx, ly),
                       old_at<READONLY>(old, e, x, y + 1, lx, ly));
    const T d = v - load<READONLY>(old + x + y * lx);
    out[x + y * lx] = v;
    return (double)(d * d);
}

/*
 * The sum of n block sums in block_sums_total()'s order, by all threads of the
 * block: lane j adds sums j, j + 1024, ... in turn, then the 1024 lanes are
 * added pairwise (j += j + h, h = 512 ... 1). Valid in lane[0] on return.
 */
__device__ static void add_in_lanes(const double *sums, long n, double *lane)
{
    const int threads = blockDim.x * blockDim.y;
    const int tid = threadIdx.x + threadIdx.y * blockDim.x;
    for (int j = tid; j < 1024; j += threads) {
        double acc = 0.0;
        for (long b = j; b < n; b += 1024)
            acc += __ldcg(sums + b); /* from L2: other blocks wrote them */
        lane[j] = acc;
    }
    __syncthreads();
    for (int half = 512; half > 0; half >>= 1) {
        for (int j = tid; j < half; j += threads)
            lane[j] += lane[j + half];
        __syncthreads();
    }
}

/* Thread 0 of the last block: count the iteration, test it, maybe stop. */
__device__ static void take_step(stop_state *state, const stop_rule &rule, bool check,
                                 double total)
{
    const long iteration = state->iteration + 1;
    state->iteration = iteration;
    if (check) {
        const double norm = sqrt(0.0 + total); /* 0.0 + total: as the host adds tiles */
        state->norm = norm;
        state->norm_iteration = iteration;
        state->norm_checks++;
        if (!isfinite(norm))
            state->stopped = 1, state->reason = 2;
        else if (norm < rule.eps)
            state->stopped = 1, state->reason = 0;
    }
    if (!state->stopped && iteration >= rule.max_iter)
        state->stopped = 1, state->reason = 1;
}

/* In a loop run by the device alone: the last block to finish takes the step. */
__device__ static void last_block_steps(const sums_out &s)
{
    __shared__ bool last;
    __shared__ double lane[1024];
    const int tid = threadIdx.x + threadIdx.y * blockDim.x;
    const unsigned blocks = gridDim.x * gridDim.y;
    if (tid == 0) {
        __threadfence(); /* this block's sum is visible before its ticket */
        last = atomicAdd(s.ticket, 1u) == blocks - 1;
    }
    __syncthreads();
    if (!last)
        return;
    const bool check = (s.state->iteration + 1) % s.rule.check_every == 0;
    if (check)
        add_in_lanes(s.block_sums, blocks, lane);
    if (tid == 0) {
        take_step(s.state, s.rule, check, lane[0]);
        *s.ticket = 0; /* ready for the next sweep */
    }
}

/* Sum of v over the thread block in a fixed order; thread 0 writes it. */
__device__ static void write_block_sum(double v, const sums_out &s)
{
    __shared__ double warp_sums[32];
    const int threads = blockDim.x * blockDim.y;
    const int tid = threadIdx.x + threadIdx.y * blockDim.x;
    const int lane = tid & 31, warp = tid >> 5;
    const int lanes = min(32, threads - warp * 32); /* lanes present in this warp */
    const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
    if (!s.block_sums)
        return;
    for (int offset = 16; offset > 0; offset >>= 1) {
        double other = __shfl_down_sync(mask, v, offset);
        if (lane + offset < lanes)
            v += other;
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
                v += other;
        }
        if (lane == 0)
            s.block_sums[blockIdx.x + blockIdx.y * gridDim.x] = v;
    }
    if (s.state)
        last_block_steps(s);
}

/* A sweep in a loop that the device has already stopped does nothing. */
__device__ __forceinline__ bool stopped(const sums_out &s)
{
    return s.state && s.state->stopped;
}

/* global and readonly: one site per thread. */
template <bool READONLY, typename T>
__global__ void sweep_site(const T *__restrict__ old, T *__restrict__ out, long lx, long ly,
                           edges<T> e, sums_out s)
{
    if (stopped(s))
        return; /* the whole grid returns: no block waits in write_block_sum */
    const long x = blockIdx.x * (long)blockDim.x + threadIdx.x;
    const long y = blockIdx.y * (long)blockDim.y + threadIdx.y;
    write_block_sum(update_site<READONLY>(old, out, e, x, y, lx, ly), s);
}

/* shared: stage the block's sites and a one-site halo, then compute from there. */
template <typename T>
__global__ void sweep_shared(const T *__restrict__ old, T *__restrict__ out, long lx, long ly,
                             edges<T> e, sums_out so)
{
    if (stopped(so))
        return;
    extern __shared__ unsigned char staged_bytes[];
    T *s = reinterpret_cast<T *>(staged_bytes);
    const int w = blockDim.x + 2, sx = threadIdx.x + 1, sy = threadIdx.y + 1;
    const long x = blockIdx.x * (long)blockDim.x + threadIdx.x;
    const long y = blockIdx.y * (long)blockDim.y + threadIdx.y;
    const bool inside = x < lx && y < ly;
    if (inside) {
        s[sx + sy * w] = old[x + y * lx];
        if (threadIdx.x == 0)
            s[sy * w] = old_at<false>(old, e, x - 1, y, lx, ly);
        if (threadIdx.x == blockDim.x - 1 || x == lx - 1)
            s[sx + 1 + sy * w] = old_at<false>(old, e, x + 1, y, lx, ly);
        if (threadIdx.y == 0)
            s[sx] = old_at<false>(old, e, x, y - 1, lx, ly);
        if (threadIdx.y == blockDim.y - 1 || y == ly - 1)
            s[sx + (sy + 1) * w] = old_at<false>(old, e, x, y + 1, lx, ly);
    }
    __syncthreads();
    double square = 0.0;
    if (inside && !is_fixed(e, x, y, lx, ly)) {
        const T v = jacobi(s[sx + (sy - 1) * w], s[sx - 1 + sy * w], s[sx + 1 + sy * w],
                           s[sx + (sy + 1) * w]);
        const T d = v - s[sx + sy * w];
        out[x + y * lx] = v;
        square = (double)(d * d);
    }
    write_block_sum(square, so);
}

/* V values of type T that load and store as one (8 or 16 bytes for V = 2). */
template <typename T, int V> struct packed {
    T v[V];
};
template <> struct __align__(8) packed<float, 2> {
    float v[2];
};
template <> struct __align__(16) packed<double, 2> {
    double v[2];
};

/* rows, for a block away from the tile's edges: no edge logic, wide plain loads. */
template <int R, int V, typename T>
__device__ __forceinline__ double rows_inside(const T *__restrict__ old, T *__restrict__ out,
                                              long lx, long x, long y0)
{
    typedef packed<T, V> P;
    const T *p = old + x + y0 * lx; /* the first of the thread's V sites, row by row */
    P south = *reinterpret_cast<const P *>(p - lx), here = *reinterpret_cast<const P *>(p);
    const int lane = (threadIdx.x + threadIdx.y * blockDim.x) & 31;
    const bool warp_is_a_row = (blockDim.x & 31) == 0; /* lanes are neighbours in x */
    double square = 0.0;
#pragma unroll
    for (int r = 0; r < R; r++, p += lx) {
        const P north = *reinterpret_cast<const P *>(p + lx);
        /* west and east: from the neighbouring lanes' registers where they can */
        T west = __shfl_up_sync(0xffffffffu, here.v[V - 1], 1);
        T east = __shfl_down_sync(0xffffffffu, here.v[0], 1);
        if (!warp_is_a_row || lane == 0)
            west = p[-1];
        if (!warp_is_a_row || lane == 31)
            east = p[V];
        P v;
#pragma unroll
        for (int i = 0; i < V; i++) {
            v.v[i] = jacobi(south.v[i], i > 0 ? here.v[i - 1] : west,
                            i < V - 1 ? here.v[i + 1] : east, north.v[i]);
            const T d = v.v[i] - here.v[i];
            square += (double)(d * d);
        }
        *reinterpret_cast<P *>(out + (p - old)) = v;
        south = here;
        here = north;
    }
    return square;
}

/* rows: thread (i, j) updates columns V*i ... V*i + V-1, rows R*j ... R*j + R-1. */
template <int R, int V, typename T>
__global__ void __launch_bounds__(1024, 2) sweep_rows(const T *__restrict__ old, T *__restrict__ out, long lx, long ly,
                           edges<T> e, sums_out s)
{
    if (stopped(s))
        return;
    const long x = (blockIdx.x * (long)blockDim.x + threadIdx.x) * V;
    const long y0 = (blockIdx.y * (long)blockDim.y + threadIdx.y) * R;
    const long block_x0 = blockIdx.x * (long)blockDim.x * V;
    const long block_y0 = blockIdx.y * (long)blockDim.y * R;
    double square = 0.0;
    if (block_x0 >= 1 && block_x0 + (long)blockDim.x * V <= lx - 1 && block_y0 >= 1 &&
        block_y0 + (long)blockDim.y * R <= ly - 1) {
        square = rows_inside<R, V>(old, out, lx, x, y0);
    } else {
        for (int r = 0; r < R; r++)
            for (int i = 0; i < V; i++)
                square += update_site<false>(old, out, e, x + i, y0 + r, lx, ly);
    }
    write_block_sum(square, s);
}

/* Adds the block sums in block_sums_total()'s order into *total. */
__global__ void reduce_block_sums(const double *sums, long n, double *total)
{
    __shared__ double lane[1024];
    add_in_lanes(sums, n, lane);
    if (threadIdx.x == 0)
        *total = lane[0];
}

extern "C" long laplace_grid(const struct sweep_shape *s, long lx, long ly, long *blocks_x,
                             long *blocks_y)
{
    const long columns = (long)s->block_x * s->columns_per_thread;
    const long rows = (long)s->block_y * s->rows_per_thread;
    *blocks_x = (lx + columns - 1) / columns;
    *blocks_y = (ly + rows - 1) / rows;
    return *blocks_x * *blocks_y;
}

static dim3 grid_of(const sweep_shape &s, long lx, long ly)
{
    long gx, gy;
    laplace_grid(&s, lx, ly, &gx, &gy);
    return dim3((unsigned)gx, (unsigned)gy);
}

template <int V, typename T>
static void launch_rows(const sweep_shape &sh, dim3 grid, dim3 block, cudaStream_t stream,
                        const T *old, T *out, long lx, long ly, const edges<T> &e,
                        const sums_out &s)
{
    switch (sh.rows_per_thread) {
    case 16:
        sweep_rows<16, V, T><<<grid, block, 0, stream>>>(old, out, lx, ly, e, s);
        break;
    case 8:
        sweep_rows<8, V, T><<<grid, block, 0, stream>>>(old, out, lx, ly, e, s);
        break;
    case 4:
        sweep_rows<4, V, T><<<grid, block, 0, stream>>>(old, out, lx, ly, e, s);
        break;
    default:
        sweep_rows<1, V, T><<<grid, block, 0, stream>>>(old, out, lx, ly, e, s);
    }
}

template <typename T>
static cudaError_t launch_sweep(const sweep_launch *l, cudaStream_t stream)
{
    const edges<T> e = {(const T *)l->west.data, (const T *)l->east.data,
                        (const T *)l->south.data, (const T *)l->north.data, l->west.stride,
                        l->east.stride};
    const sums_out s = {l->block_sums, l->state, l->rule, l->ticket};
    const T *old = (const T *)l->old;
    T *out = (T *)l->new_;
    const dim3 block(l->shape.block_x, l->shape.block_y), grid = grid_of(l->shape, l->lx, l->ly);
    const size_t staged = (size_t)(block.x + 2) * (block.y + 2) * sizeof(T);
    switch (l->shape.kernel) {
    case KERNEL_GLOBAL:
        sweep_site<false, T><<<grid, block, 0, stream>>>(old, out, l->lx, l->ly, e, s);
        break;
    case KERNEL_READONLY:
        sweep_site<true, T><<<grid, block, 0, stream>>>(old, out, l->lx, l->ly, e, s);
        break;
    case KERNEL_SHARED:
        sweep_shared<T><<<grid, block, staged, stream>>>(old, out, l->lx, l->ly, e, s);
        break;
    default:
        if (l->shape.columns_per_thread == 2)
            launch_rows<2, T>(l->shape, grid, block, stream, old, out, l->lx, l->ly, e, s);
        else
            launch_rows<1, T>(l->shape, grid, block, stream, old, out, l->lx, l->ly, e, s);
    }
    return cudaGetLastError();
}

extern "C" struct sweep_shape laplace_choose_shape(enum kernel_variant kernel, int block_x,
                                                   int block_y, long lx, long ly,
                                                   size_t value_size, int multiprocessors,
                                                   int threads_per_multiprocessor)
{
    sweep_shape s = {kernel == KERNEL_AUTO ? KERNEL_ROWS : kernel, block_x, block_y, 1, 1};
    if (s.block_x <= 0 || s.block_y <= 0) {
        s.block_x = 32;
        s.block_y = 8;
    }
    if (s.kernel != KERNEL_ROWS)
        return s;
    /* Pairs of columns when every row starts aligned (even width). */
    s.columns_per_thread = lx % 2 == 0 ? 2 : 1;
    /* A thread covers 64 bytes of its columns (measured best on an H200: 8 rows of
     * float pairs, 4 of double pairs), fewer rows if that leaves under two full
     * waves of threads on the device. */
    const long wanted = 2L * multiprocessors * threads_per_multiprocessor;
    int most = (int)(64 / (value_size * (size_t)s.columns_per_thread));
    for (int rows = 16; rows > 1; rows /= 2) {
        if (rows > most)
            continue;
        s.rows_per_thread = rows;
        long gx, gy;
        if (laplace_grid(&s, lx, ly, &gx, &gy) * s.block_x * s.block_y >= wanted)
            return s;
    }
    s.rows_per_thread = 1;
    return s;
}

extern "C" struct sweep_shape laplace_shape_override(struct sweep_shape shape, long lx)
{
    const char *rows = getenv("LAPLACE_ROWS_PER_THREAD");
    const char *columns = getenv("LAPLACE_COLUMNS_PER_THREAD");
    if (shape.kernel != KERNEL_ROWS)
        return shape;
    if (rows && (atoi(rows) == 1 || atoi(rows) == 4 || atoi(rows) == 8 || atoi(rows) == 16))
        shape.rows_per_thread = atoi(rows);
    if (columns && (atoi(columns) == 1 || (atoi(columns) == 2 && lx % 2 == 0)))
        shape.columns_per_thread = atoi(columns);
    return shape;
}

extern "C" cudaError_t laplace_sweep(const struct sweep_launch *launch, cudaStream_t stream)
{
    if (launch->precision == PRECISION_FLOAT)
        return launch_sweep<float>(launch, stream);
    return launch_sweep<double>(launch, stream);
}

extern "C" cudaError_t laplace_reduce(const double *block_sums, long n, double *total,
                                      cudaStream_t stream)
{
    reduce_block_sums<<<1, 1024, 0, stream>>>(block_sums, n, total);
    return cudaGetLastError();
}

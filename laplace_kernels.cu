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
 *   rows      each thread walks R sites up a column: the site below and the
 *             site itself are already in registers, so one new row is loaded
 *             per step, and the block's partial sum covers R times more sites
 */
#include "laplace_kernels.h"

template <typename T> struct edges {
    const T *west, *east, *south, *north;
    long west_stride, east_stride;
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

/* Sum of v over the thread block in a fixed order; thread 0 writes it. */
__device__ static void write_block_sum(double v, double *block_sums)
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
            block_sums[blockIdx.x + blockIdx.y * gridDim.x] = v;
    }
}

/* global and readonly: one site per thread. */
template <bool READONLY, typename T>
__global__ void sweep_site(const T *__restrict__ old, T *__restrict__ out, long lx, long ly,
                           edges<T> e, double *block_sums)
{
    const long x = blockIdx.x * (long)blockDim.x + threadIdx.x;
    const long y = blockIdx.y * (long)blockDim.y + threadIdx.y;
    double square = 0.0;
    if (x < lx && y < ly && !is_fixed(e, x, y, lx, ly)) {
        const T v = jacobi(old_at<READONLY>(old, e, x, y - 1, lx, ly),
                           old_at<READONLY>(old, e, x - 1, y, lx, ly),
                           old_at<READONLY>(old, e, x + 1, y, lx, ly),
                           old_at<READONLY>(old, e, x, y + 1, lx, ly));
        const T d = v - load<READONLY>(old + x + y * lx);
        out[x + y * lx] = v;
        square = (double)(d * d);
    }
    if (block_sums)
        write_block_sum(square, block_sums);
}

/* shared: stage the block's sites and a one-site halo, then compute from there. */
template <typename T>
__global__ void sweep_shared(const T *__restrict__ old, T *__restrict__ out, long lx, long ly,
                             edges<T> e, double *block_sums)
{
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
    if (block_sums)
        write_block_sum(square, block_sums);
}

/* rows: thread (x, j) updates sites (x, R*j) ... (x, R*j + R-1), bottom to top. */
template <int R, typename T>
__global__ void sweep_rows(const T *__restrict__ old, T *__restrict__ out, long lx, long ly,
                           edges<T> e, double *block_sums)
{
    const long x = blockIdx.x * (long)blockDim.x + threadIdx.x;
    const long y0 = (blockIdx.y * (long)blockDim.y + threadIdx.y) * R;
    double square = 0.0;
    if (x < lx && y0 < ly && !((x == 0 && !e.west) || (x == lx - 1 && !e.east))) {
        T south = old_at<false>(old, e, x, y0 - 1, lx, ly);
        T here = old[x + y0 * lx];
#pragma unroll
        for (int r = 0; r < R; r++) {
            const long y = y0 + r;
            if (y < ly) {
                const T north = old_at<false>(old, e, x, y + 1, lx, ly);
                const T west = old_at<false>(old, e, x - 1, y, lx, ly);
                const T east = old_at<false>(old, e, x + 1, y, lx, ly);
                if (!((y == 0 && !e.south) || (y == ly - 1 && !e.north))) {
                    const T v = jacobi(south, west, east, north);
                    const T d = v - here;
                    out[x + y * lx] = v;
                    square += (double)(d * d);
                }
                south = here;
                here = north;
            }
        }
    }
    if (block_sums)
        write_block_sum(square, block_sums);
}

/* Adds the block sums in block_sums_total()'s order: 1024 lanes, then a tree. */
__global__ void reduce_block_sums(const double *sums, long n, double *total)
{
    __shared__ double lane[1024];
    const int j = threadIdx.x;
    double acc = 0.0;
    for (long b = j; b < n; b += 1024)
        acc += sums[b];
    lane[j] = acc;
    __syncthreads();
    for (int half = 512; half > 0; half >>= 1) {
        if (j < half)
            lane[j] += lane[j + half];
        __syncthreads();
    }
    if (j == 0)
        *total = lane[0];
}

extern "C" long laplace_grid(const struct sweep_shape *s, long lx, long ly, long *blocks_x,
                             long *blocks_y)
{
    const long rows = (long)s->block_y * s->rows_per_thread;
    *blocks_x = (lx + s->block_x - 1) / s->block_x;
    *blocks_y = (ly + rows - 1) / rows;
    return *blocks_x * *blocks_y;
}

static dim3 grid_of(const sweep_shape &s, long lx, long ly)
{
    long gx, gy;
    laplace_grid(&s, lx, ly, &gx, &gy);
    return dim3((unsigned)gx, (unsigned)gy);
}

template <typename T>
static cudaError_t launch_sweep(const sweep_launch *l, cudaStream_t stream)
{
    const edges<T> e = {(const T *)l->west.data, (const T *)l->east.data,
                        (const T *)l->south.data, (const T *)l->north.data, l->west.stride,
                        l->east.stride};
    const T *old = (const T *)l->old;
    T *out = (T *)l->new_;
    const dim3 block(l->shape.block_x, l->shape.block_y), grid = grid_of(l->shape, l->lx, l->ly);
    const size_t staged = (size_t)(block.x + 2) * (block.y + 2) * sizeof(T);
    switch (l->shape.kernel) {
    case KERNEL_GLOBAL:
        sweep_site<false, T><<<grid, block, 0, stream>>>(old, out, l->lx, l->ly, e, l->block_sums);
        break;
    case KERNEL_READONLY:
        sweep_site<true, T><<<grid, block, 0, stream>>>(old, out, l->lx, l->ly, e, l->block_sums);
        break;
    case KERNEL_SHARED:
        sweep_shared<T><<<grid, block, staged, stream>>>(old, out, l->lx, l->ly, e, l->block_sums);
        break;
    default:
        switch (l->shape.rows_per_thread) {
        case 16:
            sweep_rows<16, T><<<grid, block, 0, stream>>>(old, out, l->lx, l->ly, e, l->block_sums);
            break;
        case 8:
            sweep_rows<8, T><<<grid, block, 0, stream>>>(old, out, l->lx, l->ly, e, l->block_sums);
            break;
        case 4:
            sweep_rows<4, T><<<grid, block, 0, stream>>>(old, out, l->lx, l->ly, e, l->block_sums);
            break;
        default:
            sweep_rows<1, T><<<grid, block, 0, stream>>>(old, out, l->lx, l->ly, e, l->block_sums);
        }
    }
    return cudaGetLastError();
}

extern "C" struct sweep_shape laplace_choose_shape(enum kernel_variant kernel, int block_x,
                                                   int block_y, long lx, long ly,
                                                   int multiprocessors,
                                                   int threads_per_multiprocessor)
{
    sweep_shape s = {kernel == KERNEL_AUTO ? KERNEL_ROWS : kernel, block_x, block_y, 1};
    if (s.block_x <= 0 || s.block_y <= 0) {
        s.block_x = 32;
        s.block_y = 8;
    }
    if (s.kernel != KERNEL_ROWS)
        return s;
    /* As many rows per thread as still leave two full waves of threads. */
    const long wanted = 2L * multiprocessors * threads_per_multiprocessor;
    for (int rows = 16; rows > 1; rows /= 2) {
        s.rows_per_thread = rows;
        long gx, gy;
        if (laplace_grid(&s, lx, ly, &gx, &gy) * s.block_x * s.block_y >= wanted)
            return s;
    }
    s.rows_per_thread = 1;
    return s;
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

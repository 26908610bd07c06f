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
 * Then every thread block adds its (new - old)^2 (times the square scale of
 * update_rule.h, 1 unless the data could overflow) in double, in a fixed tree
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
 *   general   one site per thread, any update rule of update_rule.h: source,
 *             fixed regions, anisotropic weights, relaxation, SOR's colours,
 *             the max and residual norms (chosen by auto when the rule needs it)
 *
 * A loop run by the device alone (--reduce device, one tile) is one resident
 * kernel for a whole batch of iterations: its blocks take the rows kernel's
 * blocks in turn, so the partial sums are the same; after a grid-wide barrier
 * every block adds them in the fixed order and takes the same stopping
 * decision. No host round trip and no launch per iteration.
 */
#include <cooperative_groups.h>
#include "laplace_kernels.h"

#include <stdlib.h>

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
__device__ __forceinline__ T old_at(const T *old, const edges<T> &e, long x, long y,
                                    long lx, long ly)
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
__device__ __forceinline__ bool is_fixed(const edges<T> &e, long x, long y, long lx,
                                         long ly)
{
    return (x == 0 && !e.west) || (x == lx - 1 && !e.east) || (y == 0 && !e.south) ||
           (y == ly - 1 && !e.north);
}

template <typename T>
__device__ __forceinline__ T jacobi(T south, T west, T east, T north)
{
    return T(0.25) * (((south + west) + east) + north);
}

/* The square of an update as the norm adds it (update_rule.h): d times the
 * square scale 2^-k (1 for every ordinary run), squared in T. */
template <typename T> __device__ __forceinline__ double square_of(T d, T scale)
{
    const T e = d * scale;
    return (double)(e * e);
}

/* Updates one site with every edge case handled; returns (new - old)^2, scaled
 * (square_of). */
template <bool READONLY, typename T>
__device__ __forceinline__ double update_site(const T *old, T *out, const edges<T> &e,
                                              long x, long y, long lx, long ly, T scale)
{
    if (x >= lx || y >= ly || is_fixed(e, x, y, lx, ly))
        return 0.0;
    const T v = jacobi(old_at<READONLY>(old, e, x, y - 1, lx, ly),
                       old_at<READONLY>(old, e, x - 1, y, lx, ly),
                       old_at<READONLY>(old, e, x + 1, y, lx, ly),
                       old_at<READONLY>(old, e, x, y + 1, lx, ly));
    const T d = v - load<READONLY>(old + x + y * lx);
    out[x + y * lx] = v;
    return square_of(d, scale);
}

/* Two partial results of a block or lane: a sum, or (MAX) the larger, NaN winning
 * (norm_combine of update_rule.h). */
template <bool MAX> __device__ __forceinline__ double combine(double a, double b)
{
    if (MAX)
        return (a != a || a > b) ? a : b;
    return a + b;
}

/*
 * The sum of n block sums in block_sums_total()'s order, by all threads of the
 * block: lane j adds sums j, j + 1024, ... in turn, then the 1024 lanes are
 * added pairwise (j += j + h, h = 512 ... 1). Valid in lane[0] on return.
 */
template <bool MAX = false>
__device__ static void add_in_lanes(const double *sums, long n, double *lane)
{
    const int threads = blockDim.x * blockDim.y;
    const int tid = threadIdx.x + threadIdx.y * blockDim.x;
    for (int j = tid; j < BLOCK_SUM_LANES; j += threads) {
        double acc = 0.0;
        for (long b = j; b < n; b += BLOCK_SUM_LANES)
            acc = combine<MAX>(acc,
                               __ldcg(sums + b)); /* from L2: other blocks wrote them */
        lane[j] = acc;
    }
    __syncthreads();
    for (int half = BLOCK_SUM_LANES / 2; half > 0; half >>= 1) {
        for (int j = tid; j < half; j += threads)
            lane[j] = combine<MAX>(lane[j], lane[j + half]);
        __syncthreads();
    }
}

/* Sum (MAX: maximum) of v over the thread block in a fixed tree order, returned
 * to thread 0. */
template <bool MAX = false> __device__ static double block_total(double v)
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
            v = combine<MAX>(v, other);
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
                v = combine<MAX>(v, other);
        }
    }
    __syncthreads(); /* warp_sums may be reused at once by the caller's next block */
    return v;
}

/* Writes the block's sum of v at its place in block_sums (NULL: no sums). */
__device__ static void write_block_sum(double v, double *block_sums)
{
    if (!block_sums)
        return;
    v = block_total(v);
    if (threadIdx.x == 0 && threadIdx.y == 0)
        block_sums[blockIdx.x + (long)blockIdx.y * gridDim.x] = v;
}

/* global and readonly: one site per thread. */
template <bool READONLY, typename T>
__global__ void sweep_site(const T *__restrict__ old, T *__restrict__ out, long lx,
                           long ly, edges<T> e, double *block_sums, T scale)
{
    const long x = blockIdx.x * (long)blockDim.x + threadIdx.x;
    const long y = blockIdx.y * (long)blockDim.y + threadIdx.y;
    write_block_sum(update_site<READONLY>(old, out, e, x, y, lx, ly, scale), block_sums);
}

/* shared: stage the block's sites and a one-site halo, then compute from there. */
template <typename T>
__global__ void sweep_shared(const T *__restrict__ old, T *__restrict__ out, long lx,
                             long ly, edges<T> e, double *block_sums, T scale)
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
        square = square_of(d, scale);
    }
    write_block_sum(square, block_sums);
}

/* V values of type T that load and store as one (8 or 16 bytes for V = 2). */
template <typename T, int V> struct packed {
    T v[V];
};
template <> struct __align__(8) packed<float, 2>
{
    float v[2];
};
template <> struct __align__(16) packed<double, 2>
{
    double v[2];
};

/* rows, for a block away from the tile's edges: no edge logic, wide plain loads. */
template <int R, int V, typename T>
__device__ __forceinline__ double rows_inside(const T *__restrict__ old,
                                              T *__restrict__ out, long lx, long x,
                                              long y0, T scale)
{
    typedef packed<T, V> P;
    const T *p = old + x + y0 * lx; /* the first of the thread's V sites, row by row */
    P south = *reinterpret_cast<const P *>(p - lx),
      here = *reinterpret_cast<const P *>(p);
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
            square += square_of(d, scale);
        }
        *reinterpret_cast<P *>(out + (p - old)) = v;
        south = here;
        here = north;
    }
    return square;
}

/* The rows kernel's work for the block at (bx, by) of its grid: thread (i, j)
 * updates columns V*i ... V*i + V-1 and rows R*j ... R*j + R-1 of that block;
 * returns the thread's sum of (new - old)^2. */
template <int R, int V, typename T>
__device__ __forceinline__ double rows_block(const T *__restrict__ old,
                                             T *__restrict__ out, long lx, long ly,
                                             const edges<T> &e, long bx, long by, T scale)
{
    const long x = (bx * blockDim.x + threadIdx.x) * V;
    const long y0 = (by * blockDim.y + threadIdx.y) * R;
    const long block_x0 = bx * blockDim.x * V, block_y0 = by * blockDim.y * R;
    if (block_x0 >= 1 && block_x0 + (long)blockDim.x * V <= lx - 1 && block_y0 >= 1 &&
        block_y0 + (long)blockDim.y * R <= ly - 1)
        return rows_inside<R, V>(old, out, lx, x, y0, scale);
    double square = 0.0;
    for (int r = 0; r < R; r++)
        for (int i = 0; i < V; i++)
            square += update_site<false>(old, out, e, x + i, y0 + r, lx, ly, scale);
    return square;
}

template <int R, int V, typename T>
__global__ void __launch_bounds__(1024, 2)
    sweep_rows(const T *__restrict__ old, T *__restrict__ out, long lx, long ly,
               edges<T> e, double *block_sums, T scale)
{
    write_block_sum(rows_block<R, V>(old, out, lx, ly, e, blockIdx.x, blockIdx.y, scale),
                    block_sums);
}

/* The update rule's numbers in the working precision, converted once on the host
 * as the host backends convert them, so that every backend computes the same bits. */
template <typename T> struct rule_args {
    T cx, cy, omega, keep; /* keep = 1 - omega, formed in double */
    T square_scale;        /* 2^-k of update_rule.h (square_of) */
    bool anisotropic, relaxed, residual, max;
    int colour;        /* -1: every site; SOR: 0 red, 1 black */
    long first_colour; /* site (x, y) is red when first_colour + x + y is even */
    const T *source;   /* per-site b, or NULL */
    const unsigned char *fixed;
};

/* general: one site per thread, any rule. Reads the neighbours from `in` (and
 * the edges e, views of the neighbours' `in`), its own old value from `own`;
 * returns what the norm adds for the site. */
template <typename T>
__device__ __forceinline__ double general_site(const T *own, const T *in, T *out, long lx,
                                               long ly, const edges<T> &e,
                                               const rule_args<T> &r, long x, long y)
{
    if (x >= lx || y >= ly || is_fixed(e, x, y, lx, ly))
        return 0.0;
    const long i = x + y * lx;
    if ((r.colour >= 0 && (r.first_colour + x + y) % 2 != r.colour) ||
        (r.fixed && r.fixed[i]))
        return 0.0;
    const T south = old_at<true>(in, e, x, y - 1, lx, ly);
    const T west = old_at<true>(in, e, x - 1, y, lx, ly);
    const T east = old_at<true>(in, e, x + 1, y, lx, ly);
    const T north = old_at<true>(in, e, x, y + 1, lx, ly);
    T gs = r.anisotropic ? r.cx * (west + east) + r.cy * (south + north)
                         : jacobi(south, west, east, north);
    if (r.source)
        gs = gs + r.source[i];
    const T old = own[i];
    const T v = r.relaxed ? r.omega * gs + r.keep * old : gs;
    const T d = (r.residual ? gs : v) - old;
    out[i] = v;
    return r.max ? fabs((double)d) : square_of(d, r.square_scale);
}

/* The block's total of v, set or (accumulate) combined into its block sum. */
template <bool MAX>
__device__ static void write_general_sum(double v, double *block_sums, bool accumulate)
{
    v = block_total<MAX>(v);
    const long b = blockIdx.x + (long)blockIdx.y * gridDim.x;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        block_sums[b] = accumulate ? combine<MAX>(block_sums[b], v) : v;
}

template <typename T>
__global__ void sweep_general(const T *own, const T *in, T *out, long lx, long ly,
                              edges<T> e, rule_args<T> r, double *block_sums,
                              bool accumulate)
{
    const long x = blockIdx.x * (long)blockDim.x + threadIdx.x;
    const long y = blockIdx.y * (long)blockDim.y + threadIdx.y;
    const double v = general_site(own, in, out, lx, ly, e, r, x, y);
    if (!block_sums)
        return;
    if (r.max)
        write_general_sum<true>(v, block_sums, accumulate);
    else
        write_general_sum<false>(v, block_sums, accumulate);
}

/*
 * The loop of a lone tile for up to `batch` iterations, in one resident
 * (cooperative) kernel. Each block takes the blocks v = blockIdx.x,
 * blockIdx.x + gridDim.x, ... of the rows kernel's grid (gx wide, n in all),
 * so the partial sums are that kernel's. Iteration k's sums go to
 * sums[(k % 2) * n + v]; after the grid-wide barrier every block adds them in
 * the fixed order and reaches the same decision, so no second barrier is needed:
 * the next iteration writes the other half of sums and the other field.
 */
template <int R, int V, typename T>
__global__ void __launch_bounds__(1024, 1)
    loop_rows(T *field0, T *field1, long lx, long ly, long gx, long n, long batch,
              double *sums, stop_state *state, stop_rule rule, T scale)
{
    __shared__ double lane[BLOCK_SUM_LANES];
    const edges<T> none = {};
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    const bool writer = blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0;
    stop_state mine =
        *state; /* read before the first barrier, after which block 0 writes */
    for (long b = 0; b < batch && !mine.stopped; b++) {
        const long iteration = mine.iteration + 1;
        const T *old = iteration % 2 ? field0 : field1;
        T *out = iteration % 2 ? field1 : field0;
        double *these = sums + (iteration % 2) * n;
        for (long v = blockIdx.x; v < n; v += gridDim.x) {
            const double t = block_total(
                rows_block<R, V>(old, out, lx, ly, none, v % gx, v / gx, scale));
            if (threadIdx.x == 0 && threadIdx.y == 0)
                these[v] = t;
        }
        grid.sync();
        const bool check = stop_rule_wants_norm(&rule, iteration);
        if (check)
            add_in_lanes(these, n, lane);
        /* every thread takes the one decision (stop_rule.h), with the same answer */
        stop_state_step(&rule, &mine, iteration, check,
                        check ? stop_rule_norm(&rule, lane[0]) : NAN);
        if (writer)
            *state = mine;
    }
}

/* Adds the block sums in block_sums_total()'s order into *total. */
template <bool MAX>
__global__ void reduce_block_sums(const double *sums, long n, double *total)
{
    __shared__ double lane[BLOCK_SUM_LANES];
    add_in_lanes<MAX>(sums, n, lane);
    if (threadIdx.x == 0)
        *total = lane[0];
}

extern "C" long laplace_grid(const struct sweep_shape *s, long lx, long ly,
                             long *blocks_x, long *blocks_y)
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
                        double *s, T scale)
{
    switch (sh.rows_per_thread) {
    case 16:
        sweep_rows<16, V, T><<<grid, block, 0, stream>>>(old, out, lx, ly, e, s, scale);
        break;
    case 8:
        sweep_rows<8, V, T><<<grid, block, 0, stream>>>(old, out, lx, ly, e, s, scale);
        break;
    case 4:
        sweep_rows<4, V, T><<<grid, block, 0, stream>>>(old, out, lx, ly, e, s, scale);
        break;
    default:
        sweep_rows<1, V, T><<<grid, block, 0, stream>>>(old, out, lx, ly, e, s, scale);
    }
}

template <typename T> static rule_args<T> rule_of(const sweep_launch *l)
{
    const update_rule &u = l->rule;
    rule_args<T> r = {(T)u.cx,
                      (T)u.cy,
                      (T)u.omega,
                      (T)(1.0 - u.omega),
                      (T)update_rule_square_scale(&u),
                      u.anisotropic != 0,
                      u.method != METHOD_JACOBI,
                      u.norm == NORM_RESIDUAL,
                      u.norm == NORM_MAX,
                      l->colour,
                      l->first_colour,
                      (const T *)l->source,
                      l->fixed};
    return r;
}

template <typename T>
static cudaError_t launch_sweep(const sweep_launch *l, cudaStream_t stream)
{
    const edges<T> e = {(const T *)l->west.data,  (const T *)l->east.data,
                        (const T *)l->south.data, (const T *)l->north.data,
                        l->west.stride,           l->east.stride};
    double *s = l->block_sums;
    const T *old = (const T *)l->old;
    T *out = (T *)l->new_;
    const dim3 block(l->shape.block_x, l->shape.block_y),
        grid = grid_of(l->shape, l->lx, l->ly);
    const size_t staged = (size_t)(block.x + 2) * (block.y + 2) * sizeof(T);
    const T scale = (T)update_rule_square_scale(&l->rule);
    switch (l->shape.kernel) {
    case KERNEL_GLOBAL:
        sweep_site<false, T>
            <<<grid, block, 0, stream>>>(old, out, l->lx, l->ly, e, s, scale);
        break;
    case KERNEL_READONLY:
        sweep_site<true, T>
            <<<grid, block, 0, stream>>>(old, out, l->lx, l->ly, e, s, scale);
        break;
    case KERNEL_SHARED:
        sweep_shared<T>
            <<<grid, block, staged, stream>>>(old, out, l->lx, l->ly, e, s, scale);
        break;
    case KERNEL_GENERAL:
        sweep_general<T><<<grid, block, 0, stream>>>((const T *)l->own, old, out, l->lx,
                                                     l->ly, e, rule_of<T>(l), s,
                                                     l->accumulate != 0);
        break;
    default:
        if (l->shape.columns_per_thread == 2)
            launch_rows<2, T>(l->shape, grid, block, stream, old, out, l->lx, l->ly, e, s,
                              scale);
        else
            launch_rows<1, T>(l->shape, grid, block, stream, old, out, l->lx, l->ly, e, s,
                              scale);
    }
    return cudaGetLastError();
}

extern "C" struct sweep_shape laplace_choose_shape(enum kernel_variant kernel,
                                                   int plain_jacobi, int block_x,
                                                   int block_y, long lx, long ly,
                                                   size_t value_size, int multiprocessors,
                                                   int threads_per_multiprocessor)
{
    if (kernel == KERNEL_AUTO)
        kernel = plain_jacobi ? KERNEL_ROWS : KERNEL_GENERAL;
    sweep_shape s = {kernel, block_x, block_y, 1, 1};
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
    for (int rows = 16; rows >= 4; rows /= 2) { /* the instantiated 16, 8, 4; else 1 */
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
    if (rows &&
        (atoi(rows) == 1 || atoi(rows) == 4 || atoi(rows) == 8 || atoi(rows) == 16))
        shape.rows_per_thread = atoi(rows);
    if (columns && (atoi(columns) == 1 || (atoi(columns) == 2 && lx % 2 == 0)))
        shape.columns_per_thread = atoi(columns);
    return shape;
}

extern "C" cudaError_t laplace_sweep(const struct sweep_launch *launch,
                                     cudaStream_t stream)
{
    if (launch->precision == PRECISION_FLOAT)
        return launch_sweep<float>(launch, stream);
    return launch_sweep<double>(launch, stream);
}

template <int R, int V, typename T>
static cudaError_t launch_loop(const sweep_launch *l, void *f0, void *f1, long batch,
                               double *sums, stop_state *state, stop_rule rule,
                               int multiprocessors, cudaStream_t stream)
{
    long gx, gy;
    const long n = laplace_grid(&l->shape, l->lx, l->ly, &gx, &gy);
    const dim3 block(l->shape.block_x, l->shape.block_y);
    int per_sm = 0;
    cudaError_t rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, loop_rows<R, V, T>, (int)(block.x * block.y), 0);
    if (rc != cudaSuccess)
        return rc;
    /* Every block resident at once, as a grid-wide barrier needs. */
    const long resident = (long)per_sm * multiprocessors;
    const dim3 grid((unsigned)(n < resident ? n : resident));
    T *field0 = (T *)f0, *field1 = (T *)f1;
    long lx = l->lx, ly = l->ly;
    T scale = (T)update_rule_square_scale(&l->rule);
    void *args[] = {&field0, &field1, &lx,    &ly,   &gx,   (void *)&n,
                    &batch,  &sums,   &state, &rule, &scale};
    return cudaLaunchCooperativeKernel((const void *)loop_rows<R, V, T>, grid, block,
                                       args, 0, stream);
}

template <typename T>
static cudaError_t launch_loop_of(const sweep_launch *l, void *f0, void *f1, long batch,
                                  double *sums, stop_state *state, stop_rule rule,
                                  int sms, cudaStream_t stream)
{
    const bool pairs = l->shape.columns_per_thread == 2;
    switch (l->shape.rows_per_thread) {
    case 16:
        return pairs ? launch_loop<16, 2, T>(l, f0, f1, batch, sums, state, rule, sms,
                                             stream)
                     : launch_loop<16, 1, T>(l, f0, f1, batch, sums, state, rule, sms,
                                             stream);
    case 8:
        return pairs ? launch_loop<8, 2, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream)
                     : launch_loop<8, 1, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream);
    case 4:
        return pairs ? launch_loop<4, 2, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream)
                     : launch_loop<4, 1, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream);
    default:
        return pairs ? launch_loop<1, 2, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream)
                     : launch_loop<1, 1, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream);
    }
}

extern "C" cudaError_t laplace_loop(const struct sweep_launch *tile, void *field0,
                                    void *field1, long batch, double *sums,
                                    struct stop_state *state, struct stop_rule rule,
                                    int multiprocessors, cudaStream_t stream)
{
    if (tile->precision == PRECISION_FLOAT)
        return launch_loop_of<float>(tile, field0, field1, batch, sums, state, rule,
                                     multiprocessors, stream);
    return launch_loop_of<double>(tile, field0, field1, batch, sums, state, rule,
                                  multiprocessors, stream);
}

extern "C" cudaError_t laplace_reduce(const double *block_sums, long n,
                                      enum norm_kind norm, double *total,
                                      cudaStream_t stream)
{
    if (norm == NORM_MAX)
        reduce_block_sums<true><<<1, BLOCK_SUM_LANES, 0, stream>>>(block_sums, n, total);
    else
        reduce_block_sums<false><<<1, BLOCK_SUM_LANES, 0, stream>>>(block_sums, n, total);
    return cudaGetLastError();
}

/*
 * laplace_kernels.cu - the CUDA sweep kernels and their extern "C" launchers.
 *
 * The lecture's kernel comes first (sweep_site, global): one thread a site computes
 *     new = 0.25 * (((south + west) + east) + north)
 * (update_site in kernels/laplace_sites.cuh). Sites on a tile's edge read the
 * missing neighbour from the neighbouring tile's old field through a peer pointer
 * (or from a halo copy of it; old_at there); a NULL edge is the edge of the whole
 * lattice, where sites keep their boundary value. Then every thread block adds its
 * (new - old)^2 (times the square scale of update_rule.h, 1 unless the data could
 * overflow) in double, in a fixed tree order (warp shuffles), and writes one partial
 * sum (write_block_sum in kernels/laplace_block_sums.cuh): no atomics, so the sums
 * are the same on every run.
 *
 * The faster kernels follow it, each computing the same thing in the same order of
 * additions (their list heads them), then the launchers: three levels, as in
 * ggml's CUDA backend, templated __global__ kernels, a static launcher of the shape
 * the loop plan chose (plan/sweep_shape.c), and the public entry points; templates
 * give float and double from one text.
 */
#include "laplace_kernels.h"

#include <stdlib.h>
#include <string.h>

#include <functional>

#include "kernels/laplace_block_sums.cuh"
#include "kernels/laplace_sites.cuh"

/* Where a launch's blocks lie in the tile's whole grid (block_window.h): this block
 * is block (blockIdx.x + x0, blockIdx.y + y0) of a grid `columns` blocks wide, and
 * writes the partial sum of that place, whichever launch runs it. */
struct block_place {
    long x0, y0, columns;
};

__device__ __forceinline__ long place_x(const block_place &p)
{
    return blockIdx.x + p.x0;
}

__device__ __forceinline__ long place_y(const block_place &p)
{
    return blockIdx.y + p.y0;
}

/* The partial sum's index of place (x, y): row by row of the whole grid. */
__device__ __forceinline__ long sum_index(const block_place &p, long x, long y)
{
    return x + y * p.columns;
}

__device__ __forceinline__ long place_index(const block_place &p)
{
    return sum_index(p, place_x(p), place_y(p));
}

/* A sweep launched to overlap the kernel before it in its stream (launch_kernel) may
 * be placed before that one has ended: it waits here until that one has finished and
 * its writes are visible, so it must come before any read or write of global memory.
 * Where a launch did not ask to overlap, it returns at once. No kernel here lets the
 * next one start earlier (cudaTriggerProgrammaticLaunchCompletion). Measured on an
 * H100, float 2048^2 (results/2026-11-26-overlap, probe-6): no trigger 13.79 us an
 * iteration, a trigger after a block's work 14.26, at its start 14.43, and there
 * bimodal: some runs 10-50% slower than plain launches (run-5). */
__device__ __forceinline__ void follow_previous_sweep()
{
#if __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
}

/* The lecture's kernel (global), and the same through the read-only cache (readonly):
 * one site per thread, one partial sum a block. */
template <bool READONLY, typename T>
__global__ void sweep_site(const T *__restrict__ old, T *__restrict__ out, long lx,
                           long ly, edges<T> e, double *block_sums, T scale,
                           block_place p)
{
    follow_previous_sweep();
    const long x = place_x(p) * blockDim.x + threadIdx.x;
    const long y = place_y(p) * blockDim.y + threadIdx.y;
    write_block_sum(update_site<READONLY>(old, out, e, x, y, lx, ly, scale), block_sums,
                    place_index(p));
}

/* ---- the faster kernels ------------------------------------------------------ */

/*
 * Every variant computes what the lecture's kernel does, in the same order of
 * additions; they differ only in how they load:
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
 * A lone tile's sweeps are launched to overlap the kernel before them (programmatic
 * dependent launch, launch_kernel): the next sweep starts once that kernel's blocks
 * have all ended, while their writes are made visible, and its blocks wait for those
 * writes before they touch global memory (follow_previous_sweep, every sweep's first
 * statement): the host loop's and a batch's chains of sweeps pay less between two.
 *
 * What the kernels share lies in laplace_sites.cuh (the update of a site, the
 * rows kernel's block) and laplace_block_sums.cuh (the partial sums). The device's
 * adding of the block sums (--reduce device) is in laplace_reduce.cu.
 */

/* shared: stage the block's sites and a one-site halo, then compute from there. */
template <typename T>
__global__ void sweep_shared(const T *__restrict__ old, T *__restrict__ out, long lx,
                             long ly, edges<T> e, double *block_sums, T scale,
                             block_place p)
{
    follow_previous_sweep();
    extern __shared__ unsigned char staged_bytes[];
    T *s = reinterpret_cast<T *>(staged_bytes);
    const int w = blockDim.x + 2, sx = threadIdx.x + 1, sy = threadIdx.y + 1;
    const long x = place_x(p) * blockDim.x + threadIdx.x;
    const long y = place_y(p) * blockDim.y + threadIdx.y;
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
    write_block_sum(square, block_sums, place_index(p));
}

/* rows: block (i, j) of the launch takes place (x0 + i, y0 + step j); a backwards
 * launch (step -1, sweeps_alternate) starts at the window's last row of places. */
template <int R, int V, typename T>
__global__ void __launch_bounds__(1024, 2)
    sweep_rows(const T *__restrict__ old, T *__restrict__ out, long lx, long ly,
               edges<T> e, double *block_sums, T scale, block_place p, int step)
{
    follow_previous_sweep();
    const long bx = place_x(p), by = p.y0 + step * (int)blockIdx.y;
    write_block_sum(rows_block<R, V>(old, out, lx, ly, e, bx, by, scale), block_sums,
                    sum_index(p, bx, by));
}

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
    if (!rule_updates(r, i, x + y))
        return 0.0;
    return rule_site(r, old_at<true>(in, e, x, y - 1, lx, ly),
                     old_at<true>(in, e, x - 1, y, lx, ly),
                     old_at<true>(in, e, x + 1, y, lx, ly),
                     old_at<true>(in, e, x, y + 1, lx, ly), i, own[i], out + i);
}

/* The block's total of v into its block sum: set, or combined with the first phase's
 * (first: NULL, or where that phase wrote its sums). */
template <bool MAX>
__device__ static void write_general_sum(double v, double *block_sums,
                                         const double *first, long b)
{
    v = block_total<MAX>(v);
    if (threadIdx.x == 0 && threadIdx.y == 0)
        block_sums[b] = first ? combine<MAX>(first[b], v) : v;
}

template <typename T>
__global__ void sweep_general(const T *own, const T *in, T *out, long lx, long ly,
                              edges<T> e, rule_args<T> r, double *block_sums,
                              const double *first_sums, block_place p)
{
    follow_previous_sweep();
    const long x = place_x(p) * blockDim.x + threadIdx.x;
    const long y = place_y(p) * blockDim.y + threadIdx.y;
    const double v = general_site(own, in, out, lx, ly, e, r, x, y);
    if (!block_sums)
        return;
    if (r.max)
        write_general_sum<true>(v, block_sums, first_sums, place_index(p));
    else
        write_general_sum<false>(v, block_sums, first_sums, place_index(p));
}

/* The blocks a launch runs (its window; every block when the window is empty) and
 * where they lie in the whole grid. */
static dim3 grid_of(const sweep_launch *l, block_place *p)
{
    *p = block_place{0, 0, l->blocks_x};
    if (l->window.columns <= 0 || l->window.rows <= 0)
        return dim3((unsigned)l->blocks_x, (unsigned)l->blocks_y);
    p->x0 = l->window.x0;
    p->y0 = l->window.y0;
    return dim3((unsigned)l->window.columns, (unsigned)l->window.rows);
}

/* Launches kernel(args) on stream: overlapping the kernel before it there where l asks
 * (programmatic dependent launch; the kernel waits for that one in
 * follow_previous_sweep before it touches global memory), else plainly. */
template <typename... Params, typename... Args>
static cudaError_t launch_kernel(const sweep_launch *l, void (*kernel)(Params...),
                                 dim3 grid, dim3 block, size_t shared,
                                 cudaStream_t stream, Args... args)
{
    cudaLaunchAttribute overlap = {};
    overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    overlap.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared;
    config.stream = stream;
    config.attrs = &overlap;
    config.numAttrs = l->overlap ? 1 : 0;
    return cudaLaunchKernelEx(&config, kernel, args...);
}

/* The rows kernel's launch. Where its shape alternates, every other sweep runs
 * backwards (the one writing the field at the lower address): its first row of blocks
 * takes the window's last row of places, and each next row the row below. */
template <int V, typename T>
static cudaError_t launch_rows(const sweep_launch *l, dim3 grid, dim3 block,
                               cudaStream_t stream, const T *old, T *out, long lx,
                               long ly, const edges<T> &e, double *s, T scale,
                               block_place p)
{
    const sweep_shape &sh = l->shape;
    int step = 1; /* std::less: an order even between two allocations */
    if (sh.alternate && std::less<const T *>()(out, old)) {
        p.y0 += grid.y - 1;
        step = -1;
    }
    void (*kernel)(const T *, T *, long, long, edges<T>, double *, T, block_place, int) =
        sh.rows_per_thread == 16  ? sweep_rows<16, V, T>
        : sh.rows_per_thread == 8 ? sweep_rows<8, V, T>
        : sh.rows_per_thread == 4 ? sweep_rows<4, V, T>
                                  : sweep_rows<1, V, T>;
    return launch_kernel(l, kernel, grid, block, 0, stream, old, out, lx, ly, e, s, scale,
                         p, step);
}

/* Queues the launch's kernel; returns what its launch returned. */
template <typename T>
static cudaError_t queue_sweep(const sweep_launch *l, cudaStream_t stream)
{
    const edges<T> e = {(const T *)l->west.data,  (const T *)l->east.data,
                        (const T *)l->south.data, (const T *)l->north.data,
                        l->west.stride,           l->east.stride};
    double *s = l->block_sums;
    const T *old = (const T *)l->old;
    T *out = (T *)l->new_;
    block_place p;
    const dim3 block(l->shape.block_x, l->shape.block_y), grid = grid_of(l, &p);
    const size_t staged = (size_t)(block.x + 2) * (block.y + 2) * sizeof(T);
    const T scale = (T)update_rule_square_scale(&l->update_rule);
    switch (l->shape.kernel) {
    case KERNEL_GLOBAL:
        return launch_kernel(l, sweep_site<false, T>, grid, block, 0, stream, old, out,
                             l->lx, l->ly, e, s, scale, p);
    case KERNEL_READONLY:
        return launch_kernel(l, sweep_site<true, T>, grid, block, 0, stream, old, out,
                             l->lx, l->ly, e, s, scale, p);
    case KERNEL_SHARED:
        return launch_kernel(l, sweep_shared<T>, grid, block, staged, stream, old, out,
                             l->lx, l->ly, e, s, scale, p);
    case KERNEL_GENERAL:
        return launch_kernel(l, sweep_general<T>, grid, block, 0, stream,
                             (const T *)l->own, old, out, l->lx, l->ly, e, rule_of<T>(l),
                             s, l->first_sums, p);
    default:
        if (l->shape.columns_per_thread == 2)
            return launch_rows<2, T>(l, grid, block, stream, old, out, l->lx, l->ly, e, s,
                                     scale, p);
        return launch_rows<1, T>(l, grid, block, stream, old, out, l->lx, l->ly, e, s,
                                 scale, p);
    }
}

/* Queues the launch's kernel; its launch's error, else any error left before it. */
template <typename T>
static cudaError_t launch_sweep(const sweep_launch *l, cudaStream_t stream)
{
    const cudaError_t queued = queue_sweep<T>(l, stream);
    const cudaError_t last = cudaGetLastError(); /* and clears the launch's error */
    return queued != cudaSuccess ? queued : last;
}

/* Measured on an H100, the norm every iteration, us an iteration, medians of 5, plain ->
 * overlapping (results/2026-11-26-overlap, probe-6): float 2048^2 15.07 -> 13.79, 4096^2
 * 51.39 -> 50.10, double 2048^2 27.35 -> 26.01, double 2048^2 --kernel global 50.28 ->
 * 48.75. */
extern "C" cudaError_t laplace_kernels_can_overlap(int *can)
{
    cudaFuncAttributes f;
    const cudaError_t rc = cudaFuncGetAttributes(&f, sweep_rows<4, 2, float>);
    /* built for compute 9.0 or more: follow_previous_sweep waits */
    *can = rc == cudaSuccess && f.ptxVersion >= 90;
    return rc;
}

extern "C" cudaError_t laplace_kernels_sweep(const struct sweep_launch *launch,
                                             cudaStream_t stream)
{
    if (launch->precision == PRECISION_FLOAT)
        return launch_sweep<float>(launch, stream);
    return launch_sweep<double>(launch, stream);
}

/* The column `column` of a field lx values wide and ly high, one value a thread,
 * into out: the edge another rank reads, contiguous for one copy to the host. */
template <typename W>
__global__ void pack_column(const W *__restrict__ field, long lx, long ly, long column,
                            W *__restrict__ out)
{
    const long y = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (y < ly)
        out[y] = field[column + y * lx];
}

extern "C" cudaError_t laplace_kernels_pack_column(const void *field, long lx, long ly,
                                                   long column, size_t elem, void *out,
                                                   cudaStream_t stream)
{
    const unsigned threads = 256, blocks = (unsigned)((ly + threads - 1) / threads);
    if (elem == 8)
        pack_column<unsigned long long><<<blocks, threads, 0, stream>>>(
            (const unsigned long long *)field, lx, ly, column, (unsigned long long *)out);
    else
        pack_column<unsigned><<<blocks, threads, 0, stream>>>(
            (const unsigned *)field, lx, ly, column, (unsigned *)out);
    return cudaGetLastError();
}

/*
 * laplace_kernels.cu - the CUDA sweep kernels and their extern "C" launcher.
 *
 * Three levels, as in ggml's CUDA backend: a templated __global__ kernel per
 * variant, a static launcher that picks the launch shape, and the one public
 * entry point laplace_sweep(). Templates give float and double from one text.
 *
 * A thread updates one site of its tile. Sites on a tile's edge read the
 * missing neighbour from the neighbouring tile's old field through a peer
 * pointer (or from a halo copy of it); a NULL edge is the edge of the whole
 * lattice, where sites keep their boundary value. Then every thread block adds
 * its (new - old)^2 in double, in a fixed tree order (warp shuffles), and
 * writes one partial sum: no atomics, so the sum is the same on every run.
 */
#include "laplace_kernels.h"

template <typename T> struct edges {
    const T *west, *east, *south, *north;
    long west_stride, east_stride;
};

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

/* The lecture's kernel: one site per thread, every load from global memory. */
template <typename T>
__global__ void sweep_global(const T *__restrict__ old, T *__restrict__ out, long lx, long ly,
                             edges<T> e, double *block_sums)
{
    const long x = blockIdx.x * (long)blockDim.x + threadIdx.x;
    const long y = blockIdx.y * (long)blockDim.y + threadIdx.y;
    double square = 0.0;
    if (x < lx && y < ly) {
        const bool fixed = (x == 0 && !e.west) || (x == lx - 1 && !e.east) ||
                           (y == 0 && !e.south) || (y == ly - 1 && !e.north);
        if (!fixed) {
            const long i = x + y * lx;
            const T south = y > 0 ? old[i - lx] : e.south[x];
            const T west = x > 0 ? old[i - 1] : e.west[y * e.west_stride];
            const T east = x < lx - 1 ? old[i + 1] : e.east[y * e.east_stride];
            const T north = y < ly - 1 ? old[i + lx] : e.north[x];
            const T v = T(0.25) * (((south + west) + east) + north);
            const T d = v - old[i];
            out[i] = v;
            square = (double)(d * d);
        }
    }
    if (block_sums)
        write_block_sum(square, block_sums);
}

template <typename T>
static cudaError_t launch_sweep(const sweep_launch *l, cudaStream_t stream)
{
    edges<T> e = {(const T *)l->west.data, (const T *)l->east.data, (const T *)l->south.data,
                  (const T *)l->north.data, l->west.stride, l->east.stride};
    const dim3 block(l->block_x, l->block_y);
    const dim3 grid((unsigned)((l->lx + block.x - 1) / block.x),
                    (unsigned)((l->ly + block.y - 1) / block.y));
    sweep_global<T><<<grid, block, 0, stream>>>((const T *)l->old, (T *)l->new_, l->lx, l->ly,
                                                e, l->block_sums);
    return cudaGetLastError();
}

extern "C" cudaError_t laplace_sweep(const struct sweep_launch *launch, cudaStream_t stream)
{
    if (launch->precision == PRECISION_FLOAT)
        return launch_sweep<float>(launch, stream);
    return launch_sweep<double>(launch, stream);
}

/*
 * laplace_probe.cu - empty loops that meet every iteration the way a loop resident on
 * the GPU would (laplace_probe.h): their time per iteration is the floor of the
 * mechanism, below which no resident loop built on it can go.
 */
#include "kernels/laplace_probe.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define PROBE_THREADS 1024

/* Every iteration, every block of the grid meets at grid.sync(). */
__global__ void __launch_bounds__(PROBE_THREADS, 1)
    grid_sync_loop(long iterations, float *out)
{
    cg::grid_group grid = cg::this_grid();
    float acc = 0.0f;
    for (long k = 0; k < iterations; k++) {
        acc += (float)k;
        grid.sync();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

/* Every iteration, the blocks of the cluster meet at cluster.sync() and each reads
 * the value its neighbour wrote into its shared memory (double-buffered: the value
 * of iteration k + 1 goes where k - 1's was, read before the barrier of k). */
__global__ void __launch_bounds__(PROBE_THREADS, 1)
    cluster_sync_loop(long iterations, float *out)
{
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ float edge[2];
    const unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
    float acc = 0.0f;
    for (long k = 0; k < iterations; k++) {
        if (threadIdx.x == 0)
            edge[k & 1] = acc + (float)k;
        cluster.sync();
        if (threadIdx.x == 0)
            acc += cluster.map_shared_rank(edge, (rank + 1) % blocks)[k & 1];
    }
    cluster.sync(); /* no block leaves while another may read its shared memory */
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

static cudaError_t launch_grid_sync(long iterations, float *out, int *blocks,
                                    cudaStream_t stream)
{
    int device = 0, sms = 0, per_sm = 0;
    cudaError_t rc = cudaGetDevice(&device);
    if (rc == cudaSuccess)
        rc = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (rc == cudaSuccess)
        rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sync_loop,
                                                           PROBE_THREADS, 0);
    if (rc != cudaSuccess)
        return rc;
    if (per_sm < 1)
        return cudaErrorCooperativeLaunchTooLarge;
    *blocks = sms; /* one block of PROBE_THREADS a multiprocessor, all resident */
    void *args[] = {&iterations, &out};
    return cudaLaunchCooperativeKernel((const void *)grid_sync_loop, dim3(*blocks),
                                       dim3(PROBE_THREADS), args, 0, stream);
}

/* One cluster of `blocks` blocks (16 needs the non-portable size allowed). */
static cudaError_t launch_cluster(int blocks, long iterations, float *out,
                                  cudaStream_t stream)
{
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeClusterDimension;
    attribute[0].val.clusterDim.x = (unsigned)blocks;
    attribute[0].val.clusterDim.y = 1;
    attribute[0].val.clusterDim.z = 1;
    config.gridDim = dim3((unsigned)blocks);
    config.blockDim = dim3(PROBE_THREADS);
    config.stream = stream;
    config.attrs = attribute;
    config.numAttrs = 1;
    cudaError_t rc = cudaFuncSetAttribute(
        cluster_sync_loop, cudaFuncAttributeNonPortableClusterSizeAllowed, blocks > 8);
    if (rc != cudaSuccess)
        return rc;
    return cudaLaunchKernelEx(&config, cluster_sync_loop, iterations, out);
}

static cudaError_t launch_cluster_sync(long iterations, float *out, int *blocks,
                                       cudaStream_t stream)
{
    *blocks = 16;
    cudaError_t rc = launch_cluster(16, iterations, out, stream);
    if (rc == cudaSuccess)
        return rc;
    cudaGetLastError(); /* 16 refused: the portable 8 */
    *blocks = 8;
    return launch_cluster(8, iterations, out, stream);
}

static cudaError_t timed(enum laplace_probe_kind kind, long iterations, float *out,
                         double *us, int *blocks, cudaStream_t stream, cudaEvent_t start,
                         cudaEvent_t stop)
{
    float ms = 0.0f;
    cudaError_t rc = cudaEventRecord(start, stream);
    if (rc == cudaSuccess)
        rc = kind == LAPLACE_PROBE_GRID_SYNC
                 ? launch_grid_sync(iterations, out, blocks, stream)
                 : launch_cluster_sync(iterations, out, blocks, stream);
    if (rc == cudaSuccess)
        rc = cudaEventRecord(stop, stream);
    if (rc == cudaSuccess)
        rc = cudaEventSynchronize(stop);
    if (rc == cudaSuccess)
        rc = cudaEventElapsedTime(&ms, start, stop);
    *us = 1e3 * (double)ms / (double)iterations;
    return rc;
}

extern "C" cudaError_t laplace_probe_sync_us(enum laplace_probe_kind kind,
                                             long iterations, double *us, int *blocks)
{
    float *out = NULL;
    cudaStream_t stream = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    cudaError_t rc = cudaMalloc(&out, 1024 * sizeof(float));
    if (rc == cudaSuccess)
        rc = cudaStreamCreate(&stream);
    if (rc == cudaSuccess)
        rc = cudaEventCreate(&start);
    if (rc == cudaSuccess)
        rc = cudaEventCreate(&stop);
    if (rc == cudaSuccess)
        rc = timed(kind, iterations, out, us, blocks, stream, start, stop);
    /* freed whatever happened; the first error is the one returned */
    cudaError_t freed[] = {stop ? cudaEventDestroy(stop) : cudaSuccess,
                           start ? cudaEventDestroy(start) : cudaSuccess,
                           stream ? cudaStreamDestroy(stream) : cudaSuccess,
                           cudaFree(out)};
    for (int i = 0; i < 4 && rc == cudaSuccess; i++)
        rc = freed[i];
    return rc;
}

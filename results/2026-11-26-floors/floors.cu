/*
 * floors.cu - the floor of each mechanism the loops on chip meet by, measured with
 * empty loops (no sweep): what one iteration costs at least when it
 *   block    the block's own meeting: 512 threads each add a double over their warp
 *            (the spread loop's warp_total), meet at a barrier, warp 0 adds the warps'
 *            sums (every block alone, one a multiprocessor);
 *   neighbour a word to each neighbour block through L2, tagged, and waits for theirs
 *            (the spread loop's halo trip with one word; B blocks, cooperative);
 *   row      the same with a whole row of lx words a block (every sweeper one column);
 *   gather   every block publishes a tagged double and one warp of every block waits
 *            for all B (the spread loop's decision, with no lag);
 *   cluster  cluster.sync() of B blocks of 512 threads after each warp sends its sum
 *            to every block (the loop on chip's iteration, with no sweep).
 * Built by hand for sm_90 (nvcc -O3 -std=c++17 -arch=sm_90 floors.cu -o floors);
 * every call checked. Prints one line a mechanism: us an iteration, median of 5 timed
 * launches after one warm-up.
 */
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace cg = cooperative_groups;
typedef unsigned long long word;

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t rc_ = (call);                                                        \
        if (rc_ != cudaSuccess) {                                                        \
            fprintf(stderr, "floors: %s: %s\n", #call, cudaGetErrorString(rc_));       \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

__device__ __forceinline__ void store_word(word *w, word v)
{
    cuda::atomic_ref<word, cuda::thread_scope_device>(*w).store(v,
                                                                cuda::memory_order_relaxed);
}
__device__ __forceinline__ word load_word(word *w)
{
    return cuda::atomic_ref<word, cuda::thread_scope_device>(*w).load(
        cuda::memory_order_relaxed);
}
__device__ __forceinline__ double warp_total(double v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}
__device__ __forceinline__ void meet(int threads)
{
    __syncwarp();
    asm volatile("barrier.sync 1, %0;" ::"r"(threads) : "memory");
}

/* block: 512 threads, a warp total, a barrier, warp 0's total; no other block. */
__global__ void __launch_bounds__(544, 1) block_loop(long n, double *out)
{
    __shared__ double sums[2][16];
    double v = threadIdx.x * 1e-3, acc = 0.0;
    if (threadIdx.x >= 512)
        return;
    for (long k = 0; k < n; k++) {
        const double t = warp_total(v + k);
        if ((threadIdx.x & 31) == 0)
            sums[k & 1][threadIdx.x / 32] = t;
        meet(512);
        if (threadIdx.x < 32)
            acc += warp_total(threadIdx.x < 16 ? sums[k & 1][threadIdx.x] : 0.0);
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

/* neighbour / row: block b publishes `width` words tagged k, waits for b - 1's and
 * b + 1's (all their loads out at once), then its threads meet. */
__global__ void __launch_bounds__(544, 1)
    exchange_loop(long n, int width, word *rows, double *out)
{
    const int b = blockIdx.x, B = gridDim.x, x = threadIdx.x;
    double acc = 0.0;
    if (x >= 512)
        return;
    for (long k = 0; k < n; k++) {
        const word tag = (word)(k + 1) << 32;
        word *mine = rows + ((k & 1) * B + b) * (long)width;
        for (int i = x; i < width; i += 512)
            store_word(mine + i, tag | (unsigned)i);
        for (int i = x; i < width; i += 512) {
            word *lo = b > 0 ? rows + ((k & 1) * B + b - 1) * (long)width + i : NULL;
            word *hi = b + 1 < B ? rows + ((k & 1) * B + b + 1) * (long)width + i : NULL;
            word wl, wh;
            do {
                wl = lo ? load_word(lo) : tag;
                wh = hi ? load_word(hi) : tag;
            } while ((wl >> 32) != (tag >> 32) || (wh >> 32) != (tag >> 32));
            acc += (double)(unsigned)wl + (double)(unsigned)wh;
        }
        meet(512);
    }
    if (x == 0)
        out[b] = acc;
}

/* gather: thread 0 of block b publishes its double tagged k (two words); warp 0 then
 * takes every block's (lane l blocks l, l + 32, ...), adds them, and the block meets. */
__global__ void __launch_bounds__(544, 1) gather_loop(long n, word *sums, double *out)
{
    const int b = blockIdx.x, B = gridDim.x, lane = threadIdx.x & 31;
    double acc = 0.0;
    if (threadIdx.x >= 512)
        return;
    for (long k = 0; k < n; k++) {
        const word tag = (word)(k + 1) << 32;
        word *slot = sums + (k % 16) * B * 2;
        if (threadIdx.x == 0) {
            store_word(slot + 2 * b, tag | 1u);
            store_word(slot + 2 * b + 1, tag | 2u);
        }
        if (threadIdx.x < 32) {
            double t = 0.0;
            for (int i = lane; i < B; i += 32) {
                word w0, w1;
                do {
                    w0 = load_word(slot + 2 * i);
                    w1 = load_word(slot + 2 * i + 1);
                } while ((w0 >> 32) != (tag >> 32) || (w1 >> 32) != (tag >> 32));
                t += (double)(unsigned)w0 + (double)(unsigned)w1;
            }
            acc += warp_total(t);
        }
        meet(512);
    }
    if (threadIdx.x == 0)
        out[b] = acc;
}

/* cluster: each warp sends its sum to every block's shared memory, cluster.sync(),
 * warp 0 adds what it received. */
__global__ void __launch_bounds__(512, 1) cluster_loop(long n, double *out)
{
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ double sums[2][16][16];
    const unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
    const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    double acc = 0.0;
    for (long k = 0; k < n; k++) {
        const double v = __shfl_sync(0xffffffffu, warp_total(threadIdx.x * 1e-3 + k), 0);
        if ((unsigned)lane < blocks)
            cluster.map_shared_rank(&sums[k & 1][rank][warp], (unsigned)lane)[0] = v;
        cluster.sync();
        if (warp == 0) {
            double t = 0.0;
            if (lane < 16)
                for (unsigned c = 0; c < blocks; c++)
                    t += sums[k & 1][c][lane];
            acc += warp_total(t);
        }
    }
    cluster.sync();
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

static word *meeting;
static double *out;

static void launch(const char *what, int blocks, int width, long n, cudaStream_t s)
{
    if (!strcmp(what, "block")) {
        block_loop<<<blocks, 544, 0, s>>>(n, out);
        CHECK(cudaGetLastError());
        return;
    }
    if (!strcmp(what, "cluster")) {
        cudaLaunchConfig_t config = {};
        cudaLaunchAttribute attribute;
        attribute.id = cudaLaunchAttributeClusterDimension;
        attribute.val.clusterDim.x = (unsigned)blocks;
        attribute.val.clusterDim.y = 1;
        attribute.val.clusterDim.z = 1;
        config.gridDim = dim3((unsigned)blocks);
        config.blockDim = dim3(512);
        config.stream = s;
        config.attrs = &attribute;
        config.numAttrs = 1;
        CHECK(cudaFuncSetAttribute(cluster_loop,
                                   cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
        CHECK(cudaLaunchKernelEx(&config, cluster_loop, n, out));
        CHECK(cudaGetLastError());
        return;
    }
    CHECK(cudaMemsetAsync(meeting, 0, 64 << 20, s));
    void *args_x[] = {&n, &width, &meeting, &out};
    void *args_g[] = {&n, &meeting, &out};
    const bool gather = !strcmp(what, "gather");
    CHECK(cudaLaunchCooperativeKernel(gather ? (const void *)gather_loop
                                             : (const void *)exchange_loop,
                                      dim3(blocks), dim3(544), gather ? args_g : args_x,
                                      0, s));
    CHECK(cudaGetLastError());
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void measure(const char *what, int blocks, int width)
{
    const long n = 20000;
    cudaStream_t s;
    cudaEvent_t start, stop;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    launch(what, blocks, width, 1000, s);
    CHECK(cudaStreamSynchronize(s));
    double us[5];
    for (int r = 0; r < 5; r++) {
        if (strcmp(what, "block") && strcmp(what, "cluster"))
            CHECK(cudaMemsetAsync(meeting, 0, 64 << 20, s));
        CHECK(cudaEventRecord(start, s));
        launch(what, blocks, width, n, s);
        CHECK(cudaEventRecord(stop, s));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        us[r] = 1e3 * ms / n;
    }
    qsort(us, 5, sizeof us[0], by_value);
    printf("%-9s blocks %3d width %4d: %.3f us an iteration (min %.3f max %.3f)\n", what,
           blocks, width, us[2], us[0], us[4]);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaStreamDestroy(s));
}

int main(void)
{
    CHECK(cudaMalloc(&meeting, 64 << 20));
    CHECK(cudaMalloc(&out, 1024 * sizeof(double)));
    measure("block", 132, 0);
    for (int blocks : {2, 64, 132}) {
        measure("neighbour", blocks, 1);
        measure("row", blocks, 512);
        measure("row", blocks, 1024);
        measure("gather", blocks, 0);
    }
    for (int blocks : {2, 4, 8, 16})
        measure("cluster", blocks, 0);
    CHECK(cudaFree(meeting));
    CHECK(cudaFree(out));
    return 0;
}

/*
 * overlap_floor.cu - the floor of a chain of dependent kernels in a CUDA graph, with
 * and without programmatic dependent launch (each kernel waits for the one before it
 * with cudaGridDependencySynchronize, and lets the next launch once all its blocks have
 * started). Empty kernels and a copy of n floats (a Jacobi sweep's bytes without its
 * arithmetic), us a kernel, medians of 5 launches of a graph of 200.
 * Build: nvcc -O3 -arch=sm_90 -o overlap_floor overlap_floor.cu
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                          \
    do {                                                                                  \
        cudaError_t rc_ = (x);                                                            \
        if (rc_ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(rc_)); \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

__global__ void empty(float *, const float *, long) {}

__global__ void empty_follow(float *, const float *, long)
{
    cudaTriggerProgrammaticLaunchCompletion();
    cudaGridDependencySynchronize();
}

template <bool FOLLOW> __global__ void copy(float *out, const float *in, long n)
{
    if (FOLLOW) {
        cudaTriggerProgrammaticLaunchCompletion();
        cudaGridDependencySynchronize();
    }
    const long i = (blockIdx.x * (long)blockDim.x + threadIdx.x) * 4;
    if (i + 3 < n)
        *(float4 *)(out + i) = *(const float4 *)(in + i);
}

static float chain_us(void (*kernel)(float *, const float *, long), bool overlap, long n,
                      float *a, float *b, cudaStream_t s)
{
    const int kernels = 200;
    const unsigned blocks = (unsigned)((n / 4 + 255) / 256);
    cudaLaunchAttribute attr = {};
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t c = {};
    c.gridDim = dim3(blocks);
    c.blockDim = dim3(256);
    c.stream = s;
    c.attrs = &attr;
    c.numAttrs = overlap ? 1 : 0;
    cudaGraph_t g;
    cudaGraphExec_t e;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (int k = 0; k < kernels; k++)
        CHECK(cudaLaunchKernelEx(&c, kernel, k % 2 ? a : b, k % 2 ? b : a, n));
    CHECK(cudaStreamEndCapture(s, &g));
    CHECK(cudaGraphInstantiate(&e, g, 0));
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    std::vector<float> us;
    for (int r = 0; r < 6; r++) {
        CHECK(cudaEventRecord(t0, s));
        CHECK(cudaGraphLaunch(e, s));
        CHECK(cudaEventRecord(t1, s));
        CHECK(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        if (r > 0) /* the first warms up */
            us.push_back(1e3f * ms / kernels);
    }
    std::sort(us.begin(), us.end());
    CHECK(cudaGraphExecDestroy(e));
    CHECK(cudaGraphDestroy(g));
    return us[us.size() / 2];
}

int main()
{
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const long most = 4096L * 4096L;
    float *a, *b;
    CHECK(cudaMalloc(&a, most * sizeof(float)));
    CHECK(cudaMalloc(&b, most * sizeof(float)));
    CHECK(cudaMemset(a, 0, most * sizeof(float)));
    CHECK(cudaMemset(b, 0, most * sizeof(float)));
    printf("%-10s %10s %10s %10s %10s\n", "n", "empty", "empty-pdl", "copy", "copy-pdl");
    for (long side : {512L, 1024L, 2048L, 4096L}) {
        const long n = side * side;
        printf("%-10ld %10.2f %10.2f %10.2f %10.2f\n", side,
               chain_us(empty, false, n, a, b, s), chain_us(empty_follow, true, n, a, b, s),
               chain_us(copy<false>, false, n, a, b, s),
               chain_us(copy<true>, true, n, a, b, s));
    }
    return 0;
}

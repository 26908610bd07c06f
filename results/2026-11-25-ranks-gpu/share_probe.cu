/*
 * share_probe.cu - the floor of two processes sharing one GPU (issue 25): each
 * process runs `iterations` of { a kernel that copies `values` floats (or an empty
 * kernel, values 0), then waits for it }, and prints its microseconds an iteration.
 * Run one copy with the whole lattice's values, then two copies at once with half
 * each: the second's time against the first's is what time-sharing leaves of the GPU,
 * whatever laplace does. Built: nvcc -O3 -arch=sm_90 -o share_probe share_probe.cu
 *   share_probe VALUES ITERATIONS [EDGE_SYNCS]
 * EDGE_SYNCS > 0 adds, every iteration, that many tiny device-to-host copies each
 * followed by a stream synchronisation (what an exchange of edges through the host does).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                    \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "share_probe: %s: %s\n", #call, cudaGetErrorString(e_));   \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

__global__ void copy(const float *in, float *out, long n)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
         i += (long)gridDim.x * blockDim.x)
        out[i] = in[i] * 0.25f;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: share_probe VALUES ITERATIONS [EDGE_SYNCS]\n");
        return 2;
    }
    long n = atol(argv[1]), iterations = atol(argv[2]);
    int syncs = argc > 3 ? atoi(argv[3]) : 0;
    float *a, *b, *h;
    long room = n > 1024 ? n : 1024; /* an edge copy reads 4096 bytes */
    CHECK(cudaMalloc(&a, room * sizeof(float)));
    CHECK(cudaMalloc(&b, room * sizeof(float)));
    CHECK(cudaMemset(a, 0, room * sizeof(float)));
    CHECK(cudaMallocHost(&h, 4096));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    for (long k = 0; k < 50 + iterations; k++) {
        static double start;
        if (k == 50)
            start = now();
        copy<<<n ? 4 * sms : 1, n ? 1024 : 32, 0, s>>>(a, b, n);
        CHECK(cudaGetLastError());
        for (int e = 0; e < syncs; e++) {
            CHECK(cudaMemcpyAsync(h, b, 4096, cudaMemcpyDeviceToHost, s));
            CHECK(cudaStreamSynchronize(s));
        }
        CHECK(cudaStreamSynchronize(s));
        float *t = a; a = b; b = t;
        if (k == 50 + iterations - 1)
            printf("values %ld iterations %ld syncs %d: %.2f us an iteration\n", n,
                   iterations, syncs, 1e6 * (now() - start) / iterations);
    }
    return 0;
}

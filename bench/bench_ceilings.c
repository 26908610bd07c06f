/*
 * bench_ceilings.c - the ceilings of laplace --bench: a 1 GiB device-to-device
 * copy per GPU (bytes read + written), a peer copy from the first GPU to each
 * other one (bytes copied once), and the host's parallel copy on every core.
 * Each is the median of CEILING_REPEATS timed repetitions after
 * CEILING_WARMUPS untimed ones; GPU copies are timed with CUDA events.
 */
#include "bench_ceilings.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "bench_stats.h"
#include "support/error.h"
#include "p2p.h"

#ifdef HAVE_CUDA
#include <cuda_runtime_api.h>

#include "kernels/laplace_probe.h"
#endif

#define MIB ((size_t)1 << 20)
#define WARMUPS CEILING_WARMUPS
#define REPEATS CEILING_REPEATS

/* The median seconds of a copy of count doubles on threads threads. */
static double host_copy_s(double *dst, const double *src, long count, int threads)
{
    double t[REPEATS];
    for (int r = -WARMUPS; r < REPEATS; r++) {
        double start = omp_get_wtime();
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long i = 0; i < count; i++)
            dst[i] = src[i];
        if (r >= 0)
            t[r] = omp_get_wtime() - start;
    }
    return bench_stats_median(t, REPEATS);
}

/* The host memory bandwidth: two arrays first touched by the threads that will
 * copy them (each page near its thread), copied on every core; read + written. */
int bench_ceilings_measure_host(struct bench_ceilings *c, size_t bytes, char *err,
                                size_t n)
{
    long count = (long)(bytes / sizeof(double));
    double *src = malloc(bytes), *dst = malloc(bytes);
    int threads = omp_get_num_procs();
    if (!src || !dst) {
        free(src);
        free(dst);
        return error_set(err, n, "out of host memory for the host copy (2 x %zu MiB)",
                         bytes / MIB);
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long i = 0; i < count; i++) {
        src[i] = (double)i;
        dst[i] = 0.0;
    }
    c->host_gbps = 2.0 * (double)bytes / host_copy_s(dst, src, count, threads) * 1e-9;
    c->host_threads = threads;
    c->host_bytes = bytes;
    free(src);
    free(dst);
    return 0;
}

#ifdef HAVE_CUDA
/* 0 when rc is cudaSuccess; else -1 and "call on GPU d: why" in err (unless NULL). */
static int cuda_check(cudaError_t rc, const char *call, int device, char *err, size_t n)
{
    if (rc == cudaSuccess)
        return 0;
    if (err)
        snprintf(err, n, "%s on GPU %d: %s", call, device, cudaGetErrorString(rc));
    cudaGetLastError(); /* cleared, so that a later call does not report it again */
    return -1;
}

/* A timed copy of bytes from one GPU to another, or within one (src == dst). */
struct gpu_copy {
    int src, dst; /* device ids */
    size_t bytes;
    void *src_d, *dst_d;
    cudaStream_t stream; /* the stream, events and current device are src's */
    cudaEvent_t start, stop;
};

static int gpu_copy_open(struct gpu_copy *g, char *err, size_t n)
{
    int s = g->src, d = g->dst;
    if (cuda_check(cudaSetDevice(d), "cudaSetDevice", d, err, n) ||
        cuda_check(cudaMalloc(&g->dst_d, g->bytes), "cudaMalloc", d, err, n) ||
        cuda_check(cudaMemset(g->dst_d, 0, g->bytes), "cudaMemset", d, err, n) ||
        cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", d, err, n) ||
        cuda_check(cudaSetDevice(s), "cudaSetDevice", s, err, n) ||
        cuda_check(cudaMalloc(&g->src_d, g->bytes), "cudaMalloc", s, err, n) ||
        cuda_check(cudaMemset(g->src_d, 1, g->bytes), "cudaMemset", s, err, n) ||
        cuda_check(cudaStreamCreate(&g->stream), "cudaStreamCreate", s, err, n) ||
        cuda_check(cudaEventCreate(&g->start), "cudaEventCreate", s, err, n) ||
        cuda_check(cudaEventCreate(&g->stop), "cudaEventCreate", s, err, n) ||
        cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", s, err, n))
        return -1;
    return 0;
}

/* Frees what gpu_copy_open made, after a failure too; 0, or -1 with err set. */
static int gpu_copy_close(struct gpu_copy *g, char *err, size_t n)
{
    int s = g->src, d = g->dst, failed = 0;
    failed |= cuda_check(cudaSetDevice(s), "cudaSetDevice", s, err, n);
    if (g->stop)
        failed |= cuda_check(cudaEventDestroy(g->stop), "cudaEventDestroy", s, err, n);
    if (g->start)
        failed |= cuda_check(cudaEventDestroy(g->start), "cudaEventDestroy", s, err, n);
    if (g->stream)
        failed |=
            cuda_check(cudaStreamDestroy(g->stream), "cudaStreamDestroy", s, err, n);
    failed |= cuda_check(cudaFree(g->src_d), "cudaFree", s, err, n);
    failed |= cuda_check(cudaSetDevice(d), "cudaSetDevice", d, err, n);
    failed |= cuda_check(cudaFree(g->dst_d), "cudaFree", d, err, n);
    return failed ? -1 : 0;
}

static cudaError_t gpu_copy_start(const struct gpu_copy *g)
{
    if (g->src == g->dst)
        return cudaMemcpyAsync(g->dst_d, g->src_d, g->bytes, cudaMemcpyDeviceToDevice,
                               g->stream);
    return cudaMemcpyPeerAsync(g->dst_d, g->dst, g->src_d, g->src, g->bytes, g->stream);
}

/* The median seconds of one copy, each timed by two events around it. */
static int gpu_copy_time(struct gpu_copy *g, double *seconds, char *err, size_t n)
{
    int s = g->src;
    const char *copy = g->src == g->dst ? "cudaMemcpyAsync" : "cudaMemcpyPeerAsync";
    double t[REPEATS];
    for (int r = -WARMUPS; r < REPEATS; r++) {
        float ms = 0.0f;
        if (cuda_check(cudaEventRecord(g->start, g->stream), "cudaEventRecord", s, err,
                       n) ||
            cuda_check(gpu_copy_start(g), copy, s, err, n) ||
            cuda_check(cudaEventRecord(g->stop, g->stream), "cudaEventRecord", s, err,
                       n) ||
            cuda_check(cudaEventSynchronize(g->stop), "cudaEventSynchronize", s, err,
                       n) ||
            cuda_check(cudaEventElapsedTime(&ms, g->start, g->stop),
                       "cudaEventElapsedTime", s, err, n))
            return -1;
        if (r >= 0)
            t[r] = ms * 1e-3;
    }
    *seconds = bench_stats_median(t, REPEATS);
    return 0;
}

/* Allocates, times and frees one copy; its median seconds in *seconds. */
static int gpu_copy_measure(int src, int dst, size_t bytes, double *seconds, char *err,
                            size_t n)
{
    struct gpu_copy g = {.src = src, .dst = dst, .bytes = bytes};
    int rc = gpu_copy_open(&g, err, n);
    if (rc == 0)
        rc = gpu_copy_time(&g, seconds, err, n);
    if (gpu_copy_close(&g, rc == 0 ? err : NULL, n) != 0)
        rc = -1;
    return rc;
}

/* Iterations of a probe's empty loop: long enough that its one launch is noise. */
#define PROBE_ITERATIONS 20000

/* The median microseconds per iteration of a probe's empty loop on device. */
static int probe_measure(int device, enum laplace_probe_kind kind, double *us,
                         int *blocks, char *err, size_t n)
{
    double t[REPEATS];
    if (cuda_check(cudaSetDevice(device), "cudaSetDevice", device, err, n))
        return -1;
    for (int r = -WARMUPS; r < REPEATS; r++) {
        double one = 0.0;
        if (cuda_check(laplace_probe_sync_us(kind, PROBE_ITERATIONS, &one, blocks),
                       kind == LAPLACE_PROBE_GRID_SYNC ? "the grid.sync probe"
                                                       : "the cluster.sync probe",
                       device, err, n))
            return -1;
        if (r >= 0)
            t[r] = one;
    }
    *us = bench_stats_median(t, REPEATS);
    return 0;
}

/* Enables peer access between a and b both ways; *enabled: whether it could be. */
static int enable_pair(int a, int b, int *enabled, char *err, size_t n)
{
    int ab = 0, ba = 0;
    if (cuda_check(cudaSetDevice(a), "cudaSetDevice", a, err, n) ||
        (ab = p2p_enable(a, b, err, n)) < 0 ||
        cuda_check(cudaSetDevice(b), "cudaSetDevice", b, err, n) ||
        (ba = p2p_enable(b, a, err, n)) < 0)
        return -1;
    *enabled = ab == 1 && ba == 1;
    return 0;
}

/* Every GPU's copy bandwidth, then the first GPU's peer copy to each other one. */
int bench_ceilings_measure_gpus(struct bench_ceilings *c, const int *devices, int gpus,
                                size_t bytes, char *err, size_t n)
{
    double s = 0.0;
    int l2 = 0;
    c->gpu_bytes = bytes;
    if (gpus > 0 &&
        cuda_check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, devices[0]),
                   "cudaDeviceGetAttribute", devices[0], err, n))
        return -1;
    c->l2_bytes = (size_t)l2;
    if (gpus > 0 &&
        (probe_measure(devices[0], LAPLACE_PROBE_GRID_SYNC, &c->grid_sync_us,
                       &c->grid_sync_blocks, err, n) != 0 ||
         probe_measure(devices[0], LAPLACE_PROBE_CLUSTER_SYNC, &c->cluster_sync_us,
                       &c->cluster_sync_blocks, err, n) != 0))
        return -1;
    for (int i = 0; i < gpus; i++) {
        if (gpu_copy_measure(devices[i], devices[i], bytes, &s, err, n) != 0)
            return -1;
        c->copy_gbps[i] = 2.0 * (double)bytes / s * 1e-9;
    }
    for (int j = 1; j < gpus; j++) {
        if (enable_pair(devices[0], devices[j], &c->peer_access[j], err, n) != 0 ||
            gpu_copy_measure(devices[0], devices[j], bytes, &s, err, n) != 0)
            return -1;
        c->peer_gbps[j] = (double)bytes / s * 1e-9;
    }
    c->gpus = gpus;
    return 0;
}

/* The least free memory among the GPUs (cudaMemGetInfo). */
int bench_ceilings_least_free(const int *devices, int gpus, size_t *least, char *err,
                              size_t n)
{
    *least = gpus > 0 ? SIZE_MAX : 0;
    for (int i = 0; i < gpus; i++) {
        size_t free_bytes = 0, total = 0;
        if (cuda_check(cudaSetDevice(devices[i]), "cudaSetDevice", devices[i], err, n) ||
            cuda_check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo", devices[i],
                       err, n))
            return -1;
        if (free_bytes < *least)
            *least = free_bytes;
    }
    return 0;
}

int bench_ceilings_gpu_name(int device, char *name, size_t size, char *err, size_t n)
{
    struct cudaDeviceProp prop;
    if (cuda_check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties",
                   device, err, n))
        return -1;
    snprintf(name, size, "%s", prop.name);
    return 0;
}

const char *bench_ceilings_no_gpu_reason(void)
{
    return "no CUDA device is visible";
}
#else
/* Without CUDA no GPU is ever listed (p2p_device_count() is 0): nothing to do. */
int bench_ceilings_measure_gpus(struct bench_ceilings *c, const int *devices, int gpus,
                                size_t bytes, char *err, size_t n)
{
    (void)c, (void)devices, (void)gpus, (void)bytes, (void)err, (void)n;
    return 0;
}

int bench_ceilings_least_free(const int *devices, int gpus, size_t *least, char *err,
                              size_t n)
{
    (void)devices, (void)gpus, (void)err, (void)n;
    *least = 0;
    return 0;
}

int bench_ceilings_gpu_name(int device, char *name, size_t size, char *err, size_t n)
{
    (void)device, (void)err, (void)n;
    snprintf(name, size, "%s", "");
    return 0;
}

const char *bench_ceilings_no_gpu_reason(void)
{
    return "this laplace was built without CUDA";
}
#endif

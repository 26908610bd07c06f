/*
 * laplace_kernels.h - the sweep kernel variants and the extern "C" launchers of
 * laplace_kernels.cu. Plain C: host code includes it without CUDA headers; the
 * variant names below are known to every build, the launchers only to CUDA ones.
 */
#ifndef LAPLACE_KERNELS_H
#define LAPLACE_KERNELS_H

#include <string.h>

enum kernel_variant {
    KERNEL_AUTO,   /* the fastest for the device (today: global) */
    KERNEL_GLOBAL, /* the lecture's: one site per thread, global-memory loads */
    KERNEL_COUNT
};

static const char *const kernel_variant_names[KERNEL_COUNT] = {"auto", "global"};

static inline int kernel_by_name(const char *name)
{
    for (int k = 0; k < KERNEL_COUNT; k++)
        if (strcmp(name, kernel_variant_names[k]) == 0)
            return k;
    return -1;
}

static inline const char *kernel_names(void)
{
    return "auto, global";
}

#ifdef HAVE_CUDA
#include <cuda_runtime_api.h>

#include "problem.h"

/* A neighbour's edge as a kernel reads it: value i at data[i * stride]. */
struct edge_view {
    const void *data; /* NULL at the edge of the whole lattice */
    long stride;      /* in elements */
};

/* Everything one sweep of one tile needs. */
struct sweep_launch {
    enum precision precision;
    enum kernel_variant kernel;
    const void *old;     /* lx * ly values, pitch lx */
    void *new_;
    long lx, ly;
    struct edge_view west, east, south, north;
    int block_x, block_y;
    double *block_sums;  /* one per thread block (device memory), or NULL: no sums */
};

#ifdef __cplusplus
extern "C" {
#endif

/* Launches the sweep on the stream; returns the launch's error (cudaGetLastError). */
cudaError_t laplace_sweep(const struct sweep_launch *launch, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* HAVE_CUDA */

#endif

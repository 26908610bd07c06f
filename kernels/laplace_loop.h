/*
 * laplace_loop.h - the extern "C" launcher of laplace_loop.cu: the loop of a
 * lone tile in one resident kernel (CUDA builds only).
 */
#ifndef LAPLACE_KERNELS_LOOP_H
#define LAPLACE_KERNELS_LOOP_H

#include <cuda_runtime_api.h>

#include "laplace_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Runs up to `batch` iterations of a lone tile (no neighbours) with the rows
 * kernel's shape in one resident kernel, starting from state (device memory,
 * iteration k reading field[(k - 1) % 2]); the kernel adds each iteration's
 * block sums in the fixed order, applies the rule and stops by itself. sums:
 * 2 x laplace_kernels_grid() doubles of device memory. Returns the launch's error.
 */
cudaError_t laplace_loop(const struct sweep_launch *tile, void *field0, void *field1,
                         long batch, double *sums, struct stop_state *state,
                         struct stop_rule rule, int multiprocessors, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif

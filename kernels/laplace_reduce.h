/*
 * laplace_reduce.h - the extern "C" launcher of laplace_reduce.cu: a tile's
 * block sums added on the device (CUDA builds only).
 */
#ifndef LAPLACE_REDUCE_H
#define LAPLACE_REDUCE_H

#include <cuda_runtime_api.h>

#include "problem/update_rule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adds n block sums on the device in block_sums_total()'s order into *total
 * (for the max norm, takes their maximum). */
cudaError_t laplace_reduce(const double *block_sums, long n, enum norm_kind norm,
                           double *total, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif

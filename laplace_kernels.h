/*
 * laplace_kernels.h - the sweep kernel variants and the extern "C" launchers of
 * laplace_kernels.cu. Plain C: host code includes it without CUDA headers; the
 * variant names below are known to every build, the launchers only to CUDA ones.
 * The device's adding of block sums (laplace_reduce.h) and the loops on chip take the
 * launch described here.
 */
#ifndef LAPLACE_KERNELS_H
#define LAPLACE_KERNELS_H

#include <string.h>

enum kernel_variant {
    KERNEL_AUTO,     /* rows (general when the update rule needs it), the rows per thread
                        chosen from the tile and GPU */
    KERNEL_GLOBAL,   /* the lecture's: one site per thread, plain global loads */
    KERNEL_READONLY, /* one site per thread, loads through the read-only cache */
    KERNEL_SHARED,   /* a block's sites and their halo staged in shared memory */
    KERNEL_ROWS,     /* each thread walks up a column of rows, reusing registers */
    KERNEL_GENERAL,  /* any update rule: sources, regions, relaxation, SOR, norms */
    KERNEL_COUNT
};

static const char *const kernel_variant_names[KERNEL_COUNT] = {
    "auto", "global", "readonly", "shared", "rows", "general"};

static inline int kernel_by_name(const char *name)
{
    for (int k = 0; k < KERNEL_COUNT; k++)
        if (strcmp(name, kernel_variant_names[k]) == 0)
            return k;
    return -1;
}

static inline const char *kernel_names(void)
{
    return "auto, global, readonly, shared, rows, general";
}

/* The loops on chip's limits (kernels/laplace_chip.cu, kernels/laplace_spread.cu): the
 * deepest halo of the cluster's rounds and of the spread strips, the longest lag of the
 * spread strips' decision. A lone tile's device offers what fits up to them; the loop
 * plan chooses (plan/loop_plan.c). */
#define CHIP_MOST_DEPTH 8
#define SPREAD_MOST_DEPTH 4
#define SPREAD_MOST_LAG 4
/* The most GPUs (tiles stacked in rows) one loop of spread strips runs over, a band of
 * strips each. */
#define SPREAD_MOST_GPUS 8
/* The depth of the rounds the spread strips' columns kernel is compiled for
 * (kernels/laplace_spread_columns.cuh): only there can each thread hold its column in
 * registers. */
#define SPREAD_DEPTH 2

/* The launch shape of a sweep: threads per block, and rows each thread updates (the
 * loop plan chooses it: plan/sweep_shape.c). Plain C, known to every build. */
struct sweep_shape {
    enum kernel_variant kernel; /* never KERNEL_AUTO once chosen */
    int block_x, block_y;
    int rows_per_thread;    /* 1, or 4, 8, 16 for rows */
    int columns_per_thread; /* 1, or 2 for the rows kernel on even widths */
    int alternate;          /* rows: 1 when every other sweep runs its rows of blocks
                               backwards (where the two fields exceed the L2 cache) */
};

#ifdef HAVE_CUDA
#include <cuda_runtime_api.h>

#include "problem/problem.h"
#include "problem/stop_rule.h"
#include "problem/update_rule.h"
#include "support/block_window.h"

/* A neighbour's edge as a kernel reads it: value i at data[i * stride]. */
struct edge_view {
    const void *data; /* NULL at the edge of the whole lattice */
    long stride;      /* in elements */
};

/* Everything one sweep of one tile needs. */
struct sweep_launch {
    enum precision precision;
    struct sweep_shape shape;
    long blocks_x, blocks_y; /* the whole sweep's grid (the plan's, with the shape) */
    const void *old;         /* lx * ly values, pitch lx: what neighbours are read from */
    void *new_;
    long lx, ly;
    struct block_window window; /* the blocks launched (block_window.h); empty: all */
    struct edge_view west, east, south, north;
    double *block_sums; /* one per thread block (device or mapped memory), or NULL */
    struct update_rule update_rule; /* every kernel: the square scale of the norm; the
                                       general kernel: the whole rule (update_rule.h) */
    /* the general kernel only: */
    const void *own;            /* the sites' own old values: old, except in SOR's
                                   phase 1, where old is the new field */
    const void *source;         /* the per-site term b, or NULL */
    const unsigned char *fixed; /* the fixed-site mask, or NULL */
    int colour;                 /* -1: every site; SOR: 0 red, 1 black */
    long first_colour;          /* x0 + y0 of the tile: site (x, y) is red when
                                   first_colour + x + y is even */
    const double *first_sums;   /* phase 1: phase 0's block sums, which this phase's
                                   are added to into block_sums; NULL: set them */
    int overlap; /* queue it to overlap the kernel before it on its stream (a lone
                    tile where laplace_kernels_can_overlap; laplace_kernels.cu) */
};

#ifdef __cplusplus
extern "C" {
#endif

/* Into *can: whether sweeps on the current device may overlap the kernel before them
 * (sweep_launch.overlap): the kernels were built for compute capability 9.0 or more,
 * so they wait for it. */
cudaError_t laplace_kernels_can_overlap(int *can);

/* Launches the sweep on the stream; returns the launch's error (cudaGetLastError). */
cudaError_t laplace_kernels_sweep(const struct sweep_launch *launch, cudaStream_t stream);

/* Queues the copy of column `column` of a field (lx x ly values of elem bytes, 4 or 8)
 * into out (ly values), for one contiguous copy of the edge; the launch's error. */
cudaError_t laplace_kernels_pack_column(const void *field, long lx, long ly, long column,
                                        size_t elem, void *out, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* HAVE_CUDA */

#endif

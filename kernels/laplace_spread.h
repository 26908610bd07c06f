/*
 * laplace_spread.h - the extern "C" side of laplace_spread.cu: the loop on chip
 * spread over the multiprocessors, for a lone tile too large for one cluster (or run
 * faster on more multiprocessors) whose field, in two copies or more, still fits in
 * the shared memory of the whole GPU (CUDA builds only). Plain Jacobi only.
 */
#ifndef LAPLACE_SPREAD_H
#define LAPLACE_SPREAD_H

#include <cuda_runtime_api.h>

#include "laplace_kernels.h"
#include "support/tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the spread loop holds a tile: `blocks` blocks, one a multiprocessor, each a
 * strip of at most `rows` rows and `depth` rows of each neighbour's (its halos, taken
 * every `depth` iterations; none at depth 0, which takes the neighbours' edge rows
 * every iteration) in `fields` fields (iterations k, k - 1, ...), with
 * threads_x x threads_y threads that sweep and one warp that takes the stop
 * decisions. */
struct spread_plan {
    int blocks;   /* 0: the strips cannot be laid, or do not fit */
    int resident; /* 1: the device keeps every block resident at once (else the
                     strips cannot run: the cooperative launch needs them all) */
    int possible; /* 1: the strips can be laid this way (blocks may still be 0: their
                     shared memory does not fit) */
    int depth, fields;
    int columns; /* 1: each sweeping thread's column in registers, the fields' own
                    rows in shared memory (laplace_spread_columns.cuh); 0: the fields */
    int unroll;  /* rows a sweeping thread walks at a time (walk_column) */
    int threads_x, threads_y;
    long rows;
    size_t shared_bytes;  /* dynamic shared memory of a block */
    size_t meeting_bytes; /* global memory the blocks meet through (zeroed a run) */
};

/*
 * The strips of a lone tile (its precision and size) on the current device with halos
 * `depth` rows deep (0 .. SPREAD_MOST_DEPTH of laplace_kernels.h), the decision
 * lagging `lag` iterations (1 .. SPREAD_MOST_LAG), and each sweeping thread's column
 * in registers (columns 1) or the fields in shared memory (0), with LAPLACE_TUNE's
 * spread_blocks and spread_unroll (support/tuning.h). plan->possible is 0 where the
 * device has no cooperative launch, or the strips of at least two rows (and `depth`)
 * cannot be laid, or (columns) the columns loop cannot take them; plan->blocks is 0
 * there and where their fields do not fit in the multiprocessors' shared memory;
 * plan->resident says whether every block can be resident. Which depth, lag and way
 * a run takes is the loop plan's (plan/loop_plan.c). Returns a CUDA call's error, if
 * one failed.
 */
cudaError_t laplace_spread_plan(const struct sweep_launch *tile,
                                const struct tuning *tune, int depth, int lag,
                                int columns, struct spread_plan *plan);

/*
 * Runs up to `batch` iterations of the lone tile by plain Jacobi, as
 * laplace_chip_loop() does (state, norms, the field of iteration k in
 * field[k % 2]), the blocks meeting through `meeting` (plan->meeting_bytes of device
 * memory, zeroed before a run's first lap). Returns the launch's error.
 */
cudaError_t laplace_spread_loop(const struct spread_plan *plan,
                                const struct sweep_launch *tile, void *field0,
                                void *field1, long batch, struct stop_state *state,
                                double *norms, struct stop_rule rule, void *meeting,
                                cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif

/*
 * laplace_spread.h - the extern "C" side of laplace_spread.cu: the loop on chip
 * spread over the multiprocessors, for a lone tile too large for one cluster (or run
 * faster on more multiprocessors) whose field, in two copies or more, still fits in
 * the shared memory of the whole GPU, or for tiles stacked in rows, one a GPU, whose
 * strips together run one such loop over several GPUs (CUDA builds only). Plain
 * Jacobi only.
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
    size_t shared_bytes; /* dynamic shared memory of a block */
};

/* Where a tile's band of strips lies among the GPUs of one spread loop: tiles stacked
 * in rows (tile 0 at the bottom), one a GPU, each running its own launch over its own
 * rows; a block at a band's end takes its halos from the GPU beside it, and every
 * block's sum goes to every GPU, so that each GPU's deciding warps add the same sums
 * in the same order. A lone tile is a band of one GPU (laplace_spread_alone). */
struct spread_band {
    int gpus, gpu;     /* the GPUs of the loop, and this tile's place among them */
    long first_block;  /* this band's first block among all the loop's blocks */
    long all_blocks;   /* the loop's blocks over every GPU */
    long row0;         /* the tile's first row in the lattice */
    long lattice_rows; /* the lattice's rows */
    void *meetings[SPREAD_MOST_GPUS]; /* every GPU's meeting (this one's at [gpu]) */
    const void *south[2]; /* the tile below's fields (peer memory) at its last row,
                             NULL at the lattice's edge: the halos' fixed edge sites */
    const void *north[2]; /* the tile above's fields at its first row, or NULL */
    volatile int *stop;   /* mapped host words (NULL for a lone tile): [0] nonzero once
                             a tile failed or a wait outlasted SPREAD_WAIT_MOST_S, then
                             no wait waits any more and the lap runs out; [1] set by a
                             wait that timed out */
};

/* A wait for another GPU's words ends after this many seconds, says so in stop[1] and
 * raises stop[0] (a GPU whose loop never started). */
#define SPREAD_WAIT_MOST_S 60

/* The band of a lone tile: one GPU, all its blocks, meeting in `meeting`. */
struct spread_band laplace_spread_alone(const struct spread_plan *plan, long ly,
                                        void *meeting);

/* The bytes of global memory the blocks meet through, on each GPU, for strips of
 * plan's depth over `all_blocks` blocks of every GPU, rows lx values wide. */
size_t laplace_spread_meeting_bytes(const struct spread_plan *plan, long lx,
                                    size_t value_size, long all_blocks);

/*
 * The strips of a lone tile (its precision and size) on the current device with halos
 * `depth` rows deep (0 .. SPREAD_MOST_DEPTH of laplace_kernels.h), the decision
 * lagging `lag` iterations (1 .. SPREAD_MOST_LAG), and each sweeping thread's column
 * in registers (columns 1) or the fields in shared memory (0), with LAPLACE_TUNE's
 * spread_blocks and spread_unroll (support/tuning.h); for a band of several GPUs' loop,
 * the tile is the band's. plan->possible is 0 where the
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
 * Runs up to `batch` iterations of the tile's band by plain Jacobi, as
 * laplace_chip_loop() does (state, norms, the field of iteration k in
 * field[k % 2]), the blocks meeting through the band's meetings
 * (laplace_spread_meeting_bytes of device memory each, zeroed before a run's first
 * lap). Every band of a loop runs the same laps. Returns the launch's error.
 */
cudaError_t laplace_spread_loop(const struct spread_plan *plan,
                                const struct sweep_launch *tile, void *field0,
                                void *field1, long batch, struct stop_state *state,
                                double *norms, struct stop_rule rule,
                                const struct spread_band *band, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif

/*
 * laplace_probe.h - the floor of each mechanism a loop resident on the GPU can meet
 * by (laplace_probe.cu), measured by --bench with empty kernels before any sweep is
 * built on them: a grid-wide barrier of a cooperative grid (what a resident loop
 * meeting every iteration would pay) and a cluster barrier with a read of a neighbour
 * block's shared memory (what an on-chip loop of one cluster would pay).
 */
#ifndef LAPLACE_PROBE_H
#define LAPLACE_PROBE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a probe's empty loop meets by every iteration. */
enum laplace_probe_kind {
    LAPLACE_PROBE_GRID_SYNC,    /* grid.sync() of one resident block per multiprocessor */
    LAPLACE_PROBE_CLUSTER_SYNC, /* cluster.sync() of 16 blocks (8 where 16 is refused),
                                   then a read of the next block's shared memory */
};

/*
 * Runs the probe's loop for `iterations` on the current device, timed by events
 * around the one launch; *us: microseconds per iteration, *blocks: the blocks that
 * met. A probe the device cannot run (no cluster launch) returns its CUDA error.
 */
cudaError_t laplace_probe_sync_us(enum laplace_probe_kind kind, long iterations,
                                  double *us, int *blocks);

#ifdef __cplusplus
}
#endif

#endif

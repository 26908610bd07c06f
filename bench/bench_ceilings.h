/*
 * bench_ceilings.h - the hardware ceilings that --bench measures before its
 * matrix: each GPU's device-to-device copy, the peer copies from the first GPU,
 * the first GPU's floor of a loop resident on it (an empty loop meeting at a grid
 * barrier, or at a cluster barrier: kernels/laplace_probe.h) and the host's copy
 * bandwidth. Without CUDA only the host is measured.
 */
#ifndef LAPLACE_BENCH_CEILINGS_H
#define LAPLACE_BENCH_CEILINGS_H

#include <stddef.h>

#include "settings/config.h"

/* Repetitions of every ceiling: untimed warm-ups, then timed ones (median). */
#define CEILING_WARMUPS 2
#define CEILING_REPEATS 7

struct bench_ceilings {
    int gpus;                             /* GPUs measured; 0: none */
    size_t gpu_bytes, host_bytes;         /* the size of one buffer */
    double copy_gbps[CONFIG_MAX_DEVICES]; /* GPU i: device to device, read + written */
    double peer_gbps[CONFIG_MAX_DEVICES]; /* GPU 0 to GPU j, bytes copied once */
    int peer_access[CONFIG_MAX_DEVICES];  /* 1: peer access enabled 0 <-> j */
    size_t l2_bytes;                      /* the first GPU's L2 cache */
    double grid_sync_us;    /* the first GPU: an empty loop's iteration at grid.sync() */
    int grid_sync_blocks;   /* ... of this many blocks (one a multiprocessor) */
    double cluster_sync_us; /* ... at cluster.sync() with a read of a neighbour's
                             * shared memory: the floor of a loop on chip */
    int cluster_sync_blocks;
    double host_gbps; /* host copy, read + written */
    int host_threads;
};

/* Each of devices[0..gpus-1]: a copy of bytes; GPU 0 to each other: a peer copy.
 * 0, or -1 with err naming the device and the call. */
int bench_ceilings_measure_gpus(struct bench_ceilings *c, const int *devices, int gpus,
                                size_t bytes, char *err, size_t n);

/* The host's copy of bytes on every core (first-touched in parallel). */
int bench_ceilings_measure_host(struct bench_ceilings *c, size_t bytes, char *err,
                                size_t n);

/* The least free memory among the GPUs (0 when there are none). */
int bench_ceilings_least_free(const int *devices, int gpus, size_t *least, char *err,
                              size_t n);

/* The name of a GPU ("" without CUDA). */
int bench_ceilings_gpu_name(int device, char *name, size_t size, char *err, size_t n);

/* Why no GPU was measured: no CUDA in the build, or no device visible. */
const char *bench_ceilings_no_gpu_reason(void);

#endif

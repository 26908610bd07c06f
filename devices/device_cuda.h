/*
 * device_cuda.h - what the files of the CUDA device share (device_cuda.c: one
 * tile's life and its sweeps, a lone tile's batches; device_cuda_batches.c: the
 * batches of several tiles). Not for other files: they see device.h's
 * device_cuda_ops alone.
 */
#ifndef LAPLACE_DEVICE_CUDA_H
#define LAPLACE_DEVICE_CUDA_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "devices/device.h"
#include "laplace_kernels.h"

/* One of the two sets of buffers that batches of several tiles use in turn. */
struct batch_buffers {
    void *checkpoint_d;          /* the field of iteration from - 1 */
    double *slots_d, *slots_h;   /* every iteration's block sums (--reduce host) */
    double *totals_d, *totals_h; /* every iteration's tile total (--reduce device) */
    cudaGraphExec_t graph;       /* the first tile only: the batch of every GPU */
};

struct cuda_tile {
    cudaStream_t stream;
    cudaEvent_t done[2];      /* all of iteration k's work, recorded in done[k % 2] */
    struct sweep_shape shape; /* kernel, block and rows per thread */
    int sums_mapped;          /* 1: the sweep writes its block sums into host memory */
    double *block_sums_d;     /* the block sums on the device, unless mapped */
    double *sums_target_d[2]; /* where iteration k's kernel writes its block sums */
    double *total_h[2]; /* --reduce device: the tile total of iteration k (mapped) */
    double *total_d[2]; /* the same memory seen from the device */
    void *halo_d[SIDE_COUNT]; /* copies of neighbours' edges, for fallback sides */
    /* run_alone: the loop in batches of iterations; --reduce host: each batch is
     * one CUDA graph of sweeps; --reduce device: one resident kernel */
    cudaGraphExec_t batch;
    struct stop_state *state_d; /* --reduce device: the device's loop state */
    struct stop_state *state_h; /* its copy on the host after each batch */
    int multiprocessors;        /* for the resident loop kernel */
    void *checkpoint_d;         /* --reduce host: the field at the batch's start */
    double *slots_d, *slots_h;  /* --reduce host: every iteration's block sums */
    /* batches of several tiles (batch_*): one graph of every GPU's sweeps */
    cudaEvent_t mark; /* where this tile's stream joins and leaves the graph */
    struct batch_buffers sets[2]; /* used by batches in turn (batch_set) */
};

/* Records a failed CUDA call in t->error: call, function, file, line, device;
 * returns -1. */
int cuda_failed(struct tile *t, cudaError_t rc, const char *call, const char *func,
                const char *file, int line);

#define CUDA_CHECK(t, call)                                                              \
    do {                                                                                 \
        cudaError_t rc_ = (call);                                                        \
        if (rc_ != cudaSuccess)                                                          \
            return cuda_failed((t), rc_, #call, __func__, __FILE__, __LINE__);           \
    } while (0)

/* The edges of other MPI ranks' tiles (device.h; device_cuda_ranks.c). */
int cuda_shadow_open(struct tile *t, struct tile *shadow);
int cuda_edge_read(struct tile *t, int side, int which, void *edge_h);
int cuda_shadow_write(struct tile *t, struct tile *shadow, int which, const void *edge_h);
void cuda_shadow_close(struct tile *t, struct tile *shadow);

/* 0, or -1 with the injected fault's message when it falls on iterations from..to. */
int cuda_check_fault(struct tile *t, long from, long to);

/* Bytes of one iteration's block sums of the tile. */
size_t cuda_sums_bytes(const struct tile *t);

/* Iterations per batch of run_alone: about 2 ms of work, even, from 2 to 1024. */
long cuda_batch_iterations(const struct tile *t);

/*
 * Queues phase a->phase of sweep k after the neighbours' (wait_for_neighbours),
 * its block sums into sums_d; after the last phase, with --reduce device, the
 * tile's total into total_d, or else the block sums copied into sums_h unless
 * NULL (they went to the host directly); then records done[k % 2].
 */
int cuda_queue_sweep(struct tile *t, const struct sweep_args *a, double *sums_d,
                     double *total_d, double *sums_h);

/* The device_ops batch_* of several tiles (device_cuda_batches.c). */
long cuda_batch_length(const struct tile *t, int asked);
int cuda_batch_open(struct tile *t, long n);
int cuda_batch_start(struct tile *t, const struct batch_call *b);
int cuda_batch_wait(struct tile *t, const struct batch_call *b);
int cuda_batch_total(struct tile *t, const struct batch_call *b, long j, double *total);
int cuda_batch_rewind(struct tile *t, const struct batch_call *b);
/* Frees what cuda_batch_open() allocated and the graphs; errors are not reported. */
void cuda_batch_free(struct cuda_tile *c);

#endif

/*
 * cuda_tile.h - one tile on a CUDA GPU (cuda_tile.c): its state, the check of
 * every CUDA call, and the queueing of one sweep. Below every file of the CUDA
 * device (device_cuda*.c); other files see device.h's device_cuda_ops alone.
 */
#ifndef LAPLACE_CUDA_TILE_H
#define LAPLACE_CUDA_TILE_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "devices/device.h"
#include "kernels/laplace_chip.h"
#include "kernels/laplace_spread.h"
#include "laplace_kernels.h"

/* One of the two sets of buffers that batches of several tiles use in turn. */
struct cuda_tile_batch_set {
    void *checkpoint_d;          /* the field of iteration from - 1 */
    double *slots_d, *slots_h;   /* every iteration's block sums (--reduce host) */
    double *totals_d, *totals_h; /* every iteration's tile total (--reduce device) */
    cudaGraphExec_t graph;       /* the first tile only: the batch of every GPU; with
                                    peer flags every tile: its own part */
    cudaEvent_t *marks; /* LAPLACE_TUNE's breakdown, passes of two: [2 (q - 1)] just
                           before pass q's kernel, [2 (q - 1) + 1] just after it */
    cudaEvent_t end;    /* recorded after the set's batch on the stream that launched
                           it: the batch waited for, not the one queued behind it */
};

struct cuda_tile {
    cudaStream_t stream;
    cudaEvent_t done[2];      /* all of iteration k's work, recorded in done[k % 2] */
    struct sweep_shape shape; /* kernel, block and rows per thread (the plan's) */
    long blocks_x, blocks_y;  /* the sweep's grid (the plan's) */
    double *block_sums_d;     /* --reduce device: the block sums on the device */
    double *sums_target_d[2]; /* where iteration k's kernel writes its block sums */
    double *phase_sums_d;     /* --reduce host, rules of two phases: the first phase's
                                 block sums, on the device, which the second adds its own
                                 to into host memory (no read across PCIe) */
    double *total_h[2]; /* --reduce device: the tile total of iteration k (mapped) */
    double *total_d[2]; /* the same memory seen from the device */
    void *halo_d[SIDE_COUNT]; /* copies of neighbours' edges, for fallback sides */
    /* run_on_chip (device_cuda_chip.c): the loop on chip */
    struct stop_state *state_d; /* the device's loop state */
    struct stop_state *state_h; /* its copy on the host after each batch */
    double *norms_d, *norms_h;  /* on chip: every norm of a lap (device_cuda_chip.c) */
    /* a lone tile on chip: the cluster at each depth, the spread strips at each depth,
     * lag (lag - 1) and way (0: fields in shared memory, 1: columns in registers), as
     * offered (device_cuda_offer.c; blocks 0: does not fit) */
    struct chip_plan cluster_at[CHIP_MOST_DEPTH + 1];
    struct spread_plan strips_at[SPREAD_MOST_DEPTH + 1][SPREAD_MOST_LAG][2];
    void *meeting_d;                  /* on chip, spread: where its blocks meet */
    int *chip_words_h, *chip_words_d; /* spread over several GPUs, mapped host memory:
                                         [0] stop, [1] timed out (struct spread_band) */
    int overlapping; /* a lone tile's sweeps overlap the kernel before them
                        (laplace_kernels_can_overlap) */
    /* batches (device_cuda_batches.c): of a lone tile (singles, pairs) or one graph
     * of every GPU's sweeps */
    enum loop_way batch_way; /* the plan's way of its batches */
    long slot_sums;          /* block sums an iteration keeps in a batch's slots */
    cudaEvent_t mark;        /* where this tile's stream joins and leaves the graph */
    int flagged;             /* stacked tiles meeting through peer flags (the plan's
                                flags): each launches its own part of a batch */
    unsigned long long *passes_d;       /* flags: heard from below, from above; done; the
                                           edge blocks arrived (device_cuda_pairs.c) */
    int *flag_words_h, *flag_words_d;   /* flags, mapped host memory: [0] stop, [1] timed
                                           out (struct pass_flags) */
    struct cuda_tile_batch_set sets[2]; /* used by batches in turn (batch_set) */
    /* the edges of other MPI ranks (device_cuda_ranks.c) */
    cudaEvent_t edges_copied;   /* after the last edge queued to host memory */
    void *column_d[SIDE_COUNT]; /* a west or east edge, packed for its copy */
    struct sweep_launch split;  /* the sweep whose interior runs while they travel */
    int split_pending;          /* 1: its interior is queued, its edges not yet */
};

/* Records a failed CUDA call in t->error: call, function, file, line, device;
 * returns -1. */
int cuda_tile_failed(struct tile *t, cudaError_t rc, const char *call, const char *func,
                     const char *file, int line);

#define CUDA_CHECK(t, call)                                                              \
    do {                                                                                 \
        cudaError_t rc_ = (call);                                                        \
        if (rc_ != cudaSuccess)                                                          \
            return cuda_tile_failed((t), rc_, #call, __func__, __FILE__, __LINE__);      \
    } while (0)

/* The fault injected on purpose (fault.h) as the CUDA error it stands for, when
 * it falls on this tile's GPU at an iteration from..to (0: the set-up), else
 * cudaSuccess; checked with CUDA_CHECK, the failure takes the path of a real one. */
cudaError_t cuda_tile_injected_fault(const struct tile *t, long from, long to);

/* 0, or -1 with the injected fault's message when it falls on iterations from..to. */
int cuda_tile_check_fault(struct tile *t, long from, long to);

/* Bytes of one value of the tile's precision. */
size_t cuda_tile_elem_size(const struct tile *t);

/* Bytes of one iteration's block sums of the tile. */
size_t cuda_tile_sums_bytes(const struct tile *t);

/* The launch of phase `phase` of sweep k, block sums into sums (NULL: none),
 * without the neighbours' edges. */
struct sweep_launch cuda_tile_sweep_launch(struct tile *t, long k, int phase,
                                           double *sums);

/* Launches the sweep l on the tile's stream (laplace_kernels_sweep) and notes in
 * t->sweeps_overlapped whether it overlapped the kernel before it, for the report;
 * 0, or -1 with t->error set. */
int cuda_tile_launch_sweep(struct tile *t, const struct sweep_launch *l);

/* Queues on the tile's stream the waits for its neighbours' step a->iteration - 1
 * (phase 1: their phase 0 of step a->iteration) and puts into l the views of their
 * edges of field src (peer pointers into it, or halos copied now); 0, or -1. */
int cuda_tile_meet_neighbours(struct tile *t, const struct sweep_args *a, int src,
                              struct sweep_launch *l);

/* The views of cuda_tile_meet_neighbours alone, with no wait: for passes that wait
 * for their neighbours through peer flags. */
int cuda_tile_neighbour_views(struct tile *t, const struct sweep_args *a, int src,
                              struct sweep_launch *l);

/*
 * Queues phase a->phase of sweep k after the neighbours' (wait_for_neighbours),
 * its block sums into sums_d; after the last phase, with --reduce device, the
 * tile's total into total_d; then records done[k % 2]. a->part
 * SWEEP_INTERIOR queues only the blocks that read no shadow; SWEEP_EDGES the rest,
 * and then the above (device.h).
 */
int cuda_tile_queue_sweep(struct tile *t, const struct sweep_args *a, double *sums_d,
                          double *total_d);

#endif

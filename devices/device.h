/*
 * device.h - the device interface: what the one iteration loop (loop.c, loop_batches.c)
 * asks of a device that owns one tile.
 *
 * Two implementations exist: device_cuda.c (a CUDA GPU; neighbours' edges are
 * read through peer access) and device_host.c (one OpenMP thread and host
 * memory; neighbours' edges are read straight from their tiles). Every call is
 * made by the one OpenMP thread that drives the tile, so a device is never used
 * by two threads at once. Calls return 0, or -1 with a message in tile->error.
 *
 * Iteration k (1, 2, ...) reads field[(k - 1) % 2] and writes field[k % 2].
 * sweep(k) may return before the work is done; finish(k) waits for it. The
 * loop starts sweep(k + 1) before finish(k), so the host's stopping test of k
 * overlaps the next sweep: k's result is safe, since k + 1 writes the other field.
 * A device must therefore order, by itself, sweep(k + 1) after its neighbours'
 * sweep(k): it reads what they wrote, and overwrites what they read.
 */
#ifndef LAPLACE_DEVICE_H
#define LAPLACE_DEVICE_H

#include <math.h>

#include "support/block_window.h"
#include "gpu_partition.h"
#include "problem/problem.h"
#include "problem/stop_rule.h"
#include "devices/loop_way.h"
#include "problem/block_sums.h"
#include "problem/update_rule.h"
#include "support/tuning.h"
#include "laplace_kernels.h"

/* Who adds a tile's block partial sums: the host (the lecture's way) or the device. */
enum reduce_mode { REDUCE_HOST, REDUCE_DEVICE };

/* Who drives the iterations: auto (on chip or in batches where the devices offer
 * them and they pay), the host at every iteration, batches wherever the devices
 * offer them, or the loop on chip of a lone GPU tile (device_cuda_chip.c). */
enum loop_mode { LOOP_AUTO, LOOP_HOST, LOOP_BATCHED, LOOP_CHIP };

/* How a tile is swept: the same for every tile of a run. */
struct tile_settings {
    int block_x, block_y; /* thread-block shape (0 x 0: chosen by the device) */
    int use_p2p;          /* 1: read neighbours through peer access when possible */
    int kernel;           /* enum kernel_variant of laplace_kernels.h */
    enum reduce_mode reduce;
    enum loop_mode loop;            /* the loop asked for (--loop) */
    struct update_rule update_rule; /* method, stencil weights, norm (update_rule.h) */
    struct tuning tune;             /* LAPLACE_TUNE's knobs (support/tuning.h) */
};

/* The problem over a rectangle of the lattice that holds the tile (the whole
 * lattice, or this MPI rank's part), in host memory, each array `pitch` sites a row,
 * its first value at lattice site (x0, y0); a tile reads its own rectangle (its
 * extent) straight out of them. */
struct tile_input {
    const void *field;          /* the initial values */
    const void *source;         /* the per-site term b, or NULL (rule.has_source) */
    const unsigned char *fixed; /* 1 at sites held fixed, or NULL (rule.has_fixed) */
    long pitch;                 /* sites a row in each array: the rectangle's width */
    long x0, y0;                /* the lattice site of each array's first value */
};

/* What LAPLACE_TUNE's breakdown measured of a tile's passes of two in the batches'
 * graphs, through CUDA events before and after each pass's kernel (batch_note). */
struct pass_breakdown {
    int device;       /* the tile's GPU */
    long iterations;  /* of the batches measured: two a pass */
    double pass_s;    /* in the passes' kernels */
    double between_s; /* from one pass's end to the next one's start in a batch:
                         waiting for the neighbours' pass, and the graph's own step */
};

struct tile {
    int index;                        /* tile number in the partition */
    const struct tile_extent *extent; /* where the tile lies in the lattice */
    int device;                       /* CUDA device id, or -1 on the host */
    enum precision precision;
    struct tile_settings settings;
    void *field[2];        /* the two fields; which one is old switches every iteration */
    void *source;          /* the per-site term b (device or host memory), or NULL */
    unsigned char *fixed;  /* the fixed-site mask, or NULL */
    long block_count;      /* partial sums per sweep: one per thread block (host: open;
                              GPU: prepare, from the plan) */
    double *block_sums[2]; /* host reduce: the block sums of iterations of each parity,
                              in host memory (on GPUs mapped: the sweeps write them) */
    int peer_fallback[SIDE_COUNT]; /* 1: that side's edge comes by copy, not peer read */
    int remote;      /* 1: another MPI rank's tile, of which this rank holds one edge */
    void *impl;      /* the implementation's own state */
    char error[512]; /* why the last call failed */
    /* 1 once a sweep of this tile was launched to overlap the kernel before it (a lone
     * CUDA tile: cuda_tile.c), for the report */
    int sweeps_overlapped;
    struct pass_breakdown breakdown; /* LAPLACE_TUNE's breakdown (batch_note) */
};

/* What a GPU allows a sweep (its cudaDeviceProp), for the plan's choice of its shape. */
struct gpu_facts {
    char name[256];
    int multiprocessors, threads_per_multiprocessor;
    size_t l2_bytes;
    int block_threads_most; /* threads a block */
    int block_most[2];      /* threads across and up a block */
    long grid_most[2];      /* blocks across and up a grid */
};

/* Spread strips of one depth, lag and way as a lone GPU tile's device offers them. */
struct spread_fit {
    int blocks;   /* 0: they cannot be laid this way, or their fields do not fit */
    int resident; /* 1: every block can be resident at once (else they cannot run) */
    int possible; /* 1: they can be laid this way (each thread's column in registers:
                     the columns loop takes them), fitting or not */
};

/* What a tile's device offers the loop plan (plan/loop_plan.c), as facts, once the
 * tile is open and connected: filled by the device's offer(). */
struct tile_offer {
    int gpu;            /* 1: a CUDA GPU; 0: a host tile */
    int device;         /* its CUDA device id, or -1 */
    int runs_alone;     /* the device can run a lone tile's whole loop (run_on_chip) */
    long lx, ly;        /* the tile's sites */
    size_t value_size;  /* bytes a value: 4 or 8 */
    size_t field_bytes; /* one field */
    long block_count;   /* a host tile: block sums of one sweep (a GPU tile's come
                           from the shape the plan chooses: struct tile_plan) */
    struct gpu_facts facts;   /* a GPU tile: what its GPU allows a sweep */
    int fallback;             /* 1: an edge comes by halo copy, not by peer read */
    unsigned long long peers; /* a tile stacked among several: bit d set where its GPU
                                 reaches CUDA device d's memory (itself included) */
    size_t free_bytes;        /* GPU memory free with the tile open, before prepare
                                 allocates its block sums */
    /* on chip (0 blocks: does not fit that way, or not offered): a lone GPU tile; the
     * spread strips also a tile stacked among several, as its band of a loop over
     * their GPUs */
    int cluster_blocks[CHIP_MOST_DEPTH + 1]; /* one cluster, in rounds of depth d (0:
                                                meeting every iteration) */
    /* spread strips, halos d deep, decision lagging l + 1, the fields in shared memory
     * (w 0) or each thread's column in registers (w 1) */
    struct spread_fit spread[SPREAD_MOST_DEPTH + 1][SPREAD_MOST_LAG][2];
    int pairs_fit;     /* passes of two iterations: their grid fits (a lone tile's,
                          or one of several stacked: as wide as the lattice, at
                          least 2 rows high, its neighbours read in place) */
    long pairs_blocks; /* their block sums an iteration */
};

/* A tile's own part of the loop plan (plan/loop_plan.c), which its device takes
 * (device_ops.prepare) before the loop. */
struct tile_plan {
    struct sweep_shape shape; /* a GPU tile's sweep: kernel, block, rows and columns a
                                 thread, order of rows of blocks */
    long blocks_x, blocks_y;  /* its grid */
    long block_count;         /* block sums of one sweep (a host tile: its offer's) */
};

/* What the loop on chip (run_on_chip) shows the host: every norm it computes. norm
 * returns 1 to stop the loop there, at an iteration whose field is kept
 * (STOP_INTERRUPTED); stop_asked, after a lap with no norm, the same. */
struct loop_watch {
    int (*norm)(void *context, long iteration, double norm);
    int (*stop_asked)(void *context);
    void *context;
};

/* The tiles whose devices run one loop together (run_on_chip): a lone tile, or tiles
 * stacked in rows whose spread strips run on chip over their GPUs. Every tile's
 * thread calls run_on_chip with the same team; meet() is where they wait for each other
 * (as batch_call's). Tile 0's thread alone shows the watch each lap's norms; what it
 * decides (stop), every thread reads after the next meeting. */
struct chip_team {
    struct tile *tiles; /* every tile of the run, in tile order */
    int count;
    int (*meet)(void *context, struct tile *me, int rc);
    void *context;
    int stop;                  /* written by tile 0's thread between two meetings */
    struct stop_state decided; /* tile 0's state after a lap, which every tile's must
                                  equal (written before the lap's first meeting) */
};

/* Which sites a sweep call updates: all, or (devices that offer edges_wait) the
 * interior first, whose sites read no other rank's edge, then the rest once those
 * edges are in the shadows (block_window.h); the second call ends the sweep. */
enum sweep_part { SWEEP_WHOLE, SWEEP_INTERIOR, SWEEP_EDGES };

/* What one sweep needs: the iteration, and the neighbours (NULL at the edge). */
struct sweep_args {
    long iteration; /* k: reads field[(k - 1) % 2], writes field[k % 2] */
    int phase;      /* SOR: 0 red sites, 1 black sites (reading the new red ones);
                     * the loop calls phase 1 after every tile's phase 0 */
    const struct tile *neighbour[SIDE_COUNT];
    int want_sums; /* 1: also produce the block partial sums */
    enum sweep_part part;
};

/*
 * A batch: iterations from .. from + n - 1 that the tiles run among themselves,
 * each sweep k after its neighbours' sweep k - 1, every iteration's block sums
 * kept in its own slot. Every tile's thread calls batch_start and batch_wait
 * with the same batch_call; meet() is where they wait for each other. Batches
 * alternate between two sets of buffers (set), so that the devices may run
 * batch b + 1 while the host still reads the sums of batch b. The plan's batches are
 * recorded once, before the loop (batch_record), and launched again; the tail before
 * --max-iter, shorter, is queued directly (direct).
 */
struct batch_call {
    long from, n;
    int set;            /* which of the two sets of buffers (checkpoint, slots) it uses */
    int direct;         /* 1: queued as it is, not recorded (a batch of another length) */
    struct tile *tiles; /* every tile of the run, in tile order */
    int count;
    /* Records rc (0, or -1 with a message in me->error) if it is the run's first
     * failure, waits for every tile's thread, and returns 1 when any has failed. */
    int (*meet)(void *context, struct tile *me, int rc);
    void *context;
};

/* The neighbours of tile t among the run's tiles, NULL at the lattice's edge. */
static inline void tile_neighbours(const struct tile *tiles, const struct tile *t,
                                   const struct tile *nb[SIDE_COUNT])
{
    for (int side = 0; side < SIDE_COUNT; side++) {
        int n = t->extent->neighbour[side];
        nb[side] = n >= 0 ? &tiles[n] : NULL;
    }
}

struct device_ops {
    const char *name;
    /* Binds the calling thread to the device and allocates both fields (a host tile:
     * and its block sums, block_count). A GPU's limits on the sweep's block and grid
     * are the plan's to check (sweep_shape.c), after the upload and connect. */
    int (*open)(struct tile *t);
    /* Prepares reading the neighbours' edges (peer access, or halo buffers). */
    int (*connect)(struct tile *t, const struct tile *neighbour[SIDE_COUNT]);
    /* Copies the tile's rectangle of the initial values into both fields, and of
     * the per-site terms, straight from the whole arrays (no staging copy). */
    int (*upload)(struct tile *t, const struct tile_input *in);
    /* Starts sweep k (args->iteration) or its phase, after the neighbours' previous
     * sweep or phase. With want_sums, phase 0 sets the block sums, phase 1 adds to
     * them (norm_combine). */
    int (*sweep)(struct tile *t, const struct sweep_args *args);
    /* Waits for sweep k; with want_sums, sets *total to the sum of its block sums,
     * added in the order of block_sums_total() (on the host or on the device). */
    int (*finish)(struct tile *t, long iteration, int want_sums, double *total);
    /* Copies field[which] into the tile's rectangle of `to`, a host field that holds
     * it (the whole lattice, or this rank's part). Tiles' threads may download at
     * once: their rectangles are disjoint. */
    int (*download)(struct tile *t, int which, struct field *to);
    /* Frees everything open() allocated; safe after a failed or partial open(). */
    void (*close)(struct tile *t);
    /* What the device offers the loop plan for this open, connected tile, one of the
     * run's `tiles`; 0, or -1 when a query failed. */
    int (*offer)(struct tile *t, int tiles, struct tile_offer *o);
    /* Optional (NULL: nothing to take): takes the tile's part of the loop plan, the
     * sweep's shape and grid, and allocates what they size (the block sums). */
    int (*prepare)(struct tile *t, const struct tile_plan *p);
    /* Optional (NULL if not offered): a lone tile runs the whole loop on its device
     * the way the plan says (cluster or spread: the device stops by itself), the host
     * looking in once a launch; or, the plan's spread strips over several GPUs, every
     * tile of the team its band (every tile's thread together). Same iterations, same
     * field, same norm. Returns 0 when done, -1 on failure (every thread alike).
     * chip_open (with run_on_chip, which runs only after it, once; every tile's thread
     * together, the same team, before the loop's clock): allocates what the loop keeps
     * (its state and a lap's norms; the spread strips' meeting; over several GPUs, the
     * stop words and peer access between every pair), so that the loop's time counts none
     * of it; 0, or -1 with t->error set. */
    int (*chip_open)(struct tile *t, const struct loop_plan *plan,
                     const struct chip_team *team);
    int (*run_on_chip)(struct tile *t, const struct loop_plan *plan,
                       const struct stop_rule *rule, struct stop_state *state,
                       const struct loop_watch *watch, struct chip_team *team);
    /* Optional (NULL if not offered): the loop in batches (loop_batches.c), of one
     * tile (the plan's singles or pairs) or several (batched).
     * batch_open: two sets of slots for the plan's batch of iterations' sums and of
     * checkpoints. batch_record (optional too; every tile's thread together, once
     * every tile's batch_open has succeeded): makes ready whatever batch_start of
     * this batch_call would otherwise make on its first launch (the GPUs' graph of
     * the set), so that the loop's time counts none of it; 1 when any tile failed.
     * batch_note (optional too): once the host has decided batch b with no stop
     * inside it, while the next batch runs, adds what the device measured of b to
     * t->breakdown
     * (LAPLACE_TUNE's breakdown; nothing otherwise); 0, or -1 with t->error set.
     * batch_start (every tile's thread together): saves the field of iteration
     * from - 1 as the batch's checkpoint and starts the batch, which may run on
     * after the call; batch b + 1 is started before batch b is waited for, and runs
     * after it (its checkpoint is b's end); batch_wait (together): waits for the
     * batch, not for one started after it. Both return 1 when any
     * tile failed (then every thread stops), else 0. batch_total: the tile's
     * total of iteration from + j, in block_sums_total()'s order. batch_rewind:
     * field[0] back to the batch's checkpoint, so that the host loop can replay
     * part of it (once no batch runs). */
    int (*batch_open)(struct tile *t, const struct loop_plan *plan);
    int (*batch_record)(struct tile *t, const struct batch_call *b);
    int (*batch_start)(struct tile *t, const struct batch_call *b);
    int (*batch_wait)(struct tile *t, const struct batch_call *b);
    int (*batch_total)(struct tile *t, const struct batch_call *b, long j, double *total);
    int (*batch_rewind)(struct tile *t, const struct batch_call *b);
    int (*batch_note)(struct tile *t, const struct batch_call *b);
    /* Optional (NULL if not offered): the edges of another MPI rank's tiles
     * (rank_split.c). A tile of another rank that borders this one is a
     * "shadow": a tile of one row or column (its extent), the edge this tile reads.
     * shadow_open: allocates the shadow's two fields where this tile's sweep reads
     * them; edge_read: this tile's edge on `side` of field[which], into host memory
     * (after the sweep that wrote it); shadow_write: host memory into the
     * shadow's field[which], before this tile's next sweep; shadow_close frees.
     * A device without edges_wait does each copy at once and sweeps whole. One with
     * it only queues them: edges_wait waits until the tile's queued edge_reads are in
     * host memory, and the loop sweeps the interior (SWEEP_INTERIOR) while the edges
     * travel, the rest (SWEEP_EDGES) after shadow_write; an edge_h is free again once
     * the tile's next edges_wait has returned. edge_buffer: host memory the device
     * copies an edge to and from fastest (page-locked for a GPU), NULL when out of
     * memory; edge_buffer_free frees it (both NULL: malloc and free). */
    int (*shadow_open)(struct tile *t, struct tile *shadow);
    int (*edge_read)(struct tile *t, int side, int which, void *edge_h);
    int (*edges_wait)(struct tile *t);
    int (*shadow_write)(struct tile *t, struct tile *shadow, int which,
                        const void *edge_h);
    void (*shadow_close)(struct tile *t, struct tile *shadow);
    void *(*edge_buffer)(struct tile *t, size_t bytes);
    void (*edge_buffer_free)(struct tile *t, void *edge_h);
};

/* Bytes of one field of the tile (width x height values). */
size_t device_tile_field_bytes(const struct tile *t);

/* How many sweeps' block sums a GPU tile keeps in device memory: two with --reduce
 * device (the device adds them), one for a rule of two phases (the first phase's wait
 * there for the second), else none (the sweeps write them into mapped host memory). */
int device_tile_sums_on_gpu(const struct tile_settings *s);

/* Where the tile's first site lies in a host array of pitch sites a row, each elem
 * bytes, whose first value is lattice site (x0, y0): its offset in bytes. */
size_t device_tile_offset(const struct tile *t, long x0, long y0, long pitch,
                          size_t elem);

/* The blocks of a tile's grid of gx x gy that each part of sweep a covers: the
 * interior (every block for SWEEP_WHOLE) and the strips along the sides whose
 * neighbour is another rank's tile (a shadow), for SWEEP_EDGES; returns the number
 * of strips (block_window_split). */
int device_sweep_windows(const struct sweep_args *a, long gx, long gy,
                         struct block_window *interior,
                         struct block_window strips[SIDE_COUNT]);

extern const struct device_ops device_host_ops;
#ifdef HAVE_CUDA
extern const struct device_ops device_cuda_ops;
#endif

#endif

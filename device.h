/*
 * device.h - the device interface: what the one iteration loop (solver.c) asks of
 * a device that owns one tile.
 *
 * Two implementations exist: device_cuda.c (a CUDA GPU; neighbours' edges are
 * read through peer access) and device_host.c (one OpenMP thread and host
 * memory; neighbours' edges are read straight from their tiles). Every call is
 * made by the one OpenMP thread that drives the tile, so a device is never used
 * by two threads at once. Calls return 0, or -1 with a message in tile->error.
 */
#ifndef LAPLACE_DEVICE_H
#define LAPLACE_DEVICE_H

#include "gpu_partition.h"
#include "problem.h"

/* How a tile is swept: the same for every tile of a run. */
struct tile_settings {
    int block_x, block_y; /* thread-block shape; also the shape of a partial-sum block */
    int use_p2p;          /* 1: read neighbours through peer access when possible */
};

struct tile {
    int index;                        /* tile number in the partition */
    const struct tile_extent *extent; /* where the tile lies in the lattice */
    int device;                       /* CUDA device id, or -1 on the host */
    enum precision precision;
    struct tile_settings settings;
    void *field[2];   /* the two fields; which one is old switches every iteration */
    long blocks_x;    /* partial-sum blocks across the tile */
    long blocks_y;    /* partial-sum blocks up the tile */
    double *block_sums; /* host copy: one sum of (new - old)^2 per block */
    int peer_fallback[SIDE_COUNT]; /* 1: that side's edge comes by copy, not peer read */
    void *impl;       /* the implementation's own state */
    char error[512];  /* why the last call failed */
};

/* What one sweep needs: which field is old, and the neighbours (NULL at the edge). */
struct sweep_args {
    int old;
    const struct tile *neighbour[SIDE_COUNT];
    int want_sums; /* 1: also produce the block partial sums */
};

struct device_ops {
    const char *name;
    /* Binds the calling thread to the device and allocates both fields and sums. */
    int (*open)(struct tile *t);
    /* Prepares reading the neighbours' edges (peer access, or halo buffers). */
    int (*connect)(struct tile *t, const struct tile *neighbour[SIDE_COUNT]);
    /* Copies tile_h (pitch = width) into both fields. */
    int (*upload)(struct tile *t, const void *tile_h);
    /* Starts one Jacobi sweep from field[old] into field[1 - old]. */
    int (*sweep)(struct tile *t, const struct sweep_args *args);
    /* Waits for the sweep; with want_sums, leaves the block sums in t->block_sums. */
    int (*finish)(struct tile *t, int want_sums);
    /* Copies field[which] into tile_h (pitch = width). */
    int (*download)(struct tile *t, int which, void *tile_h);
    /* Frees everything open() allocated; safe after a failed or partial open(). */
    void (*close)(struct tile *t);
};

extern const struct device_ops device_host_ops;
#ifdef HAVE_CUDA
extern const struct device_ops device_cuda_ops;
#endif

#endif

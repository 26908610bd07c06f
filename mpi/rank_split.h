/*
 * rank_split.h - what the one loop (loop.c) does when its tiles are split
 * among MPI ranks (ranks.h): which tiles this rank drives, the edges its tiles
 * and the other ranks' tiles send each other, the flags and tile totals every
 * rank shares before each decision; the field a rank keeps is its part (rank_part.h).
 *
 *   rank 0                                rank 1
 *   +--------+--------+ ~ ~ +             + ~ ~ +--------+--------+
 *   |   t0   |   t1   | t2  |  <- edges ->| t1  |   t2   |   t3   |
 *   +--------+--------+ ~ ~ +    (MPI)    + ~ ~ +--------+--------+
 *                       shadow                shadow
 *
 * A tile of another rank that borders one of ours is a shadow here: one column
 * (or row) holding the edge our tile reads, refreshed from its rank before each
 * sweep (or SOR phase) that reads it. So a device reads a shadow as it reads a
 * neighbour of its own rank, and the kernels know nothing of MPI.
 *
 * Each decision is taken on every rank from the same numbers: the ranks gather
 * every tile's total (MPI_Allgatherv) and add them in tile order, as one process
 * does, so the norms, the iteration counts and the fields are the same bits for
 * every layout of ranks. With one rank (distributed = 0) nothing here talks.
 * The field itself a rank holds only over its part (rank_part.h).
 */
#ifndef LAPLACE_RANK_SPLIT_H
#define LAPLACE_RANK_SPLIT_H

#include "devices/device.h"
#include "mpi/rank_part.h"
#include "mpi/ranks.h"
#include "solve/solve.h"

/* One edge between a tile of this rank and a shadow of another rank's tile. */
struct rank_link {
    struct tile *tile;   /* ours */
    int side;            /* the side of our tile where the other rank's tile lies */
    struct tile *shadow; /* that tile, as its edge */
    void *send_h, *receive_h;
    size_t bytes;
};

struct rank_split {
    int distributed; /* 1: the tiles are split among several ranks */
    int *local;      /* the tiles this rank drives, in tile order */
    int local_count;
    int *owner;         /* the rank of each tile */
    int tile_count;     /* every rank's tiles */
    int *counts;        /* per rank: what it shares before a decision (2 + its tiles) */
    double *mine, *all; /* what this rank shares, what all ranks shared */
    int *next;          /* per rank: where its next tile's total is in all[] */
    struct tile_extent *thin; /* per tile: the extent of its shadow, if it is one */
    struct rank_link *links;
    int link_count;
    struct rank_message *messages; /* two per link: the edge sent and received */
    double exchange_s;             /* seconds this rank spent in the edges' exchange */
    struct rank_part part;         /* the sites of the field this rank holds */
};

/*
 * The split of the partition's tiles among rx x ry ranks (1 x 1: every tile is
 * this process's). Marks the tiles of other ranks that border ours as shadows
 * (tile->remote, a thin extent, our tile's device). 0, or -1 (out of memory).
 */
int rank_split_make(struct rank_split *r, const struct partition *p, int rx, int ry,
                    struct tile *tiles);
void rank_split_free(struct rank_split *r);

/* By the thread of tile me: its shadows opened (or closed) on its device, with the
 * host buffers of their edges (the device's edge_buffer). */
int rank_split_shadows_open(struct rank_split *r, const struct device_ops *ops,
                            struct tile *me);
void rank_split_shadows_close(struct rank_split *r, const struct device_ops *ops,
                              struct tile *me);

/* The edges of field[which] to and from the other ranks, in three steps: each
 * tile's thread reads its edges (rank_split_edges_read; a device that queues the
 * copies is waited for by rank_split_edges_wait), one thread sends and receives
 * them all (rank_split_edges_exchange, its time added to exchange_s), each thread writes
 * its shadows (rank_split_edges_write). Device failures are returned (0 or -1, in
 * me->error); the exchange happens whatever they were, so that no rank waits for a
 * message. */
int rank_split_edges_read(struct rank_split *r, const struct device_ops *ops,
                          struct tile *me, int which);
int rank_split_edges_wait(struct rank_split *r, const struct device_ops *ops,
                          struct tile *me);
void rank_split_edges_exchange(struct rank_split *r);
int rank_split_edges_write(struct rank_split *r, const struct device_ops *ops,
                           struct tile *me, int which);

/*
 * Before a decision (one thread, every rank): shares this rank's flags and its
 * tiles' totals (tile_sums, indexed by tile) with every rank. Fills the other
 * ranks' entries of tile_sums; returns the signal any rank received (0: none);
 * *failed becomes 1 on every rank when any rank failed, and then result holds
 * the first failing rank's message, rank and node.
 */
int rank_split_share(struct rank_split *r, int *failed, double *tile_sums,
                     struct solve_result *result);

/* The same agreement without totals or signals: 1 on every rank when any failed. */
int rank_split_agree(struct rank_split *r, int failed, struct solve_result *result);

#endif

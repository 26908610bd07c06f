/*
 * loop_way.h - the loop plan as data: how a run iterates (plan/loop_plan.c decides it;
 * solver.c, loop_batches.c and the devices' run_on_chip carry it out). No includes, so
 * that every layer may read it.
 *
 *   host      the host at every iteration (loop.c), host tiles and GPUs
 *   batched   several tiles, batches the devices order among themselves
 *   singles   a lone GPU tile: batches of single sweeps, a CUDA graph each
 *   pairs     a lone GPU tile: batches of passes of two iterations
 *             (these three: loop_batches.c, the one protocol of batches: each
 *             iteration decided in order, replayed from the batch's checkpoint
 *             when the stop falls inside, the tail before --max-iter one shorter
 *             batch and then the host loop)
 *   cluster   a lone GPU tile on chip, in one thread-block cluster
 *   spread    a lone GPU tile on chip, strips over the multiprocessors; or tiles
 *             stacked in rows, one a GPU, the strips over every GPU's
 *             (these two: the device's run_on_chip; the device stops by itself)
 */
#ifndef LAPLACE_LOOP_WAY_H
#define LAPLACE_LOOP_WAY_H

enum loop_way {
    LOOP_WAY_HOST,
    LOOP_WAY_BATCHED,
    LOOP_WAY_SINGLES,
    LOOP_WAY_PAIRS,
    LOOP_WAY_CLUSTER,
    LOOP_WAY_SPREAD,
    LOOP_WAY_COUNT
};

/* How the run iterates. */
struct loop_plan {
    enum loop_way way;
    long batch;       /* iterations a batch (batched, singles, pairs) or a lap (on
                         chip); 0 for the host loop */
    long multiple;    /* batches: every batch's length is a multiple of this (2; 4
                         for pairs, whose passes end in field 0) */
    int blocks;       /* on chip: blocks of the cluster or of the spread strips */
    int depth;        /* on chip: the halos' rows (0: the blocks meet every iteration) */
    int lag;          /* spread: iterations the stop decision may lag the sweeps */
    int columns;      /* spread: each sweeping thread's column in registers */
    int gpus;         /* on chip: the GPUs its loop lies over (1: a lone tile's; more:
                         the spread strips of tiles stacked in rows, a band a tile) */
    int flags;        /* pairs on several tiles: the GPUs meet through peer flags (each
                         tile on its own GPU), not through one graph's edges */
    int failed;       /* 1: what was asked cannot run; reason says why */
    int failed_tile;  /* the tile it is about */
    char reason[400]; /* why this way, or why what was asked cannot run */
};

/* 1 when the way runs in batches (batched, singles, pairs: one tile or several, the
 * one protocol of loop_batches.c). */
static inline int loop_way_batches(enum loop_way way)
{
    return way == LOOP_WAY_BATCHED || way == LOOP_WAY_SINGLES || way == LOOP_WAY_PAIRS;
}

/* 1 when the way is on chip (cluster, spread: the device's run_on_chip). */
static inline int loop_way_on_chip(enum loop_way way)
{
    return way == LOOP_WAY_CLUSTER || way == LOOP_WAY_SPREAD;
}

#endif

/*
 * loop.h - the one iteration loop's steps (loop.c), over the state that the tiles'
 * threads share: solver.c runs the loop, loop_batches.c runs it in batches.
 */
#ifndef LAPLACE_LOOP_H
#define LAPLACE_LOOP_H

#include "plan/loop_plan.h"
#include "solve/solve.h"
#include "mpi/rank_split.h"

/* What the threads share; decisions are written by one thread between barriers. */
struct loop_state {
    const struct device_ops *ops;
    const struct partition *partition;
    const struct solve_settings *settings;
    struct stop_rule stop_rule; /* the settings' stop rule, the norm's scale fitted */
    struct tile *tiles;
    double *tile_sums;  /* each tile's total of its block sums */
    struct field *part; /* this rank's part (rank_part.h; the whole lattice with one
                         * process): the initial field in, the final field out */
    struct problem_terms terms; /* per-site source and fixed mask over the part */
    struct solve_result *result;
    int failed;                   /* some call failed (set under a critical section) */
    int stop;                     /* every thread leaves the current phase */
    int gather;                   /* the loop ended well: download the tiles */
    double alone_nonzero_norm;    /* a lone device's own loop: the last nonzero norm */
    long alone_nonzero_iteration; /* it showed, and its iteration (solve_result's) */
    struct stop_state state; /* the loop's count and verdict; field[state.iteration % 2]
                              * is the newest */
    int snapshot;       /* gather the field of st->state.iteration now for a snapshot */
    long resume;        /* the host loop's first iteration (1, or after the batches) */
    double *batch_sums; /* batches: tile t's total of iteration from + j at
                         * [j * tiles + t] (plan.batch iterations) */
    struct tile_offer *offers;    /* what each tile's device offers the loop plan */
    struct loop_plan plan;        /* how the run iterates (plan/loop_plan.h) */
    struct tile_plan *tile_plans; /* each tile's own part of it: its sweep's shape */
    double clock;                 /* start of the current phase */
    double loop_start;            /* start of the iteration loop, for the elapsed times */
    struct rank_split split;      /* this rank's tiles, the edges to other ranks' */
    struct chip_team chip_team;   /* the tiles whose devices run the loop on chip */
};

/* Records the first failure of any thread; the next decision then stops all. */
void loop_record(struct loop_state *st, const struct tile *me, int rc);

/* Every thread calls this; all get the same answer: has any call failed? */
int loop_agree(struct loop_state *st);

/* Downloads the newest field of the tile into its place in the rank's part; the
 * tiles' threads do so at once, each into its own rectangle. */
int loop_gather_tile(struct loop_state *st, struct tile *me);

/* Taken by one thread between two barriers: the verdict on an iteration, from
 * the tiles' totals of it (used when its norm is due). */
void loop_decide(struct loop_state *st, long iteration, double *totals);

/* Starts sweep k, every phase (SOR's black one after every tile's red one). */
void loop_start_sweep(struct loop_state *st, struct tile *me, struct sweep_args *args);

/* The host loop from iteration st->resume on; the last iteration this thread started. */
long loop_iterate(struct loop_state *st, struct tile *me);

#endif

/*
 * loop_batches.h - the one loop in batches (loop_batches.c): the devices run a
 * batch of iterations among themselves, the host decides on them afterwards.
 */
#ifndef LAPLACE_LOOP_BATCHES_H
#define LAPLACE_LOOP_BATCHES_H

#include "loop.h"

/* 1 when the plan's way runs in batches (batched, singles, pairs: one tile or
 * several, the one protocol of loop_batches.c). */
static inline int loop_way_batches(enum loop_way way)
{
    return way == LOOP_WAY_BATCHED || way == LOOP_WAY_SINGLES || way == LOOP_WAY_PAIRS;
}

/* The batches' buffers (the host's slots and the devices' own) and the graphs of
 * the batches the run reaches, recorded ahead; 1 when any tile failed (every
 * thread gets the same answer). */
int loop_batches_open(struct loop_state *st, struct tile *me);

/* The loop in batches; the last iteration this thread started. */
long loop_batches_iterate(struct loop_state *st, struct tile *me);

#endif

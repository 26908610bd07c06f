/*
 * loop_batches.h - the one loop in batches (loop_batches.c): the devices run a
 * batch of iterations among themselves, the host decides on them afterwards.
 */
#ifndef LAPLACE_LOOP_BATCHES_H
#define LAPLACE_LOOP_BATCHES_H

#include "loop.h"

/* The batches' buffers (the host's slots and the devices' own) and the graphs of
 * the batches the run reaches, recorded ahead; 1 when any tile failed (every
 * thread gets the same answer). */
int loop_batches_open(struct loop_state *st, struct tile *me);

/* The loop in batches; the last iteration this thread started. */
long loop_batches_iterate(struct loop_state *st, struct tile *me);

#endif

/*
 * device_cuda_alone.h - a lone tile's whole loop on its GPU, in batches
 * (device_cuda_alone.c; device.h's run_alone).
 */
#ifndef LAPLACE_DEVICE_CUDA_ALONE_H
#define LAPLACE_DEVICE_CUDA_ALONE_H

#include "devices/cuda_tile.h"

/* device.h's run_alone: 0 when the loop ran here, 1 when the tile declines
 * (the host loop runs it), -1 on failure with t->error. */
int device_cuda_alone_run(struct tile *t, const struct loop_plan *plan,
                          const struct stop_rule *rule, struct stop_state *out,
                          const struct loop_watch *watch);

/* Frees what device_cuda_alone_run() allocated (its graph and buffers); errors
 * are not reported. */
void device_cuda_alone_free(struct cuda_tile *c);

#endif

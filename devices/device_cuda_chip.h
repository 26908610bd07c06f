/*
 * device_cuda_chip.h - the loop on chip of a lone tile (device_cuda_chip.c), tried
 * first by device_cuda_alone.c.
 */
#ifndef LAPLACE_DEVICE_CUDA_CHIP_H
#define LAPLACE_DEVICE_CUDA_CHIP_H

#include "devices/cuda_tile.h"

/* The run_alone of device.h on chip: 0 done, -1 failed, 1 declined (the tile does not
 * fit in one cluster's shared memory, or a kernel or block shape was asked for). */
int device_cuda_chip_run(struct tile *t, const struct stop_rule *rule,
                         struct stop_state *out, const struct loop_watch *watch);

/* Frees what device_cuda_chip_run() allocated; errors are not reported. */
void device_cuda_chip_free(struct cuda_tile *c);

#endif

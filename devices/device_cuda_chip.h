/*
 * device_cuda_chip.h - the loop on chip of a lone tile (device_cuda_chip.c), tried
 * first by device_cuda_alone.c.
 */
#ifndef LAPLACE_DEVICE_CUDA_CHIP_H
#define LAPLACE_DEVICE_CUDA_CHIP_H

#include "devices/cuda_tile.h"

/* The run_alone of device.h on chip: 0 done, -1 failed (also: --loop chip on a tile
 * that does not fit), 1 declined (it does not fit, or does not pay, or another kernel,
 * block or loop was asked for). */
int device_cuda_chip_run(struct tile *t, const struct stop_rule *rule,
                         struct stop_state *out, const struct loop_watch *watch);

/* Frees what device_cuda_chip_run() allocated; errors are not reported. */
void device_cuda_chip_free(struct cuda_tile *c);

#endif

/*
 * device_cuda_chip.h - the loop on chip of a lone tile (device_cuda_chip.c; device.h's
 * run_alone), where the loop plan takes it (the cluster or the spread strips).
 */
#ifndef LAPLACE_DEVICE_CUDA_CHIP_H
#define LAPLACE_DEVICE_CUDA_CHIP_H

#include "devices/cuda_tile.h"

/* The run_alone of device.h on chip, the plan's way (LOOP_WAY_CLUSTER or
 * LOOP_WAY_SPREAD) in laps of plan->batch iterations: 0 done, -1 failed. */
int device_cuda_chip_run(struct tile *t, const struct loop_plan *plan,
                         const struct stop_rule *rule, struct stop_state *out,
                         const struct loop_watch *watch);

/* Frees what device_cuda_chip_run() allocated; errors are not reported. */
void device_cuda_chip_free(struct cuda_tile *c);

#endif

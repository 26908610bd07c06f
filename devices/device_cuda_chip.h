/*
 * device_cuda_chip.h - the loop on chip (device_cuda_chip.c; device.h's run_on_chip) of a
 * lone tile, or of tiles stacked in rows over their GPUs, where the loop plan takes it
 * (the cluster or the spread strips).
 */
#ifndef LAPLACE_DEVICE_CUDA_CHIP_H
#define LAPLACE_DEVICE_CUDA_CHIP_H

#include "devices/cuda_tile.h"

/* The chip_open of device.h: the state, a lap's norms and (spread) the meeting, zeroed;
 * over several GPUs the stop words and peer access between every pair. 0, or -1 with
 * t->error set. */
int device_cuda_chip_open(struct tile *t, const struct loop_plan *plan,
                          const struct chip_team *team);

/* The run_on_chip of device.h on chip, the plan's way (LOOP_WAY_CLUSTER or
 * LOOP_WAY_SPREAD; spread, a tile's band when the team has several) in laps of
 * plan->batch iterations: 0 done, -1 failed. */
int device_cuda_chip_run(struct tile *t, const struct loop_plan *plan,
                         const struct stop_rule *rule, struct stop_state *out,
                         const struct loop_watch *watch, struct chip_team *team);

/* Frees what device_cuda_chip_open() allocated; errors are not reported. */
void device_cuda_chip_free(struct cuda_tile *c);

#endif

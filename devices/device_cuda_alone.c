/*
 * device_cuda_alone.c - a lone tile runs the whole loop on its GPU by itself, the way
 * the loop plan took (device.h's run_alone; plan/loop_plan.c decides): resident
 * (--reduce device), one resident kernel a launch that adds the sums and stops by
 * itself; cluster or spread, on chip (device_cuda_chip.c). The host only looks in
 * after each launch. A lone tile's batches of singles or pairs, which the host
 * decides, are loop_batches.c's (device_cuda_batches.c queues them).
 */
#include "devices/device_cuda_alone.h"

#include <stdio.h>

#include <cuda_runtime_api.h>

#include "devices/cuda_tile.h"
#include "devices/device_cuda_chip.h"
#include "kernels/laplace_loop.h"

/* --reduce device: one resident kernel per batch adds the sums and stops by
 * itself; the host only launches batches and looks at the state after each. */
static int device_batches(struct tile *t, long per_launch, const struct stop_rule *rule,
                          struct stop_state *out, const struct loop_watch *watch)
{
    struct cuda_tile *c = t->impl;
    struct sweep_launch shape = cuda_tile_sweep_launch(t, 1, 0, NULL);
    CUDA_CHECK(t, cudaMalloc((void **)&c->state_d, sizeof *c->state_d));
    CUDA_CHECK(t, cudaMallocHost((void **)&c->state_h, sizeof *c->state_h));
    *c->state_h = *out; /* the start: no iteration, no norm yet */
    CUDA_CHECK(t, cudaMemcpyAsync(c->state_d, c->state_h, sizeof *c->state_d,
                                  cudaMemcpyHostToDevice, c->stream));
    do {
        long done = c->state_h->iteration;
        CUDA_CHECK(t, cuda_tile_injected_fault(t, done + 1, done + per_launch));
        CUDA_CHECK(t, laplace_loop(&shape, t->field[0], t->field[1], per_launch,
                                   c->block_sums_d, c->state_d, *rule, c->multiprocessors,
                                   c->stream));
        CUDA_CHECK(t, cudaMemcpyAsync(c->state_h, c->state_d, sizeof *c->state_h,
                                      cudaMemcpyDeviceToHost, c->stream));
        CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
        if (!c->state_h->stopped && c->state_h->norm_checks > 0 &&
            watch->norm(watch->context, c->state_h->norm_iteration, c->state_h->norm))
            stop_state_interrupt(c->state_h);
    } while (!c->state_h->stopped);
    *out = *c->state_h;
    return 0;
}

/* A lone tile: the whole loop here, the way the loop plan took (see device.h). */
int device_cuda_alone_run(struct tile *t, const struct loop_plan *plan,
                          const struct stop_rule *rule, struct stop_state *out,
                          const struct loop_watch *watch)
{
    *out = stop_state_start();
    switch (plan->way) {
    case LOOP_WAY_CLUSTER:
    case LOOP_WAY_SPREAD:
        return device_cuda_chip_run(t, plan, rule, out, watch);
    case LOOP_WAY_RESIDENT:
        return device_batches(t, plan->batch, rule, out, watch);
    default:
        snprintf(t->error, sizeof t->error,
                 "a lone tile runs alone only resident or on chip, not way %d",
                 (int)plan->way);
        return -1;
    }
}

/* Frees what device_cuda_alone_run() allocated; errors are not reported. */
void device_cuda_alone_free(struct cuda_tile *c)
{
    cudaFree(c->state_d);
    cudaFreeHost(c->state_h);
    device_cuda_chip_free(c);
}

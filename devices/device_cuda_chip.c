/*
 * device_cuda_chip.c - a lone tile whose fields fit in the GPU's shared memory runs
 * its whole loop there, in laps of many iterations: in one thread-block cluster
 * (kernels/laplace_chip.h), or by plain Jacobi in strips spread over the
 * multiprocessors (kernels/laplace_spread.h), whichever the loop plan took, at its
 * depth and lag (from the tile's plans of every depth, made when it offered them:
 * device_cuda_offer.c). After
 * each lap the host looks in, as after a batch: the injected fault, every norm the
 * lap computed (to the watch: history, signals) and a signal that came with no norm.
 */
#include "devices/device_cuda_chip.h"

#include <cuda_runtime_api.h>

#include "kernels/laplace_chip.h"
#include "kernels/laplace_spread.h"

/* The norms a lap keeps: the plan's laps are at most this long. */
#define CHIP_LAP_MOST 8192

/* Hands the norms of iterations from + 1 .. state->iteration to the watch, in order;
 * 1 when it (or a signal, with no norm in the lap) asked to stop. */
static int show_lap(const struct loop_watch *watch, const struct stop_rule *rule,
                    long from, const struct stop_state *state, const double *norms)
{
    int stop = 0, shown = 0;
    for (long k = from + 1; k <= state->iteration; k++)
        if (stop_rule_wants_norm(rule, k)) {
            stop |= watch->norm(watch->context, k, norms[k - from - 1]);
            shown = 1;
        }
    return shown ? stop : watch->stop_asked(watch->context);
}

static int allocate(struct tile *t, const struct spread_plan *strips,
                    const struct stop_state *start)
{
    struct cuda_tile *c = t->impl;
    const size_t norms = CHIP_LAP_MOST * sizeof(double);
    if (strips) {
        CUDA_CHECK(t, cudaMalloc(&c->meeting_d, strips->meeting_bytes));
        CUDA_CHECK(t, cudaMemsetAsync(c->meeting_d, 0, strips->meeting_bytes, c->stream));
    }
    CUDA_CHECK(t, cudaMalloc((void **)&c->state_d, sizeof *c->state_d));
    CUDA_CHECK(t, cudaMallocHost((void **)&c->state_h, sizeof *c->state_h));
    CUDA_CHECK(t, cudaMalloc((void **)&c->norms_d, norms));
    CUDA_CHECK(t, cudaMallocHost((void **)&c->norms_h, norms));
    *c->state_h = *start;
    CUDA_CHECK(t, cudaMemcpyAsync(c->state_d, c->state_h, sizeof *c->state_d,
                                  cudaMemcpyHostToDevice, c->stream));
    return 0;
}

/* The plan's way on chip, as the tile's offer planned it: the spread strips (else
 * NULL) or the cluster (else NULL). */
struct on_chip {
    const struct spread_plan *strips;
    const struct chip_plan *cluster;
};

/* One lap of `laps` iterations of the tile (its launch: tile) from the state's
 * iteration on, spread or in the cluster; the state and norms back on the host. */
static int lap(struct tile *t, const struct sweep_launch *tile, struct on_chip way,
               long laps, const struct stop_rule *rule)
{
    struct cuda_tile *c = t->impl;
    const long done = c->state_h->iteration;
    CUDA_CHECK(t, cuda_tile_injected_fault(t, done + 1, done + laps));
    if (way.strips)
        CUDA_CHECK(t, laplace_spread_loop(way.strips, tile, t->field[0], t->field[1],
                                          laps, c->state_d, c->norms_d, *rule,
                                          c->meeting_d, c->stream));
    else
        CUDA_CHECK(t, laplace_chip_loop(way.cluster, tile, t->field[0], t->field[1], laps,
                                        c->state_d, c->norms_d, *rule, c->stream));
    CUDA_CHECK(t, cudaMemcpyAsync(c->state_h, c->state_d, sizeof *c->state_h,
                                  cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(t, cudaMemcpyAsync(c->norms_h, c->norms_d, (size_t)laps * sizeof(double),
                                  cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

int device_cuda_chip_run(struct tile *t, const struct loop_plan *plan,
                         const struct stop_rule *rule, struct stop_state *out,
                         const struct loop_watch *watch)
{
    struct cuda_tile *c = t->impl;
    const struct on_chip way =
        plan->way == LOOP_WAY_SPREAD
            ? (struct on_chip){.strips = &c->strips_at[plan->depth][plan->lag - 1]
                                                      [plan->columns]}
            : (struct on_chip){.cluster = &c->cluster_at[plan->depth]};
    *out = stop_state_start();
    const long laps = plan->batch < CHIP_LAP_MOST ? plan->batch : CHIP_LAP_MOST;
    const struct sweep_launch tile = cuda_tile_sweep_launch(t, 1, 0, NULL);
    if (allocate(t, way.strips, out) != 0)
        return -1;
    do {
        const long done = c->state_h->iteration;
        if (lap(t, &tile, way, laps, rule) != 0)
            return -1;
        if (show_lap(watch, rule, done, c->state_h, c->norms_h) && !c->state_h->stopped)
            stop_state_interrupt(c->state_h);
    } while (!c->state_h->stopped);
    *out = *c->state_h;
    return 0;
}

void device_cuda_chip_free(struct cuda_tile *c)
{
    cudaFree(c->state_d);
    cudaFreeHost(c->state_h);
    cudaFree(c->meeting_d);
    cudaFree(c->norms_d);
    cudaFreeHost(c->norms_h);
}

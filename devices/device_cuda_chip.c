/*
 * device_cuda_chip.c - a lone tile whose two fields fit in the shared memory of one
 * thread-block cluster runs its whole loop there (kernels/laplace_chip.h), in laps
 * of many iterations. After each lap the host looks in, as after a batch: the
 * injected fault, every norm the lap computed (to the watch: history, signals) and
 * a signal that came with no norm.
 */
#include "devices/device_cuda_chip.h"

#include <stdio.h>

#include <cuda_runtime_api.h>

#include "kernels/laplace_chip.h"

/* Iterations a lap: about 10 ms at the 1-2 us an iteration of a small lattice, so the
 * host answers Ctrl-C at once and the lap's norms fit in 64 KiB. */
#define CHIP_LAP_ITERATIONS 8192

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

static int allocate(struct tile *t, const struct stop_state *start)
{
    struct cuda_tile *c = t->impl;
    const size_t norms = CHIP_LAP_ITERATIONS * sizeof(double);
    CUDA_CHECK(t, cudaMalloc((void **)&c->state_d, sizeof *c->state_d));
    CUDA_CHECK(t, cudaMallocHost((void **)&c->state_h, sizeof *c->state_h));
    CUDA_CHECK(t, cudaMalloc((void **)&c->norms_d, norms));
    CUDA_CHECK(t, cudaMallocHost((void **)&c->norms_h, norms));
    *c->state_h = *start;
    CUDA_CHECK(t, cudaMemcpyAsync(c->state_d, c->state_h, sizeof *c->state_d,
                                  cudaMemcpyHostToDevice, c->stream));
    return 0;
}

/* One lap of the tile (its launch: tile) from the state's iteration on; the state
 * and norms back on the host. */
static int lap(struct tile *t, const struct sweep_launch *tile,
               const struct chip_plan *plan, const struct stop_rule *rule)
{
    struct cuda_tile *c = t->impl;
    const long done = c->state_h->iteration;
    CUDA_CHECK(t, cuda_tile_injected_fault(t, done + 1, done + CHIP_LAP_ITERATIONS));
    CUDA_CHECK(t, laplace_chip_loop(plan, tile, t->field[0], t->field[1],
                                    CHIP_LAP_ITERATIONS, c->state_d, c->norms_d, *rule,
                                    c->stream));
    CUDA_CHECK(t, cudaMemcpyAsync(c->state_h, c->state_d, sizeof *c->state_h,
                                  cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(t, cudaMemcpyAsync(c->norms_h, c->norms_d,
                                  CHIP_LAP_ITERATIONS * sizeof(double),
                                  cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

/*
 * Whether --loop auto takes the loop on chip where it fits: where it ran faster than
 * the rows kernel's batches. Measured on an H100, 200000 iterations, medians of 3
 * (results/2026-11-25-chip/steady.csv): float faster at every size that fits (128^2
 * 2.79 against 2.87 us an iteration, 256^2 2.86/2.99, 384^2 3.12/3.36, 512^2 3.91/3.97,
 * 640^2 4.57/4.84); double slower at 256^2 (3.02/2.78), faster at 384^2 (3.40/3.60).
 * So float only; a kernel or block asked for keeps that kernel's loop.
 */
static int chip_pays(const struct tile *t)
{
    const struct tile_settings *s = &t->settings;
    return s->loop == LOOP_AUTO && s->kernel == KERNEL_AUTO && s->block_x <= 0 &&
           t->precision == PRECISION_FLOAT;
}

/* --loop chip on a tile that does not fit: -1 with the reason. */
static int does_not_fit(struct tile *t)
{
    snprintf(t->error, sizeof t->error,
             "--loop chip: the two fields of the %ld x %ld lattice (%.2f MiB) do not fit "
             "in the shared memory of one thread-block cluster of GPU %d (about 3.5 MiB "
             "on Hopper); use --loop auto",
             t->extent->lx, t->extent->ly,
             2.0 * (double)device_tile_field_bytes(t) / 1048576.0, t->device);
    return -1;
}

int device_cuda_chip_run(struct tile *t, const struct stop_rule *rule,
                         struct stop_state *out, const struct loop_watch *watch)
{
    struct cuda_tile *c = t->impl;
    const int asked = t->settings.loop == LOOP_CHIP;
    if (!asked && !chip_pays(t))
        return 1;
    const struct sweep_launch tile = cuda_tile_sweep_launch(t, 1, 0, NULL);
    struct chip_plan plan;
    CUDA_CHECK(t, laplace_chip_plan(&tile, update_rule_is_plain_jacobi(&t->settings.rule),
                                    &plan));
    if (plan.blocks == 0)
        return asked ? does_not_fit(t) : 1;
    if (allocate(t, out) != 0)
        return -1;
    t->loop_batch = CHIP_LAP_ITERATIONS;
    t->loop_cluster = plan.blocks;
    do {
        const long done = c->state_h->iteration;
        if (lap(t, &tile, &plan, rule) != 0)
            return -1;
        if (show_lap(watch, rule, done, c->state_h, c->norms_h) && !c->state_h->stopped)
            stop_state_interrupt(c->state_h);
    } while (!c->state_h->stopped);
    *out = *c->state_h;
    return 0;
}

void device_cuda_chip_free(struct cuda_tile *c)
{
    cudaFree(c->norms_d);
    cudaFreeHost(c->norms_h);
}

/*
 * device_cuda_chip.c - a lone tile whose fields fit in the GPU's shared memory runs
 * its whole loop there, in laps of many iterations: in one thread-block cluster
 * (kernels/laplace_chip.h), or by plain Jacobi in strips spread over the
 * multiprocessors (kernels/laplace_spread.h), whichever way_on_chip() takes. After
 * each lap the host looks in, as after a batch: the injected fault, every norm the
 * lap computed (to the watch: history, signals) and a signal that came with no norm.
 */
#include "devices/device_cuda_chip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "kernels/laplace_chip.h"
#include "kernels/laplace_spread.h"

/* The spread strips take a lattice over this many rows high where the cluster would
 * hold it too, or over ROUNDS_UP_TO_ROWS where the cluster holds it in rounds (the
 * cluster meeting every iteration: every rule but plain Jacobi, or halos too large).
 * Measured on H100s, the norm every iteration, medians of 3, us an iteration:
 * - the cluster meeting every iteration against the spread strips in rounds of 2
 *   (results/2026-11-26-rounds, probe-5 and run-6, two machines): float 32^2
 *   1.79/1.72 and 1.79/1.83, 64^2 1.91/1.74 and 1.90/1.93, 128^2 2.02/1.94 and
 *   2.01/2.02, 256^2 2.46/2.00 and 2.46/2.31; double 128^2 2.05/2.05, 256^2 2.69/2.18:
 *   alike up to 128 rows, the spread strips ahead above;
 * - the cluster in rounds against the spread strips (results/2026-11-26-floors,
 *   probe-8): float 128^2 1.41/2.03, 192^2 1.42/2.08, 256^2 1.74/2.17; double 128^2
 *   1.41/1.99, 256^2 (rounds of 2: 4 do not fit) 2.11/2.18. */
#define SPREAD_FROM_ROWS 128
#define ROUNDS_UP_TO_ROWS 256

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

/* How the tile runs on chip: the plan of the way taken (spread or not). */
struct on_chip {
    int spread;
    struct chip_plan cluster;
    struct spread_plan strips;
};

static int allocate(struct tile *t, const struct on_chip *way,
                    const struct stop_state *start)
{
    struct cuda_tile *c = t->impl;
    const size_t norms = CHIP_LAP_ITERATIONS * sizeof(double);
    if (way->spread) {
        CUDA_CHECK(t, cudaMalloc(&c->meeting_d, way->strips.meeting_bytes));
        CUDA_CHECK(
            t, cudaMemsetAsync(c->meeting_d, 0, way->strips.meeting_bytes, c->stream));
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

/* One lap of the tile (its launch: tile) from the state's iteration on; the state
 * and norms back on the host. */
static int lap(struct tile *t, const struct sweep_launch *tile, const struct on_chip *way,
               const struct stop_rule *rule)
{
    struct cuda_tile *c = t->impl;
    const long done = c->state_h->iteration;
    CUDA_CHECK(t, cuda_tile_injected_fault(t, done + 1, done + CHIP_LAP_ITERATIONS));
    if (way->spread)
        CUDA_CHECK(t, laplace_spread_loop(&way->strips, tile, t->field[0], t->field[1],
                                          CHIP_LAP_ITERATIONS, c->state_d, c->norms_d,
                                          *rule, c->meeting_d, c->stream));
    else
        CUDA_CHECK(t, laplace_chip_loop(&way->cluster, tile, t->field[0], t->field[1],
                                        CHIP_LAP_ITERATIONS, c->state_d, c->norms_d,
                                        *rule, c->stream));
    CUDA_CHECK(t, cudaMemcpyAsync(c->state_h, c->state_d, sizeof *c->state_h,
                                  cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(t, cudaMemcpyAsync(c->norms_h, c->norms_d,
                                  CHIP_LAP_ITERATIONS * sizeof(double),
                                  cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

/*
 * Whether --loop auto takes the loop on chip where it fits: for plain Jacobi, in
 * either precision, where it ran faster than the rows kernel's batches. Measured on an
 * H100, the norm every iteration, medians of 3, us an iteration on chip against the
 * batches (results/2026-11-25-chip-blocks, results/2026-11-26-spread): float 128^2
 * 2.03/2.87, 512^2 3.02/3.97, 1024^2 4.29/8.35; double 128^2 2.03/2.86, 512^2
 * 3.33/4.36, 1024^2 4.98/9.67. Every other rule is slower on chip (SOR at 512^2 float
 * 30.6 against 10.6, a source at 256^2 5.70 against 3.14: the general sweep on chip
 * tests each site's colour and region), so it keeps the batches. A kernel or block
 * asked for keeps that kernel's loop.
 */
static int chip_pays(const struct tile *t)
{
    const struct tile_settings *s = &t->settings;
    return s->loop == LOOP_AUTO && s->kernel == KERNEL_AUTO && s->block_x <= 0 &&
           update_rule_is_plain_jacobi(&s->rule);
}

/* --loop chip on a tile that does not fit: -1 with the reason. */
static int does_not_fit(struct tile *t)
{
    snprintf(t->error, sizeof t->error,
             "--loop chip: the two fields of the %ld x %ld lattice (%.2f MiB) do not fit "
             "in the shared memory of GPU %d (on Hopper: about 3.5 MiB in one "
             "thread-block cluster, or by plain Jacobi about 26 MiB over every "
             "multiprocessor, whose strips keep two copies or more); use --loop auto",
             t->extent->lx, t->extent->ly,
             2.0 * (double)device_tile_field_bytes(t) / 1048576.0, t->device);
    return -1;
}

/* For tuning experiments and the GPU suite: LAPLACE_CHIP_WAY=cluster or spread takes
 * only that way (spread: plain Jacobi, where its strips fit), else --loop chip is
 * refused and auto takes the batches; 0 when unset, 1 cluster, 2 spread. */
static int forced_way(void)
{
    const char *text = getenv("LAPLACE_CHIP_WAY");
    if (!text)
        return 0;
    return strcmp(text, "cluster") == 0 ? 1 : strcmp(text, "spread") == 0 ? 2 : 0;
}

/*
 * Which way the tile goes on chip: the cluster where it fits and the lattice is at most
 * SPREAD_FROM_ROWS rows high (ROUNDS_UP_TO_ROWS in rounds), else, for plain Jacobi, the
 * spread strips where they fit (else the cluster again, if it fits). Only the ways
 * that may be taken are planned, so that a CUDA call of the other cannot fail the run.
 * Sets way->spread and the plans (the chosen plan's blocks 0: the tile does not fit
 * that way); 0, or -1 when a CUDA call failed.
 */
static int way_on_chip(struct tile *t, const struct sweep_launch *tile,
                       struct on_chip *way)
{
    const int plain = update_rule_is_plain_jacobi(&t->settings.rule),
              forced = forced_way();
    memset(way, 0, sizeof *way);
    if (forced != 2)
        CUDA_CHECK(t, laplace_chip_plan(tile, plain, &way->cluster));
    const int cluster = way->cluster.blocks > 0;
    const long up_to = way->cluster.depth > 0 ? ROUNDS_UP_TO_ROWS : SPREAD_FROM_ROWS;
    if (forced == 1 || !plain || (cluster && tile->ly <= up_to))
        return 0;
    CUDA_CHECK(t, laplace_spread_plan(tile, &way->strips));
    way->spread = way->strips.blocks > 0 || !cluster; /* forced spread: no cluster */
    return 0;
}

int device_cuda_chip_run(struct tile *t, const struct stop_rule *rule,
                         struct stop_state *out, const struct loop_watch *watch)
{
    struct cuda_tile *c = t->impl;
    const int asked = t->settings.loop == LOOP_CHIP;
    if (!asked && !chip_pays(t))
        return 1;
    const struct sweep_launch tile = cuda_tile_sweep_launch(t, 1, 0, NULL);
    struct on_chip way;
    if (way_on_chip(t, &tile, &way) != 0)
        return -1;
    if (way.spread ? way.strips.blocks == 0 : way.cluster.blocks == 0)
        return asked ? does_not_fit(t) : 1;
    if (allocate(t, &way, out) != 0)
        return -1;
    t->loop_batch = CHIP_LAP_ITERATIONS;
    if (way.spread) {
        t->loop_spread = way.strips.blocks;
        t->loop_columns = way.strips.columns;
    } else
        t->loop_cluster = way.cluster.blocks;
    t->loop_round = way.spread ? (way.strips.depth > 0 ? way.strips.depth : 1)
                               : (way.cluster.depth > 0 ? way.cluster.depth : 1);
    do {
        const long done = c->state_h->iteration;
        if (lap(t, &tile, &way, rule) != 0)
            return -1;
        if (show_lap(watch, rule, done, c->state_h, c->norms_h) && !c->state_h->stopped)
            stop_state_interrupt(c->state_h);
    } while (!c->state_h->stopped);
    *out = *c->state_h;
    return 0;
}

void device_cuda_chip_free(struct cuda_tile *c)
{
    cudaFree(c->meeting_d);
    cudaFree(c->norms_d);
    cudaFreeHost(c->norms_h);
}

/*
 * device_cuda_alone.c - a lone tile runs the whole loop on its GPU the way the loop
 * plan took (device.h's run_alone; plan/loop_plan.c decides). Singles: each batch is
 * one CUDA graph of sweeps whose block sums all come back to the host, which adds and
 * tests them iteration by iteration; when the stop falls inside a batch, the field
 * goes back to the batch's checkpoint and the sweeps are replayed up to the stop.
 * Pairs: the same batches in passes of two iterations each (device_cuda_pairs.c),
 * which move half the bytes. Resident (--reduce device): one resident kernel per
 * batch adds the sums and stops by itself. Cluster, spread: on chip
 * (device_cuda_chip.c).
 */
#include "devices/device_cuda_alone.h"

#include <math.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "devices/cuda_tile.h"
#include "devices/device_cuda_chip.h"
#include "devices/device_cuda_pairs.h"
#include "laplace_kernels.h"
#include "kernels/laplace_loop.h"
#include "plan/loop_plan.h"

/* Queues every phase of iteration k of a lone tile, block sums into sums (NULL:
 * none); its phases follow each other on the one stream. */
static int queue_lone_iteration(struct tile *t, long k, double *sums)
{
    for (int phase = 0; phase < update_rule_phases(&t->settings.rule); phase++) {
        struct sweep_launch l = cuda_tile_sweep_launch(t, k, phase, sums);
        if (cuda_tile_launch_sweep(t, &l) != 0)
            return -1;
    }
    return 0;
}

/* How a batch's iterations are queued, and the block sums each iteration leaves:
 * single sweeps of the tile's kernel, or passes of two iterations (pairs). */
struct batch_way {
    int (*queue)(struct tile *t, long n); /* a batch of n, on the tile's stream */
    long sums;                            /* block sums an iteration */
    long multiple;                        /* of which a batch's length is one */
};

/* Queues a batch of n single sweeps, after a copy of the field (the checkpoint). */
static int queue_sweeps(struct tile *t, long n)
{
    struct cuda_tile *c = t->impl;
    const size_t slot = (size_t)t->block_count;
    CUDA_CHECK(t,
               cudaMemcpyAsync(c->checkpoint_d, t->field[0], device_tile_field_bytes(t),
                               cudaMemcpyDeviceToDevice, c->stream));
    for (long k = 1; k <= n; k++)
        if (queue_lone_iteration(t, k, c->slots_d + (size_t)(k - 1) * slot) != 0)
            return -1;
    CUDA_CHECK(t,
               cudaMemcpyAsync(c->slots_h, c->slots_d, (size_t)n * slot * sizeof(double),
                               cudaMemcpyDeviceToHost, c->stream));
    return 0;
}

/* Captures one batch into a CUDA graph, so that a batch is one launch. */
static int capture_batch(struct tile *t, const struct batch_way *way, long n)
{
    struct cuda_tile *c = t->impl;
    cudaGraph_t graph = NULL;
    CUDA_CHECK(t, cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal));
    int rc = way->queue(t, n);
    cudaError_t end = cudaStreamEndCapture(c->stream, &graph);
    if (rc != 0)
        return cudaGraphDestroy(graph), -1;
    CUDA_CHECK(t, end);
    cudaError_t made = cudaGraphInstantiate(&c->batch, graph, 0);
    cudaGraphDestroy(graph);
    CUDA_CHECK(t, made);
    return 0;
}

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

/* The host's test of iteration k from its `count` block sums (stop_rule.h); 1 when
 * the loop stops, by the rule or because the watch asked to (STOP_INTERRUPTED). */
static int host_tests(const struct tile *t, const struct stop_rule *rule,
                      const struct loop_watch *watch, long k, const double *sums,
                      long count, struct stop_state *st)
{
    int has_norm = stop_rule_wants_norm(rule, k);
    double norm = NAN;
    int interrupt = 0;
    if (has_norm) {
        norm = stop_rule_norm(
            rule, block_sums_total(sums, count, t->settings.rule.norm));
        interrupt = watch->norm(watch->context, k, norm);
    }
    if (!stop_state_step(rule, st, k, has_norm, norm) && interrupt)
        stop_state_interrupt(st);
    return st->stopped;
}

/* Runs iterations from..to one launch each, block sums to slot 0 if test. */
static int run_one_by_one(struct tile *t, long from, long to, int test,
                          const struct stop_rule *rule, const struct loop_watch *watch,
                          struct stop_state *st)
{
    struct cuda_tile *c = t->impl;
    for (long k = from; k <= to; k++) {
        CUDA_CHECK(t, cuda_tile_injected_fault(t, k, k));
        if (queue_lone_iteration(t, k, test ? c->slots_d : NULL) != 0)
            return -1;
        if (!test)
            continue;
        CUDA_CHECK(t, cudaMemcpyAsync(c->slots_h, c->slots_d, cuda_tile_sums_bytes(t),
                                      cudaMemcpyDeviceToHost, c->stream));
        CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
        if (host_tests(t, rule, watch, k, c->slots_h, t->block_count, st))
            return 0;
    }
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

/* Goes back to the field at the batch's start (iteration from - 1) and repeats
 * the sweeps up to iteration k: the same bits, since a sweep is deterministic. */
static int replay(struct tile *t, long from, long k)
{
    struct cuda_tile *c = t->impl;
    CUDA_CHECK(t,
               cudaMemcpyAsync(t->field[0], c->checkpoint_d, device_tile_field_bytes(t),
                               cudaMemcpyDeviceToDevice, c->stream));
    return run_one_by_one(t, from, k, 0, NULL, NULL, NULL);
}

/* Tests iterations from .. from + n - 1 of a batch that ran, in order; 1 when the
 * loop stopped there (the field of the stop put back in place), -1 on failure. */
static int test_batch(struct tile *t, const struct batch_way *way, long from, long n,
                      const struct stop_rule *rule, const struct loop_watch *watch,
                      struct stop_state *st)
{
    struct cuda_tile *c = t->impl;
    for (long k = from; k < from + n; k++)
        if (host_tests(t, rule, watch, k, c->slots_h + (k - from) * way->sums, way->sums,
                       st))
            return k == from + n - 1 || replay(t, from, k) == 0 ? 1 : -1;
    return 0;
}

/* --reduce host: batches of n iterations queued `way`, whose block sums all come
 * back to the host, which adds and tests each iteration in order. The iterations
 * left before max_iter, fewer than n, run as one batch queued directly (its length
 * a multiple of `multiple`), and the last few one by one. */
static int host_batches(struct tile *t, const struct batch_way *way, long n,
                        const struct stop_rule *rule, const struct loop_watch *watch,
                        struct stop_state *st)
{
    struct cuda_tile *c = t->impl;
    const long slots = n * way->sums > t->block_count ? n * way->sums : t->block_count;
    const size_t sums_bytes = (size_t)slots * sizeof(double); /* and the last few's */
    CUDA_CHECK(t, cudaMalloc(&c->checkpoint_d, device_tile_field_bytes(t)));
    CUDA_CHECK(t, cudaMalloc((void **)&c->slots_d, sums_bytes));
    CUDA_CHECK(t, cudaMallocHost((void **)&c->slots_h, sums_bytes));
    if (capture_batch(t, way, n) != 0)
        return -1;
    long from = 1;
    for (; from + n - 1 <= rule->max_iter; from += n) {
        CUDA_CHECK(t, cuda_tile_injected_fault(t, from, from + n - 1));
        CUDA_CHECK(t, cudaGraphLaunch(c->batch, c->stream));
        CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
        const int stopped = test_batch(t, way, from, n, rule, watch, st);
        if (stopped != 0)
            return stopped < 0 ? -1 : 0;
    }
    const long left = rule->max_iter - from + 1, m = left - left % way->multiple;
    if (m > 0) {
        CUDA_CHECK(t, cuda_tile_injected_fault(t, from, from + m - 1));
        if (way->queue(t, m) != 0)
            return -1;
        CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
        const int stopped = test_batch(t, way, from, m, rule, watch, st);
        if (stopped != 0)
            return stopped < 0 ? -1 : 0;
        from += m;
    }
    return run_one_by_one(t, from, rule->max_iter, 1, rule, watch, st); /* the last few */
}

/* A lone tile: the whole loop here, the way the loop plan took (see device.h). */
int device_cuda_alone_run(struct tile *t, const struct loop_plan *plan,
                          const struct stop_rule *rule, struct stop_state *out,
                          const struct loop_watch *watch)
{
    const struct batch_way singles = {queue_sweeps, t->block_count, 2};
    const struct batch_way pairs = {device_cuda_pairs_queue, device_cuda_pairs_sums(t),
                                    4};
    *out = stop_state_start();
    switch (plan->way) {
    case LOOP_WAY_CLUSTER:
    case LOOP_WAY_SPREAD:
        return device_cuda_chip_run(t, plan, rule, out, watch);
    case LOOP_WAY_RESIDENT:
        return device_batches(t, plan->batch, rule, out, watch);
    case LOOP_WAY_PAIRS:
        return host_batches(t, &pairs, plan->batch, rule, watch, out);
    case LOOP_WAY_SINGLES:
        return host_batches(t, &singles, plan->batch, rule, watch, out);
    default:
        snprintf(t->error, sizeof t->error, "a lone tile cannot run the %s loop",
                 loop_plan_way_name(plan->way));
        return -1;
    }
}

/* Frees what device_cuda_alone_run() allocated: the graph, then the memory its
 * nodes used; errors are not reported. */
void device_cuda_alone_free(struct cuda_tile *c)
{
    if (c->batch)
        cudaGraphExecDestroy(c->batch);
    cudaFree(c->state_d);
    cudaFreeHost(c->state_h);
    cudaFree(c->checkpoint_d);
    cudaFree(c->slots_d);
    cudaFreeHost(c->slots_h);
    device_cuda_chip_free(c);
}

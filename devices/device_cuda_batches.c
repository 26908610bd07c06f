/*
 * device_cuda_batches.c - batches of several tiles on CUDA GPUs (device.h's
 * batch_*), for the batched loop of loop_batches.c.
 *
 * Batches of several tiles. One CUDA graph holds a whole batch of every GPU:
 * each GPU's nodes run on that GPU (they are captured from its own stream),
 * and sweep k of a tile depends on its neighbours' sweep k - 1 through the
 * captured event waits of the host loop, which become graph edges. Two graphs,
 * one for each set of buffers (checkpoint, slots), so that batch b + 1 runs
 * while the host reads batch b's sums. The first tile's thread records each
 * graph once and launches one a batch; every thread checks its own GPU for an
 * injected fault before the launch and for an error of the batch after it.
 *
 * No deadlock by construction: the graph's edges are captured in iteration
 * order, so every dependency points to an earlier sweep and the graph is
 * acyclic; nothing spins or waits on a flag, and the host threads meet only at
 * batch_call's meet(), which every thread reaches on every path.
 */
#include "devices/device_cuda_batches.h"

#include <stdio.h>
#include <string.h>

int device_cuda_batches_open(struct tile *t, long n)
{
    struct cuda_tile *c = t->impl;
    CUDA_CHECK(t, cudaEventCreateWithFlags(&c->mark, cudaEventDisableTiming));
    for (int set = 0; set < 2; set++) {
        struct cuda_tile_batch_set *s = &c->sets[set];
        CUDA_CHECK(t, cudaMalloc(&s->checkpoint_d, device_tile_field_bytes(t)));
        if (t->settings.reduce == REDUCE_DEVICE) {
            CUDA_CHECK(t, cudaMalloc((void **)&s->totals_d, (size_t)n * sizeof(double)));
            CUDA_CHECK(t,
                       cudaMallocHost((void **)&s->totals_h, (size_t)n * sizeof(double)));
        } else {
            CUDA_CHECK(
                t, cudaMalloc((void **)&s->slots_d, (size_t)n * cuda_tile_sums_bytes(t)));
            CUDA_CHECK(t, cudaMallocHost((void **)&s->slots_h,
                                         (size_t)n * cuda_tile_sums_bytes(t)));
        }
    }
    return 0;
}

/* Queues, on the tile's stream, sweep k (1..n) of a batch: block sums into
 * slot k - 1, or with --reduce device the tile total into totals_d[k - 1]. */
static int queue_batch_sweep(struct tile *t, const struct batch_call *b, long k,
                             int phase)
{
    struct cuda_tile *c = t->impl;
    struct cuda_tile_batch_set *s = &c->sets[batch_set(b)];
    struct sweep_args a = {.iteration = k, .phase = phase, .want_sums = 1};
    tile_neighbours(b->tiles, t, a.neighbour);
    if (t->settings.reduce == REDUCE_DEVICE)
        return cuda_tile_queue_sweep(t, &a, c->block_sums_d, s->totals_d + (k - 1));
    return cuda_tile_queue_sweep(
        t, &a, s->slots_d + (size_t)(k - 1) * (size_t)t->block_count, NULL);
}

/* Queues the start of a batch on a tile's stream: joining the graph (all but
 * the first tile, which started it) and the checkpoint copy. */
static int queue_batch_start(struct tile *t, const struct tile *first,
                             const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    if (t != first)
        CUDA_CHECK(t, cudaStreamWaitEvent(c->stream,
                                          ((struct cuda_tile *)first->impl)->mark, 0));
    CUDA_CHECK(t, cudaMemcpyAsync(c->sets[batch_set(b)].checkpoint_d, t->field[0],
                                  device_tile_field_bytes(t), cudaMemcpyDeviceToDevice,
                                  c->stream));
    return 0;
}

/* Queues the end of a batch on a tile's stream: the sums to the host, and
 * (all but the first tile) the mark the first tile's stream waits for. */
static int queue_batch_end(struct tile *t, struct tile *first, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    struct cuda_tile_batch_set *s = &c->sets[batch_set(b)];
    if (t->settings.reduce == REDUCE_DEVICE)
        CUDA_CHECK(t, cudaMemcpyAsync(s->totals_h, s->totals_d,
                                      (size_t)b->n * sizeof(double),
                                      cudaMemcpyDeviceToHost, c->stream));
    else
        CUDA_CHECK(t, cudaMemcpyAsync(s->slots_h, s->slots_d,
                                      (size_t)b->n * cuda_tile_sums_bytes(t),
                                      cudaMemcpyDeviceToHost, c->stream));
    if (t == first)
        return 0;
    struct cuda_tile *f = first->impl;
    CUDA_CHECK(t, cudaEventRecord(c->mark, c->stream));
    CUDA_CHECK(first, cudaSetDevice(first->device));
    CUDA_CHECK(first, cudaStreamWaitEvent(f->stream, c->mark, 0));
    return 0;
}

/* Queues a whole batch of every tile into the capture begun on the first
 * tile's stream: iteration by iteration, phase by phase, tile by tile, so that
 * each wait refers to the neighbours' previous sweep (or phase). Returns the
 * failing tile, or NULL. */
static struct tile *queue_group(const struct batch_call *b)
{
    struct tile *first = &b->tiles[0];
    struct cuda_tile *f = first->impl;
    const int phases = update_rule_phases(&first->settings.rule);
    if (cudaEventRecord(f->mark, f->stream) != cudaSuccess)
        return first;
    for (int i = 0; i < b->count; i++)
        if (cudaSetDevice(b->tiles[i].device) != cudaSuccess ||
            queue_batch_start(&b->tiles[i], first, b) != 0)
            return &b->tiles[i];
    for (long k = 1; k <= b->n; k++)
        for (int phase = 0; phase < phases; phase++)
            for (int i = 0; i < b->count; i++)
                if (cudaSetDevice(b->tiles[i].device) != cudaSuccess ||
                    queue_batch_sweep(&b->tiles[i], b, k, phase) != 0)
                    return &b->tiles[i];
    for (int i = 0; i < b->count; i++)
        if (cudaSetDevice(b->tiles[i].device) != cudaSuccess ||
            queue_batch_end(&b->tiles[i], first, b) != 0)
            return &b->tiles[i];
    return NULL;
}

/* The sweep events were last recorded inside the capture, where a wait from
 * outside it (the host loop's, after the batches) is refused: records each once
 * more on its idle stream, so that such a wait finds it already complete. */
static int rearm_events(struct tile *first, const struct batch_call *b)
{
    for (int i = 0; i < b->count; i++) {
        struct tile *t = &b->tiles[i];
        struct cuda_tile *c = t->impl;
        CUDA_CHECK(first, cudaSetDevice(t->device));
        for (int p = 0; p < 2; p++)
            CUDA_CHECK(first, cudaEventRecord(c->done[p], c->stream));
    }
    CUDA_CHECK(first, cudaSetDevice(first->device));
    return 0;
}

/* Records the graph of a batch of every tile with the buffers of the batch's set
 * (the first tile's thread, once for each set, while no batch runs). */
static int capture_group(struct tile *first, const struct batch_call *b)
{
    struct cuda_tile *f = first->impl;
    cudaGraph_t graph = NULL;
    CUDA_CHECK(first,
               cudaStreamBeginCapture(f->stream, cudaStreamCaptureModeThreadLocal));
    struct tile *failed = queue_group(b);
    cudaSetDevice(first->device);
    cudaError_t end = cudaStreamEndCapture(f->stream, &graph);
    if (failed) {
        if (graph)
            cudaGraphDestroy(graph);
        if (failed != first) {
            char why[sizeof first->error];
            snprintf(why, sizeof why,
                     "recording tile %d's part of the batch graph: %.400s", failed->index,
                     failed->error);
            snprintf(first->error, sizeof first->error, "%s", why);
        }
        return -1;
    }
    CUDA_CHECK(first, end);
    cudaError_t made = cudaGraphInstantiate(&f->sets[batch_set(b)].graph, graph, 0);
    cudaGraphDestroy(graph);
    CUDA_CHECK(first, made);
    return rearm_events(first, b);
}

/* The first tile's thread: records the set's graph on first use, then launches
 * it; the batch runs on while the host goes on. */
static int launch_group(struct tile *first, const struct batch_call *b)
{
    struct cuda_tile *f = first->impl;
    cudaGraphExec_t *graph = &f->sets[batch_set(b)].graph;
    if (!*graph && capture_group(first, b) != 0)
        return -1;
    CUDA_CHECK(first, cudaGraphLaunch(*graph, f->stream));
    return 0;
}

/* Every tile's thread: an injected fault of this GPU's part, then the launch by
 * the first tile's thread. */
int device_cuda_batches_start(struct tile *t, const struct batch_call *b)
{
    if (b->meet(b->context, t, cuda_tile_check_fault(t, b->from, b->from + b->n - 1)))
        return 1;
    return b->meet(b->context, t, t == &b->tiles[0] ? launch_group(t, b) : 0);
}

/* Every tile's thread: the first waits for the whole batch of every GPU, then
 * each checks its own GPU for an error of the batch. */
int device_cuda_batches_wait(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    int rc = 0;
    if (t == &b->tiles[0]) {
        cudaError_t done = cudaStreamSynchronize(c->stream);
        if (done != cudaSuccess)
            rc = cuda_tile_failed(t, done, "cudaStreamSynchronize(first tile's stream)",
                                  __func__, __FILE__, __LINE__);
    }
    if (b->meet(b->context, t, rc))
        return 1;
    cudaError_t own = cudaStreamSynchronize(c->stream);
    rc = own == cudaSuccess ? 0
                            : cuda_tile_failed(t, own, "cudaStreamSynchronize(c->stream)",
                                               __func__, __FILE__, __LINE__);
    return b->meet(b->context, t, rc);
}

int device_cuda_batches_total(struct tile *t, const struct batch_call *b, long j,
                              double *total)
{
    struct cuda_tile *c = t->impl;
    struct cuda_tile_batch_set *s = &c->sets[batch_set(b)];
    if (t->settings.reduce == REDUCE_DEVICE)
        *total = s->totals_h[j];
    else
        *total = block_sums_total(s->slots_h + j * t->block_count, t->block_count,
                                         t->settings.rule.norm);
    return 0;
}

int device_cuda_batches_rewind(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    CUDA_CHECK(t, cudaMemcpyAsync(t->field[0], c->sets[batch_set(b)].checkpoint_d,
                                  device_tile_field_bytes(t), cudaMemcpyDeviceToDevice,
                                  c->stream));
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

/* Frees what device_cuda_batches_open() allocated and the graphs. */
void device_cuda_batches_free(struct cuda_tile *c)
{
    for (int set = 0; set < 2; set++) {
        struct cuda_tile_batch_set *s = &c->sets[set];
        cudaFree(s->checkpoint_d);
        cudaFree(s->slots_d);
        cudaFreeHost(s->slots_h);
        cudaFree(s->totals_d);
        cudaFreeHost(s->totals_h);
        if (s->graph)
            cudaGraphExecDestroy(s->graph);
    }
    if (c->mark)
        cudaEventDestroy(c->mark);
}

/*
 * device_cuda_batches.c - batches on CUDA GPUs (device.h's batch_*), for the one
 * protocol of batches, loop_batches.c: of a lone tile (the loop plan's singles or
 * pairs) or of several.
 *
 * A lone tile's batch is its sweeps one after another on its stream (singles, each
 * launched to overlap the one before it), or passes of two iterations
 * (device_cuda_pairs.c; the first pass writes the checkpoint as it reads the field),
 * and the block sums' copy to the host: one CUDA graph.
 *
 * Batches of several tiles. One CUDA graph holds a whole batch of every GPU (of
 * single sweeps, or for tiles stacked in rows of passes of two, device_cuda_pairs.c):
 * each GPU's nodes run on that GPU (they are captured from its own stream),
 * and sweep k of a tile depends on its neighbours' sweep k - 1 through the
 * captured event waits of the host loop, which become graph edges. Two graphs,
 * one for each set of buffers (checkpoint, slots), so that batch b + 1 runs
 * while the host reads batch b's sums. The first tile's thread records each
 * graph once before the loop (batch_record) and launches one a batch; every thread checks
 * its own GPU for an injected fault before the launch and for an error of the batch after
 * it. The tail before --max-iter, a shorter batch, is queued the same way without a
 * graph.
 *
 * No deadlock by construction: the graph's edges are captured in iteration
 * order, so every dependency points to an earlier sweep and the graph is
 * acyclic; nothing spins or waits on a flag, and the host threads meet only at
 * batch_call's meet(), which every thread reaches on every path.
 *
 * Where the loop plan says (flags: tiles stacked in rows, each on a GPU of its own,
 * with LAPLACE_TUNE's pass_meeting=flags), the tiles meet through peer flags instead
 * (device_cuda_pairs.c, laplace_pairs.h's struct pass_flags): no edge joins the GPUs,
 * each tile's thread records and launches a graph of its own part, and only the strips
 * that read a neighbour's rows wait, inside the pass, for the neighbour's previous pass.
 * No deadlock either: pass q waits only for the neighbours' pass q - 1 (its edges), which
 * waited only for this tile's pass q - 2, already done. The interior blocks wait for
 * nothing; the plan takes no flags where a GPU holds two tiles, whose passes would have
 * to run at once. A tile that fails raises
 * every tile's stop word, so that no GPU waits on for one that has stopped, and waits
 * for its own stream before the tiles close (no pass still reads a neighbour's
 * memory); a wait that outlasts PASS_WAIT_MOST_S ends too, as an error.
 */
#include "devices/device_cuda_batches.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/device_cuda_pairs.h"
#include "kernels/laplace_pairs.h"
#include "kernels/laplace_reduce.h"
#include "support/error.h"

/* The peer flags' counts (zero: no pass done, none heard) and the mapped words. */
static int open_flags(struct tile *t)
{
    struct cuda_tile *c = t->impl;
    const size_t count_bytes = 4 * sizeof *c->passes_d; /* struct pass_flags */
    CUDA_CHECK(t, cudaMalloc((void **)&c->passes_d, count_bytes));
    CUDA_CHECK(t, cudaMemset(c->passes_d, 0, count_bytes));
    CUDA_CHECK(t, cudaHostAlloc((void **)&c->flag_words_h, 2 * sizeof(int),
                                cudaHostAllocMapped | cudaHostAllocPortable));
    c->flag_words_h[0] = c->flag_words_h[1] = 0;
    CUDA_CHECK(t,
               cudaHostGetDevicePointer((void **)&c->flag_words_d, c->flag_words_h, 0));
    CUDA_CHECK(t, cudaDeviceSynchronize());
    return 0;
}

/* LAPLACE_TUNE's breakdown: two timing events a pass of the set's batch (passes of
 * two meeting through the graph, or of a lone tile; with peer flags a pass waits
 * inside its kernel, so its marks could not tell the wait from the pass). */
static int open_marks(struct tile *t, const struct loop_plan *plan,
                      struct cuda_tile_batch_set *s)
{
    if (t->settings.tune.breakdown != 1 || plan->way != LOOP_WAY_PAIRS || plan->flags)
        return 0;
    const long count = plan->batch; /* two a pass of two iterations */
    s->marks = calloc((size_t)count + 1, sizeof *s->marks); /* NULL after the last */
    if (!s->marks)
        return error_set(t->error, sizeof t->error, "out of host memory for the marks");
    for (long i = 0; i < count; i++)
        CUDA_CHECK(t, cudaEventCreate(&s->marks[i]));
    t->breakdown.device = t->device;
    return 0;
}

int device_cuda_batches_open(struct tile *t, const struct loop_plan *plan)
{
    struct cuda_tile *c = t->impl;
    const long n = plan->batch;
    c->batch_way = plan->way;
    c->flagged = plan->flags;
    if (plan->flags && open_flags(t) != 0)
        return -1;
    c->slot_sums =
        plan->way == LOOP_WAY_PAIRS ? device_cuda_pairs_sums(t) : t->block_count;
    CUDA_CHECK(t, cudaEventCreateWithFlags(&c->mark, cudaEventDisableTiming));
    for (int set = 0; set < 2; set++) {
        struct cuda_tile_batch_set *s = &c->sets[set];
        CUDA_CHECK(t, cudaEventCreateWithFlags(&s->end, cudaEventDisableTiming));
        CUDA_CHECK(t, cudaMalloc(&s->checkpoint_d, device_tile_field_bytes(t)));
        if (t->settings.reduce == REDUCE_DEVICE) {
            CUDA_CHECK(t, cudaMalloc((void **)&s->totals_d, (size_t)n * sizeof(double)));
            CUDA_CHECK(t,
                       cudaMallocHost((void **)&s->totals_h, (size_t)n * sizeof(double)));
        } else {
            const size_t bytes = (size_t)n * (size_t)c->slot_sums * sizeof(double);
            CUDA_CHECK(t, cudaMalloc((void **)&s->slots_d, bytes));
            CUDA_CHECK(t, cudaMallocHost((void **)&s->slots_h, bytes));
        }
        if (open_marks(t, plan, s) != 0)
            return -1;
    }
    return 0;
}

/* Queues, on the tile's stream, sweep k (1..n) of a batch: block sums into
 * slot k - 1, or with --reduce device the tile total into totals_d[k - 1]. */
static int queue_batch_sweep(struct tile *t, const struct batch_call *b, long k,
                             int phase)
{
    struct cuda_tile *c = t->impl;
    struct cuda_tile_batch_set *s = &c->sets[b->set];
    struct sweep_args a = {.iteration = k, .phase = phase, .want_sums = 1};
    tile_neighbours(b->tiles, t, a.neighbour);
    if (t->settings.reduce == REDUCE_DEVICE)
        return cuda_tile_queue_sweep(t, &a, c->block_sums_d, s->totals_d + (k - 1));
    return cuda_tile_queue_sweep(
        t, &a, s->slots_d + (size_t)(k - 1) * (size_t)t->block_count, NULL);
}

/* Queues the start of a batch on a tile's stream: joining the graph (all but
 * the first tile, which started it) and the checkpoint copy (passes of two: their
 * first pass writes it). */
static int queue_batch_start(struct tile *t, const struct tile *first,
                             const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    if (t != first)
        CUDA_CHECK(t, cudaStreamWaitEvent(c->stream,
                                          ((struct cuda_tile *)first->impl)->mark, 0));
    if (c->batch_way != LOOP_WAY_PAIRS)
        CUDA_CHECK(t, cudaMemcpyAsync(c->sets[b->set].checkpoint_d, t->field[0],
                                      device_tile_field_bytes(t),
                                      cudaMemcpyDeviceToDevice, c->stream));
    return 0;
}

/* The breakdown's marks of pass k of a recorded batch (NULL: none asked, or a batch
 * queued directly, where no graph takes event nodes). */
static cudaEvent_t *marks_of(const struct cuda_tile_batch_set *s,
                             const struct batch_call *b, long k)
{
    return s->marks && !b->direct ? s->marks + 2 * (k - 1) : NULL;
}

/* Queues step k of a batch of tile t (phase `phase` of sweep k; passes of two: pass
 * k, every phase 0) after its neighbours' step k - 1. */
static int queue_step(struct tile *t, const struct batch_call *b, long k, int phase)
{
    struct cuda_tile *c = t->impl;
    if (c->batch_way != LOOP_WAY_PAIRS)
        return queue_batch_sweep(t, b, k, phase);
    struct cuda_tile_batch_set *s = &c->sets[b->set];
    const struct tile *nb[SIDE_COUNT];
    tile_neighbours(b->tiles, t, nb);
    return device_cuda_pairs_queue_pass(t, k, nb, k == 1 ? s->checkpoint_d : NULL,
                                        s->slots_d, marks_of(s, b, k));
}

/* Queues the end of a batch on a tile's stream: the sums to the host, and
 * (all but the first tile) the mark the first tile's stream waits for. */
static int queue_batch_end(struct tile *t, struct tile *first, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    struct cuda_tile_batch_set *s = &c->sets[b->set];
    if (t->settings.reduce == REDUCE_DEVICE)
        CUDA_CHECK(t, cudaMemcpyAsync(s->totals_h, s->totals_d,
                                      (size_t)b->n * sizeof(double),
                                      cudaMemcpyDeviceToHost, c->stream));
    else
        CUDA_CHECK(t,
                   cudaMemcpyAsync(s->slots_h, s->slots_d,
                                   (size_t)b->n * (size_t)c->slot_sums * sizeof(double),
                                   cudaMemcpyDeviceToHost, c->stream));
    if (t == first)
        return 0;
    struct cuda_tile *f = first->impl;
    CUDA_CHECK(t, cudaEventRecord(c->mark, c->stream));
    CUDA_CHECK(first, cudaSetDevice(first->device));
    CUDA_CHECK(first, cudaStreamWaitEvent(f->stream, c->mark, 0));
    return 0;
}

/* Queues a lone tile's batch of single sweeps: the checkpoint's copy, then each
 * iteration's phases one after the other (each launched to overlap the kernel before
 * it), its block sums into its slot, or with --reduce device into the device's block
 * sums and then their total into its slot of totals. No events: no neighbour waits
 * for them. */
static int queue_singles(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    struct cuda_tile_batch_set *s = &c->sets[b->set];
    const int device_adds = t->settings.reduce == REDUCE_DEVICE;
    const int phases = update_rule_phases(&t->settings.update_rule);
    CUDA_CHECK(t,
               cudaMemcpyAsync(s->checkpoint_d, t->field[0], device_tile_field_bytes(t),
                               cudaMemcpyDeviceToDevice, c->stream));
    for (long k = 1; k <= b->n; k++) {
        double *sums = device_adds ? c->block_sums_d
                                   : s->slots_d + (size_t)(k - 1) * (size_t)c->slot_sums;
        for (int phase = 0; phase < phases; phase++) {
            struct sweep_launch l = cuda_tile_sweep_launch(t, k, phase, sums);
            if (cuda_tile_launch_sweep(t, &l) != 0)
                return -1;
        }
        if (device_adds)
            CUDA_CHECK(t,
                       laplace_reduce(sums, t->block_count, t->settings.update_rule.norm,
                                      s->totals_d + (k - 1), c->stream));
    }
    return 0;
}

/* Queues a lone tile's whole batch (singles or pairs) and its sums' copy. */
static int queue_alone(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    struct cuda_tile_batch_set *s = &c->sets[b->set];
    const int rc = c->batch_way == LOOP_WAY_PAIRS
                       ? device_cuda_pairs_queue(t, b->n, s->checkpoint_d, s->slots_d,
                                                 marks_of(s, b, 1))
                       : queue_singles(t, b);
    return rc != 0 ? -1 : queue_batch_end(t, t, b);
}

/* Queues a whole batch of every tile into the capture begun on the first
 * tile's stream (or straight onto the streams: b->direct): iteration by iteration,
 * phase by phase, tile by tile, so that each wait refers to the neighbours' previous
 * sweep (or phase); a lone tile's own batch (queue_alone). Returns the failing tile,
 * or NULL. */
static struct tile *queue_group(const struct batch_call *b)
{
    struct tile *first = &b->tiles[0];
    struct cuda_tile *f = first->impl;
    const int pairs = f->batch_way == LOOP_WAY_PAIRS;
    const int phases = pairs ? 1 : update_rule_phases(&first->settings.update_rule);
    const long steps = pairs ? b->n / 2 : b->n;
    if (b->count == 1) /* a lone tile's singles or pairs */
        return queue_alone(first, b) != 0 ? first : NULL;
    if (cudaEventRecord(f->mark, f->stream) != cudaSuccess)
        return first;
    for (int i = 0; i < b->count; i++)
        if (cudaSetDevice(b->tiles[i].device) != cudaSuccess ||
            queue_batch_start(&b->tiles[i], first, b) != 0)
            return &b->tiles[i];
    for (long k = 1; k <= steps; k++)
        for (int phase = 0; phase < phases; phase++)
            for (int i = 0; i < b->count; i++)
                if (cudaSetDevice(b->tiles[i].device) != cudaSuccess ||
                    queue_step(&b->tiles[i], b, k, phase) != 0)
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

/* A batch that failed on tile `failed` while the first tile's thread recorded or queued
 * it: the message on the first tile, naming the tile it came from; returns -1. */
static int blame(struct tile *first, const struct tile *failed, const char *doing,
                 const char *what)
{
    if (failed != first) {
        char why[sizeof first->error];
        snprintf(why, sizeof why, "%s tile %d's part of %s: %.400s", doing, failed->index,
                 what, failed->error);
        snprintf(first->error, sizeof first->error, "%s", why);
    }
    return -1;
}

/* Records the graph of a batch of every tile with the buffers of the batch's set
 * and uploads it to the GPUs, so that its first launch costs no more than the
 * others (the first tile's thread, once for each set, before the loop). */
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
        return blame(first, failed, "recording", "the batch graph");
    }
    CUDA_CHECK(first, end);
    cudaError_t made = cudaGraphInstantiate(&f->sets[b->set].graph, graph, 0);
    cudaGraphDestroy(graph);
    CUDA_CHECK(first, made);
    CUDA_CHECK(first, cudaGraphUpload(f->sets[b->set].graph, f->stream));
    CUDA_CHECK(first, cudaStreamSynchronize(f->stream));
    return rearm_events(first, b);
}

/* The first tile's thread: launches the set's graph (batch_record made it), and the
 * set's end event after it; the batch runs on (or waits in the stream behind the one
 * before it) while the host goes on. A batch of another length (the tail) is queued
 * directly. */
static int launch_group(struct tile *first, const struct batch_call *b)
{
    struct cuda_tile *f = first->impl;
    if (b->direct) {
        const struct tile *failed = queue_group(b);
        cudaSetDevice(first->device);
        if (failed)
            return blame(first, failed, "queueing", "the batch");
    } else
        CUDA_CHECK(first, cudaGraphLaunch(f->sets[b->set].graph, f->stream));
    CUDA_CHECK(first, cudaEventRecord(f->sets[b->set].end, f->stream));
    return 0;
}

/* Peer flags: queues tile t's own part of a batch on its stream (its start, its
 * passes, its sums' copy). */
static int queue_own(struct tile *t, const struct batch_call *b)
{
    if (queue_batch_start(t, t, b) != 0)
        return -1;
    for (long k = 1; k <= b->n / 2; k++)
        if (queue_step(t, b, k, 0) != 0)
            return -1;
    return queue_batch_end(t, t, b);
}

/* Peer flags: records tile t's own graph of a batch with the set's buffers (its
 * thread, once for each set, before the loop). Its passes record no events; the done
 * events are recorded once outside, so that the host loop's waits after the batches (the
 * tail, a replay) find them complete, as rearm_events does for the one graph. */
static int capture_own(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    cudaGraph_t graph = NULL;
    CUDA_CHECK(t, cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal));
    const int queued = queue_own(t, b);
    cudaError_t end = cudaStreamEndCapture(c->stream, &graph);
    if (queued != 0) {
        if (graph)
            cudaGraphDestroy(graph);
        return -1;
    }
    CUDA_CHECK(t, end);
    cudaError_t made = cudaGraphInstantiate(&c->sets[b->set].graph, graph, 0);
    cudaGraphDestroy(graph);
    CUDA_CHECK(t, made);
    CUDA_CHECK(t, cudaGraphUpload(c->sets[b->set].graph, c->stream));
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    for (int p = 0; p < 2; p++)
        CUDA_CHECK(t, cudaEventRecord(c->done[p], c->stream));
    return 0;
}

/* Peer flags: tile t's own part launched (its graph, which batch_record made; a
 * batch of another length queued directly), and the set's end event after it. */
static int launch_own(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    if (b->direct) {
        if (queue_own(t, b) != 0)
            return -1;
    } else
        CUDA_CHECK(t, cudaGraphLaunch(c->sets[b->set].graph, c->stream));
    CUDA_CHECK(t, cudaEventRecord(c->sets[b->set].end, c->stream));
    return 0;
}

/* Every tile's thread, before the loop: the set's graph recorded, by the first
 * tile's thread for every GPU, or with peer flags by each thread for its own. */
int device_cuda_batches_record(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    int rc = 0;
    if (c->flagged)
        rc = capture_own(t, b);
    else if (t == &b->tiles[0])
        rc = capture_group(t, b);
    return b->meet(b->context, t, rc);
}

/* Peer flags: every tile's stop word raised, so that no pass waits on for a
 * neighbour that will not come. */
static void stop_every_tile(const struct batch_call *b)
{
    for (int i = 0; i < b->count; i++)
        ((volatile int *)((struct cuda_tile *)b->tiles[i].impl)->flag_words_h)[0] = 1;
}

/* Every tile's thread: an injected fault of this GPU's part, then the launch by
 * the first tile's thread; with peer flags each launches its own part, unless it
 * failed, and then stops the others' waits. */
int device_cuda_batches_start(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    int rc = cuda_tile_check_fault(t, b->from, b->from + b->n - 1);
    if (c->flagged) {
        if (rc == 0 && !((volatile int *)c->flag_words_h)[0]) /* none failed yet */
            rc = launch_own(t, b);
        if (rc != 0)
            stop_every_tile(b);
        if (!b->meet(b->context, t, rc))
            return 0;
        cudaStreamSynchronize(c->stream); /* best effort: the failure is reported */
        return 1;
    }
    if (b->meet(b->context, t, rc))
        return 1;
    return b->meet(b->context, t, t == &b->tiles[0] ? launch_group(t, b) : 0);
}

/* Waits for batch b on the tile's own stream, not for the batch queued behind it: its
 * set's end event (the first tile's, or with peer flags each tile's own), or everything
 * queued (the other tiles of one graph, whose streams hold no batch but the tail's own
 * part, queued directly and last); 0, or -1 with its error. */
static int sync_own(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    if (c->flagged || t == &b->tiles[0])
        CUDA_CHECK(t, cudaEventSynchronize(c->sets[b->set].end));
    else
        CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

/* Peer flags: each tile's thread waits for its own part; a failure, or a wait that
 * timed out, stops the others' waits. */
static int wait_own(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    int rc = sync_own(t, b);
    if (rc == 0 && ((volatile int *)c->flag_words_h)[1]) {
        snprintf(t->error, sizeof t->error,
                 "GPU %d (tile %d): a pass waited more than %d s for a neighbouring "
                 "GPU's pass, which never came",
                 t->device, t->index, PASS_WAIT_MOST_S);
        rc = -1;
    }
    if (rc != 0)
        stop_every_tile(b);
    return b->meet(b->context, t, rc);
}

/* Every tile's thread: the first waits for the whole batch of every GPU (its set's end
 * event: the next batch may already be queued behind it), then each checks its own GPU
 * for an error of the batch (with peer flags: wait_own). */
int device_cuda_batches_wait(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    if (c->flagged)
        return wait_own(t, b);
    const int first = t == &b->tiles[0];
    if (b->meet(b->context, t, first ? sync_own(t, b) : 0))
        return 1;
    return b->meet(b->context, t, first ? 0 : sync_own(t, b));
}

int device_cuda_batches_total(struct tile *t, const struct batch_call *b, long j,
                              double *total)
{
    struct cuda_tile *c = t->impl;
    struct cuda_tile_batch_set *s = &c->sets[b->set];
    if (t->settings.reduce == REDUCE_DEVICE)
        *total = s->totals_h[j];
    else
        *total = block_sums_total(s->slots_h + j * c->slot_sums, c->slot_sums,
                                  t->settings.update_rule.norm);
    return 0;
}

int device_cuda_batches_rewind(struct tile *t, const struct batch_call *b)
{
    struct cuda_tile *c = t->impl;
    CUDA_CHECK(t, cudaMemcpyAsync(t->field[0], c->sets[b->set].checkpoint_d,
                                  device_tile_field_bytes(t), cudaMemcpyDeviceToDevice,
                                  c->stream));
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

/* The breakdown of batch b, read from its marks while the next batch runs: each
 * pass's kernel, and each step from one pass's end to the next one's start. */
int device_cuda_batches_note(struct tile *t, const struct batch_call *b)
{
    const struct cuda_tile_batch_set *s = &((struct cuda_tile *)t->impl)->sets[b->set];
    if (!s->marks || b->direct)
        return 0;
    const long passes = b->n / 2;
    for (long q = 0; q < passes; q++) {
        float ms;
        CUDA_CHECK(t, cudaEventElapsedTime(&ms, s->marks[2 * q], s->marks[2 * q + 1]));
        t->breakdown.pass_s += 1e-3 * ms;
        if (q + 1 == passes)
            break;
        CUDA_CHECK(t,
                   cudaEventElapsedTime(&ms, s->marks[2 * q + 1], s->marks[2 * q + 2]));
        t->breakdown.between_s += 1e-3 * ms;
    }
    t->breakdown.iterations += b->n;
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
        if (s->end)
            cudaEventDestroy(s->end);
        for (cudaEvent_t *m = s->marks; m && *m; m++) /* created in order, up to NULL */
            cudaEventDestroy(*m);
        free(s->marks);
    }
    if (c->mark)
        cudaEventDestroy(c->mark);
    cudaFree(c->passes_d);
    cudaFreeHost(c->flag_words_h);
}

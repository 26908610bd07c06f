/*
 * device_cuda.c - the device interface on a CUDA GPU.
 *
 * The thread that drives a tile binds to its GPU once (cudaSetDevice in
 * open) and issues everything on one stream of its own. A sweep reads the
 * neighbours' old edges straight from their GPUs through peer pointers; where a
 * pair cannot access each other (or --no-p2p), the edge is first copied into a
 * halo buffer on this GPU (cudaMemcpyPeerAsync for rows, cudaMemcpy3DPeerAsync
 * for columns), and the kernel reads the halo instead. A lone tile may run the
 * whole loop in batches here (run_alone); the batches of several tiles are in
 * device_cuda_batches.c, and what the two files share in device_cuda.h.
 */
#include "devices/device_cuda.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "support/fault.h"
#include "laplace_kernels.h"
#include "p2p.h"

/* Block sums are written straight into mapped host memory up to this many. */
#define MAPPED_SUMS_MAX 8192

int cuda_failed(struct tile *t, cudaError_t rc, const char *call, const char *func,
                const char *file, int line)
{
    int current = -1;
    cudaGetDevice(&current);
    snprintf(t->error, sizeof t->error, "%s: %s (%s) in %s at %s:%d, current device %d",
             call, cudaGetErrorString(rc), cudaGetErrorName(rc), func, file, line,
             current);
    return -1;
}

/* The fault injected on purpose (fault.h) as the CUDA error it stands for, when
 * it falls on this tile's GPU at an iteration from..to (0: the set-up); the
 * failure then takes the path of a real one. */
static cudaError_t injected_fault(const struct tile *t, long from, long to)
{
    if (!fault_injected(t->device, from, to))
        return cudaSuccess;
    return from == 0 ? cudaErrorMemoryAllocation : cudaErrorLaunchFailure;
}

/* 0, or -1 with the injected fault's message when it falls on iterations from..to. */
int cuda_check_fault(struct tile *t, long from, long to)
{
    CUDA_CHECK(t, injected_fault(t, from, to));
    return 0;
}

static size_t elem_size(const struct tile *t)
{
    return precision_size(t->precision);
}

static size_t tile_sites(const struct tile *t)
{
    return (size_t)t->extent->lx * (size_t)t->extent->ly;
}

size_t cuda_sums_bytes(const struct tile *t)
{
    return (size_t)t->block_count * sizeof(double);
}

/* Chooses the launch shape and checks that it fits the device. */
static int choose_shape(struct tile *t)
{
    struct cuda_tile *c = t->impl;
    struct cudaDeviceProp p;
    long gx, gy;
    CUDA_CHECK(t, cudaGetDeviceProperties(&p, t->device));
    c->shape = laplace_choose_shape((enum kernel_variant)t->settings.kernel,
                                    update_rule_is_plain_jacobi(&t->settings.rule),
                                    t->settings.block_x, t->settings.block_y,
                                    t->extent->lx, t->extent->ly, elem_size(t),
                                    p.multiProcessorCount, p.maxThreadsPerMultiProcessor);
    c->shape = laplace_shape_override(c->shape, t->extent->lx);
    c->multiprocessors = p.multiProcessorCount;
    int bx = c->shape.block_x, by = c->shape.block_y;
    t->block_count = laplace_grid(&c->shape, t->extent->lx, t->extent->ly, &gx, &gy);
    if (bx * by > p.maxThreadsPerBlock || bx > p.maxThreadsDim[0] ||
        by > p.maxThreadsDim[1]) {
        snprintf(t->error, sizeof t->error,
                 "block %dx%d does not fit GPU %d (%s): at most %d threads, %dx%d", bx,
                 by, t->device, p.name, p.maxThreadsPerBlock, p.maxThreadsDim[0],
                 p.maxThreadsDim[1]);
        return -1;
    }
    if (gx > p.maxGridSize[0] || gy > p.maxGridSize[1]) {
        snprintf(
            t->error, sizeof t->error,
            "tile %ldx%ld needs a grid of %ldx%ld blocks; GPU %d allows %dx%d (use a "
            "taller --block)",
            t->extent->lx, t->extent->ly, gx, gy, t->device, p.maxGridSize[0],
            p.maxGridSize[1]);
        return -1;
    }
    return 0;
}

/* Host memory the device writes into directly; returns its device address too. */
static int alloc_mapped(struct tile *t, size_t bytes, double **host, double **device)
{
    CUDA_CHECK(t, cudaHostAlloc((void **)host, bytes, cudaHostAllocMapped));
    CUDA_CHECK(t, cudaHostGetDevicePointer((void **)device, *host, 0));
    return 0;
}

/* Where the partial sums go: see struct cuda_tile. */
static int alloc_sums(struct tile *t)
{
    struct cuda_tile *c = t->impl;
    c->sums_mapped =
        t->settings.reduce == REDUCE_HOST && t->block_count <= MAPPED_SUMS_MAX;
    if (!c->sums_mapped) /* twice: --reduce device's resident loop keeps two iterations'
                          */
        CUDA_CHECK(t, cudaMalloc((void **)&c->block_sums_d, 2 * cuda_sums_bytes(t)));
    for (int p = 0; p < 2; p++) {
        if (t->settings.reduce == REDUCE_DEVICE) {
            if (alloc_mapped(t, sizeof(double), &c->total_h[p], &c->total_d[p]) != 0)
                return -1;
            c->sums_target_d[p] = c->block_sums_d;
        } else if (c->sums_mapped) {
            if (alloc_mapped(t, cuda_sums_bytes(t), &t->block_sums[p],
                             &c->sums_target_d[p]) != 0)
                return -1;
        } else {
            CUDA_CHECK(t, cudaMallocHost((void **)&t->block_sums[p], cuda_sums_bytes(t)));
            c->sums_target_d[p] = c->block_sums_d;
        }
    }
    return 0;
}

static int cuda_open(struct tile *t)
{
    struct cuda_tile *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(t->error, sizeof t->error, "out of host memory");
        return -1;
    }
    t->impl = c;
    CUDA_CHECK(t, cudaSetDevice(t->device));
    if (choose_shape(t) != 0)
        return -1;
    CUDA_CHECK(t, cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
    for (int p = 0; p < 2; p++)
        CUDA_CHECK(t, cudaEventCreateWithFlags(&c->done[p], cudaEventDisableTiming));
    CUDA_CHECK(t, cudaMalloc(&t->field[0], tile_field_bytes(t)));
    CUDA_CHECK(t, cudaMalloc(&t->field[1], tile_field_bytes(t)));
    if (t->settings.rule.has_source)
        CUDA_CHECK(t, cudaMalloc(&t->source, tile_field_bytes(t)));
    if (t->settings.rule.has_fixed)
        CUDA_CHECK(t, cudaMalloc((void **)&t->fixed, tile_sites(t)));
    if (alloc_sums(t) != 0)
        return -1;
    CUDA_CHECK(t, injected_fault(t, 0, 0));
    return 0;
}

static long halo_length(const struct tile *t, int side)
{
    return side == SIDE_WEST || side == SIDE_EAST ? t->extent->ly : t->extent->lx;
}

static int cuda_connect(struct tile *t, const struct tile *neighbour[SIDE_COUNT])
{
    struct cuda_tile *c = t->impl;
    for (int side = 0; side < SIDE_COUNT; side++) {
        const struct tile *nb = neighbour[side];
        if (!nb)
            continue;
        int peer = 0;
        if (t->settings.use_p2p && nb->device == t->device)
            peer = 1; /* two tiles of one GPU: its own memory */
        else if (t->settings.use_p2p) {
            peer = p2p_enable(t->device, nb->device, t->error, sizeof t->error);
            if (peer < 0)
                return -1;
        }
        if (peer)
            continue;
        t->peer_fallback[side] = 1;
        CUDA_CHECK(
            t, cudaMalloc(&c->halo_d[side], (size_t)halo_length(t, side) * elem_size(t)));
    }
    return 0;
}

/* Queues the copy of the tile's rectangle of a whole-lattice host array (pitch
 * sites of elem bytes a row) into tile_d (pitch = width). From pageable memory
 * the call returns once the driver has taken the rows. */
static int upload_rows(struct tile *t, void *tile_d, const void *whole_h, long pitch,
                       size_t elem)
{
    struct cuda_tile *c = t->impl;
    size_t row_bytes = (size_t)t->extent->lx * elem;
    const char *first_h = (const char *)whole_h + tile_whole_offset(t, pitch, elem);
    CUDA_CHECK(t, cudaMemcpy2DAsync(tile_d, row_bytes, first_h, (size_t)pitch * elem,
                                    row_bytes, (size_t)t->extent->ly,
                                    cudaMemcpyHostToDevice, c->stream));
    return 0;
}

/* One copy from the host per array; field[1] is copied from field[0] on the GPU. */
static int cuda_upload(struct tile *t, const struct tile_input *in)
{
    struct cuda_tile *c = t->impl;
    size_t elem = elem_size(t);
    if (upload_rows(t, t->field[0], in->field, in->pitch, elem) != 0)
        return -1;
    CUDA_CHECK(t, cudaMemcpyAsync(t->field[1], t->field[0], tile_field_bytes(t),
                                  cudaMemcpyDeviceToDevice, c->stream));
    if (t->source && upload_rows(t, t->source, in->source, in->pitch, elem) != 0)
        return -1;
    if (t->fixed && upload_rows(t, t->fixed, in->fixed, in->pitch, 1) != 0)
        return -1;
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

/* Copies a neighbour's column x of its old field into this tile's halo. */
static int copy_column(struct tile *t, const struct tile *nb, int old, long x, void *halo)
{
    struct cuda_tile *c = t->impl;
    size_t elem = elem_size(t), pitch = (size_t)nb->extent->lx * elem;
    struct cudaMemcpy3DPeerParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = (struct cudaPitchedPtr){.ptr = nb->field[old],
                                       .pitch = pitch,
                                       .xsize = pitch,
                                       .ysize = (size_t)nb->extent->ly};
    p.srcPos = (struct cudaPos){.x = (size_t)x * elem};
    p.srcDevice = nb->device;
    p.dstPtr = (struct cudaPitchedPtr){
        .ptr = halo, .pitch = elem, .xsize = elem, .ysize = (size_t)t->extent->ly};
    p.dstDevice = t->device;
    p.extent =
        (struct cudaExtent){.width = elem, .height = (size_t)t->extent->ly, .depth = 1};
    CUDA_CHECK(t, cudaMemcpy3DPeerAsync(&p, c->stream));
    return 0;
}

/* The view of one neighbour's edge: a peer pointer, or a halo filled now. */
static int edge_of(struct tile *t, int side, const struct tile *nb, int old,
                   struct edge_view *view)
{
    struct cuda_tile *c = t->impl;
    size_t elem = elem_size(t);
    long nlx = nb ? nb->extent->lx : 0, nly = nb ? nb->extent->ly : 0;
    long first = side == SIDE_WEST ? nlx - 1 : side == SIDE_SOUTH ? (nly - 1) * nlx : 0;
    *view = (struct edge_view){NULL, side == SIDE_WEST || side == SIDE_EAST ? nlx : 1};
    if (!nb)
        return 0;
    if (!t->peer_fallback[side]) {
        view->data = (const char *)nb->field[old] + (size_t)first * elem;
        return 0;
    }
    view->data = c->halo_d[side];
    view->stride = 1;
    if (side == SIDE_WEST || side == SIDE_EAST)
        return copy_column(t, nb, old, first, c->halo_d[side]);
    CUDA_CHECK(t, cudaMemcpyPeerAsync(c->halo_d[side], t->device,
                                      (const char *)nb->field[old] + (size_t)first * elem,
                                      nb->device, (size_t)nlx * elem, c->stream));
    return 0;
}

/* Orders sweep k after the neighbours' sweep k - 1 (phase 1: after their phase
 * 0 of sweep k): it reads what they wrote and overwrites what they read. Their
 * events were recorded before the loop's last barrier, so the waits below refer
 * to the step before this one. */
static int wait_for_neighbours(struct tile *t, const struct sweep_args *a)
{
    struct cuda_tile *c = t->impl;
    const long after = a->phase == 0 ? a->iteration - 1 : a->iteration;
    if (after == 0)
        return 0;
    for (int side = 0; side < SIDE_COUNT; side++) {
        const struct tile *nb = a->neighbour[side];
        if (nb && !nb->remote) /* a shadow is written on this tile's own stream */
            CUDA_CHECK(
                t, cudaStreamWaitEvent(
                       c->stream, ((struct cuda_tile *)nb->impl)->done[after % 2], 0));
    }
    return 0;
}

/* The launch of phase `phase` of sweep k, block sums into sums (NULL: none),
 * without the neighbours' edges. */
static struct sweep_launch tile_sweep(struct tile *t, long k, int phase, double *sums)
{
    struct cuda_tile *c = t->impl;
    const int from = (int)((k - 1) % 2), to = 1 - from;
    const struct update_rule *rule = &t->settings.rule;
    return (struct sweep_launch){
        .precision = t->precision,
        .shape = c->shape,
        .old = t->field[phase == 1 ? to : from], /* SOR's black sites read new red */
        .new_ = t->field[to],
        .lx = t->extent->lx,
        .ly = t->extent->ly,
        .block_sums = sums,
        .rule = *rule,
        .own = t->field[from],
        .source = t->source,
        .fixed = t->fixed,
        .colour = rule->method == METHOD_SOR ? phase : -1,
        .first_colour = t->extent->x0 + t->extent->y0,
        .accumulate = phase == 1,
    };
}

/* device_cuda.h says what it queues. */
int cuda_queue_sweep(struct tile *t, const struct sweep_args *a, double *sums_d,
                     double *total_d, double *sums_h)
{
    struct cuda_tile *c = t->impl;
    const int from = (int)((a->iteration - 1) % 2), parity = (int)(a->iteration % 2);
    const int src = a->phase == 1 ? 1 - from : from;
    const int last = a->phase == update_rule_phases(&t->settings.rule) - 1;
    struct sweep_launch l =
        tile_sweep(t, a->iteration, a->phase, a->want_sums ? sums_d : NULL);
    if (wait_for_neighbours(t, a) != 0 ||
        edge_of(t, SIDE_WEST, a->neighbour[SIDE_WEST], src, &l.west) ||
        edge_of(t, SIDE_EAST, a->neighbour[SIDE_EAST], src, &l.east) ||
        edge_of(t, SIDE_SOUTH, a->neighbour[SIDE_SOUTH], src, &l.south) ||
        edge_of(t, SIDE_NORTH, a->neighbour[SIDE_NORTH], src, &l.north))
        return -1;
    CUDA_CHECK(t, laplace_sweep(&l, c->stream));
    if (last && a->want_sums && t->settings.reduce == REDUCE_DEVICE)
        CUDA_CHECK(t, laplace_reduce(sums_d, t->block_count, t->settings.rule.norm,
                                     total_d, c->stream));
    else if (last && a->want_sums && sums_h)
        CUDA_CHECK(t, cudaMemcpyAsync(sums_h, sums_d, cuda_sums_bytes(t),
                                      cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(t, cudaEventRecord(c->done[parity], c->stream));
    return 0;
}

/* Queues sweep k. If that fails part-way, waits for what was queued, so that no
 * work of this stream still reads a neighbour's memory when the tiles close. */
static int cuda_sweep(struct tile *t, const struct sweep_args *a)
{
    struct cuda_tile *c = t->impl;
    const int parity = (int)(a->iteration % 2);
    int rc = a->phase == 0 ? cuda_check_fault(t, a->iteration, a->iteration) : 0;
    if (rc == 0)
        rc = cuda_queue_sweep(t, a, c->sums_target_d[parity], c->total_d[parity],
                              c->sums_mapped ? NULL : t->block_sums[parity]);
    if (rc != 0)
        cudaStreamSynchronize(c->stream); /* best effort: the failure is reported */
    return rc;
}

static int cuda_finish(struct tile *t, long iteration, int want_sums, double *total)
{
    struct cuda_tile *c = t->impl;
    const int parity = (int)(iteration % 2);
    if (iteration < 1)
        return 0;
    CUDA_CHECK(t, cudaEventSynchronize(c->done[parity]));
    if (!want_sums)
        return 0;
    if (t->settings.reduce == REDUCE_DEVICE)
        *total = *c->total_h[parity];
    else
        *total = block_sums_total(t->block_sums[parity], t->block_count,
                                  t->settings.rule.norm);
    return 0;
}

/* One copy into the tile's rectangle of the whole field (pitch sites a row). */
static int cuda_download(struct tile *t, int which, void *whole_h, long pitch)
{
    struct cuda_tile *c = t->impl;
    size_t elem = elem_size(t), row_bytes = (size_t)t->extent->lx * elem;
    char *first_h = (char *)whole_h + tile_whole_offset(t, pitch, elem);
    CUDA_CHECK(t, cudaMemcpy2DAsync(first_h, (size_t)pitch * elem, t->field[which],
                                    row_bytes, row_bytes, (size_t)t->extent->ly,
                                    cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    return 0;
}

/* Iterations per batch of run_alone: about 2 ms of work, even, from 2 to 1024. */
long cuda_batch_iterations(const struct tile *t)
{
    double bytes =
        2.0 * (double)tile_field_bytes(t); /* one read and one write per site */
    double seconds = bytes / 3e12 + 3e-6;  /* a guess of one iteration's time */
    long n = (long)(2e-3 / seconds);
    long most =
        (64L << 20) / (t->block_count * (long)sizeof(double)); /* 64 MiB of sums */
    n = n > most ? most : n;
    n = n < 2 ? 2 : n > 1024 ? 1024 : n;
    return n - n % 2; /* even: every batch starts on an odd iteration, same buffers */
}

/* Queues every phase of iteration k of a lone tile, block sums into sums (NULL:
 * none); its phases follow each other on the one stream. */
static int queue_lone_iteration(struct tile *t, long k, double *sums)
{
    struct cuda_tile *c = t->impl;
    for (int phase = 0; phase < update_rule_phases(&t->settings.rule); phase++) {
        struct sweep_launch l = tile_sweep(t, k, phase, sums);
        CUDA_CHECK(t, laplace_sweep(&l, c->stream));
    }
    return 0;
}

/* Queues a batch of n iterations on the stream being captured. */
static int queue_batch(struct tile *t, long n)
{
    struct cuda_tile *c = t->impl;
    const size_t slot = (size_t)t->block_count;
    CUDA_CHECK(t, cudaMemcpyAsync(c->checkpoint_d, t->field[0], tile_field_bytes(t),
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
static int capture_batch(struct tile *t, long n)
{
    struct cuda_tile *c = t->impl;
    cudaGraph_t graph = NULL;
    CUDA_CHECK(t, cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal));
    int rc = queue_batch(t, n);
    cudaError_t end = cudaStreamEndCapture(c->stream, &graph);
    if (rc != 0)
        return cudaGraphDestroy(graph), -1;
    CUDA_CHECK(t, end);
    cudaError_t made = cudaGraphInstantiate(&c->batch, graph, 0);
    cudaGraphDestroy(graph);
    CUDA_CHECK(t, made);
    return 0;
}

/* A resident kernel runs this many graph batches' worth of iterations: it costs
 * no launch per iteration, so the host may look in less often. */
#define RESIDENT_BATCHES 8

/* --reduce device: one resident kernel per batch adds the sums and stops by
 * itself; the host only launches batches and looks at the state after each. */
static int device_batches(struct tile *t, const struct stop_rule *rule,
                          struct stop_state *out, const struct loop_watch *watch)
{
    struct cuda_tile *c = t->impl;
    struct sweep_launch shape = tile_sweep(t, 1, 0, NULL);
    CUDA_CHECK(t, cudaMalloc((void **)&c->state_d, sizeof *c->state_d));
    CUDA_CHECK(t, cudaMallocHost((void **)&c->state_h, sizeof *c->state_h));
    *c->state_h = *out; /* the start: no iteration, no norm yet */
    CUDA_CHECK(t, cudaMemcpyAsync(c->state_d, c->state_h, sizeof *c->state_d,
                                  cudaMemcpyHostToDevice, c->stream));
    const long per_launch = RESIDENT_BATCHES * cuda_batch_iterations(t);
    t->loop_batch = per_launch;
    do {
        long done = c->state_h->iteration;
        CUDA_CHECK(t, injected_fault(t, done + 1, done + per_launch));
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

/* The host's test of iteration k from its block sums (stop_rule.h); 1 when the
 * loop stops, by the rule or because the watch asked to (STOP_INTERRUPTED). */
static int host_tests(const struct tile *t, const struct stop_rule *rule,
                      const struct loop_watch *watch, long k, const double *sums,
                      struct stop_state *st)
{
    int has_norm = stop_rule_wants_norm(rule, k);
    double norm = NAN;
    int interrupt = 0;
    if (has_norm) {
        norm = stop_rule_norm(
            rule, block_sums_total(sums, t->block_count, t->settings.rule.norm));
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
        CUDA_CHECK(t, injected_fault(t, k, k));
        if (queue_lone_iteration(t, k, test ? c->slots_d : NULL) != 0)
            return -1;
        if (!test)
            continue;
        CUDA_CHECK(t, cudaMemcpyAsync(c->slots_h, c->slots_d, cuda_sums_bytes(t),
                                      cudaMemcpyDeviceToHost, c->stream));
        CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
        if (host_tests(t, rule, watch, k, c->slots_h, st))
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
    CUDA_CHECK(t, cudaMemcpyAsync(t->field[0], c->checkpoint_d, tile_field_bytes(t),
                                  cudaMemcpyDeviceToDevice, c->stream));
    return run_one_by_one(t, from, k, 0, NULL, NULL, NULL);
}

/* --reduce host: batches of n sweeps whose block sums all come back to the
 * host, which adds and tests each iteration in order. */
static int host_batches(struct tile *t, const struct stop_rule *rule,
                        const struct loop_watch *watch, struct stop_state *st)
{
    struct cuda_tile *c = t->impl;
    const long n = cuda_batch_iterations(t);
    CUDA_CHECK(t, cudaMalloc(&c->checkpoint_d, tile_field_bytes(t)));
    CUDA_CHECK(t, cudaMalloc((void **)&c->slots_d, (size_t)n * cuda_sums_bytes(t)));
    CUDA_CHECK(t, cudaMallocHost((void **)&c->slots_h, (size_t)n * cuda_sums_bytes(t)));
    if (capture_batch(t, n) != 0)
        return -1;
    t->loop_batch = n;
    long from = 1;
    for (; from + n - 1 <= rule->max_iter; from += n) {
        CUDA_CHECK(t, injected_fault(t, from, from + n - 1));
        CUDA_CHECK(t, cudaGraphLaunch(c->batch, c->stream));
        CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
        for (long k = from; k < from + n; k++)
            if (host_tests(t, rule, watch, k, c->slots_h + (k - from) * t->block_count,
                           st))
                return k == from + n - 1 ? 0 : replay(t, from, k);
    }
    return run_one_by_one(t, from, rule->max_iter, 1, rule, watch, st); /* the last few */
}

/*
 * A lone tile: the whole loop here, in batches (see device.h). Batches pay only
 * when they hold many cheap iterations: with the host adding the sums, each
 * batch starts with a copy of the field (for the replay); with the device adding
 * them, a grid-wide barrier and a reduction in every block come with each
 * iteration. Large tiles, whose sweeps take far longer than a host round trip,
 * decline and run the host loop; so do kernels other than rows on the device.
 */
static int cuda_run_alone(struct tile *t, const struct stop_rule *rule,
                          struct stop_state *out, const struct loop_watch *watch)
{
    struct cuda_tile *c = t->impl;
    *out = stop_state_start();
    if (cuda_batch_iterations(t) < 32)
        return 1;
    if (t->settings.reduce == REDUCE_DEVICE)
        return c->shape.kernel == KERNEL_ROWS ? device_batches(t, rule, out, watch) : 1;
    return host_batches(t, rule, watch, out);
}

/* Frees what open() and connect() allocated; errors here are not reported. */
static void cuda_close(struct tile *t)
{
    struct cuda_tile *c = t->impl;
    if (!c)
        return;
    cudaSetDevice(t->device);
    if (c->stream)
        cudaStreamSynchronize(c->stream);
    for (int side = 0; side < SIDE_COUNT; side++)
        cudaFree(c->halo_d[side]);
    cudaFree(t->field[0]);
    cudaFree(t->field[1]);
    cudaFree(t->source);
    cudaFree(t->fixed);
    cudaFree(c->block_sums_d);
    cudaFree(c->state_d);
    cudaFreeHost(c->state_h);
    cudaFree(c->checkpoint_d);
    cudaFree(c->slots_d);
    cudaFreeHost(c->slots_h);
    cuda_batch_free(c);
    if (c->batch)
        cudaGraphExecDestroy(c->batch);
    for (int p = 0; p < 2; p++) {
        cudaFreeHost(t->block_sums[p]);
        cudaFreeHost(c->total_h[p]);
        if (c->done[p])
            cudaEventDestroy(c->done[p]);
        t->block_sums[p] = NULL;
    }
    if (c->stream)
        cudaStreamDestroy(c->stream);
    cudaGetLastError();
    free(c);
    t->impl = NULL;
    t->field[0] = t->field[1] = NULL;
    t->source = NULL;
    t->fixed = NULL;
}

const struct device_ops device_cuda_ops = {
    .name = "gpu",
    .open = cuda_open,
    .connect = cuda_connect,
    .upload = cuda_upload,
    .sweep = cuda_sweep,
    .finish = cuda_finish,
    .download = cuda_download,
    .close = cuda_close,
    .run_alone = cuda_run_alone,
    .batch_length = cuda_batch_length,
    .batch_open = cuda_batch_open,
    .batch_start = cuda_batch_start,
    .batch_wait = cuda_batch_wait,
    .batch_total = cuda_batch_total,
    .batch_rewind = cuda_batch_rewind,
    .shadow_open = cuda_shadow_open,
    .edge_read = cuda_edge_read,
    .shadow_write = cuda_shadow_write,
    .shadow_close = cuda_shadow_close,
};

/*
 * device_host.c - the device interface on the CPU: a "device" is the OpenMP
 * thread that drives a tile, and its memory is host memory. Neighbours' edges
 * are read straight out of their tiles, the host analogue of peer access.
 * This backend is the CPU parallel solver (--backend cpu) and lets CI test the
 * partition, the neighbour reads and the partial sums without a GPU.
 */
#include "devices/device.h"
#include "laplace_kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/error.h"
#include "support/fault.h"

#define TEMPLATE "devices/host_sweep.inc"
#include "problem/for_each_precision.inc"

/* The partial-sum block: --block, or 32 x 8 sites by default. */
static void block_shape(const struct tile *t, long *bx, long *by)
{
    *bx = t->settings.block_x > 0 ? t->settings.block_x : 32;
    *by = t->settings.block_y > 0 ? t->settings.block_y : 8;
}

static int host_open(struct tile *t)
{
    long bx, by;
    block_shape(t, &bx, &by);
    t->block_count = ((t->extent->lx + bx - 1) / bx) * ((t->extent->ly + by - 1) / by);
    /* Each thread allocates and first touches its own tile (NUMA locality). */
    t->field[0] = malloc(device_tile_field_bytes(t));
    t->field[1] = malloc(device_tile_field_bytes(t));
    t->block_sums[0] = calloc((size_t)t->block_count, sizeof(double));
    t->block_sums[1] = calloc((size_t)t->block_count, sizeof(double));
    const struct update_rule *rule = &t->settings.update_rule;
    size_t sites = (size_t)t->extent->lx * (size_t)t->extent->ly;
    if (rule->has_source)
        t->source = malloc(device_tile_field_bytes(t));
    if (rule->has_fixed)
        t->fixed = malloc(sites);
    if (!t->field[0] || !t->field[1] || !t->block_sums[0] || !t->block_sums[1] ||
        (rule->has_source && !t->source) || (rule->has_fixed && !t->fixed)) {
        snprintf(t->error, sizeof t->error, "out of host memory for tile %d (%zu bytes)",
                 t->index, 2 * device_tile_field_bytes(t));
        return -1;
    }
    if (fault_injected(t->index, 0, 0))
        return error_set(t->error, sizeof t->error,
                         "injected fault (%s): the set-up of tile %d failed",
                         FAULT_VARIABLE, t->index);
    return 0;
}

static int host_connect(struct tile *t, const struct tile *neighbour[SIDE_COUNT])
{
    (void)t;
    (void)neighbour; /* host tiles read each other's memory directly */
    return 0;
}

/* Copies rows of row_bytes, each pitch bytes apart, between two arrays: the
 * host analogue of cudaMemcpy2D (dst, dpitch, src, spitch, width, height). */
static void copy_rows(void *dst, size_t dpitch, const void *src, size_t spitch,
                      size_t row_bytes, long rows)
{
    for (long j = 0; j < rows; j++)
        memcpy((char *)dst + (size_t)j * dpitch, (const char *)src + (size_t)j * spitch,
               row_bytes);
}

/* The tile's rectangle of one of the input's arrays (elem bytes a value) into a
 * tile array (pitch = width). */
static void upload_rows(const struct tile *t, void *tile_h, const void *array,
                        const struct tile_input *in, size_t elem)
{
    size_t row_bytes = (size_t)t->extent->lx * elem;
    copy_rows(tile_h, row_bytes,
              (const char *)array +
                  device_tile_offset(t, in->x0, in->y0, in->pitch, elem),
              (size_t)in->pitch * elem, row_bytes, t->extent->ly);
}

static int host_upload(struct tile *t, const struct tile_input *in)
{
    size_t elem = precision_size(t->precision);
    upload_rows(t, t->field[0], in->field, in, elem);
    memcpy(t->field[1], t->field[0], device_tile_field_bytes(t));
    if (t->source)
        upload_rows(t, t->source, in->source, in, elem);
    if (t->fixed)
        upload_rows(t, t->fixed, in->fixed, in, 1);
    return 0;
}

/* Sweeps the blocks of one window now. */
static void sweep_window(struct tile *t, const struct sweep_args *args, long bx, long by,
                         const struct block_window *window)
{
    int plain = update_rule_is_plain_jacobi(&t->settings.update_rule) &&
                t->settings.kernel != KERNEL_GENERAL;
    if (t->precision == PRECISION_FLOAT)
        (plain ? sweep_tile_float : general_tile_float)(t, args, bx, by, window);
    else
        (plain ? sweep_tile_double : general_tile_double)(t, args, bx, by, window);
}

/* Runs args->part of the sweep now (the loop's barrier has ordered it after the
 * neighbours'): all of it, the blocks that read no other rank's edge, or the strips
 * along the other ranks' tiles (block_window.h), each block's sum as a whole sweep's. */
static int host_sweep(struct tile *t, const struct sweep_args *args)
{
    long bx, by;
    if (args->phase == 0 && args->part != SWEEP_EDGES &&
        fault_injected(t->index, args->iteration, args->iteration))
        return error_set(t->error, sizeof t->error,
                         "injected fault (%s): sweep %ld of tile %d failed",
                         FAULT_VARIABLE, args->iteration, t->index);
    block_shape(t, &bx, &by);
    const long gx = (t->extent->lx + bx - 1) / bx, gy = (t->extent->ly + by - 1) / by;
    double *block_sums = t->block_sums[args->iteration % 2];
    if (args->want_sums && args->phase == 0 && args->part != SWEEP_EDGES)
        for (long b = 0; b < t->block_count; b++) /* SOR's phase 1 adds to them */
            block_sums[b] = 0.0;
    struct block_window interior, strips[SIDE_COUNT];
    int count = device_sweep_windows(args, gx, gy, &interior, strips);
    if (args->part != SWEEP_EDGES)
        sweep_window(t, args, bx, by, &interior);
    for (int i = 0; args->part == SWEEP_EDGES && i < count; i++)
        sweep_window(t, args, bx, by, &strips[i]);
    return 0;
}

static int host_finish(struct tile *t, long iteration, int want_sums, double *total)
{
    if (want_sums)
        *total = block_sums_total(t->block_sums[iteration % 2], t->block_count,
                                  t->settings.update_rule.norm);
    return 0;
}

static int host_download(struct tile *t, int which, struct field *to)
{
    size_t elem = precision_size(t->precision), row_bytes = (size_t)t->extent->lx * elem;
    copy_rows((char *)to->data + device_tile_offset(t, to->x0, to->y0, to->nx, elem),
              (size_t)to->nx * elem, t->field[which], row_bytes, row_bytes,
              t->extent->ly);
    return 0;
}

/*
 * Batches on the host tiles: the same protocol as the GPUs' (device.h), so that
 * the slots, the fixed-order sums, the checkpoint and the replay are tested
 * without a GPU. A batch is every thread sweeping its tile n times, meeting the
 * others after each sweep (and between SOR's phases); each iteration's block
 * sums are kept in its slot.
 */
struct host_batch {
    void *checkpoint[2]; /* per set of buffers: the field of iteration from - 1 */
    double *slots[2];    /* the block sums of iteration from + j at j * block_count */
};

/* What a host tile offers the loop plan (plan/loop_plan.c decides its batches). */
static int host_offer(struct tile *t, int tiles, struct tile_offer *o)
{
    (void)tiles;
    *o = (struct tile_offer){.device = -1,
                             .lx = t->extent->lx,
                             .ly = t->extent->ly,
                             .value_size = precision_size(t->precision),
                             .field_bytes = device_tile_field_bytes(t),
                             .block_count = t->block_count};
    return 0;
}

static int host_batch_open(struct tile *t, const struct loop_plan *plan)
{
    const long n = plan->batch;
    struct host_batch *h = calloc(1, sizeof *h);
    int ok = h != NULL;
    t->impl = h;
    for (int set = 0; ok && set < 2; set++) {
        h->checkpoint[set] = malloc(device_tile_field_bytes(t));
        h->slots[set] = malloc((size_t)n * (size_t)t->block_count * sizeof(double));
        ok = h->checkpoint[set] && h->slots[set];
    }
    if (!ok)
        return error_set(t->error, sizeof t->error,
                         "out of host memory for the batches of tile %d", t->index);
    return 0;
}

/* Sweep k of the batch, every phase, its block sums into slot k - from. Returns
 * 0, -1 when it failed, 1 when another tile failed (seen at SOR's meeting). */
static int host_batch_sweep(struct tile *t, const struct batch_call *b, long k)
{
    struct host_batch *h = t->impl;
    struct sweep_args args = {.iteration = k, .want_sums = 1};
    tile_neighbours(b->tiles, t, args.neighbour);
    int phases = update_rule_phases(&t->settings.update_rule), rc = 0;
    for (args.phase = 0; args.phase < phases; args.phase++) {
        if (args.phase > 0 && b->meet(b->context, t, rc))
            return 1;
        rc = host_sweep(t, &args);
    }
    if (rc == 0)
        memcpy(h->slots[b->set] + (k - b->from) * t->block_count, t->block_sums[k % 2],
               (size_t)t->block_count * sizeof(double));
    return rc;
}

/* The threads are the devices here: the whole batch runs in batch_start. */
static int host_batch_start(struct tile *t, const struct batch_call *b)
{
    struct host_batch *h = t->impl;
    memcpy(h->checkpoint[b->set], t->field[0], device_tile_field_bytes(t));
    for (long k = b->from; k < b->from + b->n; k++) {
        int rc = host_batch_sweep(t, b, k);
        if (rc == 1 || b->meet(b->context, t, rc))
            return 1;
    }
    return 0;
}

static int host_batch_wait(struct tile *t, const struct batch_call *b)
{
    (void)t, (void)b; /* batch_start ran it to the end */
    return 0;
}

static int host_batch_total(struct tile *t, const struct batch_call *b, long j,
                            double *total)
{
    struct host_batch *h = t->impl;
    *total = block_sums_total(h->slots[b->set] + j * t->block_count, t->block_count,
                              t->settings.update_rule.norm);
    return 0;
}

static int host_batch_rewind(struct tile *t, const struct batch_call *b)
{
    struct host_batch *h = t->impl;
    memcpy(t->field[0], h->checkpoint[b->set], device_tile_field_bytes(t));
    return 0;
}

/* A shadow's fields in host memory, where the neighbouring tile's sweep reads. */
static int host_shadow_open(struct tile *t, struct tile *shadow)
{
    for (int which = 0; which < 2; which++)
        if (!(shadow->field[which] = calloc(1, device_tile_field_bytes(shadow))))
            return error_set(t->error, sizeof t->error,
                             "out of host memory for the edge of tile %d", shadow->index);
    return 0;
}

/* edge_read copies at once: nothing is left to wait for. Offered so that the loop
 * takes the same path as on GPUs (the interior swept before the exchange, the strips
 * after it), which CI can then test without one. */
static int host_edges_wait(struct tile *t)
{
    (void)t;
    return 0;
}

/* The row or column of field[which] that faces `side`, packed into edge_h. */
static int host_edge_read(struct tile *t, int side, int which, void *edge_h)
{
    size_t elem = precision_size(t->precision);
    long lx = t->extent->lx, ly = t->extent->ly;
    const char *field = t->field[which];
    if (side == SIDE_SOUTH || side == SIDE_NORTH) {
        long row = side == SIDE_SOUTH ? 0 : ly - 1;
        memcpy(edge_h, field + (size_t)(row * lx) * elem, (size_t)lx * elem);
        return 0;
    }
    long column = side == SIDE_WEST ? 0 : lx - 1;
    copy_rows(edge_h, elem, field + (size_t)column * elem, (size_t)lx * elem, elem, ly);
    return 0;
}

static int host_shadow_write(struct tile *t, struct tile *shadow, int which,
                             const void *edge_h)
{
    (void)t;
    memcpy(shadow->field[which], edge_h, device_tile_field_bytes(shadow));
    return 0;
}

static void host_shadow_close(struct tile *t, struct tile *shadow)
{
    (void)t;
    for (int which = 0; which < 2; which++) {
        free(shadow->field[which]);
        shadow->field[which] = NULL;
    }
}

static void host_close(struct tile *t)
{
    struct host_batch *h = t->impl;
    if (h) {
        for (int set = 0; set < 2; set++) {
            free(h->checkpoint[set]);
            free(h->slots[set]);
        }
        free(h);
        t->impl = NULL;
    }
    free(t->field[0]);
    free(t->field[1]);
    free(t->block_sums[0]);
    free(t->block_sums[1]);
    free(t->source);
    free(t->fixed);
    t->source = NULL;
    t->fixed = NULL;
    t->field[0] = t->field[1] = NULL;
    t->block_sums[0] = t->block_sums[1] = NULL;
}

const struct device_ops device_host_ops = {
    .name = "cpu",
    .open = host_open,
    .connect = host_connect,
    .upload = host_upload,
    .sweep = host_sweep,
    .finish = host_finish,
    .download = host_download,
    .close = host_close,
    .offer = host_offer,
    .batch_open = host_batch_open,
    .batch_start = host_batch_start,
    .batch_wait = host_batch_wait,
    .batch_total = host_batch_total,
    .batch_rewind = host_batch_rewind,
    .shadow_open = host_shadow_open,
    .edge_read = host_edge_read,
    .edges_wait = host_edges_wait,
    .shadow_write = host_shadow_write,
    .shadow_close = host_shadow_close,
};

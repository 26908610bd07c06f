/*
 * device_cuda_pairs.c - batches in passes of two iterations (kernels/laplace_pairs.cu),
 * which read iteration k once and write k + 2 once: half the bytes of two sweeps, where
 * the loop plan takes them (plan/loop_plan.c), for a lone tile or for tiles stacked in
 * rows as wide as the lattice, each reading its neighbours' two nearest rows in place.
 * device_cuda_batches.c queues them as a batch; loop_batches.c runs the batches: tests
 * each iteration's sums, replays from the checkpoint when the stop falls inside.
 */
#include "devices/device_cuda_pairs.h"

#include <cuda_runtime_api.h>

#include "kernels/laplace_pairs.h"

long device_cuda_pairs_sums(const struct tile *t)
{
    return laplace_pairs_blocks(t->extent->lx, t->extent->ly);
}

/* Whether the tile has a neighbour at all (a lone tile's passes wait for nothing). */
static int has_neighbours(const struct tile *const neighbour[SIDE_COUNT])
{
    for (int side = 0; side < SIDE_COUNT; side++)
        if (neighbour[side])
            return 1;
    return 0;
}

/* Tile t's peer flags: its own counts, and its slots in the neighbours' memory. */
static struct pass_flags flags_of(const struct tile *t,
                                  const struct tile *const neighbour[SIDE_COUNT])
{
    const struct cuda_tile *c = t->impl;
    const struct tile *south = neighbour[SIDE_SOUTH], *north = neighbour[SIDE_NORTH];
    return (struct pass_flags){
        .heard = c->passes_d,
        .done = c->passes_d + 2,
        .arrived = (unsigned int *)(c->passes_d + 3),
        .south_slot = south ? ((struct cuda_tile *)south->impl)->passes_d + 1 : NULL,
        .north_slot = north ? ((struct cuda_tile *)north->impl)->passes_d + 0 : NULL,
        .stop = c->flag_words_d,
        .timed_out = c->flag_words_d + 1};
}

/* device_cuda_pairs.h says what it queues. Pass q reads field[(q - 1) % 2] and writes
 * field[q % 2], as sweep q would: a tile's neighbours meet it once a pass, through the
 * same events (done[q % 2]) as single sweeps, or through peer flags (c->flagged: the
 * pass's edge strips wait for the neighbours and then tell them). */
int device_cuda_pairs_queue_pass(struct tile *t, long q,
                                 const struct tile *const neighbour[SIDE_COUNT],
                                 void *keep, double *slots_d, cudaEvent_t *marks)
{
    struct cuda_tile *c = t->impl;
    const int from = (int)((q - 1) % 2), stacked = has_neighbours(neighbour);
    const int flagged = stacked && c->flagged;
    const size_t slot = (size_t)device_cuda_pairs_sums(t);
    const struct pass_flags flags =
        flagged ? flags_of(t, neighbour) : (struct pass_flags){0};
    struct sweep_launch views = {0};
    if (stacked) {
        struct sweep_args a = {.iteration = q};
        for (int side = 0; side < SIDE_COUNT; side++)
            a.neighbour[side] = neighbour[side];
        if ((flagged ? cuda_tile_neighbour_views(t, &a, from, &views)
                     : cuda_tile_meet_neighbours(t, &a, from, &views)) != 0)
            return -1;
    }
    const struct pair_launch l = {.precision = t->precision,
                                  .old = t->field[from],
                                  .new_ = t->field[1 - from],
                                  .keep = keep,
                                  .lx = t->extent->lx,
                                  .ly = t->extent->ly,
                                  .south = views.south.data,
                                  .north = views.north.data,
                                  .first_sums = slots_d + (size_t)(2 * (q - 1)) * slot,
                                  .second_sums = slots_d + (size_t)(2 * q - 1) * slot,
                                  .square_scale =
                                      update_rule_square_scale(&t->settings.update_rule),
                                  .flags = flagged ? &flags : NULL};
    if (marks)
        CUDA_CHECK(
            t, cudaEventRecordWithFlags(marks[0], c->stream, cudaEventRecordExternal));
    CUDA_CHECK(t, laplace_pairs_sweep(&l, c->stream));
    if (marks)
        CUDA_CHECK(
            t, cudaEventRecordWithFlags(marks[1], c->stream, cudaEventRecordExternal));
    if (stacked && !flagged)
        CUDA_CHECK(t, cudaEventRecord(c->done[q % 2], c->stream));
    return 0;
}

/* The passes go from field[0] to field[1] and back, so the batch ends in field[0],
 * where iteration k's parity puts it; the first pass writes the checkpoint as it
 * reads the field. */
int device_cuda_pairs_queue(struct tile *t, long n, void *checkpoint_d, double *slots_d,
                            cudaEvent_t *marks)
{
    const struct tile *const none[SIDE_COUNT] = {0};
    for (long q = 1; q <= n / 2; q++)
        if (device_cuda_pairs_queue_pass(t, q, none, q == 1 ? checkpoint_d : NULL,
                                         slots_d,
                                         marks ? marks + 2 * (q - 1) : NULL) != 0)
            return -1;
    return 0;
}

/*
 * device_cuda_pairs.c - a lone tile's batches in passes of two iterations
 * (kernels/laplace_pairs.cu), which read iteration k once and write k + 2 once: half
 * the bytes of two sweeps. Plain Jacobi with the sums added on the host and the
 * kernel and block left to auto takes them where batches of single sweeps do not pay
 * (lattices off chip); LAPLACE_PAIRS=0 never, =1 wherever a lone tile's batches run.
 * device_cuda_alone.c runs the batches: tests each iteration's sums, replays from
 * the checkpoint when the stop falls inside.
 */
#include "devices/device_cuda_pairs.h"

#include <cuda_runtime_api.h>

#include "kernels/laplace_pairs.h"
#include "support/tuning.h"

/* Batches of pairs hold at least this many iterations: the checkpoint, written by a
 * batch's first pass, costs about one iteration's bytes. */
#define PAIR_BATCH_LEAST 32

/* LAPLACE_PAIRS: 0 never, 1 wherever a lone tile's batches may run (the GPU suite,
 * experiments); -1 unset (or another value): where batches of single sweeps do not
 * pay. */
static int pairs_asked(void)
{
    return (int)tuning("LAPLACE_PAIRS", 0, 1, -1);
}

/* Whether the lone tile takes passes of two iterations (see the head comment). */
static int takes_pairs(const struct tile *t, int singles_pay)
{
    const struct tile_settings *s = &t->settings;
    const int asked = pairs_asked();
    return asked != 0 && s->kernel == KERNEL_AUTO && s->block_x <= 0 &&
           s->reduce == REDUCE_HOST && update_rule_is_plain_jacobi(&s->rule) &&
           laplace_pairs_fits(t->extent->lx, t->extent->ly) &&
           (asked == 1 || !singles_pay);
}

long device_cuda_pairs_sums(const struct tile *t)
{
    return laplace_pairs_blocks(t->extent->lx, t->extent->ly);
}

/* Iterations a batch of pairs: about 2 ms of passes (each moving a field in and out
 * for two iterations), a multiple of 4 (the passes end in field[0]), at least
 * PAIR_BATCH_LEAST, at most 1024; 0 where the sums of so many would pass
 * CUDA_TILE_BATCH_SUMS_BYTES or the GPU's free memory would not hold them and the
 * checkpoint. */
int device_cuda_pairs_batch(struct tile *t, int singles_pay, long *n)
{
    *n = 0;
    if (!takes_pairs(t, singles_pay))
        return 0;
    const double seconds = (double)device_tile_field_bytes(t) / 3e12 + 1.5e-6;
    long length = (long)(2e-3 / seconds);
    length = length < PAIR_BATCH_LEAST ? PAIR_BATCH_LEAST : length > 1024 ? 1024 : length;
    length -= length % 4;
    const size_t sums_bytes =
        (size_t)length * (size_t)device_cuda_pairs_sums(t) * sizeof(double);
    size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(t, cudaMemGetInfo(&free_bytes, &total_bytes));
    if (sums_bytes <= (size_t)CUDA_TILE_BATCH_SUMS_BYTES &&
        sums_bytes + device_tile_field_bytes(t) < free_bytes / 10 * 9)
        *n = length;
    return 0;
}

/* The passes go from field[0] to field[1] and back, so the batch ends in field[0],
 * where iteration k's parity puts it; the first pass writes the checkpoint as it
 * reads the field. */
int device_cuda_pairs_queue(struct tile *t, long n)
{
    struct cuda_tile *c = t->impl;
    const size_t slot = (size_t)device_cuda_pairs_sums(t);
    for (long p = 0; p < n / 2; p++) {
        const struct pair_launch l = {
            .precision = t->precision,
            .old = t->field[p % 2],
            .new_ = t->field[1 - p % 2],
            .keep = p == 0 ? c->checkpoint_d : NULL,
            .lx = t->extent->lx,
            .ly = t->extent->ly,
            .first_sums = c->slots_d + (size_t)(2 * p) * slot,
            .second_sums = c->slots_d + (size_t)(2 * p + 1) * slot,
            .square_scale = update_rule_square_scale(&t->settings.rule)};
        CUDA_CHECK(t, laplace_pairs_sweep(&l, c->stream));
    }
    CUDA_CHECK(t,
               cudaMemcpyAsync(c->slots_h, c->slots_d, (size_t)n * slot * sizeof(double),
                               cudaMemcpyDeviceToHost, c->stream));
    return 0;
}

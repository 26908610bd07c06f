/*
 * device_cuda_pairs.c - a lone tile's batches in passes of two iterations
 * (kernels/laplace_pairs.cu), which read iteration k once and write k + 2 once: half
 * the bytes of two sweeps, where the loop plan takes them (plan/loop_plan.c).
 * device_cuda_batches.c queues them as a lone tile's batch; loop_batches.c runs the
 * batches: tests each iteration's sums, replays from the checkpoint when the stop
 * falls inside.
 */
#include "devices/device_cuda_pairs.h"

#include <cuda_runtime_api.h>

#include "kernels/laplace_pairs.h"

long device_cuda_pairs_sums(const struct tile *t)
{
    return laplace_pairs_blocks(t->extent->lx, t->extent->ly);
}

/* The passes go from field[0] to field[1] and back, so the batch ends in field[0],
 * where iteration k's parity puts it; the first pass writes the checkpoint as it
 * reads the field. */
int device_cuda_pairs_queue(struct tile *t, long n, void *checkpoint_d, double *slots_d)
{
    struct cuda_tile *c = t->impl;
    const size_t slot = (size_t)device_cuda_pairs_sums(t);
    for (long p = 0; p < n / 2; p++) {
        const struct pair_launch l = {.precision = t->precision,
                                      .old = t->field[p % 2],
                                      .new_ = t->field[1 - p % 2],
                                      .keep = p == 0 ? checkpoint_d : NULL,
                                      .lx = t->extent->lx,
                                      .ly = t->extent->ly,
                                      .first_sums = slots_d + (size_t)(2 * p) * slot,
                                      .second_sums = slots_d + (size_t)(2 * p + 1) * slot,
                                      .square_scale =
                                          update_rule_square_scale(&t->settings.rule)};
        CUDA_CHECK(t, laplace_pairs_sweep(&l, c->stream));
    }
    return 0;
}

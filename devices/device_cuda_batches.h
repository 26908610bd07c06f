/*
 * device_cuda_batches.h - the device_ops batch_* of several tiles on CUDA GPUs
 * (device_cuda_batches.c; device.h says what each does).
 */
#ifndef LAPLACE_DEVICE_CUDA_BATCHES_H
#define LAPLACE_DEVICE_CUDA_BATCHES_H

#include "devices/cuda_tile.h"

int device_cuda_batches_open(struct tile *t, const struct loop_plan *plan);
int device_cuda_batches_record(struct tile *t, const struct batch_call *b);
int device_cuda_batches_start(struct tile *t, const struct batch_call *b);
int device_cuda_batches_wait(struct tile *t, const struct batch_call *b);
int device_cuda_batches_total(struct tile *t, const struct batch_call *b, long j,
                              double *total);
int device_cuda_batches_rewind(struct tile *t, const struct batch_call *b);
int device_cuda_batches_note(struct tile *t, const struct batch_call *b);
/* Frees what device_cuda_batches_open() allocated and the graphs; errors are not
 * reported. */
void device_cuda_batches_free(struct cuda_tile *c);

#endif

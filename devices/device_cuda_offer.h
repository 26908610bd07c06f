/*
 * device_cuda_offer.h - what a CUDA tile offers the loop plan (device_cuda_offer.c).
 */
#ifndef LAPLACE_DEVICE_CUDA_OFFER_H
#define LAPLACE_DEVICE_CUDA_OFFER_H

#include "devices/cuda_tile.h"

/* device.h's offer for a CUDA tile; 0, or -1 when a CUDA call failed. */
int device_cuda_offer(struct tile *t, int tiles, struct tile_offer *o);

#endif

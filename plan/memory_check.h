/*
 * memory_check.h - whether a run fits in memory, checked before anything is
 * allocated: the bytes each GPU's tile and the host will hold, against the GPU's
 * free memory (cudaMemGetInfo) and the host's available memory (/proc/meminfo).
 * A run that does not fit is refused with both sizes in the message, instead
 * of failing part-way or being killed by the kernel's out-of-memory killer.
 * Under MPI each rank counts its part, the ranks of one node together against its
 * memory, and rank 0 also the whole lattice a comparison solves there.
 */
#ifndef LAPLACE_MEMORY_CHECK_H
#define LAPLACE_MEMORY_CHECK_H

#include <stddef.h>

#include "plan/plan.h"

/* Bytes the GPU of one tile of lx x ly sites will hold (both fields, the
 * per-site terms, a lone tile's batch checkpoint, and a margin for the rest). */
double memory_check_tile_bytes(const struct plan *plan, long lx, long ly, int lone);

/* Bytes a GPU will hold: every tile of the plan on it, added in tile order. */
double memory_check_device_bytes(const struct plan *plan, int device);

/* 1 when tile t is this rank's and the first of its GPU (where its GPU's memory is
 * counted), else 0. */
int memory_check_first_tile_of_device(const struct plan *plan, int t);

/* Bytes this rank's host will hold at the peak of the whole run (--compare
 * included): under several ranks its part, and on rank 0 a comparison's whole. */
double memory_check_host_bytes(const struct plan *plan);

/* What one MPI rank will hold: its host memory and each of its GPUs. */
struct memory_check_part {
    double host_bytes;
    int gpus;
    int device[CONFIG_MAX_DEVICES];
    double device_bytes[CONFIG_MAX_DEVICES];
};

/* Every rank's part (parts[r], r < the plan's world size), on every rank: each rank
 * counts its own, then all are gathered. Every rank calls it. 0, or -1 with err set
 * (out of memory on some rank: said on every rank). */
int memory_check_parts(const struct plan *plan, struct memory_check_part *parts,
                       char *err, size_t n);

/* 0 when the planned run fits this rank; when not, err says the sizes needed and
 * available and the status is EXIT_FAILURE_RUN, or EXIT_BAD_USAGE for a --compare or
 * --compare-cpu under several ranks that rank 0 cannot solve whole (drop it). */
int memory_check(const struct plan *plan, char *err, size_t n);

#endif

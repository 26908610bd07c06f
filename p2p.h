/*
 * p2p.h - the CUDA devices of this machine: how many, which ones a run uses,
 * their names, and the peer-access matrix between them (laplace --topology).
 * In a build without CUDA these report that no device exists.
 */
#ifndef LAPLACE_P2P_H
#define LAPLACE_P2P_H

#include <stddef.h>
#include <stdio.h>

/* The most GPUs one process names (--devices; settings/config.h's CONFIG_MAX_DEVICES). */
#define P2P_MAX_DEVICES 64

/* Visible CUDA devices; 0 when there are none or the build has no CUDA. */
int p2p_device_count(void);

/* Why p2p_device_count() is 0, in a few words: "this laplace was built without
 * CUDA", "no CUDA driver found", "no CUDA device is visible" (naming
 * CUDA_VISIBLE_DEVICES when it is set) or CUDA's own error. */
void p2p_none_reason(char *text, size_t n);

/* CUDA's name of device `device` ("NVIDIA H100 80GB HBM3") into name; returns 0, or
 * -1 (name "") when CUDA cannot say or the build has none. */
int p2p_device_name(int device, char *name, size_t n);

/* "CUDA runtime 13.0, driver 13.0" or "built without CUDA". */
void p2p_runtime_version(char *text, size_t n);

/*
 * Chooses the device of every tile of a partition_x x partition_y partition: the
 * asked_count ids of asked (--devices), or 0, 1, ... when asked_count is 0.
 * Fills the "0,1" list and the device names (plan/plan.c picks the implementation).
 * Returns 0; EXIT_BAD_USAGE when a device does not exist or too few exist for
 * the partition; EXIT_FAILURE_RUN when CUDA is missing or broken. err says why.
 */
int p2p_plan_devices(int partition_x, int partition_y, const int *asked, int asked_count,
                     int *devices, char *list, size_t list_n, char *names, size_t names_n,
                     char *err, size_t n);

/* Prints every device and the peer-access matrix; 0, or -1 with err set. */
int p2p_print_topology(FILE *out, char *err, size_t n);

/*
 * Enables peer access from the calling thread's device to peer (not itself;
 * "already enabled" is fine). Returns 1 when enabled, 0 when the pair cannot
 * access each other, -1 on failure with err set.
 */
int p2p_enable(int device, int peer, char *err, size_t n);

#endif

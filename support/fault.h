/*
 * fault.h - a device fault injected on purpose, to test what a failure does.
 *
 * LAPLACE_INJECT_FAULT=D:K makes device D fail at iteration K, as a failed
 * kernel launch would: every thread must then stop, free its memory and the
 * program exit 1 naming the device. D is the CUDA device id (--backend gpu) or
 * the tile number (--backend cpu); K = 0 fails D's set-up (open) instead, as a
 * failed allocation would. Unset or empty: no fault. Not an option, since
 * users never want it; the tests and tests/gpu_suite.sh do.
 *
 * LAPLACE_INJECT_SIGNAL=S:K[,S:K...] raises signal S just before the K-th file
 * written whole (temp_file.h) takes its name, as a user's Ctrl-C or kill arriving
 * while the outputs are written would (K counts from 1; the history, then each
 * --output, then a .pvti's pieces and its index).
 */
#ifndef LAPLACE_FAULT_H
#define LAPLACE_FAULT_H

#include <stddef.h>

/* The environment variables, each read once, at the first call. */
#define FAULT_VARIABLE "LAPLACE_INJECT_FAULT"
#define FAULT_SIGNAL_VARIABLE "LAPLACE_INJECT_SIGNAL"

/* 1 when the injected fault falls on device at an iteration from..to. */
int fault_injected(int device, long from, long to);

/* Called by temp_file_commit before each rename: raises the signals that
 * LAPLACE_INJECT_SIGNAL places there. */
void fault_signal_at_rename(void);

/* Checks both variables' forms; 0, or -1 with err set (a malformed value is a
 * usage error, never silently no fault). */
int fault_check_variable(char *err, size_t n);

#endif

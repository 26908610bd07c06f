/*
 * solver.h - the tiles' solve: one OpenMP thread per device (or host tile), the
 * one iteration loop (loop.c), block partial sums gathered on the host, and the
 * stopping test (solve.h, stop_rule.h).
 */
#ifndef LAPLACE_SOLVER_H
#define LAPLACE_SOLVER_H

#include "devices/device.h"
#include "gpu_partition.h"
#include "problem/problem.h"
#include "solve/solve.h"

/*
 * Solves the problem on the tiles of the partition with the given device
 * implementation, one OpenMP thread per tile. Writes the final field into out
 * (allocated here): under MPI this rank's part alone
 * (rank_part.h: out's x0, y0 say where it lies). Returns 0 when the loop ran (converged
 * or not; see result->reason), -1 when a device failed or memory ran out (result->error);
 * then out holds nothing and needs no field_free. With settings->plan_only the tiles
 * are opened and connected, the loop plan made (result->plan) and nothing iterated:
 * out holds nothing either.
 */
int solver_run(const struct device_ops *ops, const struct problem *problem,
               const struct partition *partition, const struct solve_settings *settings,
               struct field *out, struct solve_result *result);

#endif

/*
 * sweep_side.h - the plan of one side of the lab sweep (sweep_side.c): the
 * configuration on N x N, resolved and checked as a single run's is (plan_resolve,
 * run_plan). The sweep (sweep.h) runs it; its times (sweep_time.h) warm it up.
 */
#ifndef LAPLACE_SWEEP_SIDE_H
#define LAPLACE_SWEEP_SIDE_H

#include <stddef.h>

#include "plan/plan.h"

/* The plan of c on side x side, made in *plan: EXIT_OK, or a status with err. */
int sweep_side_plan(const struct config *c, long side, struct plan *plan, char *err,
                    size_t n);

#endif

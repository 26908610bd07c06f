/*
 * sides_plan.h - the plan of one of the lab's sides (sides_plan.c): the
 * configuration on N x N, resolved and checked as a single run's is (plan_resolve,
 * run_plan). The sides (sides.h) run it; their times (sides_time.h) warm it up.
 */
#ifndef LAPLACE_SIDES_PLAN_H
#define LAPLACE_SIDES_PLAN_H

#include <stddef.h>

#include "plan/plan.h"

/* The plan of c on side x side, made in *plan: EXIT_OK, or a status with err. */
int sides_plan_make(const struct config *c, long side, struct plan *plan, char *err,
                    size_t n);

#endif

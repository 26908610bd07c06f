/*
 * dry_run.h - --dry-run: the plan printed (each tile, its sites and device, the
 * memory each device and the host would hold, the iterations and time expected),
 * nothing solved.
 */
#ifndef LAPLACE_DRY_RUN_H
#define LAPLACE_DRY_RUN_H

#include "plan/plan.h"

/* The plan on stdout (under MPI every rank takes part; rank 0 prints): exit status. */
int dry_run_print(const struct plan *plan);

#endif

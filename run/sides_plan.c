/*
 * sides_plan.c - one side's plan (sides_plan.h).
 */
#include "run/sides_plan.h"

#include "run/run.h"
#include "support/error.h"

int sides_plan_make(const struct config *c, long side, struct plan *plan, char *err,
                    size_t n)
{
    struct config w = *c;
    w.problem.nx = w.problem.ny = side;
    w.side_count = 0;
    w.dry_run = 0; /* each side is planned as the run it would be */
    int status = plan_resolve(&w, err, n);
    if (status != EXIT_OK)
        return status;
    return run_plan(&w, plan, err, n);
}

/*
 * threads.c - the OpenMP threads a parallel region started here can get (threads.h).
 */
#include "support/threads.h"

#include <limits.h>
#include <omp.h>
#include <stddef.h>

int threads_limit(const char **variable)
{
    /* asked from inside the region whose threads were too few (solver.c): about
     * that region, started one level up, not one it would start itself */
    int level = omp_get_active_level() - (omp_in_parallel() ? 1 : 0);
    *variable = NULL;
    if (level >= omp_get_max_active_levels()) {
        *variable = "OMP_MAX_ACTIVE_LEVELS";
        return 1;
    }
    int limit = omp_get_thread_limit(); /* INT_MAX when unset */
    if (limit < INT_MAX)
        *variable = "OMP_THREAD_LIMIT";
    return limit;
}

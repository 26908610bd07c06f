/*
 * threads.c - the OpenMP threads a parallel region started here can get (threads.h).
 */
#include "support/threads.h"

#include <limits.h>
#include <omp.h>
#include <stddef.h>

int threads_limit(const char **variable)
{
    *variable = NULL;
    if (omp_get_active_level() >= omp_get_max_active_levels()) {
        *variable = "OMP_MAX_ACTIVE_LEVELS";
        return 1;
    }
    int limit = omp_get_thread_limit(); /* INT_MAX when unset */
    if (limit < INT_MAX)
        *variable = "OMP_THREAD_LIMIT";
    return limit;
}

/*
 * load.c - the load average against the cores (load.h).
 */
#include "support/load.h"

#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

double load_average(void)
{
    const char *given = getenv(LOAD_VARIABLE);
    double load = -1.0;
    if (given && given[0]) {
        char *end;
        load = strtod(given, &end);
        return end != given && load >= 0.0 ? load : -1.0;
    }
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return -1.0;
    if (fscanf(f, "%lf", &load) != 1)
        load = -1.0;
    fclose(f);
    return load;
}

int load_busy(int threads, const char *what, const char *read_for, char *line, size_t n)
{
    int cores = omp_get_num_procs();
    double load = load_average();
    if (load < 0.0 || !(load > (double)(cores - threads) + 0.5))
        return 0;
    snprintf(line, n,
             "laplace: note: the load average was %.2f on %d core%s when this %s "
             "started: other processes held the cores its %d thread%s needed, so its "
             "times and %s are uncertain; run it on a quieter machine to measure",
             load, cores, cores > 1 ? "s" : "", what, threads, threads > 1 ? "s" : "",
             read_for);
    return 1;
}

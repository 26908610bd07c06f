/*
 * waits.c - the host tiles' short waits unless the user chose (waits.h).
 *
 * libgomp reads OMP_WAIT_POLICY and GOMP_SPINCOUNT once, before main, into two spin
 * counts that it reads again at every wait: the normal one and the one used while
 * its threads outnumber the cores. The host tiles get WAITS_SPINS and 0 (what
 * GOMP_SPINCOUNT=1000 would give, and OMP_WAIT_POLICY=passive where the threads
 * outnumber the cores); libgomp's own values are kept for the GPUs' threads. They
 * are weak here: present where libgomp is linked statically (the Makefile's way),
 * NULL through a shared libgomp (SANITIZE=1), whose symbols are hidden; that
 * libgomp then keeps its own spin.
 */
#include "support/waits.h"

#include <stdio.h>
#include <stdlib.h>

extern unsigned long long gomp_spin_count_var __attribute__((weak));
extern unsigned long long gomp_throttled_spin_count_var __attribute__((weak));

/* The value of the variable name when set and not empty, else NULL. */
static const char *set(const char *name)
{
    const char *value = getenv(name);
    return value && value[0] ? value : NULL;
}

enum waits_way waits_way(void)
{
    if (set("OMP_WAIT_POLICY") || set("GOMP_SPINCOUNT"))
        return WAITS_BY_USER;
    if (!&gomp_spin_count_var || !&gomp_throttled_spin_count_var)
        return WAITS_LIBGOMP_OWN;
    return WAITS_SHORT;
}

void waits_for(int host_tiles)
{
    static unsigned long long own, own_throttled;
    static int saved;
    if (waits_way() != WAITS_SHORT)
        return;
    if (!saved++) /* libgomp's own, as it read them before main */
        own = gomp_spin_count_var, own_throttled = gomp_throttled_spin_count_var;
    gomp_spin_count_var = host_tiles ? WAITS_SPINS : own;
    gomp_throttled_spin_count_var = host_tiles ? 0 : own_throttled;
}

const char *waits_describe(char *buf, size_t n)
{
    const char *policy = set("OMP_WAIT_POLICY"), *spins = set("GOMP_SPINCOUNT");
    switch (waits_way()) {
    case WAITS_SHORT:
        snprintf(buf, n,
                 "short: a waiting thread spins %d times (microseconds), then gives its "
                 "core away (at once where the tiles outnumber the cores); OpenMP's own "
                 "spin of milliseconds starves a shared machine",
                 WAITS_SPINS);
        break;
    case WAITS_LIBGOMP_OWN:
        snprintf(buf, n,
                 "libgomp's own (a spin of a few ms, then a sleep): a shared "
                 "libgomp cannot be told here; GOMP_SPINCOUNT=1000 can");
        break;
    default:
        snprintf(buf, n, "as the environment says (%s%s%s%s%s)",
                 policy ? "OMP_WAIT_POLICY=" : "", policy ? policy : "",
                 policy && spins ? ", " : "", spins ? "GOMP_SPINCOUNT=" : "",
                 spins ? spins : "");
    }
    return buf;
}

/*
 * waits.h - how the host tiles' OpenMP threads wait at a barrier (waits.c).
 *
 * libgomp spins about 300000 times (a few ms) before it sleeps, unless told
 * otherwise by OMP_WAIT_POLICY or GOMP_SPINCOUNT. On a machine that other work
 * shares, a spinning thread holds a core while the thread it waits for is not
 * running: two host tiles took 58.8 s where one took 9.2 s (256^2, double, load
 * average 4 on 2 cores), 10.1 s with passive waits. But a passive wait costs a
 * sleep and a wake-up at every barrier: on the quieter machine 20000 iterations of
 * 256^2 double took 1.7-2.0 s on 2 tiles passive, 1.0 s on one tile, 0.53-0.71 s
 * with libgomp's spin and 0.55-0.66 s with a spin of WAITS_SPINS (a barrier's own
 * wait is 300 to 1000 spins there). So, unless the user chose how threads wait, the
 * host tiles' threads spin WAITS_SPINS times, then sleep (at once where the tiles
 * outnumber the cores): a busy machine loses microseconds a wait, a quiet one almost
 * nothing. The threads that drive GPUs keep libgomp's own spin. The measurements:
 * docs/speed.md, "Host tiles on a shared machine".
 */
#ifndef LAPLACE_WAITS_H
#define LAPLACE_WAITS_H

#include <stddef.h>

/* The spins of a host tile's wait before it sleeps (GOMP_SPINCOUNT's unit). */
#define WAITS_SPINS 1000

/* How the host tiles' threads wait. */
enum waits_way {
    WAITS_SHORT,       /* a short spin, then a sleep: set here (neither variable set) */
    WAITS_BY_USER,     /* OMP_WAIT_POLICY or GOMP_SPINCOUNT set: libgomp follows it */
    WAITS_LIBGOMP_OWN, /* a shared libgomp (SANITIZE=1): its spin cannot be set here */
};

/* How the host tiles' threads wait in this process. */
enum waits_way waits_way(void);

/* Sets libgomp's spin for the solve about to start: short for host tiles (1),
 * libgomp's own for GPUs and the serial reference (0), unless the user chose
 * (WAITS_BY_USER: nothing is changed). Called before each solve's parallel region. */
void waits_for(int host_tiles);

/* One line's text of waits_way, for --dry-run: "short: ...". */
const char *waits_describe(char *buf, size_t n);

#endif

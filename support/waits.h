/*
 * waits.h - how the host tiles' OpenMP threads wait at a barrier (waits.c).
 *
 * libgomp spins about 300000 times (a few ms) before it sleeps, unless told
 * otherwise by OMP_WAIT_POLICY or GOMP_SPINCOUNT. On a machine that other work
 * shares, a spinning thread holds a core while the thread it waits for is not
 * running: two host tiles took 58.8 s where one took 9.2 s (256^2, double, load
 * average 4 on 2 cores), and 10.1 s with passive waits. So, unless the user chose
 * how threads wait, laplace makes the host tiles' waits passive: a thread that waits
 * gives its core away at once. The threads that drive GPUs keep libgomp's spin (their
 * waits are short and their meetings per batch are timed in microseconds). What
 * passive waits cost on a quiet machine, and the measurements they were chosen from:
 * docs/speed.md, "Host tiles on a shared machine".
 */
#ifndef LAPLACE_WAITS_H
#define LAPLACE_WAITS_H

#include <stddef.h>

/* How the host tiles' threads wait. */
enum waits_way {
    WAITS_PASSIVE,     /* made passive here (neither variable set) */
    WAITS_BY_USER,     /* OMP_WAIT_POLICY or GOMP_SPINCOUNT set: libgomp follows it */
    WAITS_LIBGOMP_OWN, /* a shared libgomp (SANITIZE=1): its spin cannot be set here */
};

/* How the host tiles' threads wait in this process. */
enum waits_way waits_way(void);

/* Sets libgomp's spin for the solve about to start: passive for host tiles (1),
 * libgomp's own for GPUs and the serial reference (0), unless the user chose
 * (WAITS_BY_USER: nothing is changed). Called before each solve's parallel region. */
void waits_for(int host_tiles);

/* One line's text of waits_way, for --dry-run: "passive: ...". */
const char *waits_describe(char *buf, size_t n);

#endif

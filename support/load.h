/*
 * load.h - whether other processes hold the cores a timing needs (load.c): the
 * 1-minute load average of /proc/loadavg against the cores, for the one line a
 * comparison or a sweep prints when its times were taken on a busy machine (its
 * speed-up or fitted time exponent then says more about the others than about it).
 *
 * LAPLACE_LOADAVG=X stands for /proc/loadavg's first number (the tests' way to
 * try a busy and a quiet machine); not an option, since users never want it.
 */
#ifndef LAPLACE_LOAD_H
#define LAPLACE_LOAD_H

#include <stddef.h>

#define LOAD_VARIABLE "LAPLACE_LOADAVG"

/* The 1-minute load average (LAPLACE_LOADAVG's, or /proc/loadavg's); -1 when
 * neither can be read. */
double load_average(void);

/*
 * 1 when the load average leaves the timing of `threads` threads fewer cores than
 * it needs: load > cores - threads + 0.5 (half a core's margin: an idle machine's
 * average is rarely 0). Writes the one line that says so into line (n bytes),
 * naming what (a "comparison", a "sweep") and what its times are read for (its
 * "speed-up", its "time exponent"), without a trailing newline.
 */
int load_busy(int threads, const char *what, const char *read_for, char *line, size_t n);

#endif

/*
 * duration.h - a time in seconds as people read it: "about 54 min", "about 3 min
 * 30 s", "about 0.8 s" (duration.c). Every estimated time the program prints (the
 * dry run's, the live line's ETA, a long run's first line, the sweep's) goes
 * through it, so one run's times read alike wherever they are printed.
 */
#ifndef LAPLACE_DURATION_H
#define LAPLACE_DURATION_H

#include <stddef.h>

/* Writes "about " and seconds as a duration into buf (n bytes); returns buf.
 * Below 10 s two digits ("about 2.3 s"); below 10 min minutes and seconds to 10 s
 * ("about 3 min 30 s"); below 2 h minutes ("about 54 min"); then hours and minutes
 * ("about 5 h 10 min"), and days past 2 days. Not finite or negative: "unknown". */
const char *duration_text(double seconds, char *buf, size_t n);

/* A short time without "about": "22 us", "1.51 ms", "2.3 s" (3 digits), for the time
 * an iteration takes. */
const char *duration_short_text(double seconds, char *buf, size_t n);

#endif

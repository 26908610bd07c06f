/*
 * sides_time.h - how long the lab's sides are expected to take (sides_time.c): each
 * side's expected iterations at the rate of its own warm-up (expect.h). --sides
 * --dry-run prints them side by side with their total; sides expected to take more
 * than a minute say so in their first line.
 */
#ifndef LAPLACE_SIDES_TIME_H
#define LAPLACE_SIDES_TIME_H

#include <stddef.h>

#include "settings/config.h"

/* --sides --dry-run: a line per side (its iterations, its time) and the total,
 * nothing solved. EXIT_OK, or a status with err (a side's plan refused). */
int sides_time_dry_run(const struct config *c, char *err, size_t n);

/* The sides' first line on stderr when it is expected to take more than a minute
 * (not -q); the sides whose least time (expect_least_s) is short are not warmed up. */
void sides_time_say_if_long(const struct config *c);

#endif

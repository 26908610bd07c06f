/*
 * sides.h - the lab's sides (--sides N1,N2,...): the configuration solved on N x N
 * for each side in turn, through the one run path (plan.h, run.h), a row per side
 * and the exponents of iterations and compute time against N fitted on log-log
 * axes. The course's table and, with scripts/plot_lab.gp, its figure come from
 * one command:
 *
 *   ./laplace config/course-512.ini --sides 16,32,64,128,256,512,1024 --csv-append
 * lab.csv gnuplot -e "csv='lab.csv'" scripts/plot_lab.gp      (or: make plots
 * LAB=lab.csv)
 */
#ifndef LAPLACE_SIDES_H
#define LAPLACE_SIDES_H

#include <stddef.h>

#include "settings/config.h"

/* The slope b of log y = a + b log x, least squares over the n points with x, y
 * > 0 (NAN with fewer than two distinct x). */
double sides_fit_exponent(const double *x, const double *y, int n);

/* Runs the sides of c (c->side_count > 0): EXIT_OK, the status of a signal that
 * stopped them, or an exit status with one line in err (refused options: 2; a run
 * that failed or diverged: 1, after the rows of the sides before it). */
int sides_run(const struct config *c, char *err, size_t n);

#endif

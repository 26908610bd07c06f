/*
 * on_chip.h - the loop plan's part for the loop on chip (on_chip.c; loop_plan.c asks):
 * whether it pays, and the way, depth and lag a lone tile or tiles stacked in rows take.
 */
#ifndef LAPLACE_ON_CHIP_H
#define LAPLACE_ON_CHIP_H

#include "plan/loop_plan.h"

/* Whether --loop auto takes the loop on chip where it fits (plain Jacobi, the kernel
 * and block left to auto). */
int on_chip_pays(const struct tile_settings *s);

/* The way a lone tile goes on chip (the cluster or the spread strips, their depth and
 * lag) into p: 1, or 0 where the way chosen does not fit. */
int on_chip_alone(const struct tile_settings *s, const struct tile_offer *o,
                  struct loop_plan *p);

/* --loop chip on a lone tile that does not fit: p fails, saying why. */
void on_chip_does_not_fit(const struct tile_offer *o, struct loop_plan *p);

/* Whether auto takes the spread strips over `tiles` GPUs for a lattice of `rows` rows,
 * where they fit (on_chip_across); gpu_layout.c reads the strips' crossover there. */
int on_chip_across_auto(int tiles, long rows);

/* Tiles stacked in rows, a GPU each: the spread strips over their GPUs into p where
 * asked (--loop chip) or where they pay, and every tile's band fits: 1, else 0. */
int on_chip_across(const struct loop_plan_input *in, const struct tile_offer *o,
                   struct loop_plan *p);

/* --loop chip on several tiles that cannot run the spread strips together: p fails,
 * saying why. */
void on_chip_not_across(const struct loop_plan_input *in, struct loop_plan *p);

#endif

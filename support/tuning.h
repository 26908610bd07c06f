/*
 * tuning.h - a tuning knob read from the environment (the experiments' and the GPU
 * suite's LAPLACE_SPREAD_*, LAPLACE_PAIRS*; README lists them): a whole decimal
 * number within its range, else the default. Header only: the kernels' launchers
 * (.cu) and the CUDA device's files (.c) read them alike.
 */
#ifndef LAPLACE_TUNING_H
#define LAPLACE_TUNING_H

#include <stdlib.h>

/* The value of variable `name` when it is a whole number from least to most, else
 * `unset` (also when unset). */
static inline long tuning(const char *name, long least, long most, long unset)
{
    const char *text = getenv(name);
    char *end = NULL;
    const long v = text ? strtol(text, &end, 10) : unset;
    return text && end != text && *end == '\0' && v >= least && v <= most ? v : unset;
}

#endif

/*
 * bench_env.h - the variables --bench reads (LAPLACE_BENCH_ONLY, LAPLACE_BENCH_QUICK,
 * LAPLACE_BENCH_DIR), read once, before anything is measured, and refused in one
 * line (status 2) when set but invalid: a bench that silently measured the default
 * would be believed to have measured what was asked.
 */
#ifndef LAPLACE_BENCH_ENV_H
#define LAPLACE_BENCH_ENV_H

#include <stddef.h>

struct bench_env {
    int parts;       /* BENCH_PART_MATRIX | BENCH_PART_SWEEP (bench_state.h) */
    int quick;       /* LAPLACE_BENCH_QUICK=1 */
    const char *dir; /* where the CSVs go: LAPLACE_BENCH_DIR, or "results" */
};

/* Reads the three variables into *e: 0, or EXIT_BAD_USAGE with err naming the
 * variable and its value. Unset or empty means the default; set, ONLY is matrix
 * or sweep, QUICK 0 or 1, DIR a folder name short enough for the CSVs' paths. */
int bench_env_read(struct bench_env *e, char *err, size_t n);

#endif

/*
 * gpu_layout.h - how many GPUs `--partition auto` gives a run of one process, and how
 * their tiles lie (gpu_layout.c), from the crossover measured on 4 H200s and on 4 H100s
 * (results/2026-11-27-several-gpus).
 */
#ifndef LAPLACE_GPU_LAYOUT_H
#define LAPLACE_GPU_LAYOUT_H

/* What --partition auto decided for the GPUs, and why in a phrase for the report. */
struct gpu_layout {
    int ngx, ngy;
    char why[200];
};

/*
 * The layout for a lattice of nx x ny sites on up to `gpus` GPUs named `model` (CUDA's
 * name of the first, "" or NULL unknown: the H200s' tables). passes_of_two: the
 * run may take passes of two iterations on tiles stacked in rows (plain Jacobi, the
 * sums added on the host, kernel and block auto: plan/loop_plan.c); such tiles are
 * stacked (1 x n), others laid out as square as the lattice allows.
 */
void gpu_layout_auto(int gpus, const char *model, long nx, long ny, int passes_of_two,
                     struct gpu_layout *out);

#endif

/*
 * gpu_layout.h - how many GPUs `--partition auto` gives a run of one process, and how
 * their tiles lie (gpu_layout.c), from the crossovers measured on 4 H200s and on 4 H100s
 * (results/2026-11-28-crossover, results/2026-11-27-several-gpus).
 */
#ifndef LAPLACE_GPU_LAYOUT_H
#define LAPLACE_GPU_LAYOUT_H

/* What --partition auto decided for the GPUs, and why in a phrase for the report. */
struct gpu_layout {
    int ngx, ngy;
    char why[200];
};

/* The loop that tiles stacked in rows may take (plan.c asks the loop plan's rules):
 * none (single sweeps: this method, kernel or loop), passes of two iterations, or
 * also, where the lattice is small enough, the spread strips on chip over their GPUs
 * (plan/on_chip.c). Each has its own crossover table. */
enum stacked_loop { STACKED_NONE, STACKED_PASSES, STACKED_ON_CHIP };

/*
 * The layout for a lattice of nx x ny sites on up to `gpus` GPUs named `model` (CUDA's
 * name of the first, "" or NULL unknown: the H200s' tables), for a run whose stacked
 * tiles may take `loop`; such tiles are stacked (1 x n), others laid out as square as
 * the lattice allows.
 */
void gpu_layout_auto(int gpus, const char *model, long nx, long ny,
                     enum stacked_loop loop, struct gpu_layout *out);

#endif

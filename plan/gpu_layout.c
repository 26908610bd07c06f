/*
 * gpu_layout.c - how many GPUs `--partition auto` gives a run of one process, and how
 * their tiles lie (gpu_layout.h), from the speed-ups measured at each lattice (the
 * crossover tables below): several GPUs pay only where their sweeps outweigh the cost
 * of meeting (once a pass, through the host once a batch), so a small lattice keeps
 * one GPU, on chip or in its own batches. The report says the speed-up measured.
 */
#include "plan/gpu_layout.h"

#include <stdio.h>

#include "gpu_partition.h"

/* Several GPUs' speed-up over one (auto's loop on each), measured at a lattice: on two
 * GPUs and on four (which stands for every GPU of a machine of three or more). */
struct crossover_row {
    long side;   /* the lattice side² */
    double two;  /* 2 GPUs' speed-up */
    double four; /* 4 GPUs' speed-up */
};

/*
 * Measured on 4 H200s, float, the norm every iteration, us an iteration, medians of 3
 * (results/2026-11-27-several-gpus):
 * - passes of two on tiles stacked in rows, 1 GPU against 1x2 and 1x4: 1024^2 3.46 /
 *   6.44 / 7.42, 2048^2 9.83 / 8.66 / 8.81, 4096^2 28.52 / 21.37 / 16.90, 8192^2 106.1 /
 *   58.2 / 39.6, 16384^2 403.3 / 211.6 / 122.5;
 * - single sweeps on tiles (every other rule), 1 GPU against 2x1 and 2x2, issue 42's
 *   table (4 H200s, e6be97e): 4096^2 30.8 / 33.4 / 31.9, 8192^2 111.9 / 89.8 / 89.7,
 *   16384^2 424 / 332 / 174.
 */
static const struct crossover_row stacked_rows[] = {
    {1024, 0.54, 0.47}, {2048, 1.13, 1.12}, {4096, 1.33, 1.69},
    {8192, 1.82, 2.68}, {16384, 1.91, 3.29},
};
static const struct crossover_row single_sweeps[] = {
    {4096, 0.92, 0.97}, {8192, 1.25, 1.25}, {16384, 1.28, 2.44},
};
#define MEASURED_ON "4 H200s"

/* A crossover table and its length. */
struct crossover {
    const struct crossover_row *rows;
    int count;
};

/* The table for passes of two on stacked tiles, or for single sweeps. */
static struct crossover table_of(int passes_of_two)
{
    if (passes_of_two)
        return (struct crossover){stacked_rows, sizeof stacked_rows / sizeof *stacked_rows};
    return (struct crossover){single_sweeps, sizeof single_sweeps / sizeof *single_sweeps};
}

/* The row measured at the largest lattice up to `sites`, or NULL below the first. */
static const struct crossover_row *row_for(long sites, int passes_of_two)
{
    const struct crossover t = table_of(passes_of_two);
    const struct crossover_row *row = NULL;
    for (int i = 0; i < t.count && t.rows[i].side * t.rows[i].side <= sites; i++)
        row = &t.rows[i];
    return row;
}

/* The GPUs that pay most at `row` (1, 2 or all; a tie goes to more GPUs), and their
 * measured speed-up in *speed_up (1 for one GPU). */
static int gpus_that_pay(int gpus, const struct crossover_row *row, double *speed_up)
{
    int best = 1;
    *speed_up = 1.0;
    if (!row)
        return best;
    if (row->two >= *speed_up) {
        best = 2;
        *speed_up = row->two;
    }
    if (gpus > 2 && row->four >= *speed_up) {
        best = gpus;
        *speed_up = row->four;
    }
    return best;
}

/* Why `n` of `gpus` GPUs, from the row measured (NULL: below every measured lattice). */
static void say_why(struct gpu_layout *out, int n, int gpus, int stacked,
                    int passes_of_two, const struct crossover_row *row, double speed_up)
{
    char head[96];
    snprintf(head, sizeof head, "%d of %d GPUs%s%s", n, gpus,
             stacked ? ", stacked in rows for passes of two" : "",
             passes_of_two ? ":" : ": with single sweeps (this method, kernel or loop),");
    if (!row)
        snprintf(out->why, sizeof out->why,
                 "%s several do not pay below %ld^2 sites (measured on " MEASURED_ON ")",
                 head, table_of(passes_of_two).rows[0].side);
    else if (n == 1)
        snprintf(out->why, sizeof out->why,
                 "%s several do not pay at %ld^2 sites (2 GPUs %.2fx one, measured on "
                 MEASURED_ON ")",
                 head, row->side, row->two);
    else
        snprintf(out->why, sizeof out->why,
                 "%s %d GPUs %.2fx one at %ld^2 sites (measured on " MEASURED_ON ")", head,
                 n == 2 ? 2 : 4, speed_up, row->side);
}

void gpu_layout_auto(int gpus, long nx, long ny, int passes_of_two,
                     struct gpu_layout *out)
{
    const struct crossover_row *row = row_for(nx * ny, passes_of_two);
    double speed_up = 1.0;
    const int n = gpus > 1 ? gpus_that_pay(gpus, row, &speed_up) : 1;
    const int stacked = passes_of_two && n > 1 && ny / n >= 2;
    if (stacked) {
        out->ngx = 1;
        out->ngy = n;
    } else
        partition_auto_layout(n, nx, ny, &out->ngx, &out->ngy);
    if (gpus <= 1) {
        snprintf(out->why, sizeof out->why, "the one GPU");
        return;
    }
    say_why(out, n, gpus, stacked, passes_of_two, row, speed_up);
}

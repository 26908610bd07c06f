/*
 * gpu_layout.c - how many GPUs `--partition auto` gives a run of one process, and how
 * their tiles lie (gpu_layout.h). Several GPUs pay only where their sweeps outweigh
 * the cost of meeting (once a pass, through the host once a batch), so a small
 * lattice keeps one GPU, on chip or in its own batches.
 */
#include "plan/gpu_layout.h"

#include <stdio.h>

#include "gpu_partition.h"

/*
 * From how many sites several GPUs pay. Measured on 4 H200s, float, the norm every
 * iteration, us an iteration, medians of 3 (results/2026-11-27-several-gpus):
 * - passes of two on stacked tiles, 1 GPU against 1x2 and 1x4: 1024^2 3.46 / 6.44 /
 *   7.42, 2048^2 9.83 / 8.66 / 8.81, 4096^2 28.52 / 21.37 / 16.90, 8192^2 106.1 /
 *   58.2 / 39.6, 16384^2 403.3 / 211.6 / 122.5: two from 2048^2, all from 4096^2;
 * - single sweeps on tiles (every other rule), 1 GPU against 2x1 and 2x2, issue 42's
 *   table (4 H200s, e6be97e): 4096^2 30.8 / 33.4 / 31.9, 8192^2 111.9 / 89.8 / 89.7:
 *   every GPU from 8192^2.
 */
#define STACKED_TWO_FROM (2048L * 2048L)
#define STACKED_ALL_FROM (4096L * 4096L)
#define SINGLES_ALL_FROM (8192L * 8192L)

/* The GPUs a lattice of `sites` takes: 1, 2 or all. */
static int gpus_that_pay(int gpus, long sites, int passes_of_two)
{
    if (!passes_of_two)
        return sites < SINGLES_ALL_FROM ? 1 : gpus;
    if (sites < STACKED_TWO_FROM)
        return 1;
    return sites < STACKED_ALL_FROM && gpus > 2 ? 2 : gpus;
}

void gpu_layout_auto(int gpus, long nx, long ny, int passes_of_two,
                     struct gpu_layout *out)
{
    const int n = gpus > 1 ? gpus_that_pay(gpus, nx * ny, passes_of_two) : 1;
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
    snprintf(out->why, sizeof out->why, "%d of %d GPUs%s: %s", n, gpus,
             stacked ? ", stacked in rows for passes of two" : "",
             passes_of_two ? "several pay from 2048^2 sites, all from 4096^2 (measured "
                             "on 4 H200s)"
                           : "with single sweeps (this method, kernel or loop) several "
                             "pay from 8192^2 sites (measured on 4 H200s)");
}

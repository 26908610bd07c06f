/*
 * gpu_layout.c - how many GPUs `--partition auto` gives a run of one process, and how
 * their tiles lie (gpu_layout.h), from the speed-ups measured at each lattice (the
 * crossover tables below, three a GPU model: single sweeps, passes of two, and passes
 * or the spread strips on chip): several GPUs pay only where their work outweighs the
 * cost of meeting (through peer memory in the strips, once a pass through a graph,
 * through the host once a batch), so a small lattice keeps one GPU. The report says the
 * speed-up measured.
 */
#include "plan/gpu_layout.h"

#include <stdio.h>
#include <string.h>

#include "gpu_partition.h"
#include "plan/on_chip.h"

/* Several GPUs' speed-up over one (auto's loop on each), measured at a lattice: on two
 * GPUs and on four (which stands for every GPU of a machine of three or more). */
struct crossover_row {
    long side;   /* the lattice side² */
    double two;  /* 2 GPUs' speed-up */
    double four; /* 4 GPUs' speed-up */
};

/* A crossover table, its length, and the machine it was measured on. */
struct crossover {
    const struct crossover_row *rows;
    int count;
    const char *measured_on; /* "4 H200s" */
};
#define TABLE(rows, on)                                                                  \
    {                                                                                    \
        rows, sizeof rows / sizeof *rows, on                                             \
    }

/*
 * Measured on 4 H200s, float, the norm every iteration, us an iteration, medians of 3,
 * 1 GPU (auto) against 1x2 and 1x4 (results/2026-11-28-crossover):
 * - the loop auto takes on tiles stacked in rows, the spread strips on chip up to 2048
 *   rows, their set-up before the clock (results/2026-11-28-chip-open, call A, main
 *   339e837): 1024^2 3.405 / 3.000 / 2.825, 2048^2 9.518 / 6.936 / 6.111 (the course's
 *   512^2: 1.469 / 1.638 / 1.644); passes of two above, the next
 *   batch queued before the host waits (call B, main 2312095): 4096^2 27.80 / 17.27 /
 *   11.50, 8192^2 102.5 / 53.91 / 31.31, 16384^2 389.9 / 196.7 / 102.8;
 * - passes of two only (--loop batched, --monitor): 2048^2 7.192 / 7.111 and 1024^2 on
 *   1x4 6.211 (call A); 1024^2 on 1x2 5.985 (results/2026-11-27-several-gpus, call 17);
 * - single sweeps on tiles (every other rule), 1 GPU against 2x1 and 2x2, issue 42's
 *   table (4 H200s, e6be97e): 4096^2 30.8 / 33.4 / 31.9, 8192^2 111.9 / 89.8 / 89.7,
 *   16384^2 424 / 332 / 174.
 */
static const struct crossover_row h200_on_chip[] = {
    {1024, 1.14, 1.21}, {2048, 1.37, 1.56},  {4096, 1.61, 2.42},
    {8192, 1.90, 3.27}, {16384, 1.98, 3.79},
};
static const struct crossover_row h200_passes[] = {
    {1024, 0.58, 0.55}, {2048, 1.33, 1.34},  {4096, 1.61, 2.42},
    {8192, 1.90, 3.27}, {16384, 1.98, 3.79},
};
static const struct crossover_row h200_single[] = {
    {4096, 0.92, 0.97},
    {8192, 1.25, 1.25},
    {16384, 1.28, 2.44},
};

/*
 * Measured on 4 H100s (80 GB HBM3) the same way (results/2026-11-27-several-gpus, call
 * 11, main 67b04ce: the tiles meeting through the graph), 1 GPU against 1x2 and 1x4:
 * 1024^2 3.459 / 6.202 / 7.263, 2048^2 9.923 / 7.913 / 9.032, 4096^2 30.92 / 20.97 /
 * 16.98, 8192^2 117.4 / 64.14 / 46.45, 16384^2 454.1 / 236.9 / 138.6. The strips on
 * chip over several GPUs and single sweeps: not measured on H100s (the passes' table,
 * and the H200s' single sweeps).
 */
static const struct crossover_row h100_passes[] = {
    {1024, 0.56, 0.48}, {2048, 1.25, 1.10},  {4096, 1.47, 1.82},
    {8192, 1.83, 2.53}, {16384, 1.92, 3.28},
};

/* One machine's tables: for GPUs whose CUDA name contains `model`. */
struct machine {
    const char *model;
    struct crossover single;  /* STACKED_NONE: single sweeps */
    struct crossover passes;  /* STACKED_PASSES: passes of two on tiles stacked in rows */
    struct crossover on_chip; /* STACKED_ON_CHIP: also the spread strips on chip */
};

/* The first serves every GPU the others do not name. */
static const struct machine machines[] = {
    {"H200", TABLE(h200_single, "4 H200s"), TABLE(h200_passes, "4 H200s"),
     TABLE(h200_on_chip, "4 H200s")},
    {"H100", TABLE(h200_single, "4 H200s"), TABLE(h100_passes, "4 H100s"),
     TABLE(h100_passes, "4 H100s")},
};

/* The table for GPUs named `model` ("" unknown), for stacked tiles' `loop`. */
static struct crossover table_of(const char *model, enum stacked_loop loop)
{
    const struct machine *m = &machines[0];
    for (size_t i = 1; i < sizeof machines / sizeof *machines; i++)
        if (model && strstr(model, machines[i].model))
            m = &machines[i];
    return loop == STACKED_ON_CHIP  ? m->on_chip
           : loop == STACKED_PASSES ? m->passes
                                    : m->single;
}

/* The row measured at the largest lattice up to `sites`, or NULL below the first. */
static const struct crossover_row *row_for(const struct crossover *t, long sites)
{
    const struct crossover_row *row = NULL;
    for (int i = 0; i < t->count && t->rows[i].side * t->rows[i].side <= sites; i++)
        row = &t->rows[i];
    return row;
}

/* What n GPUs were measured to give a lattice: the table of the loop they would take
 * (the strips' only where the loop plan takes them on n tiles of ny rows, else the
 * passes'), its row at `sites` (NULL below the first), and the speed-up (0 there). */
struct measured {
    struct crossover table;
    const struct crossover_row *row;
    double speed_up;
};

static struct measured measured_on(const char *model, enum stacked_loop loop, int n,
                                   long sites, long ny)
{
    if (loop == STACKED_ON_CHIP && !on_chip_across_auto(n, ny))
        loop = STACKED_PASSES;
    struct measured m = {.table = table_of(model, loop)};
    m.row = row_for(&m.table, sites);
    m.speed_up = !m.row ? 0 : n == 2 ? m.row->two : m.row->four;
    return m;
}

/* The GPUs that pay most (1, 2 or all; a tie goes to more GPUs) and what was measured
 * for them in *m (for one GPU: what 2 GPUs were measured to give). */
static int gpus_that_pay(int gpus, const char *model, enum stacked_loop loop, long sites,
                         long ny, struct measured *m)
{
    int best = 1;
    *m = measured_on(model, loop, 2, sites, ny);
    if (m->row && m->speed_up >= 1.0)
        best = 2;
    const struct measured all = measured_on(model, loop, gpus, sites, ny);
    if (gpus > 2 && all.row && all.speed_up >= (best == 2 ? m->speed_up : 1.0)) {
        best = gpus;
        *m = all;
    }
    return best;
}

/* Why `n` of `gpus` GPUs, from what was measured (m: for one GPU, 2 GPUs' row; NULL
 * row: below every row). */
static void say_why(struct gpu_layout *out, int n, int gpus, int stacked,
                    enum stacked_loop loop, const struct measured *m)
{
    char head[96];
    snprintf(head, sizeof head, "%d of %d GPUs%s%s", n, gpus,
             stacked ? ", stacked in rows" : "",
             loop != STACKED_NONE
                 ? ":"
                 : ": with single sweeps (this method, kernel or loop),");
    if (!m->row)
        snprintf(out->why, sizeof out->why,
                 "%s several do not pay below %ld^2 sites (measured on %s)", head,
                 m->table.rows[0].side, m->table.measured_on);
    else if (n == 1)
        snprintf(
            out->why, sizeof out->why,
            "%s several do not pay at %ld^2 sites (2 GPUs %.2fx one, measured on %s)",
            head, m->row->side, m->row->two, m->table.measured_on);
    else
        snprintf(out->why, sizeof out->why,
                 "%s %d GPUs %.2fx one at %ld^2 sites (measured on %s)", head,
                 n == 2 ? 2 : 4, m->speed_up, m->row->side, m->table.measured_on);
}

void gpu_layout_auto(int gpus, const char *model, long nx, long ny,
                     enum stacked_loop loop, struct gpu_layout *out)
{
    struct measured m;
    const int n = gpus > 1 ? gpus_that_pay(gpus, model, loop, nx * ny, ny, &m) : 1;
    const int stacked = loop != STACKED_NONE && n > 1 && ny / n >= 2;
    if (stacked) {
        out->ngx = 1;
        out->ngy = n;
    } else
        partition_auto_layout(n, nx, ny, &out->ngx, &out->ngy);
    if (gpus <= 1) {
        snprintf(out->why, sizeof out->why, "the one GPU");
        return;
    }
    say_why(out, n, gpus, stacked, loop, &m);
}

/*
 * test_gpu_layout.c - how many GPUs --partition auto gives a run of one process and how
 * their tiles lie (plan/gpu_layout.c), table-tested on the CPU: the lattice, the GPUs
 * there are, their model, and the loop stacked tiles may take (single sweeps, passes of
 * two, or also the spread strips on chip).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "plan/gpu_layout.h"

/* The GPUs' model, CUDA's name of the first ("" unknown): each test sets it. */
static const char *model = "NVIDIA H200";

static void expect(int gpus, long nx, long ny, enum stacked_loop loop, int ngx, int ngy,
                   const char *said)
{
    static const char *const loops[] = {"single sweeps", "passes", "on chip"};
    struct gpu_layout l;
    gpu_layout_auto(gpus, model, nx, ny, loop, &l);
    cr_expect(l.ngx == ngx && l.ngy == ngy,
              "%d GPUs, %ld x %ld, %s: %dx%d, expected %dx%d", gpus, nx, ny, loops[loop],
              l.ngx, l.ngy, ngx, ngy);
    cr_expect(strstr(l.why, said), "%d GPUs, %ld x %ld, %s: '%s' does not say '%s'", gpus,
              nx, ny, loops[loop], l.why, said);
}

#define NONE STACKED_NONE
#define PASSES STACKED_PASSES
#define CHIP STACKED_ON_CHIP

Test(gpu_layout, several_gpus_only_where_they_pay)
{
    expect(4, 1000, 1000, CHIP, 1, 1,
           "1 of 4 GPUs: several do not pay below 1024^2 sites");
    /* 1024^2: 2 GPUs 1.14x, 4 GPUs 1.21x: four */
    expect(4, 1024, 1024, CHIP, 1, 4,
           "4 of 4 GPUs, stacked in rows: 4 GPUs 1.21x one at 1024^2 sites (measured on "
           "4 H200s)");
    expect(4, 2047, 2048, CHIP, 1, 4, "at 1024^2");
    expect(4, 2048, 2048, CHIP, 1, 4,
           "4 of 4 GPUs, stacked in rows: 4 GPUs 1.56x one at 2048^2 sites (measured on "
           "4 H200s)");
    /* 3000 rows: more than the strips take, so the passes' row */
    expect(4, 3000, 3000, CHIP, 1, 4, "4 GPUs 1.34x one at 2048^2");
    expect(4, 4096, 4096, CHIP, 1, 4, "4 GPUs 2.42x one at 4096^2");
    expect(4, 16384, 16384, CHIP, 1, 4, "4 GPUs 3.79x one at 16384^2");
    expect(3, 8192, 8192, CHIP, 1, 3, "3 of 3 GPUs, stacked in rows: 4 GPUs 3.27x one");
    expect(2, 2048, 2048, CHIP, 1, 2, "2 of 2 GPUs, stacked in rows: 2 GPUs 1.37x one");
    expect(2, 1024, 1024, CHIP, 1, 2, "2 of 2 GPUs");
    expect(2, 1023, 1024, CHIP, 1, 1, "1 of 2 GPUs");
    expect(8, 16384, 16384, CHIP, 1, 8, "8 of 8 GPUs");
    /* the strips run on 2 to 4 GPUs: 8 would take passes (1.34x), 2 the strips */
    expect(8, 2048, 2048, CHIP, 1, 2, "2 of 8 GPUs, stacked in rows: 2 GPUs 1.37x one");
    expect(8, 1024, 1024, CHIP, 1, 2, "2 of 8 GPUs, stacked in rows: 2 GPUs 1.14x one");
    expect(3, 2048, 2048, CHIP, 1, 3, "3 of 3 GPUs, stacked in rows: 4 GPUs 1.56x one");
    /* 1.5 million sites in 2500 rows: the strips would not take them, passes do not pay
     */
    expect(2, 600, 2500, CHIP, 1, 1,
           "1 of 2 GPUs: several do not pay at 1024^2 sites (2 "
           "GPUs 0.58x one");
    expect(1, 16384, 16384, CHIP, 1, 1, "the one GPU");
}

Test(gpu_layout, passes_without_the_strips_pay_from_2048_squared)
{
    expect(4, 1024, 1024, PASSES, 1, 1,
           "1 of 4 GPUs: several do not pay at 1024^2 sites (2 GPUs 0.58x one, measured "
           "on 4 H200s)");
    /* 2048^2: 2 GPUs 1.33x, 4 GPUs 1.34x: four */
    expect(4, 2048, 2048, PASSES, 1, 4,
           "4 of 4 GPUs, stacked in rows: 4 GPUs 1.34x one at 2048^2");
    expect(2, 2048, 2048, PASSES, 1, 2, "2 GPUs 1.33x one at 2048^2");
    expect(4, 16384, 16384, PASSES, 1, 4, "4 GPUs 3.79x one at 16384^2");
}

Test(gpu_layout, single_sweeps_pay_later_and_lie_square)
{
    expect(4, 2048, 2048, NONE, 1, 1,
           "1 of 4 GPUs: with single sweeps (this method, kernel "
           "or loop), several do not pay below 4096^2 sites");
    expect(4, 4096, 4096, NONE, 1, 1,
           "1 of 4 GPUs: with single sweeps (this method, kernel "
           "or loop), several do not pay at 4096^2 sites (2 GPUs "
           "0.92x one");
    /* 8192^2: 1.25 on 2 and on 4, a tie: more GPUs */
    expect(4, 8192, 8192, NONE, 2, 2,
           "4 of 4 GPUs: with single sweeps (this method, kernel "
           "or loop), 4 GPUs 1.25x one at 8192^2 sites");
    expect(2, 8192, 8192, NONE, 1, 2,
           "2 of 2 GPUs: with single sweeps (this method, kernel "
           "or loop), 2 GPUs 1.25x one");
}

Test(gpu_layout, stacked_tiles_keep_two_rows_each)
{
    expect(4, 3, 3, CHIP, 1, 1, "1 of 4 GPUs");
    /* 4.2 million sites in 64 rows: 4 GPUs of 16 rows each */
    expect(4, 65536, 64, CHIP, 1, 4, "stacked in rows");
    /* 4.2 million sites in 3 rows: two GPUs, not stacked (1 row each), side by side */
    expect(2, 1398102, 3, CHIP, 2, 1, "2 of 2 GPUs:");
}

Test(gpu_layout, each_model_its_own_table_and_others_the_h200s)
{
    model = "NVIDIA H100 80GB HBM3";
    /* the strips over several H100s were not measured: the passes' table */
    expect(4, 1024, 1024, CHIP, 1, 1,
           "1 of 4 GPUs: several do not pay at 1024^2 sites (2 "
           "GPUs 0.56x one, measured on 4 H100s)");
    /* 2048^2: 2 GPUs 1.25x, 4 GPUs 1.10x: two */
    expect(4, 2048, 2048, PASSES, 1, 2,
           "2 of 4 GPUs, stacked in rows: 2 GPUs 1.25x one at 2048^2 sites (measured on "
           "4 H100s)");
    expect(4, 16384, 16384, CHIP, 1, 4,
           "4 GPUs 3.28x one at 16384^2 sites (measured on 4 "
           "H100s)");
    /* single sweeps were measured on the H200s only: their table, and it says so */
    expect(4, 8192, 8192, NONE, 2, 2,
           "4 GPUs 1.25x one at 8192^2 sites (measured on 4 "
           "H200s)");
    model = "NVIDIA H200";
    expect(4, 2048, 2048, PASSES, 1, 4,
           "4 GPUs 1.34x one at 2048^2 sites (measured on 4 "
           "H200s)");
    model = "NVIDIA A100-SXM4-80GB"; /* a model not measured: the H200s' */
    expect(4, 16384, 16384, CHIP, 1, 4,
           "4 GPUs 3.79x one at 16384^2 sites (measured on 4 "
           "H200s)");
    model = "";
    expect(2, 4096, 4096, PASSES, 1, 2,
           "2 GPUs 1.61x one at 4096^2 sites (measured on 4 "
           "H200s)");
}

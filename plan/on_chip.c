/*
 * on_chip.c - whether and how a run's loop goes on chip (on_chip.h), for loop_plan.c:
 * whether it pays; a lone tile in one cluster or in the spread strips, at which depth
 * and lag; tiles stacked in rows, the spread strips over their GPUs. Every number
 * that decides is here, with the measurement behind it.
 */
#include "plan/on_chip.h"

#include <stdio.h>

#include "laplace_kernels.h"

/* Iterations a lap of the loop on chip: about 10 ms at the 1-2 us an iteration of a
 * small lattice, so the host answers Ctrl-C at once and the lap's norms fit in 64 KiB
 * (device_cuda_chip.c keeps them). */
#define CHIP_LAP 8192

/* The spread strips take a lattice over this many rows high where the cluster would
 * hold it too, or over ROUNDS_UP_TO_ROWS where the cluster holds it in rounds (the
 * cluster meeting every iteration: every rule but plain Jacobi, or halos too large).
 * Measured on H100s, the norm every iteration, medians of 3, us an iteration:
 * - the cluster meeting every iteration against the spread strips in rounds of 2
 *   (results/2026-11-26-rounds, probe-5 and run-6, two machines): float 32^2
 *   1.79/1.72 and 1.79/1.83, 64^2 1.91/1.74 and 1.90/1.93, 128^2 2.02/1.94 and
 *   2.01/2.02, 256^2 2.46/2.00 and 2.46/2.31; double 128^2 2.05/2.05, 256^2 2.69/2.18:
 *   alike up to 128 rows, the spread strips ahead above;
 * - the cluster in rounds against the spread strips (results/2026-11-26-floors,
 *   probe-8): float 128^2 1.41/2.03, 192^2 1.42/2.08, 256^2 1.74/2.17; double 128^2
 *   1.41/1.99, 256^2 (rounds of 2: 4 do not fit) 2.11/2.18. */
#define SPREAD_FROM_ROWS 128
#define ROUNDS_UP_TO_ROWS 256

/* Whether --loop auto takes the loop on chip where it fits: for plain Jacobi, in
 * either precision, where it ran faster than the rows kernel's batches. Measured on an
 * H100, the norm every iteration, medians of 3, us an iteration on chip against the
 * batches (results/2026-11-25-chip-blocks, results/2026-11-26-spread): float 128^2
 * 2.03/2.87, 512^2 3.02/3.97, 1024^2 4.29/8.35; double 128^2 2.03/2.86, 512^2
 * 3.33/4.36, 1024^2 4.98/9.67. Every other rule is slower on chip (SOR at 512^2 float
 * 30.6 against 10.6, a source at 256^2 5.70 against 3.14: the general sweep on chip
 * tests each site's colour and region), so it keeps the batches. A kernel or block
 * asked for keeps that kernel's loop. */
int on_chip_pays(const struct tile_settings *s)
{
    return s->loop == LOOP_AUTO && s->kernel == KERNEL_AUTO && s->block_x <= 0 &&
           update_rule_is_plain_jacobi(&s->update_rule);
}

/* The halo rows and iterations of a round that plain Jacobi's cluster tries first
 * (LAPLACE_TUNE's chip_depth another, 0 .. CHIP_MOST_DEPTH; every other rule meets
 * every iteration, depth 0); a block keeps 2 depth fields. Measured on an H100, float,
 * the norm every iteration, us an iteration (results/2026-11-26-floors, probe-8 and
 * probe-12): at depths 2, 3, 4: 16^2 1.17, 1.07, 1.01; 64^2 1.44, 1.27, 1.20; 128^2
 * 1.65, 1.48, 1.41; 256^2 1.94, 1.83, 1.74 (the cluster meeting every iteration:
 * 1.56, 1.90, 1.99, 2.17 with the spread strips at 256^2); at depths 4, 5, 6, 8: 16^2
 * 1.04, 1.03, 1.01, 0.98; 64^2 1.24, 1.21, 1.18, 1.16; 128^2 1.45, 1.42, 1.40, 1.38;
 * double 128^2 1.48, 1.45, 1.44, 1.44 (256^2: 1.76 at each, its deeper halos not
 * fitting). */
#define CLUSTER_DEPTH 8

/* The depth the cluster tries after `depth` where its halos do not fit: one less down
 * to 2 (a round of one iteration is slower than meeting every iteration: probe-7 of
 * results/2026-11-26-floors), then 0; -1 after 0. */
static int shallower(int depth)
{
    return depth > 2 ? depth - 1 : depth > 0 ? 0 : -1;
}

/* The cluster a lone tile takes: its blocks (0: none fits) at the first depth that
 * fits, into *depth. */
static int cluster_fit(const struct tile_settings *s, const struct tile_offer *o,
                       int plain, int *depth)
{
    const int asked = s->tune.chip_depth;
    for (int d = plain ? (asked != TUNING_AUTO ? asked : CLUSTER_DEPTH) : 0; d >= 0;
         d = shallower(d))
        if (o->cluster_blocks[d] > 0) {
            *depth = d;
            return o->cluster_blocks[d];
        }
    return 0;
}

/* The spread strips' halo depth and decision lag, tried in order until one fits
 * (LAPLACE_TUNE's spread_depth first where set, with spread_lag or SPREAD_LAG; its
 * spread_lag in every try where set). Measured on an H100, us an iteration, float, the
 * norm every iteration (results/2026-11-26-rounds, probe-2): depth 2 is the fastest or
 * as fast as any from 128^2 to 1024^2 (512^2: 1 2.9, 2 2.25, 3 2.66, 4 2.45); a lag of
 * 1 (two fields) keeps on chip the largest lattices that fitted before the halos, where
 * an iteration is long enough to hide the decision. A lag of 3 at depth 2 where its
 * fifth field fits (float up to about 900^2, double about 600^2), medians of 3 against
 * a lag of 2 (results/2026-11-27-regs, run-10): float 384^2 1.98 against 2.15, 512^2
 * 2.24 against 2.23, 768^2 3.05 against 3.01, double 512^2 2.84 against 2.87; where it
 * does not fit (float 1024^2), a lag of 2. */
#define SPREAD_LAG 2
static const int spread_tries[][2] = {
    {SPREAD_DEPTH, 3}, {SPREAD_DEPTH, SPREAD_LAG}, {0, SPREAD_LAG}, {0, 1}};

/* The way the spread strips of one try take: each thread's column in registers
 * wherever the columns loop takes them (LAPLACE_TUNE's spread_columns=0 never), else
 * the fields in shared memory. Measured on an H100 (results/2026-11-27-pace), the
 * fields against the columns (with the deciding warp's registers sized for 160
 * blocks): the course problem 0.943 against 0.658 s, float 512^2 2.23 against 1.55 us
 * an iteration, the same bits. */
static int spread_way(const struct tile_settings *s, const struct spread_fit fits[2])
{
    return s->tune.spread_columns != 0 && fits[1].possible;
}

/* The spread strips a lone tile takes: the first try whose strips fit (the way they
 * take), if every block of it can be resident; its blocks (0: none) with its depth, lag
 * and way into fit. */
static int spread_fit(const struct tile_settings *s, const struct tile_offer *o,
                      struct loop_plan *fit)
{
    const int asked = s->tune.spread_depth;
    const int asked_lag = s->tune.spread_lag != TUNING_AUTO ? s->tune.spread_lag : 0;
    const int tries = (int)(sizeof spread_tries / sizeof spread_tries[0]);
    for (int t = asked != TUNING_AUTO ? -1 : 0; t < tries; t++) {
        const int depth = t < 0 ? asked : spread_tries[t][0];
        const int lag = asked_lag ? asked_lag : t < 0 ? SPREAD_LAG : spread_tries[t][1];
        const int columns = spread_way(s, o->spread[depth][lag - 1]);
        const struct spread_fit *f = &o->spread[depth][lag - 1][columns];
        if (f->blocks == 0)
            continue;
        *fit = (struct loop_plan){
            .blocks = f->blocks, .depth = depth, .lag = lag, .columns = columns};
        return f->resident ? f->blocks : 0;
    }
    return 0;
}

/* The way on chip into p, in laps of CHIP_LAP: its blocks (over every GPU), the depth,
 * lag and way of `fit` (the cluster's: its depth alone), over `gpus` GPUs. Returns 1. */
static int take(struct loop_plan *p, enum loop_way way, long blocks,
                const struct loop_plan *fit, int gpus)
{
    p->way = way;
    p->batch = CHIP_LAP;
    p->blocks = (int)blocks;
    p->depth = fit->depth;
    p->lag = fit->lag;
    p->columns = fit->columns;
    p->gpus = gpus;
    return 1;
}

/*
 * Which way a lone tile goes on chip: the cluster where it fits and the lattice is at
 * most SPREAD_FROM_ROWS rows high (ROUNDS_UP_TO_ROWS in rounds), else, for plain
 * Jacobi, the spread strips where they fit (else the cluster again, if it fits);
 * LAPLACE_TUNE's chip_way takes only that way. 1 with the way in p, 0 where the
 * chosen way does not fit.
 */
int on_chip_alone(const struct tile_settings *s, const struct tile_offer *o,
                  struct loop_plan *p)
{
    const int plain = update_rule_is_plain_jacobi(&s->update_rule),
              forced = s->tune.chip_way;
    int cluster_depth = 0;
    struct loop_plan strips = {0};
    const int cluster =
        forced != TUNING_WAY_SPREAD && cluster_fit(s, o, plain, &cluster_depth) > 0;
    const int spread_fits = plain && spread_fit(s, o, &strips) > 0;
    const long up_to =
        cluster && cluster_depth > 0 ? ROUNDS_UP_TO_ROWS : SPREAD_FROM_ROWS;
    int spread = 0;
    if (!(forced == TUNING_WAY_CLUSTER || !plain || (cluster && o->ly <= up_to)))
        spread = spread_fits || !cluster;
    if (spread ? !spread_fits : !cluster)
        return 0;
    if (spread)
        return take(p, LOOP_WAY_SPREAD, strips.blocks, &strips, 1);
    const struct loop_plan cluster_at = {.depth = cluster_depth};
    return take(p, LOOP_WAY_CLUSTER, o->cluster_blocks[cluster_depth], &cluster_at, 1);
}

/* --loop chip on a tile that does not fit: the plan fails, saying why. */
void on_chip_does_not_fit(const struct tile_offer *o, struct loop_plan *p)
{
    p->failed = 1;
    snprintf(p->reason, sizeof p->reason,
             "--loop chip: the two fields of the %ld x %ld lattice (%.2f MiB) do not fit "
             "in the shared memory of GPU %d (on Hopper: about 3.5 MiB in one "
             "thread-block cluster, or by plain Jacobi about 26 MiB over every "
             "multiprocessor, whose strips keep two copies or more); use --loop auto",
             o->lx, o->ly, 2.0 * (double)o->field_bytes / 1048576.0, o->device);
}

/* Auto takes the spread strips over two to four GPUs for lattices up to this many rows,
 * where they were measured faster than the passes of two that stacked tiles take
 * otherwise (4 H200s, float, us an iteration, medians of 3, results/2026-11-28-
 * crossover, call A): 1x2 2048^2 6.934 against its passes' 7.192 (1024^2 3.009 against
 * 5.985, results/2026-11-27-several-gpus, call 17); 1x4 1024^2 3.033 against 6.211,
 * 2048^2 6.590 against 7.111, the course problem 1.671 against 6.156 (the strips' set-up
 * since out of the clock: 1x4 1024^2 2.825, 2048^2 6.111, results/2026-11-28-chip-open,
 * call A); on 2 H200s (results/2026-11-28-across, call C): 1x2 256^2 1.41 against 5.72,
 * 1536^2 5.49 against 6.37. Over more GPUs only where asked (--loop chip): not
 * measured. */
#define ACROSS_UP_TO_ROWS 2048
#define ACROSS_AUTO_MOST_GPUS 4

int on_chip_across_auto(int tiles, long rows)
{
    return tiles >= 2 && tiles <= ACROSS_AUTO_MOST_GPUS && rows <= ACROSS_UP_TO_ROWS;
}

/* Whether tile a's GPU reaches tile b's memory directly (peer access). */
static int reaches(const struct tile_offer *a, const struct tile_offer *b)
{
    return b->device >= 0 && b->device < 64 && (a->peers >> b->device & 1);
}

/*
 * Tiles stacked in rows, one a GPU with peer access to every other, plain Jacobi: the
 * spread strips over their GPUs, each tile a band of them (one block a
 * multiprocessor), at the depth, lag and way that tile 0's band
 * takes (spread_fit), where every band fits so. Taken where asked (--loop chip) or,
 * where the loop on chip pays (on_chip_pays), on up to ACROSS_AUTO_MOST_GPUS GPUs and
 * ACROSS_UP_TO_ROWS rows. 1 with the way in p.
 */
int on_chip_across(const struct loop_plan_input *in, const struct tile_offer *o,
                   struct loop_plan *p)
{
    const struct tile_settings *s = &in->tile;
    struct loop_plan fit = {0};
    long rows = 0;
    for (int t = 0; t < in->tiles; t++)
        rows += o[t].ly;
    const int pays = on_chip_pays(s) && on_chip_across_auto(in->tiles, rows);
    if (!(s->loop == LOOP_CHIP || pays) || in->monitor || in->tiles > SPREAD_MOST_GPUS ||
        !o[0].gpu || spread_fit(s, &o[0], &fit) == 0)
        return 0;
    long blocks = 0;
    for (int t = 0; t < in->tiles; t++) {
        const struct spread_fit *f = &o[t].spread[fit.depth][fit.lag - 1][fit.columns];
        if (!o[t].gpu || o[t].fallback || f->blocks == 0 || !f->resident)
            return 0;
        for (int u = 0; u < in->tiles; u++)
            if (u != t && (o[u].device == o[t].device || !reaches(&o[t], &o[u])))
                return 0;
        blocks += f->blocks;
    }
    return take(p, LOOP_WAY_SPREAD, blocks, &fit, in->tiles);
}

/* --loop chip on several tiles that cannot run the spread strips together. */
void on_chip_not_across(const struct loop_plan_input *in, struct loop_plan *p)
{
    p->failed = 1;
    snprintf(p->reason, sizeof p->reason,
             "--loop chip: the spread strips over several GPUs need tiles stacked in "
             "rows (--partition 1xN, N up to %d), each on its own GPU with peer access "
             "to the others, plain Jacobi, no --monitor, and every tile's strips fitting "
             "in its GPU's shared memory (%d tiles here); use --loop auto",
             SPREAD_MOST_GPUS, in->tiles);
}

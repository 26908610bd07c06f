/*
 * loop_plan.c - the one place where a run's way to iterate is chosen (loop_plan.h):
 *
 *   a lone tile whose device runs the loop alone, nothing needing the host between
 *   iterations:  on chip (cluster or spread) where it pays or is asked and fits,
 *                else pairs or singles where they pay, else the host loop
 *   several tiles of one process: GPU tiles stacked in rows, plain Jacobi: the spread
 *                strips over their GPUs where they fit, else batches of passes of
 *                two; else batches where every tile's device pays for them (or
 *                --loop batched), else the host loop
 *   ranks, snapshots, --loop host: the host loop
 *   every GPU tile: its sweep's shape and grid (sweep_shape.c), first
 *
 * Every number that decides is here, with the measurement behind it.
 */
#include "plan/loop_plan.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "laplace_kernels.h"
#include "plan/sweep_shape.h"

/* The most bytes of block sums a batch keeps (every iteration's, on the device and in
 * pinned host memory). */
#define BATCH_SUMS_BYTES (64L << 20)

/* Batches of a lone tile's single sweeps with fewer iterations than these do not pay.
 * With the host adding the sums, measured on an H100 with the norm every iteration
 * (results/2026-11-25-sweep/loops.csv): 1024^2 float (344 iterations a batch) ran 8.1
 * us an iteration in batches against 9.5 in the host loop, 2048^2 (140 a batch) 16.6
 * against 14.9 and 4096^2 (41) 63.0 against 57.6. With the device adding them (--reduce
 * device: a reduction after each sweep), the same length. The resident loop that
 * --reduce device ran before was slower than such batches at every lattice (float, us
 * an iteration, the resident loop against batches of the rows kernel's sweeps, an H100,
 * results/2026-11-27-loop-plan/resident-8.txt): 256^2 3.84/2.75, 512^2 6.04/3.74,
 * 1024^2 7.75/7.30, 2048^2 17.31/13.56, 4096^2 67.51/49.17; it left the code. */
#define SINGLES_LEAST 256

/* Batches of pairs hold at least this many iterations: the checkpoint, written by a
 * batch's first pass, costs about one iteration's bytes. */
#define PAIRS_LEAST 32

/* Batches of several GPU tiles: at least 64 iterations, so that the checkpoint copy
 * costs under 2% of a batch, and none unless asked when a sweep is long (fewer than 32
 * in 2 ms): there the host loop hides its round trip behind the next sweep, while a
 * batch pays for its checkpoint copy and for sums at every iteration (measured on an
 * H200, 16384^2 as two tiles: 593 us an iteration batched, 561 in the host loop). */
#define SEVERAL_LEAST 64
#define SEVERAL_PAY_LEAST 32

/* Batches of several host tiles: 16 iterations, where a sweep costs about what the
 * host loop's meeting does (tiles of at most 256 KiB), or when asked. */
#define HOST_BATCH 16
#define HOST_BATCH_BYTES (256 << 10)

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

/* The most iterations whose block sums a batch of single sweeps keeps, block_count
 * a sweep. */
static long sums_most(long block_count)
{
    return BATCH_SUMS_BYTES / (block_count * (long)sizeof(double));
}

/* Iterations of about 2 ms of a GPU tile's single sweeps (one read and one write a
 * site at a guessed 3 TB/s, and 3 us), even, from 2 to 1024, its sums (block_count a
 * sweep) at most BATCH_SUMS_BYTES. */
long loop_plan_gpu_batch(const struct tile_offer *o, long block_count)
{
    const double seconds = 2.0 * (double)o->field_bytes / 3e12 + 3e-6;
    long n = (long)(2e-3 / seconds);
    const long most = sums_most(block_count);
    n = n > most ? most : n;
    n = n < 2 ? 2 : n > 1024 ? 1024 : n;
    return n - n % 2; /* even: every batch starts on an odd iteration, same buffers */
}

/* Iterations a batch of pairs: about 2 ms of passes (each moving a field in and out
 * for two iterations), a multiple of 4 (the passes end in field[0]), at least
 * PAIRS_LEAST, at most 1024; 0 where the sums of so many would pass BATCH_SUMS_BYTES
 * or the GPU's free memory would not hold two sets of them and of the checkpoint (one
 * batch runs while the host reads the last). */
long loop_plan_pairs_batch(const struct tile_offer *o)
{
    const double seconds = (double)o->field_bytes / 3e12 + 1.5e-6;
    long n = (long)(2e-3 / seconds);
    n = n < PAIRS_LEAST ? PAIRS_LEAST : n > 1024 ? 1024 : n;
    n -= n % 4;
    const size_t sums = (size_t)n * (size_t)o->pairs_blocks * sizeof(double);
    return sums <= (size_t)BATCH_SUMS_BYTES &&
                   2 * (sums + o->field_bytes) < o->free_bytes / 10 * 9
               ? n
               : 0;
}

/* The GPU memory a tile's block sums take (device_tile_sums_on_gpu), which prepare
 * allocates once the plan is made, after the offer measured the free memory. */
static double device_sums_bytes(const struct tile_settings *s, const struct tile_plan *tp)
{
    return device_tile_sums_on_gpu(s) * (double)tp->block_count * sizeof(double);
}

/* The batch a tile of several takes, 0 where it declines: a GPU tile's (none where an
 * edge comes by halo copy: that path stays in the host loop), a host tile's. */
static long several_batch(const struct tile_settings *s, const struct tile_offer *o,
                          const struct tile_plan *tp, int asked)
{
    if (!o->gpu)
        return asked || o->field_bytes <= HOST_BATCH_BYTES ? HOST_BATCH : 0;
    if (o->fallback)
        return 0;
    long n = loop_plan_gpu_batch(o, tp->block_count);
    if (!asked && n < SEVERAL_PAY_LEAST)
        return 0;
    const long most = sums_most(tp->block_count);
    n = n < SEVERAL_LEAST ? SEVERAL_LEAST : n;
    n = n > most ? most - most % 2 : n;
    if (n < 2)
        return 0;
    const double need = 2.0 * ((double)o->field_bytes +
                               (double)n * (double)tp->block_count * sizeof(double)) +
                        device_sums_bytes(s, tp);
    return need + (256 << 20) < (double)o->free_bytes ? n : 0;
}

static void say(struct loop_plan *p, const char *why)
{
    snprintf(p->reason, sizeof p->reason, "%s", why);
}

/* loop_plan.h says what allows passes of two. */
int loop_plan_pairs_allowed(const struct tile_settings *s)
{
    return s->tune.pairs != 0 && s->kernel == KERNEL_AUTO && s->block_x <= 0 &&
           s->reduce == REDUCE_HOST && update_rule_is_plain_jacobi(&s->update_rule);
}

/* The batch of several GPU tiles in passes of two, 0 where one of them cannot take
 * them: each stacked in rows as wide as the lattice (its neighbours read in place),
 * with room for two sets of a batch's sums and checkpoint. Taken wherever they can be:
 * faster than single sweeps' batches or the host loop on every lattice measured (4
 * H200s, float, us an iteration, old auto against passes, results/2026-11-27-
 * several-gpus): 1x2 1024^2 7.82/6.44, 4096^2 31.85/21.37, 16384^2 329.39/211.64;
 * 1x4 1024^2 13.47/7.42, 16384^2 172.39/122.54. */
static long several_pairs_batch(const struct loop_plan_input *in,
                                const struct tile_offer *o)
{
    long batch = loop_plan_pairs_allowed(&in->tile) ? LONG_MAX : 0;
    for (int t = 0; t < in->tiles && batch > 0; t++) {
        const long mine = o[t].gpu && o[t].pairs_fit ? loop_plan_pairs_batch(&o[t]) : 0;
        batch = mine < batch ? mine : batch;
    }
    return batch == LONG_MAX ? 0 : batch;
}

/* Whether stacked tiles' passes meet through peer flags rather than one graph's edges:
 * only where LAPLACE_TUNE's pass_meeting=flags asks and every tile has a GPU of its own
 * (two tiles on one GPU spin waiting for each other unless their passes run at once,
 * which CUDA does not promise: under memcheck they timed out, calls 12 and 13). The
 * graph is the default everywhere, measured as fast or faster (results/2026-11-27-
 * several-gpus, calls 8 and 11), float, us an iteration, graph against flags:
 *   2 H200s, 1x2: 1024^2 6.01/6.30, 2048^2 7.70/7.98, 4096^2 19.47/19.10, 16384^2
 *                 211.9/209.3, the course problem 2.44/2.61 s;
 *   4 H100s, 1x4: 1024^2 7.26/8.58, 2048^2 9.03/9.84, 4096^2 16.98/16.36, 8192^2
 *                 46.45/46.42, 16384^2 138.6/140.9, the course problem 2.80-2.95/3.45 s;
 * though with empty kernels, on 4 H200s, the flags' floor was 4.20 us a pass against the
 * graph's 11.03 (call 6). */
static int meets_through_flags(const struct loop_plan_input *in,
                               const struct tile_offer *o)
{
    if (in->tile.tune.pass_meeting != TUNING_MEET_FLAGS)
        return 0;
    for (int t = 0; t < in->tiles; t++)
        for (int u = 0; u < t; u++)
            if (o[t].device == o[u].device)
                return 0;
    return 1;
}

/* Whether --loop auto takes the loop on chip where it fits: for plain Jacobi, in
 * either precision, where it ran faster than the rows kernel's batches. Measured on an
 * H100, the norm every iteration, medians of 3, us an iteration on chip against the
 * batches (results/2026-11-25-chip-blocks, results/2026-11-26-spread): float 128^2
 * 2.03/2.87, 512^2 3.02/3.97, 1024^2 4.29/8.35; double 128^2 2.03/2.86, 512^2
 * 3.33/4.36, 1024^2 4.98/9.67. Every other rule is slower on chip (SOR at 512^2 float
 * 30.6 against 10.6, a source at 256^2 5.70 against 3.14: the general sweep on chip
 * tests each site's colour and region), so it keeps the batches. A kernel or block
 * asked for keeps that kernel's loop. */
static int chip_pays(const struct tile_settings *s)
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

/*
 * Which way a lone tile goes on chip: the cluster where it fits and the lattice is at
 * most SPREAD_FROM_ROWS rows high (ROUNDS_UP_TO_ROWS in rounds), else, for plain
 * Jacobi, the spread strips where they fit (else the cluster again, if it fits);
 * LAPLACE_TUNE's chip_way takes only that way. 1 with the way in p, 0 where the
 * chosen way does not fit.
 */
static int on_chip(const struct tile_settings *s, const struct tile_offer *o,
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
    p->way = spread ? LOOP_WAY_SPREAD : LOOP_WAY_CLUSTER;
    p->batch = CHIP_LAP;
    p->blocks = spread ? strips.blocks : o->cluster_blocks[cluster_depth];
    p->depth = spread ? strips.depth : cluster_depth;
    p->lag = spread ? strips.lag : 0;
    p->columns = spread && strips.columns;
    return 1;
}

/* --loop chip on a tile that does not fit: the plan fails, saying why. */
static void does_not_fit(const struct tile_offer *o, struct loop_plan *p)
{
    p->failed = 1;
    snprintf(p->reason, sizeof p->reason,
             "--loop chip: the two fields of the %ld x %ld lattice (%.2f MiB) do not fit "
             "in the shared memory of GPU %d (on Hopper: about 3.5 MiB in one "
             "thread-block cluster, or by plain Jacobi about 26 MiB over every "
             "multiprocessor, whose strips keep two copies or more); use --loop auto",
             o->lx, o->ly, 2.0 * (double)o->field_bytes / 1048576.0, o->device);
}

/* Whether a lone tile takes passes of two iterations: plain Jacobi with the sums
 * added on the host and the kernel and block left to auto, where batches of single
 * sweeps do not pay (lattices off chip); LAPLACE_TUNE's pairs=0 never, =1 wherever a
 * lone tile's batches run. */
static int takes_pairs(const struct tile_settings *s, const struct tile_offer *o,
                       int singles_pay)
{
    return loop_plan_pairs_allowed(s) && o->pairs_fit &&
           (s->tune.pairs == 1 || !singles_pay);
}

/* Auto takes the spread strips over two GPUs for lattices up to this many rows, where
 * they were measured faster than the passes of two that 1x2 tiles take otherwise (2
 * H200s, float, us an iteration, medians of 3, results/2026-11-28-across, call C):
 * 256^2 1.41 against 5.72, 512^2 1.65 against 5.74, 768^2 3.88 against 5.78, 1024^2
 * 4.20 against 5.86, 1536^2 5.49 against 6.37, 2048^2 7.29 against 7.26 (double 1024^2
 * 4.98 against 6.66); the course problem 0.709 s against 2.447. Over more GPUs only
 * where asked (--loop chip): not measured. */
#define ACROSS_UP_TO_ROWS 1536
#define ACROSS_AUTO_GPUS 2

/*
 * Tiles stacked in rows, one a GPU with peer access to the others, plain Jacobi: the
 * spread strips over their GPUs, each tile a band of them (one block a
 * multiprocessor), at the depth, lag and way that tile 0's band
 * takes (spread_fit), where every band fits so. Taken where asked (--loop chip) or,
 * where the loop on chip pays (chip_pays), on two GPUs up to ACROSS_UP_TO_ROWS rows. 1
 * with the way in p.
 */
static int across_gpus(const struct loop_plan_input *in, const struct tile_offer *o,
                       struct loop_plan *p)
{
    const struct tile_settings *s = &in->tile;
    struct loop_plan fit = {0};
    long rows = 0;
    for (int t = 0; t < in->tiles; t++)
        rows += o[t].ly;
    const int pays =
        chip_pays(s) && in->tiles == ACROSS_AUTO_GPUS && rows <= ACROSS_UP_TO_ROWS;
    if (!(s->loop == LOOP_CHIP || pays) || in->monitor || in->tiles > SPREAD_MOST_GPUS ||
        !o[0].gpu || spread_fit(s, &o[0], &fit) == 0)
        return 0;
    long blocks = 0;
    for (int t = 0; t < in->tiles; t++) {
        const struct spread_fit *f = &o[t].spread[fit.depth][fit.lag - 1][fit.columns];
        if (!o[t].gpu || o[t].fallback || f->blocks == 0 || !f->resident)
            return 0;
        for (int u = 0; u < t; u++)
            if (o[u].device == o[t].device)
                return 0;
        blocks += f->blocks;
    }
    p->way = LOOP_WAY_SPREAD;
    p->batch = CHIP_LAP;
    p->blocks = (int)blocks;
    p->depth = fit.depth;
    p->lag = fit.lag;
    p->columns = fit.columns;
    p->gpus = in->tiles;
    return 1;
}

/* --loop chip on several tiles that cannot run the spread strips together. */
static void not_across(const struct loop_plan_input *in, struct loop_plan *p)
{
    p->failed = 1;
    snprintf(p->reason, sizeof p->reason,
             "--loop chip: the spread strips over several GPUs need tiles stacked in "
             "rows (--partition 1xN, N up to %d), each on its own GPU with peer access "
             "to the others, plain Jacobi, no --monitor, and every tile's strips fitting "
             "in its GPU's shared memory (%d tiles here); use --loop auto",
             SPREAD_MOST_GPUS, in->tiles);
}

/* Several tiles of one process (or a lone tile the device does not run alone). */
static void plan_several(const struct loop_plan_input *in, const struct tile_offer *o,
                         const struct tile_plan *tiles, struct loop_plan *p)
{
    const enum loop_mode loop = in->tile.loop;
    p->way = LOOP_WAY_HOST;
    if (loop == LOOP_HOST)
        return say(p, "--loop host");
    if (in->snapshot)
        return say(p, "the snapshots gather fields between iterations");
    if (in->distributed)
        return say(p, "the tiles' edges travel between ranks every iteration");
    if (in->tiles < 2)
        return say(p, in->monitor ? "--monitor shows norms as the loop goes"
                                  : "one tile whose device has no loop of its own");
    if (across_gpus(in, o, p))
        return say(p, loop == LOOP_CHIP ? "--loop chip"
                                        : "the lattice fits on chip over the GPUs");
    if (loop == LOOP_CHIP)
        return not_across(in, p);
    const long pairs = several_pairs_batch(in, o);
    if (pairs > 0) {
        p->way = LOOP_WAY_PAIRS;
        p->batch = pairs;
        p->multiple = 4;
        p->flags = meets_through_flags(in, o);
        if (p->flags)
            return say(p, "plain Jacobi on tiles stacked in rows: two iterations a pass, "
                          "the edges meeting through peer flags (LAPLACE_TUNE's "
                          "pass_meeting=flags)");
        return say(p, in->tile.tune.pass_meeting == TUNING_MEET_FLAGS
                          ? "plain Jacobi on tiles stacked in rows: two iterations a "
                            "pass, the GPUs meeting once a pass (LAPLACE_TUNE's "
                            "pass_meeting=flags needs a GPU a tile)"
                          : "plain Jacobi on tiles stacked in rows: two iterations a "
                            "pass, the GPUs meeting once a pass");
    }
    long batch = LONG_MAX;
    for (int t = 0; t < in->tiles; t++) {
        const long mine =
            several_batch(&in->tile, &o[t], &tiles[t], loop == LOOP_BATCHED);
        batch = mine < batch ? mine : batch;
    }
    if (batch <= 0)
        return say(p, o[0].gpu ? "batches do not pay for these tiles' sweeps (or an "
                                 "edge comes by copy, or memory is short)"
                               : "host tiles over 256 KiB: a sweep outlasts the "
                                 "host loop's meeting");
    p->way = LOOP_WAY_BATCHED;
    p->batch = batch;
    p->multiple = 2;
    say(p, loop == LOOP_BATCHED ? "--loop batched"
                                : "the devices order their sweeps; the host meets "
                                  "them once a batch");
}

/* A lone tile whose device runs the loop alone (device.h's run_on_chip). */
static void plan_alone(const struct loop_plan_input *in, const struct tile_offer *o,
                       const struct tile_plan *tp, struct loop_plan *p)
{
    const struct tile_settings *s = &in->tile;
    const int asked_chip = s->loop == LOOP_CHIP;
    if (asked_chip || chip_pays(s)) {
        if (on_chip(s, o, p))
            return say(p, asked_chip ? "--loop chip" : "the lattice fits on chip");
        if (asked_chip)
            return does_not_fit(o, p);
    }
    const long n = loop_plan_gpu_batch(o, tp->block_count);
    const long pairs =
        takes_pairs(s, o, n >= SINGLES_LEAST) ? loop_plan_pairs_batch(o) : 0;
    if (pairs > 0) {
        p->way = LOOP_WAY_PAIRS;
        p->batch = pairs;
        p->multiple = 4;
        return say(p, "plain Jacobi off chip: two iterations a pass move half the bytes");
    }
    if (n < SINGLES_LEAST)
        return say(p, "a sweep outlasts the host's round trip: batches do not pay");
    p->way = LOOP_WAY_SINGLES;
    p->batch = n;
    p->multiple = 2;
    say(p, "short sweeps: a graph of many a launch");
}

/* A lone tile's device runs its loop (on chip, or in batches the host decides after
 * each) when there is one tile (and it offers to) and no monitor or snapshot needs the
 * host as the loop goes. */
static int runs_alone(const struct loop_plan_input *in, const struct tile_offer *o)
{
    return in->tiles == 1 && o->runs_alone && in->tile.loop != LOOP_HOST &&
           !in->monitor && !in->snapshot;
}

/* Every tile's own part of the plan: a GPU tile's sweep shape and grid, a host tile's
 * block sums as offered. 0, or -1 with the plan failed for the first tile whose block
 * or grid does not fit its GPU. */
static int plan_tiles(const struct loop_plan_input *in, const struct tile_offer *offers,
                      struct tile_plan *tiles, struct loop_plan *p)
{
    for (int t = 0; t < in->tiles; t++) {
        tiles[t] = (struct tile_plan){.block_count = offers[t].block_count};
        if (offers[t].gpu && sweep_shape_plan(&in->tile, &offers[t], &tiles[t], p->reason,
                                              sizeof p->reason) != 0) {
            p->failed = 1;
            p->failed_tile = t;
            return -1;
        }
    }
    return 0;
}

void loop_plan_make(const struct loop_plan_input *in, const struct tile_offer *offers,
                    struct loop_plan *plan, struct tile_plan *tiles)
{
    *plan = (struct loop_plan){.way = LOOP_WAY_HOST};
    if (plan_tiles(in, offers, tiles, plan) != 0)
        return;
    if (runs_alone(in, &offers[0]))
        plan_alone(in, &offers[0], &tiles[0], plan);
    else
        plan_several(in, offers, tiles, plan);
}

static const char *const way_names[LOOP_WAY_COUNT] = {"host",  "batched", "singles",
                                                      "pairs", "cluster", "spread"};

int loop_plan_round(const struct loop_plan *p)
{
    return p->depth > 0 ? p->depth : 1;
}

const char *loop_plan_way_name(enum loop_way way)
{
    return way >= 0 && way < LOOP_WAY_COUNT ? way_names[way] : "?";
}

/* How often the blocks of a loop on chip meet ("" every iteration), and whether each
 * sweeping thread holds its column in registers. */
static void rounds_text(const struct loop_plan *p, char *text, size_t size)
{
    text[0] = '\0';
    if (loop_plan_round(p) > 1)
        snprintf(text, size, ", the blocks meeting once in %d iterations",
                 loop_plan_round(p));
    if (p->columns)
        snprintf(text + strlen(text), size - strlen(text),
                 ", each thread's column in registers");
}

void loop_plan_describe(const struct loop_plan *p, int gpu, char *out, size_t n)
{
    char rounds[128];
    rounds_text(p, rounds, sizeof rounds);
    switch (p->way) {
    case LOOP_WAY_CLUSTER:
        snprintf(out, n,
                 "on chip: the lattice in the shared memory of one cluster of %d "
                 "blocks, %ld iterations a lap%s",
                 p->blocks, p->batch, rounds);
        return;
    case LOOP_WAY_SPREAD:
        if (p->gpus > 1)
            snprintf(out, n,
                     "on chip: the lattice in the shared memory of %d blocks over %d "
                     "GPUs, one a multiprocessor, meeting through L2 and peer memory, "
                     "%ld iterations a lap%s",
                     p->blocks, p->gpus, p->batch, rounds);
        else
            snprintf(out, n,
                     "on chip: the lattice in the shared memory of %d blocks, one a "
                     "multiprocessor, meeting through L2, %ld iterations a lap%s",
                     p->blocks, p->batch, rounds);
        return;
    case LOOP_WAY_HOST:
        snprintf(out, n, "the host at every iteration");
        return;
    default:
        snprintf(out, n, "batched on %s, %ld iterations a batch%s%s",
                 gpu ? "the GPUs" : "the host tiles", p->batch,
                 p->way == LOOP_WAY_PAIRS ? ", two iterations a pass through memory" : "",
                 p->flags ? ", the GPUs meeting through peer flags" : "");
    }
}

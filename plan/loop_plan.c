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
 * Every number that decides is here, with the measurement behind it; those of the loop
 * on chip (which way, depth and lag; over several GPUs) are on_chip.c's.
 */
#include "plan/loop_plan.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "laplace_kernels.h"
#include "plan/on_chip.h"
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
    if (on_chip_across(in, o, p))
        return say(p, loop == LOOP_CHIP ? "--loop chip"
                                        : "the lattice fits on chip over the GPUs");
    if (loop == LOOP_CHIP)
        return on_chip_not_across(in, p);
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
    if (asked_chip || on_chip_pays(s)) {
        if (on_chip_alone(s, o, p))
            return say(p, asked_chip ? "--loop chip" : "the lattice fits on chip");
        if (asked_chip)
            return on_chip_does_not_fit(o, p);
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

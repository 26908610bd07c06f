/*
 * test_loop_plan.c - the loop plan's choices (plan/loop_plan.c), table-tested on the
 * CPU with what the devices would offer as inputs: H100-like GPUs (132
 * multiprocessors, 227 KiB of shared memory a block, clusters of up to 16 blocks: the
 * on-chip fits they allow), peer access or halo copies, free memory, tile sizes; host
 * tiles. Each row names the run asked for, what the tiles offer and the plan expected:
 * the way, the batch length, the blocks and rounds on chip, or the refusal.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "laplace_kernels.h"
#include "plan/loop_plan.h"

#define MIB (1024.0 * 1024.0)

/* What an H100 allows a sweep (its cudaDeviceProp). */
static struct gpu_facts h100(void)
{
    return (struct gpu_facts){.name = "NVIDIA H100 80GB HBM3",
                              .multiprocessors = 132,
                              .threads_per_multiprocessor = 2048,
                              .l2_bytes = 50u << 20,
                              .block_threads_most = 1024,
                              .block_most = {1024, 1024},
                              .grid_most = {2147483647L, 65535}};
}

/* A GPU tile of lx x ly sites of `value` bytes on an H100, with 80 GB free. */
static struct tile_offer gpu_tile(long lx, long ly, size_t value)
{
    return (struct tile_offer){.gpu = 1,
                               .device = 0,
                               .runs_alone = 1,
                               .lx = lx,
                               .ly = ly,
                               .value_size = value,
                               .field_bytes = (size_t)lx * (size_t)ly * value,
                               .facts = h100(),
                               .free_bytes = (size_t)80e9,
                               .pairs_fit = 1,
                               .pairs_blocks = ((lx + 479) / 480) * ((ly + 15) / 16)};
}

/* A tile of several with a neighbour west or east of it (or a halo copy): the device
 * offers no passes of two. */
static struct tile_offer beside(struct tile_offer o)
{
    o.pairs_fit = 0;
    return o;
}

static struct tile_offer host_tile(long lx, long ly, size_t value)
{
    return (struct tile_offer){.device = -1,
                               .lx = lx,
                               .ly = ly,
                               .value_size = value,
                               .field_bytes = (size_t)lx * (size_t)ly * value,
                               .block_count = ((lx + 31) / 32) * ((ly + 7) / 8)};
}

/* The spread strips of one depth and lag fit in `blocks` blocks, all resident, with
 * each thread's column in registers (columns 1: the columns loop takes them) or the
 * fields in shared memory (0: it does not). */
static struct tile_offer spread_fits(struct tile_offer o, int depth, int lag, int blocks,
                                     int columns)
{
    o.spread[depth][lag - 1][columns] = (struct spread_fit){blocks, 1, 1};
    return o;
}

/* One tile's offer on chip: a cluster of `cluster` blocks fits in rounds of
 * cluster_depth (0 blocks: at no depth), the spread strips in `spread` blocks at
 * spread_depth (0 blocks: at none), with the lag the plan tries first there (3 at depth
 * 2, else 2). */
static struct tile_offer on_chip(struct tile_offer o, int cluster, int cluster_depth,
                                 int spread, int spread_depth, int columns)
{
    o.cluster_blocks[cluster_depth] = cluster;
    return spread
               ? spread_fits(o, spread_depth, spread_depth == 2 ? 3 : 2, spread, columns)
               : o;
}

/* A run of `tiles` tiles, plain Jacobi, everything auto. */
static struct loop_plan_input asked(int tiles)
{
    return (struct loop_plan_input){
        .tiles = tiles,
        .tile = {.loop = LOOP_AUTO, .kernel = KERNEL_AUTO, .tune = tuning_auto()}};
}

#define TILES_MOST 8

/* The plan of a run of in->tiles tiles (at most TILES_MOST), each tile's own part into
 * tiles (NULL: not wanted). */
static struct loop_plan plan_with(const struct loop_plan_input *in,
                                  const struct tile_offer *offers,
                                  struct tile_plan *tiles)
{
    struct tile_plan own[TILES_MOST];
    struct loop_plan p;
    cr_assert_leq(in->tiles, TILES_MOST);
    loop_plan_make(in, offers, &p, tiles ? tiles : own);
    return p;
}

static struct loop_plan plan_of(const struct loop_plan_input *in,
                                const struct tile_offer *offers)
{
    return plan_with(in, offers, NULL);
}

static void expect(const char *row, struct loop_plan p, enum loop_way way, long batch)
{
    cr_expect_eq(p.way, way, "%s: way %s, expected %s (%s)", row,
                 loop_plan_way_name(p.way), loop_plan_way_name(way), p.reason);
    cr_expect_eq(p.batch, batch, "%s: batch %ld, expected %ld", row, p.batch, batch);
    cr_expect_eq(p.failed, 0, "%s: failed: %s", row, p.reason);
    cr_expect_neq(p.reason[0], '\0', "%s: no reason given", row);
}

Test(loop_plan, a_lone_gpu_tile_goes_on_chip_where_it_fits_and_pays)
{
    struct loop_plan_input in = asked(1);
    /* the course problem: no cluster holds 512^2, the spread strips in registers */
    struct tile_offer o = on_chip(gpu_tile(512, 512, 4), 0, 0, 128, 2, 1);
    struct loop_plan p = plan_of(&in, &o);
    expect("512^2 float", p, LOOP_WAY_SPREAD, 8192);
    cr_expect_eq(p.blocks, 128);
    cr_expect_eq(loop_plan_round(&p), 2);
    cr_expect_eq(p.columns, 1);
    /* 128^2: the cluster in rounds of 8 holds it, and up to 256 rows it is faster */
    o = on_chip(gpu_tile(128, 128, 4), 8, 8, 64, 2, 0);
    p = plan_of(&in, &o);
    expect("128^2 float", p, LOOP_WAY_CLUSTER, 8192);
    cr_expect_eq(p.blocks, 8);
    cr_expect_eq(loop_plan_round(&p), 8);
    /* 192 rows with a cluster meeting every iteration: the spread strips from 128 */
    o = on_chip(gpu_tile(192, 192, 8), 16, 0, 96, 2, 1);
    expect("192^2 double, cluster without rounds", plan_of(&in, &o), LOOP_WAY_SPREAD,
           8192);
    /* 300 rows, the cluster in rounds: over 256 rows the spread strips */
    o = on_chip(gpu_tile(300, 300, 4), 16, 4, 132, 2, 1);
    expect("300^2 float", plan_of(&in, &o), LOOP_WAY_SPREAD, 8192);
    /* neither way fits: batches (1024^2 float: 344 iterations of about 2 ms) */
    o = on_chip(gpu_tile(1024, 1024, 4), 0, 0, 0, 0, 0);
    p = plan_of(&in, &o);
    expect("1024^2 float off chip", p, LOOP_WAY_SINGLES, 344);
    cr_expect_eq(p.multiple, 2);
}

Test(loop_plan, only_plain_jacobi_left_to_auto_pays_on_chip)
{
    struct tile_offer o = on_chip(gpu_tile(128, 128, 4), 8, 8, 64, 2, 0);
    struct loop_plan_input in = asked(1);
    in.tile.update_rule.method = METHOD_SOR;
    expect("SOR 128^2: batches", plan_of(&in, &o), LOOP_WAY_SINGLES, 656);
    in = asked(1);
    in.tile.kernel = KERNEL_ROWS;
    expect("--kernel rows 128^2", plan_of(&in, &o), LOOP_WAY_SINGLES, 656);
    in = asked(1);
    in.tile.block_x = 32, in.tile.block_y = 8;
    expect("--block 32x8 128^2", plan_of(&in, &o), LOOP_WAY_SINGLES, 656);
    in = asked(1);
    in.tile.update_rule.has_source = 1;
    expect("a source 128^2", plan_of(&in, &o), LOOP_WAY_SINGLES, 656);
}

Test(loop_plan, loop_chip_takes_the_cluster_for_other_rules_and_refuses_a_misfit)
{
    struct loop_plan_input in = asked(1);
    in.tile.loop = LOOP_CHIP;
    in.tile.update_rule.method = METHOD_SOR;
    struct tile_offer o = on_chip(gpu_tile(256, 256, 4), 16, 0, 0, 0, 0);
    struct loop_plan p = plan_of(&in, &o);
    expect("--loop chip SOR 256^2", p, LOOP_WAY_CLUSTER, 8192);
    cr_expect_eq(loop_plan_round(&p), 1, "SOR meets every iteration");
    o = on_chip(gpu_tile(4096, 4096, 4), 0, 0, 0, 0, 0);
    o.device = 3;
    p = plan_of(&in, &o);
    cr_expect_eq(p.failed, 1, "--loop chip on 4096^2 must be refused");
    cr_expect(strstr(p.reason, "--loop chip: the two fields of the 4096 x 4096 lattice "
                               "(128.00 MiB) do not fit in the shared memory of GPU 3"),
              "%s", p.reason);
}

Test(loop_plan, the_tuning_knob_takes_one_way_on_chip)
{
    struct loop_plan_input in = asked(1);
    struct tile_offer o = on_chip(gpu_tile(512, 512, 4), 0, 0, 128, 2, 1);
    in.tile.tune.chip_way = TUNING_WAY_CLUSTER;
    expect("chip_way=cluster, no cluster fits: batches", plan_of(&in, &o),
           LOOP_WAY_SINGLES, 540);
    in.tile.loop = LOOP_CHIP;
    cr_expect_eq(plan_of(&in, &o).failed, 1, "chip_way=cluster --loop chip: refused");
    in = asked(1);
    in.tile.tune.chip_way = TUNING_WAY_SPREAD;
    o = on_chip(gpu_tile(128, 128, 4), 8, 8, 64, 2, 0);
    struct loop_plan p = plan_of(&in, &o);
    expect("chip_way=spread 128^2", p, LOOP_WAY_SPREAD, 8192);
    cr_expect_eq(p.blocks, 64);
}

Test(loop_plan, the_cluster_takes_the_deepest_rounds_that_fit)
{
    struct loop_plan_input in = asked(1);
    struct tile_offer o = gpu_tile(64, 64, 4);
    o.cluster_blocks[0] = 4;
    o.cluster_blocks[1] = 4; /* rounds of one iteration are never tried */
    o.cluster_blocks[4] = 2;
    struct loop_plan p = plan_of(&in, &o);
    expect("64^2, rounds of 4 fit", p, LOOP_WAY_CLUSTER, 8192);
    cr_expect(p.depth == 4 && loop_plan_round(&p) == 4 && p.blocks == 2 && p.lag == 0,
              "depth %d, round %d, blocks %d", p.depth, loop_plan_round(&p), p.blocks);
    o.cluster_blocks[8] = 1;
    cr_expect_eq(plan_of(&in, &o).depth, 8, "8 first");
    in.tile.tune.chip_depth = 3;
    p = plan_of(&in, &o);
    cr_expect(p.depth == 0 && loop_plan_round(&p) == 1 && p.blocks == 4,
              "chip_depth=3: 3, then 2, then 0: depth %d", p.depth);
    in.tile.tune.chip_depth = 1;
    cr_expect_eq(plan_of(&in, &o).depth, 1, "chip_depth=1 asked: taken where it fits");
    in = asked(1);
    in.tile.loop = LOOP_CHIP;
    in.tile.update_rule.method = METHOD_SOR;
    p = plan_of(&in, &o);
    cr_expect(p.depth == 0 && p.blocks == 4, "SOR meets every iteration: depth %d",
              p.depth);
}

Test(loop_plan, the_spread_strips_take_the_first_depth_and_lag_that_fit)
{
    struct loop_plan_input in = asked(1);
    struct tile_offer o = spread_fits(gpu_tile(512, 512, 4), 2, 2, 128, 1);
    o = spread_fits(o, 0, 1, 132, 0);
    struct loop_plan p = plan_of(&in, &o);
    expect("512^2, no fifth field", p, LOOP_WAY_SPREAD, 8192);
    cr_expect(p.depth == 2 && p.lag == 2 && p.blocks == 128 && p.columns == 1,
              "depth %d, lag %d", p.depth, p.lag);
    o = spread_fits(o, 2, 3, 120, 1);
    p = plan_of(&in, &o);
    cr_expect(p.depth == 2 && p.lag == 3 && p.blocks == 120, "a lag of 3 first");
    in.tile.tune.spread_lag = 1;
    p = plan_of(&in, &o);
    cr_expect(p.depth == 0 && p.lag == 1 && p.blocks == 132 && p.columns == 0,
              "spread_lag=1 in every try: depth %d, lag %d", p.depth, p.lag);
    in = asked(1);
    in.tile.tune.spread_depth = 4;
    o = spread_fits(o, 4, 2, 64, 0);
    p = plan_of(&in, &o);
    cr_expect(p.depth == 4 && p.lag == 2 && p.blocks == 64,
              "spread_depth=4 first, with a lag of 2: depth %d", p.depth);
    in = asked(1);
    o.spread[2][2][1].resident = 0; /* the first fit cannot run: no spread strips */
    expect("not resident", plan_of(&in, &o), LOOP_WAY_SINGLES, 540);
}

Test(loop_plan, the_spread_strips_hold_columns_in_registers_where_they_can)
{
    struct loop_plan_input in = asked(1);
    struct tile_offer o = gpu_tile(512, 512, 4);
    o.spread[2][2][0] = (struct spread_fit){128, 1, 1}; /* the fields fit */
    o.spread[2][2][1] = (struct spread_fit){128, 1, 1}; /* and the columns */
    struct loop_plan p = plan_of(&in, &o);
    cr_expect(p.way == LOOP_WAY_SPREAD && p.columns == 1, "the columns where they fit");
    in.tile.tune.spread_columns = 0;
    p = plan_of(&in, &o);
    cr_expect(p.way == LOOP_WAY_SPREAD && p.columns == 0 && p.depth == 2 && p.lag == 3,
              "spread_columns=0: the fields of the same try");
    in = asked(1);
    o.spread[2][2][1].blocks = 0; /* the columns loop takes them, they do not fit: */
    o.spread[2][1][1] = (struct spread_fit){128, 1, 1}; /* the next try, not the fields */
    p = plan_of(&in, &o);
    cr_expect(p.columns == 1 && p.depth == 2 && p.lag == 2,
              "depth %d, lag %d, columns %d", p.depth, p.lag, p.columns);
    o.spread[2][2][1].possible = 0; /* the columns loop cannot take them: the fields */
    p = plan_of(&in, &o);
    cr_expect(p.columns == 0 && p.depth == 2 && p.lag == 3,
              "depth %d, lag %d, columns %d", p.depth, p.lag, p.columns);
}

Test(loop_plan, off_chip_plain_jacobi_takes_pairs_where_singles_do_not_pay)
{
    struct loop_plan_input in = asked(1);
    struct tile_offer o = gpu_tile(4096, 4096, 4); /* 41 singles in 2 ms: too few */
    struct loop_plan p = plan_of(&in, &o);
    expect("4096^2 float", p, LOOP_WAY_PAIRS, 80);
    cr_expect_eq(p.multiple, 4, "passes of two end in field 0 every 4 iterations");
    o.free_bytes = (size_t)(120 * MIB); /* one checkpoint and sums, not two sets */
    expect("4096^2 float, room for one set", plan_of(&in, &o), LOOP_WAY_HOST, 0);
    o.free_bytes = (size_t)(160 * MIB);
    expect("4096^2 float, room for two sets", plan_of(&in, &o), LOOP_WAY_PAIRS, 80);
    o = gpu_tile(16384, 16384, 8); /* 2 GiB a field: the least batch of pairs */
    expect("16384^2 double", plan_of(&in, &o), LOOP_WAY_PAIRS, 32);
    o.free_bytes = (size_t)(2.2 * 1024 * MIB); /* the checkpoint does not fit */
    expect("16384^2 double, memory short", plan_of(&in, &o), LOOP_WAY_HOST, 0);
    o = gpu_tile(4096, 4096, 4);
    o.pairs_fit = 0; /* a grid of passes too tall */
    expect("4096^2, no grid of passes", plan_of(&in, &o), LOOP_WAY_HOST, 0);
    o = gpu_tile(4096, 4096, 4);
    in.tile.update_rule.method = METHOD_WEIGHTED;
    expect("weighted 4096^2: a sweep a launch", plan_of(&in, &o), LOOP_WAY_HOST, 0);
    in = asked(1);
    in.tile.tune.pairs = 0;
    expect("pairs=0 4096^2", plan_of(&in, &o), LOOP_WAY_HOST, 0);
    in.tile.tune.pairs = 1;
    o = gpu_tile(1024, 1024, 4);
    expect("pairs=1 1024^2", plan_of(&in, &o), LOOP_WAY_PAIRS, 688);
}

/* --reduce device: the device adds each sweep's block sums; a lone tile's batches of
 * single sweeps take it as they take the host's adding (no passes of two, which write
 * block sums for the host), whatever the kernel. */
Test(loop_plan, reduce_device_takes_batches_of_single_sweeps)
{
    struct loop_plan_input in = asked(1);
    in.tile.reduce = REDUCE_DEVICE;
    struct tile_offer o = gpu_tile(1024, 1024, 4);
    expect("--reduce device 1024^2", plan_of(&in, &o), LOOP_WAY_SINGLES, 344);
    in.tile.kernel = KERNEL_GENERAL;
    expect("--reduce device, general kernel", plan_of(&in, &o), LOOP_WAY_SINGLES, 344);
    o = gpu_tile(4096, 4096, 4); /* 41 in 2 ms: fewer than 256, and no pairs */
    expect("--reduce device 4096^2", plan_of(&in, &o), LOOP_WAY_HOST, 0);
}

Test(loop_plan, the_host_keeps_a_lone_tile_it_must_watch)
{
    struct tile_offer o = on_chip(gpu_tile(512, 512, 4), 0, 0, 128, 2, 1);
    struct loop_plan_input in = asked(1);
    in.monitor = 1;
    expect("--monitor", plan_of(&in, &o), LOOP_WAY_HOST, 0);
    in = asked(1);
    in.snapshot = 1;
    expect("--snapshot-every", plan_of(&in, &o), LOOP_WAY_HOST, 0);
    in = asked(1);
    in.tile.loop = LOOP_HOST;
    expect("--loop host", plan_of(&in, &o), LOOP_WAY_HOST, 0);
    o.runs_alone = 0;
    expect("a device with no loop of its own",
           plan_of(&(struct loop_plan_input){.tiles = 1}, &o), LOOP_WAY_HOST, 0);
}

Test(loop_plan, several_gpu_tiles_batch_where_every_tile_pays)
{
    struct loop_plan_input in = asked(2);
    struct tile_offer two[2] = {beside(gpu_tile(1024, 2048, 4)),
                                beside(gpu_tile(1024, 2048, 4))};
    expect("2048^2 as 2 tiles", plan_of(&in, two), LOOP_WAY_BATCHED, 232);
    cr_expect_eq(plan_of(&in, two).multiple, 2);
    two[1].fallback = 1; /* an edge by halo copy: that path stays in the host loop */
    expect("a halo copy", plan_of(&in, two), LOOP_WAY_HOST, 0);
    struct tile_offer big[2] = {beside(gpu_tile(8192, 16384, 4)),
                                beside(gpu_tile(8192, 16384, 4))};
    expect("16384^2 as 2 tiles: long sweeps", plan_of(&in, big), LOOP_WAY_HOST, 0);
    in.tile.loop = LOOP_BATCHED;
    expect("16384^2 as 2 tiles, --loop batched", plan_of(&in, big), LOOP_WAY_BATCHED, 64);
    big[0].free_bytes = (size_t)(1024 * MIB);
    expect("--loop batched, memory short", plan_of(&in, big), LOOP_WAY_HOST, 0);
    in = asked(3); /* tiles of other sizes: the shortest batch of all */
    struct tile_offer uneven[3] = {beside(gpu_tile(512, 512, 4)),
                                   beside(gpu_tile(1024, 2048, 4)),
                                   beside(gpu_tile(256, 256, 4))};
    expect("uneven tiles", plan_of(&in, uneven), LOOP_WAY_BATCHED, 232);
}

Test(loop_plan, the_batches_of_several_tiles_count_the_sums_kept_on_the_gpu)
{
    /* SOR, the general kernel's 32x8 blocks: 524288 sums a sweep (4 MiB), whose first
     * phase's wait on the GPU; --loop batched: 16 iterations a batch (64 MiB of sums),
     * two sets of 512 MiB of field and 64 MiB of sums, 256 MiB to spare: 1412 MiB */
    struct loop_plan_input in = asked(2);
    in.tile.loop = LOOP_BATCHED;
    in.tile.update_rule.method = METHOD_SOR;
    struct tile_offer big[2] = {beside(gpu_tile(8192, 16384, 4)),
                                beside(gpu_tile(8192, 16384, 4))};
    big[0].free_bytes = big[1].free_bytes = (size_t)(1413 * MIB);
    expect("SOR 16384^2 as 2 tiles, 1413 MiB free", plan_of(&in, big), LOOP_WAY_BATCHED,
           16);
    big[0].free_bytes = (size_t)(1410 * MIB);
    expect("1410 MiB free: not with the first phase's sums", plan_of(&in, big),
           LOOP_WAY_HOST, 0);
}

Test(loop_plan, gpu_tiles_stacked_in_rows_take_passes_of_two)
{
    struct loop_plan_input in = asked(2);
    struct tile_offer two[2] = {gpu_tile(2048, 1024, 4), gpu_tile(2048, 1024, 4)};
    expect("2048^2 as 1x2 tiles", plan_of(&in, two), LOOP_WAY_PAIRS, 464);
    cr_expect_eq(plan_of(&in, two).multiple, 4, "passes end in field 0");
    struct tile_offer big[4] = {gpu_tile(16384, 4096, 4), gpu_tile(16384, 4096, 4),
                                gpu_tile(16384, 4096, 4), gpu_tile(16384, 4096, 4)};
    in = asked(4);
    expect("16384^2 as 1x4 tiles", plan_of(&in, big), LOOP_WAY_PAIRS,
           loop_plan_pairs_batch(&big[0]));
    in.tile.loop = LOOP_BATCHED;
    expect("--loop batched", plan_of(&in, big), LOOP_WAY_PAIRS,
           loop_plan_pairs_batch(&big[0]));
    in.tile.loop = LOOP_HOST;
    expect("--loop host", plan_of(&in, big), LOOP_WAY_HOST, 0);
    in = asked(2);
    in.tile.tune.pairs = 0;
    expect("LAPLACE_TUNE=pairs=0", plan_of(&in, two), LOOP_WAY_BATCHED, 232);
    in = asked(2);
    in.tile.update_rule.method = METHOD_SOR;
    expect("SOR", plan_of(&in, two), LOOP_WAY_BATCHED, 232);
    in = asked(2);
    in.tile.reduce = REDUCE_DEVICE;
    expect("--reduce device", plan_of(&in, two), LOOP_WAY_BATCHED, 232);
    in = asked(2);
    two[1] = beside(two[1]); /* a tile beside it, or an edge by halo copy */
    expect("one tile not stacked", plan_of(&in, two), LOOP_WAY_BATCHED, 232);
}

/* Tiles stacked on GPUs of their own: tiles 0..count-1 on devices 0..count-1, each
 * GPU reaching every other. */
static void on_own_gpus(struct tile_offer *o, int count)
{
    for (int t = 0; t < count; t++) {
        o[t].device = t;
        o[t].peers = (1ull << count) - 1;
    }
}

Test(loop_plan,
     stacked_tiles_meet_through_the_graph_unless_flags_are_asked_for_a_gpu_each)
{
    struct loop_plan_input in = asked(4);
    struct tile_offer four[4] = {gpu_tile(8192, 2048, 4), gpu_tile(8192, 2048, 4),
                                 gpu_tile(8192, 2048, 4), gpu_tile(8192, 2048, 4)};
    on_own_gpus(four, 4);
    struct loop_plan p = plan_of(&in, four);
    cr_expect_eq(p.way, LOOP_WAY_PAIRS);
    cr_expect_eq(p.flags, 0,
                 "1x4 on GPUs 0,1,2,3: the graph, measured as fast or faster");
    char line[400];
    loop_plan_describe(&p, 1, line, sizeof line);
    cr_expect(strstr(line, "peer flags") == NULL, "%s", line);
    in.tile.tune.pass_meeting = TUNING_MEET_FLAGS;
    p = plan_of(&in, four);
    cr_expect_eq(p.flags, 1, "LAPLACE_TUNE=pass_meeting=flags on GPUs 0,1,2,3");
    loop_plan_describe(&p, 1, line, sizeof line);
    cr_expect(strstr(line, "the GPUs meeting through peer flags") != NULL, "%s", line);
    cr_expect(strstr(p.reason, "pass_meeting=flags)") != NULL, "%s", p.reason);
    four[3].device = 0; /* --devices 0,1,2,0: tile 3 would wait for a pass of its GPU */
    p = plan_of(&in, four);
    cr_expect_eq(p.flags, 0, "pass_meeting=flags on a GPU holding two tiles: the graph");
    cr_expect_eq(p.way, LOOP_WAY_PAIRS);
    cr_expect(strstr(p.reason, "needs a GPU a tile") != NULL, "%s", p.reason);
    on_own_gpus(four, 4);
    in.tile.tune.pass_meeting = TUNING_MEET_GRAPH;
    cr_expect_eq(plan_of(&in, four).flags, 0, "LAPLACE_TUNE=pass_meeting=graph");
    in = asked(2); /* two GPUs: the graph, flags where asked */
    cr_expect_eq(plan_of(&in, four).flags, 0, "1x2 on GPUs 0,1: the graph");
    in.tile.tune.pass_meeting = TUNING_MEET_FLAGS;
    cr_expect_eq(plan_of(&in, four).flags, 1, "1x2 with pass_meeting=flags");
    in = asked(4);
    in.tile.update_rule.method = METHOD_SOR; /* no passes: single sweeps' batches */
    in.tile.tune.pass_meeting = TUNING_MEET_FLAGS;
    p = plan_of(&in, four);
    cr_expect_eq(p.way, LOOP_WAY_BATCHED);
    cr_expect_eq(p.flags, 0, "flags are the passes' meeting only");
}

/* Tiles stacked in rows whose bands of spread strips fit (each thread's column in
 * registers at depth 2, lag 3: the plan's first try), `blocks` blocks each. */
static void bands_fit(struct tile_offer *o, int count, int blocks)
{
    for (int t = 0; t < count; t++)
        o[t] = spread_fits(o[t], 2, 3, blocks, 1);
}

Test(loop_plan, stacked_tiles_on_own_gpus_run_the_spread_strips_together)
{
    struct loop_plan_input in = asked(2);
    struct tile_offer two[2] = {gpu_tile(512, 256, 4), gpu_tile(512, 256, 4)};
    on_own_gpus(two, 2);
    bands_fit(two, 2, 128);
    struct loop_plan p = plan_of(&in, two);
    expect("512^2 as 1x2 on GPUs 0,1", p, LOOP_WAY_SPREAD, 8192);
    cr_expect(p.gpus == 2 && p.blocks == 256 && p.depth == 2 && p.lag == 3 && p.columns,
              "both bands: %d GPUs, %d blocks, depth %d, lag %d", p.gpus, p.blocks,
              p.depth, p.lag);
    char line[400];
    loop_plan_describe(&p, 1, line, sizeof line);
    cr_expect_str_eq(line,
                     "on chip: the lattice in the shared memory of 256 blocks over 2 "
                     "GPUs, one a multiprocessor, meeting through L2 and peer memory, "
                     "8192 iterations a lap, the blocks meeting once in 2 iterations, "
                     "each thread's column in registers");
    two[0].ly = two[1].ly = 1024; /* 2048 rows: ACROSS_UP_TO_ROWS */
    cr_expect_eq(plan_of(&in, two).way, LOOP_WAY_SPREAD, "2048 rows");
    two[0].ly = 1025; /* 2049 rows: over it */
    expect("2049 rows", plan_of(&in, two), LOOP_WAY_PAIRS,
           loop_plan_pairs_batch(&two[0]));
    in.tile.loop = LOOP_CHIP;
    p = plan_of(&in, two);
    cr_expect(p.way == LOOP_WAY_SPREAD && p.gpus == 2, "--loop chip: wherever it fits");
    in = asked(2);
    two[0].ly = two[1].ly = 256;
    in.monitor = 1;
    cr_expect_eq(plan_of(&in, two).way, LOOP_WAY_PAIRS, "--monitor: the host watches");
    in = asked(2);
    in.tile.update_rule.method = METHOD_SOR; /* no fits are offered but plain Jacobi's */
    cr_expect_neq(plan_of(&in, two).way, LOOP_WAY_SPREAD, "SOR");
    in = asked(2);
    in.tile.kernel = KERNEL_ROWS;
    cr_expect_neq(plan_of(&in, two).way, LOOP_WAY_SPREAD, "a named kernel: not on chip");
    in = asked(4);
    struct tile_offer four[4] = {gpu_tile(512, 128, 4), gpu_tile(512, 128, 4),
                                 gpu_tile(512, 128, 4), gpu_tile(512, 128, 4)};
    on_own_gpus(four, 4);
    bands_fit(four, 4, 64);
    p = plan_of(&in, four);
    cr_expect(p.way == LOOP_WAY_SPREAD && p.gpus == 4 && p.blocks == 256,
              "1x4 auto: %s", p.reason);
    struct tile_offer eight[8];
    for (int t = 0; t < 8; t++)
        eight[t] = gpu_tile(512, 64, 4);
    on_own_gpus(eight, 8);
    bands_fit(eight, 8, 32);
    in = asked(8);
    cr_expect_eq(plan_of(&in, eight).way, LOOP_WAY_PAIRS, "eight GPUs: not measured");
    in.tile.loop = LOOP_CHIP;
    p = plan_of(&in, eight);
    cr_expect(p.way == LOOP_WAY_SPREAD && p.gpus == 8 && p.blocks == 256,
              "1x8 --loop chip: %s", p.reason);
    in = asked(4);
    in.tile.loop = LOOP_CHIP;
    four[3].peers &= ~1ull; /* GPU 3 reaches its neighbour 2, not GPU 0 */
    p = plan_of(&in, four);
    cr_expect(p.failed && strstr(p.reason, "peer access to the others"),
              "every block stores its sums into every GPU: %s", p.reason);
}

Test(loop_plan, loop_chip_refuses_tiles_that_cannot_run_the_strips_together)
{
    struct loop_plan_input in = asked(2);
    in.tile.loop = LOOP_CHIP;
    struct tile_offer two[2] = {gpu_tile(512, 256, 4), gpu_tile(512, 256, 4)};
    bands_fit(two, 2, 128);
    struct loop_plan p = plan_of(&in, two); /* both on device 0 */
    cr_expect(p.failed && strstr(p.reason, "each on its own GPU"), "one GPU: %s",
              p.reason);
    on_own_gpus(two, 2);
    two[1].fallback = 1; /* an edge by halo copy: no peer access */
    cr_expect(plan_of(&in, two).failed, "no peer access");
    two[1].fallback = 0;
    two[1].spread[2][2][1].blocks = 0; /* tile 1's band does not fit as tile 0's */
    cr_expect(plan_of(&in, two).failed, "a band that does not fit");
    two[1].spread[2][2][1].blocks = 128;
    two[1].spread[2][2][1].resident = 0;
    cr_expect(plan_of(&in, two).failed, "a band whose blocks cannot all be resident");
    struct tile_offer side[2] = {beside(gpu_tile(256, 512, 4)),
                                 beside(gpu_tile(256, 512, 4))}; /* 2x1: no bands */
    on_own_gpus(side, 2);
    p = plan_of(&in, side);
    cr_expect(p.failed && strstr(p.reason, "stacked in rows"), "2x1: %s", p.reason);
}

Test(loop_plan, host_tiles_batch_while_a_sweep_is_short)
{
    struct loop_plan_input in = asked(2);
    struct tile_offer small[2] = {host_tile(64, 128, 8), host_tile(64, 128, 8)};
    expect("64 x 128 double as 2 tiles", plan_of(&in, small), LOOP_WAY_BATCHED, 16);
    struct tile_offer large[2] = {host_tile(512, 1024, 8), host_tile(512, 1024, 8)};
    expect("1024^2 double as 2 tiles", plan_of(&in, large), LOOP_WAY_HOST, 0);
    in.tile.loop = LOOP_BATCHED;
    expect("--loop batched", plan_of(&in, large), LOOP_WAY_BATCHED, 16);
    in.distributed = 1;
    expect("ranks", plan_of(&in, large), LOOP_WAY_HOST, 0);
    in = asked(1);
    expect("one host tile", plan_of(&in, small), LOOP_WAY_HOST, 0);
}

Test(loop_plan, the_batch_lengths_follow_the_sweeps_bytes)
{
    struct tile_offer o = gpu_tile(64, 64, 4);
    cr_expect_eq(loop_plan_gpu_batch(&o, 4), 664, "about 3 us a sweep at the least");
    o = gpu_tile(2048, 2048, 4);
    cr_expect_eq(loop_plan_gpu_batch(&o, 4096), 140);
    o = gpu_tile(16384, 16384, 4);
    cr_expect_eq(loop_plan_gpu_batch(&o, 65536), 2, "the least");
    cr_expect_eq(loop_plan_gpu_batch(&o, 8L << 20), 2, "64 MiB of sums an iteration");
    o = gpu_tile(1024, 1024, 4);
    cr_expect_eq(loop_plan_gpu_batch(&o, 1L << 20), 8, "64 MiB of sums a batch");
    o = gpu_tile(2048, 2048, 4);
    cr_expect_eq(loop_plan_pairs_batch(&o), 280);
    cr_expect_eq(loop_plan_pairs_batch(&o) % 4, 0, "whole passes ending in field 0");
}

/* Tile 0's sweep as the plan of a lone tile o, run as in asks, chooses it. */
static struct tile_plan sweep_of(struct loop_plan_input in, struct tile_offer o)
{
    struct tile_plan tile;
    in.tiles = 1;
    const struct loop_plan p = plan_with(&in, &o, &tile);
    cr_expect_eq(p.failed, 0, "%ldx%ld: %s", o.lx, o.ly, p.reason);
    return tile;
}

static void expect_shape(const char *row, struct tile_plan t, enum kernel_variant kernel,
                         int block_x, int block_y, int rows, int columns, int alternate,
                         long blocks_x, long blocks_y)
{
    const struct sweep_shape *s = &t.shape;
    cr_expect(s->kernel == kernel && s->block_x == block_x && s->block_y == block_y &&
                  s->rows_per_thread == rows && s->columns_per_thread == columns &&
                  s->alternate == alternate,
              "%s: %s %dx%d, %d rows and %d columns a thread, alternate %d", row,
              kernel_variant_names[s->kernel], s->block_x, s->block_y, s->rows_per_thread,
              s->columns_per_thread, s->alternate);
    cr_expect(t.blocks_x == blocks_x && t.blocks_y == blocks_y &&
                  t.block_count == blocks_x * blocks_y,
              "%s: grid %ldx%ld (%ld sums), expected %ldx%ld", row, t.blocks_x,
              t.blocks_y, t.block_count, blocks_x, blocks_y);
}

Test(loop_plan, the_plan_chooses_each_gpu_tiles_sweep_shape_and_grid)
{
    const struct loop_plan_input in = asked(1);
    /* rows: 128x4 blocks past 256 MiB a field, 4 rows of float pairs (32 bytes), every
     * other sweep backwards since the two fields pass the 50 MiB of L2 */
    expect_shape("16384^2 float", sweep_of(in, gpu_tile(16384, 16384, 4)), KERNEL_ROWS,
                 128, 4, 4, 2, 1, 64, 1024);
    /* double pairs: 4 rows, the fewest the kernel has */
    expect_shape("4096^2 double", sweep_of(in, gpu_tile(4096, 4096, 8)), KERNEL_ROWS, 64,
                 4, 4, 2, 1, 32, 256);
    /* odd width: single columns, 8 rows of floats; 2048^2 float pairs fit in L2 */
    expect_shape("2047^2 float", sweep_of(in, gpu_tile(2047, 2047, 4)), KERNEL_ROWS, 32,
                 4, 8, 1, 0, 64, 64);
    /* 512^2 would leave the H100 under a third full even at 4 rows: 32x8, 1 row */
    expect_shape("512^2 float", sweep_of(in, gpu_tile(512, 512, 4)), KERNEL_ROWS, 32, 8,
                 1, 2, 0, 8, 64);
    struct loop_plan_input other = in;
    other.tile.reduce = REDUCE_DEVICE; /* fewer blocks: 32x8, 64 bytes a thread */
    expect_shape("--reduce device 4096^2 float", sweep_of(other, gpu_tile(4096, 4096, 4)),
                 KERNEL_ROWS, 32, 8, 8, 2, 1, 64, 64);
    other = in;
    other.tile.update_rule.method =
        METHOD_SOR; /* the general kernel, one site a thread */
    expect_shape("SOR 128^2", sweep_of(other, gpu_tile(128, 128, 4)), KERNEL_GENERAL, 32,
                 8, 1, 1, 0, 4, 16);
    other = in;
    other.tile.kernel = KERNEL_GLOBAL;
    other.tile.block_x = 16;
    other.tile.block_y = 16;
    expect_shape("--kernel global --block 16x16", sweep_of(other, gpu_tile(100, 50, 8)),
                 KERNEL_GLOBAL, 16, 16, 1, 1, 0, 7, 4);
    other = in;
    other.tile.tune.sweep_order = TUNING_ORDER_FORWARD;
    expect_shape("sweep_order=forward", sweep_of(other, gpu_tile(16384, 16384, 4)),
                 KERNEL_ROWS, 128, 4, 4, 2, 0, 64, 1024);
}

Test(loop_plan, a_block_or_grid_the_gpu_cannot_hold_fails_the_plan)
{
    struct loop_plan_input in = asked(2);
    in.tile.kernel = KERNEL_GLOBAL;
    in.tile.block_x = 64;
    in.tile.block_y = 32;
    struct tile_offer two[2] = {gpu_tile(64, 64, 4), gpu_tile(64, 64, 4)};
    two[1].device = 1;
    struct loop_plan p = plan_of(&in, two);
    cr_expect(p.failed && p.failed_tile == 0);
    cr_expect_str_eq(p.reason, "block 64x32 does not fit GPU 0 (NVIDIA H100 80GB HBM3): "
                               "at most 1024 threads, 1024x1024");
    in.tile.block_x = 1024;
    in.tile.block_y = 1;
    two[1] = gpu_tile(64, 70000, 4);
    two[1].device = 1;
    p = plan_of(&in, two);
    cr_expect(p.failed && p.failed_tile == 1);
    cr_expect_str_eq(p.reason, "tile 64x70000 needs a grid of 1x70000 blocks; GPU 1 "
                               "allows 2147483647x65535 (use a taller --block)");
    struct tile_offer hosts[2] = {host_tile(100, 50, 8), host_tile(100, 50, 8)};
    struct tile_plan tiles[2];
    p = plan_with(&in, hosts, tiles);
    cr_expect(!p.failed && tiles[1].block_count == hosts[1].block_count,
              "a host tile's block sums are its own");
}

Test(loop_plan, describes_the_way_as_the_report_does)
{
    char line[300];
    struct loop_plan p = {.way = LOOP_WAY_PAIRS, .batch = 80};
    loop_plan_describe(&p, 1, line, sizeof line);
    cr_expect_str_eq(line, "batched on the GPUs, 80 iterations a batch, two iterations a "
                           "pass through memory");
    p = (struct loop_plan){
        .way = LOOP_WAY_SPREAD, .batch = 8192, .blocks = 128, .depth = 2, .columns = 1};
    loop_plan_describe(&p, 1, line, sizeof line);
    cr_expect_str_eq(line,
                     "on chip: the lattice in the shared memory of 128 blocks, one a "
                     "multiprocessor, meeting through L2, 8192 iterations a lap, the "
                     "blocks meeting once in 2 iterations, each thread's column in "
                     "registers");
    p = (struct loop_plan){
        .way = LOOP_WAY_CLUSTER, .batch = 8192, .blocks = 8, .depth = 0};
    loop_plan_describe(&p, 1, line, sizeof line);
    cr_expect_str_eq(line,
                     "on chip: the lattice in the shared memory of one cluster of 8 "
                     "blocks, 8192 iterations a lap");
    p = (struct loop_plan){.way = LOOP_WAY_BATCHED, .batch = 16};
    loop_plan_describe(&p, 0, line, sizeof line);
    cr_expect_str_eq(line, "batched on the host tiles, 16 iterations a batch");
    p = (struct loop_plan){.way = LOOP_WAY_HOST};
    loop_plan_describe(&p, 0, line, sizeof line);
    cr_expect_str_eq(line, "the host at every iteration");
}

/*
 * test_loop_on_chip.c - solver.c's side of the loop on chip (device.h's chip_open and
 * run_on_chip) on a host tile that offers it: what the loop keeps is allocated before
 * the loop's clock, by every tile's thread with the run's team, and a failure there
 * fails the run before any lap: a lone tile in one cluster, and tiles stacked in rows
 * posing as GPUs (the spread strips over them). The loop itself here is a stand-in that
 * stops at once: the GPU suite checks the real one against serial.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "devices/device.h"
#include "gpu_partition.h"
#include "helpers.h"
#include "solver.h"
#include "support/error.h"

/* What chip_open takes, in ms: long enough to tell the input time from the compute
 * time on a busy 2-core machine. */
#define OPEN_MS 200

static int opened, ran;
static int opened_before_run; /* 1 while every run_on_chip came after every chip_open */
static int failing_tile = -1; /* the tile whose chip_open fails (-1: none) */
static int team_size = 1;     /* the tiles the team is expected to hold */

/* A host tile that offers the loop on chip in one cluster. */
static int chip_offer(struct tile *t, int tiles, struct tile_offer *o)
{
    if (device_host_ops.offer(t, tiles, o) != 0)
        return -1;
    o->runs_alone = 1;
    o->cluster_blocks[0] = 1;
    return 0;
}

static void sleep_ms(long ms)
{
    struct timespec d = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    while (nanosleep(&d, &d) != 0)
        ;
}

static int slow_chip_open(struct tile *t, const struct loop_plan *plan,
                          const struct chip_team *team)
{
    cr_expect(plan->way == (team_size > 1 ? LOOP_WAY_SPREAD : LOOP_WAY_CLUSTER),
              "the plan's way: %d", plan->way);
    cr_expect_eq(team->count, team_size, "the team: every tile of the run");
    cr_expect(team->tiles == t - t->index, "the team's tiles are the run's");
    __atomic_add_fetch(&opened, 1, __ATOMIC_SEQ_CST);
    sleep_ms(OPEN_MS);
    if (t->index == failing_tile)
        return error_set(t->error, sizeof t->error, "planted failure in chip_open");
    return 0;
}

/* The loop on chip, standing in: stops at once (no iteration), as a stop asked before
 * the first lap would. */
static int stand_in_run(struct tile *t, const struct loop_plan *plan,
                        const struct stop_rule *rule, struct stop_state *state,
                        const struct loop_watch *watch, struct chip_team *team)
{
    (void)t, (void)plan, (void)rule, (void)watch;
    if (__atomic_load_n(&opened, __ATOMIC_SEQ_CST) != team->count)
        opened_before_run = 0;
    __atomic_add_fetch(&ran, 1, __ATOMIC_SEQ_CST);
    *state = stop_state_start();
    stop_state_interrupt(state);
    return 0;
}

static struct device_ops chip_ops(void)
{
    struct device_ops ops = device_host_ops;
    ops.offer = chip_offer;
    ops.chip_open = slow_chip_open;
    ops.run_on_chip = stand_in_run;
    return ops;
}

/* Runs the plate on `tiles` tiles stacked in rows (--loop chip), tile `failing`'s
 * chip_open failing (-1: none), the counters zeroed first; solver_run's status. */
static int run_team(const struct device_ops *ops, int tiles, int failing,
                    struct field *out, struct solve_result *r)
{
    struct problem pb = test_problem(24, 20L * tiles, PRECISION_DOUBLE);
    struct solve_settings s = test_settings(1e-6, 1000);
    s.loop = LOOP_CHIP;
    struct partition p;
    cr_assert_eq(partition_init(&p, pb.nx, pb.ny, 1, tiles), 0);
    opened = ran = 0;
    opened_before_run = 1;
    team_size = tiles;
    failing_tile = failing;
    const int rc = solver_run(ops, &pb, &p, &s, out, r);
    partition_free(&p);
    return rc;
}

Test(loop_on_chip, its_set_up_is_made_before_the_loop_clock)
{
    const struct device_ops ops = chip_ops();
    struct field out;
    struct solve_result r;
    cr_assert_eq(run_team(&ops, 1, -1, &out, &r), 0, "%s", r.error);
    cr_assert_eq(r.plan.way, LOOP_WAY_CLUSTER, "the loop on chip ran");
    cr_expect_eq(opened, 1, "chip_open once: %d", opened);
    cr_expect_eq(ran, 1, "run_on_chip once: %d", ran);
    cr_expect(opened_before_run, "chip_open before run_on_chip");
    cr_expect_geq(r.time_input_s, OPEN_MS * 1e-3, "the set-up is input time: %g s",
                  r.time_input_s);
    cr_expect_lt(r.time_compute_s, OPEN_MS * 0.5e-3,
                 "the set-up is not compute time: %g s", r.time_compute_s);
    field_free(&out);
}

Test(loop_on_chip, a_failed_set_up_fails_the_run_before_any_lap)
{
    const struct device_ops ops = chip_ops();
    struct field out;
    struct solve_result r;
    cr_assert_eq(run_team(&ops, 1, 0, &out, &r), -1);
    cr_expect_eq(r.reason, STOP_FAILED);
    cr_expect(strstr(r.error, "tile 0: planted failure in chip_open"), "%s", r.error);
    cr_expect_eq(opened, 1);
    cr_expect_eq(ran, 0, "no lap after a failed chip_open");
}

/* Tiles stacked in rows, each posing as a GPU of its own with peer access to every
 * other, whose spread strips fit every way: the plan takes the strips over them. */
static int stacked_gpu_offer(struct tile *t, int tiles, struct tile_offer *o)
{
    if (device_host_ops.offer(t, tiles, o) != 0)
        return -1;
    o->gpu = 1;
    o->device = t->index;
    o->peers = ~0ULL;
    o->facts = (struct gpu_facts){.name = "posing",
                                  .multiprocessors = 4,
                                  .block_threads_most = 1024,
                                  .block_most = {1024, 1024},
                                  .grid_most = {2147483647L, 65535}};
    for (int d = 0; d <= SPREAD_MOST_DEPTH; d++)
        for (int l = 0; l < SPREAD_MOST_LAG; l++)
            for (int w = 0; w < 2; w++)
                o->spread[d][l][w] = (struct spread_fit){1, 1, 1};
    return 0;
}

/* Every tile's thread opens with the team before any lap, and one tile's failed
 * chip_open (the first, a middle one, the last) fails the run, every tile alike,
 * with no lap and no hang. */
Test(loop_on_chip, tiles_over_gpus_open_together_and_fail_together)
{
    struct device_ops ops = chip_ops();
    ops.offer = stacked_gpu_offer;
    ops.prepare = NULL; /* nothing to take: the tiles' memory is the host's */
    struct field out;
    struct solve_result r;
    for (int failing = -1; failing < 3; failing++) {
        const int rc = run_team(&ops, 3, failing, &out, &r);
        cr_expect_eq(opened, 3, "every tile opened: %d", opened);
        if (failing < 0) {
            cr_assert_eq(rc, 0, "%s", r.error);
            cr_expect_eq(r.plan.way, LOOP_WAY_SPREAD, "the strips over the tiles");
            cr_expect_eq(ran, 3, "every tile ran: %d", ran);
            cr_expect(opened_before_run, "every chip_open before any lap");
            field_free(&out);
            continue;
        }
        char said[64];
        snprintf(said, sizeof said, "tile %d: planted failure in chip_open", failing);
        cr_expect_eq(rc, -1, "tile %d failing", failing);
        cr_expect(strstr(r.error, said), "%s", r.error);
        cr_expect_eq(ran, 0, "no lap after tile %d's failed chip_open", failing);
    }
}

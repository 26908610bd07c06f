/*
 * solver.c - the tiles' solve: one OpenMP thread drives each tile through its whole
 * life (open, upload, connect to its neighbours, the loop, download, close). The loop
 * itself is loop.c's (the host drives it) or loop_batches.c's (the devices run
 * batches of it), or the devices' own on chip (run_on_chip) when nothing needs the host
 * between iterations. Every path agrees on failures, so no thread is left waiting.
 */
#include "solver.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/error.h"
#include "support/interrupt.h"
#include "support/threads.h"
#include "loop.h"
#include "loop_batches.h"

static double elapsed_since(double *clock)
{
    double now = omp_get_wtime(), dt = now - *clock;
    *clock = now;
    return dt;
}

/* Lists the neighbour edges that come by copy instead of peer access. */
static void describe_fallbacks(struct loop_state *st)
{
    struct solve_result *r = st->result;
    size_t used = 0;
    for (int i = 0; i < st->split.local_count; i++)
        for (int side = 0; side < SIDE_COUNT; side++) {
            const struct tile *me = &st->tiles[st->split.local[i]];
            const struct tile *nb = &st->tiles[me->extent->neighbour[side]];
            if (!me->peer_fallback[side] || nb->remote)
                continue;
            r->peer_fallback_pairs++;
            if (used < sizeof r->peer_fallback)
                used += (size_t)snprintf(
                    r->peer_fallback + used, sizeof r->peer_fallback - used,
                    "%sGPU %d <- GPU %d (%s)", used ? ", " : "", me->device, nb->device,
                    partition_side_name(side));
        }
}

/* Opens the tile and uploads its part of the initial field and per-site terms,
 * read straight out of the rank's part. */
static int set_up_tile(struct loop_state *st, struct tile *me)
{
    if (st->ops->open(me) != 0)
        return -1;
    if (st->settings->plan_only)
        return 0;
    struct tile_input in = {.field = st->part->data,
                            .source = st->terms.source.data,
                            .fixed = st->terms.fixed,
                            .pitch = st->part->nx,
                            .x0 = st->part->x0,
                            .y0 = st->part->y0};
    return st->ops->upload(me, &in);
}

/* The watch of a lone device's loop: every norm it computes, and whether to stop. */
static int watch_alone(void *context, long iteration, double norm)
{
    struct loop_state *st = context;
    solve_note_norm(st->settings, iteration, norm, omp_get_wtime() - st->loop_start);
    if (norm != 0.0) {
        st->alone_nonzero_norm = norm;
        st->alone_nonzero_iteration = iteration;
    }
    return interrupt_requested() != 0;
}

/* The watch of a lone device's loop after a batch with no norm: a signal? */
static int stop_asked_alone(void *context)
{
    (void)context;
    return interrupt_requested() != 0;
}

/* The meeting point of the tiles that run on chip together: the failure recorded,
 * every thread agreeing. */
static int meet_on_chip(void *context, struct tile *me, int rc)
{
    struct loop_state *st = context;
    loop_record(st, me, rc);
    return loop_agree(st);
}

/* The team of the loop on chip (every tile of the run), and what its devices keep
 * allocated before the loop's clock (chip_open); 1 when any tile failed. */
static int open_on_chip(struct loop_state *st, struct tile *me)
{
#pragma omp single
    st->chip_team = (struct chip_team){.tiles = st->tiles,
                                       .count = partition_count(st->partition),
                                       .meet = meet_on_chip,
                                       .context = st};
    if (st->ops->chip_open)
        loop_record(st, me, st->ops->chip_open(me, &st->plan, &st->chip_team));
    return loop_agree(st);
}

/* A lone tile whose device runs the loop itself the plan's way, or tiles stacked in
 * rows whose devices run it together (run_on_chip): same numbers. Tile 0's thread keeps
 * the state and shows the norms. */
static long iterate_on_chip(struct loop_state *st, struct tile *me)
{
    struct loop_watch watch = {
        .norm = watch_alone, .stop_asked = stop_asked_alone, .context = st};
    struct stop_state mine;
    struct stop_state *state = me->index == 0 ? &st->state : &mine;
    int rc = st->ops->run_on_chip(me, &st->plan, &st->stop_rule, state, &watch,
                                  &st->chip_team);
    loop_record(st, me, rc);
    if (rc == 0 && me->index == 0)
        solve_report_state(st->result, &st->state);
    if (rc == 0 && me->index == 0 &&
        st->alone_nonzero_iteration > st->result->nonzero_iteration) {
        st->result->nonzero_norm = st->alone_nonzero_norm;
        st->result->nonzero_iteration = st->alone_nonzero_iteration;
    }
#pragma omp barrier
    return st->state.iteration;
}

/* What the run asks of the loop plan (plan/loop_plan.h). */
static struct loop_plan_input plan_input(const struct loop_state *st)
{
    const struct solve_settings *s = st->settings;
    struct loop_plan_input in = {.tiles = partition_count(st->partition),
                                 .distributed = st->split.distributed,
                                 .tile = s->tile,
                                 .monitor = s->monitor && s->monitor_every > 0,
                                 .snapshot = s->snapshot && s->snapshot_every > 0};
    in.tile.loop = s->loop; /* the run's --loop (the tiles' copy says the same) */
    return in;
}

/* Every tile's device offers what it can (once open and connected), then one thread
 * makes the loop plan; a plan that cannot run fails the tile it is about; then each
 * device takes its tile's part (its sweep's shape and grid). 1 when any tile failed
 * (every thread gets the same answer). */
static int plan_loop(struct loop_state *st, struct tile *me)
{
    const int tiles = partition_count(st->partition);
    loop_record(st, me, st->ops->offer(me, tiles, &st->offers[me->index]));
    if (loop_agree(st))
        return 1;
#pragma omp single
    {
        struct loop_plan_input in = plan_input(st);
        loop_plan_make(&in, st->offers, &st->plan, st->tile_plans);
        st->result->plan = st->plan;
    }
    if (st->plan.failed && me->index == st->plan.failed_tile) {
        snprintf(me->error, sizeof me->error, "%s", st->plan.reason);
        loop_record(st, me, -1);
    }
    if (loop_agree(st))
        return 1;
    if (st->ops->prepare)
        loop_record(st, me, st->ops->prepare(me, &st->tile_plans[me->index]));
    return loop_agree(st);
}

/* The sites of the ranks east and north that the part holds (rank_part.h). */
static int fill_shadows(struct loop_state *st, struct tile *me)
{
    if (!st->split.distributed)
        return 0;
    return rank_part_fill_shadows(&st->split.part, st->part) == 0
               ? 0
               : error_set(me->error, sizeof me->error,
                           "out of host memory for the part's shadows");
}

/* The whole life of one tile, run by the thread that drives it. */
static void drive_tile(struct loop_state *st, struct tile *me)
{
    const struct tile *nb[SIDE_COUNT];
    tile_neighbours(st->tiles, me, nb);
    loop_record(st, me, set_up_tile(st, me));
    if (loop_agree(st))
        goto out;
    loop_record(st, me, rank_split_shadows_open(&st->split, st->ops, me));
    if (loop_agree(st))
        goto out;
    loop_record(st, me, st->ops->connect(me, nb));
    if (loop_agree(st) || plan_loop(st, me) || st->settings->plan_only)
        goto out;
    /* set-up, made before the loop's clock: the batches' buffers and graphs, the loop
     * on chip's state, norms and meetings */
    const int unopened = loop_way_batches(st->plan.way)   ? loop_batches_open(st, me)
                         : loop_way_on_chip(st->plan.way) ? open_on_chip(st, me)
                                                          : 0;
#pragma omp single
    {
        st->result->time_input_s = elapsed_since(&st->clock);
        describe_fallbacks(st);
    }
#pragma omp single
    st->loop_start = omp_get_wtime();
    long started;
    if (st->plan.way == LOOP_WAY_HOST)
        started = loop_iterate(st, me);
    else if (loop_way_batches(st->plan.way))
        started = unopened ? 0 : loop_batches_iterate(st, me);
    else
        started = unopened ? 0 : iterate_on_chip(st, me);
    if (me->sweeps_overlapped) {
#pragma omp atomic write
        st->result->sweeps_overlapped = 1;
    }
    if (me->index < BREAKDOWN_TILES) /* each thread its own tile's entry */
        st->result->breakdown[me->index] = me->breakdown;
#pragma omp single
    {
        st->result->time_compute_s = elapsed_since(&st->clock);
        st->failed = rank_split_agree(&st->split, st->failed, st->result);
        st->gather = !st->failed; /* read by all after the single's barrier */
    }
    if (st->gather)
        loop_record(st, me, loop_gather_tile(st, me));
    double unused; /* wait for a sweep started past the end before anything is freed */
    st->ops->finish(me, started, 0, &unused);
#pragma omp barrier
#pragma omp single
    if (st->gather) /* the other ranks' edges, for the pieces' shared sites */
        loop_record(st, me, fill_shadows(st, me));
    if (st->gather && st->settings->tile_done)
        loop_record(st, me,
                    st->settings->tile_done(st->settings->tile_done_context, me->index,
                                            st->partition, st->part, st->result,
                                            me->error, sizeof me->error));
#pragma omp barrier
#pragma omp single
    st->result->time_output_s = elapsed_since(&st->clock);
out:
    rank_split_shadows_close(&st->split, st->ops, me);
    st->ops->close(me); /* after a barrier: no neighbour reads this tile any more */
}

static struct tile *make_tiles(const struct partition *p, const struct problem *problem,
                               const struct solve_settings *s)
{
    int n = partition_count(p);
    struct tile *tiles = calloc((size_t)n, sizeof *tiles);
    if (!tiles)
        return NULL;
    for (int t = 0; t < n; t++) {
        struct tile *tile = &tiles[t];
        tile->index = t;
        tile->extent = &p->tiles[t];
        tile->device = s->devices ? s->devices[t] : -1;
        tile->precision = problem->precision;
        tile->settings = s->tile;
    }
    return tiles;
}

/* The per-site terms over the part (their largest source agreed on by every rank,
 * failed or not, so that no rank waits), the norm's scale fitted to them
 * (update_rule.h). 0, or -1 with result->error set. */
static int set_up_terms(struct loop_state *st, const struct problem *problem,
                        struct solve_settings *settings, int ready)
{
    struct solve_result *result = st->result;
    int rc = ready ? problem_terms_build_part(problem, st->split.part.held, &st->terms,
                                              result->error, sizeof result->error)
                   : -1;
    if (st->split.distributed)
        st->terms.source_max = ranks_largest(st->terms.source_max);
    if (rc != 0)
        return -1;
    update_rule_fit_norm(&settings->tile.update_rule, problem, &st->terms);
    st->stop_rule = solve_stop_rule(settings);
    for (int t = 0; t < partition_count(st->partition); t++)
        st->tiles[t].settings.update_rule =
            settings->tile.update_rule; /* made before the fit */
    return 0;
}

/* The tiles, the split among ranks, the per-site terms, the shared sums and the
 * initial field, each over this rank's part alone (for the loop plan alone: the tiles
 * and the split); 0, or -1 out of memory (result->error set). */
static int set_up_run(struct loop_state *st, const struct problem *problem,
                      struct solve_settings *settings)
{
    const struct partition *partition = st->partition;
    struct solve_result *result = st->result;
    int ready = (st->tiles = make_tiles(partition, problem, settings)) &&
                rank_split_make(&st->split, partition, settings->ranks_x,
                                settings->ranks_y, st->tiles) == 0;
    if (!ready)
        error_set(result->error, sizeof result->error,
                  "out of host memory for the tiles");
    st->offers = calloc((size_t)partition_count(partition), sizeof *st->offers);
    st->tile_plans = calloc((size_t)partition_count(partition), sizeof *st->tile_plans);
    if (settings->plan_only && ready && (!st->offers || !st->tile_plans))
        return error_set(result->error, sizeof result->error, "out of host memory");
    if (settings->plan_only) /* no field, no terms: the loop plan reads neither */
        return ready ? 0 : -1;
    if (set_up_terms(st, problem, settings, ready) != 0)
        return -1;
    st->tile_sums = calloc((size_t)partition_count(partition), sizeof *st->tile_sums);
    if (!st->tile_sums || !st->offers || !st->tile_plans ||
        problem_initial_part(problem, st->split.part.held, st->part))
        return error_set(result->error, sizeof result->error,
                         "out of host memory for the lattice");
    return 0;
}

/* Says why OpenMP gave fewer threads than this rank has tiles. */
static void too_few_threads(struct loop_state *st, int n)
{
    const char *limited_by;
    int limit = threads_limit(&limited_by), got = omp_get_num_threads();
    char why[64] = "";
    if (limited_by)
        snprintf(why, sizeof why, " (%s allows %d)", limited_by, limit);
    snprintf(st->result->error, sizeof st->result->error,
             "OpenMP gave %d thread%s for %d tiles, one each%s", got, got > 1 ? "s" : "",
             n, why);
}

int solver_run(const struct device_ops *ops, const struct problem *problem,
               const struct partition *partition, const struct solve_settings *settings,
               struct field *out, struct solve_result *result)
{
    *out = (struct field){0};
    solve_result_start(result);
    struct solve_settings fitted = *settings; /* the norm's scale fitted to the data */
    struct loop_state st = {.ops = ops,
                            .partition = partition,
                            .settings = &fitted,
                            .part = out,
                            .result = result,
                            .state = stop_state_start(),
                            .resume = 1,
                            .clock = omp_get_wtime(),
                            .split.distributed =
                                settings->ranks_x * settings->ranks_y > 1};
    result->reason = STOP_CONVERGED;
    const int ready = set_up_run(&st, problem, &fitted) == 0;
    int n = ready ? st.split.local_count : 1;
    st.failed = !ready;
    omp_set_dynamic(0);
    /* A rank that cannot drive its tiles still takes part in the first agreement
     * the others reach (drive_tile's set-up), and in the last one below. */
#pragma omp parallel num_threads(n)
    {
        if (!ready || omp_get_num_threads() != n) {
#pragma omp single
            {
                if (ready)
                    too_few_threads(&st, n);
                st.failed = 1;
                rank_split_agree(&st.split, 1, result);
            }
        } else {
            drive_tile(&st, &st.tiles[st.split.local[omp_get_thread_num()]]);
        }
    }
    st.failed = rank_split_agree(&st.split, st.failed, result);
    result->time_exchange_s = st.split.exchange_s;
    free(st.tiles);
    free(st.tile_sums);
    free(st.offers);
    free(st.tile_plans);
    free(st.batch_sums);
    rank_split_free(&st.split);
    problem_terms_free(&st.terms);
    if (st.failed || settings->plan_only)
        field_free(out);
    if (st.failed) {
        result->reason = STOP_FAILED;
        return -1;
    }
    return 0;
}

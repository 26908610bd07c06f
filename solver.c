/*
 * solver.c - the one iteration loop, written once for every kind of device.
 *
 * One OpenMP thread drives each tile. Step k of the loop:
 *
 *   thread t:   start sweep k of tile t (old -> new), reading the neighbours'
 *               old edges; the device orders it after their sweep k - 1
 *               finish sweep k - 1: wait for it and, if the norm is due, add
 *               its block partial sums in the fixed order into the tile's total
 *   --------------------------- barrier -------------------------------------
 *   one thread: combine the tile totals of iteration k - 1 in tile order into
 *               the norm, apply the stopping test to iteration k - 1
 *   --------------------------- barrier -------------------------------------
 *
 * So the host tests iteration k - 1 while the devices already run sweep k.
 * That is safe with two fields: sweep k writes the field that k - 1 read, and
 * k - 1's result stays intact; when k - 1 is the last iteration, sweep k is
 * simply never used (its time is part of the compute time on the host tiles,
 * which sweep synchronously, and overlaps the download on GPUs). The barrier also keeps
 * every device's sweep k + 1 from being started before all sweeps k were, so the devices
 * can chain them. A failing call on any device is recorded and turns the next decision
 * into "stop", taken by one thread and read by all after a barrier, so every thread
 * leaves the loop at the same step and none is left waiting.
 *
 * SOR sweeps in two phases (red sites, then black ones reading the new red
 * values): phase 1 of every tile starts after a barrier that follows every
 * tile's phase 0. A snapshot of iteration k - 1 is gathered after the verdict,
 * while sweep k, which writes the other field, may still run.
 *
 * The same loop in batches, where the devices offer them: solver_batches.c.
 */
#include "solver.h"

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/error.h"
#include "support/interrupt.h"
#include "solver_internal.h"

int solver_wants_norm(const struct solve_settings *s, long iteration)
{
    struct stop_rule rule = solver_stop_rule(s);
    if (stop_rule_wants_norm(&rule, iteration))
        return 1;
    return s->monitor_every > 0 && iteration % s->monitor_every == 0;
}

void solver_note_norm(const struct solve_settings *s, long iteration, double norm,
                      double elapsed_s)
{
    if (s->monitor && s->monitor_every > 0 && iteration % s->monitor_every == 0)
        s->monitor(s->monitor_context, iteration, norm, elapsed_s);
    if (s->observe)
        s->observe(s->observe_context, iteration, norm, elapsed_s);
}

struct stop_rule solver_stop_rule(const struct solve_settings *s)
{
    return (struct stop_rule){.eps = s->eps,
                              .max_iter = s->max_iter,
                              .check_every = s->check_every,
                              .norm_is_max = s->tile.rule.norm == NORM_MAX,
                              .norm_scale = update_rule_norm_factor(&s->tile.rule)};
}

int solver_decide(const struct solve_settings *s, struct stop_state *state, long k,
                  int has_norm, double norm, double elapsed_s, int signal)
{
    struct stop_rule rule = solver_stop_rule(s);
    if (has_norm)
        solver_note_norm(s, k, norm, elapsed_s);
    if (!stop_state_step(&rule, state, k, has_norm, norm) && signal)
        stop_state_interrupt(state);
    return state->stopped;
}

void solver_report_state(struct solve_result *r, const struct stop_state *state)
{
    r->iterations = state->iteration;
    r->norm_checks = state->norm_checks;
    r->final_norm = state->norm_checks ? state->norm : NAN;
    r->final_norm_iteration = state->norm_iteration;
    if (state->stopped)
        r->reason = (enum stop_reason)state->reason;
}

const char *stop_reason_text(enum stop_reason reason)
{
    switch (reason) {
    case STOP_CONVERGED:
        return "converged: the norm fell below eps";
    case STOP_MAX_ITER:
        return "stopped at --max-iter without converging";
    case STOP_DIVERGED:
        return "diverged: the norm is not finite or grew without bound";
    case STOP_FAILED:
        return "failed";
    case STOP_INTERRUPTED:
        return "interrupted by a signal: the field is the last one reached";
    case STOP_STAGNATED:
        return "stagnated: no site changed before the norm fell below eps";
    }
    return "unknown";
}

int solver_thread_limit(const char **variable)
{
    *variable = NULL;
    if (omp_get_active_level() >= omp_get_max_active_levels()) {
        *variable = "OMP_MAX_ACTIVE_LEVELS";
        return 1;
    }
    int limit = omp_get_thread_limit(); /* INT_MAX when unset */
    if (limit < INT_MAX)
        *variable = "OMP_THREAD_LIMIT";
    return limit;
}

/* Records the first failure of any thread; the next decision then stops all. */
void loop_record(struct shared_state *st, const struct tile *me, int rc)
{
    if (rc == 0)
        return;
#pragma omp critical(solver_failure)
    if (!st->failed) {
        st->failed = 1;
        st->result->reason = STOP_FAILED;
        st->result->failed_device = me->device;
        snprintf(st->result->error, sizeof st->result->error, "tile %d: %s", me->index,
                 me->error);
    }
}

/* Every thread calls this; all get the same answer: has any call failed? */
int loop_agree(struct shared_state *st)
{
#pragma omp barrier
#pragma omp single
    st->stop = st->failed = rank_agree(&st->split, st->failed, st->result);
    return st->stop; /* the end of single is a barrier: all read the same value */
}

static double elapsed_since(double *clock)
{
    double now = omp_get_wtime(), dt = now - *clock;
    *clock = now;
    return dt;
}

/* Lists the neighbour edges that come by copy instead of peer access. */
static void describe_fallbacks(struct shared_state *st)
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
                used += (size_t)snprintf(r->peer_fallback + used,
                                         sizeof r->peer_fallback - used,
                                         "%sGPU %d <- GPU %d (%s)", used ? ", " : "",
                                         me->device, nb->device, side_name(side));
        }
}

/* Opens the tile and uploads its part of the initial field and per-site terms,
 * read straight out of the whole arrays. */
static int set_up_tile(struct shared_state *st, struct tile *me)
{
    if (st->ops->open(me) != 0)
        return -1;
    struct tile_input in = {.field = st->whole->data,
                            .source = st->terms.source.data,
                            .fixed = st->terms.fixed,
                            .pitch = st->whole->nx};
    return st->ops->upload(me, &in);
}

/* Downloads the newest field of the tile into its place in the whole field; the
 * tiles' threads do so at once, each into its own rectangle. */
static int gather_tile(struct shared_state *st, struct tile *me)
{
    return st->ops->download(me, (int)(st->state.iteration % 2), st->whole->data,
                             st->whole->nx);
}

/* The norm from the tiles' totals (one per tile), combined in tile order. */
static double gather_norm(const struct shared_state *st, const double *totals)
{
    const struct update_rule *rule = &st->settings->tile.rule;
    double total = 0.0;
    for (int t = 0; t < partition_count(st->partition); t++)
        total = norm_combine(rule->norm, total, totals[t]);
    return update_rule_norm(rule, total);
}

/* Taken by one thread between the two barriers: the verdict on an iteration,
 * from the tiles' totals of it (used when its norm is due). */
void loop_decide(struct shared_state *st, long iteration, double *totals)
{
    const struct solve_settings *s = st->settings;
    struct solve_result *r = st->result;
    st->snapshot = 0;
    int signal = rank_share(&st->split, &st->failed, totals, r); /* all ranks' totals */
    if (st->failed || iteration < st->resume) {
        st->stop = st->failed;
        return;
    }
    int has_norm = solver_wants_norm(s, iteration);
    double norm = has_norm ? gather_norm(st, totals) : NAN;
    st->stop = solver_decide(s, &st->state, iteration, has_norm, norm,
                             omp_get_wtime() - st->loop_start, signal);
    solver_report_state(r, &st->state);
    st->snapshot = s->snapshot && s->snapshot_every > 0 &&
                   iteration % s->snapshot_every == 0 &&
                   !(st->stop && r->reason == STOP_DIVERGED);
}

/* Gathers the field of st->state.iteration from every tile and hands it to the
 * snapshot callback; every thread calls it when st->snapshot is set. */
static void take_snapshot(struct shared_state *st, struct tile *me)
{
    const struct solve_settings *s = st->settings;
    int writes = !st->split.distributed || ranks_rank() == 0;
    loop_record(st, me, gather_tile(st, me));
#pragma omp barrier
#pragma omp single
    {
        /* every rank's tiles gathered (agreed), merged, then written by rank 0 */
        st->failed = rank_agree(&st->split, st->failed, st->result);
        if (!st->failed)
            rank_merge_field(&st->split, st->partition, st->whole);
        if (st->failed ||
            (writes && s->snapshot(s->snapshot_context, st->state.iteration, st->whole,
                                   st->result->error, sizeof st->result->error) != 0)) {
            st->failed = 1;
            st->result->reason = STOP_FAILED;
        }
        st->failed = rank_agree(&st->split, st->failed, st->result);
        if (st->failed)
            st->stop = 1; /* read by all after the single's barrier */
    }
}

/* Before a sweep (or SOR phase) reads field[which]: the edges of the other ranks'
 * tiles into our shadows of them, and ours to them. */
static void refresh_shadows(struct shared_state *st, struct tile *me, int which)
{
    loop_record(st, me, rank_edges_read(&st->split, st->ops, me, which));
#pragma omp barrier
#pragma omp single
    rank_edges_exchange(&st->split);
    loop_record(st, me, rank_edges_write(&st->split, st->ops, me, which));
}

/* Starts sweep k: one call per phase, phase 1 (SOR's black sites) only after
 * every tile has started phase 0, whose red values it reads. */
void loop_start_sweep(struct shared_state *st, struct tile *me, struct sweep_args *args)
{
    int phases = update_rule_phases(&st->settings->tile.rule);
    for (args->phase = 0; args->phase < phases; args->phase++) {
        if (args->phase > 0) {
#pragma omp barrier
        }
        if (st->split.distributed) /* phase 1 reads the new field's red sites */
            refresh_shadows(st, me, (int)((args->iteration - 1 + args->phase) % 2));
        loop_record(st, me, st->ops->sweep(me, args));
    }
}

/* Runs the host loop from iteration st->resume on; returns the last iteration
 * this thread started. */
long loop_iterate(struct shared_state *st, struct tile *me)
{
    const struct solve_settings *s = st->settings;
    struct sweep_args args = {0};
    long started = 0;
    tile_neighbours(st->tiles, me, args.neighbour);
    for (long k = st->resume;; k++) {
        if (k <= s->max_iter) {
            args.iteration = k;
            args.want_sums = solver_wants_norm(s, k);
            loop_start_sweep(st, me, &args);
            started = k;
        }
        if (k > st->resume)
            loop_record(st, me,
                        st->ops->finish(me, k - 1, solver_wants_norm(s, k - 1),
                                        &st->tile_sums[me->index]));
#pragma omp barrier
#pragma omp single
        loop_decide(st, k - 1, st->tile_sums);
        if (st->snapshot)
            take_snapshot(st, me);
        if (st->stop)
            return started;
    }
}

/* The watch of a lone device's loop: every norm it computes, and whether to stop. */
static int watch_alone(void *context, long iteration, double norm)
{
    struct shared_state *st = context;
    solver_note_norm(st->settings, iteration, norm, omp_get_wtime() - st->loop_start);
    return interrupt_requested() != 0;
}

/* A lone tile whose device runs the loop itself (run_alone): same numbers. */
static long iterate_alone(struct shared_state *st, struct tile *me)
{
    struct stop_rule rule = solver_stop_rule(st->settings);
    struct loop_watch watch = {.norm = watch_alone, .context = st};
    int rc = st->ops->run_alone(me, &rule, &st->state, &watch);
    if (rc == 1)
        return loop_iterate(st, me); /* the device declined: the host loop */
    loop_record(st, me, rc);
    if (rc == 0)
        solver_report_state(st->result, &st->state);
    st->result->loop_batch = me->loop_batch;
    return st->state.iteration;
}

/* The device runs the loop alone when there is one tile (and it offers to) and
 * no monitor or snapshot needs the host as the loop goes; nor the history, when the
 * device would add the sums itself and show only one norm per batch. */
static int loop_on_device(const struct shared_state *st)
{
    const struct solve_settings *s = st->settings;
    return partition_count(st->partition) == 1 && st->ops->run_alone &&
           s->loop != LOOP_HOST && !(s->monitor && s->monitor_every > 0) &&
           !(s->snapshot && s->snapshot_every > 0) &&
           !(s->observe_all && s->tile.reduce == REDUCE_DEVICE);
}

/* The whole life of one tile, run by the thread that drives it. */
static void drive_tile(struct shared_state *st, struct tile *me)
{
    const struct tile *nb[SIDE_COUNT];
    tile_neighbours(st->tiles, me, nb);
    loop_record(st, me, set_up_tile(st, me));
    if (loop_agree(st))
        goto out;
    loop_record(st, me, rank_shadows_open(&st->split, st->ops, me));
    if (loop_agree(st))
        goto out;
    loop_record(st, me, st->ops->connect(me, nb));
    if (loop_agree(st))
        goto out;
#pragma omp single
    {
        st->result->time_input_s = elapsed_since(&st->clock);
        describe_fallbacks(st);
    }
#pragma omp single
    st->loop_start = omp_get_wtime();
    long started;
    if (loop_on_device(st))
        started = iterate_alone(st, me);
    else if (loop_choose_batch(st, me) > 0)
        started = loop_open_batches(st, me) ? 0 : loop_iterate_batched(st, me);
    else
        started = loop_iterate(st, me);
#pragma omp single
    {
        st->result->time_compute_s = elapsed_since(&st->clock);
        st->failed = rank_agree(&st->split, st->failed, st->result);
        st->gather = !st->failed; /* read by all after the single's barrier */
    }
    if (st->gather)
        loop_record(st, me, gather_tile(st, me));
    double unused; /* wait for a sweep started past the end before anything is freed */
    st->ops->finish(me, started, 0, &unused);
#pragma omp barrier
#pragma omp single
    if (st->gather) /* the other ranks' tiles, for the pieces' shared edges */
        rank_merge_field(&st->split, st->partition, st->whole);
    if (st->gather && st->settings->tile_done)
        loop_record(st, me,
                    st->settings->tile_done(st->settings->tile_done_context, me->index,
                                            st->partition, st->whole, st->result,
                                            me->error, sizeof me->error));
#pragma omp barrier
#pragma omp single
    st->result->time_output_s = elapsed_since(&st->clock);
out:
    rank_shadows_close(&st->split, st->ops, me);
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

/* The per-site terms (and the norm's scale fitted to them: update_rule.h), the
 * tiles, the shared sums, the initial field and the split among ranks; 0, or -1
 * out of memory (result->error set). */
static int set_up_run(struct shared_state *st, const struct problem *problem,
                      struct solve_settings *settings)
{
    const struct partition *partition = st->partition;
    struct solve_result *result = st->result;
    if (problem_terms_build(problem, &st->terms, result->error, sizeof result->error))
        return -1;
    update_rule_fit_norm(&settings->tile.rule, problem, &st->terms);
    st->tile_sums = calloc((size_t)partition_count(partition), sizeof *st->tile_sums);
    if (!st->tile_sums || problem_initial_field(problem, st->whole) != 0 ||
        !(st->tiles = make_tiles(partition, problem, settings)) ||
        rank_split_make(&st->split, partition, settings->ranks_x, settings->ranks_y,
                        st->tiles) != 0)
        return error_set(result->error, sizeof result->error,
                         "out of host memory for the lattice");
    return 0;
}

/* Says why OpenMP gave fewer threads than this rank has tiles. */
static void too_few_threads(struct shared_state *st, int n)
{
    const char *limited_by;
    int limit = solver_thread_limit(&limited_by), got = omp_get_num_threads();
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
    memset(result, 0, sizeof *result);
    result->final_norm = NAN;
    result->failed_device = -1;
    result->failed_rank = -1;
    struct solve_settings fitted = *settings; /* the norm's scale fitted to the data */
    struct shared_state st = {.ops = ops,
                              .partition = partition,
                              .settings = &fitted,
                              .whole = out,
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
                rank_agree(&st.split, 1, result);
            }
        } else {
            drive_tile(&st, &st.tiles[st.split.local[omp_get_thread_num()]]);
        }
    }
    st.failed = rank_agree(&st.split, st.failed, result);
    free(st.tiles);
    free(st.tile_sums);
    free(st.batch_sums);
    rank_split_free(&st.split);
    problem_terms_free(&st.terms);
    if (st.failed) {
        result->reason = STOP_FAILED;
        field_free(out);
        return -1;
    }
    return 0;
}

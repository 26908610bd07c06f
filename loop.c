/*
 * loop.c - the one iteration loop, written once for every kind of device: its steps
 * (record a failure, agree, decide, start a sweep, take a snapshot) and the loop the
 * host drives. solver.c runs it on every tile's thread; loop_batches.c takes the same
 * steps in batches.
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
 * while sweep k, which writes the other field, may still run; under MPI each rank
 * gathers its own tiles and writes from its part, no rank holding the whole.
 *
 * The same loop in batches, where the devices offer them: loop_batches.c.
 */
#include "loop.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>

#include "support/error.h"
#include "support/interrupt.h"

/* Records the first failure of any thread; the next decision then stops all. */
void loop_record(struct loop_state *st, const struct tile *me, int rc)
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

/* Has any call failed, on any rank? With one process the answer is this process's:
 * its loop never enters mpi/. */
static int agreed_failure(struct loop_state *st)
{
    return st->split.distributed ? rank_split_agree(&st->split, st->failed, st->result)
                                 : st->failed;
}

/* Every thread calls this; all get the same answer: has any call failed? */
int loop_agree(struct loop_state *st)
{
#pragma omp barrier
#pragma omp single
    st->stop = st->failed = agreed_failure(st);
    return st->stop; /* the end of single is a barrier: all read the same value */
}

/* Downloads the newest field of the tile into its place in the rank's part; the
 * tiles' threads do so at once, each into its own rectangle. */
int loop_gather_tile(struct loop_state *st, struct tile *me)
{
    return st->ops->download(me, (int)(st->state.iteration % 2), st->part);
}

/* Taken by one thread between the two barriers: the verdict on an iteration,
 * from the tiles' totals of it (used when its norm is due). */
void loop_decide(struct loop_state *st, long iteration, double *totals)
{
    const struct solve_settings *s = st->settings;
    struct solve_result *r = st->result;
    st->snapshot = 0;
    int signal = st->split.distributed /* all ranks' totals, and their signals */
                     ? rank_split_share(&st->split, &st->failed, totals, r)
                     : interrupt_requested();
    if (st->failed || iteration < st->resume) {
        st->stop = st->failed;
        return;
    }
    int has_norm = solve_wants_norm(s, &st->stop_rule, iteration);
    double norm = has_norm ? stop_rule_combine(&st->stop_rule, totals,
                                               partition_count(st->partition))
                           : NAN;
    st->stop = solve_decide(s, &st->stop_rule, &st->state, iteration, has_norm, norm,
                            omp_get_wtime() - st->loop_start, signal);
    solve_report_state(r, &st->state);
    st->snapshot = s->snapshot && s->snapshot_every > 0 &&
                   iteration % s->snapshot_every == 0 &&
                   !(st->stop && r->reason == STOP_DIVERGED);
}

/* Hands the snapshot callback the field of st->state.iteration: with one process the
 * whole; under MPI this rank's part, its shadows filled from the ranks east and
 * north (a .pvti piece reads them), every rank calling it to write from its part. */
static int write_snapshot(struct loop_state *st)
{
    const struct solve_settings *s = st->settings;
    struct solve_result *r = st->result;
    if (st->split.distributed && rank_part_fill_shadows(&st->split.part, st->part) != 0)
        return error_set(r->error, sizeof r->error,
                         "out of host memory for a snapshot's shadows");
    return s->snapshot(s->snapshot_context, st->state.iteration, st->part, r->error,
                       sizeof r->error);
}

/* Gathers the field of st->state.iteration from every tile and hands it to the
 * snapshot callback; every thread calls it when st->snapshot is set. */
static void take_snapshot(struct loop_state *st, struct tile *me)
{
    loop_record(st, me, loop_gather_tile(st, me));
#pragma omp barrier
#pragma omp single
    {
        /* every rank's tiles gathered (agreed), then written */
        st->failed = agreed_failure(st);
        int written = !st->failed && write_snapshot(st) == 0;
        if (!written) {
            st->failed = 1;
            st->result->reason = STOP_FAILED;
        }
        int gathered = st->result->failed_rank >= 0;
        st->failed = agreed_failure(st);
        if (st->split.distributed && st->failed && !gathered &&
            !written) /* agreed in the write itself */
            st->result->failed_rank = SOLVE_EVERY_RANK;
        if (st->failed)
            st->stop = 1; /* read by all after the single's barrier */
    }
}

/* Under MPI, a sweep (or SOR phase) reading field[which] needs the other ranks'
 * edges of it in our shadows, and sends ours. A device that copies edges in the
 * background (edges_wait) sweeps its interior while they travel:
 *
 *   each thread:  queue the copies of its edges to host memory, then the interior
 *                 sweep; wait for the copies (not for the sweep)
 *   one thread:   every edge sent and received (MPI), the interior still sweeping
 *   each thread:  queue the received edges into the shadows, then the edge strips
 *
 * Any other device copies each edge at once, and sweeps whole once the shadows hold
 * the new edges. */
static void sweep_with_other_ranks(struct loop_state *st, struct tile *me,
                                   struct sweep_args *args, int which)
{
    const int overlap = st->ops->edges_wait != NULL;
    loop_record(st, me, rank_split_edges_read(&st->split, st->ops, me, which));
    if (overlap) {
        args->part = SWEEP_INTERIOR;
        loop_record(st, me, st->ops->sweep(me, args));
        loop_record(st, me, rank_split_edges_wait(&st->split, st->ops, me));
    }
#pragma omp barrier
#pragma omp single
    rank_split_edges_exchange(&st->split);
    loop_record(st, me, rank_split_edges_write(&st->split, st->ops, me, which));
    args->part = overlap ? SWEEP_EDGES : SWEEP_WHOLE;
    loop_record(st, me, st->ops->sweep(me, args));
    args->part = SWEEP_WHOLE;
}

/* Starts sweep k: one call per phase, phase 1 (SOR's black sites) only after
 * every tile has started phase 0, whose red values it reads. */
void loop_start_sweep(struct loop_state *st, struct tile *me, struct sweep_args *args)
{
    int phases = update_rule_phases(&st->settings->tile.update_rule);
    for (args->phase = 0; args->phase < phases; args->phase++) {
        if (args->phase > 0) {
#pragma omp barrier
        }
        if (st->split.distributed) /* phase 1 reads the new field's red sites */
            sweep_with_other_ranks(st, me, args,
                                   (int)((args->iteration - 1 + args->phase) % 2));
        else
            loop_record(st, me, st->ops->sweep(me, args));
    }
}

/* Runs the host loop from iteration st->resume on; returns the last iteration
 * this thread started. */
long loop_iterate(struct loop_state *st, struct tile *me)
{
    const struct solve_settings *s = st->settings;
    struct sweep_args args = {0};
    long started = 0;
    tile_neighbours(st->tiles, me, args.neighbour);
    for (long k = st->resume;; k++) {
        if (k <= s->max_iter) {
            args.iteration = k;
            args.want_sums = solve_wants_norm(s, &st->stop_rule, k);
            loop_start_sweep(st, me, &args);
            started = k;
        }
        if (k > st->resume)
            loop_record(st, me,
                        st->ops->finish(me, k - 1,
                                        solve_wants_norm(s, &st->stop_rule, k - 1),
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

/*
 * run_outputs.c - a run's --output files written (run_outputs.h): the context of
 * each, then with one process the whole field through output.h; under MPI every
 * rank from its part (.bin .npy .vti .dat .png: part_output.h; .pvti: each rank its
 * own tiles' pieces, rank 0 the index), each failure agreed on by every rank.
 */
#include "run/run_outputs.h"

#include <stdio.h>
#include <string.h>

#include "mpi/rank_part.h"
#include "mpi/ranks.h"
#include "outputs/part_output.h"
#include "support/error.h"
#include "support/interrupt.h"
#include "version.h"

void run_outputs_context(const struct config *c, const struct partition *tiles,
                         const struct solve_result *r, struct output_context *out)
{
    const struct problem *p = &c->problem;
    const char *how = r->reason == STOP_INTERRUPTED ? "interrupted at iteration"
                      : r->reason == STOP_CONVERGED ? "converged at iteration"
                      : r->reason == STOP_STAGNATED ? "stagnated at iteration"
                                                    : "stopped at iteration";
    *out = (struct output_context){.partition = tiles,
                                   .png_tiles = c->png_tiles,
                                   .png_range = c->png_range,
                                   .png_lo = c->png_lo,
                                   .png_hi = c->png_hi,
                                   .iteration = r->iterations,
                                   .interrupted = r->reason == STOP_INTERRUPTED,
                                   .ranks_x = c->world_size > 1 ? c->ranks_x : 0,
                                   .ranks_y = c->world_size > 1 ? c->ranks_y : 0};
    problem_spacing(p, &out->dx, &out->dy);
    snprintf(out->text, sizeof out->text, "laplace %s, %ldx%ld %s, %s, %s %ld",
             LAPLACE_VERSION, p->nx, p->ny, precision_name(p->precision),
             method_name(c->method), how, r->iterations);
}

/* A snapshot's .pvti under MPI, whose pieces no tile's thread staged: this rank's
 * tiles' pieces staged in set (made here) from its part. A failure is kept in the
 * set, as output_write_piece keeps it, for the ranks to agree on. */
static void stage_own_pieces(const struct plan *plan, const char *path,
                             const struct field *part, const struct output_context *c,
                             struct output_pieces *set)
{
    const struct config *config = &plan->config;
    int tiles = partition_count(&plan->partition);
    struct output_context own = *c;
    char err[sizeof set->error];
    if (output_pieces_init(set, tiles) != 0) {
        set->failed = 1;
        snprintf(set->error, sizeof set->error,
                 "rank %d: cannot write '%s': out of memory", ranks_rank(), path);
        return;
    }
    own.pieces = set;
    for (int t = 0; t < tiles && !set->failed; t++)
        if (partition_rank_of(&plan->partition, config->ranks_x, config->ranks_y, t) ==
            ranks_rank())
            output_write_piece(path, part, &own, t, err, sizeof err);
}

/* A status of rank 0's alone (the file it writes alone) made every rank's: 0, or -1
 * on every rank with rank 0's message, so that all go on to the same next step. */
static int agree_root(int rc, char *err, size_t n)
{
    int status = ranks_agree_status(rc ? EXIT_FAILURE_RUN : EXIT_OK, err, n);
    return status == EXIT_OK ? 0 : -1;
}

/* A .pvti under MPI: every rank renames its own tiles' staged pieces once all ranks
 * have staged theirs, then rank 0 writes the index, a second signal held until
 * then (interrupt_hold); a failure discards the set, and one in the renames
 * removes the old index too (other ranks' pieces may be new already). */
static int write_shared_pvti(const char *path, struct output_pieces *set,
                             const struct field *field,
                             const struct output_context *context, char *err, size_t n)
{
    int first = ranks_first_flagged(set->failed), renaming = first < 0;
    interrupt_hold();
    if (renaming) {
        int failed = output_pieces_commit(path, set, err, n) != 0;
        first = ranks_first_flagged(failed);
    } else if (set->failed) {
        snprintf(err, n, "%s", set->error);
    }
    if (first >= 0) {
        if (renaming && ranks_rank() == 0)
            remove(path);
        ranks_share(first, err, n);
        err[n - 1] = '\0';
        output_pieces_discard(set);
        interrupt_end_hold();
        return -1;
    }
    int rc = ranks_rank() == 0 ? output_write_index(path, field, context, err, n) : 0;
    interrupt_end_hold();
    return agree_root(rc, err, n);
}

/*
 * One --output of a run over several MPI ranks: .bin .npy .vti .dat .png by every
 * rank from its part (part_output.h); a .pvti's pieces by the ranks that own their
 * tiles: the final output's staged already by the tiles' threads (context->pieces),
 * a snapshot's staged here. Every rank calls it for every output; a failure is said
 * by rank 0 with the first failing rank's message.
 */
static int write_shared_output(const struct plan *plan, const char *path,
                               const struct field *field,
                               const struct output_context *context, char *err, size_t n)
{
    const struct config *c = &plan->config;
    if (part_output_can_write(path)) {
        struct rank_part rp;
        rank_part_make(&rp, &plan->partition, c->ranks_x, c->ranks_y, ranks_rank());
        return part_output_write(path, field, &rp, c->problem.nx, c->problem.ny, context,
                                 err, n);
    }
    /* every other format is a .pvti (output_formats.h) */
    if (context->pieces)
        return write_shared_pvti(path, context->pieces, field, context, err, n);
    struct output_pieces own = {0};
    stage_own_pieces(plan, path, field, context, &own);
    int rc = write_shared_pvti(path, &own, field, context, err, n);
    output_pieces_discard(&own);
    return rc;
}

/* One --output, as the final outputs and the snapshots both write it: the whole
 * field with one process; under MPI every rank from its part (every rank calls it). */
static int write_output(const struct plan *plan, const char *path,
                        const struct field *field, const struct output_context *context,
                        char *err, size_t n)
{
    if (plan->config.world_size > 1)
        return write_shared_output(plan, path, field, context, err, n);
    return output_write(path, field, context, err, n);
}

/* Every --output: each one written if it can be, each failure a line of err. */
int run_outputs_write(const struct plan *plan, const struct field *field,
                      const struct solve_result *r, char *err, size_t n)
{
    const struct config *c = &plan->config;
    struct output_context context;
    char line[CONFIG_ERROR_MAX];
    int status = EXIT_OK;
    run_outputs_context(c, plan->ops ? &plan->partition : NULL, r, &context);
    err[0] = '\0';
    for (int i = 0; i < c->output_count; i++) {
        context.pieces = plan->ops && plan->staged[i].count ? &plan->staged[i] : NULL;
        if (write_output(plan, c->outputs[i], field, &context, line, sizeof line) != 0) {
            error_add_line(err, n, line);
            status = EXIT_FAILURE_RUN;
        }
    }
    return status;
}

/* A snapshot_fn: every --output of the run, named NAME-ITERATION.EXT (a .pvti's
 * pieces NAME-ITERATION_T.vti, one per tile), written as the final outputs are
 * (write_output): under MPI every rank calls it with its part. */
int run_outputs_snapshot(void *context, long iteration, const struct field *field,
                         char *err, size_t n)
{
    const struct plan *plan = context;
    const struct config *c = &plan->config;
    struct solve_result now = {.iterations = iteration, .reason = STOP_MAX_ITER};
    struct output_context oc;
    /* the tiles, as the final output has them: a .pvti snapshot gets a piece each */
    run_outputs_context(c, plan->ops ? &plan->partition : NULL, &now, &oc);
    snprintf(oc.text + strlen(oc.text), sizeof oc.text - strlen(oc.text), " (snapshot)");
    for (int i = 0; i < c->output_count; i++) {
        char path[CONFIG_PATH_MAX + 32];
        if (output_snapshot_path(c->outputs[i], iteration, path, sizeof path) != 0)
            return error_set(err, n, "snapshot name of '%s' too long", c->outputs[i]);
        if (write_output(plan, path, field, &oc, err, n) != 0)
            return -1;
    }
    return 0;
}

/* A tile_done_fn: this tile's piece of every .pvti output, by the tile's thread,
 * staged under a temporary name. A failure is kept in the set, for
 * run_outputs_write to report: it does not stop the other outputs. */
int run_outputs_piece(void *context, int tile, const struct partition *partition,
                      const struct field *whole, const struct solve_result *r, char *err,
                      size_t n)
{
    const struct plan *plan = context;
    const struct config *c = &plan->config;
    struct output_context oc;
    run_outputs_context(c, partition, r, &oc);
    for (int i = 0; i < c->output_count; i++) {
        oc.pieces = &plan->staged[i];
        if (output_has_pieces(c->outputs[i]))
            output_write_piece(c->outputs[i], whole, &oc, tile, err, n);
    }
    return 0;
}

/*
 * loop_plan.h - how a run iterates, decided once (loop_plan.c): from what the run asks
 * (--loop, --kernel, --block, --reduce, the method, the monitor and snapshots, the tiles
 * and ranks, LAPLACE_TUNE) and what each tile's device offers (struct tile_offer, filled
 * by the device once its tile is open and connected), loop_plan_make() chooses the way
 * to iterate, its batch length, each GPU tile's sweep shape and grid
 * (plan/sweep_shape.c), and says why. The drivers (solver.c, loop_batches.c, the
 * devices' prepare and run_on_chip) carry out the plan; none decides. --dry-run and the
 * report print it (loop_plan_describe). The ways are loop_way.h's.
 */
#ifndef LAPLACE_LOOP_PLAN_H
#define LAPLACE_LOOP_PLAN_H

#include <stddef.h>

#include "devices/device.h"
#include "devices/loop_way.h"

/* What the run asks for. */
struct loop_plan_input {
    int tiles;                 /* tiles of the whole run */
    int distributed;           /* 1: the tiles are split among MPI ranks */
    struct tile_settings tile; /* --loop, --kernel, --block, --reduce, update_rule,
                                  tune */
    int monitor;               /* --monitor: the host shows norms as the loop goes */
    int snapshot;              /* --snapshot-every: the host gathers fields as it goes */
};

/*
 * The plan of a run from what it asks and every tile's offer (offers[t] for tile t of
 * in->tiles; under MPI this rank's tiles are enough: offers of the others have
 * gpu == 0 and are not read): the way to iterate into *plan, and each tile's own part
 * (a GPU tile's sweep shape and grid: plan/sweep_shape.h) into tiles[t]. Pure: no
 * device is touched.
 */
void loop_plan_make(const struct loop_plan_input *in, const struct tile_offer *offers,
                    struct loop_plan *plan, struct tile_plan *tiles);

/* On chip: iterations from one meeting of the blocks to the next, the halos' depth (1:
 * every iteration, as at depth 0). */
int loop_plan_round(const struct loop_plan *p);

/* The way's name, as the CSV's loop column and --dry-run name it. */
const char *loop_plan_way_name(enum loop_way way);

/* How the run iterates, as the report's loop line says it ("batched on the GPUs, 344
 * iterations a batch"), into out; plan->reason says why. */
void loop_plan_describe(const struct loop_plan *plan, int gpu, char *out, size_t n);

/* The batch lengths of the ways (loop_plan.c); the tests read them. */
long loop_plan_gpu_batch(const struct tile_offer *o, long block_count);
long loop_plan_pairs_batch(const struct tile_offer *o);

/* Whether a run's rule and kernel allow passes of two iterations: plain Jacobi with the
 * sums added on the host and the kernel and block left to auto; LAPLACE_TUNE's
 * pairs=0 never. (Where they run is the plan's: a lone tile off chip, or GPU tiles
 * stacked in rows.) */
int loop_plan_pairs_allowed(const struct tile_settings *s);

#endif

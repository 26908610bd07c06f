/*
 * device_cuda_chip.c - a tile whose fields fit in the GPU's shared memory runs its
 * whole loop there, in laps of many iterations: a lone tile in one thread-block
 * cluster (kernels/laplace_chip.h), or by plain Jacobi in strips spread over the
 * multiprocessors (kernels/laplace_spread.h); tiles stacked in rows, one a GPU, run
 * the spread strips together, each GPU its band of them, meeting its neighbours'
 * bands through peer memory. The way, depth and lag are the loop plan's (from each
 * tile's plans of every depth, made when it offered them: device_cuda_offer.c). What
 * the loop keeps is allocated before the loop's clock (device_cuda_chip_open). After
 * each lap the host looks in, as after a batch: the injected fault, every norm the lap
 * computed (to the watch: history, signals) and a signal that came with no norm; the
 * tiles' threads meet after each lap, so that a failure, or a stop the watch asked
 * for, stops them all after the same lap.
 */
#include "devices/device_cuda_chip.h"

#include <cuda_runtime_api.h>

#include "kernels/laplace_chip.h"
#include "kernels/laplace_spread.h"
#include "p2p.h"
#include "support/error.h"

/* The norms a lap keeps: the plan's laps are at most this long. */
#define CHIP_LAP_MOST 8192

/* Hands the norms of iterations from + 1 .. state->iteration to the watch, in order;
 * 1 when it (or a signal, with no norm in the lap) asked to stop. */
static int show_lap(const struct loop_watch *watch, const struct stop_rule *rule,
                    long from, const struct stop_state *state, const double *norms)
{
    int stop = 0, shown = 0;
    for (long k = from + 1; k <= state->iteration; k++)
        if (stop_rule_wants_norm(rule, k)) {
            stop |= watch->norm(watch->context, k, norms[k - from - 1]);
            shown = 1;
        }
    return shown ? stop : watch->stop_asked(watch->context);
}

/* The plan's way on chip, as the tile's offer planned it: the spread strips (else
 * NULL) or the cluster (else NULL). */
struct on_chip {
    const struct spread_plan *strips;
    const struct chip_plan *cluster;
};

static struct on_chip way_of(struct tile *t, const struct loop_plan *plan)
{
    struct cuda_tile *c = t->impl;
    if (plan->way == LOOP_WAY_SPREAD)
        return (struct on_chip){
            .strips = &c->strips_at[plan->depth][plan->lag - 1][plan->columns]};
    return (struct on_chip){.cluster = &c->cluster_at[plan->depth]};
}

/* The blocks of the team's bands before tile `below`'s (all of them: the count). */
static long blocks_below(const struct chip_team *team, const struct loop_plan *plan,
                         int below)
{
    long blocks = 0;
    for (int i = 0; i < below; i++)
        blocks += way_of(&team->tiles[i], plan).strips->blocks;
    return blocks;
}

/* The mapped words a band's waits look at, and every other GPU of the team made
 * reachable (each block's sum goes to every GPU). */
static int open_band(struct tile *t, const struct chip_team *team)
{
    struct cuda_tile *c = t->impl;
    CUDA_CHECK(t, cudaHostAlloc((void **)&c->chip_words_h, 2 * sizeof(int),
                                cudaHostAllocMapped | cudaHostAllocPortable));
    c->chip_words_h[0] = c->chip_words_h[1] = 0;
    CUDA_CHECK(t,
               cudaHostGetDevicePointer((void **)&c->chip_words_d, c->chip_words_h, 0));
    for (int i = 0; i < team->count; i++) {
        const int peer = team->tiles[i].device;
        if (i == t->index)
            continue;
        const int rc = p2p_enable(t->device, peer, t->error, sizeof t->error);
        if (rc < 0)
            return -1;
        if (rc == 0)
            return error_set(t->error, sizeof t->error,
                             "GPU %d cannot reach GPU %d's memory (no peer access): "
                             "the spread strips over several GPUs need it between "
                             "every pair; use --loop auto",
                             t->device, peer);
    }
    return 0;
}

/* The state at the start, the lap's norms and (spread) the meeting, zeroed: this
 * band's blocks meet there and its neighbours' store into it. */
int device_cuda_chip_open(struct tile *t, const struct loop_plan *plan,
                          const struct chip_team *team)
{
    struct cuda_tile *c = t->impl;
    const size_t norms = CHIP_LAP_MOST * sizeof(double);
    const struct spread_plan *strips = way_of(t, plan).strips;
    if (strips) {
        const size_t bytes =
            laplace_spread_meeting_bytes(strips, t->extent->lx, cuda_tile_elem_size(t),
                                         blocks_below(team, plan, team->count));
        CUDA_CHECK(t, cudaMalloc(&c->meeting_d, bytes));
        CUDA_CHECK(t, cudaMemsetAsync(c->meeting_d, 0, bytes, c->stream));
    }
    if (team->count > 1 && open_band(t, team) != 0)
        return -1;
    CUDA_CHECK(t, cudaMalloc((void **)&c->state_d, sizeof *c->state_d));
    CUDA_CHECK(t, cudaMallocHost((void **)&c->state_h, sizeof *c->state_h));
    CUDA_CHECK(t, cudaMalloc((void **)&c->norms_d, norms));
    CUDA_CHECK(t, cudaMallocHost((void **)&c->norms_h, norms));
    *c->state_h = stop_state_start();
    CUDA_CHECK(t, cudaMemcpyAsync(c->state_d, c->state_h, sizeof *c->state_d,
                                  cudaMemcpyHostToDevice, c->stream));
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream)); /* the meeting zeroed for all */
    return 0;
}

/* A field of tile `i` at row `row` (NULL past the team's ends). */
static const void *field_row(const struct chip_team *team, int i, int which, long row)
{
    if (i < 0 || i >= team->count)
        return NULL;
    const struct tile *n = &team->tiles[i];
    const long at = (row < 0 ? n->extent->ly + row : row) * n->extent->lx;
    return (const char *)n->field[which] + (size_t)at * precision_size(n->precision);
}

/* The tile's band of the team's spread strips (a lone tile: all of them). */
static struct spread_band band_of(struct tile *t, const struct loop_plan *plan,
                                  const struct chip_team *team, long ly)
{
    struct cuda_tile *c = t->impl;
    const struct spread_plan *strips = way_of(t, plan).strips;
    if (team->count == 1)
        return laplace_spread_alone(strips, ly, c->meeting_d);
    struct spread_band band = {.gpus = team->count,
                               .gpu = t->index,
                               .first_block = blocks_below(team, plan, t->index),
                               .all_blocks = blocks_below(team, plan, team->count),
                               .row0 = t->extent->y0,
                               .lattice_rows = ly,
                               .stop = c->chip_words_d};
    for (int i = 0; i < team->count; i++)
        band.meetings[i] = ((struct cuda_tile *)team->tiles[i].impl)->meeting_d;
    for (int which = 0; which < 2; which++) {
        band.south[which] = field_row(team, t->index - 1, which, -1);
        band.north[which] = field_row(team, t->index + 1, which, 0);
    }
    return band;
}

/* Raises every band's stop word: a tile failed, so no wait of the others may outlive
 * it. */
static void stop_every_band(const struct chip_team *team)
{
    for (int i = 0; i < team->count; i++) {
        const struct cuda_tile *c = team->tiles[i].impl;
        if (c->chip_words_h)
            ((volatile int *)c->chip_words_h)[0] = 1;
    }
}

/* One lap of `laps` iterations of the tile (its launch: tile) from the state's
 * iteration on, spread (its band) or in the cluster; the state and norms back on the
 * host. */
static int lap(struct tile *t, const struct sweep_launch *tile, struct on_chip way,
               const struct spread_band *band, long laps, const struct stop_rule *rule)
{
    struct cuda_tile *c = t->impl;
    const long done = c->state_h->iteration;
    CUDA_CHECK(t, cuda_tile_injected_fault(t, done + 1, done + laps));
    if (way.strips)
        CUDA_CHECK(t,
                   laplace_spread_loop(way.strips, tile, t->field[0], t->field[1], laps,
                                       c->state_d, c->norms_d, *rule, band, c->stream));
    else
        CUDA_CHECK(t, laplace_chip_loop(way.cluster, tile, t->field[0], t->field[1], laps,
                                        c->state_d, c->norms_d, *rule, c->stream));
    CUDA_CHECK(t, cudaMemcpyAsync(c->state_h, c->state_d, sizeof *c->state_h,
                                  cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(t, cudaMemcpyAsync(c->norms_h, c->norms_d, (size_t)laps * sizeof(double),
                                  cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(t, cudaStreamSynchronize(c->stream));
    if (c->chip_words_h && ((volatile int *)c->chip_words_h)[1])
        return error_set(t->error, sizeof t->error,
                         "a wait for another GPU's strips lasted over %d s (is every "
                         "tile's loop running?)",
                         SPREAD_WAIT_MOST_S);
    return 0;
}

/* One lap of every tile of the team, and the meeting after it: 1 when any tile
 * failed (its failure raised every band's stop word, so every lap ran out). Tile 0's
 * state is the team's decision. */
static int team_lap(struct tile *t, const struct sweep_launch *tile, struct on_chip way,
                    const struct spread_band *band, long laps,
                    const struct stop_rule *rule, struct chip_team *team)
{
    const int rc = lap(t, tile, way, band, laps, rule);
    if (rc != 0)
        stop_every_band(team);
    else if (t->index == 0)
        team->decided = *((struct cuda_tile *)t->impl)->state_h;
    return team->meet(team->context, t, rc);
}

/* Whether the tile's band decided as tile 0's did: every GPU's deciders add the same
 * sums in the same order, so a difference is a defect, never run on. 0, or -1 with
 * t->error set. */
static int agrees_with_tile_0(struct tile *t, const struct chip_team *team)
{
    const struct stop_state *mine = ((struct cuda_tile *)t->impl)->state_h;
    if (mine->stopped == team->decided.stopped &&
        mine->iteration == team->decided.iteration)
        return 0;
    return error_set(t->error, sizeof t->error,
                     "the spread strips over several GPUs disagree: tile %d %s at "
                     "iteration %ld, tile 0 %s at %ld",
                     t->index, mine->stopped ? "stopped" : "ran on", mine->iteration,
                     team->decided.stopped ? "stopped" : "ran on",
                     team->decided.iteration);
}

int device_cuda_chip_run(struct tile *t, const struct loop_plan *plan,
                         const struct stop_rule *rule, struct stop_state *out,
                         const struct loop_watch *watch, struct chip_team *team)
{
    struct cuda_tile *c = t->impl;
    const struct on_chip way = way_of(t, plan);
    *out = stop_state_start();
    const long laps = plan->batch < CHIP_LAP_MOST ? plan->batch : CHIP_LAP_MOST;
    const struct sweep_launch tile = cuda_tile_sweep_launch(t, 1, 0, NULL);
    const long ly =
        team->tiles[team->count - 1].extent->y0 + team->tiles[team->count - 1].extent->ly;
    const struct spread_band band =
        way.strips ? band_of(t, plan, team, ly) : (struct spread_band){0};
    do {
        const long done = c->state_h->iteration;
        if (team_lap(t, &tile, way, &band, laps, rule, team))
            return -1;
        const int rc = agrees_with_tile_0(t, team);
        if (t->index == 0)
            team->stop = show_lap(watch, rule, done, c->state_h, c->norms_h);
        if (team->meet(team->context, t, rc))
            return -1;
        if (team->stop && !c->state_h->stopped)
            stop_state_interrupt(c->state_h);
    } while (!c->state_h->stopped);
    *out = *c->state_h;
    return 0;
}

void device_cuda_chip_free(struct cuda_tile *c)
{
    cudaFree(c->state_d);
    cudaFreeHost(c->state_h);
    cudaFree(c->meeting_d);
    cudaFree(c->norms_d);
    cudaFreeHost(c->norms_h);
    cudaFreeHost(c->chip_words_h);
}

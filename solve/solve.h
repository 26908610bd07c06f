/*
 * solve.h - one solve, as every solver sees it: what it is asked (the settings:
 * the rule, the stop, the watchers' callbacks, the tiles' devices) and what it
 * gives back (the result). The reference (reference.c) and the tiles' loop
 * (solver.c) both take these, and both watch and decide through the few steps
 * below, so a norm is computed, shown and tested at the same iterations in both.
 */
#ifndef LAPLACE_SOLVE_H
#define LAPLACE_SOLVE_H

#include <stddef.h>

#include "devices/device.h"
#include "gpu_partition.h"
#include "problem/problem.h"
#include "problem/stop_rule.h"

/* Takes a norm the loop computed at an iteration; elapsed_s counts from the loop's
 * start. The monitor gets those at multiples of monitor_every, the observer all. */
typedef void (*norm_fn)(void *context, long iteration, double norm, double elapsed_s);

/* Called with the field at every multiple of snapshot_every: the whole, or under MPI
 * on every rank with its part (rank_part.h), shadows filled; returns 0, or -1 with
 * a message in err (the run then stops as failed; under MPI, on every rank alike). */
typedef int (*snapshot_fn)(void *context, long iteration, const struct field *field,
                           char *err, size_t n);

struct solve_result;

/* Called by each tile's thread once the final field is gathered, with its tile:
 * the .pvti pieces. Returns 0, or -1 with a message in err. */
typedef int (*tile_done_fn)(void *context, int tile, const struct partition *partition,
                            const struct field *whole, const struct solve_result *result,
                            char *err, size_t n);

struct solve_settings {
    double eps;         /* stop when the norm (tile.update_rule.norm) < eps */
    long max_iter;      /* stop after this many iterations at most */
    long check_every;   /* compute and test the norm every K iterations */
    long monitor_every; /* also compute the norm every K iterations for monitor (0: never)
                         */
    norm_fn monitor;    /* called with the norm at monitored iterations, or NULL */
    void *monitor_context;
    norm_fn observe; /* called with every norm computed, or NULL */
    void *observe_context;
    int observe_all;     /* 1: observe must see every norm (the history), not only one
                          * per batch of a lone device's loop */
    long snapshot_every; /* gather the field every K iterations for snapshot (0: never) */
    snapshot_fn snapshot;
    void *snapshot_context;
    tile_done_fn tile_done; /* or NULL */
    void *tile_done_context;
    struct tile_settings tile; /* tile.update_rule: the update rule of every backend */
    const int *devices;        /* CUDA device of tile t (ignored by the host backend) */
    enum loop_mode loop;       /* --loop: who drives the iterations */
    int ranks_x, ranks_y;      /* the tiles split into blocks among MPI ranks
                                * (rank_split.h); 0 x 0 or 1 x 1: one process */
    int plan_only;             /* 1: open and connect the tiles, make the loop plan
                                * (solve_result.plan), iterate nothing (--dry-run) */
};

enum { SOLVE_EVERY_RANK = -2 }; /* solve_result.failed_rank: no one rank failed */

enum { BREAKDOWN_TILES = 16 }; /* the tiles whose breakdown the result keeps */

struct solve_result {
    long iterations;
    double final_norm; /* the last computed norm (NAN if none was computed) */
    long final_norm_iteration;
    double nonzero_norm;    /* the last norm that was not 0 (0 if none): where a run
                             * stagnated, the norm before the update became 0 */
    long nonzero_iteration; /* its iteration */
    enum stop_reason reason;
    double time_input_s;    /* allocation, scatter and upload */
    double time_compute_s;  /* the iteration loop */
    double time_output_s;   /* download and gather */
    double time_exchange_s; /* in the MPI exchange of edges between ranks (this
                             * rank's; 0 with one process) */
    long norm_checks;       /* iterations at which the norm was computed */
    struct loop_plan plan;  /* how the tiles' loop was planned (devices/loop_way.h) */
    int batches_ran;        /* the batched plan: 1 once a batch ran (a run shorter
                             * than a batch is all host loop) */
    int sweeps_overlapped;  /* 1: a tile's sweeps were launched to overlap the kernel
                             * before them (programmatic dependent launch) */
    /* LAPLACE_TUNE's breakdown: tile t's passes (the first BREAKDOWN_TILES tiles;
     * iterations 0 where none was measured) */
    struct pass_breakdown breakdown[BREAKDOWN_TILES];
    int peer_fallback_pairs; /* neighbour sides read by copy instead of peer access */
    char peer_fallback[600]; /* which: "GPU 0 <- GPU 1 (east), ..." ("" if none) */
    int failed_device;       /* device of the failing call, -1 if none or the host */
    int failed_rank;         /* MPI rank of the failing call, -1 with one process;
                              * SOLVE_EVERY_RANK: the ranks failed together (a write
                              * they agreed on), its message names the file */
    char failed_node[64];    /* the node of that rank */
    char error[600];         /* what failed, when reason == STOP_FAILED */
};

/* The result before a solve: nothing done, no norm, no failing device or rank. */
void solve_result_start(struct solve_result *r);

/* The stop rule of these settings, once the norm's scale is fitted to the problem
 * (update_rule_fit_norm on s->tile.update_rule). */
struct stop_rule solve_stop_rule(const struct solve_settings *s);

/* Whether the norm is computed at this iteration (1-based): the rule's checks and
 * the monitor's iterations. */
int solve_wants_norm(const struct solve_settings *s, const struct stop_rule *rule,
                     long iteration);

/* Hands a norm computed at an iteration to the monitor (at its multiples) and to
 * the observer; elapsed_s counts from the start of the loop. */
void solve_note_norm(const struct solve_settings *s, long iteration, double norm,
                     double elapsed_s);

/*
 * The decision after iteration k of a loop the host drives, counted into state
 * (stop_rule_decide; `signal`: one that asked to stop, or 0); a norm computed at
 * k (has_norm) goes to the monitor and the history first. Returns state->stopped.
 */
int solve_decide(const struct solve_settings *s, const struct stop_rule *rule,
                 struct stop_state *state, long k, int has_norm, double norm,
                 double elapsed_s, int signal);

/* Copies a loop's count, last norm and (once stopped) reason into the result. */
void solve_report_state(struct solve_result *r, const struct stop_state *state);

#endif

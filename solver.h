/*
 * solver.h - the one iteration loop: one OpenMP thread per device (or host
 * tile), block partial sums gathered on the host, and the stopping test.
 */
#ifndef LAPLACE_SOLVER_H
#define LAPLACE_SOLVER_H

#include "devices/device.h"
#include "gpu_partition.h"
#include "problem/problem.h"

/* Takes a norm the loop computed at an iteration; elapsed_s counts from the loop's
 * start. The monitor gets those at multiples of monitor_every, the observer all. */
typedef void (*norm_fn)(void *context, long iteration, double norm, double elapsed_s);

/* Called with the whole field at every multiple of snapshot_every; returns 0, or
 * -1 with a message in error (the run then stops as failed). */
typedef int (*snapshot_fn)(void *context, long iteration, const struct field *field,
                           char *err, size_t n);

struct solve_result;

/* Called by each tile's thread once the final field is gathered, with its tile:
 * the .pvti pieces. Returns 0, or -1 with a message in error. */
typedef int (*tile_done_fn)(void *context, int tile, const struct partition *partition,
                            const struct field *whole, const struct solve_result *result,
                            char *err, size_t n);

struct solve_settings {
    double eps;         /* stop when the norm (tile.rule.norm) < eps */
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
    struct tile_settings tile; /* tile.rule: the update rule of every backend */
    const int *devices;        /* CUDA device of tile t (ignored by the host backend) */
    enum loop_mode loop;       /* --loop: who drives the iterations */
    int ranks_x, ranks_y;      /* the tiles split into blocks among MPI ranks
                                * (solver_ranks.h); 0 x 0 or 1 x 1: one process */
};

struct solve_result {
    long iterations;
    double final_norm; /* the last computed norm (NAN if none was computed) */
    long final_norm_iteration;
    enum stop_reason reason;
    double time_input_s;     /* allocation, scatter and upload */
    double time_compute_s;   /* the iteration loop */
    double time_output_s;    /* download and gather */
    long norm_checks;        /* iterations at which the norm was computed */
    long loop_batch;         /* iterations a batch when the devices ran the loop in
                              * batches; 0: the host drove every iteration */
    int peer_fallback_pairs; /* neighbour sides read by copy instead of peer access */
    char peer_fallback[600]; /* which: "GPU 0 <- GPU 1 (east), ..." ("" if none) */
    int failed_device;       /* device of the failing call, -1 if none or the host */
    int failed_rank;         /* MPI rank of the failing call, -1 with one process */
    char failed_node[64];    /* the node of that rank */
    char error[600];         /* what failed, when reason == STOP_FAILED */
};

/* Whether the norm is needed at this iteration (1-based). */
int solver_wants_norm(const struct solve_settings *s, long iteration);

/* Hands a norm computed at an iteration to the monitor (at its multiples) and to
 * the observer; elapsed_s counts from the start of the loop. */
void solver_note_norm(const struct solve_settings *s, long iteration, double norm,
                      double elapsed_s);

/* The stop_rule of device.h for these settings. */
struct stop_rule solver_stop_rule(const struct solve_settings *s);

/*
 * The decision after iteration k of a loop the host drives, counted into state
 * (stop_rule.h's rule, then `signal`: one that asked to stop, or 0); a norm
 * computed at k (has_norm) goes to the monitor and the history first. Returns
 * state->stopped.
 */
int solver_decide(const struct solve_settings *s, struct stop_state *state, long k,
                  int has_norm, double norm, double elapsed_s, int signal);

/* Copies a loop's count, last norm and (once stopped) reason into the result. */
void solver_report_state(struct solve_result *r, const struct stop_state *state);

/*
 * Solves the problem on the tiles of the partition with the given device
 * implementation, one OpenMP thread per tile. Writes the final field into out
 * (allocated here). Returns 0 when the loop ran (converged or not; see
 * result->reason), -1 when a device failed or memory ran out (result->error);
 * then out holds nothing and needs no field_free.
 */
int solver_run(const struct device_ops *ops, const struct problem *problem,
               const struct partition *partition, const struct solve_settings *settings,
               struct field *out, struct solve_result *result);

const char *stop_reason_text(enum stop_reason reason);

/*
 * How many threads OpenMP gives a parallel region started here (solver_run's
 * one thread per tile); *variable names the setting that limits it
 * (OMP_THREAD_LIMIT, OMP_MAX_ACTIVE_LEVELS), NULL when nothing does.
 */
int solver_thread_limit(const char **variable);

#endif

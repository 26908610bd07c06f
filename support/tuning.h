/*
 * tuning.h - the GPU loops' tuning knobs (tuning.c): one environment variable,
 * LAPLACE_TUNE, a comma-separated list of KEY=VALUE, read once per run into the
 * loop plan's inputs and refused in one line when a key or a value is not known.
 * Every knob is an experiment's or the GPU suite's way to force one mechanism where
 * auto would take another; unset, each is auto (TUNING_AUTO).
 *
 *   LAPLACE_TUNE=chip_way=spread,spread_depth=0,spread_lag=1 ./laplace ...
 */
#ifndef LAPLACE_TUNING_H
#define LAPLACE_TUNING_H

#include <stddef.h>

/* The environment variable. */
#define TUNING_VARIABLE "LAPLACE_TUNE"

/* A knob left to the plan. */
#define TUNING_AUTO (-1)

/* The loop on chip's way (chip_way). */
enum { TUNING_WAY_CLUSTER = 1, TUNING_WAY_SPREAD = 2 };

/* How tiles stacked in rows meet once a pass (pass_meeting). */
enum { TUNING_MEET_GRAPH = 0, TUNING_MEET_FLAGS = 1 };

/* The rows kernel's order of rows of blocks (sweep_order). */
enum { TUNING_ORDER_FORWARD = 0, TUNING_ORDER_ALTERNATE = 1 };

/* The knobs; each TUNING_AUTO unless LAPLACE_TUNE sets it. */
struct tuning {
    int chip_way;       /* cluster or spread: the loop on chip takes only that way */
    int chip_depth;     /* 0-8: the cluster's rounds (plain Jacobi); 0 every iteration */
    int spread_depth;   /* 0-4: the spread strips' halo rows, the depth tried first */
    int spread_lag;     /* 1-4: how many iterations late the spread decision may come */
    int spread_blocks;  /* 2-160: the spread strips' blocks (at most one a
                           multiprocessor; more are taken as the most) */
    int spread_columns; /* 0: the fields in shared memory where columns would fit */
    int spread_unroll;  /* 3 or 4: the rows a spread thread walks at a time */
    int sweep_order;    /* forward or alternate: the rows kernel's order */
    int pairs;          /* 0: never passes of two iterations; 1: wherever batches run */
    int pass_meeting;   /* graph or flags: how stacked tiles' passes meet */
    int breakdown;      /* 1: CUDA events around every pass of two in the batches'
                           graphs, and the report's breakdown of an iteration */
};

/* Every knob auto. */
struct tuning tuning_auto(void);

/*
 * The knobs of `text` (LAPLACE_TUNE's value; NULL or "" sets none) into *out.
 * Returns 0, or -1 with one line in err naming the key or value refused and what is
 * allowed.
 */
int tuning_parse(const char *text, struct tuning *out, char *err, size_t n);

/* tuning_parse of the environment's LAPLACE_TUNE; a variable that read a knob before
 * it (LAPLACE_PAIRS, LAPLACE_OVERLAP, ...) and is set is refused, naming its
 * replacement. */
int tuning_read(struct tuning *out, char *err, size_t n);

/* The keys and their values, one line each, for --help. */
const char *tuning_help(void);

#endif

/*
 * config.h - every setting of a run: built-in defaults, then an INI file, then
 * command-line options, each later one overriding the earlier.
 *
 * INI keys are named like the long options and grouped in sections:
 *   [problem]  nx ny lx ly top bottom left right source exact region precision
 *   [region NAME]  shape x0 y0 x1 y1 | cx cy r, value   (one section per region)
 *   [solver]   method omega eps norm max-iter check-every steps snapshot-every
 *              error-if-not-converged
 *   [parallel] backend partition ranks devices block kernel reduce loop no-p2p compare
 *              compare-cpu
 *   [output]   monitor history csv csv-append output png-tiles png-range quiet
 *
 * A file is UTF-8 text without control characters (tabs and CRLF ends allowed),
 * lines of at most 198 bytes (libinih's buffer), each key once per section (output
 * and region may repeat), no indented continuation lines; an empty file, or one of
 * comments only, means all defaults. Anything else is refused with file:line.
 */
#ifndef LAPLACE_CONFIG_H
#define LAPLACE_CONFIG_H

#include <stddef.h>
#include <stdio.h>

#include "devices/device.h"
#include "p2p.h"
#include "problem/problem.h"
#include "problem/update_rule.h"
#include "support/error.h"

#define CONFIG_MAX_DEVICES P2P_MAX_DEVICES
#define CPU_TILES_MAX 1024 /* host tiles, one OpenMP thread each */
#define CONFIG_MAX_OUTPUTS 16
#define CONFIG_PATH_MAX 1024
#define CONFIG_ERROR_MAX 1200

#define OMEGA_UNSET 0.0
#define OMEGA_AUTO (-1.0)
#define WEIGHTED_OMEGA_DEFAULT (2.0 / 3.0)
#define CONFIG_SIDES_MAX 32 /* sides of one --sides sweep */

enum backend { BACKEND_AUTO, BACKEND_GPU, BACKEND_CPU, BACKEND_SERIAL };

struct config {
    struct problem problem;

    /* [solver] */
    enum method method;
    double omega; /* OMEGA_UNSET: the method's default; OMEGA_AUTO: SOR's optimum */
    enum norm_kind norm;
    long steps;          /* 0: iterate to eps; N: exactly N iterations */
    long snapshot_every; /* 0: no snapshots */
    double eps;
    long max_iter;
    long check_every;
    int error_if_not_converged; /* max-iter reached with an eps: status 1 */

    /* [parallel] */
    enum backend backend;
    int partition_x, partition_y; /* NGx x NGy; 0 x 0: auto, resolved by main */
    int devices[CONFIG_MAX_DEVICES];
    int device_count; /* 0: every visible device */
    int block_x, block_y;
    char kernel[32];
    enum reduce_mode reduce;
    enum loop_mode loop; /* --loop auto|host|batched */
    struct tuning tune;  /* LAPLACE_TUNE's knobs (support/tuning.h), read by
                            plan_resolve */
    int use_p2p;
    int compare;          /* also solve on one device of the same backend */
    int compare_cpu;      /* also solve on the host tiles, every core */
    int partition_auto;   /* --partition auto, resolved by plan_resolve */
    char partition_why[200]; /* --partition auto on GPUs: how many and why
                                (plan/gpu_layout.c); "" otherwise */
    int max_iter_typed;   /* --max-iter was given on the command line: that limit was
                             chosen for this run, and is not warned about */
    long file_side;       /* the side of the square lattice the INI file set, 0: none */
    char typed_side;      /* 'x' or 'y': the one side --nx or --ny set, over the file's;
                           * 0: none or both (a run then says it is not square) */
    int backend_auto;     /* --backend auto, resolved by plan_resolve */
    int ranks_x, ranks_y; /* MPI ranks' blocks of tiles; 0 x 0: auto (ranks.h) */
    int world_size;       /* the ranks started by mpirun or srun, 1 without (set by
                           * plan_resolve) */

    /* [output] */
    long monitor_every; /* 0: no monitor */
    int csv;
    int quiet;
    char outputs[CONFIG_MAX_OUTPUTS][CONFIG_PATH_MAX];
    int output_count;
    int png_tiles;              /* draw the tile borders on .png outputs */
    char exact[EXPRESSION_MAX]; /* --exact: a known solution u(x, y), or "" */
    int png_range;              /* --png-range given: colours span png_lo..png_hi */
    double png_lo, png_hi;
    char history[CONFIG_PATH_MAX]; /* --history FILE.csv, empty when none */
    /* --csv-append FILE: the CSV rows are added to it ("" when none) */
    char csv_append[CONFIG_PATH_MAX];

    /* actions */
    int show_help, show_version, show_topology;
    int bench;                         /* --bench: the benchmark matrix (bench.c) */
    long sides[CONFIG_SIDES_MAX];      /* --sides: the lab sweep's lattice sides */
    int side_count;                    /* 0: no sweep */
    char config_file[CONFIG_PATH_MAX]; /* empty when none was given */
    /* --print-config: the settings as an INI file; --dry-run: the plan and its
     * memory; each then exits */
    int print_config, dry_run;
};

void config_defaults(struct config *c);

/*
 * Reads argv: an optional INI file (the one positional argument) first, then
 * the options. Returns 0, or EXIT_BAD_USAGE with one line in err naming the
 * option or file:line and what is wrong.
 */
int config_from_args(struct config *c, int argc, char **argv, char *err, size_t n);

/* Applies one INI file; the same errors as above, named file:line. */
int config_load_file(struct config *c, const char *path, char *err, size_t n);

/* Sets one setting by its long-option name (also the INI key). */
int config_set(struct config *c, const char *name, const char *value, char *err,
               size_t n);

/* Checks relations between settings (partition against lattice, block size,
 * method against omega, formulas on the lattice). */
int config_validate(const struct config *c, char *err, size_t n);

/* The GPU's way of adding the block sums or reading the neighbours' edges that c
 * asks for ("--reduce device", "--no-p2p"), which the host backends cannot honour;
 * NULL when none. */
const char *config_gpu_mechanism(const struct config *c);

/* The update rule of the configured method, omega and norm (update_rule.h): for
 * the checks here and for plan_make, which keeps it in the plan. */
struct update_rule config_update_rule(const struct config *c);

/* Whether the run shows the monitor's norms as it goes (--monitor, unless --csv or
 * -q): watchers.c shows them, and the plan's loops let the host watch. */
int config_shows_monitor(const struct config *c);

/* Prints the help text: every option with its default. */
void config_print_help(const char *program);

/* Prints the settings as an INI file that config_load_file reads back into the
 * same settings (--print-config); the command-line-only actions are left out. */
void config_print_ini(FILE *out, const struct config *c);

const char *backend_name(enum backend backend);

#endif

/*
 * config_validate.c - the relations between settings that no one setting can check
 * (config_validate: method against omega, partition against lattice and backend,
 * devices against tiles, kernel against the update rule, the problem's formulas and
 * regions), and the values derived from the settings (the update rule, the
 * iterations and tolerance the loop runs with).
 */
#include "settings/config_internal.h"

#include <float.h>
#include <math.h>

#include "laplace_kernels.h"
#include "problem/update_rule.h"

/* The method against omega: refuses settings that cannot converge. */
static int validate_method(const struct config *c, char *err, size_t n)
{
    double w = c->omega;
    char text[NUMBER_TEXT_MAX];
    if (c->method == METHOD_JACOBI && w != OMEGA_UNSET)
        return error_status(
            EXIT_BAD_USAGE, err, n,
            "--omega: plain Jacobi has no relaxation factor; use --method "
            "weighted or sor");
    if (c->method == METHOD_WEIGHTED && w == OMEGA_AUTO)
        return error_status(
            EXIT_BAD_USAGE, err, n,
            "--omega: auto is the optimum of SOR; weighted Jacobi needs 0 < W <= 1");
    if (c->method == METHOD_WEIGHTED && w > 1.0)
        return error_status(
            EXIT_BAD_USAGE, err, n,
            "--omega: weighted Jacobi with W = %s > 1 does not converge (and is "
            "an unstable heat step); use 0 < W <= 1",
            number_text(w, text));
    if (c->method == METHOD_SOR && w != OMEGA_UNSET && w != OMEGA_AUTO &&
        (w < 1.0 || w >= 2.0))
        return error_status(
            EXIT_BAD_USAGE, err, n,
            "--omega: SOR over-relaxes with 1 <= W < 2 (W >= 2 does not converge; "
            "for W < 1 use --method weighted), got %s",
            number_text(w, text));
    if (c->method == METHOD_SOR && c->steps > 0)
        return error_status(
            EXIT_BAD_USAGE, err, n,
            "--steps: SOR iterations are not time steps; use --method weighted "
            "(or jacobi)");
    return 0;
}

/* The problem's formulas and regions, and the kernel against the rule. */
/* The largest |value| of edge e's formula along its edge (problem_value_bound of
 * the problem with that edge alone), so that exp(700) is refused in float as 3.5e38
 * is, before the run, rather than run and reported diverged. */
static double formula_edge_largest(const struct problem *p, int e)
{
    struct problem alone = *p;
    alone.region_count = 0;
    alone.top = alone.bottom = alone.left = alone.right = 0.0;
    for (int other = 0; other < EDGE_COUNT; other++)
        if (other != e)
            alone.edge_formula[other][0] = '\0';
    return problem_value_bound(&alone, 0.0);
}

/* The largest |value| an edge or a region may hold in the working precision: a
 * quarter of its largest number, so that a site's sum of four neighbours (formed
 * before the division, DESIGN.md's order) stays finite, as every site's value
 * lies within the edges' and regions' values. */
static double largest_value(enum precision precision)
{
    return (precision == PRECISION_FLOAT ? (double)FLT_MAX : DBL_MAX) / 4.0;
}

/* An edge or region value the arithmetic cannot hold: refused, named, before the
 * run (it would end "diverged" on an infinite sum). */
static int validate_values(const struct config *c, char *err, size_t n)
{
    const struct problem *p = &c->problem;
    const char *edges[EDGE_COUNT] = {"top", "bottom", "left", "right"};
    const double values[EDGE_COUNT] = {p->top, p->bottom, p->left, p->right};
    const double limit = largest_value(p->precision);
    const char *name = precision_name(p->precision);
    for (int e = 0; e < EDGE_COUNT; e++) {
        double largest = p->edge_formula[e][0] ? formula_edge_largest(p, e) : values[e];
        if (fabs(largest) > limit)
            return error_status(
                EXIT_BAD_USAGE, err, n,
                "--%s: %s%s%g, beyond the largest %s whose sum of four "
                "neighbours stays finite (%g, a quarter of its largest "
                "number)%s",
                edges[e], p->edge_formula[e], p->edge_formula[e][0] ? " reaches " : "",
                largest, name, limit,
                p->precision == PRECISION_FLOAT ? "; use --precision double" : "");
    }
    for (int k = 0; k < p->region_count; k++)
        if (fabs(p->regions[k].value) > limit)
            return error_status(
                EXIT_BAD_USAGE, err, n,
                "--region: value %g is beyond the largest %s whose sum "
                "of four neighbours stays finite (%g, a quarter of its "
                "largest number)%s",
                p->regions[k].value, name, limit,
                p->precision == PRECISION_FLOAT ? "; use --precision double" : "");
    return 0;
}

static int validate_problem(const struct config *c, char *err, size_t n)
{
    char why[WHY_MAX];
    if (validate_values(c, err, n) != 0)
        return EXIT_BAD_USAGE;
    for (int k = 0; k < c->problem.region_count; k++)
        if (region_complete(&c->problem.regions[k], why, sizeof why) != 0)
            return error_status(EXIT_BAD_USAGE, err, n, "%s", why);
    if (problem_check(&c->problem, why, sizeof why) != 0)
        return error_status(EXIT_BAD_USAGE, err, n, "[problem] %s", why);
    struct update_rule rule = config_update_rule(c);
    int kernel = kernel_by_name(c->kernel);
    if (!update_rule_is_plain_jacobi(&rule) && kernel != KERNEL_AUTO &&
        kernel != KERNEL_GENERAL)
        return error_status(
            EXIT_BAD_USAGE, err, n,
            "--kernel: %s runs only plain Jacobi with the l2 or residual norm on "
            "a square grid without source or regions; use auto or general",
            c->kernel);
    if (c->snapshot_every > 0 && c->output_count == 0)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--snapshot-every: needs at least one --output FILE");
    return 0;
}

int config_shows_monitor(const struct config *c)
{
    return !c->csv && !c->quiet && c->monitor_every > 0;
}

struct update_rule config_update_rule(const struct config *c)
{
    double w = c->omega;
    if (c->method == METHOD_WEIGHTED && w == OMEGA_UNSET)
        w = WEIGHTED_OMEGA_DEFAULT;
    if (c->method == METHOD_SOR && w == OMEGA_UNSET)
        w = OMEGA_AUTO;
    return update_rule_make(&c->problem, c->method, w, c->norm);
}

const char *config_gpu_mechanism(const struct config *c)
{
    return c->reduce == REDUCE_DEVICE ? "--reduce device"
           : !c->use_p2p              ? "--no-p2p"
                                      : NULL;
}

/* What the host backends would silently ignore or repeat: a GPU kernel's name, a
 * GPU's way of adding sums or reading edges, and --compare-cpu on host tiles laid
 * out as the comparison lays them out. */
static int validate_host(const struct config *c, char *err, size_t n)
{
    int host = c->backend == BACKEND_CPU || c->backend == BACKEND_SERIAL;
    const char *mechanism = config_gpu_mechanism(c);
    if (host && kernel_by_name(c->kernel) != KERNEL_AUTO)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--kernel: %s is a GPU kernel; the %s backend has one sweep "
                            "(leave --kernel auto, or use --backend gpu)",
                            c->kernel, backend_name(c->backend));
    if (host && mechanism)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "%s: a GPU option; the %s backend adds its sums and reads "
                            "its neighbours' edges on the host (leave it out, or use "
                            "--backend gpu)",
                            mechanism, backend_name(c->backend));
    if (c->backend == BACKEND_CPU && c->compare_cpu &&
        (c->partition_x == 0 || c->partition_auto))
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--compare-cpu: this run is already the host tiles on every "
                            "core (backend cpu, partition auto); give --partition AxB "
                            "or use --backend gpu");
    return 0;
}

/* A macro's value as a string literal, for messages. */
#define STRINGIFY(m) STRINGIFY_(m)
#define STRINGIFY_(m) #m

/* --loop chip: one GPU tile, or tiles stacked in rows (1xN) whose GPUs run the spread
 * strips together, iterating with its own kernel, the host looking in once a lap
 * (devices/device_cuda_chip.c). */
static int validate_chip(const struct config *c, char *err, size_t n)
{
    const int stacked =
        c->partition_x == 1 && c->partition_y >= 1 && c->partition_y <= SPREAD_MOST_GPUS;
    const char *why =
        c->backend == BACKEND_CPU || c->backend == BACKEND_SERIAL
            ? "runs on a GPU; use --backend gpu"
        : !stacked || c->world_size > 1
            ? "runs one tile, or tiles stacked in rows; use --partition "
              "1x1 or 1xN (N up to " STRINGIFY(SPREAD_MOST_GPUS) ") "
                                                                 "and one process"
        : kernel_by_name(c->kernel) != KERNEL_AUTO || c->block_x > 0
            ? "runs its own kernel; leave --kernel and --block auto"
        : c->monitor_every > 0 || c->snapshot_every > 0
            ? "shows the host only its laps; --monitor and "
              "--snapshot-every need --loop host or auto"
            : NULL;
    if (c->loop != LOOP_CHIP || !why)
        return 0;
    return error_status(EXIT_BAD_USAGE, err, n, "--loop chip: the loop on chip %s", why);
}

/* The ranks mpirun started against --ranks and the tiles: every rank gets a
 * block of the same shape. */
static int validate_ranks(const struct config *c, char *err, size_t n)
{
    int world = c->world_size > 1 ? c->world_size : 1;
    if (c->ranks_x > 0 && c->ranks_x * c->ranks_y != world)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--ranks %dx%d: %d ranks, but %d process%s started (run "
                            "it as mpirun -np %d ./laplace ...)",
                            c->ranks_x, c->ranks_y, c->ranks_x * c->ranks_y, world,
                            world > 1 ? "es were" : " was", c->ranks_x * c->ranks_y);
    if (world == 1)
        return 0;
    if (c->backend == BACKEND_SERIAL)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--backend serial: the reference runs in one process; use "
                            "cpu or gpu under mpirun");
    if (c->ranks_x == 0)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--partition %dx%d: its tiles cannot be split evenly among "
                            "%d ranks; give a partition they can share, or --ranks",
                            c->partition_x, c->partition_y, world);
    if (c->partition_x % c->ranks_x != 0 || c->partition_y % c->ranks_y != 0)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--ranks %dx%d: the %dx%d tiles of --partition cannot be "
                            "split into %dx%d equal blocks",
                            c->ranks_x, c->ranks_y, c->partition_x, c->partition_y,
                            c->ranks_x, c->ranks_y);
    return 0;
}

int config_validate(const struct config *c, char *err, size_t n)
{
    if (validate_method(c, err, n) != 0 || validate_problem(c, err, n) != 0)
        return EXIT_BAD_USAGE;
    long inner_x = c->problem.nx - 2, inner_y = c->problem.ny - 2;
    if (c->partition_x > inner_x || c->partition_y > inner_y)
        return error_status(
            EXIT_BAD_USAGE, err, n,
            "--partition: %dx%d tiles need at least %dx%d interior sites; the "
            "lattice %ldx%ld has %ldx%ld",
            c->partition_x, c->partition_y, c->partition_x, c->partition_y, c->problem.nx,
            c->problem.ny, inner_x, inner_y);
    if (c->backend == BACKEND_CPU && c->partition_x * c->partition_y > CPU_TILES_MAX)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--partition: %dx%d host tiles; at most %d (one thread each)",
                            c->partition_x, c->partition_y, CPU_TILES_MAX);
    if (c->backend == BACKEND_SERIAL && c->partition_x * c->partition_y > 1 &&
        c->world_size <= 1)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--partition: the serial backend has one tile; use "
                            "--backend cpu or gpu to split the lattice");
    if (c->backend == BACKEND_SERIAL && (c->compare || c->compare_cpu))
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--compare%s: the serial backend has nothing to compare; use "
                            "--backend gpu or cpu",
                            c->compare ? "" : "-cpu");
    if (validate_host(c, err, n) != 0 || validate_ranks(c, err, n) != 0 ||
        validate_chip(c, err, n) != 0)
        return EXIT_BAD_USAGE;
    /* --devices names one GPU a tile (of a rank, under MPI): the GPUs need exactly
     * that many (the host tiles ignore the list, but never accept fewer) */
    int tiles = c->partition_x * c->partition_y / (c->world_size > 1 ? c->world_size : 1);
    if (c->device_count > 0 && (c->device_count < tiles ||
                                (c->backend == BACKEND_GPU && c->device_count != tiles)))
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--devices: %d devices listed for %dx%d tiles",
                            c->device_count, c->partition_x, c->partition_y);
    return 0;
}

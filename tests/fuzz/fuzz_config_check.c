/*
 * fuzz_config_check.c - the invariants of fuzz_config_check.h. Each check is a
 * promise of config.c (its setters and config_validate) or of problem.h.
 */
#include "fuzz_config_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem/expression.h"
#include "laplace_kernels.h"

void fuzz_require(int condition, const char *what)
{
    if (condition)
        return;
    fprintf(stderr, "fuzz: invariant broken: %s\n", what);
    abort();
}

void fuzz_check_result(int rc, const char *err, size_t errlen)
{
    if (rc == 0)
        return;
    fuzz_require(rc == EXIT_BAD_USAGE, "a refusal returns EXIT_BAD_USAGE");
    size_t len = strnlen(err, errlen);
    fuzz_require(len < errlen, "err is terminated inside its buffer");
    fuzz_require(len > 0, "a refusal says why");
    fuzz_require(strchr(err, '\n') == NULL, "err is one line");
}

static int terminated(const char *s, size_t size)
{
    return strnlen(s, size) < size;
}

/* An edge or source formula: empty, or one that expression_parse accepts. */
static int formula_ok(const char *text)
{
    struct expression *e;
    char why[256];
    if (!terminated(text, EXPRESSION_MAX))
        return 0;
    if (text[0] == '\0')
        return 1;
    if (expression_parse(text, &e, why, sizeof why) != 0)
        return 0;
    expression_free(e);
    return 1;
}

static void check_problem(const struct problem *p)
{
    fuzz_require(p->nx >= 3 && p->ny >= 3, "the lattice is at least 3x3");
    fuzz_require(p->nx <= (1L << 24) && p->ny <= (1L << 24), "nx, ny <= 2^24");
    fuzz_require(isfinite(p->lx) && p->lx >= 0 && isfinite(p->ly) && p->ly >= 0,
                 "lx, ly finite, 0 (default) or more");
    fuzz_require(isfinite(p->top) && isfinite(p->bottom) && isfinite(p->left) &&
                     isfinite(p->right),
                 "edge numbers finite");
    for (int edge = 0; edge < EDGE_COUNT; edge++)
        fuzz_require(formula_ok(p->edge_formula[edge]), "edge formulas parse");
    fuzz_require(formula_ok(p->source), "the source parses");
    fuzz_require(p->precision == PRECISION_FLOAT || p->precision == PRECISION_DOUBLE,
                 "precision float or double");
    fuzz_require(p->region_count >= 0 && p->region_count <= REGIONS_MAX,
                 "at most REGIONS_MAX regions");
    for (int k = 0; k < p->region_count; k++) {
        const struct region *r = &p->regions[k];
        fuzz_require(terminated(r->name, sizeof r->name) && r->name[0],
                     "a region has a name");
        fuzz_require(r->shape == REGION_RECT || r->shape == REGION_DISC,
                     "a region is a rect or a disc");
        fuzz_require(r->shape == REGION_RECT || (isfinite(r->r) && r->r > 0),
                     "a disc's radius is more than 0");
        fuzz_require(isfinite(r->x0) && isfinite(r->y0) && isfinite(r->x1) &&
                         isfinite(r->y1) && isfinite(r->cx) && isfinite(r->cy) &&
                         isfinite(r->value),
                     "region numbers finite");
    }
}

static void check_solver(const struct config *c)
{
    double w = c->omega;
    fuzz_require(c->method >= METHOD_JACOBI && c->method <= METHOD_SOR, "method known");
    fuzz_require(c->norm >= NORM_L2 && c->norm <= NORM_RESIDUAL, "norm known");
    fuzz_require(c->method != METHOD_JACOBI || w == OMEGA_UNSET, "jacobi: no omega");
    fuzz_require(c->method != METHOD_WEIGHTED || w == OMEGA_UNSET || (w > 0 && w <= 1),
                 "weighted: 0 < omega <= 1");
    fuzz_require(c->method != METHOD_SOR || w == OMEGA_UNSET || w == OMEGA_AUTO ||
                     (w >= 1 && w < 2),
                 "sor: 1 <= omega < 2 or auto");
    fuzz_require(c->method != METHOD_SOR || c->steps == 0, "sor: no --steps");
    fuzz_require(isfinite(c->eps) && c->eps >= 0, "eps finite, 0 or more");
    fuzz_require(c->max_iter >= 1 && c->check_every >= 1, "max-iter, check-every >= 1");
    fuzz_require(c->steps >= 0 && c->snapshot_every >= 0 && c->monitor_every >= 0,
                 "steps, snapshot-every, monitor >= 0");
    fuzz_require((c->steps > 0 ? c->steps : c->max_iter) >= 1,
                 "the loop runs at least one iteration");
    fuzz_require(c->snapshot_every == 0 || c->output_count > 0,
                 "snapshots need an output");
}

static void check_parallel(const struct config *c)
{
    long inner_x = c->problem.nx - 2, inner_y = c->problem.ny - 2;
    fuzz_require(c->backend >= BACKEND_AUTO && c->backend <= BACKEND_SERIAL,
                 "backend known");
    fuzz_require((c->partition_x == 0) == (c->partition_y == 0),
                 "partition auto or both parts given");
    fuzz_require(c->partition_x >= 0 && c->partition_x <= inner_x &&
                     c->partition_y >= 0 && c->partition_y <= inner_y,
                 "partition within the interior");
    fuzz_require(c->device_count >= 0 && c->device_count <= CONFIG_MAX_DEVICES,
                 "device count in range");
    for (int i = 0; i < c->device_count; i++) /* a device may hold several tiles */
        fuzz_require(c->devices[i] >= 0 && c->devices[i] <= 1023, "device id in range");
    fuzz_require(c->loop == LOOP_AUTO || c->loop == LOOP_HOST || c->loop == LOOP_BATCHED,
                 "loop mode known");
    fuzz_require(
        (c->block_x == 0 && c->block_y == 0) ||
            (c->block_x >= 1 && c->block_y >= 1 && c->block_x * c->block_y <= 1024),
        "block auto or at most 1024 threads");
    fuzz_require(terminated(c->kernel, sizeof c->kernel) &&
                     kernel_by_name(c->kernel) >= 0,
                 "kernel known");
    fuzz_require(c->reduce == REDUCE_HOST || c->reduce == REDUCE_DEVICE, "reduce known");
}

static void check_output(const struct config *c)
{
    fuzz_require(c->output_count >= 0 && c->output_count <= CONFIG_MAX_OUTPUTS,
                 "output count in range");
    for (int i = 0; i < c->output_count; i++) {
        fuzz_require(strnlen(c->outputs[i], CONFIG_PATH_MAX) < CONFIG_PATH_MAX - 16,
                     "output path leaves room for snapshot suffixes");
        fuzz_require(strrchr(c->outputs[i], '.') != NULL, "output has an extension");
        for (int j = 0; j < i; j++)
            fuzz_require(strcmp(c->outputs[i], c->outputs[j]) != 0, "outputs distinct");
    }
    fuzz_require(terminated(c->history, sizeof c->history), "history terminated");
    size_t h = strlen(c->history);
    fuzz_require(h == 0 || (h >= 4 && strcmp(c->history + h - 4, ".csv") == 0),
                 "history is a .csv file");
    fuzz_require(terminated(c->config_file, sizeof c->config_file),
                 "config_file terminated");
}

void fuzz_check_config(const struct config *c)
{
    check_problem(&c->problem);
    check_solver(c);
    check_parallel(c);
    check_output(c);
}

int fuzz_validation_is_slow(const struct config *c)
{
    return c->problem.source[0] && (double)c->problem.nx * (double)c->problem.ny > 1e6;
}

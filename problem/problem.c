/*
 * problem.c - the lattice: its size and spacing, its boundary values, sources and
 * regions, the initial field and the per-site terms of a solve.
 */
#include "problem/problem.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "support/error.h"
#include "problem/expression.h"

void problem_size(const struct problem *problem, double *lx, double *ly)
{
    double cells_x = (double)(problem->nx - 1), cells_y = (double)(problem->ny - 1);
    *lx = problem->lx > 0 ? problem->lx : 1.0;
    *ly = problem->ly;
    if (problem->lx <= 0 && problem->ly > 0)
        *lx = problem->ly / cells_y * cells_x; /* square cells from the height */
    if (problem->ly <= 0)
        *ly = *lx / cells_x * cells_y; /* square cells from the width */
}

void problem_spacing(const struct problem *problem, double *dx, double *dy)
{
    double lx, ly;
    problem_size(problem, &lx, &ly);
    *dx = lx / (double)(problem->nx - 1);
    *dy = ly / (double)(problem->ny - 1);
    if (problem->lx <= 0 || problem->ly <= 0)
        *dy = *dx; /* square cells: exactly, whatever the rounding above */
}

double problem_source_term(const struct problem *problem, double f)
{
    double dx, dy;
    problem_spacing(problem, &dx, &dy);
    double dx2 = dx * dx, dy2 = dy * dy;
    return -f * dx2 * dy2 / (2.0 * (dx2 + dy2));
}

double problem_site_x(const struct problem *problem, long i)
{
    double lx, ly;
    problem_size(problem, &lx, &ly);
    return lx * (double)i / (double)(problem->nx - 1);
}

double problem_site_y(const struct problem *problem, long j)
{
    double lx, ly;
    problem_size(problem, &lx, &ly);
    return ly * (double)j / (double)(problem->ny - 1);
}

int region_contains(const struct problem *problem, const struct region *r, long i, long j)
{
    double x = problem_site_x(problem, i), y = problem_site_y(problem, j);
    if (r->shape == REGION_DISC)
        return (x - r->cx) * (x - r->cx) + (y - r->cy) * (y - r->cy) <= r->r * r->r;
    return x >= fmin(r->x0, r->x1) && x <= fmax(r->x0, r->x1) &&
           y >= fmin(r->y0, r->y1) && y <= fmax(r->y0, r->y1);
}

static const char *const edge_names[EDGE_COUNT] = {"top", "bottom", "left", "right"};

/* The number of an edge, when it is given as one. */
static double edge_number(const struct problem *p, int edge)
{
    const double numbers[EDGE_COUNT] = {p->top, p->bottom, p->left, p->right};
    return numbers[edge];
}

/* The sites of an edge: the top and bottom rows whole, the side columns
 * without the corners (they belong to the rows). */
static long edge_sites(const struct problem *p, int edge)
{
    return edge == EDGE_TOP || edge == EDGE_BOTTOM ? p->nx : p->ny - 2;
}

static void edge_site(const struct problem *p, int edge, long s, long *i, long *j)
{
    *i = edge == EDGE_LEFT ? 0 : edge == EDGE_RIGHT ? p->nx - 1 : s;
    *j = edge == EDGE_BOTTOM ? 0 : edge == EDGE_TOP ? p->ny - 1 : s + 1;
}

/* Writes one edge's values into the field (if field) and raises *largest to their
 * largest |value| (if largest); -1 with err set if a value is not finite. */
static int set_edge(const struct problem *p, int edge, struct field *field,
                    double *largest, char *err, size_t n)
{
    struct expression *formula = NULL;
    if (p->edge_formula[edge][0] &&
        expression_parse(p->edge_formula[edge], &formula, err, n) != 0)
        return -1;
    long sites = formula || field ? edge_sites(p, edge) : 1; /* a number: once */
    for (long s = 0; s < sites; s++) {
        long i, j;
        edge_site(p, edge, s, &i, &j);
        if (field && !largest && !field_holds(field, i, j))
            continue; /* another rank's site */
        double x = problem_site_x(p, i), y = problem_site_y(p, j);
        double v = formula ? expression_eval(formula, x, y) : edge_number(p, edge);
        if (!isfinite(v)) {
            snprintf(err, n, "%s = %s (--%s) is not finite at x = %g, y = %g on its edge",
                     edge_names[edge], p->edge_formula[edge], edge_names[edge], x, y);
            expression_free(formula);
            return -1;
        }
        if (field && field_holds(field, i, j))
            field_set(field, i - field->x0, j - field->y0, v);
        if (largest)
            *largest = fmax(*largest, fabs(v));
    }
    expression_free(formula);
    return 0;
}

struct lattice_rect problem_whole(const struct problem *problem)
{
    return (struct lattice_rect){0, 0, problem->nx, problem->ny};
}

/* The interior sites of r: i from *i0 to *i1, j from *j0 to *j1 (inclusive). */
static void interior_of(const struct problem *p, struct lattice_rect r, long *i0,
                        long *i1, long *j0, long *j1)
{
    *i0 = r.x0 > 1 ? r.x0 : 1;
    *j0 = r.y0 > 1 ? r.y0 : 1;
    *i1 = r.x0 + r.nx - 1 < p->nx - 2 ? r.x0 + r.nx - 1 : p->nx - 2;
    *j1 = r.y0 + r.ny - 1 < p->ny - 2 ? r.y0 + r.ny - 1 : p->ny - 2;
}

/* Region values over the rectangle r, in the order given: a later region wins
 * where they overlap (field and fixed cover r, fixed r.nx values a row). */
static void set_regions(const struct problem *p, struct lattice_rect r,
                        struct field *field, unsigned char *fixed)
{
    long i0, i1, j0, j1;
    interior_of(p, r, &i0, &i1, &j0, &j1);
    for (int k = 0; k < p->region_count; k++)
        for (long j = j0; j <= j1; j++)
            for (long i = i0; i <= i1; i++)
                if (region_contains(p, &p->regions[k], i, j)) {
                    if (field)
                        field_set(field, i - r.x0, j - r.y0, p->regions[k].value);
                    if (fixed)
                        fixed[(i - r.x0) + r.nx * (j - r.y0)] = 1;
                }
}

int problem_initial_field(const struct problem *problem, struct field *field)
{
    return problem_initial_part(problem, problem_whole(problem), field);
}

int problem_initial_part(const struct problem *problem, struct lattice_rect rect,
                         struct field *field)
{
    char why[256];
    if (field_alloc_at(field, rect.x0, rect.y0, rect.nx, rect.ny, problem->precision) !=
        0)
        return -1;
    for (int edge = 0; edge < EDGE_COUNT; edge++)
        set_edge(problem, edge, field, NULL, why, sizeof why); /* checked before */
    set_regions(problem, rect, field, NULL);
    return 0;
}

/* Where the region's row at height y begins in x; 0 when the row misses it. */
static int region_row_start(const struct region *r, double y, double *x)
{
    if (r->shape == REGION_RECT) {
        *x = fmin(r->x0, r->x1);
        return y >= fmin(r->y0, r->y1) && y <= fmax(r->y0, r->y1);
    }
    double dy2 = (y - r->cy) * (y - r->cy);
    *x = r->cx - sqrt(fmax(r->r * r->r - dy2, 0.0));
    return !(dy2 > r->r * r->r);
}

/* 1 when the region holds at least one interior site. Each row is looked at only
 * where the shape's row begins (and a site either side, for rounding), so that
 * a region away from a large lattice costs O(ny), not O(nx ny): a region
 * outside a 2^24 x 2^24 lattice hung here (found by tests/fuzz/fuzz_ini.c). */
static int region_is_used(const struct problem *p, const struct region *r)
{
    double lx, ly;
    problem_size(p, &lx, &ly);
    for (long j = 1; j < p->ny - 1; j++) {
        double x;
        if (!region_row_start(r, problem_site_y(p, j), &x))
            continue;
        double first = fmin(fmax(ceil(x / lx * (double)(p->nx - 1)), 1.0),
                            (double)(p->nx - 2)); /* the first site at or after x */
        for (long i = (long)first - 1; i <= (long)first + 1; i++)
            if (i >= 1 && i < p->nx - 1 && region_contains(p, r, i, j))
                return 1;
    }
    return 0;
}

/* b at every interior site of rect into terms (rect: terms->rect); -1 with err set
 * where f is not finite. With terms NULL, only the check (problem_check_source: a
 * bad source is a bad config, refused before the solve; that costs one more
 * evaluation per site, only when there is a source). */
static int fill_source(const struct problem *p, struct lattice_rect rect,
                       struct problem_terms *terms, char *err, size_t n)
{
    struct expression *f;
    double constant;
    if (!terms && expression_is_number(p->source, &constant) && isfinite(constant))
        return 0; /* the same value everywhere: nothing more to check */
    if (expression_parse(p->source, &f, err, n) != 0)
        return -1;
    long i0, i1, j0, j1;
    interior_of(p, rect, &i0, &i1, &j0, &j1);
    for (long j = j0; j <= j1; j++)
        for (long i = i0; i <= i1; i++) {
            double x = problem_site_x(p, i), y = problem_site_y(p, j);
            double value = expression_eval(f, x, y);
            if (!isfinite(value)) {
                snprintf(err, n, "source = %s (--source) is not finite at x = %g, y = %g",
                         p->source, x, y);
                expression_free(f);
                return -1;
            }
            if (terms) {
                field_set(&terms->source, i - terms->rect.x0, j - terms->rect.y0,
                          problem_source_term(p, value));
                terms->source_max = fmax(terms->source_max, fabs(value));
            }
        }
    expression_free(f);
    return 0;
}

/* The cells' squares dx^2 and dy^2 weigh the stencil: they must be normal doubles. */
static int check_spacing(const struct problem *p, char *err, size_t n)
{
    double dx, dy, lx, ly;
    problem_spacing(p, &dx, &dy);
    if (isnormal(dx * dx) && isnormal(dy * dy))
        return 0;
    problem_size(p, &lx, &ly);
    snprintf(
        err, n,
        "lx = %g, ly = %g (--lx, --ly) make cells of %g x %g on the %ldx%ld lattice; "
        "their squares must lie within 1e-307 to 1e308",
        lx, ly, dx, dy, p->nx, p->ny);
    return -1;
}

int problem_check(const struct problem *problem, char *err, size_t n)
{
    if (check_spacing(problem, err, n) != 0)
        return -1;
    for (int edge = 0; edge < EDGE_COUNT; edge++)
        if (set_edge(problem, edge, NULL, NULL, err, n) != 0)
            return -1;
    for (int k = 0; k < problem->region_count; k++)
        if (!region_is_used(problem, &problem->regions[k])) {
            snprintf(err, n, "region '%s' holds no interior site of the %ldx%ld lattice",
                     problem->regions[k].name, problem->nx, problem->ny);
            return -1;
        }
    return 0;
}

int problem_check_source(const struct problem *problem, struct lattice_rect rect,
                         char *err, size_t n)
{
    return problem->source[0] ? fill_source(problem, rect, NULL, err, n) : 0;
}

int problem_terms_build(const struct problem *problem, struct problem_terms *terms,
                        char *err, size_t n)
{
    return problem_terms_build_part(problem, problem_whole(problem), terms, err, n);
}

int problem_terms_build_part(const struct problem *problem, struct lattice_rect rect,
                             struct problem_terms *terms, char *err, size_t n)
{
    long nx = rect.nx, ny = rect.ny;
    *terms = (struct problem_terms){.rect = rect};
    if (problem->source[0]) {
        if (field_alloc_at(&terms->source, rect.x0, rect.y0, nx, ny,
                           problem->precision) != 0)
            return error_set(err, n, "out of host memory for the source");
        if (fill_source(problem, rect, terms, err, n) != 0)
            return problem_terms_free(terms), -1;
    }
    if (problem->region_count > 0) {
        terms->fixed = calloc((size_t)nx * (size_t)ny, 1);
        if (!terms->fixed) {
            problem_terms_free(terms);
            return error_set(err, n, "out of host memory for the fixed regions");
        }
        set_regions(problem, rect, NULL, terms->fixed);
    }
    return 0;
}

void problem_terms_free(struct problem_terms *terms)
{
    field_free(&terms->source);
    free(terms->fixed);
    terms->fixed = NULL;
}

double problem_value_bound(const struct problem *problem, double source_max)
{
    char why[256];
    double bound = 0.0, lx, ly; /* 0: the initial interior */
    for (int edge = 0; edge < EDGE_COUNT; edge++)
        set_edge(problem, edge, NULL, &bound, why, sizeof why); /* checked before */
    for (int k = 0; k < problem->region_count; k++)
        bound = fmax(bound, fabs(problem->regions[k].value));
    problem_size(problem, &lx, &ly);
    return bound + source_max * fmin(lx, ly) * fmin(lx, ly) / 8.0;
}

long problem_interior_sites(const struct problem *problem)
{
    return (problem->nx - 2) * (problem->ny - 2);
}

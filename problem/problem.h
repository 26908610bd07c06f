/*
 * problem.h - the lattice and its boundary values, sources and regions: what is
 * solved (the field that lives on it: field.h).
 *
 * The lattice has nx * ny sites, boundary included. Site (x, y) is stored at
 * index x + nx * y: x grows to the right, y grows towards the top edge.
 *
 *        y = ny-1   T T T T T T T      T: top value
 *                   L . . . . . R      L: left value, R: right value
 *                   L . . . . . R      .: interior, starts at 0
 *        y = 0      B B B B B B B      B: bottom value
 *                 x = 0       x = nx-1
 *
 * The four corners belong to the top and bottom rows. The 5-point stencil never
 * reads a corner, so this choice does not change the solution.
 *
 * The lattice covers lx x ly in space: site (i, j) lies at x = lx i / (nx-1),
 * y = ly j / (ny-1). Unless both are given, the cells are square (dx = dy): lx
 * defaults to 1 and ly follows, as in the course, whose update assumes dx = dy. Edge
 * values are numbers or formulas in x and y; a source f makes the problem Poisson's,
 * laplacian(u) = f; regions (rectangles, discs) hold the interior sites inside them at a
 * fixed value.
 */
#ifndef LAPLACE_PROBLEM_H
#define LAPLACE_PROBLEM_H

#include <stddef.h>

#include "problem/field.h"

#define EXPRESSION_MAX 256
#define REGIONS_MAX 16

enum edge { EDGE_TOP, EDGE_BOTTOM, EDGE_LEFT, EDGE_RIGHT, EDGE_COUNT };

enum region_shape { REGION_RECT, REGION_DISC };

/* Interior sites inside the shape keep the value (a heater, a cold obstacle). */
struct region {
    char name[32];
    enum region_shape shape;
    double x0, y0, x1, y1; /* rect: two opposite corners */
    double cx, cy, r;      /* disc: centre and radius */
    double value;
    unsigned given; /* which keys were given (config.c checks completeness) */
};

struct problem {
    long nx, ny;                     /* sites per direction, boundary included */
    double lx, ly;                   /* physical size; 0: see above */
    double top, bottom, left, right; /* Dirichlet values of the four edges... */
    char edge_formula[EDGE_COUNT][EXPRESSION_MAX]; /* ...or formulas ("" if a number) */
    char source[EXPRESSION_MAX]; /* f of laplacian(u) = f; "" for Laplace */
    struct region regions[REGIONS_MAX];
    int region_count;
    enum precision precision; /* working precision of every backend */
};

/* A rectangle of the lattice: sites x0 .. x0 + nx - 1 by y0 .. y0 + ny - 1 (the
 * whole lattice, or the part an MPI rank holds). */
struct lattice_rect {
    long x0, y0, nx, ny;
};

/* What a sweep needs per site besides the field, over a rectangle of the lattice. */
struct problem_terms {
    struct lattice_rect rect; /* the sites below cover: rect.nx values a row */
    struct field source;      /* the term b of update_rule.h (data NULL without source) */
    unsigned char *fixed;     /* 1 at sites held by a region (NULL without regions) */
    double source_max; /* the largest |f| over the rectangle's interior sites (0 without
                        * source): over the whole lattice's once ranks agree on it */
};

/* The whole lattice as a rectangle. */
struct lattice_rect problem_whole(const struct problem *problem);

/* Allocates the initial field of the problem: boundary values, region values,
 * interior 0. Returns 0, or -1 when out of memory. */
int problem_initial_field(const struct problem *problem, struct field *field);

/* The same for the sites of rect alone (a rank's part: field.h), evaluated there
 * only. Returns 0, or -1 when out of memory. */
int problem_initial_part(const struct problem *problem, struct lattice_rect rect,
                         struct field *field);

/* The physical size, with the defaults above applied. */
void problem_size(const struct problem *problem, double *lx, double *ly);

/* Grid spacing dx = lx / (nx - 1), dy = ly / (ny - 1). */
void problem_spacing(const struct problem *problem, double *dx, double *dy);

/* The per-site term b of a source value f: the discretised Poisson equation
 * laplacian(u) = f puts b = -f dx^2 dy^2 / (2 (dx^2 + dy^2)) into the update
 * (update_rule.h). */
double problem_source_term(const struct problem *problem, double f);

/* Position of site (i, j). */
double problem_site_x(const struct problem *problem, long i);
double problem_site_y(const struct problem *problem, long j);

/* 1 when site (i, j) is inside the region. */
int region_contains(const struct problem *problem, const struct region *r, long i,
                    long j);

/*
 * Checks what a run would evaluate, but the source's values: the cells' squares are
 * normal doubles, every formula parses, the edge formulas are finite on their
 * edges, every region holds at least one interior site.
 * Returns 0, or -1 with one line in err.
 */
int problem_check(const struct problem *problem, char *err, size_t n);

/* The source finite at every interior site of rect (under MPI each rank checks its
 * own part: an evaluation per site, the costliest check). 0, or -1 with one line. */
int problem_check_source(const struct problem *problem, struct lattice_rect rect,
                         char *err, size_t n);

/* Builds the per-site terms (source b, fixed mask). Returns 0, or -1 with err set
 * (out of memory, or the source is not finite at a site). */
int problem_terms_build(const struct problem *problem, struct problem_terms *terms,
                        char *err, size_t n);
/* The same over the sites of rect alone. */
int problem_terms_build_part(const struct problem *problem, struct lattice_rect rect,
                             struct problem_terms *terms, char *err, size_t n);
void problem_terms_free(struct problem_terms *terms);

/*
 * A bound on |u| over the initial field and every iterate of Jacobi, weighted
 * Jacobi (omega <= 1) and Gauss-Seidel: B + source_max min(lx, ly)^2 / 8, where B
 * is the largest |edge or region value| (edge formulas evaluated along their
 * edges: O(nx + ny)) and source_max the largest |f| (problem_terms). Why: each
 * new value is a convex combination of old ones plus b, and with
 * phi = x (lx - x) / 2, whose discrete laplacian is exactly -1 on any spacing,
 * u + source_max phi never falls below its smallest initial value, nor
 * u - source_max phi rises above its largest (the discrete maximum principle).
 * Over-relaxation (omega > 1) may overshoot it.
 */
double problem_value_bound(const struct problem *problem, double source_max);

/* Sites updated by one sweep (the interior). */
long problem_interior_sites(const struct problem *problem);

#endif

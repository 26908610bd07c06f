/*
 * test_methods.c - the update rules beyond the course's plain Jacobi (weighted
 * Jacobi, red-black SOR, sources, formulas on the edges, fixed regions, the max
 * and residual norms) against exact solutions and across backends: second-order
 * convergence on a manufactured solution, a harmonic quadratic on square and
 * anisotropic cells, SOR against Jacobi on 256 x 256, bit-identity of the serial
 * reference and the host tiles, and, through ./laplace, the refusals, the
 * divergence message, and heat steps with snapshots.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devices/device.h"
#include "gpu_partition.h"
#include "helpers.h"
#include "solve/reference.h"
#include "solver.h"
#include "problem/update_rule.h"

/* AddressSanitizer builds (make test SANITIZE=1) run about 3x slower. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif

static struct solve_settings rule_settings(const struct problem *pb, enum method method,
                                           double omega, enum norm_kind norm, double eps,
                                           long max_iter)
{
    struct solve_settings s = test_settings(eps, max_iter);
    s.tile.update_rule = update_rule_make(pb, method, omega, norm);
    return s;
}

static const char *rule_text(const struct update_rule *rule)
{
    static char text[96];
    snprintf(text, sizeof text, "%s omega %.6g norm %s", method_name(rule->method),
             rule->omega, norm_name(rule->norm));
    return text;
}

/*
 * The host tiles on every layout give the reference's field bit for bit, with the
 * same iteration count, stop reason and final norm. Hands the reference's field
 * and result to want_out and want_result (the caller frees the field) when
 * want_out is not NULL.
 */
static void check_tiles_equal_reference(const struct problem *pb,
                                        const struct solve_settings *s,
                                        const int (*layouts)[2], int layout_count,
                                        struct field *want_out,
                                        struct solve_result *want_result)
{
    struct field want;
    struct solve_result rw;
    run_reference(pb, s, &want, &rw);
    cr_assert_neq(rw.reason, STOP_DIVERGED, "%s: the reference diverged",
                  rule_text(&s->tile.update_rule));
    for (int i = 0; i < layout_count; i++) {
        int ngx = layouts[i][0], ngy = layouts[i][1];
        struct field got;
        struct solve_result rg;
        run_tiles(pb, ngx, ngy, s, &got, &rg);
        cr_assert_eq(rg.iterations, rw.iterations,
                     "%ldx%ld %s, %s, host %dx%d: %ld iterations, reference %ld", pb->nx,
                     pb->ny, precision_name(pb->precision),
                     rule_text(&s->tile.update_rule), ngx, ngy, rg.iterations,
                     rw.iterations);
        cr_assert_eq(rg.reason, rw.reason, "%s host %dx%d: stop reason %s, reference %s",
                     rule_text(&s->tile.update_rule), ngx, ngy,
                     stop_rule_reason_text(rg.reason), stop_rule_reason_text(rw.reason));
        cr_assert(field_bit_identical(&got, &want),
                  "%ldx%ld %s, %s, host %dx%d: field differs from the reference (max %g)",
                  pb->nx, pb->ny, precision_name(pb->precision),
                  rule_text(&s->tile.update_rule), ngx, ngy,
                  field_max_difference(&got, &want));
        cr_assert(rg.final_norm == rw.final_norm ||
                      fabs(rg.final_norm - rw.final_norm) <= 1e-12 * rw.final_norm,
                  "%s host %dx%d: final norm %.17g, reference %.17g",
                  rule_text(&s->tile.update_rule), ngx, ngy, rg.final_norm,
                  rw.final_norm);
        field_free(&got);
    }
    if (want_out) {
        *want_out = want;
        *want_result = rw;
    } else {
        field_free(&want);
    }
}

/* Largest |u - exact(x, y)| over every site. */
static double max_error(const struct problem *pb, const struct field *u,
                        double (*exact)(double x, double y))
{
    double largest = 0.0;
    for (long j = 0; j < pb->ny; j++)
        for (long i = 0; i < pb->nx; i++) {
            double x = problem_site_x(pb, i), y = problem_site_y(pb, j);
            double d = fabs(field_get(u, i, j) - exact(x, y));
            if (d > largest || isnan(d))
                largest = d;
        }
    return largest;
}

/* sqrt(sum (a - b)^2) over every site. */
static double l2_difference(const struct field *a, const struct field *b)
{
    double sum = 0.0;
    for (long y = 0; y < a->ny; y++)
        for (long x = 0; x < a->nx; x++) {
            double d = field_get(a, x, y) - field_get(b, x, y);
            sum += d * d;
        }
    return sqrt(sum);
}

/* ---- 1. second-order convergence on a manufactured solution ---------------- */

static double sin_sin(double x, double y)
{
    const double pi = acos(-1.0);
    return sin(pi * x) * sin(pi * y);
}

/*
 * u = sin(pi x) sin(pi y) solves laplacian(u) = -2 pi^2 u with zero edges. The
 * 5-point stencil's error is C h^2 + O(h^4) (here C = pi^2 / 12 at the centre), so
 * halving h divides it by 4. SOR runs to a max update below 1e-13; the iteration
 * error left is checked to be under 1e-4 of the discretisation error by running
 * 2n more sweeps from the result and measuring how far the field still moves.
 */
Test(methods, manufactured_solution_error_falls_as_h_squared)
{
    static const long sizes[] = {17, 33, 65};
    double error[3];
    for (int k = 0; k < 3; k++) {
        struct problem pb = {
            .nx = sizes[k], .ny = sizes[k], .precision = PRECISION_DOUBLE};
        snprintf(pb.source, sizeof pb.source, "-2*pi^2*sin(pi*x)*sin(pi*y)");
        struct solve_settings s =
            rule_settings(&pb, METHOD_SOR, 0.0, NORM_MAX, 1e-13, 100000);
        struct field u, more;
        struct solve_result r;
        run_reference(&pb, &s, &u, &r);
        cr_assert_eq(r.reason, STOP_CONVERGED, "n=%ld: %s after %ld iterations (norm %g)",
                     sizes[k], stop_rule_reason_text(r.reason), r.iterations,
                     r.final_norm);
        error[k] = max_error(&pb, &u, sin_sin);

        s.eps = 0.0;
        s.max_iter = 2 * sizes[k];
        cr_assert_eq(reference_solve(&pb, &u, &s, &more, &r), 0, "%s", r.error);
        double still_moving = field_max_difference(&u, &more);
        cr_assert_lt(still_moving, 1e-4 * error[k],
                     "n=%ld: the field still moves by %g after convergence, against a "
                     "discretisation error of %g",
                     sizes[k], still_moving, error[k]);
        field_free(&more);
        field_free(&u);
    }
    for (int k = 0; k < 2; k++) {
        double ratio = error[k] / error[k + 1];
        cr_assert(ratio >= 3.6 && ratio <= 4.4,
                  "error ratio e(h)/e(h/2) at n=%ld->%ld is %.4f, want 4 +- 10%% "
                  "(max errors: n=17 %.6e, n=33 %.6e, n=65 %.6e)",
                  sizes[k], sizes[k + 1], ratio, error[0], error[1], error[2]);
    }
    /* the size of the error too: pi^2 h^2 / 12 at the centre, to within 1% */
    const double pi = acos(-1.0);
    double h = 1.0 / 64.0, want = pi * pi * h * h / 12.0;
    cr_assert(fabs(error[2] - want) < 0.01 * want,
              "n=65: max error %.6e, want about %.6e", error[2], want);
}

/* ---- 2. a harmonic quadratic on square and on anisotropic cells ------------ */

static double saddle(double x, double y)
{
    return x * x - y * y;
}

static struct problem saddle_problem(long nx, long ny, double lx, double ly)
{
    struct problem pb = {
        .nx = nx, .ny = ny, .lx = lx, .ly = ly, .precision = PRECISION_DOUBLE};
    for (int e = 0; e < EDGE_COUNT; e++)
        snprintf(pb.edge_formula[e], EXPRESSION_MAX, "x^2-y^2");
    return pb;
}

/*
 * x^2 - y^2 is harmonic, and the 5-point second differences of a quadratic are
 * exact for any dx and dy, so the discrete solution is x^2 - y^2 at every site:
 * the error after converging is rounding and iteration error only.
 */
static void check_saddle(const struct problem *pb, int anisotropic)
{
    struct solve_settings s = rule_settings(pb, METHOD_SOR, 0.0, NORM_MAX, 1e-14, 100000);
    cr_assert_eq(s.tile.update_rule.anisotropic, anisotropic,
                 "%ldx%ld lx %g ly %g: update_rule_make says anisotropic = %d", pb->nx,
                 pb->ny, pb->lx, pb->ly, s.tile.update_rule.anisotropic);
    struct field u;
    struct solve_result r;
    run_reference(pb, &s, &u, &r);
    cr_assert_eq(r.reason, STOP_CONVERGED, "%s after %ld iterations (norm %g)",
                 stop_rule_reason_text(r.reason), r.iterations, r.final_norm);
    double error = max_error(pb, &u, saddle);
    cr_assert_lt(error, 1e-9,
                 "%ldx%ld lx %g ly %g (%s stencil): max |u - (x^2 - y^2)| = %.3e after "
                 "%ld iterations",
                 pb->nx, pb->ny, pb->lx, pb->ly, anisotropic ? "general" : "plain", error,
                 r.iterations);
    /* the interior started at 0 and had to move: a saddle is not a trivial answer */
    cr_assert_gt(fabs(field_get(&u, pb->nx / 2, pb->ny / 3)), 0.01);
    field_free(&u);
}

Test(methods, saddle_is_exact_on_square_cells)
{
    struct problem pb = saddle_problem(33, 21, 0.0, 0.0); /* dx = dy = 1/32 */
    check_saddle(&pb, 0);
}

Test(methods, saddle_is_exact_on_anisotropic_cells)
{
    struct problem pb = saddle_problem(33, 21, 1.0, 1.0); /* dx = 1/32, dy = 1/20 */
    check_saddle(&pb, 1);
}

/* ---- 3. SOR against Jacobi on 256 x 256 ------------------------------------ */

/* The course's problem: top 1, the other edges 0, double. */
static struct problem course_256(void)
{
    return (struct problem){
        .nx = 256, .ny = 256, .top = 1.0, .precision = PRECISION_DOUBLE};
}

/*
 * SOR with the optimal omega needs about 700 iterations to an l2 update norm of
 * 1e-6 here; Jacobi about 109,000 (10 to 20 s on two host tiles). The sanitizer
 * build does not run Jacobi to the end: "at least 20 times as many iterations"
 * is the same claim as "not converged after 20 n_sor - 1 iterations", which it
 * checks in an eighth of the time.
 *
 * How close must the fields be? Jacobi's iteration matrix G is symmetric with
 * spectral radius rho = cos(pi/255), and u_k - u* = G (G - I)^-1 (u_k - u_(k-1)),
 * so ||u_k - u*||_2 <= rho / (1 - rho) * (update norm), about 13,200 times the
 * norm, at any k. The max error is at most the l2 error. We check Jacobi against
 * a tight SOR solution T (eps 1e-12; its own error is measured negligible through
 * SOR at 1e-6, which is within 3e-7 of it), then the Jacobi and SOR fields against
 * each other with that bound plus SOR's distance to T.
 */
Test(methods, sor_needs_20x_fewer_iterations_than_jacobi_on_256)
{
    const double eps = 1e-6;
    struct problem pb = course_256();
    struct field sor, jacobi, tight;
    struct solve_result rs, rj, rt;

    struct solve_settings s = rule_settings(&pb, METHOD_SOR, 0.0, NORM_L2, eps, 1000000);
    run_tiles(&pb, 2, 1, &s, &sor, &rs);
    cr_assert_eq(rs.reason, STOP_CONVERGED, "SOR: %s", stop_rule_reason_text(rs.reason));

    s.eps = 1e-12;
    run_tiles(&pb, 2, 1, &s, &tight, &rt);
    cr_assert_eq(rt.reason, STOP_CONVERGED, "tight SOR: %s",
                 stop_rule_reason_text(rt.reason));

    /* a zeroed rule: plain Jacobi, l2 norm */
    struct solve_settings j =
        test_settings(eps, SANITIZED ? 20 * rs.iterations - 1 : 1000000);
    run_tiles(&pb, 2, 1, &j, &jacobi, &rj);
    if (SANITIZED) {
        cr_assert_eq(rj.reason, STOP_MAX_ITER,
                     "Jacobi %s after %ld iterations, SOR (omega %.6f) took %ld: ratio "
                     "%.1f, want >= 20",
                     stop_rule_reason_text(rj.reason), rj.iterations,
                     s.tile.update_rule.omega, rs.iterations,
                     (double)rj.iterations / (double)rs.iterations);
    } else {
        cr_assert_eq(rj.reason, STOP_CONVERGED, "Jacobi: %s after %ld iterations",
                     stop_rule_reason_text(rj.reason), rj.iterations);
        cr_assert_geq(
            rj.iterations, 20 * rs.iterations,
            "Jacobi %ld iterations, SOR (omega %.6f) %ld: ratio %.1f, want >= 20",
            rj.iterations, s.tile.update_rule.omega, rs.iterations,
            (double)rj.iterations / (double)rs.iterations);
    }

    const double pi = acos(-1.0), rho = cos(pi / 255.0);
    double bound = rho / (1.0 - rho) * rj.final_norm;
    double jacobi_l2 = l2_difference(&jacobi, &tight);
    double jacobi_max = field_max_difference(&jacobi, &tight);
    double sor_max = field_max_difference(&sor, &tight);
    double between = field_max_difference(&jacobi, &sor);
    cr_log_info("256^2 eps %g: Jacobi %ld (%s), SOR %ld iterations; max |J - S| %.3e, "
                "|J - T|_2 %.6e (bound %.6e, ratio %.9f), |S - T| %.3e",
                eps, rj.iterations, stop_rule_reason_text(rj.reason), rs.iterations,
                between, jacobi_l2, bound, jacobi_l2 / bound, sor_max);
    cr_assert_leq(jacobi_l2, bound * (1.0 + 1e-6) + 1e-9,
                  "Jacobi at norm %g: l2 error %.6e exceeds rho/(1-rho) * norm = %.6e",
                  rj.final_norm, jacobi_l2, bound);
    cr_assert_leq(sor_max, 1e-5,
                  "SOR at norm %g: max distance %.4e to the tight solution",
                  rs.final_norm, sor_max);
    cr_assert_leq(
        between, bound + sor_max,
        "Jacobi and SOR differ by %.4e (max), want <= %.4e + %.4e; Jacobi's max "
        "error %.4e",
        between, bound, sor_max, jacobi_max);
    if (!SANITIZED) {
        /*
         * After 109,000 sweeps only the slowest mode, A sin(pi x) sin(pi y), is left
         * of Jacobi's error, so the bound is reached (to rounding) and the error's
         * max is that mode's amplitude A = l2 error * 2/255 (the sum of sin^2 sin^2
         * over the 254^2 interior sites is (255/2)^2): about 1.0e-4 at eps 1e-6, a
         * hundredth of the l2 bound.
         */
        double amplitude = bound * 2.0 / 255.0;
        cr_assert_geq(jacobi_l2, 0.99 * bound,
                      "Jacobi's l2 error %.6e is not the slowest mode's %.6e: is it "
                      "Jacobi?",
                      jacobi_l2, bound);
        cr_assert_leq(between, 1.01 * amplitude + sor_max,
                      "Jacobi and SOR differ by %.4e (max), want <= 1.01 * %.4e + %.4e",
                      between, amplitude, sor_max);
    }
    field_free(&sor);
    field_free(&tight);
    field_free(&jacobi);
}

Test(methods, sor_on_256_is_the_same_on_serial_and_host_tiles)
{
    static const int layouts[][2] = {{1, 1}, {2, 2}, {3, 1}};
    struct problem pb = course_256();
    struct solve_settings s = rule_settings(&pb, METHOD_SOR, 0.0, NORM_L2, 1e-6, 100000);
    struct field want;
    struct solve_result rw;
    check_tiles_equal_reference(&pb, &s, layouts, 3, &want, &rw);
    cr_assert_eq(rw.reason, STOP_CONVERGED);
    cr_assert(rw.iterations > 100 && rw.iterations < 2000,
              "SOR with the optimal omega took %ld iterations", rw.iterations);
    field_free(&want);
}

/* ---- 4. regions across tile borders, with a source ------------------------- */

/*
 * 61 x 45 sites, square cells: x in [0, 1], y in [0, 44/60]. The layouts below
 * have tile borders at x = 0.27, 0.35, 0.52, 0.68, 0.77 and y = 0.2, 0.25, 0.38,
 * 0.5, 0.57; widths 16 15 15 15, 21 20 20, 31 30 and heights 12 11 11 11, 15 15
 * 15, 23 22, so tiles start at odd x and y too. The rectangle spans the centre
 * and crosses every layout's borders; the disc crosses x = 0.52 and 0.68 and
 * y = 0.5 and 0.57.
 */
static struct problem regions_problem(enum precision precision)
{
    struct problem pb = test_problem(61, 45, precision);
    snprintf(pb.source, sizeof pb.source, "3*x*y-2");
    pb.regions[0] = (struct region){.name = "heater",
                                    .shape = REGION_RECT,
                                    .x0 = 0.3,
                                    .y0 = 0.2,
                                    .x1 = 0.7,
                                    .y1 = 0.42,
                                    .value = 1.5};
    pb.regions[1] = (struct region){.name = "cold",
                                    .shape = REGION_DISC,
                                    .cx = 0.6,
                                    .cy = 0.6,
                                    .r = 0.12,
                                    .value = -0.5};
    pb.region_count = 2;
    return pb;
}

static const int region_layouts[][2] = {{1, 1}, {2, 1}, {1, 3}, {3, 2}, {4, 4}};
#define REGION_LAYOUTS ((int)(sizeof region_layouts / sizeof region_layouts[0]))

/* Every region of the problem has sites in at least two tiles of each layout. */
static void check_regions_straddle(const struct problem *pb)
{
    for (int l = 1; l < REGION_LAYOUTS; l++) {
        struct partition p;
        cr_assert_eq(partition_init(&p, pb->nx, pb->ny, region_layouts[l][0],
                                    region_layouts[l][1]),
                     0);
        for (int k = 0; k < pb->region_count; k++) {
            int tiles = 0;
            for (int t = 0; t < partition_count(&p); t++) {
                const struct tile_extent *e = &p.tiles[t];
                int inside = 0;
                for (long j = e->y0; j < e->y0 + e->ly && !inside; j++)
                    for (long i = e->x0; i < e->x0 + e->lx && !inside; i++)
                        inside = i > 0 && j > 0 && i < pb->nx - 1 && j < pb->ny - 1 &&
                                 region_contains(pb, &pb->regions[k], i, j);
                tiles += inside;
            }
            cr_assert_geq(tiles, 2, "region %s lies in %d tile(s) of %dx%d, want >= 2",
                          pb->regions[k].name, tiles, p.ngx, p.ngy);
        }
        /* tiles starting at odd x and y: the red-black colouring is global, not local */
        int odd_x = 0, odd_y = 0;
        for (int t = 0; t < partition_count(&p); t++)
            odd_x |= p.tiles[t].x0 % 2, odd_y |= p.tiles[t].y0 % 2;
        if (p.ngx * p.ngy == 16)
            cr_assert(odd_x && odd_y, "4x4 of %ldx%ld: no tile starts at an odd x or y",
                      pb->nx, pb->ny);
        partition_free(&p);
    }
}

/* Sites inside a region hold exactly its value; returns how many there are. */
static long check_region_values(const struct problem *pb, const struct field *u)
{
    long held = 0;
    for (long j = 1; j < pb->ny - 1; j++)
        for (long i = 1; i < pb->nx - 1; i++)
            for (int k = pb->region_count - 1; k >= 0; k--)
                if (region_contains(pb, &pb->regions[k], i, j)) {
                    double want = pb->precision == PRECISION_FLOAT
                                      ? (double)(float)pb->regions[k].value
                                      : pb->regions[k].value;
                    cr_assert_eq(field_get(u, i, j), want,
                                 "site (%ld, %ld) in region %s holds %.17g, want %g", i,
                                 j, pb->regions[k].name, field_get(u, i, j), want);
                    held++;
                    break;
                }
    return held;
}

static void check_regions(enum method method, double omega, double eps)
{
    struct problem pb = regions_problem(PRECISION_DOUBLE);
    check_regions_straddle(&pb);
    struct solve_settings s = rule_settings(&pb, method, omega, NORM_L2, eps, 200000);
    cr_assert(s.tile.update_rule.has_fixed && s.tile.update_rule.has_source);
    struct field want;
    struct solve_result rw;
    check_tiles_equal_reference(&pb, &s, region_layouts, REGION_LAYOUTS, &want, &rw);
    cr_assert_eq(rw.reason, STOP_CONVERGED, "%s: %s after %ld iterations",
                 rule_text(&s.tile.update_rule), stop_rule_reason_text(rw.reason),
                 rw.iterations);
    long held = check_region_values(&pb, &want);
    cr_assert_gt(held, 100, "only %ld sites are inside the regions", held);
    /* next to the heater (x = 0.3 is site 18) the field is pulled up towards 1.5 */
    double beside = field_get(&want, 16, 18);
    cr_assert(beside > 0.3 && beside < 1.5, "site (16, 18) beside the heater: %g",
              beside);
    field_free(&want);
}

Test(methods, regions_across_tile_borders_sor)
{
    check_regions(METHOD_SOR, 0.0, 1e-9);
}

Test(methods, regions_across_tile_borders_weighted)
{
    check_regions(METHOD_WEIGHTED, 0.6, 1e-6);
}

/* A fixed number of sweeps, far from converged, in float: every site still moves. */
Test(methods, regions_across_tile_borders_float_fixed_sweeps)
{
    struct problem pb = regions_problem(PRECISION_FLOAT);
    for (int m = 0; m < 3; m++) {
        static const enum method methods[] = {METHOD_JACOBI, METHOD_WEIGHTED, METHOD_SOR};
        struct solve_settings s = rule_settings(&pb, methods[m], 0.7, NORM_L2, 0.0, 57);
        struct field want;
        struct solve_result rw;
        check_tiles_equal_reference(&pb, &s, region_layouts, REGION_LAYOUTS, &want, &rw);
        cr_assert_eq(rw.iterations, 57);
        check_region_values(&pb, &want);
        field_free(&want);
    }
}

/* ---- 5. weighted Jacobi, the max and residual norms, float ----------------- */

static const int some_layouts[][2] = {{1, 1}, {2, 2}, {3, 1}, {1, 3}, {4, 3}};
#define SOME_LAYOUTS ((int)(sizeof some_layouts / sizeof some_layouts[0]))

static void check_weighted_norm(enum precision precision, enum norm_kind norm, double eps)
{
    struct problem pb = test_problem(37, 23, precision);
    struct solve_settings s = rule_settings(&pb, METHOD_WEIGHTED, 0.6, norm, eps, 100000);
    struct field want;
    struct solve_result rw;
    check_tiles_equal_reference(&pb, &s, some_layouts, SOME_LAYOUTS, &want, &rw);
    cr_assert_eq(rw.reason, STOP_CONVERGED, "%s %s eps %g: %s after %ld iterations",
                 precision_name(precision), rule_text(&s.tile.update_rule), eps,
                 stop_rule_reason_text(rw.reason), rw.iterations);
    cr_assert_gt(rw.iterations, 50, "%s %s: converged after %ld iterations only",
                 precision_name(precision), rule_text(&s.tile.update_rule),
                 rw.iterations);
    field_free(&want);
}

Test(methods, weighted_max_norm_same_on_serial_and_tiles)
{
    check_weighted_norm(PRECISION_DOUBLE, NORM_MAX, 1e-7);
    check_weighted_norm(PRECISION_FLOAT, NORM_MAX, 1e-5);
}

Test(methods, weighted_residual_norm_same_on_serial_and_tiles)
{
    check_weighted_norm(PRECISION_DOUBLE, NORM_RESIDUAL, 1e-4);
    check_weighted_norm(PRECISION_FLOAT, NORM_RESIDUAL, 1e-2);
}

Test(methods, sor_max_and_residual_norms_same_on_serial_and_tiles)
{
    for (int prec = 0; prec < 2; prec++) {
        struct problem pb =
            test_problem(37, 23, prec ? PRECISION_DOUBLE : PRECISION_FLOAT);
        for (int n = 0; n < 2; n++) {
            enum norm_kind norm = n ? NORM_RESIDUAL : NORM_MAX;
            struct solve_settings s = rule_settings(&pb, METHOD_SOR, 0.0, norm, 0.0, 45);
            check_tiles_equal_reference(&pb, &s, some_layouts, SOME_LAYOUTS, NULL, NULL);
        }
    }
}

/* omega = 1: 1 * gs + 0 * old is gs, so weighted Jacobi is Jacobi bit for bit. */
static void check_weighted_one_is_jacobi(enum precision precision)
{
    struct problem pb = test_problem(37, 23, precision);
    struct solve_settings plain = test_settings(1e-5, 100000);
    struct solve_settings one =
        rule_settings(&pb, METHOD_WEIGHTED, 1.0, NORM_L2, 1e-5, 100000);
    cr_assert(update_rule_is_plain_jacobi(&plain.tile.update_rule));
    cr_assert(!update_rule_is_plain_jacobi(&one.tile.update_rule),
              "weighted runs the general sweep, not the plain kernel");
    for (int backend = 0; backend < 3; backend++) {
        struct field a, b;
        struct solve_result ra, rb;
        if (backend == 0) {
            run_reference(&pb, &plain, &a, &ra);
            run_reference(&pb, &one, &b, &rb);
        } else {
            int ngx = backend == 1 ? 1 : 3, ngy = backend == 1 ? 1 : 2;
            run_tiles(&pb, ngx, ngy, &plain, &a, &ra);
            run_tiles(&pb, ngx, ngy, &one, &b, &rb);
        }
        cr_assert_eq(ra.reason, STOP_CONVERGED);
        cr_assert_eq(rb.iterations, ra.iterations,
                     "%s backend %d: weighted 1 took %ld iterations, Jacobi %ld",
                     precision_name(precision), backend, rb.iterations, ra.iterations);
        cr_assert(field_bit_identical(&a, &b),
                  "%s backend %d: weighted 1 differs from Jacobi (max %g)",
                  precision_name(precision), backend, field_max_difference(&a, &b));
        cr_assert_eq(rb.final_norm, ra.final_norm, "%s backend %d: norm %.17g vs %.17g",
                     precision_name(precision), backend, rb.final_norm, ra.final_norm);
        field_free(&a);
        field_free(&b);
    }
}

Test(methods, weighted_with_omega_1_is_jacobi_bit_for_bit)
{
    check_weighted_one_is_jacobi(PRECISION_DOUBLE);
    check_weighted_one_is_jacobi(PRECISION_FLOAT);
}

/* ---- 6. refusals through ./laplace ----------------------------------------- */

TestSuite(methods_cli, .init = require_laplace);

/* Each refused argument list, and what its message must name. */
#define SMALL "--nx 17 --ny 13 --backend serial "

static void check_refused_args(const char *args, const char *named, const char *also)
{
    struct run r = laplace_run(SMALL "%s", args);
    check_refused(&r, 2, named);
    cr_assert(!also || strstr(r.err, also), "'%s': stderr '%s' lacks '%s'", args, r.err,
              also);
    run_free(&r);
}

Test(methods_cli, weighted_omega_above_1_is_refused)
{
    check_refused_args("--method weighted --omega 1.5", "--omega", "1.5");
}

Test(methods_cli, sor_omega_2_is_refused)
{
    check_refused_args("--method sor --omega 2", "--omega", NULL);
}

Test(methods_cli, sor_omega_below_1_is_refused)
{
    check_refused_args("--method sor --omega 0.5", "--omega", "0.5");
}

Test(methods_cli, jacobi_with_omega_is_refused)
{
    check_refused_args("--method jacobi --omega 0.8", "--omega", NULL);
}

Test(methods_cli, source_with_unknown_variable_is_refused)
{
    check_refused_args("--source 'z+1'", "--source", "'z'");
}

Test(methods_cli, edge_formula_that_does_not_parse_is_refused)
{
    check_refused_args("--left 'sin('", "--left", "sin(");
}

/* The message names the edge as "left = 1/x" (not "--left"), and where. */
Test(methods_cli, edge_formula_not_finite_on_the_edge_is_refused)
{
    check_refused_args("--left '1/x'", "left", "x = 0");
}

Test(methods_cli, region_holding_no_site_is_refused)
{
    check_refused_args("--region 'disc 5 5 0.1 1'", "region", "no interior site");
}

Test(methods_cli, sor_with_steps_is_refused)
{
    check_refused_args("--method sor --steps 10", "--steps", NULL);
}

Test(methods_cli, snapshots_without_output_are_refused)
{
    check_refused_args("--method weighted --steps 10 --snapshot-every 5",
                       "--snapshot-every", "--output");
}

Test(methods_cli, ini_region_without_value_is_refused)
{
    char path[256];
    out_path(path, sizeof path, "no-value.ini");
    cr_assert_eq(write_text(path, "[problem]\nnx = 17\nny = 13\n"
                                  "[region hot]\nshape = rect\nx0 = 0.2\ny0 = 0.2\n"
                                  "x1 = 0.5\ny1 = 0.4\n"),
                 0);
    struct run r = laplace_run("%s --backend serial", path);
    check_refused(&r, 2, "hot");
    cr_assert(strstr(r.err, "value"), "stderr '%s' does not name the missing key", r.err);
    run_free(&r);
}

/* ---- 7. divergence ----------------------------------------------------------- */

/* A source on a lattice of spacing 6.7e16 in float: each site's source term
 * (h^2 f / 4) is near 1e37, the field grows past the largest float and the norm
 * becomes inf. (Edges whose four-neighbour sum overflows are refused before the
 * run since issue 45; a field merely too large for the squares of the norm is not
 * divergence: test_trust_numbers.c.) */
#define HUGE_EDGES                                                                       \
    "--nx 16 --ny 16 --precision float --lx 1e18 --ly 1e18 --source 1e4"

/* The K of "diverged at iteration K" in the message, or -1. */
static long diverged_at(const struct run *r)
{
    const char *at = strstr(r->err, "diverged at iteration ");
    return at ? atol(at + strlen("diverged at iteration ")) : -1;
}

Test(methods_cli, float_overflow_diverges_with_status_1_on_both_backends)
{
    struct run serial = laplace_run(HUGE_EDGES " --backend serial");
    cr_assert_eq(serial.status, 1, "serial: status %d, want 1; stderr: %s", serial.status,
                 serial.err);
    long k = diverged_at(&serial);
    cr_assert_gt(k, 0, "serial: stderr does not say 'diverged at iteration K': %s",
                 serial.err);
    struct run cpu = laplace_run(HUGE_EDGES " --backend cpu --partition 2x2");
    cr_assert_eq(cpu.status, 1, "cpu 2x2: status %d, want 1; stderr: %s", cpu.status,
                 cpu.err);
    cr_assert_eq(diverged_at(&cpu), k, "cpu 2x2 says '%s', serial '%s'", cpu.err,
                 serial.err);
    run_free(&serial);
    run_free(&cpu);
}

/* ---- 8. heat steps and snapshots ------------------------------------------- */

#define HEAT                                                                             \
    "--nx 37 --ny 23 --top 1 --left 0.3 --right -0.7 --bottom 2.5 --method weighted "    \
    "--omega 0.5"

/* tests/out/<pid>-<stem>.dat and its snapshots <stem>-0000NN.dat, all registered. */
struct heat_files {
    char final[256];
    char snap[5][256]; /* at 10, 20, 30, 40, and 50 (which must not exist) */
};

static void heat_files(struct heat_files *f, const char *stem)
{
    char name[64];
    snprintf(name, sizeof name, "%s.dat", stem);
    out_path(f->final, sizeof f->final, name);
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "%s-%06d.dat", stem, 10 * (i + 1));
        out_path(f->snap[i], sizeof f->snap[i], name);
    }
}

static char *read_file(const char *path)
{
    char *text = slurp(path);
    cr_assert_not_null(text, "%s was not written", path);
    cr_assert_gt(count_lines(text), 0, "%s is empty", path);
    return text;
}

/* Runs 40 heat steps with a snapshot every 10; checks the files and the report. */
static void run_heat(const struct heat_files *f, const char *backend)
{
    struct run r = laplace_run(
        HEAT " --steps 40 --snapshot-every 10 --output %s %s --csv", f->final, backend);
    cr_assert_eq(r.status, 0, "%s: status %d; stderr: %s", backend, r.status, r.err);
    char column[64];
    const char *row = nth_line(r.out, 1);
    cr_assert_not_null(row, "%s: no CSV row:\n%s", backend, r.out);
    cr_assert_eq(atol(csv_field(row, 7, column, sizeof column)), 40,
                 "%s: %s iterations, want 40 steps", backend, column);
    cr_assert_str_eq(csv_field(row, 6, column, sizeof column), "weighted");
    run_free(&r);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(access(f->snap[i], R_OK), 0, "%s: snapshot %s missing", backend,
                     f->snap[i]);
    cr_assert_neq(access(f->snap[4], F_OK), 0, "%s: snapshot at 50 of a 40-step run",
                  backend);
}

Test(methods_cli, heat_steps_write_snapshots_equal_to_shorter_runs)
{
    struct heat_files serial, cpu;
    char twenty[256];
    heat_files(&serial, "heat");
    heat_files(&cpu, "heat-cpu");
    out_path(twenty, sizeof twenty, "heat20.dat");

    run_heat(&serial, "--backend serial");
    struct run r = laplace_run(HEAT " --steps 20 --output %s --backend serial", twenty);
    cr_assert_eq(r.status, 0, "20 steps: status %d; stderr: %s", r.status, r.err);
    run_free(&r);
    run_heat(&cpu, "--backend cpu --partition 2x2");

    char *final = read_file(serial.final), *at20 = read_file(serial.snap[1]);
    char *at10 = read_file(serial.snap[0]), *at40 = read_file(serial.snap[3]);
    char *steps20 = read_file(twenty);
    cr_assert_str_eq(at40, final, "the snapshot at 40 differs from the final file");
    cr_assert_str_eq(at20, steps20,
                     "the snapshot at 20 differs from the final field of --steps 20");
    cr_assert_str_neq(at10, at20, "the field did not move between steps 10 and 20");
    for (int i = 0; i < 4; i++) {
        char *a = read_file(serial.snap[i]), *b = read_file(cpu.snap[i]);
        cr_assert_str_eq(a, b, "snapshot at %d: serial and cpu 2x2 differ", 10 * (i + 1));
        free(a), free(b);
    }
    char *cpu_final = read_file(cpu.final);
    cr_assert_str_eq(final, cpu_final, "final files of serial and cpu 2x2 differ");
    free(final), free(at20), free(at10), free(at40), free(steps20), free(cpu_final);
    for (int i = 0; i < 4; i++)
        remove(serial.snap[i]), remove(cpu.snap[i]);
    remove(serial.final), remove(cpu.final), remove(twenty);
}

/* The max error in the report's "exact error" line of a run, or -1. */
static double reported_exact_max(const char *args)
{
    struct run r = laplace_run("%s", args);
    const char *at = strstr(r.out, "exact error   max ");
    double max = r.status == 0 && at ? atof(at + strlen("exact error   max ")) : -1.0;
    run_free(&r);
    return max;
}

/* --exact from the command line (poisson-sine.ini sets it): the error against
 * sin(pi x) sin(pi y) falls about 4 times when the spacing halves. */
Test(methods, exact_option_shows_second_order_convergence, .timeout = 120)
{
    require_laplace();
    double coarse = reported_exact_max("config/poisson-sine.ini --backend cpu --nx 33 "
                                       "--ny 33");
    double fine = reported_exact_max("config/poisson-sine.ini --backend cpu --nx 65 "
                                     "--ny 65");
    cr_assert(coarse > 0 && fine > 0, "both reports give the error: %g, %g", coarse,
              fine);
    cr_assert(coarse / fine > 3.7 && coarse / fine < 4.3, "ratio %g (%g / %g)",
              coarse / fine, coarse, fine);
    struct run r = laplace_run("--backend serial --exact 'sin(' --nx 8 --ny 8");
    check_refused(&r, 2, "--exact");
    run_free(&r);
}

/* Issue 45, item 8: an omega so small that weighted Jacobi's first step is below eps
 * while the correction is not said "converged" at iteration 1 with the field unmoved
 * (1e-300: no site moved at all): refused before the run, naming --omega. An omega
 * that moves the field is still run. */
Test(methods_cli, weighted_omega_too_small_to_move_the_field_is_refused)
{
    require_laplace();
    check_refused_args("--method weighted --omega 1e-300", "--omega", "first step");
    check_refused_args("--method weighted --omega 1e-10", "--omega", "1e-10");
    check_refused_args("--method weighted --omega 1e-10 --precision float --norm max",
                       "--omega", "eps");
    struct run r = laplace_run(SMALL "--method weighted --omega 1e-10 --eps 1e-12 -q");
    cr_assert_eq(r.status, 0, "a step above eps runs: %s", r.err);
    run_free(&r);
}

/* Issue 45, item 8: a 3 x 3 lattice is solved by its first update, then no site
 * changes: the report says the update before was still >= eps, not that the norm
 * (0, shown as the final norm) was not yet below eps. */
Test(methods_cli, stagnation_on_3x3_does_not_contradict_the_final_norm)
{
    require_laplace();
    struct run r = laplace_run("--backend serial --nx 3 --ny 3");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "no site changed at iteration 2, the update before it still "
                            ">= eps"),
              "%s", r.out);
    cr_assert_null(strstr(r.out, "not yet below eps"), "%s", r.out);
    run_free(&r);
}

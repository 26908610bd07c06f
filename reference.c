/*
 * reference.c - the sequential Jacobi solver, the test oracle.
 *
 * One sweep, for every interior site, in the design's order of additions:
 *     new(x,y) = 0.25 * (((old(x,y-1) + old(x-1,y)) + old(x+1,y)) + old(x,y+1))
 * and returns sum over sites of (new - old)^2, each square formed in the working
 * precision and added in double.
 */
#include "reference.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define DEFINE_REFERENCE_SWEEP(REAL)                                                     \
    static double reference_sweep_##REAL(long nx, long ny, const REAL *old, REAL *new_)  \
    {                                                                                    \
        double sum = 0.0;                                                                \
        for (long y = 1; y < ny - 1; y++)                                                \
            for (long x = 1; x < nx - 1; x++) {                                          \
                long i = x + nx * y;                                                     \
                new_[i] = (REAL)0.25 *                                                   \
                          (((old[i - nx] + old[i - 1]) + old[i + 1]) + old[i + nx]);     \
                REAL d = new_[i] - old[i];                                               \
                sum += (double)(d * d);                                                  \
            }                                                                            \
        return sum;                                                                      \
    }

DEFINE_REFERENCE_SWEEP(float)
DEFINE_REFERENCE_SWEEP(double)

static double sweep(const struct field *old, struct field *new_)
{
    if (old->precision == PRECISION_FLOAT)
        return reference_sweep_float(old->nx, old->ny, old->data, new_->data);
    return reference_sweep_double(old->nx, old->ny, old->data, new_->data);
}

static int copy_field(const struct field *from, struct field *to)
{
    if (field_alloc(to, from->nx, from->ny, from->precision) != 0)
        return -1;
    memcpy(to->data, from->data,
           (size_t)from->nx * (size_t)from->ny * precision_size(from->precision));
    return 0;
}

int reference_solve(const struct problem *problem, const struct field *start,
                    const struct solve_settings *s, struct field *out,
                    struct solve_result *r)
{
    struct field a, b;
    double clock = omp_get_wtime();
    *out = (struct field){0};
    memset(r, 0, sizeof *r);
    r->final_norm = NAN;
    r->failed_device = -1;
    int rc = start ? copy_field(start, &a) : problem_initial_field(problem, &a);
    if (rc != 0 || copy_field(&a, &b) != 0) {
        field_free(&a);
        snprintf(r->error, sizeof r->error, "out of host memory for the lattice");
        r->reason = STOP_FAILED;
        return -1;
    }
    struct field *old = &a, *new_ = &b;
    r->time_input_s = omp_get_wtime() - clock;
    clock = omp_get_wtime();
    for (long iteration = 1;; iteration++) {
        double sum = sweep(old, new_);
        struct field *swap = old;
        old = new_, new_ = swap; /* old now holds the newest field */
        int has_norm = solver_wants_norm(s, iteration);
        double norm = sqrt(sum);
        if (has_norm) {
            r->final_norm = norm;
            r->final_norm_iteration = iteration;
            r->norm_checks++;
            if (s->monitor && s->monitor_every > 0 && iteration % s->monitor_every == 0)
                s->monitor(s->monitor_context, iteration, norm, omp_get_wtime() - clock);
        }
        if (solver_should_stop(s, iteration, has_norm, norm, &r->reason)) {
            r->iterations = iteration;
            break;
        }
    }
    r->time_compute_s = omp_get_wtime() - clock;
    *out = *old;
    field_free(new_);
    return 0;
}

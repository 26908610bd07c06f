/*
 * report.c - the human report, the CSV row, the monitor and the comparison.
 */
#include "run/report.h"

#include "mpi/ranks.h"
#include "plan/loop_plan.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "support/error.h"

double report_sweep_bytes(long nx, long ny, enum precision precision)
{
    double sites = (double)(nx - 2) * (double)(ny - 2);
    return 2.0 * (double)precision_size(precision) * sites;
}

struct run_metrics report_metrics(const struct run_report *r)
{
    const struct problem *p = &r->plan->config.problem;
    double sites = (double)problem_interior_sites(p);
    double iterations = (double)r->result.iterations, updates = sites * iterations;
    double t = r->result.time_compute_s > 0 ? r->result.time_compute_s : NAN;
    double flops = 4.0 * updates + 3.0 * sites * (double)r->result.norm_checks;
    double bytes = report_sweep_bytes(p->nx, p->ny, p->precision) * iterations;
    return (struct run_metrics){
        .glups = updates / t * 1e-9,
        .gbps = bytes / t * 1e-9,
        .gflops = flops / t * 1e-9,
    };
}

static const char *units(const struct run_report *r, int count)
{
    int gpu = r->backend[0] == 'g';
    if (count == 1)
        return gpu ? "GPU" : "tile";
    return gpu ? "GPUs" : "tiles";
}

/* "method  sor, omega 1.9757 (auto), norm l2, Poisson source, 2 fixed regions" */
static void report_method_line(FILE *out, const struct plan *plan)
{
    const struct config *c = &plan->config;
    const struct update_rule rule = plan->update_rule;
    const struct problem *p = &c->problem;
    fprintf(out, "  method        %s", method_name(rule.method));
    if (rule.method != METHOD_JACOBI)
        fprintf(out, ", omega %.6g%s", rule.omega,
                rule.method == METHOD_SOR && c->omega <= 0 ? " (auto: optimal)" : "");
    fprintf(out, ", norm %s", norm_name(rule.norm));
    if (p->source[0])
        fprintf(out, ", source %s", p->source);
    if (p->region_count)
        fprintf(out, ", %d fixed region%s", p->region_count,
                p->region_count > 1 ? "s" : "");
    if (rule.anisotropic) {
        double dx, dy;
        problem_spacing(p, &dx, &dy);
        fprintf(out, ", dx %.4g dy %.4g", dx, dy);
    }
    if (c->steps > 0)
        fprintf(out, ", %ld steps", c->steps);
    fputc('\n', out);
}

/* The loop as it ran: the plan's, but the host loop where a batched plan ran no
 * batch (a run shorter than a batch). */
static struct loop_plan loop_that_ran(const struct solve_result *s)
{
    struct loop_plan ran = s->plan;
    if (ran.way == LOOP_WAY_BATCHED && !s->batches_ran)
        ran = (struct loop_plan){.way = LOOP_WAY_HOST};
    return ran;
}

/* Whether the way that ran is the one --loop asked for (auto asks for none). */
static int loop_as_asked(enum loop_mode asked, enum loop_way ran)
{
    switch (asked) {
    case LOOP_HOST:
        return ran == LOOP_WAY_HOST;
    case LOOP_BATCHED:
        return loop_way_batches(ran);
    case LOOP_CHIP:
        return ran == LOOP_WAY_CLUSTER || ran == LOOP_WAY_SPREAD;
    default:
        return 1;
    }
}

/* Who drove the iterations (the loop plan's line, loop_plan_describe), and whether each
 * sweep's launch overlapped the kernel before it; where that is not the loop --loop
 * asked for, why (the plan's reason, as --dry-run's "loop why" gives it). */
static void report_loop_line(FILE *out, const struct run_report *r)
{
    const struct loop_plan ran = loop_that_ran(&r->result);
    char line[300];
    loop_plan_describe(&ran, r->backend[0] == 'g', line, sizeof line);
    fprintf(out, "  loop          %s%s\n", line,
            r->result.sweeps_overlapped
                ? ", each sweep launched to overlap the kernel before it"
                : "");
    if (loop_as_asked(r->plan->config.loop, ran.way))
        return;
    if (ran.way != r->result.plan.way) /* planned in batches, ended before a whole one */
        fprintf(out,
                "  loop why      the run ended before its first whole batch of %ld "
                "iterations\n",
                r->result.plan.batch);
    else
        fprintf(out, "  loop why      %s: %s\n", loop_plan_way_name(ran.way), ran.reason);
}

int report_ended_badly(const struct run_report *r)
{
    return r->stopped &&
           (r->result.reason == STOP_DIVERGED || r->result.reason == STOP_FAILED);
}

const char *report_stop_name(const struct run_report *r)
{
    if (r->plan->config.steps > 0 && r->result.reason == STOP_MAX_ITER)
        return "steps";
    return stop_rule_reason_name(r->result.reason);
}

/* "stopped  NAME: why", NAME being the CSV's stop column (report_stop_name). */
static void report_stop_line(FILE *out, const struct run_report *r)
{
    const struct config *c = &r->plan->config;
    const struct solve_result *s = &r->result;
    if (c->steps > 0 && s->reason == STOP_MAX_ITER)
        fprintf(out, "  stopped       steps: the %ld time steps asked for are done\n",
                c->steps);
    else if (s->reason == STOP_INTERRUPTED)
        fprintf(out, "  stopped       interrupted at iteration %ld (by a signal)%s\n",
                s->iterations,
                c->output_count > 0 ? "; the outputs hold that field" : "");
    else if (s->reason == STOP_STAGNATED)
        fprintf(out,
                "  stopped       stagnated: no site changed at iteration %ld, the "
                "update before it still >= eps\n",
                s->iterations);
    else
        fprintf(out, "  stopped       %s\n", stop_rule_reason_text(s->reason));
}

/* "final norm  N at iteration K (eps E)"; where the run stagnated that norm is 0,
 * below eps although the run did not converge, so the line also names the last
 * norm that was not 0, the one the stop line says was still >= eps. */
static void report_norm_line(FILE *out, const struct run_report *r)
{
    const struct solve_result *s = &r->result;
    fprintf(out, "  final norm    %.6e at iteration %ld (eps %.3g)", s->final_norm,
            s->final_norm_iteration, r->plan->eps);
    if (s->reason == STOP_STAGNATED && s->nonzero_iteration > 0)
        fprintf(out, "; last nonzero norm %.6e at iteration %ld", s->nonzero_norm,
                s->nonzero_iteration);
    fputc('\n', out);
}

void report_estimate(FILE *out, const struct plan *plan)
{
    const struct config *c = &plan->config;
    const struct estimate *e = &plan->estimate;
    char count[64], other[64];
    if (plan->eps > 0.0 && e->regions)
        fprintf(out, "  estimate      none: fixed regions change the lattice's modes, "
                     "which the estimate (from its spectral radius) does not model\n");
    if (plan->eps <= 0.0 || e->expected <= 0)
        return; /* --steps, or eps 0: the run goes to its limit; or regions */
    estimate_count_text(e->expected, count, sizeof count);
    if (e->at_rest) {
        fprintf(out, "  estimate      1 iteration: every edge is 0 and there is no "
                     "source, so the field starts at the solution\n");
        return;
    }
    if (e->stagnates)
        fprintf(out,
                "  estimate      %s iterations, where %s stagnates (no site changes) "
                "before the norm reaches eps %g (%s to reach it exactly)",
                count, precision_name(c->problem.precision), plan->eps,
                e->to_eps > 0 ? estimate_count_text(e->to_eps, other, sizeof other)
                              : "never");
    else
        fprintf(out, "  estimate      %s iteration%s to eps %g", count,
                e->expected == 1 ? "" : "s", plan->eps);
    fprintf(out, ": an estimate from the spectral radius %.7g of %s on %ld x %ld\n",
            e->radius, method_name(c->method), c->problem.nx, c->problem.ny);
}

void report_breakdown(FILE *out, const struct run_report *r)
{
    const struct solve_result *s = &r->result;
    if (r->plan->config.tune.breakdown != 1 || r->backend[0] != 'g')
        return;
    const double run_us =
        s->iterations > 0 ? 1e6 * s->time_compute_s / (double)s->iterations : NAN;
    int lines = 0;
    for (int t = 0; t < BREAKDOWN_TILES; t++) {
        const struct pass_breakdown *b = &s->breakdown[t];
        if (b->iterations <= 0)
            continue;
        const double pass_us = 1e6 * b->pass_s / (double)b->iterations;
        const double between_us = 1e6 * b->between_s / (double)b->iterations;
        fprintf(out,
                "  breakdown     tile %d on GPU %d: passes %.2f us an iteration, between "
                "them %.2f, the rest %.2f (of %.2f; CUDA events in %ld of %ld "
                "iterations)\n",
                t, b->device, pass_us, between_us, run_us - pass_us - between_us, run_us,
                b->iterations, s->iterations);
        lines++;
    }
    const struct config *c = &r->plan->config;
    const int tiles = c->partition_x * c->partition_y;
    if (lines == 0)
        fprintf(out, "  breakdown     none measured: only batches of passes of two that "
                     "meet through the graph (or a lone tile's) time their passes\n");
    else if (tiles > BREAKDOWN_TILES)
        fprintf(out, "  breakdown     (the first %d of the %d tiles)\n", BREAKDOWN_TILES,
                tiles);
}

void report_print(FILE *out, const struct run_report *r)
{
    const struct config *c = &r->plan->config;
    const struct solve_result *s = &r->result;
    struct run_metrics m = report_metrics(r);
    int tiles = c->partition_x * c->partition_y;
    char block[32] = "auto";
    if (c->block_x > 0)
        snprintf(block, sizeof block, "%dx%d", c->block_x, c->block_y);
    fprintf(out, "laplace: %ld x %ld lattice, %s, backend %s, partition %dx%d (%d %s)\n",
            c->problem.nx, c->problem.ny, precision_name(c->problem.precision),
            r->backend, c->partition_x, c->partition_y, tiles, units(r, tiles));
    if (c->partition_why[0])
        fprintf(out, "  partition     auto: %s\n", c->partition_why);
    report_estimate(out, r->plan);
    if (c->world_size > 1)
        fprintf(out,
                "  ranks         %d MPI ranks (%dx%d blocks of %d tile%s each), edges "
                "between them through host memory%s, rank 0's exchange %.1f us an "
                "iteration; the devices below are rank 0's\n",
                c->world_size, c->ranks_x, c->ranks_y, tiles / c->world_size,
                tiles / c->world_size > 1 ? "s" : "",
                r->backend[0] != 'g' ? ""
                : ranks_cuda_aware()
                    ? " (page-locked, sent while the interior sweeps; the MPI is "
                      "CUDA-aware, device buffers are not handed to it yet)"
                    : " (page-locked, sent while the interior sweeps; the MPI is not "
                      "CUDA-aware)",
                s->iterations > 0 ? 1e6 * s->time_exchange_s / (double)s->iterations
                                  : 0.0);
    fprintf(out, "  devices       %s (%s)\n", r->devices, r->device_names);
    if (r->backend[0] == 'g')
        fprintf(out, "  kernel        %s, block %s, partial sums added on the %s, %s\n",
                c->kernel, block, c->reduce == REDUCE_DEVICE ? "device" : "host",
                s->peer_fallback_pairs ? "some edges by peer copies (below)"
                                       : "edges read through peer access");
    if (r->backend[0] == 'g' && s->peer_fallback_pairs)
        fprintf(out, "  peer copies   %d edges by peer copies into halos: %s\n",
                s->peer_fallback_pairs, s->peer_fallback);
    if (r->backend[0] != 's')
        report_loop_line(out, r);
    report_method_line(out, r->plan);
    report_stop_line(out, r);
    fprintf(out, "  iterations    %ld (norm computed %ld times; checked every %ld)\n",
            s->iterations, s->norm_checks, c->check_every);
    report_norm_line(out, r);
    if (r->has_exact)
        fprintf(out, "  exact error   max %.6e, l2 %.6e (against u = %s)\n", r->exact.max,
                r->exact.l2, c->exact);
    fprintf(out,
            "  time          input %.4f s, compute %.4f s, output %.4f s, total %.4f s\n",
            s->time_input_s, s->time_compute_s, s->time_output_s, r->time_total_s);
    report_breakdown(out, r);
    fprintf(out, "  throughput    %.3f Glups, %.1f GB/s, %.1f GFLOP/s\n", m.glups, m.gbps,
            m.gflops);
}

void report_csv_header_fields(FILE *out)
{
    fprintf(out,
            "backend,precision,nx,ny,partition,devices,method,iterations,converged,"
            "final_norm,time_input_s,time_compute_s,time_output_s,time_total_s,glups,"
            "gbps,gflops");
}

/* The columns after DESIGN.md's: how the run was set up, and which run it is. */
static const char run_columns[] =
    ",kernel,block,eps,check_every,loop,reduce,role,ranks,stop,speedup,efficiency";

void report_csv_header(FILE *out)
{
    report_csv_header_fields(out);
    fprintf(out, "%s\n", run_columns);
}

/* The device list with spaces for commas, so it stays one CSV field. */
static void csv_devices(const char *devices, char *out, size_t n)
{
    snprintf(out, n, "%s", devices);
    for (char *p = out; *p; p++)
        if (*p == ',')
            *p = ' ';
}

void report_csv_fields(FILE *out, const struct run_report *r)
{
    char devices[256];
    const struct config *c = &r->plan->config;
    const struct solve_result *s = &r->result;
    struct run_metrics m = report_metrics(r);
    csv_devices(r->devices, devices, sizeof devices);
    fprintf(
        out, "%s,%s,%ld,%ld,%dx%d,%s,%s,%ld,%d,%.9e,%.6f,%.6f,%.6f,%.6f,%.6f,%.3f,%.3f",
        r->backend, precision_name(c->problem.precision), c->problem.nx, c->problem.ny,
        c->partition_x, c->partition_y, devices, method_name(c->method), s->iterations,
        s->reason == STOP_CONVERGED || s->reason == STOP_STAGNATED, s->final_norm,
        s->time_input_s, s->time_compute_s, s->time_output_s, r->time_total_s, m.glups,
        m.gbps, m.gflops);
}

/* The loop that ran, as the CSV names it. */
static const char *loop_name(const struct solve_result *s)
{
    const struct loop_plan ran = loop_that_ran(s);
    return ran.way == LOOP_WAY_CLUSTER || ran.way == LOOP_WAY_SPREAD ? "chip"
           : ran.way == LOOP_WAY_HOST                                ? "host"
                                                                     : "batched";
}

/* A number of a comparison, or an empty field where it has none. */
static void csv_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.4f", v);
    else
        fputc(',', out);
}

/* kernel, block, eps, check_every, loop (the one that ran), reduce, role, ranks,
 * stop; a comparison's speed-up and efficiency (empty on the main run's row). */
static void csv_run_fields(FILE *out, const struct run_report *r)
{
    const struct config *c = &r->plan->config;
    char block[32] = "auto";
    if (c->block_x > 0)
        snprintf(block, sizeof block, "%dx%d", c->block_x, c->block_y);
    fprintf(out, ",%s,%s,%.6g,%ld,%s,%s,%s,%dx%d", c->kernel, block, r->plan->eps,
            c->check_every, loop_name(&r->result),
            c->reduce == REDUCE_DEVICE ? "device" : "host", r->role ? r->role : "run",
            c->ranks_x > 0 ? c->ranks_x : 1, c->ranks_y > 0 ? c->ranks_y : 1);
    fprintf(out, ",%s", report_stop_name(r));
    struct report_gain g = {NAN, NAN};
    if (r->against)
        g = report_gain(r->against, r);
    csv_number(out, g.speedup);
    csv_number(out, g.efficiency);
}

void report_csv_row(FILE *out, const struct run_report *r)
{
    report_csv_fields(out, r);
    csv_run_fields(out, r);
    fputc('\n', out);
}

struct report_gain report_gain(const struct run_report *run,
                               const struct run_report *compared)
{
    const struct config *c = &run->plan->config, *o = &compared->plan->config;
    int n = c->partition_x * c->partition_y;
    double tn = run->result.time_compute_s > 0 ? run->result.time_compute_s : NAN;
    double speedup = compared->result.time_compute_s / tn;
    int one_alike = o->partition_x * o->partition_y == 1 && o->backend == c->backend;
    return (struct report_gain){speedup, one_alike ? speedup / n : NAN};
}

void report_cpu_comparison(FILE *out, const struct run_report *run,
                           const struct run_report *cpu, int cpu_threads,
                           double max_difference)
{
    const struct config *c = &run->plan->config;
    int n = c->partition_x * c->partition_y;
    fprintf(
        out,
        "%ldx%ld: CPU (%d threads) %.3f s, %d %s %.3f s, speed-up %.2f, iterations %ld "
        "and %ld, largest field difference %.3g\n",
        c->problem.nx, c->problem.ny, cpu_threads, cpu->result.time_compute_s, n,
        units(run, n), run->result.time_compute_s, report_gain(run, cpu).speedup,
        cpu->result.iterations, run->result.iterations, max_difference);
}

void report_comparison(FILE *out, const struct run_report *many,
                       const struct run_report *one, double max_difference)
{
    const struct config *c = &many->plan->config;
    int n = c->partition_x * c->partition_y;
    struct report_gain g = report_gain(many, one);
    fprintf(out,
            "%ldx%ld: 1 %s %.3f s, %d %s %.3f s, speed-up %.2f, efficiency %.0f%%, "
            "iterations %ld and %ld, largest field difference %.3g\n",
            c->problem.nx, c->problem.ny, units(one, 1), one->result.time_compute_s, n,
            units(many, n), many->result.time_compute_s, g.speedup, 100.0 * g.efficiency,
            one->result.iterations, many->result.iterations, max_difference);
}

/*
 * bench_sweep.c - the lattice sweep of laplace --bench under way (its plan, floor and
 * crossover: bench_sweep_plan.c): how close does one device come to its floor, and
 * from which lattice on are all the devices (and 2 GPUs of more) faster than one?
 *
 *   runs      square lattices 128^2 ... 16384^2, float, Jacobi, --eps 0
 *             --check-every 1, each on one device and on all of them (stacked
 *             in rows, 1xN), and on 2 GPUs (1x2) where there are more than two,
 *             run by bench.c as it runs the matrix; a fixed
 *             iteration count per lattice (bench_sweep_iterations); each point the
 *             median of SWEEP_RUNS timed runs after SWEEP_WARMUPS untimed ones, in
 *             microseconds per iteration (compute time / iterations).
 *   devices   the GPUs when the bench has two or more; the one GPU alone when
 *             it has one; else the host tiles, one thread against every core, as
 *             the bench without GPUs runs its CPU part; skipped, with a line
 *             saying why, on a single core.
 *   floor     each lattice's bytes at the copy bandwidth measured by the bench's
 *             ceilings (the first GPU's, or the host's), and the share of it that
 *             one device reaches; lattices whose two fields fit in the GPU's L2
 *             are marked on chip: their floor lies below the copy bandwidth's.
 *   output    a table (each side's us per iteration, and its speed-up over one
 *             device and efficiency: speed-up / devices) and the crossover (one
 *             GPU: the floor) on stdout; one CSV row
 *             per point (its median run) in DIR/bench-<gpu>-<date>-sweep.csv, the
 *             file written whole again (a temporary, renamed) after each lattice,
 *             so that a sweep stopped by a signal keeps the lattices it finished;
 *             the crossover column and lines once it ends (or is stopped).
 *
 * The crossover, on a log-log plot of us per iteration against the lattice side:
 *
 *     us/it |                                  . 1 device
 *           |                            .   /   (memory bound: n^2)
 *           | all ____________________.____/     all devices: a higher floor
 *           |                   .     |          (they meet every iteration),
 *           | 1 ......... . '         |          then n^2 / devices
 *           +-------------------------+--------> lattice side n
 *                                 crossover: all faster here and at every larger n
 */
#include "bench_sweep.h"

#include "bench_number.h"
#include "bench_stats.h"
#include "support/error.h"
#include "support/interrupt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(SWEEP_RUNS % 2 == 1, "the median of the runs is one of them");
_Static_assert(SWEEP_RUNS >= 3 && SWEEP_WARMUPS >= 1, "at least 3 timed runs, 1 warm-up");

enum { ONE = BENCH_SWEEP_ONE, ALL = BENCH_SWEEP_ALL, TWO = BENCH_SWEEP_TWO };

/* ---- the state of a sweep ------------------------------------------------- */

struct bench_sweep {
    struct bench_state *b;
    struct bench_sweep_plan plan;
    /* per side and lattice: every timed run, their us per iteration, the median's
     * index (-1 when the point failed) and value (NAN when it failed) */
    struct bench_state_run runs[BENCH_SWEEP_SIDES][BENCH_SWEEP_MAX][SWEEP_RUNS];
    double runs_us[BENCH_SWEEP_SIDES][BENCH_SWEEP_MAX][SWEEP_RUNS];
    int median[BENCH_SWEEP_SIDES][BENCH_SWEEP_MAX];
    double us[BENCH_SWEEP_SIDES][BENCH_SWEEP_MAX];
    double floor_us[BENCH_SWEEP_MAX]; /* per lattice (bench_sweep_floor_us) */
    int on_chip[BENCH_SWEEP_MAX];     /* per lattice (bench_sweep_on_chip) */
    int done;                         /* lattices whose sides all ran */
    int crossover;                    /* index of the lattice, or -1 (until the end) */
    char crossover_text[200];
    char two_text[200];     /* 2 GPUs against one, where the sweep has them ("" else) */
    char slower_text[1200]; /* the sizes where all were slower ("" alone) */
    int saved;              /* the CSV has its name: each save replaces it */
    char path[CONFIG_PATH_MAX];
};

int bench_sweep_count(const struct bench_sweep *s)
{
    return s->plan.count;
}

int bench_sweep_sides(const struct bench_sweep *s)
{
    return s->plan.alone ? 1 : s->plan.two ? 3 : 2;
}

/* The copy bandwidth that the floors divide by: the first GPU's, or the host's. */
static double floor_gbps(const struct bench_sweep *s)
{
    const struct bench_ceilings *c = &s->b->ceilings;
    return s->plan.backend == BACKEND_GPU ? c->copy_gbps[0] : c->host_gbps;
}

/* Percent of the floor that lattice i's one-device median reaches (floor / us). */
static double pct_of_floor(const struct bench_sweep *s, int i)
{
    return 100.0 * s->floor_us[i] / s->us[ONE][i];
}

const struct bench_plan_entry *bench_sweep_entry(const struct bench_sweep *s, int side,
                                                 int i)
{
    return side == ONE   ? &s->plan.one[i]
           : side == TWO ? &s->plan.on_two[i]
                         : &s->plan.all[i];
}

/* The devices of a side: 1, 2, or all of them. */
static int side_devices(const struct bench_sweep *s, int side)
{
    return side == ONE ? 1 : side == TWO ? 2 : s->plan.devices;
}

/* Lattice i's speed-up of a side over one device, and its efficiency (speed-up /
 * devices). */
static double speedup(const struct bench_sweep *s, int side, int i)
{
    return s->us[ONE][i] / s->us[side][i];
}

static double efficiency(const struct bench_sweep *s, int side, int i)
{
    return speedup(s, side, i) / side_devices(s, side);
}

/* "1 GPU", "2 GPUs", "1 thread", "64 threads". */
static const char *devices_text(const struct bench_sweep *s, int side, char *text,
                                size_t n)
{
    int count = side_devices(s, side);
    snprintf(text, n, "%d %s%s", count, s->plan.backend == BACKEND_GPU ? "GPU" : "thread",
             count > 1 ? "s" : "");
    return text;
}

/* ---- runs (bench.c runs them into the slots) ------------------------------ */

static double us_per_iteration(const struct run_report *r)
{
    return 1e6 * r->result.time_compute_s / (double)r->result.iterations;
}

struct bench_state_run *bench_sweep_slot(struct bench_sweep *s, int side, int i, int r)
{
    return &s->runs[side][i][r < 0 ? 0 : r]; /* warm-ups: overwritten */
}

/* The median of the point's timed runs, and the one run that is it. */
void bench_sweep_point_done(struct bench_sweep *s, int side, int i)
{
    double *us = s->runs_us[side][i], sorted[SWEEP_RUNS];
    for (int r = 0; r < SWEEP_RUNS; r++)
        us[r] = us_per_iteration(&s->runs[side][i][r].report);
    memcpy(sorted, us, sizeof sorted);
    s->us[side][i] = bench_stats_median(sorted, SWEEP_RUNS);
    for (int r = SWEEP_RUNS - 1; r >= 0; r--)
        if (us[r] == s->us[side][i])
            s->median[side][i] = r;
}

/* The crossover of the medians of the lattices done (all of them unless a signal
 * stopped the sweep), and the sentence that names it. */
static void find_crossover(struct bench_sweep *s)
{
    char one[32], all[32];
    s->slower_text[0] = '\0';
    if (s->plan.alone) {
        s->crossover = -1;
        snprintf(s->crossover_text, sizeof s->crossover_text,
                 "one GPU: each lattice against its floor (no second GPU to compare "
                 "with); on chip: the fields fit in its L2, so a loop on chip is "
                 "bound by how often its blocks meet (cluster ceiling above) instead");
        return;
    }
    if (s->done == 0) {
        s->crossover = -1;
        snprintf(s->crossover_text, sizeof s->crossover_text,
                 "no crossover found: no lattice was done");
        return;
    }
    long sizes[BENCH_SWEEP_MAX];
    for (int i = 0; i < s->done; i++)
        sizes[i] = s->plan.one[i].n;
    struct bench_sweep_points p = {.count = s->done,
                                   .n = sizes,
                                   .us = {s->us[ONE], s->us[ALL]},
                                   .runs = {(const double(*)[SWEEP_RUNS])s->runs_us[ONE],
                                            (const double(*)[SWEEP_RUNS])s->runs_us[ALL]},
                                   .one = devices_text(s, ONE, one, sizeof one),
                                   .all = devices_text(s, ALL, all, sizeof all)};
    s->crossover = bench_sweep_crossover(s->us[ONE], s->us[ALL], s->done);
    bench_sweep_crossover_text(&p, s->crossover_text, sizeof s->crossover_text);
    bench_sweep_slower_text(&p, s->slower_text, sizeof s->slower_text);
    s->two_text[0] = '\0';
    if (s->plan.two) { /* the same sentence for 2 GPUs against one */
        char two[32];
        p.us[1] = s->us[TWO];
        p.runs[1] = (const double(*)[SWEEP_RUNS])s->runs_us[TWO];
        p.all = devices_text(s, TWO, two, sizeof two);
        bench_sweep_crossover_text(&p, s->two_text, sizeof s->two_text);
    }
}

/* ---- table and CSV -------------------------------------------------------- */

/* The sides the table compares with one device, in its order: 2 GPUs (where the sweep
 * has them), then all; returns their count. */
static int compared_sides(const struct bench_sweep *s, int sides[2])
{
    int count = 0;
    if (s->plan.two)
        sides[count++] = TWO;
    sides[count++] = ALL;
    return count;
}

/* Appends to line (n bytes) the column titles of each compared side: `what`, with
 * the side's devices where there are two sides ("speed-up 2", "speed-up 4"). */
static void add_titles(const struct bench_sweep *s, char *line, size_t n,
                       const char *what, int width)
{
    int sides[2], count = compared_sides(s, sides);
    for (int k = 0; k < count; k++) {
        char title[48];
        if (count > 1)
            snprintf(title, sizeof title, "%s %d", what, side_devices(s, sides[k]));
        else
            snprintf(title, sizeof title, "%s", what);
        snprintf(line + strlen(line), n - strlen(line), " %*s", width, title);
    }
}

static void table_header(const struct bench_sweep *s)
{
    char line[400], devices[32], us[48];
    int sides[2], count = compared_sides(s, sides);
    if (s->plan.alone) {
        bench_state_say(s->b, "\n%-9s %10s %16s %16s %10s\n", "lattice", "iterations",
                        "1 GPU us/it", "floor us/it", "% of floor");
        return;
    }
    snprintf(us, sizeof us, "%s us/it", devices_text(s, ONE, devices, sizeof devices));
    snprintf(line, sizeof line, "%-9s %10s %16s", "lattice", "iterations", us);
    for (int k = 0; k < count; k++) {
        snprintf(us, sizeof us, "%s us/it",
                 devices_text(s, sides[k], devices, sizeof devices));
        snprintf(line + strlen(line), sizeof line - strlen(line), " %16s", us);
    }
    add_titles(s, line, sizeof line, "speed-up", 12);
    add_titles(s, line, sizeof line, "efficiency", 12);
    bench_state_say(s->b, "\n%s\n", line);
}

/* The table line of lattice i on one GPU alone: its time, floor and share. */
static void alone_row(const struct bench_sweep *s, int i, const char *lattice)
{
    char one[32], floor[32], pct[32];
    char chip[64] = "";
    if (s->on_chip[i])
        snprintf(chip, sizeof chip, "  on chip: a meeting there %.2f us",
                 s->b->ceilings.cluster_sync_us);
    bench_state_say(s->b, "%-9s %10ld %16s %16s %10s%s\n", lattice,
                    s->plan.one[i].iterations,
                    bench_number(one, sizeof one, s->us[ONE][i], 2),
                    bench_number(floor, sizeof floor, s->floor_us[i], 2),
                    bench_number(pct, sizeof pct, pct_of_floor(s, i), 0), chip);
}

/* The table line of lattice i, once its sides ran. */
static void table_row(const struct bench_sweep *s, int i)
{
    char lattice[32], one[32], all[32], ratio[32];
    snprintf(lattice, sizeof lattice, "%ld^2", s->plan.one[i].n);
    if (s->plan.alone) {
        alone_row(s, i, lattice);
        return;
    }
    char line[400];
    int sides[2], count = compared_sides(s, sides);
    snprintf(line, sizeof line, "%-9s %10ld %16s", lattice, s->plan.one[i].iterations,
             bench_number(one, sizeof one, s->us[ONE][i], 2));
    for (int k = 0; k < count; k++)
        snprintf(line + strlen(line), sizeof line - strlen(line), " %16s",
                 bench_number(all, sizeof all, s->us[sides[k]][i], 2));
    for (int k = 0; k < count; k++)
        snprintf(line + strlen(line), sizeof line - strlen(line), " %12s",
                 bench_number(ratio, sizeof ratio, speedup(s, sides[k], i), 2));
    for (int k = 0; k < count; k++)
        snprintf(line + strlen(line), sizeof line - strlen(line), " %12s",
                 bench_number(ratio, sizeof ratio, efficiency(s, sides[k], i), 2));
    bench_state_say(s->b, "%s\n", line);
}

double bench_sweep_estimate_s(const struct bench_sweep *s)
{
    const struct bench_sweep_plan *p = &s->plan;
    const struct bench_plan_costs *k = &s->b->costs;
    double estimate = 0.0;
    for (int i = 0; i < p->count; i++)
        estimate += (SWEEP_WARMUPS + SWEEP_RUNS) *
                    (bench_plan_estimate_run_s(k, &p->one[i]) +
                     (p->alone ? 0.0 : bench_plan_estimate_run_s(k, &p->all[i])) +
                     (p->two ? bench_plan_estimate_run_s(k, &p->on_two[i]) : 0.0));
    return estimate;
}

/* What the sweep runs, two lines after prefix (on stdout and atop its CSV). */
static void print_plan(FILE *out, const char *prefix, const struct bench_sweep *s)
{
    const struct bench_sweep_plan *p = &s->plan;
    char one[32], all[80], two[32];
    if (p->alone)
        snprintf(all, sizeof all, "its floor");
    else
        devices_text(s, ALL, all, sizeof all);
    if (p->two) {
        char every[32];
        snprintf(all, sizeof all, "%s and %s", devices_text(s, TWO, two, sizeof two),
                 devices_text(s, ALL, every, sizeof every));
    }
    fprintf(out,
            "%slattice sweep: %ld^2 to %ld^2 float, Jacobi, the norm every iteration, on "
            "%s against %s%s; estimated %.1f s%s\n",
            prefix, p->one[0].n, p->one[p->count - 1].n,
            devices_text(s, ONE, one, sizeof one), all,
            p->backend == BACKEND_GPU ? "" : " (host tiles, as there are no GPUs)",
            bench_sweep_estimate_s(s),
            s->b->machine.quick ? " (LAPLACE_BENCH_QUICK: tiny lattices, not for numbers)"
                                : "");
    fprintf(
        out,
        "%s  us per iteration = compute time / iterations, the median of %d timed runs "
        "after %d warm-up%s; floor = one read and one write of every site at the copy "
        "bandwidth measured above (%.1f GB/s)\n",
        prefix, SWEEP_RUNS, SWEEP_WARMUPS, SWEEP_WARMUPS > 1 ? "s" : "", floor_gbps(s));
}

/* One side of lattice i: its median run's columns, then the sweep's. */
static void csv_row(FILE *f, const struct bench_sweep *s, int side, int i)
{
    char command[512];
    const struct bench_state_run *run = &s->runs[side][i][s->median[side][i]];
    bench_state_command(s->b, bench_sweep_entry(s, side, i), command, sizeof command);
    report_csv_fields(f, &run->report);
    fprintf(f, ",%.3f,", s->us[side][i]);
    for (int r = 0; r < SWEEP_RUNS; r++)
        fprintf(f, "%s%.3f", r ? " " : "", s->runs_us[side][i][r]);
    bench_number_csv(f, speedup(s, side, i), 3);
    bench_number_csv(f, efficiency(s, side, i), 3);
    fprintf(f, ",%d,\"%s\",sweep", side != TWO && i == s->crossover, command);
    bench_number_csv(f, s->floor_us[i], 3);
    bench_number_csv(f, side == ONE ? pct_of_floor(s, i) : NAN, 1);
    fprintf(f, ",%d", s->on_chip[i]);
    bench_number_csv(f, s->on_chip[i] ? s->b->ceilings.cluster_sync_us : NAN, 3);
    fputc('\n', f);
}

/* The lattice a signal stopped the sweep at, as its lines say: "at 4096^2". */
static void say_stopped(FILE *out, const char *prefix, const struct bench_sweep *s)
{
    fprintf(out, "%sinterrupted by %s at %ld^2: the rows above are the lattices done\n",
            prefix, interrupt_signal_name(), s->plan.one[s->done].n);
}

/* The preamble, the header, every point that ran; then, at the end, the crossover
 * as a last comment (after the lattice a signal stopped the sweep at), or, under
 * way, how many lattices are done. */
static void write_csv(FILE *f, const struct bench_sweep *s, int end)
{
    bench_state_print_machine(f, "# ", s->b);
    print_plan(f, "# ", s);
    bench_sweep_csv_header(f);
    for (int i = 0; i < s->plan.count; i++)
        for (int side = ONE; side < bench_sweep_sides(s); side++)
            if (s->median[side][i] >= 0)
                csv_row(f, s, side, i);
    if (!end) {
        fprintf(f, "# under way: %d of %d lattices done\n", s->done, s->plan.count);
        return;
    }
    if (s->done < s->plan.count)
        say_stopped(f, "# ", s);
    fprintf(f, "# %s\n", s->crossover_text);
    if (s->slower_text[0])
        fprintf(f, "# %s\n", s->slower_text);
    if (s->two_text[0])
        fprintf(f, "# %s\n", s->two_text);
}

/* The CSV (named after the matrix's) written whole under a temporary name, then
 * renamed over the last one (the first never over an earlier file): whole rows
 * only, whenever the bench stops. 0, or -1 with err set. */
static int save_csv(struct bench_sweep *s, int end, char *err, size_t n)
{
    struct temp_file t;
    FILE *f = temp_file_open(s->path, &t, err, n);
    if (!f)
        return -1;
    write_csv(f, s, end);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        temp_file_discard(&t);
        return error_set(err, n, "cannot write %s", s->path);
    }
    if (temp_file_commit(&t, s->path, s->saved) != 0)
        return error_set(err, n, "cannot write %s: %s", s->path, strerror(errno));
    s->saved = 1;
    return 0;
}

/* ---- the sweep ------------------------------------------------------------ */

/* Every point failed until bench_sweep_point_done; the CSV written with no row
 * yet (so that a folder it cannot be written in fails before any run), the plan
 * and the table's header printed. */
static int start(struct bench_sweep *s, char *err, size_t n)
{
    for (int side = ONE; side < BENCH_SWEEP_SIDES; side++)
        for (int i = 0; i < BENCH_SWEEP_MAX; i++) {
            s->median[side][i] = -1;
            s->us[side][i] = NAN;
        }
    for (int i = 0; i < s->plan.count; i++) {
        s->floor_us[i] = bench_sweep_floor_us(s->plan.one[i].n, floor_gbps(s));
        s->on_chip[i] = s->plan.backend == BACKEND_GPU &&
                        bench_sweep_on_chip(s->plan.one[i].n, s->b->ceilings.l2_bytes);
    }
    s->crossover = -1;
    bench_sweep_file_name(s->path, sizeof s->path, s->b->csv_path);
    if (save_csv(s, 0, err, n) != 0)
        return EXIT_FAILURE_RUN;
    bench_state_say(s->b, "\n");
    if (!s->b->quiet)
        print_plan(stdout, "", s);
    s->b->sweep_points = bench_sweep_sides(s) * s->plan.count;
    table_header(s);
    return EXIT_OK;
}

void bench_sweep_free(struct bench_sweep *s)
{
    free(s);
}

int bench_sweep_open(struct bench_state *b, struct bench_sweep **out, char *err, size_t n)
{
    struct bench_sweep *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s)
        return error_status(EXIT_FAILURE_RUN, err, n,
                            "out of memory for the lattice sweep");
    s->b = b;
    bench_sweep_plan(&b->machine, &s->plan);
    if (s->plan.count == 0) {
        bench_state_say(b, "\nlattice sweep: skipped: %s\n", s->plan.skipped);
        free(s);
        return EXIT_OK;
    }
    if (start(s, err, n) != EXIT_OK) {
        bench_sweep_free(s);
        return EXIT_FAILURE_RUN;
    }
    *out = s;
    return EXIT_OK;
}

int bench_sweep_lattice_done(struct bench_sweep *s, int i, char *err, size_t n)
{
    table_row(s, i);
    s->done = i + 1;
    return save_csv(s, 0, err, n) == 0 ? EXIT_OK : EXIT_FAILURE_RUN;
}

int bench_sweep_close(struct bench_sweep *s, char *err, size_t n)
{
    int status = EXIT_OK;
    find_crossover(s);
    if (s->done < s->plan.count && !s->b->quiet)
        say_stopped(stdout, "", s);
    bench_state_say(s->b, "%s\n", s->crossover_text);
    if (s->slower_text[0])
        bench_state_say(s->b, "%s\n", s->slower_text);
    if (s->two_text[0])
        bench_state_say(s->b, "%s\n", s->two_text);
    if (save_csv(s, 1, err, n) != 0)
        status = EXIT_FAILURE_RUN;
    else
        bench_state_say(s->b, "\nwrote %s\n", s->path);
    bench_sweep_free(s);
    return status;
}

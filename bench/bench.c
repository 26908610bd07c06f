/*
 * bench.c - laplace --bench (the "Speed" issue): the hardware ceilings first,
 * then the standard matrix, every configuration run twice through run_execute(),
 * then the lattice sweep.
 *
 *   ceilings  per GPU a 1 GiB device-to-device copy; from the first GPU to each
 *             other a peer copy; the host a parallel copy on every core. Each
 *             is the median of 7 timed repetitions after 2 warm-ups
 *             (bench_ceilings.c).
 *   matrix    the configurations planned by bench_plan.c, each run as the
 *             laplace command line it prints; a failed run is reported and the
 *             bench goes on.
 *   output    a table (the better of the two runs) and a summary against the
 *             targets on stdout; every run in the CSV, with the speed-up, the
 *             efficiency and the fraction of the copy bandwidth (bench_report.c).
 *   sweep     then the lattice sweep, 1 device against all (bench_sweep.c), into
 *             its own CSV; LAPLACE_BENCH_ONLY=matrix|sweep runs one part
 *             (bench_env.c reads the variables, before anything is measured).
 *   signals   Ctrl-C (or any signal interrupt.h handles) cuts the run under way
 *             short, which is dropped; the part stops there and writes its CSV
 *             with the rows done, nothing more runs, and the bench exits 130 (128
 *             + the signal). A second signal ends it at once (no temporary left).
 *
 * This file owns the runs, of the matrix and of the sweep alike (an entry as a
 * configuration, one run, an entry's runs, a sweep point's runs), the set-up (the
 * parts, the GPUs, quick mode), the measuring of the ceilings, the CSV's path and
 * opening, and bench_run. The other files say what the runs mean and never call
 * back up; each calls only files on rows below its own (and bench_ceilings.c takes
 * bench_stats.c's median):
 *
 *   top      bench.c          the entry: set-up, ceilings, paths, every run
 *   middle   bench_report.c   bench_sweep.c    the matrix's tables; the sweep's
 *   below    bench_state.c    bench_number.c   the state, its messages; numbers
 *   bottom   bench_plan.c  bench_ceilings.c  bench_stats.c  bench_env.c
 */
#include "bench.h"
#include "bench_ceilings.h"
#include "bench_env.h"
#include "bench_plan.h"
#include "bench_report.h"
#include "bench_state.h"
#include "bench_sweep.h"
#include "bench_stats.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <omp.h>

#include "support/error.h"
#include "support/interrupt.h"
#include "p2p.h"
#include "run/report.h"
#include "run/run.h"

#define MIB ((size_t)1 << 20)
#define GIB ((size_t)1 << 30)

enum { QUICK_COPY_MIB = 16 }; /* LAPLACE_BENCH_QUICK: the ceilings' copies */

/* ---- runs ----------------------------------------------------------------- */

/* The entry as a configuration: its command line, read as laplace reads its own. */
static int entry_config(const struct bench_state *b, const struct bench_plan_entry *e,
                        struct config *c, char *err, size_t n)
{
    char command[512], *argv[64], *save = NULL;
    int argc = 0;
    bench_state_command(b, e, command, sizeof command);
    for (char *word = strtok_r(command, " ", &save); word && argc < 64;
         word = strtok_r(NULL, " ", &save))
        argv[argc++] = word;
    config_defaults(c);
    if (config_from_args(c, argc, argv, err, n) != 0)
        return -1;
    c->quiet = 1;
    return plan_resolve(c, err, n) != 0 ? -1 : 0;
}

/* Solves the entry once into *r; 0, 1 when a signal cut it short (it measures
 * nothing and did not fail), or -1 with err set. */
static int run_once(const struct bench_state *b, const struct bench_plan_entry *e,
                    struct bench_state_run *r, char *err, size_t n)
{
    struct config c;
    struct field field;
    if (entry_config(b, e, &c, err, n) != 0 || plan_make(&c, &r->plan, err, n) != EXIT_OK)
        return -1;
    int status = run_execute(&r->plan, &field, &r->report, err, n);
    field_free(&field);
    plan_free(&r->plan); /* the report keeps what it reads: the plan's config */
    if (interrupt_requested())
        return 1;
    return status == EXIT_OK ? 0 : -1;
}

/* run_once; a failed run is reported on stderr and counted in *failed (the bench
 * goes on). 0, 1 when a signal cut it short, or -1 when it failed. */
static int run_counted(const struct bench_state *b, const struct bench_plan_entry *e,
                       struct bench_state_run *r, int *failed)
{
    char err[CONFIG_ERROR_MAX], command[512];
    int rc = run_once(b, e, r, err, sizeof err);
    if (rc >= 0)
        return rc;
    bench_state_command(b, e, command, sizeof command);
    fprintf(stderr, "laplace: bench: %s: %s\n", command, err);
    (*failed)++;
    return -1;
}

/* Runs an entry BENCH_RUNS times: a CSV row per run, a table line for the better one.
 * A failed run leaves the entry failed; one a signal cut short, without rows. */
static void run_entry(struct bench_state *b, int i)
{
    struct bench_state_run runs[BENCH_RUNS];
    char command[512];
    const struct bench_plan_entry *e = &b->entries[i];
    int best = 0;
    b->best[i] = (struct bench_state_best){.compute_s = NAN, .gbps = NAN};
    for (int r = 0; r < BENCH_RUNS; r++)
        if (run_counted(b, e, &runs[r], &b->failed) != 0)
            return;
    for (int r = 1; r < BENCH_RUNS; r++)
        if (runs[r].report.result.time_compute_s <
            runs[best].report.result.time_compute_s)
            best = r;
    b->best[i] = (struct bench_state_best){
        .compute_s = runs[best].report.result.time_compute_s,
        .gbps = report_metrics(&runs[best].report).gbps,
        .tiles = runs[best].plan.config.partition_x * runs[best].plan.config.partition_y};
    bench_state_command(b, e, command, sizeof command);
    for (int r = 0; r < BENCH_RUNS; r++)
        bench_report_csv_row(b, i, &runs[r].report, r + 1, command);
    bench_report_table_row(b, i, &runs[best].report);
}

/* One side of lattice i of the sweep: its warm-ups, then its timed runs, whose
 * median the sweep takes. A failed run leaves the point failed; a signal, not done. */
static void run_point(struct bench_state *b, struct bench_sweep *s, int side, int i)
{
    const struct bench_plan_entry *e = bench_sweep_entry(s, side, i);
    for (int r = -SWEEP_WARMUPS; r < SWEEP_RUNS; r++)
        if (run_counted(b, e, bench_sweep_slot(s, side, i, r), &b->sweep_failed) != 0)
            return;
    bench_sweep_point_done(s, side, i);
}

/* ---- the costs the estimates use ------------------------------------------ */

/* The iterations of the runs the costs are measured with (BENCH_PROBE_*_N). */
enum {
    PROBE_SMALL_ITERATIONS = 1000,
    PROBE_LARGE_ITERATIONS = 10,
    QUICK_PROBE_ITERATIONS = 20, /* LAPLACE_BENCH_QUICK */
};

/* A run like e on an n x n lattice, timed whole, the median of BENCH_PROBE_REPEATS by
 * wall time (the machine as busy as it is while the bench runs: the estimate is of
 * runs on it as it is); 0, or -1 if one failed. */
static int probe(const struct bench_state *b, struct bench_plan_entry e, long n,
                 long iterations, struct bench_plan_probe *p)
{
    struct bench_plan_probe runs[BENCH_PROBE_REPEATS];
    double walls[BENCH_PROBE_REPEATS];
    struct bench_state_run r;
    char err[CONFIG_ERROR_MAX];
    e.n = n;
    e.iterations = iterations;
    for (int k = 0; k < BENCH_PROBE_REPEATS; k++) {
        double start = omp_get_wtime();
        if (run_once(b, &e, &r, err, sizeof err) != 0 ||
            r.report.result.iterations != iterations)
            return -1;
        walls[k] = omp_get_wtime() - start;
        runs[k] = (struct bench_plan_probe){.n = n,
                                            .precision = e.precision,
                                            .iterations = iterations,
                                            .wall_s = walls[k],
                                            .compute_s = r.report.result.time_compute_s};
    }
    double median = bench_stats_median(walls, BENCH_PROBE_REPEATS);
    for (int k = 0; k < BENCH_PROBE_REPEATS; k++)
        if (runs[k].wall_s == median)
            *p = runs[k];
    return 0;
}

/* The cost of runs like e: a warm-up, then the small and the large lattice. A
 * failed run leaves *cost as it was (the entries' own runs will say why). */
static void measure_cost(const struct bench_state *b, struct bench_plan_entry e,
                         struct bench_plan_cost *cost)
{
    int quick = b->machine.quick;
    long large_n = quick ? BENCH_QUICK_PROBE_LARGE_N : BENCH_PROBE_LARGE_N;
    long small_it = quick ? QUICK_PROBE_ITERATIONS : PROBE_SMALL_ITERATIONS;
    long large_it = quick ? QUICK_PROBE_ITERATIONS : PROBE_LARGE_ITERATIONS;
    struct bench_plan_probe small, large;
    if (probe(b, e, BENCH_PROBE_SMALL_N, small_it / 10, &small) == 0 &&
        probe(b, e, BENCH_PROBE_SMALL_N, small_it, &small) == 0 &&
        probe(b, e, large_n, large_it, &large) == 0)
        *cost = bench_plan_cost_fit(&small, &large), cost->measured = 1;
}

/* The costs of the kinds of run the bench will make, measured on this machine so
 * that its estimates hold here: the matrix's GPUs in both precisions and its CPU
 * baseline in double; the sweep's float on one GPU, or on the host's every core and
 * one thread. What is not measured keeps its nominal cost. */
static void bench_costs(struct bench_state *b)
{
    struct bench_plan_costs *k = &b->costs;
    int matrix = b->parts & BENCH_PART_MATRIX, sweep = b->parts & BENCH_PART_SWEEP;
    struct bench_plan_entry gpu =
        bench_plan_entry_default("probe", BACKEND_GPU, PRECISION_FLOAT, 0, 1, 0);
    struct bench_plan_entry host =
        bench_plan_entry_default("probe", BACKEND_CPU, PRECISION_FLOAT, 0, 0, 0);
    *k = bench_plan_costs_nominal();
    for (int p = PRECISION_FLOAT; p <= PRECISION_DOUBLE; p++) {
        int in_sweep = sweep && p == PRECISION_FLOAT;
        gpu.precision = host.precision = (enum precision)p;
        if (b->gpus > 0 && (matrix || in_sweep))
            measure_cost(b, gpu, &k->gpu[p]);
        if ((matrix && p == PRECISION_DOUBLE) || (in_sweep && b->gpus == 0))
            measure_cost(b, host, &k->host_all[p]);
        k->host_one[p] = k->host_all[p];
        k->host_one[p].bytes_s /= b->machine.cores > 0 ? b->machine.cores : 1;
        k->host_one[p].measured = 0;
    }
    if (sweep && b->gpus == 0) {
        host.precision = PRECISION_FLOAT;
        host.partition_x = host.partition_y = 1;
        measure_cost(b, host, &k->host_one[PRECISION_FLOAT]);
    }
}

/* A part's wall time against its estimate, when it is done. */
static void say_took(const struct bench_state *b, const char *part, double start,
                     double estimate)
{
    double took = omp_get_wtime() - start;
    bench_state_say(b, "%s took %.1f s, estimated %.1f s (%+.0f%%)\n", part, took,
                    estimate, 100.0 * (estimate - took) / took);
}

/* The lattice sweep: every lattice on its sides, a table line and the CSV so far
 * each; then its crossover and its CSV (bench_sweep.c). A signal stops it after
 * the lattices done. */
static int sweep_run(struct bench_state *b, char *err, size_t n)
{
    struct bench_sweep *s;
    int status = bench_sweep_open(b, &s, err, n);
    if (status != EXIT_OK || !s)
        return status;
    double start = omp_get_wtime(), estimate = bench_sweep_estimate_s(s);
    for (int i = 0; i < bench_sweep_count(s) && !interrupt_requested(); i++) {
        run_point(b, s, BENCH_SWEEP_ONE, i);
        if (bench_sweep_sides(s) == 3 && !interrupt_requested())
            run_point(b, s, BENCH_SWEEP_TWO, i);
        if (bench_sweep_sides(s) >= 2 && !interrupt_requested())
            run_point(b, s, BENCH_SWEEP_ALL, i);
        if (!interrupt_requested() &&
            (status = bench_sweep_lattice_done(s, i, err, n)) != EXIT_OK) {
            bench_sweep_free(s);
            return status;
        }
    }
    status = bench_sweep_close(s, err, n);
    if (status == EXIT_OK && !interrupt_requested())
        say_took(b, "lattice sweep", start, estimate);
    return status;
}

/* ---- bench_run ------------------------------------------------------------ */

/* The GPUs (--devices, or every one), quick mode and the host's memory. */
static int bench_setup(struct bench_state *b, const struct config *c, char *err, size_t n)
{
    int count = p2p_device_count();
    b->quiet = c->quiet;
    b->machine.host_bytes =
        (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    b->machine.cores = omp_get_num_procs();
    b->gpus = c->device_count > 0 ? c->device_count : count;
    if (b->gpus > CONFIG_MAX_DEVICES)
        b->gpus = CONFIG_MAX_DEVICES;
    for (int i = 0; i < b->gpus; i++) {
        b->devices[i] = c->device_count > 0 ? c->devices[i] : i;
        if (b->devices[i] >= count && count == 0)
            return error_status(EXIT_BAD_USAGE, err, n,
                                "--devices: no CUDA device is visible");
        if (b->devices[i] >= count)
            return error_status(EXIT_BAD_USAGE, err, n,
                                "--devices: there is no GPU %d (this machine has %d: "
                                "0 to %d)",
                                b->devices[i], count, count - 1);
    }
    b->machine.gpus = b->gpus;
    if (b->gpus > 0 &&
        bench_ceilings_gpu_name(b->devices[0], b->gpu_name, sizeof b->gpu_name, err, n))
        return EXIT_FAILURE_RUN;
    return EXIT_OK;
}

/* The ceilings, then the free memory the largest square is planned from. */
static int bench_measure(struct bench_state *b, char *err, size_t n)
{
    size_t copy = b->machine.quick ? QUICK_COPY_MIB * MIB : GIB;
    size_t host = copy;
    if (host > b->machine.host_bytes / 8)
        host = b->machine.host_bytes / 8 / MIB * MIB;
    const char *matrix = b->gpus > 0 ? "the matrix" : "the CPU baseline";
    bench_state_say(b, "laplace --bench: measuring the ceilings, then %s%s%s ...\n",
                    b->parts & BENCH_PART_MATRIX ? matrix : "",
                    b->parts == (BENCH_PART_MATRIX | BENCH_PART_SWEEP) ? " and " : "",
                    b->parts & BENCH_PART_SWEEP ? "the lattice sweep" : "");
    if (bench_ceilings_measure_gpus(&b->ceilings, b->devices, b->gpus, copy, err, n) !=
            0 ||
        bench_ceilings_measure_host(&b->ceilings, host, err, n) != 0 ||
        bench_ceilings_least_free(b->devices, b->gpus, &b->machine.gpu_free_bytes, err,
                                  n) != 0)
        return EXIT_FAILURE_RUN;
    if (b->parts & BENCH_PART_MATRIX)
        b->count = bench_plan_matrix(&b->machine, b->entries, BENCH_MAX_ENTRIES);
    bench_costs(b);
    return EXIT_OK;
}

void bench_file_name(char *path, size_t n, const char *dir, const char *gpu_name,
                     time_t when)
{
    char gpu[128], date[16];
    struct tm tm;
    snprintf(gpu, sizeof gpu, "%s", gpu_name && *gpu_name ? gpu_name : "cpu");
    for (char *p = gpu; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-')
            *p = '-';
    localtime_r(&when, &tm);
    strftime(date, sizeof date, "%Y-%m-%d", &tm);
    snprintf(path, n, "%s/bench-%s-%s.csv", dir, gpu, date);
}

/* "bench-X-DATE.csv", or "bench-X-DATE-N.csv" with the first N from 2 that names
 * no earlier result (neither its CSV nor its sweep's): a bench never replaces one. */
static void unused_name(char *path, size_t n)
{
    char first[CONFIG_PATH_MAX], sweep[CONFIG_PATH_MAX + 16];
    snprintf(first, sizeof first, "%.*s", (int)strlen(path) - 4, path); /* no .csv */
    for (int k = 2;; k++) {
        bench_sweep_file_name(sweep, sizeof sweep, path);
        if ((access(path, F_OK) != 0 && access(sweep, F_OK) != 0) || k > 9999 ||
            snprintf(path, n, "%s-%d.csv", first, k) >= (int)n)
            return;
    }
}

/* DIR (LAPLACE_BENCH_DIR or results) made, and the matrix's CSV named in it (the
 * sweep's is named after it); the machine and the ceilings on stdout. */
static int bench_paths(struct bench_state *b, const char *dir, char *err, size_t n)
{
    char shown[512]; /* LAPLACE_BENCH_DIR as the message echoes it (error_quote) */
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return error_status(EXIT_FAILURE_RUN, err, n, "cannot create %s: %s",
                            error_quote(dir, shown, sizeof shown), strerror(errno));
    bench_file_name(b->csv_path, sizeof b->csv_path, dir, b->gpu_name, time(NULL));
    unused_name(b->csv_path, sizeof b->csv_path);
    if (!b->quiet)
        bench_state_print_machine(stdout, "", b);
    return EXIT_OK;
}

/* Opens the matrix's CSV under a temporary name and writes the preamble and the
 * header; bench_matrix_run gives it its name when it is whole. */
static int bench_open_csv(struct bench_state *b, char *err, size_t n)
{
    b->csv = temp_file_open(b->csv_path, &b->csv_temp, err, n);
    if (!b->csv)
        return EXIT_FAILURE_RUN;
    bench_state_print_machine(b->csv, "# ", b);
    bench_report_matrix_plan(b->csv, "# ", b);
    bench_report_csv_header(b->csv);
    if (!b->quiet)
        bench_report_matrix_plan(stdout, "", b);
    return EXIT_OK;
}

/* A signal stopped the matrix during configuration `at` (from 1): a line on
 * stdout and the last one of the CSV. */
static void matrix_stopped(const struct bench_state *b, int at)
{
    static const char said[] =
        "%sinterrupted by %s at configuration %d of %d: the rows above are the "
        "configurations done\n";
    fprintf(b->csv, said, "# ", interrupt_signal_name(), at, b->count);
    if (!b->quiet)
        printf(said, "\n", interrupt_signal_name(), at, b->count);
}

/* The matrix, the summary (or, stopped by a signal, a line saying where), and the
 * CSV closed. Configurations that failed are counted in b->failed
 * (bench_failures reports them). */
static int bench_matrix_run(struct bench_state *b, char *err, size_t n)
{
    if (bench_open_csv(b, err, n) != EXIT_OK)
        return EXIT_FAILURE_RUN;
    double start = omp_get_wtime(), estimate = bench_report_matrix_estimate_s(b);
    int i = 0;
    bench_report_table_header(b);
    for (; i < b->count && !interrupt_requested(); i++)
        run_entry(b, i);
    if (interrupt_requested())
        matrix_stopped(b, i);
    else
        bench_report_summary(b);
    int bad = ferror(b->csv);
    if (fclose(b->csv) != 0 || bad) {
        b->csv = NULL;
        temp_file_discard(&b->csv_temp);
        return error_status(EXIT_FAILURE_RUN, err, n, "cannot write %s", b->csv_path);
    }
    b->csv = NULL;
    if (temp_file_commit(&b->csv_temp, b->csv_path, 0) != 0)
        return error_status(EXIT_FAILURE_RUN, err, n, "cannot write %s: %s", b->csv_path,
                            strerror(errno));
    bench_state_say(b, "\nwrote %s\n", b->csv_path);
    if (!interrupt_requested())
        say_took(b, "matrix", start, estimate);
    return EXIT_OK;
}

/* One line for the runs that failed, if any, after both parts had their turn. */
static int bench_failures(const struct bench_state *b, char *err, size_t n)
{
    if (b->failed == 0 && b->sweep_failed == 0)
        return EXIT_OK;
    if (b->sweep_failed == 0)
        snprintf(err, n,
                 "bench: %d of %d configurations failed (see above); %s holds the "
                 "others",
                 b->failed, b->count, b->csv_path);
    else if (b->failed == 0)
        snprintf(err, n,
                 "bench: %d of %d points of the lattice sweep failed (see above); its "
                 "CSV holds the others",
                 b->sweep_failed, b->sweep_points);
    else
        snprintf(err, n,
                 "bench: %d of %d configurations and %d of %d points of the lattice "
                 "sweep failed (see above); the CSVs hold the others",
                 b->failed, b->count, b->sweep_failed, b->sweep_points);
    return EXIT_FAILURE_RUN;
}

/* Whether the bench goes on to its next step: no failure, no signal. */
static int goes_on(int status)
{
    return status == EXIT_OK && !interrupt_requested();
}

/* A signal stopped the bench: its status, and a line saying what was kept. */
static int bench_stopped(char *err, size_t n)
{
    snprintf(err, n, "bench: stopped by %s; the CSVs written hold the runs done",
             interrupt_signal_name());
    return interrupt_exit_status();
}

int bench_run(const struct config *c)
{
    char err[CONFIG_ERROR_MAX];
    struct bench_state *b = calloc(1, sizeof *b);
    if (!b)
        return fprintf(stderr, "laplace: out of memory\n"), EXIT_FAILURE_RUN;
    struct bench_env env;
    int status = bench_env_read(&env, err, sizeof err);
    b->parts = env.parts;
    b->machine.quick = env.quick;
    if (goes_on(status))
        status = bench_setup(b, c, err, sizeof err);
    if (goes_on(status))
        status = bench_measure(b, err, sizeof err);
    if (goes_on(status))
        status = bench_paths(b, env.dir, err, sizeof err);
    if (goes_on(status) && (b->parts & BENCH_PART_MATRIX))
        status = bench_matrix_run(b, err, sizeof err);
    if (goes_on(status) && (b->parts & BENCH_PART_SWEEP))
        status = sweep_run(b, err, sizeof err);
    if (status == EXIT_OK && interrupt_requested())
        status = bench_stopped(err, sizeof err);
    if (status == EXIT_OK)
        status = bench_failures(b, err, sizeof err);
    if (status != EXIT_OK)
        fprintf(stderr, "laplace: %s\n", err);
    if (b->csv)
        fclose(b->csv), temp_file_discard(&b->csv_temp);
    free(b);
    return status;
}

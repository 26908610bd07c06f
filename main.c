/*
 * main.c - laplace: options and config -> the requested solver -> report and
 * outputs. Each phase is one call; main reads as the table of contents.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <omp.h>

#include "bench/bench.h"
#include "settings/config.h"
#include "support/error.h"
#include "support/fault.h"
#include "support/interrupt.h"
#include "support/load.h"
#include "support/stdout_closed.h"
#include "support/stdout_watch.h"
#include "p2p.h"
#include "mpi/ranks.h"
#include "settings/settings_agree.h"
#include "run/compare.h"
#include "run/dry_run.h"
#include "run/expect.h"
#include "run/report.h"
#include "run/run.h"
#include "run/run_files.h"
#include "run/run_outputs.h"
#include "run/say.h"
#include "run/sides.h"
#include "version.h"

/* Under MPI, every rank runs rank 0's settings or none runs (settings_agree.h):
 * checked as given (before a rank's --help or --dry-run takes another path) and
 * as resolved (--backend auto on a node without GPUs). */
static int agree_on_settings(const struct config *c)
{
    char err[CONFIG_ERROR_MAX];
    int status = settings_agree_check(c, err, sizeof err);
    if (status == EXIT_OK)
        return EXIT_OK;
    return status == EXIT_BAD_USAGE ? say_usage_error(err) : say_run_error(err);
}

static void print_version(void)
{
    char cuda[128];
    p2p_runtime_version(cuda, sizeof cuda);
    printf("laplace %s (%s, %s), licence %s (see LICENSE)\n", LAPLACE_VERSION, cuda,
           ranks_built_with_mpi() ? "with MPI" : "without MPI", LAPLACE_LICENSE);
}

/* The CSV on stdout (--csv), and the row added to --csv-append's file. */
static int print_csv(const struct config *c, const struct run_report *r)
{
    char err[CONFIG_ERROR_MAX];
    if (c->csv && !c->quiet) {
        report_csv_header(stdout);
        report_csv_row(stdout, r);
    }
    if (c->csv_append[0] && run_files_csv_append(c->csv_append, r, err, sizeof err) != 0)
        return say_run_error(err);
    return EXIT_OK;
}

/* The report (or CSV) on stdout, and the row added to --csv-append's file. */
static int print_report(const struct config *c, const struct run_report *r)
{
    if (!c->csv && !c->quiet)
        report_print(stdout, r);
    return print_csv(c, r);
}

/* A solve that diverged or whose device failed: its CSV row still tells it
 * (stop diverged or failed), before the one line on stderr and status 1. */
static int solve_failed(const struct config *c, struct run_report *r, double start,
                        const char *err)
{
    r->time_total_s = omp_get_wtime() - start;
    if (report_ended_badly(r))
        print_csv(c, r);
    return say_run_error(err);
}

/* --backend auto found no GPU: one line on stderr says where the run goes and why,
 * so that a broken driver is never read as a GPU's speed (-q: errors only). */
static void say_where_it_runs(const struct config *c)
{
    char why[128];
    int tiles = c->partition_x * c->partition_y;
    if (c->quiet || ranks_rank() != 0 ||
        !plan_on_host_for_want_of_gpu(c, why, sizeof why))
        return;
    fprintf(stderr,
            "laplace: no GPU (%s): --backend auto runs on %d host tile%s (--backend cpu "
            "says so and hides this line)\n",
            why, tiles, tiles > 1 ? "s" : "");
}

/* A comparison timed while other processes hold the cores its threads need: one line
 * on stderr before it starts (load.h), since its speed-up then says as much about
 * them (-q: errors only). The comparison on the host tiles uses every core. */
static void say_if_busy(const struct plan *plan)
{
    const struct config *c = &plan->config;
    char line[512];
    int threads = plan->ops ? partition_count(&plan->partition) / c->world_size : 1;
    if (!(c->compare || c->compare_cpu) || c->quiet || c->dry_run || ranks_rank() != 0)
        return;
    if (c->compare_cpu && omp_get_num_procs() > threads)
        threads = omp_get_num_procs();
    if (load_busy(threads, "comparison", "speed-up", line, sizeof line))
        fprintf(stderr, "%s\n", line);
}

/* A run with an eps that its --max-iter will likely cut short: one line on stderr
 * at its start (and --dry-run's), from the estimate (-q: errors only). A limit
 * typed on this command line was chosen for this run: the report's estimate line
 * is enough; the default's or a file's is warned about. */
static void warn_if_max_iter_short(const struct plan *plan)
{
    const struct estimate *e = &plan->estimate;
    char count[64];
    if (plan->config.quiet || plan->config.max_iter_typed || ranks_rank() != 0 ||
        plan->eps <= 0.0 || e->expected <= plan->max_iter)
        return;
    fprintf(stderr,
            "laplace: warning: %s iterations are expected (an estimate, see the "
            "report's estimate line), more than --max-iter %ld: the run will likely "
            "stop there, before %s; raise --max-iter\n",
            estimate_count_text(e->expected, count, sizeof count), plan->max_iter,
            e->stagnates ? "the precision stagnates" : "eps");
}

/* --nx (or --ny) alone over a file's square lattice keeps the file's other side
 * (the lattice is not squared, as a lone side is without a file): said once on
 * stderr, at the run's start (-q: errors only). */
static void warn_if_one_side_typed(const struct config *c)
{
    const struct problem *p = &c->problem;
    if (c->quiet || ranks_rank() != 0 || !c->typed_side || !c->file_side ||
        p->nx == p->ny)
        return;
    long typed = c->typed_side == 'x' ? p->nx : p->ny;
    fprintf(stderr,
            "laplace: warning: --n%c %ld replaces one side of %s's %ld x %ld lattice: "
            "the run is %ld x %ld (add --n%c %ld for %ld x %ld)\n",
            c->typed_side, typed, c->config_file, c->file_side, c->file_side, p->nx,
            p->ny, c->typed_side == 'x' ? 'y' : 'x', typed, typed, typed);
}

/* The plan of the configuration, checked: outputs writable, memory enough. */
static int plan_run(const struct config *c, struct plan *plan)
{
    char err[CONFIG_ERROR_MAX];
    int status = run_plan(c, plan, err, sizeof err);
    if (status == EXIT_BAD_USAGE)
        return say_usage_error(err);
    return status == EXIT_OK ? EXIT_OK : say_run_error(err);
}

/* --sides: the lab's sides (sides.h); a refusal is status 2, a failed run 1. */
static int sides(const struct config *c)
{
    char err[CONFIG_ERROR_MAX];
    int status = sides_run(c, err, sizeof err);
    if (status == EXIT_BAD_USAGE)
        return say_usage_error(err);
    return status == EXIT_FAILURE_RUN ? say_run_error(err) : status;
}

/* --error-if-not-converged: a run with an eps (not --steps) that --max-iter ended
 * is a failure, said on stderr after its report. */
static int check_converged(const struct plan *plan, const struct solve_result *r)
{
    const struct config *c = &plan->config;
    char err[CONFIG_ERROR_MAX];
    if (!c->error_if_not_converged || c->steps > 0 || r->reason != STOP_MAX_ITER)
        return EXIT_OK;
    snprintf(err, sizeof err,
             "not converged: --max-iter %ld reached with the %s norm %.6e, not below "
             "--eps %.3g (--error-if-not-converged)",
             r->iterations, norm_name(c->norm), r->final_norm, plan->eps);
    return say_run_error(err);
}

/* --print-config: the settings as an INI file, once they are checked (on a copy
 * with auto resolved, as the run would check them; the file keeps "auto"). */
static int print_config(const struct config *c)
{
    struct config resolved = *c;
    char err[CONFIG_ERROR_MAX];
    if (plan_resolve(&resolved, err, sizeof err) != 0 ||
        plan_check_source(&resolved, NULL, err, sizeof err) != EXIT_OK)
        return say_usage_error(err);
    config_print_ini(stdout, c);
    return EXIT_OK;
}

/*
 * A signal that stopped the solve (the report says "interrupted") or came after
 * it, while the outputs were written (each was finished: they are whole): its
 * status, the same on every rank (rank 0 says which signal when the report cannot).
 * A closed stdout (SIGPIPE) is main's failed write: status 1, said by stdout_checked.
 */
static int ended_by_signal(const struct config *c, const struct solve_result *r,
                           int status)
{
    char err[CONFIG_ERROR_MAX] = "";
    int signalled = interrupt_requested() ? interrupt_exit_status() : EXIT_OK;
    if (c->world_size > 1) /* every rank writes outputs: every rank is here */
        signalled = ranks_agree_status(signalled, err, sizeof err);
    if (signalled == EXIT_OK || status != EXIT_OK)
        return status;
    if (r->reason != STOP_INTERRUPTED && interrupt_requested() != SIGPIPE &&
        ranks_rank() == 0)
        fprintf(stderr,
                "laplace: %s came after the solve, while the outputs were written: "
                "they are whole; nothing more is run\n",
                interrupt_signal_name());
    return signalled;
}

/* Solves the plan, writes its outputs and prints its report (whatever output failed:
 * the solve finished, its record is kept); then the comparisons. */
static int run(const struct plan *plan, double start)
{
    const struct config *c = &plan->config;
    struct run_report report;
    struct field field;
    char err[CONFIG_ERROR_MAX];
    interrupt_install();
    if (!c->quiet && ranks_rank() == 0)
        stdout_watch_start(); /* its reader gone, the run stops */
    int status = run_execute(plan, &field, &report, err, sizeof err);
    int agreed = c->world_size > 1 /* a rank without its field (--exact): none writes */
                     ? ranks_agree_status(field.data ? EXIT_OK : status, err, sizeof err)
                     : EXIT_OK;
    if (agreed != EXIT_OK) {
        field_free(&field);
        status = agreed;
    }
    if (status != EXIT_OK && !field.data)
        return solve_failed(c, &report, start, err);
    if (status != EXIT_OK)
        say_run_error(err); /* the history failed: the outputs are still written */
    if (run_outputs_write(plan, &field, &report.result, err, sizeof err) != EXIT_OK)
        status = say_run_error(err);
    report.time_total_s = omp_get_wtime() - start;
    int printed = print_report(c, &report); /* the solve finished: its record is kept */
    if (status == EXIT_OK)
        status = printed;
    status = ended_by_signal(c, &report.result, status);
    status = compare_all(plan, &report, &field, status);
    if (status == EXIT_OK)
        status = check_converged(plan, &report.result);
    field_free(&field);
    return status;
}

/*
 * The descriptors 0, 1 and 2 open: one closed by the caller (">&-") would be
 * taken by the first file opened, and the monitor's lines would land in it. A
 * closed stdout gets a stand-in that tells whether anything printed was lost.
 */
static void open_standard_descriptors(void)
{
    int stdout_closed = fcntl(STDOUT_FILENO, F_GETFD) == -1;
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1 && open("/dev/null", O_RDWR) != fd)
            _exit(EXIT_FAILURE_RUN);
    if (stdout_closed && stdout_closed_stand_in() != 0) /* what is printed: lost */
        _exit(EXIT_FAILURE_RUN);
}

/*
 * What was printed reached stdout, or the status says it did not (1, with one
 * message: a full disk, a file size limit, or a reader that went away, as with
 * "| head -1", whose watch stopped the run early).
 */
static int stdout_checked(int status)
{
    if (stdout_closed_lost()) {
        fprintf(stderr, "laplace: writing the standard output failed: it was closed "
                        "(>&-), and what was printed there is lost\n");
        return status == EXIT_OK ? EXIT_FAILURE_RUN : status;
    }
    errno = 0;
    int flushed = fflush(stdout) == 0, error = errno;
    if (flushed && !ferror(stdout) && !stdout_watch_closed())
        return status;
    if (!error)
        error = stdout_watch_failure(); /* stdio dropped the buffer that failed */
    fprintf(stderr, "laplace: writing the standard output failed: %s\n",
            error == EPIPE ? "its reader has gone (Broken pipe)"
            : error        ? strerror(error)
                           : "a write failed");
    return status == EXIT_OK ? EXIT_FAILURE_RUN : status;
}

/* The options, then what they ask for: help, version, topology, bench or a run. */
static int laplace(int argc, char **argv)
{
    struct config config;
    char err[CONFIG_ERROR_MAX];
    double start = omp_get_wtime();

    if (ranks_rank() != 0 && !freopen("/dev/null", "w", stdout))
        return EXIT_FAILURE_RUN; /* under MPI rank 0 alone prints (help, plan, report) */
    config_defaults(&config);
    int status = config_from_args(&config, argc, argv, err, sizeof err) != 0
                     ? EXIT_BAD_USAGE
                     : EXIT_OK;
    if (ranks_agree_status(status, err, sizeof err) != EXIT_OK) /* a node's INI file */
        return say_usage_error(err);
    if ((status = agree_on_settings(&config)) != EXIT_OK) /* an MPMD launch */
        return status;
    if (ranks_size() > 1 && (config.bench || config.show_topology))
        return say_usage_error("--bench and --topology look at one workstation; run them "
                               "without mpirun");
    if (config.show_help)
        return config_print_help(argv[0]), EXIT_OK;
    if (config.show_version)
        return print_version(), EXIT_OK;
    if (config.show_topology)
        return p2p_print_topology(stdout, err, sizeof err) ? say_run_error(err) : EXIT_OK;
    if (config.bench)
        return interrupt_install(), bench_run(&config);
    if (config.print_config)
        return print_config(&config);
    if (config.side_count > 0) /* the lab's sides: a run per side */
        return sides(&config);
    status = plan_resolve(&config, err, sizeof err) != 0 ||
                     fault_check_variable(err, sizeof err) != 0
                 ? EXIT_BAD_USAGE
                 : EXIT_OK;
    if (ranks_agree_status(status, err, sizeof err) != EXIT_OK) /* a node's environment */
        return say_usage_error(err);
    if ((status = agree_on_settings(&config)) != EXIT_OK) /* as resolved */
        return status;
    struct plan plan;
    status = plan_run(&config, &plan);
    if (status != EXIT_OK)
        return status;   /* a refusal says its one line alone */
    if (!config.dry_run) /* a signal during the first line's warm-up stops the run */
        interrupt_install();
    expect_say_if_long(&plan); /* its first line, when it takes minutes */
    say_where_it_runs(&config);
    say_if_busy(&plan);
    warn_if_one_side_typed(&config);
    warn_if_max_iter_short(&plan);
    status = config.dry_run ? dry_run_print(&plan) : run(&plan, start);
    plan_free(&plan);
    return status;
}

int main(int argc, char **argv)
{
    char err[CONFIG_ERROR_MAX];
    interrupt_ignore_write_signals(); /* a failed write is reported, on every path */
    open_standard_descriptors();
    if (ranks_start(err, sizeof err) != 0)
        return say_run_error(err);
    if (ranks_size() > 1)
        interrupt_silence_second(); /* the launcher's teardown, said by mpirun */
    int status = stdout_checked(laplace(argc, argv));
    ranks_end();
    return status;
}

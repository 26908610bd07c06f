/*
 * test_mpi_parts.c - each MPI rank builds, keeps and writes only its part (issue 25):
 * every output format (.bin .npy .dat .vti .pvti .png), written from the ranks'
 * parts with no whole field merged, and the history's norms are those of one
 * process, byte for byte, on 2x1, 1x2, 3x1 and 2x2 ranks, also where the .png's
 * heat map is reduced and its cells straddle the ranks; and the peak resident
 * memory of the largest rank at 4096^2 double on 4 ranks (host tiles), writing a
 * .bin, a .vti and a .png, is at most 30% of one process's (getrusage of the
 * waited-for children).
 *
 * Skipped, as test_mpi.c's, when mpirun is missing or ./laplace has no MPI.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

/* The problem of the comparisons: a source, a fixed disc, 6x2 tiles. */
#define PARTS_PROBLEM                                                                    \
    "--backend cpu --nx 61 --ny 47 --max-iter 150 --source 'x*y' "                       \
    "--region 'disc 0.5 0.4 0.1 2' --partition 6x2 -q"

/* A lattice wider than a .png's 1024 pixels: each pixel is the average of about
 * 1.5 x 1.5 sites, so cells straddle the ranks' edges (1531 / 3 is no multiple). */
#define REDUCED_PROBLEM                                                                  \
    "--backend cpu --nx 1531 --ny 1100 --max-iter 20 --source 'x*y' "                    \
    "--region 'disc 0.5 0.4 0.1 2' --partition 6x2 --png-tiles -q"

/* "--output DIR/f.EXT" for each extension of exts (space-separated), and the
 * history, into buf. */
static void outputs_in(char *buf, size_t n, const char *dir, const char *exts)
{
    char list[128], *save = NULL;
    int used = snprintf(buf, n, "--history %s/h.csv", dir);
    snprintf(list, sizeof list, "%s", exts);
    for (char *e = strtok_r(list, " ", &save); e; e = strtok_r(NULL, " ", &save))
        used += snprintf(buf + used, n - (size_t)used, " --output %s/f.%s", dir, e);
}

/* The history's iterations and norms (its elapsed seconds cut off) in place. */
static void drop_elapsed(const char *dir)
{
    char command[600];
    snprintf(command, sizeof command,
             "cut -d, -f1,2 %s/h.csv > %s/h.tmp && mv %s/h.tmp %s/h.csv", dir, dir, dir,
             dir);
    cr_assert_eq(system(command), 0, "%s", command);
}

/* Every file of one process's run in `one`, the same bytes in the ranks' `many`. */
static void check_same_files(const char *one, const char *many, const char *what)
{
    char command[1000];
    int status;
    snprintf(command, sizeof command,
             "diff -r '%s' '%s' && ls -A '%s' | grep -c '^\\.lp'", one, many, many);
    char *diff = shell_run(command, &status);
    cr_assert(strncmp(diff, "0", 1) == 0 && status == 1,
              "%s: the files differ from one process's (or temporaries are left):\n%s",
              what, diff);
    free(diff);
}

/* One process, then each layout of ranks, solving problem and writing the formats
 * exts. */
static void check_layouts(const char *problem, const char *exts, const char *name)
{
    static const struct {
        int np;
        const char *ranks;
    } layouts[] = {{2, "2x1"}, {2, "1x2"}, {3, "3x1"}, {4, "2x2"}};
    char one[256], many[256], outs[700], args[1200], launcher[512], options[128];
    char label[64];
    require_mpirun();
    snprintf(label, sizeof label, "parts-%s-one", name);
    fresh_out_dir(one, sizeof one, label);
    outputs_in(outs, sizeof outs, one, exts);
    struct run r = laplace_run("%s %s", problem, outs);
    cr_assert_eq(r.status, 0, "one process: status %d: %s", r.status, r.err);
    run_free(&r);
    drop_elapsed(one);
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        snprintf(label, sizeof label, "parts-%s-%s", name, layouts[i].ranks);
        fresh_out_dir(many, sizeof many, label);
        outputs_in(outs, sizeof outs, many, exts);
        snprintf(args, sizeof args, "%s --ranks %s %s", problem, layouts[i].ranks, outs);
        snprintf(options, sizeof options, "-np %d --bind-to none ./laplace",
                 layouts[i].np);
        r = program_run(120, mpirun_command(launcher, sizeof launcher, options), args);
        cr_assert_eq(r.status, 0, "%s ranks: status %d: %s", layouts[i].ranks, r.status,
                     r.err);
        run_free(&r);
        drop_elapsed(many);
        check_same_files(one, many, layouts[i].ranks);
    }
}

Test(mpi_parts, every_format_from_parts_equals_one_process, .timeout = 600)
{
    check_layouts(PARTS_PROBLEM, "bin npy dat vti pvti png", "all");
}

Test(mpi_parts, reduced_png_and_vti_from_parts_equal_one_process, .timeout = 600)
{
    check_layouts(REDUCED_PROBLEM, "vti png", "reduced");
}

/* The largest resident set (kB) of the processes that `command` starts and waits
 * for: measured in a child of ours, which runs it and reads getrusage of its own
 * waited-for children (every rank, reaped by mpirun). */
static long peak_kb(const char *command)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        struct rusage use;
        int status = system(command);
        long kb = -1;
        if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
            getrusage(RUSAGE_CHILDREN, &use) == 0)
            kb = use.ru_maxrss;
        _exit(write(fds[1], &kb, sizeof kb) == sizeof kb ? 0 : 1);
    }
    long kb = -1;
    close(fds[1]);
    cr_assert_eq(read(fds[0], &kb, sizeof kb), (ssize_t)sizeof kb);
    close(fds[0]);
    waitpid(pid, NULL, 0);
    cr_assert(kb > 0, "%s failed", command);
    return kb;
}

Test(mpi_parts, a_rank_holds_at_most_30_percent_of_one_process, .timeout = 600)
{
    char dir[256], command[2400], launcher[512];
    require_mpirun();
    fresh_out_dir(dir, sizeof dir, "parts-memory");
    const char *job = "--backend cpu --nx 4096 --ny 4096 --precision double "
                      "--partition 2x2 --steps 2 -q";
    snprintf(command, sizeof command,
             "./laplace %s --output %s/one.bin --output %s/one.vti --output %s/one.png",
             job, dir, dir, dir);
    long one = peak_kb(command);
    snprintf(command, sizeof command,
             "%s %s --output %s/four.bin --output %s/four.vti --output %s/four.png",
             mpirun_command(launcher, sizeof launcher, "-np 4 --bind-to none ./laplace"),
             job, dir, dir, dir);
    long rank = peak_kb(command);
    cr_log_info("peak resident memory: one process %ld kB, largest of 4 ranks %ld kB "
                "(%.1f%%)",
                one, rank, 100.0 * (double)rank / (double)one);
    cr_assert(rank * 10 <= one * 3,
              "a rank peaked at %ld kB, %.1f%% of one process's %ld kB (want <= 30%%)",
              rank, 100.0 * (double)rank / (double)one, one);
    snprintf(command, sizeof command,
             "cmp -s %s/one.bin %s/four.bin && cmp -s %s/one.vti %s/four.vti && "
             "cmp -s %s/one.png %s/four.png",
             dir, dir, dir, dir, dir, dir);
    cr_assert_eq(system(command), 0, "the ranks' files differ from one process's");
}

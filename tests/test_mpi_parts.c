/*
 * test_mpi_parts.c - each MPI rank builds, keeps and writes only its part (issue 25):
 * every output format (.bin .npy .dat .vti .pvti .png), written from the ranks'
 * parts with no whole field merged, and the history's norms are those of one
 * process, byte for byte, on 2x1, 1x2, 3x1 and 2x2 ranks, also where the .png's
 * heat map is reduced and its cells straddle the ranks; a heat run's snapshots in
 * every format, the same way; --exact's numbers measured on the parts equal one
 * process's (the report's line on every layout; the sums' bits where the lattice is
 * cut anywhere, without mpirun); a snapshot that fails on one rank stops every rank,
 * no temporary left; and the peak resident memory of the largest rank at 4096^2
 * double on 4 ranks (host tiles), writing a .bin, a .vti and a .png, or snapshots of
 * a heat run, or measuring --exact, is at most 30% of one process's (getrusage of
 * the waited-for children).
 *
 * --compare and --compare-cpu under ranks (issue 25, item 4): rank 0 alone solves the
 * comparison, whole, and each rank compares its part with it piece by piece; the
 * comparison lines and CSV rows are one process's (times aside) on 2x1, 1x2 and 2x2
 * ranks; the ranks other than 0 peak at most at 30% of one process's memory (GNU
 * time, per rank); a comparison rank 0's host cannot hold is refused before
 * anything is allocated (status 2, one line) where the ranks' parts fit; and a
 * comparison failing on rank 0 stops every rank with its one line.
 *
 * Skipped, as test_mpi.c's, when mpirun is missing or ./laplace has no MPI (the sums'
 * bits run everywhere).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <omp.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "vtk_ranks.h"
#include "problem/exact.h"
#include "problem/problem.h"

/* The problem of the comparisons: a source, a fixed disc, 6x2 tiles. */
#define PARTS_PROBLEM                                                                    \
    "--backend cpu --nx 61 --ny 47 --max-iter 150 --source 'x*y' "                       \
    "--region 'disc 0.5 0.4 0.1 2' --partition 6x2 -q"

/* A lattice wider than a .png's 1024 pixels: each pixel is the average of about
 * 1.5 x 1.5 sites, so cells straddle the ranks' edges (1531 / 3 is no multiple). */
#define REDUCED_PROBLEM                                                                  \
    "--backend cpu --nx 1531 --ny 1100 --max-iter 20 --source 'x*y' "                    \
    "--region 'disc 0.5 0.4 0.1 2' --partition 6x2 --png-tiles -q"

/* A heat run (weighted Jacobi, as config/heat-transient.ini) with a fixed disc,
 * a snapshot every 10 of its 30 steps, 6x2 tiles. */
#define HEAT_PROBLEM                                                                     \
    "--backend cpu --nx 61 --ny 47 --method weighted --omega 0.8 --steps 30 "            \
    "--snapshot-every 10 --region 'disc 0.5 0.4 0.1 2' --partition 6x2 -q"

/* The layouts of ranks every comparison runs: -np, --ranks. */
static const struct {
    int np;
    const char *ranks;
} layouts[] = {{2, "2x1"}, {2, "1x2"}, {3, "3x1"}, {4, "2x2"}};

/* " --output DIR/STEM.EXT" for each extension of exts (space-separated) into buf. */
static void outputs_named(char *buf, size_t n, const char *dir, const char *stem,
                          const char *exts)
{
    char list[128], *save = NULL;
    int used = 0;
    buf[0] = '\0';
    snprintf(list, sizeof list, "%s", exts);
    for (char *e = strtok_r(list, " ", &save); e; e = strtok_r(NULL, " ", &save))
        used +=
            snprintf(buf + used, n - (size_t)used, " --output %s/%s.%s", dir, stem, e);
}

/* "--output DIR/f.EXT" for each extension of exts (space-separated), and the
 * history, into buf. */
static void outputs_in(char *buf, size_t n, const char *dir, const char *exts)
{
    int used = snprintf(buf, n, "--history %s/h.csv", dir);
    outputs_named(buf + used, n - (size_t)used, dir, "f", exts);
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
        int rx, ry;
        cr_assert_eq(sscanf(layouts[i].ranks, "%dx%d", &rx, &ry), 2);
        vtk_ranks_take(many, problem, rx, ry);
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

/* f-000010.EXT, f-000020.EXT, f-000030.EXT and f.EXT of every format. */
Test(mpi_parts, snapshots_from_parts_equal_one_process, .timeout = 600)
{
    check_layouts(HEAT_PROBLEM, "bin npy dat vti pvti png", "snapshots");
}

/* The report's "exact error" line of ARGS run by `launcher` (NULL: one process),
 * malloc'd; the test fails without one. */
static char *exact_line(const char *launcher, const char *args)
{
    struct run r = launcher ? program_run(120, launcher, args) : laplace_run("%s", args);
    cr_assert_eq(r.status, 0, "%s %s: status %d: %s", launcher ? launcher : "", args,
                 r.status, r.err);
    const char *at = strstr(r.out, "exact error");
    cr_assert(at, "no exact error in the report:\n%s", r.out);
    char *line = strndup(at, strcspn(at, "\n"));
    run_free(&r);
    return line;
}

/* --exact measured by each rank on its part and reduced: the report's numbers are
 * one process's, on every layout (a Poisson problem and a heat run). */
Test(mpi_parts, exact_error_from_parts_equals_one_process, .timeout = 600)
{
    static const char *problems[] = {
        "--backend cpu --nx 61 --ny 47 --max-iter 150 --source 'x*y' "
        "--region 'disc 0.5 0.4 0.1 2' --partition 6x2 --exact 'x*y - sin(3*x)'",
        "--backend cpu --nx 61 --ny 47 --method weighted --omega 0.8 --steps 30 "
        "--partition 6x2 --exact 'x*x - y*y'"};
    char args[600], launcher[512], options[128];
    require_mpirun();
    for (size_t p = 0; p < sizeof problems / sizeof *problems; p++) {
        char *one = exact_line(NULL, problems[p]);
        for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
            snprintf(args, sizeof args, "%s --ranks %s", problems[p], layouts[i].ranks);
            snprintf(options, sizeof options, "-np %d --bind-to none ./laplace",
                     layouts[i].np);
            char *many =
                exact_line(mpirun_command(launcher, sizeof launcher, options), args);
            cr_assert_str_eq(many, one, "%s ranks: not one process's numbers",
                             layouts[i].ranks);
            free(many);
        }
        free(one);
    }
}

/* Field's sites in rect, as a part of its own (lattice site (x0, y0) first). */
static struct field part_of(const struct field *field, struct lattice_rect rect)
{
    struct field part;
    cr_assert_eq(
        field_alloc_at(&part, rect.x0, rect.y0, rect.nx, rect.ny, field->precision), 0);
    for (long y = 0; y < rect.ny; y++)
        for (long x = 0; x < rect.nx; x++)
            field_set(&part, x, y, field_get(field, rect.x0 + x, rect.y0 + y));
    return part;
}

/* The error of field summed as the ranks of a bx x by grid cut at xs[] and ys[]
 * sum it (mpi/part_exact.c), each block a part of its own: a row of blocks west
 * to east carrying the rows' sums, then the rows bottom to top. */
static struct exact_error exact_by_blocks(const struct problem *p, const char *formula,
                                          const struct field *field, const long *xs,
                                          int bx, const long *ys, int by)
{
    double largest = 0.0, *row_sum = calloc((size_t)p->ny, sizeof *row_sum);
    char err[256];
    cr_assert(row_sum);
    for (int j = 0; j < by; j++)
        for (int i = 0; i < bx; i++) {
            struct lattice_rect r = {xs[i], ys[j], xs[i + 1] - xs[i], ys[j + 1] - ys[j]};
            struct field part = part_of(field, r);
            cr_assert_eq(exact_error_rows(p, formula, &part, r, row_sum, &largest, err,
                                          sizeof err),
                         0, "%s", err);
            field_free(&part);
        }
    struct exact_error e = exact_error_total(p, row_sum, largest);
    free(row_sum);
    return e;
}

/* Wherever the lattice is cut among ranks, the error's bits are one process's:
 * cuts beside the edges, in the middle, three blocks in a row. */
Test(mpi_parts, exact_error_of_parts_has_the_bits_of_the_whole)
{
    struct problem p = test_problem(37, 29, PRECISION_DOUBLE);
    struct solve_settings s = test_settings(0.0, 40);
    struct field u;
    struct solve_result r;
    struct exact_error whole;
    const char *formula = "x*y + sin(3*x) - y*y";
    char err[256];
    run_reference(&p, &s, &u, &r);
    cr_assert_eq(exact_error(&p, formula, &u, &whole, err, sizeof err), 0, "%s", err);
    static const long cuts[][4] = {{0, 1, 37, 0},  {0, 2, 37, 0},  {0, 17, 37, 0},
                                   {0, 35, 37, 0}, {0, 36, 37, 0}, {0, 12, 25, 37}};
    static const long rows[][3] = {{0, 1, 29}, {0, 14, 29}, {0, 28, 29}};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++)
        for (size_t j = 0; j < sizeof rows / sizeof *rows; j++) {
            int bx = cuts[i][3] ? 3 : 2;
            struct exact_error e =
                exact_by_blocks(&p, formula, &u, cuts[i], bx, rows[j], 2);
            cr_assert(memcmp(&e.max, &whole.max, sizeof e.max) == 0 &&
                          memcmp(&e.l2, &whole.l2, sizeof e.l2) == 0,
                      "cut at x %ld, y %ld: max %.17g l2 %.17g, one process %.17g %.17g",
                      cuts[i][1], rows[j][1], e.max, e.l2, whole.max, whole.l2);
        }
    field_free(&u);
}

/* A snapshot failing on a rank (tile 5's piece of g-000010.pvti, rank 1's on 2x2
 * ranks, where a folder takes its name) stops every rank at once: status 1, the
 * file named, no index of that snapshot, no temporary left, no rank waiting. */
Test(mpi_parts, a_snapshot_failing_on_one_rank_stops_every_rank, .timeout = 120)
{
    char dir[256], args[800], launcher[512], piece[300];
    require_mpirun();
    fresh_out_dir(dir, sizeof dir, "parts-snapshot-fails");
    snprintf(piece, sizeof piece, "%s/g-000010_5.vti", dir);
    cr_assert_eq(mkdir(piece, 0755), 0);
    snprintf(args, sizeof args, "%s --ranks 2x2 --output %s/f.bin --output %s/g.pvti",
             HEAT_PROBLEM, dir, dir);
    struct run r = program_run(
        60, mpirun_command(launcher, sizeof launcher, "-np 4 --bind-to none ./laplace"),
        args);
    cr_assert_eq(r.status, 1, "status %d, want 1: %s", r.status, r.err);
    cr_assert(strstr(r.err, "g-000010_5.vti"), "the piece is not named:\n%s", r.err);
    cr_assert(!strstr(r.err, "rank 0"), "rank 1's piece blamed on rank 0:\n%s", r.err);
    cr_assert(!exists_in_dir(dir, "g-000010.pvti") && !exists_in_dir(dir, "f-000020.bin"),
              "the run went on after the failed snapshot");
    char command[400];
    snprintf(command, sizeof command, "ls -A '%s' | grep -c '^\\.lp'", dir);
    int status;
    char *left = shell_run(command, &status);
    cr_assert(strncmp(left, "0", 1) == 0, "temporaries left in %s", dir);
    free(left);
    run_free(&r);
}

/* The largest resident set (kB) of the processes that `command` starts and waits
 * for, and the command's exit status in *status (-1: it did not exit): measured in
 * a child of ours, which runs it and reads getrusage of its own waited-for children
 * (every rank, reaped by mpirun). */
static long peak_kb_of(const char *command, int *status)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        struct rusage use;
        int raw = system(command);
        long said[2] = {raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, -1};
        if (raw != -1 && getrusage(RUSAGE_CHILDREN, &use) == 0)
            said[1] = use.ru_maxrss;
        _exit(write(fds[1], said, sizeof said) == sizeof said ? 0 : 1);
    }
    long said[2] = {-1, -1};
    close(fds[1]);
    cr_assert_eq(read(fds[0], said, sizeof said), (ssize_t)sizeof said);
    close(fds[0]);
    waitpid(pid, NULL, 0);
    *status = (int)said[0];
    return said[1];
}

/* peak_kb_of a command that must succeed. */
static long peak_kb(const char *command)
{
    int status;
    long kb = peak_kb_of(command, &status);
    cr_assert(status == 0 && kb > 0, "%s failed (status %d)", command, status);
    return kb;
}

/* The lattice of the memory tests: 4096^2 double on 2x2 host tiles (one a rank). */
#define MEMORY_JOB "--backend cpu --nx 4096 --ny 4096 --precision double --partition 2x2"

/*
 * MEMORY_JOB with job, writing the formats exts as one.EXT in a folder by one
 * process and as four.EXT by 4 ranks: the largest rank peaks at most at 30% of one
 * process's memory, and every file one* (snapshots too) is the same bytes as the
 * ranks' four*. Each run's stdout goes to stdout-one, stdout-four there.
 */
static void check_rank_memory(const char *name, const char *job, const char *exts,
                              char *dir, size_t n)
{
    char command[2400], launcher[512], outs[600];
    require_mpirun();
    fresh_out_dir(dir, n, name);
    outputs_named(outs, sizeof outs, dir, "one", exts);
    snprintf(command, sizeof command, "./laplace %s %s %s > %s/stdout-one", MEMORY_JOB,
             job, outs, dir);
    long one = peak_kb(command);
    outputs_named(outs, sizeof outs, dir, "four", exts);
    snprintf(command, sizeof command, "%s %s %s %s > %s/stdout-four",
             mpirun_command(launcher, sizeof launcher, "-np 4 --bind-to none ./laplace"),
             MEMORY_JOB, job, outs, dir);
    long rank = peak_kb(command);
    cr_log_info("%s: peak resident memory: one process %ld kB, largest of 4 ranks %ld kB "
                "(%.1f%%)",
                name, one, rank, 100.0 * (double)rank / (double)one);
    cr_assert(
        rank * 10 <= one * 3,
        "%s: a rank peaked at %ld kB, %.1f%% of one process's %ld kB (want <= 30%%)",
        name, rank, 100.0 * (double)rank / (double)one, one);
    snprintf(
        command, sizeof command,
        "cd '%s' && for f in one*; do cmp -s \"$f\" \"four${f#one}\" || exit 1; done",
        dir);
    cr_assert_eq(system(command), 0, "%s: the ranks' files differ from one process's",
                 name);
}

Test(mpi_parts, a_rank_holds_at_most_30_percent_of_one_process, .timeout = 600)
{
    char dir[256];
    check_rank_memory("parts-memory", "--steps 2 -q", "bin vti png", dir, sizeof dir);
}

/* Snapshots at steps 1 and 2 of a heat run, each written from the parts: a rank
 * that merged the whole field for them would hold 75% of one process's memory. */
Test(mpi_parts, a_rank_holds_at_most_30_percent_with_snapshots, .timeout = 600)
{
    char dir[256];
    check_rank_memory("parts-memory-snapshots",
                      "--method weighted --omega 0.8 --steps 2 --snapshot-every 1 -q",
                      "bin vti", dir, sizeof dir);
}

/* --exact measured on the parts, its numbers one process's. */
Test(mpi_parts, a_rank_holds_at_most_30_percent_with_exact, .timeout = 600)
{
    char dir[256];
    check_rank_memory("parts-memory-exact",
                      "--method weighted --omega 0.8 --steps 2 --exact 'x*y - y'", "bin",
                      dir, sizeof dir);
    char *one = text_in_dir(dir, "stdout-one"), *four = text_in_dir(dir, "stdout-four");
    const char *a = strstr(one, "exact error"), *b = strstr(four, "exact error");
    cr_assert(a && b, "no exact error in the reports:\n%s\n%s", one, four);
    cr_assert_eq(strcspn(a, "\n"), strcspn(b, "\n"));
    cr_assert(strncmp(a, b, strcspn(a, "\n")) == 0, "4 ranks: %.*s; one process: %.*s",
              (int)strcspn(b, "\n"), b, (int)strcspn(a, "\n"), a);
    free(one), free(four);
}

/* ---- --compare and --compare-cpu under ranks ------------------------------------ */

/* PARTS_PROBLEM, reported (not -q): its comparisons print their lines. */
#define COMPARED_PROBLEM                                                                 \
    "--backend cpu --nx 61 --ny 47 --max-iter 150 --source 'x*y' "                       \
    "--region 'disc 0.5 0.4 0.1 2' --partition 6x2 --compare --compare-cpu"

/* A word of a comparison line that is a time, a speed-up or an efficiency: its
 * number as "#", what follows the number kept ("s,", "%,"). */
static void append_word(char *buf, size_t n, const char *word, const char *previous,
                        const char *next)
{
    size_t used = strlen(buf), digits = strspn(word, "0123456789.");
    int timed = strncmp(next, "s,", 2) == 0 || strcmp(previous, "speed-up") == 0 ||
                strcmp(previous, "efficiency") == 0;
    if (timed && digits > 0)
        snprintf(buf + used, n - used, "%s#%s", used ? " " : "", word + digits);
    else
        snprintf(buf + used, n - used, "%s%s", used ? " " : "", word);
}

/* The lines of stdout that start with "61x47: " (the comparisons'), each with its
 * times, speed-up and efficiency written as "#", one after another into buf. */
static void comparison_lines(const char *out, char *buf, size_t n)
{
    char line[512], *words[64], *save = NULL;
    buf[0] = '\0';
    for (const char *at = strstr(out, "61x47: "); at; at = strstr(at + 1, "61x47: ")) {
        char kept[512] = "";
        int count = 0;
        snprintf(line, sizeof line, "%.*s", (int)strcspn(at, "\n"), at);
        for (char *w = strtok_r(line, " ", &save); w && count < 64;
             w = strtok_r(NULL, " ", &save))
            words[count++] = w;
        for (int i = 0; i < count; i++)
            append_word(kept, sizeof kept, words[i], i > 0 ? words[i - 1] : "",
                        i + 1 < count ? words[i + 1] : "");
        snprintf(buf + strlen(buf), n - strlen(buf), "%s\n", kept);
    }
}

/* The row of a --csv stdout whose role is role, or NULL. */
static const char *row_of(const char *out, int role_column, const char *role)
{
    char field[64];
    for (int i = 1; nth_line(out, i); i++)
        if (strcmp(csv_field(nth_line(out, i), role_column, field, sizeof field), role) ==
            0)
            return nth_line(out, i);
    return NULL;
}

/* Each comparison's CSV row in many has one's values, times and rates aside. */
static void check_same_rows(const char *one, const char *many, const char *what)
{
    static const char *timed = ",time_input_s,time_compute_s,time_output_s,"
                               "time_total_s,glups,gbps,gflops,speedup,efficiency,";
    static const char *roles[] = {"compare-1-device", "compare-cpu"};
    char header[1024];
    snprintf(header, sizeof header, "%.*s", (int)strcspn(one, "\n"), one);
    int role = csv_column(header, "role");
    cr_assert(role >= 0, "no role column:\n%s", one);
    for (int r = 0; r < 2; r++) {
        const char *a = row_of(one, role, roles[r]), *b = row_of(many, role, roles[r]);
        cr_assert(a && b, "%s: no %s row:\n%s\n%s", what, roles[r], one, many);
        char name[64], key[70], x[128], y[128];
        for (int c = 0; *csv_field(header, c, name, sizeof name); c++) {
            snprintf(key, sizeof key, ",%s,", name);
            if (strstr(timed, key))
                continue;
            cr_assert_str_eq(csv_field(b, c, y, sizeof y), csv_field(a, c, x, sizeof x),
                             "%s: %s's %s differs", what, roles[r], name);
        }
    }
}

Test(mpi_parts, compare_and_compare_cpu_under_ranks_say_what_one_process_says,
     .timeout = 600)
{
    static const struct {
        int np;
        const char *ranks;
    } layouts[] = {{2, "2x1"}, {2, "1x2"}, {4, "2x2"}};
    char launcher[512], options[128], args[600], want[2048], got[2048];
    require_mpirun();
    struct run line = laplace_run(COMPARED_PROBLEM);
    struct run csv = laplace_run(COMPARED_PROBLEM " --csv");
    cr_assert(line.status == 0 && csv.status == 0, "one process: %s%s", line.err,
              csv.err);
    comparison_lines(line.out, want, sizeof want);
    cr_assert_eq(count_lines(want), 2, "one process's comparisons:\n%s", line.out);
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        snprintf(options, sizeof options, "-np %d --bind-to none ./laplace",
                 layouts[i].np);
        mpirun_command(launcher, sizeof launcher, options);
        snprintf(args, sizeof args, COMPARED_PROBLEM " --ranks %s", layouts[i].ranks);
        struct run r = program_run(120, launcher, args);
        cr_assert_eq(r.status, 0, "%s ranks: status %d: %s", layouts[i].ranks, r.status,
                     r.err);
        comparison_lines(r.out, got, sizeof got);
        cr_assert_str_eq(got, want, "%s ranks: the comparisons differ:\n%s",
                         layouts[i].ranks, r.out);
        run_free(&r);
        snprintf(args, sizeof args, COMPARED_PROBLEM " --csv --ranks %s",
                 layouts[i].ranks);
        r = program_run(120, launcher, args);
        cr_assert_eq(r.status, 0, "%s ranks --csv: status %d: %s", layouts[i].ranks,
                     r.status, r.err);
        check_same_rows(csv.out, r.out, layouts[i].ranks);
        run_free(&r);
    }
    run_free(&line);
    run_free(&csv);
}

/* Each rank's number after tag (values[0..np-1]) from `mpirun --tag-output ...
 * /usr/bin/time -o /dev/stderr -f 'TAG%X' ./laplace`'s tagged stderr lines (-o: one
 * write each, which Open MPI tags whole). */
static void numbers_of_ranks(const char *said, const char *tag, double *values, int np)
{
    for (int r = 0; r < np; r++)
        values[r] = -1.0;
    for (const char *line = said; line && *line; line = strchr(line, '\n')) {
        int rank = -1;
        line += *line == '\n';
        const char *text = mpi_tagged_text(line, &rank);
        if (text && rank >= 0 && rank < np && strncmp(text, tag, strlen(tag)) == 0)
            values[rank] = atof(text + strlen(tag));
    }
    for (int r = 0; r < np; r++)
        cr_assert(values[r] >= 0.0, "no '%s' of rank %d:\n%s", tag, r, said);
}

/* Each rank's peak resident memory (kB, ranks[0..np-1]): numbers_of_ranks of
 * 'peak_kb %M'. */
static void peaks_of_ranks(const char *said, long *ranks, int np)
{
    double values[16];
    numbers_of_ranks(said, "peak_kb ", values, np);
    for (int r = 0; r < np; r++)
        ranks[r] = (long)values[r];
}

Test(mpi_parts, with_compare_the_ranks_but_0_hold_at_most_30_percent_of_one_process,
     .timeout = 600)
{
    char command[2400], launcher[512];
    long ranks[4];
    int status;
    require_mpirun();
    if (access("/usr/bin/time", X_OK) != 0)
        cr_skip_test("needs GNU time as /usr/bin/time (make deps installs time)");
    const char *job = "--backend cpu --nx 4096 --ny 4096 --precision double "
                      "--partition 2x2 --steps 2 --compare -q";
    snprintf(command, sizeof command, "./laplace %s", job);
    long one = peak_kb(command);
    snprintf(
        command, sizeof command, "%s %s",
        mpirun_command(launcher, sizeof launcher,
                       "--tag-output -np 4 --bind-to none /usr/bin/time -o /dev/stderr "
                       "-f 'peak_kb %M' ./laplace"),
        job);
    char *said = shell_run(command, &status);
    cr_assert_eq(status, 0, "%s:\n%s", command, said);
    peaks_of_ranks(said, ranks, 4);
    free(said);
    long others = ranks[1] > ranks[2] ? ranks[1] : ranks[2];
    others = ranks[3] > others ? ranks[3] : others;
    cr_log_info("peak resident memory with --compare: one process %ld kB, rank 0 %ld kB "
                "(%.1f%%), the largest of ranks 1-3 %ld kB (%.1f%%)",
                one, ranks[0], 100.0 * (double)ranks[0] / (double)one, others,
                100.0 * (double)others / (double)one);
    cr_assert(others * 10 <= one * 3,
              "a rank other than 0 peaked at %ld kB, %.1f%% of one process's %ld kB "
              "(want <= 30%%)",
              others, 100.0 * (double)others / (double)one, one);
}

/* While rank 0 solves the comparison alone, the other ranks wait without holding a
 * core (ranks_wait_idle): spinning in MPI they took a core from the comparison and
 * slowed it and its timing (--compare-cpu's 2.0 s became 6.3 s on 2 cores). Here
 * the comparison is one tile, about twice the main run's time, so rank 1 is busy
 * about a third of its wall time; spinning, it was busy all of it (a loaded machine
 * gives a spinning rank less CPU: the test can then miss a spin, never invent one). */
Test(mpi_parts, ranks_waiting_for_rank_0s_comparison_leave_it_the_cores, .timeout = 300)
{
    char command[1200], launcher[512];
    double user[2], sys[2], wall[2];
    int status;
    require_mpirun();
    if (access("/usr/bin/time", X_OK) != 0)
        cr_skip_test("needs GNU time as /usr/bin/time (make deps installs time)");
    snprintf(
        command, sizeof command, "%s %s",
        mpirun_command(launcher, sizeof launcher,
                       "--tag-output -np 2 --bind-to none /usr/bin/time -o /dev/stderr "
                       "-f 'user_s %U\nsys_s %S\nwall_s %e' ./laplace"),
        "--backend cpu --nx 1024 --ny 1024 --partition 2x1 --ranks 2x1 --steps 500 "
        "--compare -q");
    char *said = shell_run(command, &status);
    cr_assert_eq(status, 0, "%s:\n%s", command, said);
    numbers_of_ranks(said, "user_s ", user, 2);
    numbers_of_ranks(said, "sys_s ", sys, 2); /* a spin that yields shows here */
    numbers_of_ranks(said, "wall_s ", wall, 2);
    free(said);
    double busy = user[1] + sys[1];
    cr_log_info("rank 1: %.2f s of CPU in %.2f s (rank 0: %.2f in %.2f)", busy, wall[1],
                user[0] + sys[0], wall[0]);
    cr_assert(busy < 0.7 * wall[1],
              "rank 1 was busy %.2f s of its %.2f s: it spun while rank 0 compared", busy,
              wall[1]);
}

/* How often needle occurs in text. */
static int occurrences(const char *text, const char *needle)
{
    int count = 0;
    for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
        count++;
    return count;
}

/* problem_check_source looks at the sites of its rectangle alone: a site that is not
 * finite is found in the part holding it and in the whole, missed in any other. */
Test(mpi_parts, the_source_is_checked_over_the_rectangle_given)
{
    struct problem p = test_problem(5, 5, PRECISION_DOUBLE);
    char err[256];
    snprintf(p.source, sizeof p.source, "log(0.75-x)"); /* -inf at site x = 3 alone */
    struct lattice_rect west = {.x0 = 0, .y0 = 0, .nx = 3, .ny = 5};
    struct lattice_rect east = {.x0 = 3, .y0 = 0, .nx = 2, .ny = 5};
    cr_assert_eq(problem_check_source(&p, west, err, sizeof err), 0, "%s", err);
    cr_assert_eq(problem_check_source(&p, east, err, sizeof err), -1);
    cr_assert(strstr(err, "not finite at x = 0.75"), "%s", err);
    cr_assert_eq(problem_check_source(&p, problem_whole(&p), err, sizeof err), -1);
}

/* The source is checked by each rank on its own part (plan_check_source): a value
 * that is not finite only in rank 1's part is refused on every rank, status 2,
 * said once; and each rank's check costs its part, not the lattice (every rank
 * evaluated the whole source before: 3.0 s of CPU each against 0.68 at 8192^2). */
Test(mpi_parts, each_rank_checks_the_source_on_its_own_part, .timeout = 300)
{
    char command[1200], launcher[512];
    double ranks[4];
    int status;
    require_mpirun();
    /* 5 x 5 on 2x1 tiles: x 0..2 rank 0, 3..4 rank 1; log(0.75 - x) is -inf at site 3 */
    struct run r = program_run(
        60, mpirun_command(launcher, sizeof launcher, "-np 2 ./laplace"),
        "--backend cpu --nx 5 --ny 5 --partition 2x1 --ranks 2x1 --source 'log(0.75-x)'");
    cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
    cr_assert_eq(occurrences(r.err, "laplace: [problem] source = log(0.75-x)"), 1,
                 "said once: %s", r.err);
    cr_assert(strstr(r.err, "not finite at x = 0.75"), "%s", r.err);
    run_free(&r);
    if (access("/usr/bin/time", X_OK) != 0)
        cr_skip_test("needs GNU time as /usr/bin/time (make deps installs time)");
    const char *job = "--backend cpu --nx 8192 --ny 8192 --partition 2x2 "
                      "--source 'sin(3*x)*cos(2*y)'";
    snprintf(command, sizeof command,
             "/usr/bin/time -o /dev/stderr -f 'cpu_s %%U' ./laplace %s --print-config "
             "2>&1 >/dev/null | tail -n 1",
             job); /* --print-config: the check over the whole lattice, nothing more */
    char *said = shell_run(command, &status);
    double whole = -1.0;
    cr_assert(sscanf(said, "cpu_s %lf", &whole) == 1, "%s", said);
    free(said);
    snprintf(
        command, sizeof command, "%s %s --ranks 2x2 --dry-run",
        mpirun_command(launcher, sizeof launcher,
                       "--tag-output -np 4 --bind-to none /usr/bin/time -o /dev/stderr "
                       "-f 'cpu_s %U' ./laplace"),
        job);
    said = shell_run(command, &status);
    cr_assert_eq(status, 0, "%s:\n%s", command, said);
    numbers_of_ranks(said, "cpu_s ", ranks, 4);
    free(said);
    double most = fmax(fmax(ranks[0], ranks[1]), fmax(ranks[2], ranks[3]));
    cr_log_info("the source checked: whole lattice %.2f s of CPU, the busiest of 4 ranks "
                "%.2f s",
                whole, most);
    cr_assert(most < 0.5 * whole, "a rank used %.2f s of CPU, the whole check %.2f s",
              most, whole);
}

/*
 * A double lattice on 2x2 ranks of this host whose parts fit its memory and whose
 * comparison does not: 4 ranks each hold 3/4 of a whole field F (the host tiles
 * double it), 3F together; rank 0's comparison adds a whole solve 3F and its part,
 * 5.5F in all. F = MemAvailable / 4.06 leaves 35% either side.
 */
static long side_between_parts_and_whole(void)
{
    double available = host_available();
    if (available <= 0.0)
        cr_skip_test("needs /proc/meminfo's MemAvailable");
    return (long)sqrt(available / 4.06 / 8.0);
}

/* `option` on the lattice of args refused at once: status 2, nothing on stdout, one
 * line of ours on stderr (mpirun adds its notice), peak memory no larger than a dry
 * run's (planned kB) and 64 MiB: nothing was allocated. */
static void check_comparison_refused(const char *launcher, const char *args, long side,
                                     const char *option, long planned)
{
    char dir[256], command[1600], named[64];
    int status;
    fresh_out_dir(dir, sizeof dir, "parts-refused");
    snprintf(command, sizeof command, "timeout 60 %s %s %s > %s/out.txt 2> %s/err.txt",
             launcher, args, option, dir, dir);
    long kb = peak_kb_of(command, &status);
    char *out = text_in_dir(dir, "out.txt"), *err = text_in_dir(dir, "err.txt");
    cr_assert(out && err, "%s: no output", option);
    snprintf(named, sizeof named, "laplace: %s: the %ldx%ld", option, side, side);
    cr_assert_eq(status, 2, "%s: status %d:\n%s", option, status, err);
    cr_assert_str_eq(out, "", "%s: stdout:\n%s", option, out);
    cr_assert(strncmp(err, named, strlen(named)) == 0 &&
                  strstr(err, "does not fit the host of rank 0") &&
                  strstr(err, "drop --compare"),
              "%s: not the refusal:\n%s", option, err);
    cr_assert(!strstr(strchr(err, '\n'), "laplace"), "said twice:\n%s", err);
    cr_assert(kb < planned + 64 * 1024,
              "%s: peak %ld kB against a dry run's %ld kB: something was allocated",
              option, kb, planned);
    free(out), free(err);
}

Test(mpi_parts, a_comparison_rank_0_cannot_hold_is_refused_before_anything_runs,
     .timeout = 300)
{
    char launcher[512], args[300], command[1200];
    int status;
    require_mpirun();
    long side = side_between_parts_and_whole();
    mpirun_command(launcher, sizeof launcher, "-np 4 --bind-to none ./laplace");
    snprintf(args, sizeof args,
             "--backend cpu --nx %ld --ny %ld --partition 2x2 --steps 10", side, side);
    snprintf(command, sizeof command, "%s %s --dry-run > /dev/null 2>&1", launcher, args);
    long planned = peak_kb_of(command, &status);
    cr_assert_eq(status, 0, "the parts of %ld^2 do not fit (%s)", side, command);
    check_comparison_refused(launcher, args, side, "--compare", planned);
    check_comparison_refused(launcher, args, side, "--compare-cpu", planned);
}

/*
 * --compare-cpu on 2 ranks, LAPLACE_INJECT_FAULT=1:5 given to rank 0 alone (an MPMD
 * launch): the main run's tile 1 is rank 1's, so the main run finishes; rank 0's
 * comparison (one process's host tiles, one a core) fails on its tile 1 at
 * iteration 5. Every rank stops with status 1, rank 0 saying why once.
 */
Test(mpi_parts, a_comparison_failing_on_rank_0_stops_every_rank, .timeout = 300)
{
    char launcher[1024], options[600];
    require_mpirun();
    if (omp_get_num_procs() < 2) /* the comparison's tiles: one a core */
        cr_skip_test("needs 2 cores: the comparison's tile 1");
    const char *job = "--backend cpu --nx 61 --ny 47 --max-iter 150 --partition 2x1 "
                      "--compare-cpu -q";
    snprintf(options, sizeof options,
             "--bind-to none -np 1 env LAPLACE_INJECT_FAULT=1:5 ./laplace %s : -np 1 "
             "./laplace",
             job);
    struct run r =
        program_run(60, mpirun_command(launcher, sizeof launcher, options), job);
    cr_assert_neq(r.status, 124, "the ranks hung (timeout):\n%s", r.err);
    cr_assert_eq(r.status, 1, "status %d:\n%s", r.status, r.err);
    cr_assert_str_eq(r.out, "", "stdout:\n%s", r.out);
    cr_assert(strncmp(r.err, "laplace: tile 1: injected fault", 31) == 0 &&
                  strstr(r.err, "sweep 5 of tile 1"),
              "not the comparison's fault:\n%s", r.err);
    cr_assert(!strstr(strchr(r.err, '\n'), "laplace:"), "said twice:\n%s", r.err);
    run_free(&r);
}

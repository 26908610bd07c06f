/*
 * test_mpi.c - laplace under mpirun (issue 17), end to end: the tiles split into
 * blocks of ranks give the same fields, iteration counts and norms as the serial
 * reference, bit for bit (Jacobi, SOR, a Poisson source with regions, float and
 * double, other norms and --check-every), on 2x1, 1x2, 3x1 and 2x2 ranks with
 * several tiles each; a .pvti's pieces and a run's snapshots are those of one
 * process; the refusals are said once, by rank 0; a fault on rank 1 stops every
 * rank, said once; SIGINT to the ranks (or to rank 1 alone) stops every rank at
 * one iteration, writes that field and exits 130, SIGINT to mpirun leaves every
 * output whole or absent and no rank behind; and without mpirun the MPI build runs
 * as before; SIGKILL of rank 1 ends every rank within seconds, outputs whole or absent;
 * and each test's jobs keep Open MPI's session folders to the test.
 *
 * Every test reports itself skipped when mpirun is not on PATH or ./laplace was
 * built without MPI (CI may build without Open MPI). Each mpirun runs with
 * --oversubscribe (up to 4 ranks on a 2-core machine) and --allow-run-as-root when
 * we are root; the lattices are small so that the suite stays quick.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "vtk_ranks.h"

/* ---- the launcher ---------------------------------------------------------- */

/* Removes this process's test folders (tests/out/<pid>-mpi-*) when it exits. */
static void remove_mpi_dirs(void)
{
    char command[256];
    snprintf(command, sizeof command, "rm -rf " TEST_OUT "/%ld-mpi-*", out_pid());
    if (system(command) != 0)
        fprintf(stderr, "test_mpi: could not remove %s\n", command + 7);
}

/* Each test's start: ./laplace there, MPI usable (else the test is skipped). */
static void require_mpi(void)
{
    require_mpirun();
    static int registered;
    if (!registered++)
        atexit(remove_mpi_dirs);
}

/*
 * mpirun_command's "... -np NP --bind-to none EXTRA ./laplace" in buf. --bind-to none,
 * as README advises: bound to one core (Open MPI's default for two ranks or fewer), a
 * rank with several tiles is rightly warned about (mpi/binding.c), and these tests
 * want its stderr to hold only what they check.
 */
static const char *mpirun_laplace(char *buf, size_t n, int np, const char *extra)
{
    char options[400];
    snprintf(options, sizeof options, "-np %d --bind-to none %s ./laplace", np,
             extra ? extra : "");
    return mpirun_command(buf, n, options);
}

/*
 * Runs "timeout SECONDS mpirun ... -np NP EXTRA ./laplace ARGS" (ARGS as printf
 * formats them, through the shell), stdout and stderr captured as laplace_run
 * does. A run killed by the timeout has status 124.
 */
static struct run mpi_run(int seconds, int np, const char *extra, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
static struct run mpi_run(int seconds, int np, const char *extra, const char *format, ...)
{
    char args[4096], launcher[512];
    va_list ap;
    va_start(ap, format);
    vsnprintf(args, sizeof args, format, ap);
    va_end(ap);
    return program_run(seconds, mpirun_laplace(launcher, sizeof launcher, np, extra),
                       args);
}

/* A fresh folder tests/out/<pid>-mpi-NAME in dir (removed when the test ends). */
static void mpi_dir(char *dir, size_t n, const char *name)
{
    char named[200];
    snprintf(named, sizeof named, "mpi-%s", name);
    fresh_out_dir(dir, n, named);
}

/* The lines of text that start with prefix. */
static int lines_starting(const char *text, const char *prefix)
{
    int count = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        count += strncmp(line, prefix, strlen(prefix)) == 0;
    }
    return count;
}

/* ---- files ------------------------------------------------------------------- */

/* got holds want's bytes, all of them; what says which run it was. */
static void check_same_file(const char *want, const char *got, const char *what)
{
    long want_size = 0, got_size = 0;
    unsigned char *a = slurp_bytes(want, &want_size), *b = slurp_bytes(got, &got_size);
    cr_assert(a, "%s: %s was not written", what, want);
    cr_assert(b, "%s: %s was not written", what, got);
    cr_assert_eq(got_size, want_size, "%s: %s has %ld bytes, %s %ld", what, got, got_size,
                 want, want_size);
    cr_assert(want_size > 0, "%s: %s is empty", what, want);
    for (long i = 0; i < want_size; i++)
        cr_assert_eq(a[i], b[i], "%s: %s differs from %s at byte %ld of %ld", what, got,
                     want, i, want_size);
    free(a), free(b);
}

/* The folders hold the same files, byte for byte, and count of them. */
static void check_same_dir(const char *want, const char *got, int count, const char *what)
{
    char command[1200];
    int status;
    snprintf(command, sizeof command, "diff -r '%s' '%s'", want, got);
    char *diff = shell_run(command, &status);
    cr_assert_eq(status, 0, "%s: the folders differ:\n%s", what, diff);
    free(diff);
    snprintf(command, sizeof command, "ls -A '%s' | wc -l", got);
    char *listed = shell_run(command, &status);
    cr_assert_eq(atoi(listed), count, "%s: %s holds %d files, want %d", what, got,
                 atoi(listed), count);
    free(listed);
}

/* No temporary output (.lpXXXXXX) left in dir. */
static void check_no_temporaries(const char *dir)
{
    char command[700];
    int status;
    snprintf(command, sizeof command, "ls -A '%s' | grep '^\\.lp'", dir);
    char *found = shell_run(command, &status);
    cr_assert_eq(status, 1, "temporaries left in %s:\n%s", dir, found);
    free(found);
}

/* A .bin of nx x ny doubles: whole, its iteration and interrupted flag read. */
static void check_whole_bin(const char *path, long nx, long ny, long *iteration,
                            int *interrupted)
{
    long size = 0;
    unsigned char *bin = slurp_bytes(path, &size);
    cr_assert(bin, "%s was not written", path);
    cr_assert_eq(size, 48 + nx * ny * 8, "%s has %ld bytes: not whole", path, size);
    cr_assert(memcmp(bin, "LAPLACEB", 8) == 0, "%s: no .bin header", path);
    int64_t k, x, y;
    uint32_t flags;
    memcpy(&x, bin + 16, 8), memcpy(&y, bin + 24, 8);
    memcpy(&k, bin + 32, 8), memcpy(&flags, bin + 40, 4);
    cr_assert(x == nx && y == ny, "%s: %ldx%ld in its header", path, (long)x, (long)y);
    *iteration = (long)k;
    *interrupted = (int)(flags & 1);
    free(bin);
}

/* ---- 1: fields, iterations and norms of the serial reference --------------- */

/* Two odd, non-square lattices with the helpers' non-zero edges. */
#define EDGES "--top 1 --left 0.3 --right -0.7 --bottom 2.5"
#define LATTICE_A "--nx 47 --ny 31 " EDGES
#define LATTICE_B "--nx 33 --ny 29 " EDGES

/* A Poisson problem on a 2 x 1 domain (dx != dy: the general update), formulas on
 * the edges, a rectangle and a disc held fixed across the borders of the ranks. */
#define POISSON                                                                          \
    "--nx 47 --ny 31 --lx 2 --ly 1 --left y --right y --top 1 --bottom 0 "               \
    "--source '-20*exp(-((x-1.3)^2+(y-0.45)^2)/0.05)' "                                  \
    "--region 'rect 0.5 0.3 0.8 0.7 0.25' --region 'disc 1.0 0.5 0.2 0.5'"

/*
 * PROBLEM solved serially and by mpirun -np NP on LAYOUT (--partition, --ranks):
 * both succeed, the MPI run prints one CSV row (rank 0 alone) with the serial
 * run's iterations, convergence and final norm, and its --output (EXT: bin or
 * dat) is the serial one, byte for byte.
 */
static void check_equals_serial(int np, const char *layout, const char *problem,
                                const char *ext)
{
    static int serial;
    char want[256], got[256], name[64], what[1024];
    snprintf(name, sizeof name, "serial%d.%s", serial, ext);
    out_path(want, sizeof want, name);
    snprintf(name, sizeof name, "ranks%d.%s", serial++, ext);
    out_path(got, sizeof got, name);
    snprintf(what, sizeof what, "-np %d %s %s", np, layout, problem);

    struct run s = laplace_run("--backend serial %s --csv --output %s", problem, want);
    cr_assert_eq(s.status, 0, "serial %s: status %d: %s", problem, s.status, s.err);
    char converged[8];
    csv_field(nth_line(s.out, 1), 8, converged, sizeof converged);
    cr_assert(strstr(problem, "--max-iter") || strcmp(converged, "1") == 0,
              "serial %s did not converge: pick another eps", problem);
    struct run m = mpi_run(60, np, NULL, "--backend cpu %s %s --csv --output %s", layout,
                           problem, got);
    cr_assert_eq(m.status, 0, "%s: status %d; stderr:\n%s", what, m.status, m.err);
    int turns = strstr(m.err, "host tiles on") && strstr(m.err, "take turns"); /* -np 1 */
    cr_assert_eq(lines_starting(m.err, "laplace") - turns, 0, "%s said:\n%s", what,
                 m.err);
    cr_assert_eq(count_lines(m.out), 2, "%s: want a header and one row:\n%s", what,
                 m.out);

    const char *srow = nth_line(s.out, 1), *mrow = nth_line(m.out, 1);
    cr_assert(srow && mrow, "%s: no CSV row", what);
    static const int columns[] = {1, 2, 3, 6, 7, 8, 9}; /* precision .. final_norm */
    for (int i = 0; i < 7; i++) {
        char a[64], b[64], header[64];
        csv_field(s.out, columns[i], header, sizeof header);
        csv_field(srow, columns[i], a, sizeof a);
        csv_field(mrow, columns[i], b, sizeof b);
        cr_assert_str_eq(b, a, "%s: %s %s, serially %s", what, header, b, a);
    }
    check_same_file(want, got, what);
    remove(want), remove(got);
    run_free(&s), run_free(&m);
}

TestSuite(mpi, .timeout = 120);

Test(mpi, jacobi_on_2x1_and_1x2_ranks_equals_serial_in_double_and_float)
{
    require_mpi();
    check_equals_serial(2, "--partition 4x2 --ranks 2x1", LATTICE_A " --eps 1e-6", "bin");
    check_equals_serial(2, "--partition 2x4 --ranks 1x2",
                        LATTICE_A " --eps 1e-5 --precision float", "dat");
    check_equals_serial(2, "--partition 2x4 --ranks 1x2", LATTICE_B " --eps 1e-6", "bin");
    check_equals_serial(2, "--partition 4x2 --ranks 2x1",
                        LATTICE_B " --eps 1e-5 --precision float", "bin");
}

Test(mpi, jacobi_on_3x1_and_2x2_ranks_equals_serial_in_double_and_float)
{
    require_mpi();
    check_equals_serial(3, "--partition 6x2 --ranks 3x1", LATTICE_A " --eps 1e-6", "bin");
    check_equals_serial(3, "--partition 6x2 --ranks 3x1",
                        LATTICE_B " --eps 1e-5 --precision float", "dat");
    check_equals_serial(4, "--partition 4x4 --ranks 2x2", LATTICE_A " --eps 1e-6", "dat");
    check_equals_serial(4, "--partition 4x4 --ranks 2x2",
                        LATTICE_A " --eps 1e-5 --precision float", "bin");
}

Test(mpi, sor_equals_serial_on_every_layout_of_ranks)
{
    require_mpi();
    check_equals_serial(2, "--partition 4x2 --ranks 2x1",
                        LATTICE_A " --method sor --eps 1e-9", "bin");
    check_equals_serial(
        2, "--partition 2x4 --ranks 1x2",
        LATTICE_B " --method sor --omega 1.5 --eps 1e-4 --precision float", "bin");
    check_equals_serial(3, "--partition 6x2 --ranks 3x1",
                        LATTICE_B " --method sor --eps 1e-9", "dat");
    check_equals_serial(4, "--partition 4x4 --ranks 2x2",
                        LATTICE_A " --method sor --eps 1e-4 --precision float", "bin");
}

Test(mpi, a_poisson_source_with_regions_equals_serial)
{
    require_mpi();
    check_equals_serial(3, "--partition 6x2 --ranks 3x1", POISSON " --eps 1e-7", "bin");
    check_equals_serial(4, "--partition 4x4 --ranks 2x2",
                        POISSON " --method sor --eps 1e-9", "bin");
    check_equals_serial(2, "--partition 2x4 --ranks 1x2",
                        POISSON " --method sor --eps 1e-4 --precision float", "dat");
}

Test(mpi, other_norms_check_every_and_max_iter_equal_serial)
{
    require_mpi();
    check_equals_serial(2, "--partition 4x2 --ranks 2x1",
                        LATTICE_A " --norm max --check-every 7 --eps 1e-7", "bin");
    check_equals_serial(2, "--partition 2x4 --ranks 1x2",
                        LATTICE_B " --norm residual --eps 1e-6", "bin");
    check_equals_serial(3, "--partition 6x2 --ranks 3x1",
                        LATTICE_B " --method weighted --check-every 3 --eps 1e-6", "bin");
    /* --max-iter ends it first: every rank stops there, not converged */
    check_equals_serial(4, "--partition 4x4 --ranks 2x2",
                        LATTICE_A " --eps 1e-14 --max-iter 777", "bin");
}

Test(mpi, the_automatic_layouts_and_one_rank_equal_serial)
{
    require_mpi();
    check_equals_serial(2, "--partition 4x2", LATTICE_A " --eps 1e-6", "bin");
    check_equals_serial(4, "--partition 4x4 --ranks auto", LATTICE_B " --eps 1e-6",
                        "bin");
    check_equals_serial(2, "", LATTICE_B " --eps 1e-6", "bin");
    check_equals_serial(1, "--partition 2x2", LATTICE_B " --eps 1e-6", "bin");
}

/* ---- 2, 3: .pvti pieces and snapshots of one process ---------------------- */

/*
 * ARGS written into two folders, one by one process on the host tiles (LAYOUT:
 * --partition), one by mpirun -np NP (LAYOUT plus RANKS): the same count files,
 * byte for byte, no temporary left.
 */
static void check_outputs_as_one_process(int np, const char *layout, const char *ranks,
                                         const char *args, int count)
{
    char one[256], many[256], what[1024];
    mpi_dir(one, sizeof one, "one");
    mpi_dir(many, sizeof many, "many");
    snprintf(what, sizeof what, "-np %d %s %s %s", np, layout, ranks, args);
    struct run s =
        laplace_run("--backend cpu %s %s -q --output %s/g.pvti --output %s/s.bin", layout,
                    args, one, one);
    cr_assert_eq(s.status, 0, "one process: status %d: %s", s.status, s.err);
    struct run m = mpi_run(60, np, NULL,
                           "--backend cpu %s %s %s -q --output %s/g.pvti "
                           "--output %s/s.bin",
                           layout, ranks, args, many, many);
    cr_assert_eq(m.status, 0, "%s: status %d; stderr:\n%s", what, m.status, m.err);
    cr_assert_str_eq(m.out, "", "%s printed under -q:\n%s", what, m.out);
    check_no_temporaries(many);
    char all[1200];
    int rx, ry;
    snprintf(all, sizeof all, "%s %s", layout, args);
    cr_assert_eq(sscanf(ranks, "--ranks %dx%d", &rx, &ry), 2);
    vtk_ranks_take(many, all, rx, ry);
    check_same_dir(one, many, count, what);
    run_free(&s), run_free(&m);
}

Test(mpi, pvti_pieces_of_every_rank_equal_one_process)
{
    require_mpi();
    /* g.pvti, g_0.vti .. g_7.vti, s.bin */
    check_outputs_as_one_process(2, "--partition 4x2", "--ranks 2x1",
                                 LATTICE_B " --eps 1e-6", 10);
    check_outputs_as_one_process(2, "--partition 2x4", "--ranks 1x2",
                                 LATTICE_A " --eps 1e-5 --precision float", 10);
    check_outputs_as_one_process(4, "--partition 4x2", "--ranks 2x2",
                                 POISSON " --method sor --eps 1e-6", 10);
}

Test(mpi, snapshots_equal_one_process)
{
    require_mpi();
    /* at 20, 40, 60 and the end: a .pvti of 8 pieces and a .bin each */
    check_outputs_as_one_process(2, "--partition 4x2", "--ranks 2x1",
                                 LATTICE_A " --steps 60 --snapshot-every 20", 40);
    check_outputs_as_one_process(
        4, "--partition 4x2", "--ranks 2x2",
        LATTICE_B " --method weighted --steps 45 --snapshot-every 15", 40);
}

/* ---- 4: refusals ------------------------------------------------------------- */

/*
 * Under mpirun -np NP --tag-output (each rank's lines marked "[job,rank]<stderr>:"),
 * ARGS refused with status 2: nothing on stdout, one line of the ranks on stderr,
 * rank 0's, starting "laplace: " and naming what. mpirun's own banner about the
 * non-zero exit follows, untagged.
 */
static void check_mpi_refused(int np, const char *args, const char *named)
{
    struct run r = mpi_run(30, np, "--tag-output", "%s", args);
    cr_assert_eq(r.status, 2, "-np %d %s: status %d, want 2; stderr:\n%s", np, args,
                 r.status, r.err);
    cr_assert_str_eq(r.out, "", "-np %d %s: stdout:\n%s", np, args, r.out);
    int lines = 0;
    for (const char *line = r.err; line && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        int rank;
        const char *text = mpi_tagged_text(line, &rank);
        if (!text)
            continue; /* mpirun's own */
        lines++;
        cr_assert_eq(rank, 0, "-np %d %s: rank %d spoke:\n%s", np, args, rank, r.err);
        cr_assert(strncmp(text, "laplace: ", 9) == 0, "-np %d %s: line '%.*s'", np, args,
                  (int)strcspn(text, "\n"), text);
        char said[1024];
        snprintf(said, sizeof said, "%.*s", (int)strcspn(text, "\n"), text);
        cr_assert(strstr(said, named), "-np %d %s: '%s' does not name '%s'", np, args,
                  said, named);
    }
    cr_assert_eq(lines, 1, "-np %d %s: want one line of the ranks on stderr:\n%s", np,
                 args, r.err);
    run_free(&r);
}

Test(mpi, layouts_the_ranks_cannot_share_are_refused_by_rank_0_once)
{
    require_mpi();
    check_mpi_refused(2, "--backend cpu --partition 4x2 --ranks 3x1 " LATTICE_B,
                      "--ranks 3x1: 3 ranks, but 2 processes");
    check_mpi_refused(2, "--backend cpu --partition 3x1 " LATTICE_B,
                      "--partition 3x1: its tiles cannot be split evenly among 2 ranks");
    /* not "--partition: the serial backend has one tile": no --partition was given */
    check_mpi_refused(2, "--backend serial " LATTICE_B,
                      "--backend serial: the reference runs in one process");
    check_mpi_refused(2, "--backend serial --partition 1x1 " LATTICE_B,
                      "--backend serial: the reference runs in one process");
}

/* 2 ranks of one node with 32 GPU tiles each: more GPUs than any node has (and none
 * here), refused before any work by the ranks' agreement, said by rank 0. */
Test(mpi, more_gpus_than_the_node_has_are_refused_by_rank_0_once)
{
    require_mpi();
    check_mpi_refused(2, "--backend gpu --nx 99 --ny 99 --partition 1x64 --ranks 1x2",
                      "2 ranks on this node with 32 tiles each need 64 GPUs; it has");
}

Test(mpi, bench_and_topology_under_mpirun_and_ranks_without_it_are_refused)
{
    require_mpi();
    char dir[256];
    mpi_dir(dir, sizeof dir, "bench");
    /* were --bench not refused, a quick one would write there, not into results/ */
    setenv("LAPLACE_BENCH_DIR", dir, 1);
    setenv("LAPLACE_BENCH_QUICK", "1", 1);
    check_mpi_refused(2, "--bench", "--bench");
    check_mpi_refused(2, "--topology", "--topology");
    unsetenv("LAPLACE_BENCH_DIR");
    unsetenv("LAPLACE_BENCH_QUICK");
    int status;
    char command[400];
    snprintf(command, sizeof command, "ls -A '%s'", dir);
    char *listed = shell_run(command, &status);
    cr_assert_str_eq(listed, "", "the refused bench wrote %s", listed);
    free(listed);

    struct run r =
        laplace_run_within(20, "--backend cpu --partition 2x1 --ranks 2x1 " LATTICE_B);
    check_refused(&r, 2, "--ranks 2x1: 2 ranks, but 1 process was started");
    cr_assert(strncmp(r.err, "laplace: ", 9) == 0, "stderr: %s", r.err);
    run_free(&r);
    r = laplace_run_within(20, "--backend cpu --partition 4x4 --ranks 2x2 " LATTICE_B);
    check_refused(&r, 2, "--ranks 2x2");
    run_free(&r);
}

/* ---- 5: a fault on one rank -------------------------------------------------- */

/*
 * LAPLACE_INJECT_FAULT=VALUE (tile:iteration, fault.h) under mpirun -np NP on
 * LAYOUT: every rank stops within the time limit with status 1, and stderr's first
 * line, the only one of ours, is "laplace: rank RANK (NODE): " naming the tile
 * and the step (mpirun's banner follows).
 */
static void check_fault_stops_every_rank(const char *value, int np, const char *layout,
                                         int rank, const char *tile, const char *step)
{
    char node[256] = "", head[400];
    gethostname(node, sizeof node - 1);
    snprintf(head, sizeof head, "laplace: rank %d (%s): ", rank, node);
    setenv("LAPLACE_INJECT_FAULT", value, 1);
    struct run r =
        mpi_run(30, np, "-x LAPLACE_INJECT_FAULT",
                "--backend cpu %s " LATTICE_A " --eps 1e-12 --max-iter 400 -q", layout);
    unsetenv("LAPLACE_INJECT_FAULT");
    cr_assert_neq(r.status, 124, "%s: the ranks hung (timeout); stderr:\n%s", value,
                  r.err);
    cr_assert_eq(r.status, 1, "%s: status %d; stderr:\n%s", value, r.status, r.err);
    cr_assert_str_eq(r.out, "", "%s: stdout:\n%s", value, r.out);
    cr_assert(strncmp(r.err, head, strlen(head)) == 0,
              "%s: stderr does not start with '%s':\n%s", value, head, r.err);
    const char *end = strchr(r.err, '\n');
    int len = end ? (int)(end - r.err) : (int)strlen(r.err);
    char first[1024];
    snprintf(first, sizeof first, "%.*s", len, r.err);
    cr_assert(strstr(first, tile), "%s: '%s' does not name '%s'", value, first, tile);
    cr_assert(strstr(first, step), "%s: '%s' does not name '%s'", value, first, step);
    cr_assert(strstr(first, "injected fault"), "%s: '%s' does not say injected", value,
              first);
    cr_assert_eq(lines_starting(r.err, "laplace"), 1, "%s: said more than once:\n%s",
                 value, r.err);
    run_free(&r);
}

Test(mpi, a_fault_on_rank_1_stops_every_rank_and_is_said_once)
{
    require_mpi();
    check_fault_stops_every_rank("1:57", 2, "--partition 2x1 --ranks 2x1", 1, "tile 1",
                                 "sweep 57");
    /* tile 6 of 4x2 is rank 1's second: column 2, row 1 */
    check_fault_stops_every_rank("6:123", 2, "--partition 4x2 --ranks 2x1", 1, "tile 6",
                                 "sweep 123");
    check_fault_stops_every_rank("3:400", 4, "--partition 2x2 --ranks 2x2", 3, "tile 3",
                                 "sweep 400");
}

Test(mpi, a_failed_set_up_on_rank_1_stops_every_rank_and_is_said_once)
{
    require_mpi();
    check_fault_stops_every_rank("1:0", 2, "--partition 2x1 --ranks 2x1", 1, "tile 1",
                                 "set-up");
    check_fault_stops_every_rank("2:0", 2, "--partition 2x2 --ranks 1x2", 1, "tile 2",
                                 "set-up");
}

/* ---- 6: signals ---------------------------------------------------------------- */

#define SIGNAL_NX 300
#define SIGNAL_NY 300
#define SIGNAL_RUN                                                                       \
    "--backend cpu --nx 300 --ny 300 " EDGES " --eps 1e-14 --max-iter 100000000"

/*
 * Starts mpirun -np 2 on SIGNAL_RUN with --output DIR/f.bin and --monitor (its
 * stdout in DIR/out.txt, stderr in DIR/err.txt); once the monitor shows iterations
 * (every rank has set up: the signal handlers are in place), and half a second
 * more, sends SIGNAL (INT, KILL) to TARGET: "ranks" (the two ./laplace processes,
 * found by their unique --output), "rank 1" (the one whose OMPI_COMM_WORLD_RANK is 1)
 * or "mpirun"; extra: more options of the run ("" for none). Returns the status of mpirun
 * (124: past a 60 s time limit), the processes signalled in *signalled and the
 * milliseconds from the signal to mpirun's end in *after_ms.
 */
static int signal_mpi_run(const char *dir, const char *signal, const char *target,
                          const char *extra, int *signalled, long *after_ms)
{
    char launcher[512], command[3800], pattern[300], send[1000];
    snprintf(pattern, sizeof pattern, "%s .*%s/f\\.bin",
             strcmp(target, "mpirun") == 0 ? "^mpirun" : "^\\./laplace", dir);
    if (strcmp(target, "rank 1") == 0)
        snprintf(send, sizeof send,
                 "n=0; for q in $(pgrep -f '%s'); do tr '\\0' '\\n' < /proc/$q/environ | "
                 "grep -qx OMPI_COMM_WORLD_RANK=1 && kill -%s $q && n=$((n+1)); done",
                 pattern, signal);
    else
        snprintf(send, sizeof send, "n=$(pgrep -f '%s' | wc -l); pkill -%s -f '%s'",
                 pattern, signal, pattern);
    snprintf(command, sizeof command,
             "timeout 60 %s " SIGNAL_RUN " --partition 2x1 --output %s/f.bin %s "
             "--monitor 200 > %s/out.txt 2> %s/err.txt & p=$!; "
             "for i in $(seq 300); do grep -q '^  iteration ' %s/out.txt && break; "
             "sleep 0.1; done; sleep 0.5; %s; t=$(date +%%s%%N); wait $p; s=$?; "
             "echo signalled $n after $((($(date +%%s%%N) - t) / 1000000)); exit $s",
             mpirun_laplace(launcher, sizeof launcher, 2, NULL), dir, extra, dir, dir,
             dir, send);
    int status;
    char *said = shell_run(command, &status);
    const char *n = strstr(said, "signalled "), *after = strstr(said, " after ");
    *signalled = n ? atoi(n + 10) : -1;
    *after_ms = after ? atol(after + 7) : -1;
    free(said);
    return status;
}

static int interrupt_mpi_run(const char *dir, const char *target, int *signalled)
{
    long after_ms;
    return signal_mpi_run(dir, "INT", target, "", signalled, &after_ms);
}

/* No process of this test's run is left (by the unique --output in dir) 5 s after
 * mpirun returned: a rank that mpirun told to end may still be ending when mpirun
 * returns (seen once in a CI run on the 2-core machine); a rank left running is not. */
static void check_no_process_left(const char *dir)
{
    char command[800];
    int status;
    snprintf(command, sizeof command,
             "for i in $(seq 50); do pgrep -f '^(\\./laplace|mpirun) .*%s/f\\.bin' "
             ">/dev/null || exit 1; sleep 0.1; done; pgrep -af '^(\\./laplace|mpirun) "
             ".*%s/f\\.bin'",
             dir, dir);
    char *left = shell_run(command, &status);
    cr_assert_eq(status, 1, "processes left behind 5 s after mpirun returned:\n%s", left);
    free(left);
}

/*
 * SIGINT to TARGET ("ranks" or "rank 1", signalled processes of them): every rank
 * stops at the same iteration k, rank 0 says so once and writes the field of
 * iteration k whole (the serial field of iteration k), mpirun's status is 130, no
 * temporary and no process is left.
 */
static void check_sigint_stops_every_rank(const char *target, int signalled_want)
{
    char dir[256], path[400];
    int signalled;
    mpi_dir(dir, sizeof dir, "sigint");
    int status = interrupt_mpi_run(dir, target, &signalled);
    snprintf(path, sizeof path, "%s/err.txt", dir);
    char *err = slurp(path);
    snprintf(path, sizeof path, "%s/out.txt", dir);
    char *out = slurp(path);
    cr_assert(out && err, "no output of mpirun");
    cr_assert_eq(signalled, signalled_want, "%d processes signalled, want %d (%s)",
                 signalled, signalled_want, target);
    cr_assert_eq(status, 130, "mpirun's status %d, want 130; stderr:\n%s", status, err);
    cr_assert_eq(lines_starting(err, "laplace"), 0, "the ranks said:\n%s", err);
    const char *said = "interrupted at iteration ";
    const char *at = strstr(out, said);
    cr_assert(at, "the report does not say where it stopped:\n%s", out);
    cr_assert(!strstr(at + 1, said), "said more than once (by every rank?):\n%s", out);
    long k = atol(at + strlen(said)), iteration;
    int interrupted;
    snprintf(path, sizeof path, "%s/f.bin", dir);
    check_whole_bin(path, SIGNAL_NX, SIGNAL_NY, &iteration, &interrupted);
    cr_assert(k > 0 && iteration == k && interrupted,
              "f.bin: iteration %ld, interrupted %d; the report: %ld", iteration,
              interrupted, k);
    check_no_temporaries(dir);
    check_no_process_left(dir);

    /* the field of iteration k: the serial run stopped there by --max-iter (its
     * header says not interrupted: byte 40 differs, the rest is the same) */
    char serial[400];
    snprintf(serial, sizeof serial, "%s/serial.bin", dir);
    struct run s = laplace_run("--backend serial --nx 300 --ny 300 " EDGES
                               " --eps 1e-14 --max-iter %ld -q --output %s",
                               k, serial);
    cr_assert_eq(s.status, 0, "serial: %s", s.err);
    long a_size, b_size;
    unsigned char *a = slurp_bytes(serial, &a_size), *b = slurp_bytes(path, &b_size);
    cr_assert(a && b && a_size == b_size);
    cr_assert(memcmp(a, b, 40) == 0, "the headers differ before the flags");
    cr_assert(memcmp(a + 44, b + 44, (size_t)a_size - 44) == 0,
              "the field of the interrupted run is not the serial field of iteration %ld",
              k);
    free(a), free(b), free(out), free(err);
    run_free(&s);
}

Test(mpi, sigint_to_every_rank_writes_the_field_reached_and_exits_130)
{
    require_mpi();
    check_sigint_stops_every_rank("ranks", 2);
}

/* the signal travels: rank 0, not signalled, stops at the same iteration */
Test(mpi, sigint_to_rank_1_alone_stops_every_rank_alike)
{
    require_mpi();
    check_sigint_stops_every_rank("rank 1", 1);
}

/* A run that ended on a signal, with status (not 0, not past the time limit): no
 * process and no temporary left, f.bin whole or absent; its iteration, or 0. */
static long check_ended_whole_or_absent(const char *dir, int status)
{
    char path[400];
    long iteration = 0;
    int interrupted;
    snprintf(path, sizeof path, "%s/err.txt", dir);
    char *err = slurp(path);
    cr_assert(status != 0 && status != 124, "mpirun's status %d; stderr:\n%s", status,
              err ? err : "");
    free(err);
    check_no_process_left(dir);
    check_no_temporaries(dir);
    snprintf(path, sizeof path, "%s/f.bin", dir);
    if (access(path, F_OK) == 0) {
        check_whole_bin(path, SIGNAL_NX, SIGNAL_NY, &iteration, &interrupted);
        cr_assert(iteration > 0 && interrupted, "f.bin: iteration %ld, interrupted %d",
                  iteration, interrupted);
    }
    return iteration;
}

Test(mpi, sigint_to_mpirun_ends_every_rank_leaving_outputs_whole_or_absent)
{
    require_mpi();
    char dir[256];
    int signalled;
    mpi_dir(dir, sizeof dir, "sigterm");
    int status = interrupt_mpi_run(dir, "mpirun", &signalled);
    cr_assert_eq(signalled, 1, "%d processes signalled, want mpirun", signalled);
    sleep(1);
    check_ended_whole_or_absent(dir, status);
}

/* A rank killed outright (SIGKILL: no handler runs, it says nothing): mpirun ends
 * every other rank within seconds, no process is left, and the outputs are whole or
 * absent (rank 0 writes them only at the end, under a temporary name). */
Test(mpi,
     sigkill_of_rank_1_ends_every_rank_within_seconds_leaving_outputs_whole_or_absent)
{
    require_mpi();
    char dir[256];
    int signalled;
    long after_ms;
    mpi_dir(dir, sizeof dir, "sigkill");
    int status = signal_mpi_run(dir, "KILL", "rank 1", "", &signalled, &after_ms);
    cr_assert_eq(signalled, 1, "%d processes killed, want rank 1", signalled);
    cr_assert(after_ms >= 0 && after_ms < 10000,
              "mpirun ended %ld ms after rank 1 was killed", after_ms);
    check_ended_whole_or_absent(dir, status);
    cr_log_info("mpirun ended %ld ms after SIGKILL of rank 1 (status %d)", after_ms,
                status);
}

/* The same with --history, whose temporary rank 0 holds open through the solve:
 * rank 0, blocked in an MPI call by the dead rank 1, is torn down by mpirun
 * (SIGTERM, SIGKILL 1 s later) and removes it first (issue 45, item 5). */
Test(mpi, sigkill_of_rank_1_leaves_no_history_temporary_on_rank_0)
{
    require_mpi();
    char dir[256], extra[320];
    int signalled;
    long after_ms;
    mpi_dir(dir, sizeof dir, "sigkill-history");
    snprintf(extra, sizeof extra, "--history %s/h.csv", dir);
    int status = signal_mpi_run(dir, "KILL", "rank 1", extra, &signalled, &after_ms);
    cr_assert_eq(signalled, 1, "%d processes killed, want rank 1", signalled);
    check_ended_whole_or_absent(dir, status); /* no temporary left, among others */
}

/*
 * A test's jobs keep Open MPI's session folders to that test (helpers.h,
 * own_mpi_session_folder): while a job runs, its folder is under
 * tests/out/<pid>-mpi-sessions, not /tmp, and the job removes it when it ends.
 * Concurrent tests sharing /tmp's had one job fail at start in CI.
 */
Test(mpi, each_tests_jobs_keep_their_session_folders_to_the_test)
{
    require_mpi();
    char base[256], launcher[800], options[400];
    snprintf(base, sizeof base, TEST_OUT "/%ld-" MPI_SESSIONS, out_pid());
    snprintf(options, sizeof options, "-np 1 ls -A '%s'", base);
    int status;
    char *during = shell_run(mpirun_command(launcher, sizeof launcher, options), &status);
    cr_assert_eq(status, 0, "mpirun -np 1 ls: status %d: %s", status, during);
    cr_assert(strncmp(during, "ompi.", 5) == 0 && count_lines(during) == 1,
              "during the job %s holds '%s', want its one ompi.* folder", base, during);
    free(during);
    snprintf(options, sizeof options, "ls -A '%s'", base);
    char *after = shell_run(options, &status);
    cr_assert(status == 0 && after[0] == '\0', "after the job %s holds '%s'", base,
              after);
    free(after);
}

/* ---- 7: without mpirun --------------------------------------------------------- */

Test(mpi, without_mpirun_the_mpi_build_runs_as_before)
{
    require_mpi();
    char want[256], got[256];
    out_path(want, sizeof want, "plain-serial.bin");
    out_path(got, sizeof got, "plain-tiles.bin");
    const char *layouts[] = {"--partition 4x2", "--partition 2x4 --ranks 1x1",
                             "--partition 3x3 --ranks auto"};
    struct run s =
        laplace_run("--backend serial " LATTICE_A " --eps 1e-6 --csv --output %s", want);
    cr_assert_eq(s.status, 0, "serial: %s", s.err);
    for (int i = 0; i < 3; i++) {
        struct run r = laplace_run_within(
            20, "--backend cpu %s " LATTICE_A " --eps 1e-6 --csv --output %s", layouts[i],
            got);
        cr_assert_eq(r.status, 0, "%s: status %d: %s", layouts[i], r.status, r.err);
        cr_assert(r.err[0] == '\0' || (strstr(r.err, "take turns") && /* 2 cores */
                                       count_lines(r.err) == 1),
                  "%s wrote on stderr: %s", layouts[i], r.err);
        char a[64], b[64];
        csv_field(nth_line(s.out, 1), 7, a, sizeof a);
        csv_field(nth_line(r.out, 1), 7, b, sizeof b);
        cr_assert_str_eq(b, a, "%s: %s iterations, serially %s", layouts[i], b, a);
        check_same_file(want, got, layouts[i]);
        run_free(&r);
    }
    /* one process drives both tiles, as on a workstation */
    struct run r = laplace_run("--backend cpu --partition 2x1 " LATTICE_B " --eps 1e-5");
    cr_assert_eq(r.status, 0, "report run: %s", r.err);
    cr_assert_str_eq(r.err, "", "the report run wrote on stderr");
    cr_assert(strstr(r.out, "(host, 2 threads)"), "one process, two threads?\n%s", r.out);
    run_free(&r), run_free(&s);
}

/* The monitor's iterations compute a norm on every rank, as in one process: the
 * monitor's lines and the verdict are the same (rank 0 alone had them once: other
 * norms, and with a tiny first norm a divergence on rank 0 only, which hung). */
Test(mpi, the_monitor_shows_the_norms_of_one_process)
{
    require_mpi();
    const char *args = "--backend cpu --nx 40 --ny 40 --max-iter 100 --check-every 10 "
                       "--monitor 7 --bottom 1e-12 --partition 1x2";
    struct run one = laplace_run("%s", args);
    struct run two = mpi_run(30, 2, NULL, "%s", args);
    cr_assert_eq(one.status, 0, "one process: %s", one.err);
    cr_assert_eq(two.status, 0, "-np 2: status %d: %s", two.status, two.err);
    /* every monitor line up to its time, then the report's verdict lines, alike */
    int compared = 0;
    for (int line = 0; line < 40; line++) {
        const char *x = nth_line(one.out, line);
        if (!x)
            break;
        int monitor = strncmp(x, "  iteration ", 12) == 0;
        if (!monitor && strncmp(x, "  stopped", 9) && strncmp(x, "  iterations", 12) &&
            strncmp(x, "  final norm", 12))
            continue;
        const char *cut = monitor ? strstr(x, "elapsed") : NULL;
        char want[256];
        snprintf(want, sizeof want, "%.*s", cut ? (int)(cut - x) : (int)strcspn(x, "\n"),
                 x);
        cr_assert(strstr(two.out, want), "-np 2 lacks the line '%s':\n%s", want, two.out);
        compared++;
    }
    cr_assert_geq(compared, 10, "too few lines compared:\n%s", one.out);
    run_free(&one);
    run_free(&two);
}

/* Ranks whose nodes differ (here OpenMP's thread limit) still take one layout, rank
 * 0's, and give the serial field; --ranks 1x1 under two processes is refused. */
Test(mpi, ranks_take_rank_0s_automatic_layout_and_must_match_ranks)
{
    require_mpi();
    char want[256], got[256];
    out_path(want, sizeof want, "layout-serial.bin");
    out_path(got, sizeof got, "layout-ranks.bin");
    const char *problem = "--nx 64 --ny 48 --max-iter 300 -q";
    struct run s = laplace_run("--backend serial %s --output %s", problem, want);
    cr_assert_eq(s.status, 0, "%s", s.err);
    /* MPMD: rank 0 limited to one OpenMP thread, rank 1 not */
    struct run r = mpi_run(30, 1, "-x OMP_THREAD_LIMIT=1",
                           "--backend cpu %s --output %s : -np 1 ./laplace --backend cpu "
                           "%s --output %s",
                           problem, got, problem, got);
    cr_assert_eq(r.status, 0, "MPMD run: status %d: %s", r.status, r.err);
    check_same_file(want, got, "MPMD run with OMP_THREAD_LIMIT=1 on rank 0");
    run_free(&s);
    run_free(&r);
    check_mpi_refused(2, "--backend cpu --partition 2x1 --ranks 1x1 " LATTICE_B,
                      "--ranks 1x1: 1 ranks, but 2 processes");
}

/* A refusal on one rank only (its environment) is every rank's, said once. */
Test(mpi, a_refusal_on_rank_1_alone_is_said_once_by_rank_0)
{
    require_mpi();
    struct run r = mpi_run(30, 1, NULL,
                           "--backend cpu " LATTICE_B " : -np 1 -x "
                           "LAPLACE_INJECT_FAULT=bad ./laplace --backend cpu " LATTICE_B);
    cr_assert_eq(r.status, 2, "status %d, want 2: %s", r.status, r.err);
    const char *first = strstr(r.err, "LAPLACE_INJECT_FAULT");
    cr_assert(first, "no line names LAPLACE_INJECT_FAULT: %s", r.err);
    cr_assert_null(strstr(first + 1, "LAPLACE_INJECT_FAULT='bad'"), "said twice: %s",
                   r.err);
    run_free(&r);
}

/* --dry-run and --help under mpirun: printed once, by rank 0. */
/* The report's ranks line says how the edges travel and what rank 0's exchange of
 * them cost an iteration (issue 25: the path that ran and its time). */
Test(mpi, the_report_names_the_edges_path_and_the_exchange_time)
{
    require_mpi();
    struct run r = mpi_run(
        30, 2, NULL, "--backend cpu --nx 64 --ny 64 --partition 2x1 --max-iter 500");
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *line = strstr(r.out, "  ranks         2 MPI ranks");
    cr_assert(line, "no ranks line:\n%s", r.out);
    const char *at = strstr(line, "through host memory, rank 0's exchange ");
    cr_assert(at, "the path and the time:\n%s", r.out);
    char *end;
    double us = strtod(at + strlen("through host memory, rank 0's exchange "), &end);
    cr_assert(end && strncmp(end, " us an iteration", 16) == 0 && us > 0.0 && us < 1e6,
              "the exchange's time: %s", line);
    run_free(&r);
}

Test(mpi, the_plan_and_the_help_are_printed_once)
{
    require_mpi();
    struct run r = mpi_run(30, 2, NULL, "--backend cpu --nx 64 --ny 64 --dry-run");
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *first = strstr(r.out, "laplace --dry-run:");
    cr_assert(first && !strstr(first + 1, "laplace --dry-run:"), "%s", r.out);
    for (int rank = 0; rank < 2; rank++) { /* each rank's memory, once, by rank 0 */
        char line[64];
        snprintf(line, sizeof line, "  memory        rank %d, host: about ", rank);
        const char *at = strstr(r.out, line);
        cr_assert(at && !strstr(at + 1, line), "rank %d's memory once:\n%s", rank, r.out);
    }
    run_free(&r);
    r = mpi_run(30, 2, NULL, "--help");
    cr_assert_eq(r.status, 0, "%s", r.err);
    first = strstr(r.out, "--ranks");
    cr_assert(first, "%s", r.out);
    const char *usage = strstr(r.out, "sage");
    cr_assert(usage && !strstr(usage + 1, "sage: "), "the help twice");
    run_free(&r);
}

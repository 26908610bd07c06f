/*
 * test_mpi_binding.c - the binding check (mpi/binding.h, issue 25): a process whose
 * CPU affinity gives its tiles' threads fewer cores than the node could says so in
 * one line on stderr, once, naming the option that fixes it, and runs as before.
 *
 * The rule and the line are checked as functions; then ./laplace under taskset -c
 * (one core of this process's mask) against the same run unbound, and under
 * mpirun --bind-to core against --bind-to none. The taskset tests need util-linux's
 * taskset and two cores, the mpirun tests mpirun and an MPI build of ./laplace;
 * without them they report themselves skipped.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <criterion/criterion.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "mpi/binding.h"

#define RUN "--backend cpu --partition 2x1 --nx 32 --ny 32"

#define WARNING "laplace: warning: "

/* ---- the rule and the line ---------------------------------------------------- */

Test(mpi_binding, host_tiles_are_crowded_only_where_the_node_has_cores_to_give)
{
    cr_assert(binding_crowded(2, 0, 1, 2), "2 tiles on 1 of 2 cores");
    cr_assert(binding_crowded(4, 0, 1, 8), "mpirun -np 2 on 16 cores: 1 core a rank");
    cr_assert(binding_crowded(4, 0, 2, 8), "2 cores for 4 tiles, 8 to give");
    cr_assert_not(binding_crowded(4, 0, 4, 8), "4 cores for 4 tiles");
    cr_assert_not(binding_crowded(2, 0, 2, 2), "every core of the node");
    cr_assert_not(binding_crowded(4, 0, 2, 2), "more tiles than the node has cores");
    cr_assert_not(binding_crowded(4, 0, 1, 1), "mpirun -np 2 on 2 cores: a core each");
    cr_assert_not(binding_crowded(1, 0, 1, 16), "one tile, one core");
}

Test(mpi_binding, gpu_tiles_are_crowded_only_on_a_single_core)
{
    cr_assert(binding_crowded(2, 1, 1, 2), "2 GPU tiles on 1 of 2 cores");
    cr_assert(binding_crowded(8, 1, 1, 64), "8 GPU tiles on 1 of 64 cores");
    cr_assert_not(binding_crowded(4, 1, 2, 64), "4 GPU tiles on 2 cores wait well");
    cr_assert_not(binding_crowded(1, 1, 1, 64), "one GPU tile");
    cr_assert_not(binding_crowded(2, 1, 1, 1), "a node of one core");
}

Test(mpi_binding, one_process_is_told_taskset_or_srun)
{
    struct binding_verdict v = {.crowded = 1, .cores = 1, .tiles = 2};
    char line[512];
    binding_line(&v, 1, 0, 0, line, sizeof line);
    cr_assert_str_eq(
        line, "this process may run on 1 core (its CPU affinity) for 2 host tiles: "
              "the tiles' threads take turns; give it 2 cores (taskset -c 0-1, a "
              "wider cgroup cpuset, srun --cpus-per-task=2 or mpirun --bind-to "
              "none)");
    v = (struct binding_verdict){.crowded = 1, .cores = 1, .tiles = 3, .by_places = 1};
    binding_line(&v, 1, 0, 1, line, sizeof line);
    cr_assert_str_eq(line, "this process may run on 1 core (OpenMP's places) for 3 GPU "
                           "tiles: their threads take turns to drive the GPUs; widen "
                           "OMP_PLACES or unset OMP_PROC_BIND");
}

/* Ranks 1 and 3 of 4 crowded: one line names the first and counts the other. */
Test(mpi_binding, the_ranks_concerned_are_said_in_one_line)
{
    struct binding_verdict v[4] = {
        {0, 8, 4, 0}, {1, 1, 4, 0}, {0, 8, 4, 0}, {1, 2, 4, 0}};
    char line[512];
    binding_line(v, 4, 1, 0, line, sizeof line);
    cr_assert_str_eq(
        line, "rank 1 (and 1 other rank) may run on 1 core (its CPU affinity) for 4 "
              "host tiles: the tiles' threads take turns; launch with mpirun "
              "--bind-to none (or --map-by slot:PE=4), or srun --cpus-per-task=4");
    v[0].crowded = 1;
    binding_line(v, 4, 1, 0, line, sizeof line);
    cr_assert(strncmp(line, "rank 0 (and 2 other ranks) may run on 8 cores ", 46) == 0,
              "%s", line);
}

Test(mpi_binding, the_cores_are_this_process_s_affinity)
{
    if (getenv("OMP_PROC_BIND") || getenv("OMP_PLACES"))
        cr_skip_test("OMP_PROC_BIND or OMP_PLACES is set: OpenMP's places count");
    cpu_set_t mask;
    cr_assert_eq(sched_getaffinity(0, sizeof mask, &mask), 0);
    int by_places = -1;
    cr_assert_eq(binding_cores(&by_places), CPU_COUNT(&mask));
    cr_assert_eq(by_places, 0);
}

/* ---- one process under taskset ------------------------------------------------ */

/* The first CPU of this process's mask, or -1 (then the test is skipped) when
 * taskset is missing or the mask has fewer than two CPUs. */
static int first_of_two_cpus(void)
{
    cpu_set_t mask;
    require_laplace();
    if (system("command -v taskset >/dev/null 2>&1") != 0)
        cr_skip_test("needs taskset (util-linux)");
    if (sched_getaffinity(0, sizeof mask, &mask) != 0 || CPU_COUNT(&mask) < 2)
        cr_skip_test("needs two cores in this process's CPU affinity");
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &mask))
            return c;
    return -1;
}

/* One core for two host tiles: one warning line, status 0, the same field. */
Test(mpi_binding, taskset_to_one_core_warns_once_and_solves_the_same)
{
    int cpu = first_of_two_cpus();
    char want[256], got[256], launcher[64];
    out_path(want, sizeof want, "unbound.bin");
    out_path(got, sizeof got, "one-core.bin");
    struct run r = laplace_run(RUN " --eps 1e-6 -q --output %s", want);
    cr_assert_eq(r.status, 0, "unbound: status %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "", "unbound, two tiles on two cores: stderr");
    run_free(&r);
    char args[512];
    snprintf(launcher, sizeof launcher, "taskset -c %d ./laplace", cpu);
    snprintf(args, sizeof args, RUN " --eps 1e-6 -q --output %s", got);
    r = program_run(60, launcher, args);
    cr_assert_eq(r.status, 0, "taskset: status %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out, "", "-q printed:\n%s", r.out);
    cr_assert_str_eq(r.err,
                     WARNING "this process may run on 1 core (its CPU affinity) for 2 "
                             "host tiles: the tiles' threads take turns; give it 2 cores "
                             "(taskset -c 0-1, a wider cgroup cpuset, srun "
                             "--cpus-per-task=2 or mpirun --bind-to none)\n");
    long a_size, b_size;
    unsigned char *a = slurp_bytes(want, &a_size), *b = slurp_bytes(got, &b_size);
    cr_assert(a && b && a_size > 0, "the fields were not written");
    cr_assert(a_size == b_size && memcmp(a, b, (size_t)a_size) == 0,
              "taskset -c %d changed the field", cpu);
    free(a), free(b);
    run_free(&r);
}

/* The report on stdout is what it was; the warning is stderr's only line. */
Test(mpi_binding, the_warning_leaves_stdout_alone)
{
    int cpu = first_of_two_cpus();
    char launcher[64];
    snprintf(launcher, sizeof launcher, "taskset -c %d ./laplace", cpu);
    struct run plain = laplace_run(RUN " --max-iter 50 --csv");
    struct run bound = program_run(60, launcher, RUN " --max-iter 50 --csv");
    cr_assert_eq(bound.status, 0, "status %d: %s", bound.status, bound.err);
    cr_assert_eq(count_lines(bound.err), 1, "stderr:\n%s", bound.err);
    cr_assert_eq(count_lines(bound.out), count_lines(plain.out), "stdout:\n%s",
                 bound.out);
    int header = (int)strcspn(plain.out, "\n");
    cr_assert(strncmp(bound.out, plain.out, (size_t)header + 1) == 0,
              "the CSV header:\n%s", bound.out);
    char a[64], b[64];
    csv_field(nth_line(plain.out, 1), 7, a, sizeof a);
    csv_field(nth_line(bound.out, 1), 7, b, sizeof b);
    cr_assert_str_eq(b, a, "iterations");
    run_free(&plain), run_free(&bound);
}

/* ---- ranks under mpirun --------------------------------------------------------- */

/* mpirun -np NP BINDING ./laplace ARGS (LeakSanitizer off in the ranks: Open MPI's
 * own allocations, as test_mpi.c says). */
static struct run mpirun_run(int np, const char *binding, const char *args)
{
    char launcher[512], options[200];
    snprintf(options, sizeof options, "-np %d %s ./laplace", np, binding);
    return program_run(60, mpirun_command(launcher, sizeof launcher, options), args);
}

/* The lines of text that start with "laplace". */
static int laplace_lines(const char *text)
{
    int count = 0;
    for (const char *line = text; line && *line; line = nth_line(line, 1))
        count += strncmp(line, "laplace", 7) == 0;
    return count;
}

/* One rank bound to one core for two tiles warns; unbound, it does not. */
Test(mpi_binding, a_rank_bound_to_a_core_warns_and_unbound_does_not)
{
    require_mpirun();
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        cr_skip_test("needs two cores");
    struct run r = mpirun_run(1, "--bind-to core", RUN " --max-iter 50 -q");
    cr_assert_eq(r.status, 0, "--bind-to core: status %d: %s", r.status, r.err);
    cr_assert_eq(laplace_lines(r.err), 1, "want one line:\n%s", r.err);
    cr_assert(strstr(r.err, WARNING), "%s", r.err);
    cr_assert(strstr(r.err, "may run on 1 core (its CPU affinity) for 2 host tiles"),
              "%s", r.err);
    cr_assert(strstr(r.err, "mpirun --bind-to none"), "%s", r.err);
    run_free(&r);
    r = mpirun_run(1, "--bind-to none", RUN " --max-iter 50 -q");
    cr_assert_eq(r.status, 0, "--bind-to none: status %d: %s", r.status, r.err);
    cr_assert_eq(laplace_lines(r.err), 0, "--bind-to none said:\n%s", r.err);
    run_free(&r);
}

/*
 * Two ranks, each bound to one core, two tiles each: where the node has four cores
 * or more, rank 0 says it for both, once; where it has fewer (two ranks of two
 * tiles on two cores take turns however they are bound) nothing is said.
 */
Test(mpi_binding, two_ranks_bound_to_a_core_each_are_said_once_by_rank_0)
{
    require_mpirun();
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    struct run r = mpirun_run(2, "--bind-to core",
                              "--backend cpu --partition 4x1 "
                              "--ranks 2x1 --nx 32 --ny 32 "
                              "--max-iter 50 -q");
    cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
    if (cores < 4) {
        cr_assert_eq(laplace_lines(r.err), 0, "a node of %ld cores, said:\n%s", cores,
                     r.err);
    } else {
        cr_assert_eq(laplace_lines(r.err), 1, "want one line:\n%s", r.err);
        cr_assert(strstr(r.err, WARNING "rank 0 (and 1 other rank) may run on 1 core"),
                  "%s", r.err);
        cr_assert(strstr(r.err, "--map-by slot:PE=2"), "%s", r.err);
    }
    run_free(&r);
    r = mpirun_run(2, "--bind-to none",
                   "--backend cpu --partition 4x1 --ranks 2x1 --nx 32 --ny 32 "
                   "--max-iter 50 -q");
    cr_assert_eq(r.status, 0, "--bind-to none: status %d: %s", r.status, r.err);
    cr_assert_eq(laplace_lines(r.err), 0, "--bind-to none said:\n%s", r.err);
    run_free(&r);
}

/* ---- issue 45, item 2: ranks on one node share its cores ---------------------- */

/* --partition auto under mpirun --bind-to none (every rank's affinity the whole
 * node): each rank takes its share of the node's cores, not all of them. */
Test(mpi_binding, partition_auto_gives_each_rank_its_share_of_the_node)
{
    require_mpirun();
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 2)
        cr_skip_test("needs two cores");
    struct run r = mpirun_run(2, "--bind-to none", "--backend cpu --nx 32 --csv");
    cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
    char f[64];
    int ax = 0, ay = 0;
    const char *row = nth_line(r.out, 1);
    cr_assert(row && sscanf(csv_field(row, 4, f, sizeof f), "%dx%d", &ax, &ay) == 2,
              "%s", r.out);
    cr_assert_eq(ax * ay, 2 * (cores / 2), "%s tiles for 2 ranks on %ld cores", f, cores);
    run_free(&r);
}

/* More tiles than a rank's share of the node (two ranks, bound to nothing, their
 * waits left to laplace): the waits made passive and the "take turns" line, once,
 * by rank 0. */
Test(mpi_binding, ranks_crowding_the_node_say_they_take_turns)
{
    require_mpirun();
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char args[256];
    snprintf(args, sizeof args,
             "--backend cpu --partition %ldx1 --ranks 2x1 --nx 64 --ny 32 --max-iter 50",
             2 * cores);
    char launcher[512], command[600];
    mpirun_command(launcher, sizeof launcher, "-np 2 --bind-to none ./laplace");
    snprintf(command, sizeof command, "env -u OMP_WAIT_POLICY %s", launcher);
    struct run r = program_run(60, command, args); /* laplace chooses the waits */
    cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
    cr_assert_eq(laplace_lines(r.err), 1, "want one line:\n%s", r.err);
    cr_assert(strstr(r.err, "take turns (waits made passive)"), "%s", r.err);
    run_free(&r);
}

/*
 * test_mpi_settings.c - the ranks agree on their settings before anything runs
 * (issue 25, item 7; settings/settings_agree.h). An MPMD launch whose ranks differ in
 * --nx (heap corruption before), --eps (a deadlock), --top (a wrong field, status
 * 0), --precision, --output or --dry-run is refused with status 2, within a time
 * limit, by one line of rank 0 naming the setting and both ranks' values, and
 * leaves no output behind; the same settings on both sides of the ':' still run
 * and give the serial field. Without mpirun, the text the ranks compare and the
 * message of two texts are checked directly (no MPI needed).
 *
 * The MPMD tests report themselves skipped when mpirun is not on PATH or
 * ./laplace was built without MPI, as test_mpi.c's do; each mpirun runs with
 * --oversubscribe, --allow-run-as-root when we are root, and small lattices.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "settings/settings_agree.h"

#define SMALL "--backend cpu --nx 32 --ny 32 --top 1 --left 0.5"
#define AGREEMENT "(every rank must run the same settings)"

/* ---- the launcher ------------------------------------------------------------ */

/*
 * "timeout 60 mpirun --tag-output -np 1 ./laplace SMALL A : -np 1 ./laplace SMALL
 * B": two ranks started with their own settings (Open MPI's MPMD form), leaks
 * left out under ASan (Open MPI keeps what MPI_Init allocated, as test_mpi.c says).
 */
static struct run mpmd_run(const char *a, const char *b)
{
    char launcher[512], args[2048];
    mpirun_command(launcher, sizeof launcher, "--tag-output -np 1 ./laplace");
    snprintf(args, sizeof args, SMALL " %s : -np 1 ./laplace " SMALL " %s", a, b);
    return program_run(60, launcher, args);
}

/* The lines of the ranks ("[job,rank]<stderr>:" under --tag-output) on stderr:
 * how many, and the first one's text in said. */
static int ranks_lines(const char *err, int *rank_of_first, char *said, size_t n)
{
    int lines = 0;
    for (const char *line = err; line && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        int rank;
        const char *text = mpi_tagged_text(line, &rank);
        if (!text)
            continue; /* mpirun's own */
        if (lines++ == 0) {
            *rank_of_first = rank;
            snprintf(said, n, "%.*s", (int)strcspn(text, "\n"), text);
        }
    }
    return lines;
}

/* Ranks launched with settings a and b are refused, within the time limit, with
 * status 2: nothing on stdout, one line, rank 0's, exactly want. */
static void check_disagreement(const char *a, const char *b, const char *want)
{
    struct run r = mpmd_run(a, b);
    char said[1200] = "";
    int rank = -1;
    cr_assert_neq(r.status, 124, "[%s] : [%s]: the ranks hung; stderr:\n%s", a, b, r.err);
    cr_assert_eq(r.status, 2, "[%s] : [%s]: status %d, want 2; stderr:\n%s", a, b,
                 r.status, r.err);
    cr_assert_str_eq(r.out, "", "[%s] : [%s]: stdout:\n%s", a, b, r.out);
    int lines = ranks_lines(r.err, &rank, said, sizeof said);
    cr_assert_eq(lines, 1, "[%s] : [%s]: want one line of the ranks:\n%s", a, b, r.err);
    cr_assert_eq(rank, 0, "[%s] : [%s]: rank %d spoke:\n%s", a, b, rank, r.err);
    cr_assert_str_eq(said, want, "[%s] : [%s]", a, b);
    run_free(&r);
}

/* A fresh, empty folder tests/out/<pid>-settings-NAME. */
static void fresh_dir(char *dir, size_t n, const char *name)
{
    char named[200];
    snprintf(named, sizeof named, "settings-%s", name);
    fresh_out_dir(dir, n, named);
}

/* The files in dir, "" when none; dir removed. */
static char *files_left(const char *dir)
{
    char command[700];
    int status;
    snprintf(command, sizeof command, "ls -A '%s'", dir);
    char *listed = shell_run(command, &status);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    cr_assert_eq(system(command), 0, "cannot remove %s", dir);
    return listed;
}

TestSuite(mpi_settings, .timeout = 180);

/* ---- MPMD launches ------------------------------------------------------------- */

Test(mpi_settings, a_different_nx_is_refused_once_by_rank_0)
{
    require_mpirun();
    check_disagreement(
        "--nx 64", "--nx 65",
        "laplace: ranks disagree on --nx: rank 0 has 64, rank 1 has 65 " AGREEMENT);
}

Test(mpi_settings, a_different_eps_is_refused_instead_of_a_deadlock)
{
    require_mpirun();
    check_disagreement("--eps 1e-3", "--eps 1e-5",
                       "laplace: ranks disagree on --eps: rank 0 has 0.001, rank 1 has "
                       "1e-05 " AGREEMENT);
}

Test(mpi_settings, a_different_edge_is_refused_instead_of_a_wrong_field)
{
    require_mpirun();
    check_disagreement(
        "--top 1", "--top 2",
        "laplace: ranks disagree on --top: rank 0 has 1, rank 1 has 2 " AGREEMENT);
    check_disagreement("--bottom 0", "--bottom 'sin(pi*x)'",
                       "laplace: ranks disagree on --bottom: rank 0 has 0, rank 1 has "
                       "sin(pi*x) " AGREEMENT);
}

Test(mpi_settings, a_different_precision_is_refused)
{
    require_mpirun();
    check_disagreement("--precision float", "--precision double",
                       "laplace: ranks disagree on --precision: rank 0 has float, rank 1 "
                       "has double " AGREEMENT);
}

Test(mpi_settings, a_different_output_is_refused_and_nothing_is_written)
{
    char dir[512], a[1600], b[2200], want[4096];
    require_mpirun();
    fresh_dir(dir, sizeof dir, "output");
    snprintf(a, sizeof a, "--output %s/a.bin --history %s/h.csv", dir, dir);
    snprintf(b, sizeof b, "--output %s/b.bin --history %s/h.csv", dir, dir);
    snprintf(want, sizeof want,
             "laplace: ranks disagree on --output: rank 0 has %s/a.bin, rank 1 has "
             "%s/b.bin " AGREEMENT,
             dir, dir);
    check_disagreement(a, b, want);
    snprintf(b, sizeof b, "--output %s/a.bin --output %s/b.vti --history %s/h.csv", dir,
             dir, dir);
    snprintf(want, sizeof want,
             "laplace: ranks disagree on --output: rank 0 has %s/a.bin, rank 1 has "
             "%s/a.bin, %s/b.vti " AGREEMENT,
             dir, dir, dir);
    check_disagreement(a, b, want);
    char *left = files_left(dir);
    cr_assert_str_eq(left, "", "the refused runs left:\n%s", left);
    free(left);
}

/* One rank's --dry-run or --help would take another path and leave the other
 * waiting: the actions are settings too. */
Test(mpi_settings, a_different_action_is_refused_instead_of_a_hang)
{
    require_mpirun();
    check_disagreement(
        "", "--dry-run",
        "laplace: ranks disagree on --dry-run: rank 0 has false, rank 1 has "
        "true " AGREEMENT);
    check_disagreement("--help", "",
                       "laplace: ranks disagree on --help: rank 0 has true, rank 1 has "
                       "false " AGREEMENT);
}

Test(mpi_settings, the_same_settings_on_every_rank_run_and_give_the_serial_field)
{
    char dir[512], a[700], serial[700];
    require_mpirun();
    fresh_dir(dir, sizeof dir, "same");
    snprintf(a, sizeof a, "--eps 1e-6 --partition 2x2 --output %s/ranks.bin", dir);
    struct run m = mpmd_run(a, a);
    cr_assert_eq(m.status, 0, "status %d; stderr:\n%s", m.status, m.err);
    snprintf(serial, sizeof serial,
             "--backend serial --nx 32 --ny 32 --top 1 --left 0.5 "
             "--eps 1e-6 --output %s/serial.bin",
             dir);
    struct run s = laplace_run("%s", serial);
    cr_assert_eq(s.status, 0, "serial: status %d; stderr:\n%s", s.status, s.err);
    long want_size = 0, got_size = 0;
    char want[600], got[600];
    snprintf(want, sizeof want, "%s/serial.bin", dir);
    snprintf(got, sizeof got, "%s/ranks.bin", dir);
    unsigned char *w = slurp_bytes(want, &want_size), *g = slurp_bytes(got, &got_size);
    cr_assert(w && g && want_size > 0, "%s or %s not written", want, got);
    cr_assert(want_size == got_size && memcmp(w, g, (size_t)want_size) == 0,
              "the ranks' field differs from the serial one");
    free(w), free(g);
    free(files_left(dir));
    run_free(&m), run_free(&s);
}

/* ---- the text and its message, without MPI -------------------------------------- */

/* The settings of argv (a NULL-ended list after the program's name). */
static char *text_of(const char *const *args)
{
    struct config c;
    char err[CONFIG_ERROR_MAX];
    int argc = 1;
    char *argv[32] = {"laplace"};
    for (; args[argc - 1]; argc++)
        argv[argc] = (char *)args[argc - 1];
    config_defaults(&c);
    cr_assert_eq(config_from_args(&c, argc, argv, err, sizeof err), 0, "%s", err);
    char *text = settings_agree_text(&c);
    cr_assert(text, "no text");
    return text;
}

Test(mpi_settings, the_text_holds_every_setting_but_the_devices)
{
    const char *with[] = {"--devices", "0,1", "--nx", "40", NULL};
    const char *without[] = {"--nx", "40", NULL};
    char *a = text_of(with), *b = text_of(without);
    cr_assert_str_eq(a, b, "--devices is each rank's own");
    cr_assert(strncmp(a, "nx=40\n", 6) == 0, "not nx first:\n%s", a);
    static const char *keys[] = {
        "\nny=",      "\ntop=",       "\nprecision=",      "\nmethod=",     "\neps=",
        "\nbackend=", "\npartition=", "\nranks=",          "\nkernel=",     "\nmonitor=",
        "\noutput=",  "\nhistory=",   "\ndry-run=false\n", "\nhelp=false\n"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        cr_assert(strstr(a, keys[i]), "no '%s' in:\n%s", keys[i] + 1, a);
    cr_assert_null(strstr(a, "devices"), "devices in:\n%s", a);
    cr_assert_null(strstr(a, "[problem]"), "a section in:\n%s", a);
    free(a), free(b);
}

Test(mpi_settings, the_message_names_the_first_setting_and_both_values)
{
    char err[CONFIG_ERROR_MAX];
    const char *base[] = {"--nx", "40", "--eps", "1e-4", NULL};
    const char *other[] = {"--nx", "41", "--eps", "1e-3", NULL};
    const char *region[] = {
        "--nx", "40", "--eps", "1e-4", "--region", "disc 0.5 0.5 0.2 1", NULL};
    char *a = text_of(base), *b = text_of(other), *c = text_of(region);
    settings_agree_describe(a, b, 3, err, sizeof err);
    cr_assert_str_eq(err,
                     "ranks disagree on --nx: rank 0 has 40, rank 3 has 41 " AGREEMENT);
    settings_agree_describe(a, c, 1, err, sizeof err); /* a setting rank 0 lacks */
    cr_assert_str_eq(err, "ranks disagree on --region: rank 0 has none, rank 1 has disc "
                          "0.5 0.5 0.2 1 " AGREEMENT);
    free(a), free(b), free(c);
}

Test(mpi_settings, one_process_agrees_at_once)
{
    const char *args[] = {"--nx", "40", NULL};
    struct config c;
    char err[CONFIG_ERROR_MAX] = "untouched";
    free(text_of(args));
    config_defaults(&c);
    cr_assert_eq(settings_agree_check(&c, err, sizeof err), 0);
    cr_assert_str_eq(err, "untouched");
}

/*
 * test_signals.c - signals and closed streams (issue 26, item 5), through ./laplace
 * in a shell: a signal while the outputs are written gives its status with the
 * outputs whole or absent (LAPLACE_INJECT_SIGNAL raises it there, support/fault.h);
 * SIGQUIT is SIGTERM's twin; a closed stdout stops a run at once with one line;
 * --help, --print-config and --dry-run into a closed pipe or past a file size
 * limit are status 1 with one line, never death by SIGPIPE or SIGXFSZ.
 * Each test works in its own folder under tests/out.
 */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "support/interrupt.h"

TestSuite(signals, .init = require_laplace);

#define SMALL "--backend cpu --partition 2x1 --nx 32 --ny 32 --max-iter 50"
/* A run of minutes, for a signal or a closed pipe to stop. */
#define LONG_RUN "--backend cpu --nx 400 --ny 400 --eps 1e-14 --max-iter 100000000"

/* No temporary (.lpXXXXXX) left in dir. */
static void no_temporaries(const char *dir)
{
    cr_assert_eq(run_in_dir(dir, "ls -A | grep -q \"^\\.lp\""), 1,
                 "a temporary file was left in %s", dir);
}

/* ---- a signal while the outputs are written --------------------------------- */

/* Renames: 1 the history, 2 a.dat, 3 b.vti. One SIGTERM at a.dat's: every output
 * is finished (whole), the status is SIGTERM's, the stderr line says why. */
Test(signals, a_signal_while_the_outputs_are_written_gives_its_status, .timeout = 60)
{
    char dir[512];
    fresh_out_dir(dir, sizeof dir, "sig-output");
    int status =
        run_in_dir(dir, "LAPLACE_INJECT_SIGNAL=15:2 $L " SMALL
                        " --output a.dat --output b.vti --history h.csv > out.txt");
    cr_assert_eq(status, 143, "status %d (0: the signal was swallowed)", status);
    err_in_dir_says(dir, "SIGTERM", "outputs");
    char *dat = text_in_dir(dir, "a.dat");
    cr_assert_eq(count_lines(dat), 32, "a.dat is whole");
    free(dat);
    cr_assert(exists_in_dir(dir, "b.vti") && exists_in_dir(dir, "h.csv"));
    no_temporaries(dir);
}

/* SIGINT there: 130, and the comparison after the outputs is not run. */
Test(signals, ctrl_c_while_the_outputs_are_written_skips_the_comparison, .timeout = 60)
{
    char dir[512];
    fresh_out_dir(dir, sizeof dir, "sig-compare");
    int status = run_in_dir(dir, "LAPLACE_INJECT_SIGNAL=2:1 $L " SMALL
                                 " --output a.dat --compare-cpu > out.txt");
    cr_assert_eq(status, 130, "status %d", status);
    char *out = text_in_dir(dir, "out.txt");
    cr_assert_null(strstr(out, "CPU ("), "the comparison ran:\n%s", out);
    free(out);
    err_in_dir_says(dir, "SIGINT", "outputs");
}

/* A second signal ends the program at once: what was renamed is whole, the file
 * being written is absent, no temporary is left. SIGTERM and SIGQUIT alike. */
Test(signals, a_second_signal_leaves_the_outputs_whole_or_absent, .timeout = 60)
{
    const int signals[] = {15, 3};
    for (int k = 0; k < 2; k++) {
        char dir[512], name[64];
        snprintf(name, sizeof name, "sig-twice-%d", signals[k]);
        fresh_out_dir(dir, sizeof dir, name);
        int status =
            run_in_dir(dir,
                       "LAPLACE_INJECT_SIGNAL=%d:2,%d:3 $L " SMALL
                       " --output a.dat --output b.vti --history h.csv > out.txt",
                       signals[k], signals[k]);
        cr_assert_eq(status, 128 + signals[k], "signal %d: status %d", signals[k],
                     status);
        char *dat = text_in_dir(dir, "a.dat");
        cr_assert_eq(count_lines(dat), 32, "a.dat is whole");
        free(dat);
        cr_assert(!exists_in_dir(dir, "b.vti"), "b.vti, cut short, is absent");
        no_temporaries(dir);
    }
}

/* ---- SIGQUIT ------------------------------------------------------------------ */

/* SIGQUIT during the solve: the run stops, writes the field reached, exits 131. */
Test(signals, sigquit_stops_the_run_and_writes_the_outputs, .timeout = 90)
{
    char dir[512];
    fresh_out_dir(dir, sizeof dir, "sig-quit");
    int status = run_in_dir(dir, "$L " LONG_RUN " -q --output a.dat & p=$!; sleep 1; "
                                 "kill -QUIT $p; wait $p");
    cr_assert_eq(status, 131, "status %d", status);
    char *dat = text_in_dir(dir, "a.dat");
    cr_assert_eq(count_lines(dat), 400, "the field reached is written");
    free(dat);
    no_temporaries(dir);
}

/* A second SIGQUIT removes every guarded temporary, as SIGTERM's does. */
Test(signals, a_second_sigquit_removes_the_temporaries, .timeout = 60)
{
    char dir[512], path[600];
    fresh_out_dir(dir, sizeof dir, "sig-quit-guards");
    pid_t child = fork();
    cr_assert(child >= 0);
    if (child == 0) {
        interrupt_install();
        for (int i = 0; i < 5; i++) {
            snprintf(path, sizeof path, "%s/.lp%03d", dir, i);
            if (write_text(path, "x") != 0 || interrupt_guard(path) < 0)
                _exit(3);
        }
        raise(SIGQUIT);
        raise(SIGQUIT);
        _exit(4); /* not reached: the second signal ends the program */
    }
    int raw;
    waitpid(child, &raw, 0);
    cr_assert(WIFEXITED(raw) && WEXITSTATUS(raw) == 131, "child status %d", raw);
    no_temporaries(dir);
}

/* ---- a closed stdout ---------------------------------------------------------- */

/* "| head -1" after the first monitor line, or a reader that leaves having read
 * nothing: the run stops at once, status 1, one line on stderr. */
Test(signals, a_closed_stdout_stops_the_run_with_one_line, .timeout = 120)
{
    const char *readers[] = {"--monitor 100 | head -1 > /dev/null",
                             "| (sleep 0.5; exit 0)"};
    for (int k = 0; k < 2; k++) {
        char dir[512];
        fresh_out_dir(dir, sizeof dir, "sig-closed");
        time_t start = time(NULL);
        int status =
            run_in_dir(dir, "$L " LONG_RUN " %s; exit ${PIPESTATUS[0]}", readers[k]);
        cr_assert_eq(status, 1, "'%s': status %d (124: it ran on)", readers[k], status);
        cr_assert(time(NULL) - start < 30, "'%s' took %lds", readers[k],
                  (long)(time(NULL) - start));
        err_in_dir_says(dir, "standard output", "Broken pipe");
    }
}

/* ---- --help, --print-config and --dry-run ---------------------------------- */

/* Output of more than 1 KiB on each path. */
static const char *const printing[] = {
    "--help",
    "--top \"$(printf \"x+%.0s\" $(seq 100))0\" --output $(printf \"n%.0s\" $(seq "
    "300)).dat "
    "--print-config",
    "--backend cpu --partition 8x8 --nx 512 --ny 512 --dry-run"};

Test(signals, printing_into_a_closed_pipe_is_status_1_with_one_line, .timeout = 60)
{
    char dir[512];
    fresh_out_dir(dir, sizeof dir, "sig-pipe");
    for (int k = 0; k < 3; k++) {
        int status = run_in_dir(
            dir, "{ sleep 0.3; $L %s; echo $? > status.txt; } 2>err.txt | true",
            printing[k]);
        char *got = text_in_dir(dir, "status.txt");
        cr_assert(status == 0 && atoi(got) == 1, "'%s': status %s (141: SIGPIPE)",
                  printing[k], got);
        free(got);
        err_in_dir_says(dir, "standard output", "Broken pipe");
    }
}

Test(signals, printing_past_a_file_size_limit_is_status_1_with_one_line, .timeout = 60)
{
    char dir[512];
    fresh_out_dir(dir, sizeof dir, "sig-xfsz");
    for (int k = 0; k < 3; k++) {
        int status = run_in_dir(dir, "ulimit -f 1; $L %s > out.txt", printing[k]);
        cr_assert_eq(status, 1, "'%s': status %d (153: SIGXFSZ)", printing[k], status);
        err_in_dir_says(dir, "standard output", "File too large");
    }
}

/*
 * test_trust_outputs.c - outputs whole or absent (issue 16, items 1-6), through
 * ./laplace in a shell: unique temporaries across PID namespaces, every path
 * checked before the solve, a .pvti set replaced whole, failed writes to stdout
 * reported, SIGPIPE/SIGHUP/SIGXFSZ leaving no temporary, a 250-character name,
 * any number of guarded temporaries, and a bench that never overwrites a result.
 * Each test works in its own folder under tests/out, removed at the end.
 */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "support/interrupt.h"

#define SMALL "--backend cpu --nx 32 --ny 32"

/* A fresh folder tests/out/<pid>-trust-<name> in dir. */
static void fresh_dir(char *dir, size_t n, const char *name)
{
    char command[600];
    ensure_out_dir();
    snprintf(dir, n, TEST_OUT "/%ld-trust-%s", out_pid(), name);
    snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    cr_assert_eq(system(command), 0);
}

static void remove_dir(const char *dir)
{
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    cr_assert_eq(system(command), 0);
}

/* Runs a bash command line in dir (./laplace is "$L"); its status, and its stderr
 * in *err (malloc'd) when err is not NULL. */
static int shell(const char *dir, char **err, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static int shell(const char *dir, char **err, const char *format, ...)
{
    char line[4096], command[10000], err_path[600], here[1024];
    va_list ap;
    va_start(ap, format);
    vsnprintf(line, sizeof line, format, ap);
    va_end(ap);
    cr_assert(getcwd(here, sizeof here));
    snprintf(err_path, sizeof err_path, "%s/../%ld-trust.stderr", dir, out_pid());
    snprintf(command, sizeof command,
             "cd '%s' && L='%s/laplace' timeout 120 bash -c '%s' 2>'%s/%s'", dir, here,
             line, here, err_path);
    int raw = system(command);
    if (err)
        *err = slurp(err_path);
    if (err && !*err)
        *err = strdup("");
    remove(err_path);
    return raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

static int exists(const char *dir, const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* No temporary of the old (NAME.tmpPID) or new (.lpXXXXXX) kind left in dir. */
static void no_temporaries(const char *dir)
{
    cr_assert_eq(shell(dir, NULL, "ls -A | grep -q -e \"\\.tmp\" -e \"^\\.lp\""), 1,
                 "a temporary file was left in %s", dir);
}

/* unshare and ulimit work here (root in CI); else the test reports itself skipped. */
static void require_unshare(void)
{
    if (system("unshare --pid --fork true >/dev/null 2>&1") != 0)
        cr_skip("unshare --pid is not allowed here");
}

/* ---- 1: temporaries ------------------------------------------------------ */

/* In a new PID namespace laplace is pid 1: another run's temporary "a.dat.tmp1" in
 * the same folder (a run in another namespace) must not be touched. */
Test(outputs_trust, temporaries_are_unique_across_pid_namespaces, .timeout = 60)
{
    char dir[512];
    require_laplace();
    require_unshare();
    fresh_dir(dir, sizeof dir, "pidns");
    cr_assert_eq(shell(dir, NULL, "echo other > a.dat.tmp1 && echo other > b.vti.tmp1"),
                 0);
    cr_assert_eq(shell(dir, NULL,
                       "unshare --pid --fork $L " SMALL
                       " -q --output a.dat --output b.vti"),
                 0);
    cr_assert(exists(dir, "a.dat") && exists(dir, "b.vti"));
    char path[600];
    snprintf(path, sizeof path, "%s/a.dat.tmp1", dir);
    char *kept = slurp(path);
    cr_assert(kept && strcmp(kept, "other\n") == 0,
              "another run's temporary was touched");
    free(kept);
    remove_dir(dir);
}

/* ---- 2: every path checked before the solve, each failure its own line ----- */

Test(outputs_trust, every_path_is_checked_before_the_solve, .timeout = 60)
{
    char dir[512], *err;
    require_laplace();
    fresh_dir(dir, sizeof dir, "check");
    int status = shell(dir, &err,
                       "mkdir x_1.vti h.csv && $L " SMALL " --partition 2x1 -q "
                       "--output x.pvti --output b.dat --history h.csv");
    cr_assert_eq(status, 1, "status %d: %s", status, err);
    cr_assert_eq(count_lines(err), 2, "one line per failure, got:\n%s", err);
    cr_assert(strstr(err, "x_1.vti") && strstr(err, "h.csv"), "%s", err);
    cr_assert(!exists(dir, "x_0.vti"), "an orphan piece was left");
    cr_assert(!exists(dir, "b.dat") && !exists(dir, "x.pvti"));
    no_temporaries(dir);
    free(err);
    remove_dir(dir);
}

/* A write that fails after the check (a file size limit, EFBIG) fails that output
 * only: the others are written, each failure is one line, the status is 1. */
Test(outputs_trust, one_failed_output_does_not_cancel_the_others, .timeout = 60)
{
    char dir[512], *err;
    require_laplace();
    fresh_dir(dir, sizeof dir, "others");
    int status =
        shell(dir, &err,
              "ulimit -f 32 && $L --backend cpu --nx 64 --ny 64 --precision float "
              "-q --output big.dat --output small.bin");
    cr_assert_eq(status, 1, "status %d: %s", status, err);
    cr_assert_eq(count_lines(err), 1, "%s", err);
    cr_assert(strstr(err, "big.dat") && strstr(err, "File too large"), "%s", err);
    cr_assert(exists(dir, "small.bin") && !exists(dir, "big.dat"));
    no_temporaries(dir);
    free(err);
    remove_dir(dir);
}

/* ---- 3: a .pvti set replaced whole or not at all --------------------------- */

Test(outputs_trust, a_pvti_set_is_replaced_whole_or_not_at_all, .timeout = 60)
{
    char dir[512], *err, *before[3], path[600];
    const char *names[3] = {"c.pvti", "c_0.vti", "c_1.vti"};
    require_laplace();
    fresh_dir(dir, sizeof dir, "pvti");
    cr_assert_eq(shell(dir, NULL,
                       "$L --backend cpu --partition 2x1 --nx 64 --ny 128 -q "
                       "--max-iter 5 --output c.pvti"),
                 0);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        before[i] = slurp(path);
        cr_assert(before[i]);
    }
    /* 33 KiB: piece 1 (33548 bytes) fits, piece 0 (34570 bytes) does not */
    int status = shell(dir, &err,
                       "ulimit -f 33 && $L --backend cpu --partition 2x1 --nx 64 "
                       "--ny 128 -q --max-iter 9 --output c.pvti");
    cr_assert_eq(status, 1, "status %d: %s", status, err);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *after = slurp(path);
        cr_assert(after && strcmp(after, before[i]) == 0, "%s was replaced", names[i]);
        free(after);
        free(before[i]);
    }
    no_temporaries(dir);
    free(err);
    remove_dir(dir);
}

Test(outputs_trust, an_output_on_a_pvti_piece_is_refused, .timeout = 60)
{
    require_laplace();
    char a[300], b[300];
    out_path(a, sizeof a, "trust-c.pvti");
    snprintf(b, sizeof b, "%.*s_0.vti", (int)strlen(a) - 5, a);
    struct run r = laplace_run(SMALL " --partition 2x1 -q --output %s --output %s", a, b);
    check_refused(&r, 2, "_0.vti");
    cr_assert(access(a, F_OK) != 0 && access(b, F_OK) != 0);
    run_free(&r);
}

/* ---- 4: stdout ------------------------------------------------------------ */

Test(outputs_trust, a_failed_write_to_stdout_is_status_1_with_a_message, .timeout = 60)
{
    const char *forms[] = {"--csv", "", "--monitor 1"};
    char dir[512], *err;
    require_laplace();
    fresh_dir(dir, sizeof dir, "full");
    for (int i = 0; i < 3; i++) {
        int status = shell(dir, &err, "$L " SMALL " %s > /dev/full", forms[i]);
        cr_assert_eq(status, 1, "'%s' > /dev/full: status %d", forms[i], status);
        cr_assert(strstr(err, "No space left"), "'%s': stderr: %s", forms[i], err);
        free(err);
    }
    remove_dir(dir);
}

Test(outputs_trust, a_closed_stdout_keeps_the_monitor_out_of_the_history, .timeout = 60)
{
    char dir[512], path[600];
    require_laplace();
    fresh_dir(dir, sizeof dir, "closed");
    /* the monitor printed to the closed stdout: lost, status 1 (issue 45) */
    cr_assert_eq(shell(dir, NULL, "$L " SMALL " --monitor 1 --history h.csv >&-"), 1);
    snprintf(path, sizeof path, "%s/h.csv", dir);
    char *history = slurp(path);
    cr_assert(history);
    cr_assert(!strstr(history, "norm "), "monitor lines in the history:\n%.300s",
              history);
    cr_assert(strncmp(history, "iteration,norm,elapsed_s,eps\n", 29) == 0);
    free(history);
    remove_dir(dir);
}

/* ---- 5: signals and names ------------------------------------------------- */

/* SIGPIPE is ignored: the run ends, writes its outputs and leaves no temporary. */
Test(outputs_trust, a_closed_pipe_leaves_the_outputs_and_no_temporary, .timeout = 120)
{
    char dir[512];
    require_laplace();
    fresh_dir(dir, sizeof dir, "pipe");
    shell(dir, NULL,
          "$L --backend cpu --nx 64 --ny 64 --eps 1e-6 --monitor 1 --output a.dat "
          "--history h.csv | head -1 > /dev/null");
    cr_assert(exists(dir, "a.dat") && exists(dir, "h.csv"), "the outputs are missing");
    no_temporaries(dir);
    remove_dir(dir);
}

/* SIGHUP is SIGTERM's twin: the run stops, writes the field reached, exits 129. */
Test(outputs_trust, sighup_stops_the_run_and_writes_the_outputs, .timeout = 120)
{
    char dir[512], *err;
    require_laplace();
    fresh_dir(dir, sizeof dir, "hup");
    int status = shell(dir, &err,
                       "$L --backend cpu --nx 400 --ny 400 --eps 1e-14 -q --output a.dat "
                       "--history h.csv & p=$!; sleep 1.5; kill -HUP $p; wait $p");
    cr_assert_eq(status, 129, "status %d: %s", status, err);
    cr_assert(exists(dir, "a.dat") && exists(dir, "h.csv"), "the outputs are missing");
    no_temporaries(dir);
    free(err);
    remove_dir(dir);
}

/* A file size limit (SIGXFSZ ignored, EFBIG): a message, status 1, no temporary. */
Test(outputs_trust, a_file_size_limit_is_a_reported_failure, .timeout = 60)
{
    char dir[512], *err;
    require_laplace();
    fresh_dir(dir, sizeof dir, "xfsz");
    int status =
        shell(dir, &err,
              "ulimit -f 1 && $L --backend cpu --nx 200 --ny 200 --max-iter 2000 -q "
              "--output a.vti --history h.csv");
    cr_assert_eq(status, 1, "status %d: %s", status, err);
    cr_assert(strstr(err, "a.vti") && strstr(err, "File too large"), "%s", err);
    no_temporaries(dir);
    free(err);
    remove_dir(dir);
}

/* A name of 250 characters (the file system takes 255) is written. */
Test(outputs_trust, a_250_character_name_is_written, .timeout = 60)
{
    char dir[512], name[256], *err;
    require_laplace();
    fresh_dir(dir, sizeof dir, "long");
    memset(name, 'a', 246);
    strcpy(name + 246, ".dat");
    int status = shell(dir, &err, "$L " SMALL " -q --output %s", name);
    cr_assert_eq(status, 0, "status %d: %s", status, err);
    cr_assert(exists(dir, name));
    no_temporaries(dir);
    free(err);
    remove_dir(dir);
}

/* A second signal removes every guarded temporary, however many (more than the
 * 40 slots the old code had: 64 tiles of a .pvti, say). In a child process. */
Test(outputs_trust, a_second_signal_removes_any_number_of_temporaries, .timeout = 60)
{
    char dir[512], path[600];
    fresh_dir(dir, sizeof dir, "guards");
    pid_t child = fork();
    cr_assert(child >= 0);
    if (child == 0) {
        interrupt_install();
        for (int i = 0; i < 100; i++) {
            snprintf(path, sizeof path, "%s/.lp%03d", dir, i);
            if (write_text(path, "x") != 0 || interrupt_guard(path) < 0)
                _exit(3);
        }
        raise(SIGINT);
        raise(SIGINT);
        _exit(4); /* not reached: the second signal ends the program */
    }
    int raw;
    waitpid(child, &raw, 0);
    cr_assert(WIFEXITED(raw) && WEXITSTATUS(raw) == 130, "child status %d", raw);
    for (int i = 0; i < 100; i++) {
        snprintf(path, sizeof path, "%s/.lp%03d", dir, i);
        cr_assert(access(path, F_OK) != 0, "%s was left", path);
    }
    remove_dir(dir);
}

/* ---- 6: the bench's CSV ---------------------------------------------------- */

#define QUICK_BENCH "LAPLACE_BENCH_QUICK=1 LAPLACE_BENCH_DIR=. $L --bench -q"

Test(outputs_trust, a_second_bench_never_overwrites_the_first, .timeout = 120)
{
    char dir[512], *err;
    require_laplace();
    fresh_dir(dir, sizeof dir, "bench");
    cr_assert_eq(shell(dir, &err,
                       QUICK_BENCH
                       " && for f in bench-*.csv; do cp $f $f.keep; done && " QUICK_BENCH
                       " && ls bench-*-2.csv bench-*-2-sweep.csv >/dev/null && "
                       "for f in *.csv.keep; do cmp $f ${f%%.keep}; done"),
                 0, "the second bench did not take new names: %s", err);
    no_temporaries(dir);
    free(err);
    remove_dir(dir);
}

/* A CSV that cannot be written whole (a file size limit) leaves no file behind. */
Test(outputs_trust, a_bench_cut_short_leaves_no_partial_csv, .timeout = 120)
{
    char dir[512], *err;
    require_laplace();
    fresh_dir(dir, sizeof dir, "bench-cut");
    int status = shell(dir, &err, "ulimit -f 1 && " QUICK_BENCH);
    cr_assert_eq(status, 1, "status %d: %s", status, err);
    cr_assert_eq(shell(dir, NULL, "ls | grep -q csv"), 1, "a partial CSV was left");
    no_temporaries(dir);
    free(err);
    remove_dir(dir);
}

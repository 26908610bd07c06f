/*
 * helpers.h - small helpers shared by the tests: problems with non-zero edges,
 * solver settings, running ./laplace and reading what it wrote.
 *
 * Everything is static inline so that a test file that uses only part of it
 * still compiles under -Wall -Werror.
 */
#ifndef LAPLACE_TEST_HELPERS_H
#define LAPLACE_TEST_HELPERS_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "problem/problem.h"
#include "solve/reference.h"
#include "solver.h"

/* Where tests write their files (the Makefile creates it; we do too). */
#define TEST_OUT "tests/out"

/* The edges used wherever a test must not pass on zeros alone. */
#define TEST_TOP 1.0
#define TEST_LEFT 0.3
#define TEST_RIGHT (-0.7)
#define TEST_BOTTOM 2.5

/*
 * Criterion runs two tests at once (make test: --jobs 2) and each may drive up
 * to 64 OpenMP threads; with libgomp's default spin-waiting at barriers such
 * runs starve each other on a small CI machine (20 s instead of 4). Passive
 * waiting changes no result, only the time. Set before main, so the test
 * workers (started from this binary) and every ./laplace they run inherit it;
 * a value set by the user wins.
 */
__attribute__((constructor)) static void tests_use_passive_omp_waiting(void)
{
    setenv("OMP_WAIT_POLICY", "passive", 0);
}

/*
 * A comparison or a sweep made on a busy machine says so on stderr (support/load.h);
 * make test itself keeps the machine busy, so every test's ./laplace sees a quiet
 * one unless it sets LAPLACE_LOADAVG itself (tests/test_shared_machine.c does).
 */
__attribute__((constructor)) static void tests_see_a_quiet_machine(void)
{
    setenv("LAPLACE_LOADAVG", "0", 0);
}

static inline struct problem test_problem(long nx, long ny, enum precision precision)
{
    return (struct problem){.nx = nx,
                            .ny = ny,
                            .top = TEST_TOP,
                            .bottom = TEST_BOTTOM,
                            .left = TEST_LEFT,
                            .right = TEST_RIGHT,
                            .precision = precision};
}

static inline struct solve_settings test_settings(double eps, long max_iter)
{
    return (struct solve_settings){.eps = eps,
                                   .max_iter = max_iter,
                                   .check_every = 1,
                                   .tile = {.block_x = 32, .block_y = 8, .use_p2p = 1}};
}

/* The norms a monitor or observer was handed, in order (record_norm). */
struct norm_log {
    long count;
    long iteration[20000];
    double norm[20000];
};

static inline void record_norm(void *context, long iteration, double norm,
                               double elapsed_s)
{
    struct norm_log *log = context;
    cr_assert(elapsed_s >= 0.0, "elapsed time is negative");
    if (log->count < 20000) {
        log->iteration[log->count] = iteration;
        log->norm[log->count] = norm;
    }
    log->count++;
}

/* Solves on the serial reference; the test fails if the solve does. */
static inline void run_reference(const struct problem *pb, const struct solve_settings *s,
                                 struct field *out, struct solve_result *r)
{
    cr_assert_eq(reference_solve(pb, NULL, s, out, r), 0, "reference_solve failed: %s",
                 r->error);
}

/* Solves on ngx x ngy host tiles; the test fails if the solve does. */
static inline void run_tiles(const struct problem *pb, int ngx, int ngy,
                             const struct solve_settings *s, struct field *out,
                             struct solve_result *r)
{
    struct partition p;
    cr_assert_eq(partition_init(&p, pb->nx, pb->ny, ngx, ngy), 0,
                 "partition %dx%d of %ldx%ld", ngx, ngy, pb->nx, pb->ny);
    cr_assert_eq(solver_run(&device_host_ops, pb, &p, s, out, r), 0,
                 "solver_run %dx%d: %s", ngx, ngy, r->error);
    partition_free(&p);
}

static inline void ensure_out_dir(void)
{
    mkdir(TEST_OUT, 0777); /* EEXIST is fine */
}

/*
 * This process's pid, the first part of every name under tests/out, written once
 * beside the test's name in tests/out/owners ("<pid> suite::name"), so that after
 * make test tests/clean_out.sh keeps the outputs of the tests that failed and
 * removes the rest.
 */
static inline long out_pid(void)
{
    static long registered; /* the pid written, or 0 (a worker is a fork) */
    long pid = (long)getpid();
    if (registered == pid || !criterion_current_test)
        return pid;
    ensure_out_dir();
    FILE *owners = fopen(TEST_OUT "/owners", "a");
    cr_assert(owners, "cannot open " TEST_OUT "/owners");
    int written = fprintf(owners, "%ld %s::%s\n", pid, criterion_current_test->category,
                          criterion_current_test->name);
    cr_assert(fclose(owners) == 0 && written > 0, "cannot write " TEST_OUT "/owners");
    registered = pid;
    return pid;
}

/* The paths made by out_path in this process (a test's worker). */
struct out_paths {
    int count;
    char path[32][1024];
};

static inline struct out_paths *out_paths(void)
{
    static struct out_paths paths;
    return &paths;
}

static inline void remove_out_paths(void)
{
    struct out_paths *p = out_paths();
    for (int i = 0; i < p->count; i++)
        remove(p->path[i]); /* files, and the empty folders some tests make */
}

/*
 * A path under tests/out unique to this process: tests/out/<pid>-<name>.
 * Whatever the test leaves there is removed when its process exits.
 */
static inline void out_path(char *path, size_t n, const char *name)
{
    struct out_paths *p = out_paths();
    ensure_out_dir();
    snprintf(path, n, TEST_OUT "/%ld-%s", out_pid(), name);
    if (p->count == 0)
        atexit(remove_out_paths);
    if (p->count < 32 && strlen(path) < sizeof p->path[0])
        memcpy(p->path[p->count++], path, strlen(path) + 1);
}

/* The whole file as a NUL-terminated string (malloc'd), or NULL. */
static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            char *bigger = realloc(text, cap * 2);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (text)
        text[len] = '\0';
    return text;
}

/* The whole file's bytes (malloc'd, one more byte allocated) and its size, or NULL. */
static inline unsigned char *slurp_bytes(const char *path, long *size)
{
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    rewind(f);
    unsigned char *data = malloc((size_t)*size + 1);
    if (data && fread(data, 1, (size_t)*size, f) != (size_t)*size)
        free(data), data = NULL;
    fclose(f);
    return data;
}

static inline int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static inline int count_lines(const char *text)
{
    int lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    return lines;
}

/* What one run of ./laplace did. */
struct run {
    int status; /* exit status, or -1 if it did not exit normally */
    char *out;  /* stdout */
    char *err;  /* stderr */
};

/*
 * Runs "timeout SECONDS PROGRAM ARGS" through the shell (PROGRAM: ./laplace, or a
 * launcher followed by it) with stdout and stderr captured in files under
 * tests/out. A run killed by the timeout has status 124.
 */
static inline struct run program_run(int seconds, const char *program, const char *args)
{
    static int serial;
    char out[256], err[256], command[6000], name[64];
    snprintf(name, sizeof name, "run%d.stdout", serial);
    out_path(out, sizeof out, name);
    snprintf(name, sizeof name, "run%d.stderr", serial++);
    out_path(err, sizeof err, name);
    snprintf(command, sizeof command, "timeout %d %s %s >%s 2>%s", seconds, program, args,
             out, err);
    int raw = system(command);
    struct run r = {.status = -1};
    if (raw != -1 && WIFEXITED(raw))
        r.status = WEXITSTATUS(raw);
    r.out = slurp(out);
    r.err = slurp(err);
    if (!r.out)
        r.out = strdup("");
    if (!r.err)
        r.err = strdup("");
    remove(out);
    remove(err);
    return r;
}

/* program_run of ./laplace, ARGS as printf formats them. */
static inline struct run laplace_vrun(int seconds, const char *format, va_list ap)
{
    char args[4096];
    vsnprintf(args, sizeof args, format, ap);
    return program_run(seconds, "./laplace", args);
}

static inline struct run laplace_run(const char *format, ...)
    __attribute__((format(printf, 1, 2)));
static inline struct run laplace_run(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    struct run r = laplace_vrun(120, format, ap);
    va_end(ap);
    return r;
}

static inline struct run laplace_run_within(int seconds, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static inline struct run laplace_run_within(int seconds, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    struct run r = laplace_vrun(seconds, format, ap);
    va_end(ap);
    return r;
}

static inline void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
}

/* Field n of a comma-separated line (0-based) copied into buf; "" if absent. */
static inline const char *csv_field(const char *line, int n, char *buf, size_t size)
{
    const char *p = line;
    for (int i = 0; i < n && p; i++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    buf[0] = '\0';
    if (!p)
        return buf;
    size_t len = strcspn(p, ",\n");
    if (len >= size)
        len = size - 1;
    memcpy(buf, p, len);
    buf[len] = '\0';
    return buf;
}

/* The index of the column named name in a CSV header line; -1 if none. */
static inline int csv_column(const char *header, const char *name)
{
    char field[64];
    for (int i = 0; *csv_field(header, i, field, sizeof field); i++)
        if (strcmp(field, name) == 0)
            return i;
    return -1;
}

/* Line n (0-based) of text; a pointer into text, ending at '\n' or NUL. */
static inline const char *nth_line(const char *text, int n)
{
    const char *p = text;
    for (int i = 0; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return p && *p ? p : NULL;
}

/* Runs a shell command with its stdout and stderr into one string (malloc'd, never
 * NULL); *status is its exit status, -1 if it did not exit. */
static inline char *shell_run(const char *command, int *status)
{
    static int serial;
    char out[256], name[64], full[4096];
    snprintf(name, sizeof name, "shell%d.out", serial++);
    out_path(out, sizeof out, name);
    snprintf(full, sizeof full, "(%s) > %s 2>&1", command, out);
    int raw = system(full);
    *status = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    char *text = slurp(out);
    remove(out);
    return text ? text : strdup("");
}

/* A suite's init: the end-to-end tests run ./laplace from the repository root. */
static inline void require_laplace(void)
{
    cr_assert_eq(
        access("./laplace", X_OK), 0,
        "./laplace not found: build it and run the tests from the repository root");
}

/* A fresh, empty folder tests/out/<pid>-NAME in dir. */
static inline void fresh_out_dir(char *dir, size_t n, const char *name)
{
    char command[2200];
    ensure_out_dir();
    snprintf(dir, n, TEST_OUT "/%ld-%s", out_pid(), name);
    int length =
        snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    cr_assert(length > 0 && (size_t)length < sizeof command, "%s: too long a name", dir);
    cr_assert_eq(system(command), 0, "cannot make %s", dir);
}

/* ---- in a folder of its own ---------------------------------------------------- */

/* Runs a bash command line in dir ("$L" is ./laplace); its exit status. Its stderr
 * goes to dir/err.txt unless the line says otherwise. */
static inline int run_in_dir(const char *dir, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static inline int run_in_dir(const char *dir, const char *format, ...)
{
    char line[2048], command[4096], here[1024];
    va_list ap;
    va_start(ap, format);
    vsnprintf(line, sizeof line, format, ap);
    va_end(ap);
    cr_assert(getcwd(here, sizeof here));
    snprintf(command, sizeof command,
             "cd '%s' && L='%s/laplace' timeout 60 bash -c '%s' 2>err.txt", dir, here,
             line);
    int raw = system(command);
    return raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

/* dir/name's text (malloc'd; "" when there is none). */
static inline char *text_in_dir(const char *dir, const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = slurp(path);
    return text ? text : strdup("");
}

static inline int exists_in_dir(const char *dir, const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* The first line of a run expected to take minutes (expect.h), which a long run
 * says before anything else. */
#define EXPECTED_TIME_LINE "laplace: this run is expected to take "

/* stderr (dir/err.txt) is one line holding each of the words (after the expected
 * time's first line, which a long run prints). */
static inline void err_in_dir_says(const char *dir, const char *a, const char *b)
{
    char *err = text_in_dir(dir, "err.txt");
    int said_time = strncmp(err, EXPECTED_TIME_LINE, strlen(EXPECTED_TIME_LINE)) == 0;
    cr_assert_eq(count_lines(err), 1 + said_time, "want one line on stderr, got:\n%s",
                 err);
    cr_assert(strstr(err, a) && strstr(err, b), "stderr does not say '%s', '%s': %s", a,
              b, err);
    free(err);
}

/* The host's available memory in bytes (MemAvailable), or 0. */
static inline double host_available(void)
{
    char *meminfo = slurp("/proc/meminfo");
    const char *at = meminfo ? strstr(meminfo, "MemAvailable:") : NULL;
    double kib = at ? atof(at + strlen("MemAvailable:")) : 0.0;
    free(meminfo);
    return kib * 1024.0;
}

/* ---- under mpirun --------------------------------------------------------------- */

#define MPI_SESSIONS "mpi-sessions" /* tests/out/<pid>-MPI_SESSIONS */

/*
 * Open MPI's session folders of this test's jobs under tests/out/<pid>-mpi-sessions
 * (absolute), not /tmp: jobs of concurrent tests share /tmp/ompi.<host>.<uid>, and
 * one job's clean-up removes it while another creates its own folder inside
 * ("orte_session_dir failed", a test failed so in CI). mpirun removes its own.
 */
static inline void own_mpi_session_folder(void)
{
    char relative[1024], absolute[PATH_MAX];
    out_path(relative, sizeof relative, MPI_SESSIONS);
    cr_assert(mkdir(relative, 0700) == 0 || errno == EEXIST, "cannot make %s", relative);
    cr_assert(realpath(relative, absolute), "cannot resolve %s", relative);
    setenv("OMPI_MCA_orte_tmpdir_base", absolute, 1);
}

/* Skips the test unless ./laplace is there, mpirun is on PATH and ./laplace was
 * built with MPI. Ranks then share memory without the single-copy (CMA) mechanism,
 * which containers often forbid (only the speed changes; the user's setting wins),
 * and keep their session folders to the test (own_mpi_session_folder). */
static inline void require_mpirun(void)
{
    int status;
    require_laplace();
    if (system("command -v mpirun >/dev/null 2>&1") != 0)
        cr_skip_test("needs mpirun on PATH (Open MPI)");
    char *version = shell_run("./laplace -V", &status);
    int with_mpi = status == 0 && strstr(version, "with MPI") != NULL;
    free(version);
    if (!with_mpi)
        cr_skip_test("./laplace was built without MPI");
    setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 0);
    own_mpi_session_folder();
}

/*
 * "env ASAN_OPTIONS=...detect_leaks=0 mpirun --oversubscribe [--allow-run-as-root]
 * OPTIONS" in buf (OPTIONS: -np N ... ./laplace). Open MPI keeps what MPI_Init
 * allocated (its plugins are unloaded at MPI_Finalize): under `make test SANITIZE=1`
 * LeakSanitizer would fail every rank for it, so the ranks leave leaks out (laplace's
 * own are checked by the single-process suites). No effect on a build without ASan.
 */
static inline const char *mpirun_command(char *buf, size_t n, const char *options)
{
    snprintf(buf, n,
             "env ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
             "mpirun --oversubscribe%s %s",
             geteuid() == 0 ? " --allow-run-as-root" : "", options);
    return buf;
}

/* The text of one line of `mpirun --tag-output`'s stderr ("[job,rank]<stderr>: text")
 * and its rank in *rank; NULL for a line of mpirun's own. */
static inline const char *mpi_tagged_text(const char *line, int *rank)
{
    int job, at = 0;
    if (sscanf(line, "[%d,%d]<stderr>:%n", &job, rank, &at) != 2 || at == 0)
        return NULL;
    return line + at + (line[at] == ' '); /* Open MPI 5 adds a space */
}

/* A refused run: the status, nothing on stdout, one line on stderr naming what. */
static inline void check_refused(struct run *r, int status, const char *named)
{
    cr_assert_eq(r->status, status, "status %d, want %d; stderr: %s", r->status, status,
                 r->err);
    cr_assert_eq(count_lines(r->err), 1, "want one line on stderr, got:\n%s", r->err);
    cr_assert(strlen(r->err) > 0 && r->err[strlen(r->err) - 1] == '\n',
              "line ends with \\n");
    cr_assert(strstr(r->err, named), "stderr '%s' does not name '%s'", r->err, named);
    cr_assert_str_eq(r->out, "", "nothing on stdout");
}

#endif

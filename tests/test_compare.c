/*
 * test_compare.c - --compare and --compare-cpu run the problem again through the
 * same path as the main run, but write nothing and stop on a signal: the main
 * run's .pvti pieces stay its own, and Ctrl-C during a comparison exits 130
 * without a comparison line.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

#define TILED                                                                            \
    "--backend cpu --nx 66 --ny 66 --partition 2x2 --top 1 --left 0.5 --max-iter 300"

/* The file's bytes (malloc'd) and its size, or NULL. */
static char *read_bytes(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (*size = ftell(f)) >= 0) {
        rewind(f);
        data = malloc((size_t)*size + 1);
        if (data && fread(data, 1, (size_t)*size, f) != (size_t)*size)
            free(data), data = NULL;
    }
    fclose(f);
    return data;
}

/* The n-th Extent="..." after the n-th "<Piece" of an index or a piece file. */
static int piece_extent(const char *text, int n, char *out, size_t size)
{
    const char *at = text;
    for (int i = 0; i <= n; i++)
        if (!at || !(at = strstr(at + (i > 0), "<Piece")))
            return -1;
    const char *e = strstr(at, "Extent=\"");
    const char *end = e ? strchr(e + 8, '"') : NULL;
    if (!end || (size_t)(end - e - 8) >= size)
        return -1;
    snprintf(out, size, "%.*s", (int)(end - e - 8), e + 8);
    return 0;
}

Test(compare, the_main_runs_pvti_pieces_survive_both_comparisons, .timeout = 120)
{
    require_laplace();
    char with[256], alone[256], path[300], extent[64], own[64];
    snprintf(with, sizeof with, TEST_OUT "/%ld-cmp", out_pid());
    snprintf(alone, sizeof alone, TEST_OUT "/%ld-plain", out_pid());
    struct run r = laplace_run(TILED " --compare --compare-cpu --output %s.pvti", with);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "speed-up"), "the comparison lines: %s", r.out);
    run_free(&r);
    r = laplace_run(TILED " --output %s.pvti", alone);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    snprintf(path, sizeof path, "%s.pvti", with);
    long size;
    char *index = read_bytes(path, &size);
    cr_assert(index, "the index was written");
    for (int t = 0; t < 4; t++) {
        long a_size = -1, b_size = -2;
        snprintf(path, sizeof path, "%s_%d.vti", with, t);
        char *piece = read_bytes(path, &a_size);
        snprintf(path, sizeof path, "%s_%d.vti", alone, t);
        char *plain = read_bytes(path, &b_size);
        cr_assert(piece && plain, "piece %d of both runs", t);
        cr_assert_eq(piece_extent(index, t, extent, sizeof extent), 0);
        cr_assert_eq(piece_extent(piece, 0, own, sizeof own), 0);
        cr_assert_str_eq(own, extent, "piece %d covers %s, the index says %s", t, own,
                         extent);
        cr_assert(a_size == b_size && memcmp(piece, plain, (size_t)a_size) == 0,
                  "piece %d holds the main run's field, as a run without comparison", t);
        free(piece), free(plain);
        snprintf(path, sizeof path, "%s_%d.vti", with, t), remove(path);
        snprintf(path, sizeof path, "%s_%d.vti", alone, t), remove(path);
    }
    free(index);
    snprintf(path, sizeof path, "%s.pvti", with), remove(path);
    snprintf(path, sizeof path, "%s.pvti", alone), remove(path);
}

/*
 * Ctrl-C once the main run has written its output (so the comparison is solving):
 * status 130, the main run's report, and no comparison line.
 */
Test(compare, ctrl_c_during_the_comparison_exits_130_without_its_line, .timeout = 120)
{
    require_laplace();
    char stem[256], command[2048], report[300];
    snprintf(stem, sizeof stem, TEST_OUT "/%ld-cmpint", out_pid());
    snprintf(report, sizeof report, "%s.txt", stem);
    snprintf(command, sizeof command,
             "rm -f %s.bin; ./laplace --backend cpu --partition 2x1 --nx 400 --ny 400 "
             "--eps 1e-14 --max-iter 6000 --compare --output %s.bin > %s 2>&1 & pid=$!; "
             "while [ ! -e %s.bin ] && kill -0 $pid 2>/dev/null; do sleep 0.02; done; "
             "kill -INT $pid; wait $pid",
             stem, stem, report, stem);
    int raw = system(command);
    int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    char *text = slurp(report);
    cr_assert(text, "the report was captured");
    cr_assert_eq(status, 130, "exit status %d: %s", status, text);
    cr_assert(strstr(text, "stopped       max-iter: stopped at --max-iter"),
              "the main run finished and reported: %s", text);
    cr_assert_null(strstr(text, "speed-up"), "no comparison line: %s", text);
    free(text);
    remove(report);
    snprintf(report, sizeof report, "%s.bin", stem);
    remove(report);
}

/* A comparison that one process cannot hold beside its main run is refused as under
 * mpirun (memory_check's check_comparisons): status 2, one line naming the option,
 * before anything is allocated (--dry-run plans only). The lattice: the main run
 * (about 18 bytes a site in double: field, two tile fields, terms) fits, the main
 * run and the comparison's whole solve (about 32 bytes a site) do not. */
Test(compare, a_comparison_that_does_not_fit_is_refused_before_the_run)
{
    double have = host_available();
    if (have <= 0.0)
        cr_skip_test("needs /proc/meminfo's MemAvailable");
    long side = (long)sqrt(1.25 * have / 32.0);
    struct run main_only = laplace_run(
        "--backend cpu --partition 2x1 --nx %ld --ny %ld --dry-run", side, side);
    cr_assert_eq(main_only.status, 0, "the main run alone fits: %s", main_only.err);
    run_free(&main_only);
    struct run r = laplace_run(
        "--backend cpu --partition 2x1 --nx %ld --ny %ld --compare-cpu --dry-run", side,
        side);
    check_refused(&r, 2, "--compare-cpu: the");
    cr_assert(strstr(r.err, "does not fit the host, which solves it whole"), "%s", r.err);
    run_free(&r);
}

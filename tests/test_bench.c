/*
 * test_bench.c - laplace --bench without a GPU: the plan of the matrix (sizes,
 * iterations, the largest square, baselines, the time it should take on 4 H200
 * GPUs), the CSV's name and columns, and ./laplace --bench end to end in its
 * quick form (LAPLACE_BENCH_QUICK=1), which on a machine without GPU runs the
 * host ceiling and the CPU baseline in well under a second.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "helpers.h"
#include "laplace_kernels.h"
#include "p2p.h"

#define GB 1000000000.0
#define GIB_BYTES ((size_t)1 << 30)

/* A 4 x H200 machine: 141 GB per GPU, about 139 GB of it free; 512 GiB of RAM. */
static const struct bench_machine h200x4 = {
    .gpus = 4, .gpu_free_bytes = (size_t)(139 * GB), .host_bytes = 512 * GIB_BYTES};

static int plan(const struct bench_machine *m, struct bench_entry *entries)
{
    return bench_matrix(m, entries, BENCH_MAX_ENTRIES);
}

static int count_group(const struct bench_entry *e, int count, const char *group)
{
    int n = 0;
    for (int i = 0; i < count; i++)
        n += strcmp(e[i].group, group) == 0;
    return n;
}

/* ---- the largest square and the iteration counts ------------------------- */

Test(bench, largest_fit_is_the_largest_multiple_of_1024_in_90_percent)
{
    for (int p = PRECISION_FLOAT; p <= PRECISION_DOUBLE; p++) {
        double size = (double)precision_size((enum precision)p);
        long n = bench_largest_fit(h200x4.gpu_free_bytes, (enum precision)p);
        double budget = 0.9 * (double)h200x4.gpu_free_bytes;
        cr_assert_eq(n % 1024, 0, "%ld", n);
        cr_assert(2.0 * size * (double)n * (double)n <= budget, "%ld does not fit", n);
        cr_assert(2.0 * size * (double)(n + 1024) * (double)(n + 1024) > budget,
                  "%ld + 1024 fits too", n);
    }
    cr_assert_eq(bench_largest_fit(139 * GB, PRECISION_FLOAT), 124928);
    cr_assert_eq(bench_largest_fit(139 * GB, PRECISION_DOUBLE), 88064);
    cr_assert_eq(bench_largest_fit(1000, PRECISION_DOUBLE), 0);
}

Test(bench, largest_square_is_capped_by_host_memory_and_set_up_time)
{
    struct bench_machine m = h200x4;
    cr_assert_eq(bench_largest_square(&m, PRECISION_FLOAT), 20480);
    cr_assert_eq(bench_largest_square(&m, PRECISION_DOUBLE), 20480);
    m.host_bytes = 8 * GIB_BYTES; /* an eighth of it: 1 GiB for one field */
    cr_assert_eq(bench_largest_square(&m, PRECISION_FLOAT), 16384);
    cr_assert_eq(bench_largest_square(&m, PRECISION_DOUBLE), 11264);
    m = h200x4;
    m.gpu_free_bytes = 4 * GIB_BYTES; /* a small GPU: the fit decides */
    cr_assert_eq(bench_largest_square(&m, PRECISION_DOUBLE),
                 bench_largest_fit(m.gpu_free_bytes, PRECISION_DOUBLE));
    m = h200x4;
    m.quick = 1;
    cr_assert_eq(bench_largest_square(&m, PRECISION_FLOAT), 0);
    m = h200x4;
    m.gpus = 0;
    cr_assert_eq(bench_largest_square(&m, PRECISION_FLOAT), 0);
}

static int is_125(long v)
{
    while (v >= 10 && v % 10 == 0)
        v /= 10;
    return v == 1 || v == 2 || v == 5;
}

Test(bench, iterations_are_about_0_4_s_on_one_nominal_gpu)
{
    static const long sizes[] = {512, 1024, 2048, 4096, 8192, 16384, 20480, 88064};
    cr_assert_eq(bench_iterations(16384, PRECISION_FLOAT), 1000);
    cr_assert_eq(bench_iterations(16384, PRECISION_DOUBLE), 500);
    for (int p = PRECISION_FLOAT; p <= PRECISION_DOUBLE; p++) {
        long last = 0;
        for (int s = 0; s < 8; s++) {
            long n = sizes[s], it = bench_iterations(n, (enum precision)p);
            double traffic = 2.0 * (double)precision_size((enum precision)p) *
                             (double)(n - 2) * (double)(n - 2);
            double seconds = (double)it * (traffic / 4e12 + 10e-6);
            cr_assert(is_125(it) && it >= 10, "%ld^2: %ld iterations", n, it);
            cr_assert(last == 0 || it <= last, "%ld^2: more iterations than smaller", n);
            cr_assert(it == 10 || (seconds > 0.2 && seconds < 0.8),
                      "%ld^2 %d: %ld iterations take %.2f s nominally", n, p, it,
                      seconds);
            last = it;
        }
    }
}

/* ---- the matrix ----------------------------------------------------------- */

Test(bench, matrix_on_four_gpus)
{
    struct bench_entry e[BENCH_MAX_ENTRIES];
    int count = plan(&h200x4, e);
    /* 6 sizes and the largest, 2 precisions, 1, 2 and 4 GPUs; 1x4 and 4x1 at 16384^2
     * and the largest, 2 precisions; 4 kernels; 5 blocks; 2 reduce modes on 1 and 4
     * GPUs; the CPU. */
    cr_assert_eq(count_group(e, count, "scaling"), 7 * 2 * 3);
    cr_assert_eq(count_group(e, count, "layout"), 2 * 2 * 2);
    cr_assert_eq(count_group(e, count, "kernel"), KERNEL_COUNT - 1);
    cr_assert_eq(count_group(e, count, "block"), 5);
    cr_assert_eq(count_group(e, count, "reduce"), 4);
    cr_assert_eq(count_group(e, count, "cpu"), 1);
    cr_assert_eq(count, 42 + 8 + KERNEL_COUNT - 1 + 5 + 4 + 1);
    for (int i = 0; i < count; i++) {
        int layout = e[i].partition_x * 10 + e[i].partition_y;
        if (strcmp(e[i].group, "layout") == 0)
            cr_assert(e[i].gpus == 4 && (layout == 14 || layout == 41) &&
                          (e[i].n == 16384 || e[i].n == 20480),
                      "layout entry %d: %d GPUs on %dx%d at %ld^2", i, e[i].gpus,
                      e[i].partition_x, e[i].partition_y, e[i].n);
        else if (e[i].backend == BACKEND_GPU)
            cr_assert_eq(layout,
                         e[i].gpus == 1   ? 11
                         : e[i].gpus == 2 ? 12
                                          : 22,
                         "%d GPUs on %dx%d", e[i].gpus, e[i].partition_x,
                         e[i].partition_y);
        int named = strcmp(e[i].kernel, "auto") != 0;
        int varies =
            strcmp(e[i].group, "kernel") == 0 || strcmp(e[i].group, "block") == 0;
        cr_assert_eq(named, varies, "%s group, kernel %s", e[i].group, e[i].kernel);
        int base = bench_baseline(e, count, i);
        cr_assert((base >= 0) == (e[i].backend == BACKEND_GPU), "entry %d: baseline %d",
                  i, base);
        cr_assert(base <= i, "entry %d is compared with the later entry %d", i, base);
        if (base >= 0)
            cr_assert_eq(e[base].iterations, e[i].iterations, "entry %d", i);
    }
    const struct bench_entry *cpu = &e[count - 1];
    cr_assert(cpu->backend == BACKEND_CPU && cpu->n == 4096 && cpu->iterations == 100 &&
                  cpu->precision == PRECISION_DOUBLE && cpu->partition_x == 0,
              "the CPU baseline: 4096^2 double, 100 iterations, every core");
}

Test(bench, matrix_on_eight_gpus_has_every_layout)
{
    struct bench_entry e[BENCH_MAX_ENTRIES];
    struct bench_machine m = h200x4;
    m.gpus = 8;
    int count = plan(&m, e);
    cr_assert_eq(count_group(e, count, "scaling"), 7 * 2 * 4);
    /* 4 GPUs: 1x4, 4x1; 8 GPUs: three besides the squarest; 2 sizes, 2 precisions */
    cr_assert_eq(count_group(e, count, "layout"), (2 + 3) * 2 * 2);
    int seen[9][9] = {{0}};
    for (int i = 0; i < count; i++)
        if (e[i].gpus == 8 && e[i].n == 16384 && e[i].precision == PRECISION_FLOAT)
            seen[e[i].partition_x][e[i].partition_y]++;
    cr_assert(seen[1][8] == 1 && seen[2][4] == 1 && seen[4][2] == 1 && seen[8][1] == 1,
              "each layout of 8 GPUs once at 16384^2 float: 1x8 %d, 2x4 %d, 4x2 %d, "
              "8x1 %d",
              seen[1][8], seen[2][4], seen[4][2], seen[8][1]);
    for (int i = 0; i < count; i++)
        cr_assert_lt(bench_baseline(e, count, i), i + 1, "entry %d", i);
}

Test(bench, matrix_uses_only_the_gpus_there_are)
{
    struct bench_entry e[BENCH_MAX_ENTRIES];
    struct bench_machine m = h200x4;
    m.gpus = 1;
    int count = plan(&m, e);
    cr_assert_eq(count_group(e, count, "scaling"), 7 * 2);
    cr_assert_eq(count_group(e, count, "reduce"), 2);
    for (int i = 0; i < count; i++)
        cr_assert_leq(e[i].gpus, 1);
    m.gpus = 3; /* 1 and 2 GPUs; the reduce modes on all 3 */
    count = plan(&m, e);
    cr_assert_eq(count_group(e, count, "scaling"), 7 * 2 * 2);
    cr_assert_eq(e[count - 2].gpus, 3);
    cr_assert_eq(e[count - 2].partition_x * e[count - 2].partition_y, 3);
    m.gpus = 0;
    count = plan(&m, e);
    cr_assert_eq(count, 1);
    cr_assert_eq(e[0].backend, BACKEND_CPU);
}

Test(bench, four_and_eight_h200_take_five_to_eight_minutes)
{
    struct bench_entry e[BENCH_MAX_ENTRIES];
    struct bench_machine m = h200x4;
    for (m.gpus = 4; m.gpus <= 8; m.gpus += 4) {
        int count = plan(&m, e);
        double total = 0.0;
        for (int i = 0; i < count; i++)
            total += bench_estimate_s(&e[i]);
        cr_log_info("%d x H200: %d configurations, estimated %.0f s", m.gpus, count,
                    total);
        cr_assert(total > 60.0 && total < 60.0 * (m.gpus == 4 ? 5 : 8),
                  "%d GPUs: estimated %.0f s", m.gpus, total);
    }
}

Test(bench, quick_matrix_is_tiny)
{
    struct bench_entry e[BENCH_MAX_ENTRIES];
    struct bench_machine m = h200x4;
    m.quick = 1;
    int count = plan(&m, e);
    double total = 0.0;
    cr_assert_gt(count, 20, "every group is still there");
    for (int i = 0; i < count; i++) {
        cr_assert_leq(e[i].n, 256);
        cr_assert_leq(e[i].iterations, 20);
        total += bench_estimate_s(&e[i]);
    }
    cr_assert_lt(total, 30.0);
}

/* ---- names and columns ---------------------------------------------------- */

Test(bench, file_name_has_the_gpu_and_the_date)
{
    struct tm day = {.tm_year = 2026 - 1900,
                     .tm_mon = 10,
                     .tm_mday = 22,
                     .tm_hour = 12,
                     .tm_isdst = -1};
    time_t when = mktime(&day);
    char path[256];
    bench_file_name(path, sizeof path, "results", "NVIDIA H200", when);
    cr_assert_str_eq(path, "results/bench-NVIDIA-H200-2026-11-22.csv");
    bench_file_name(path, sizeof path, "out", "NVIDIA H100 80GB HBM3", when);
    cr_assert_str_eq(path, "out/bench-NVIDIA-H100-80GB-HBM3-2026-11-22.csv");
    bench_file_name(path, sizeof path, "results", "", when);
    cr_assert_str_eq(path, "results/bench-cpu-2026-11-22.csv");
    bench_file_name(path, sizeof path, "results", NULL, when);
    cr_assert_str_eq(path, "results/bench-cpu-2026-11-22.csv");
}

#define BENCH_HEADER                                                                     \
    "backend,precision,nx,ny,partition,devices,method,iterations,converged,final_norm,"  \
    "time_input_s,time_compute_s,time_output_s,time_total_s,glups,gbps,gflops,kernel,"   \
    "block,reduce,repeat,copy_gbps,bandwidth_fraction,speedup,efficiency,command,"       \
    "group\n"

Test(bench, csv_header_starts_with_the_design_columns)
{
    char path[256];
    out_path(path, sizeof path, "header.csv");
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    bench_csv_header(f);
    fclose(f);
    char *text = slurp(path);
    cr_assert_str_eq(text, BENCH_HEADER);
    free(text);
}

Test(bench, median)
{
    double odd[] = {5, 1, 4, 2, 3}, even[] = {4, 1, 3, 2};
    cr_assert_eq(bench_median(odd, 5), 3.0);
    cr_assert_eq(bench_median(even, 4), 2.5);
}

/* ---- ./laplace --bench end to end (quick) --------------------------------- */

/* A fresh folder for the CSV under tests/out, set as LAPLACE_BENCH_DIR. */
static void quick_bench_dir(char *dir, size_t n)
{
    ensure_out_dir();
    snprintf(dir, n, TEST_OUT "/%ld-bench", (long)getpid());
    mkdir(dir, 0777);
    setenv("LAPLACE_BENCH_DIR", dir, 1);
    setenv("LAPLACE_BENCH_QUICK", "1", 1);
}

/* The one bench-*.csv in dir (malloc'd text), removed with the folder. */
static char *take_csv(const char *dir)
{
    char path[1024] = "", *text = NULL;
    DIR *d = opendir(dir);
    struct dirent *entry;
    int found = 0;
    while (d && (entry = readdir(d)))
        if (strncmp(entry->d_name, "bench-", 6) == 0) {
            snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
            text = slurp(path);
            remove(path);
            found++;
        }
    if (d)
        closedir(d);
    rmdir(dir);
    cr_assert_eq(found, 1, "want one bench CSV in %s, found %d", dir, found);
    return text;
}

Test(bench, quick_bench_end_to_end, .init = require_laplace)
{
    char dir[256], line[4096];
    quick_bench_dir(dir, sizeof dir);
    /* other options are ignored: the CPU row stays 256^2 double */
    struct run r = laplace_run_within(60, "--bench --nx 7 --precision float");
    cr_assert_eq(r.status, 0, "status %d; stderr: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "");
    cr_assert(strstr(r.out, "host copy") && strstr(r.out, "targets:") &&
                  strstr(r.out, "wrote ") && strstr(r.out, "\ncpu "),
              "stdout:\n%s", r.out);
    if (p2p_device_count() == 0)
        cr_assert(strstr(r.out, "GPUs were not measured"), "%s", r.out);
    char *csv = take_csv(dir);
    const char *p = csv;
    while (*p == '#')
        p = strchr(p, '\n') + 1;
    cr_assert_eq(strncmp(p, BENCH_HEADER, strlen(BENCH_HEADER)), 0, "header: %.300s", p);
    struct bench_entry e[BENCH_MAX_ENTRIES];
    struct bench_machine m = {.gpus = p2p_device_count(), .quick = 1};
    int rows = count_lines(p) - 1;
    cr_assert_eq(rows, 2 * plan(&m, e), "every configuration twice: %d rows", rows);
    const char *last = nth_line(p, rows);
    cr_assert_str_eq(csv_field(last, 0, line, sizeof line), "cpu");
    cr_assert_str_eq(csv_field(last, 1, line, sizeof line), "double");
    cr_assert_str_eq(csv_field(last, 2, line, sizeof line), "256");
    cr_assert_str_eq(csv_field(last, 20, line, sizeof line), "2");
    cr_assert_str_eq(csv_field(last, 26, line, sizeof line), "cpu");
    cr_assert(strstr(last, "\"laplace --backend cpu --nx 256 --ny 256"), "%s", last);
    free(csv);
    run_free(&r);
}

Test(bench, quiet_bench_prints_nothing_and_writes_the_csv, .init = require_laplace)
{
    char dir[256];
    quick_bench_dir(dir, sizeof dir);
    struct run r = laplace_run_within(60, "--bench -q");
    cr_assert_eq(r.status, 0, "status %d; stderr: %s", r.status, r.err);
    cr_assert_str_eq(r.out, "");
    cr_assert_str_eq(r.err, "");
    free(take_csv(dir));
    run_free(&r);
}

Test(bench, missing_gpu_is_a_usage_error, .init = require_laplace)
{
    char dir[256];
    quick_bench_dir(dir, sizeof dir);
    struct run r = laplace_run_within(60, "--bench --devices 63");
    cr_assert_eq(r.status, 2, "status %d; stderr: %s", r.status, r.err);
    cr_assert_eq(count_lines(r.err), 1, "one line: %s", r.err);
    cr_assert(strstr(r.err, "--devices"), "%s", r.err);
    cr_assert_str_eq(r.out, "");
    rmdir(dir);
    run_free(&r);
}

Test(bench, unwritable_folder_fails_clearly, .init = require_laplace)
{
    char dir[256], file[300];
    quick_bench_dir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s/file", dir);
    cr_assert_eq(write_text(file, "not a folder\n"), 0);
    setenv("LAPLACE_BENCH_DIR", file, 1);
    struct run r = laplace_run_within(60, "--bench -q");
    cr_assert_eq(r.status, 1, "status %d; stderr: %s", r.status, r.err);
    cr_assert_eq(count_lines(r.err), 1, "one line: %s", r.err);
    cr_assert(strstr(r.err, file), "names the path: %s", r.err);
    remove(file);
    rmdir(dir);
    run_free(&r);
}

/*
 * test_gpu.c - ./laplace --backend gpu against the serial reference: the same
 * .dat bytes and the same iteration count. Each test reports itself skipped
 * when the machine has fewer GPUs than it needs (make test runs without one;
 * make test-gpu runs tests/gpu_suite.sh on GPU machines).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "laplace_kernels.h"
#include "p2p.h"

#define PROBLEM "--nx 37 --ny 23 --top 1 --left 0.3 --right -0.7 --bottom 2.5 --eps 1e-6"

static void need_gpus(int n)
{
    int have = p2p_device_count();
    if (have < n)
        cr_skip_test("needs %d GPU%s, this machine has %d", n, n > 1 ? "s" : "", have);
    cr_assert_eq(access("./laplace", X_OK), 0,
                 "./laplace not found (run from the repo root)");
}

/* Solves PROBLEM on the GPUs with extra arguments and compares with serial. */
static void check_gpu_equals_serial(const char *precision, const char *gpu_args)
{
    char want_dat[256], got_dat[256], f[64], g[64];
    out_path(want_dat, sizeof want_dat, "gpu-serial.dat");
    out_path(got_dat, sizeof got_dat, "gpu-run.dat");
    struct run want =
        laplace_run(PROBLEM " --precision %s --backend serial --csv --output %s",
                    precision, want_dat);
    cr_assert_eq(want.status, 0, "serial: %s", want.err);
    struct run got =
        laplace_run(PROBLEM " --precision %s --backend gpu %s --csv --output %s",
                    precision, gpu_args, got_dat);
    cr_assert_eq(got.status, 0, "gpu %s: status %d: %s", gpu_args, got.status, got.err);
    const char *want_row = nth_line(want.out, 1), *got_row = nth_line(got.out, 1);
    cr_assert(want_row && got_row, "CSV rows missing:\n%s\n%s", want.out, got.out);
    cr_assert_str_eq(csv_field(got_row, 0, f, sizeof f), "gpu");
    cr_assert_str_eq(csv_field(got_row, 7, f, sizeof f),
                     csv_field(want_row, 7, g, sizeof g),
                     "%s %s: iterations differ from serial", precision, gpu_args);
    cr_assert_str_eq(csv_field(got_row, 8, f, sizeof f), "1", "converged");
    char *a = slurp(want_dat), *b = slurp(got_dat);
    cr_assert(a && b, "missing .dat files");
    cr_assert_str_eq(b, a, "%s %s: the GPU field differs from serial", precision,
                     gpu_args);
    free(a);
    free(b);
    remove(want_dat);
    remove(got_dat);
    run_free(&want);
    run_free(&got);
}

Test(gpu, one_gpu_float_equals_serial)
{
    need_gpus(1);
    check_gpu_equals_serial("float", "--partition 1x1");
}

Test(gpu, one_gpu_double_equals_serial)
{
    need_gpus(1);
    check_gpu_equals_serial("double", "--partition 1x1");
}

Test(gpu, one_gpu_odd_block_shapes_equal_serial)
{
    need_gpus(1);
    check_gpu_equals_serial("double", "--partition 1x1 --block 3x5");
    check_gpu_equals_serial("float", "--partition 1x1 --block 4x4");
}

Test(gpu, two_gpus_side_by_side_equal_serial)
{
    need_gpus(2);
    check_gpu_equals_serial("double", "--partition 2x1");
    check_gpu_equals_serial("float", "--partition 2x1");
}

Test(gpu, two_gpus_stacked_equal_serial)
{
    need_gpus(2);
    check_gpu_equals_serial("double", "--partition 1x2");
    check_gpu_equals_serial("float", "--partition 1x2");
}

Test(gpu, two_gpus_without_p2p_equal_serial)
{
    need_gpus(2);
    check_gpu_equals_serial("double", "--partition 2x1 --no-p2p");
    check_gpu_equals_serial("double", "--partition 1x2 --no-p2p");
    check_gpu_equals_serial("float", "--partition 2x1 --no-p2p");
}

Test(gpu, four_gpus_2x2_equal_serial)
{
    need_gpus(4);
    check_gpu_equals_serial("double", "--partition 2x2");
    check_gpu_equals_serial("double", "--partition 2x2 --no-p2p");
}

Test(gpu, devices_in_reverse_order_equal_serial)
{
    need_gpus(2);
    check_gpu_equals_serial("double", "--partition 2x1 --devices 1,0");
}

Test(gpu, every_kernel_on_one_gpu_equals_serial)
{
    need_gpus(1);
    for (int k = 0; k < KERNEL_COUNT; k++) {
        char args[128];
        snprintf(args, sizeof args, "--partition 1x1 --kernel %s",
                 kernel_variant_names[k]);
        check_gpu_equals_serial("double", args);
        check_gpu_equals_serial("float", args);
    }
}

Test(gpu, every_kernel_on_two_gpus_equals_serial)
{
    need_gpus(2);
    for (int k = 0; k < KERNEL_COUNT; k++) {
        char args[128];
        snprintf(args, sizeof args, "--partition 1x2 --kernel %s",
                 kernel_variant_names[k]);
        check_gpu_equals_serial("double", args);
        snprintf(args, sizeof args, "--partition 2x1 --kernel %s --no-p2p",
                 kernel_variant_names[k]);
        check_gpu_equals_serial("float", args);
    }
}

Test(gpu, device_reduction_equals_serial)
{
    need_gpus(1);
    check_gpu_equals_serial("double", "--partition 1x1 --reduce device");
    check_gpu_equals_serial("float", "--partition 1x1 --reduce device --block 3x5");
    if (p2p_device_count() >= 2)
        check_gpu_equals_serial("double", "--partition 2x1 --reduce device");
}

Test(gpu, missing_device_is_a_usage_error)
{
    need_gpus(1);
    struct run r = laplace_run(PROBLEM " --backend gpu --partition 1x1 --devices %d",
                               p2p_device_count());
    cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
    cr_assert_eq(count_lines(r.err), 1, "one line: %s", r.err);
    cr_assert(strstr(r.err, "--devices"), "names the option: %s", r.err);
    run_free(&r);
}

Test(gpu, too_many_tiles_for_the_gpus_is_a_usage_error)
{
    need_gpus(1);
    int n = p2p_device_count();
    struct run r = laplace_run(PROBLEM " --backend gpu --partition %dx1", n + 1);
    cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
    cr_assert_eq(count_lines(r.err), 1, "one line: %s", r.err);
    cr_assert(strstr(r.err, "--partition"), "names the option: %s", r.err);
    run_free(&r);
}

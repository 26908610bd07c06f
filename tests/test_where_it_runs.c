/*
 * test_where_it_runs.c - a run says where it runs (issue 26, item 1): without a
 * visible GPU, --backend auto runs on the host tiles and says so in one line on
 * stderr, with the reason; the options only a GPU reads are refused there (status
 * 2, one line) rather than ignored, while the options the host tiles also read
 * (--block, their partial-sum block; --loop; --compare) still run.
 * On a machine with a GPU these report themselves skipped.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "helpers.h"
#include "p2p.h"

#define PROBLEM "--nx 37 --ny 23 --top 1 --left 0.3 --right -0.7 --bottom 2.5"

static void require_no_gpu(void)
{
    if (p2p_device_count() > 0)
        cr_skip_test("this machine has a GPU: auto runs there");
}

TestSuite(where_it_runs, .init = require_laplace);

Test(where_it_runs, auto_without_a_gpu_says_in_one_line_that_host_tiles_run_and_why)
{
    require_no_gpu();
    char why[128];
    p2p_none_reason(why, sizeof why);
    const char *ways[] = {PROBLEM, PROBLEM " --csv", PROBLEM " --dry-run",
                          PROBLEM " --backend auto --partition 2x1"};
    for (size_t i = 0; i < sizeof ways / sizeof *ways; i++) {
        struct run r = laplace_run("%s", ways[i]);
        cr_assert_eq(r.status, 0, "%s: status %d: %s", ways[i], r.status, r.err);
        cr_assert_eq(count_lines(r.err), 1, "%s: one line on stderr:\n%s", ways[i],
                     r.err);
        cr_assert(strstr(r.err, "laplace: no GPU (") && strstr(r.err, why) &&
                      strstr(r.err, "runs on ") && strstr(r.err, "host tile"),
                  "%s: names the host tiles and why (%s): %s", ways[i], why, r.err);
        run_free(&r);
    }
    struct run two = laplace_run(PROBLEM " --partition 2x1");
    cr_assert(strstr(two.err, "runs on 2 host tiles"), "the tiles counted: %s", two.err);
    run_free(&two);
}

Test(where_it_runs, a_chosen_host_backend_or_quiet_says_nothing_on_stderr)
{
    require_no_gpu();
    const char *ways[] = {PROBLEM " --backend cpu", PROBLEM " --backend serial",
                          PROBLEM " -q", PROBLEM " --print-config"};
    for (size_t i = 0; i < sizeof ways / sizeof *ways; i++) {
        struct run r = laplace_run("%s", ways[i]);
        cr_assert_eq(r.status, 0, "%s: status %d: %s", ways[i], r.status, r.err);
        cr_assert_str_eq(r.err, "", "%s: nothing on stderr", ways[i]);
        run_free(&r);
    }
}

Test(where_it_runs, gpu_only_options_without_a_gpu_are_refused_with_status_2)
{
    require_no_gpu();
    const char *refused[][2] = {
        {"--devices 0", "--devices"},
        {"--partition 2x1 --devices 0,1", "--devices"},
        {"--kernel rows", "--kernel"},
        {"--kernel global --block 8x8", "--kernel"},
        {"--reduce device", "--reduce device"},
        {"--no-p2p", "--no-p2p"},
        {"--compare --devices 0", "--devices"},
    };
    char why[128];
    p2p_none_reason(why, sizeof why);
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        struct run r = laplace_run(PROBLEM " %s", refused[i][0]);
        check_refused(&r, 2, refused[i][1]);
        cr_assert(strstr(r.err, why) && strstr(r.err, "host tiles"),
                  "%s: says why no GPU runs (%s): %s", refused[i][0], why, r.err);
        run_free(&r);
    }
}

Test(where_it_runs, options_the_host_tiles_read_still_run_without_a_gpu)
{
    require_no_gpu();
    const char *kept[] = {"--block 16x8",  "--loop batched",
                          "--loop host",   "--compare --partition 2x1",
                          "--reduce host", "--kernel auto --block auto"};
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
        struct run r = laplace_run(PROBLEM " %s --csv", kept[i]);
        cr_assert_eq(r.status, 0, "%s: status %d: %s", kept[i], r.status, r.err);
        cr_assert(strncmp(nth_line(r.out, 1), "cpu,", 4) == 0, "%s: ran on the CPU: %s",
                  kept[i], r.out);
        run_free(&r);
    }
}

Test(where_it_runs, gpu_backend_without_a_gpu_gives_the_same_reason)
{
    require_no_gpu();
    char why[128];
    p2p_none_reason(why, sizeof why);
    struct run r = laplace_run(PROBLEM " --backend gpu");
    check_refused(&r, 1, why);
    run_free(&r);
}

/*
 * test_gpu_suite_parts.c - the GPU suite's listing and parts, on the CPU: with
 * GPU_SUITE_LIST=1 tests/gpu_suite.sh lists the checks it would make (on a machine of
 * GPU_SUITE_GPUS GPUs) and runs none, so that GPU_SUITE_PART=K/N can be shown here to
 * split the whole suite into N parts that together make it, each check in one.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* The suite's listing on `gpus` GPUs, part `part` ("K/N", or NULL: the whole); its
 * exit status into *status. */
static char *listing(int gpus, const char *part, int *status)
{
    char dir[1024], command[2400];
    fresh_out_dir(dir, sizeof dir, "gpu-suite-list");
    snprintf(command, sizeof command,
             "GPU_SUITE_LIST=1 GPU_SUITE_GPUS=%d %s%s GPU_SUITE_OUT='%s' "
             "bash tests/gpu_suite.sh ./laplace",
             gpus, part ? "GPU_SUITE_PART=" : "", part ? part : "", dir);
    return shell_run(command, status);
}

/* The number of the check on each "would run N ..." line of text, in order, into
 * numbers (at most most); returns how many. */
static int numbers_of(const char *text, int *numbers, int most)
{
    int count = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        int n;
        if (sscanf(line, "would run %d ", &n) == 1) {
            cr_assert_lt(count, most, "more than %d checks listed", most);
            numbers[count++] = n;
        }
    }
    return count;
}

#define CHECKS_MOST 4000

Test(gpu_suite, the_listing_runs_nothing_and_counts_every_check, .init = require_laplace)
{
    int status;
    char *text = listing(8, NULL, &status);
    static int numbers[CHECKS_MOST];
    const int count = numbers_of(text, numbers, CHECKS_MOST);
    cr_expect_eq(status, 0, "status %d: %s", status, text);
    cr_expect_gt(count, 500, "%d checks listed on 8 GPUs", count);
    for (int i = 0; i < count; i++)
        cr_expect_eq(numbers[i], i + 1, "check %d listed as %d", i + 1, numbers[i]);
    char tail[64];
    snprintf(tail, sizeof tail, "gpu suite: %d checks listed (8 GPUs)", count);
    cr_expect(strstr(text, tail) != NULL, "no '%s' in the listing", tail);
    cr_expect(strstr(text, "would run") && strstr(text, "across") &&
                  strstr(text, "--loop chip"),
              "the strips over several GPUs' checks are listed");
    free(text);
}

Test(gpu_suite, parts_together_make_the_whole_suite_each_check_once,
     .init = require_laplace)
{
    int status;
    static int whole[CHECKS_MOST], part[3][CHECKS_MOST];
    char *text = listing(2, NULL, &status);
    const int count = numbers_of(text, whole, CHECKS_MOST);
    free(text);
    cr_assert_eq(status, 0);
    int counts[3], seen = 0;
    for (int k = 0; k < 3; k++) {
        char name[8];
        snprintf(name, sizeof name, "%d/3", k + 1);
        text = listing(2, name, &status);
        counts[k] = numbers_of(text, part[k], CHECKS_MOST);
        free(text);
        cr_assert_eq(status, 0, "part %s: status %d", name, status);
        cr_expect_gt(counts[k], count / 3 - 2, "part %s: %d checks", name, counts[k]);
        for (int i = 0; i < counts[k]; i++)
            cr_expect_eq((part[k][i] - 1) % 3, k, "part %s lists check %d", name,
                         part[k][i]);
        seen += counts[k];
    }
    cr_expect_eq(seen, count, "the parts list %d checks, the whole suite %d", seen,
                 count);
    for (int i = 0; i < count; i++)
        cr_expect_eq(part[i % 3][i / 3], i + 1, "check %d in part %d", i + 1, i % 3 + 1);
}

Test(gpu_suite, a_part_that_does_not_exist_is_refused, .init = require_laplace)
{
    const char *bad[] = {"0/3", "4/3", "1/0", "x", "2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int status;
        char *text = listing(2, bad[i], &status);
        cr_expect(status == 2 && strstr(text, "give K/N, 1 <= K <= N") &&
                      !strstr(text, "would run"),
                  "GPU_SUITE_PART=%s: status %d, '%s'", bad[i], status, text);
        free(text);
    }
}

/*
 * test_breakdown.c - the report's breakdown lines (LAPLACE_TUNE=breakdown=1): one a
 * tile whose passes were timed, in µs an iteration, the rest being the run's compute
 * time less the passes and the steps between them; one line when none was timed;
 * nothing when not asked or not on GPUs. The GPU suite checks them on real passes.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "run/report.h"

/* What report_breakdown prints for the run, as a string (malloc'd). */
static char *breakdown_of(const struct run_report *r)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    cr_assert_not_null(out);
    report_breakdown(out, r);
    cr_assert_eq(fclose(out), 0);
    return text;
}

/* A GPU run of 4000 iterations in 0.1 s (25 us each), breakdown asked. */
static struct run_report gpu_run(struct plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->config.tune = tuning_auto();
    plan->config.tune.breakdown = 1;
    struct run_report r = {.plan = plan, .backend = "gpu"};
    solve_result_start(&r.result);
    r.result.iterations = 4000;
    r.result.time_compute_s = 0.1;
    return r;
}

Test(breakdown, a_line_for_each_tile_timed_the_rest_what_is_left)
{
    struct plan plan;
    struct run_report r = gpu_run(&plan);
    r.result.breakdown[0] = (struct pass_breakdown){.device = 0,
                                                    .iterations = 3600,
                                                    .pass_s = 3600 * 20e-6,
                                                    .between_s = 3600 * 3e-6};
    r.result.breakdown[1] = (struct pass_breakdown){.device = 1,
                                                    .iterations = 3600,
                                                    .pass_s = 3600 * 18e-6,
                                                    .between_s = 3600 * 5e-6};
    char *text = breakdown_of(&r);
    cr_expect_str_eq(text,
                     "  breakdown     tile 0 on GPU 0: passes 20.00 us an iteration, "
                     "between them 3.00, the rest 2.00 (of 25.00; CUDA events in 3600 "
                     "of 4000 iterations)\n"
                     "  breakdown     tile 1 on GPU 1: passes 18.00 us an iteration, "
                     "between them 5.00, the rest 2.00 (of 25.00; CUDA events in 3600 "
                     "of 4000 iterations)\n");
    free(text);
}

Test(breakdown, says_so_when_no_pass_was_timed)
{
    struct plan plan;
    struct run_report r = gpu_run(&plan);
    char *text = breakdown_of(&r);
    cr_expect(
        strstr(text, "  breakdown     none measured: only batches of passes of two") ==
            text,
        "%s", text);
    cr_expect_eq(strchr(text, '\n'), text + strlen(text) - 1, "one line: %s", text);
    free(text);
}

Test(breakdown, says_when_it_shows_the_first_tiles_only)
{
    struct plan plan;
    struct run_report r = gpu_run(&plan);
    plan.config.partition_x = 1;
    plan.config.partition_y = BREAKDOWN_TILES + 4;
    for (int t = 0; t < BREAKDOWN_TILES; t++)
        r.result.breakdown[t] = (struct pass_breakdown){.iterations = 8, .pass_s = 1e-4};
    char *text = breakdown_of(&r);
    char want[64];
    snprintf(want, sizeof want, "  breakdown     (the first %d of the %d tiles)\n",
             BREAKDOWN_TILES, BREAKDOWN_TILES + 4);
    cr_expect(strstr(text, want) && strstr(text, want)[strlen(want)] == '\0', "%s", text);
    free(text);
}

Test(breakdown, nothing_when_not_asked_or_not_on_gpus)
{
    struct plan plan;
    struct run_report r = gpu_run(&plan);
    r.result.breakdown[0] = (struct pass_breakdown){.iterations = 8, .pass_s = 1e-4};
    plan.config.tune.breakdown = TUNING_AUTO;
    char *text = breakdown_of(&r);
    cr_expect_str_eq(text, "", "not asked");
    free(text);
    plan.config.tune.breakdown = 1;
    r.backend = "cpu";
    text = breakdown_of(&r);
    cr_expect_str_eq(text, "", "host tiles");
    free(text);
}

/*
 * test_progress.c - the live progress line (progress.h): the iterations left
 * to eps from the decay rate, and what the line shows for a norm that decays
 * geometrically (whose answer is known exactly).
 */
#include <math.h>

#include "helpers.h"
#include "watch/progress.h"

Test(progress, iterations_left_follow_the_decay_rate)
{
    /* norm 1e-2, eps 1e-6, a factor 10 every 100 iterations: 400 left */
    cr_assert_eq(progress_iterations_left(1e-2, 1e-6, log(0.1) / 100.0), 400);
    /* a factor 2 per iteration from 1 to 1/1024: 10 left */
    cr_assert_eq(progress_iterations_left(1.0, 1.0 / 1024.0, log(0.5)), 10);
    /* part of an iteration counts as one */
    cr_assert_eq(progress_iterations_left(1.0, 0.3, log(0.5)), 2);
}

Test(progress, no_estimate_without_decay_and_none_needed_at_eps)
{
    cr_assert_eq(progress_iterations_left(1e-3, 1e-6, 0.0), -1, "flat norm");
    cr_assert_eq(progress_iterations_left(1e-3, 1e-6, 0.01), -1, "growing norm");
    cr_assert_eq(progress_iterations_left(1e-3, 1e-6, NAN), -1, "no rate");
    cr_assert_eq(progress_iterations_left(1e-3, 0.0, -0.1), -1, "eps 0: never");
    cr_assert_eq(progress_iterations_left(1e-7, 1e-6, -0.1), 0, "below eps");
    cr_assert_eq(progress_iterations_left(1.0, 1e-300, -1e-300), -1, "beyond any run");
}

/* Feeds norms 1e100 * 0.9^k at 1 ms per iteration for 2 s; returns what was written. */
static char *line_of_decay(void)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    struct progress p;
    progress_start(&p, out, 1e-300, NULL);
    for (long k = 1; k <= 2000; k++)
        progress_add(&p, k, 1e100 * pow(0.9, (double)k), (double)k * 1e-3);
    progress_end(&p);
    fclose(out);
    char *copy = strdup(text); /* not the stream's own buffer, which gcc cannot follow */
    free(text);
    return copy;
}

Test(progress, the_line_shows_iteration_norm_and_the_estimate)
{
    char *text = line_of_decay();
    cr_assert(strstr(text, "\r  iteration "), "no line drawn: '%s'", text);
    cr_assert(strstr(text, "more to eps"), "no estimate: '%s'", text);
    cr_assert(strstr(text, "ETA"), "no ETA: '%s'", text);
    /* the last line: from 1e100 * 0.9^K to 1e-300 takes 400 ln 10 / -ln 0.9 - K */
    const char *line = NULL;
    for (const char *p = strstr(text, "\r  iteration "); p;
         p = strstr(p + 1, "\r  iteration "))
        if (strstr(p + 1, "more to eps"))
            line = p;
    cr_assert_not_null(line);
    long k = 0, left = 0;
    cr_assert_eq(sscanf(strstr(line, "iteration "), "iteration %ld", &k), 1);
    cr_assert_eq(sscanf(strstr(line, "~"), "~%ld", &left), 1);
    long want = (long)ceil(400.0 * log(10.0) / -log(0.9) - (double)k);
    cr_assert(labs(left - want) <= 1, "at %ld: %ld left, want %ld", k, left, want);
    size_t n = strlen(text);
    cr_assert(n >= 4 && strcmp(text + n - 4, "\r\033[K") == 0,
              "progress_end does not clear the line");
    free(text);
}

Test(progress, redrawn_a_few_times_a_second_not_every_norm)
{
    char *text = line_of_decay();
    int draws = 0;
    for (const char *p = text; (p = strstr(p, "\r  iteration ")); p++)
        draws++;
    /* 2 s of norms, one every millisecond: at most 4 redraws a second */
    cr_assert(draws >= 4 && draws <= 9, "%d redraws in 2 s", draws);
    free(text);
}

/* Norms that fall fast (0.9 an iteration) for 1.2 s, then slowly (0.99), at 1 ms an
 * iteration, for 4 s in all; returns what was written. */
static char *line_of_two_rates(void)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    struct progress p;
    double log_norm = 0.0;
    progress_start(&p, out, 1e-300, NULL);
    for (long k = 1; k <= 4000; k++) {
        log_norm += log(k <= 1200 ? 0.9 : 0.99);
        progress_add(&p, k, exp(log_norm), (double)k * 1e-3);
    }
    progress_end(&p);
    fclose(out);
    char *copy = strdup(text);
    free(text);
    return copy;
}

/* The counts of iterations left on each line drawn, in order (-1: "ETA unknown"). */
static int counts_of(const char *text, long *counts, long *iterations, int most)
{
    int n = 0;
    for (const char *p = strstr(text, "\r  iteration "); p && n < most;
         p = strstr(p + 1, "\r  iteration ")) {
        char line[512] = "";
        sscanf(p + 1, "%511[^\r]", line);
        const char *tilde = strchr(line, '~');
        cr_assert_eq(sscanf(line, "  iteration %ld", &iterations[n]), 1, "%s", line);
        counts[n] = -1;
        if (tilde)
            cr_assert_eq(sscanf(tilde, "~%ld", &counts[n]), 1, "%s", line);
        else
            cr_assert(strstr(line, "ETA unknown"), "%s", line);
        n++;
    }
    return n;
}

/* Issue 26, item 2, and issue 44, item 3: without an estimate the ETA is "unknown"
 * until the decay is steady, never a number from the fast start; once a count is
 * shown it is never "unknown" again, and it grows by half at most a redraw (the
 * change of rate moves it towards the slow rate's count, damped). */
Test(progress, eta_is_unknown_until_steady_then_damped_and_never_unknown_again)
{
    char *text = line_of_two_rates();
    long counts[64], iterations[64];
    int n = counts_of(text, counts, iterations, 64), first = -1;
    cr_assert_gt(n, 8, "%s", text);
    cr_assert_eq(counts[0], -1, "the first lines know no ETA: '%s'", text);
    for (int k = 0; k < n; k++) {
        if (counts[k] >= 0 && first < 0)
            first = k;
        if (first >= 0)
            cr_assert_geq(counts[k], 0, "unknown again at %ld: '%s'", iterations[k],
                          text);
        if (first >= 0 && k > first)
            cr_assert_leq(counts[k], 1.5 * counts[k - 1] + 100, "a leap at %ld: '%s'",
                          iterations[k], text);
    }
    cr_assert_geq(first, 0, "the slow rate is steady at last: '%s'", text);
    /* at the end, near the slow rate's count */
    long k = iterations[n - 1];
    double log_norm = 1200 * log(0.9) + (k - 1200) * log(0.99);
    double want = (log(1e-300) - log_norm) / log(0.99);
    cr_assert(fabs(counts[n - 1] - want) <= 0.1 * want, "at %ld: %ld left, want %.0f", k,
              counts[n - 1], want);
    free(text);
}

/* Issue 44, item 3: with the run's estimate (where float stagnates: norm 1e-5 after
 * 1146 iterations at 0.99 an iteration), the line counts to it from its first draw,
 * never "unknown", and the measured decay, the same here, keeps the count. */
Test(progress, counts_to_where_it_stagnates_from_the_first_line)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    struct progress p;
    progress_start(&p, out, 1e-10, NULL);
    progress_expect(&p, 1146, 1e-5, "where float stagnates");
    for (long k = 1; k <= 1100; k++)
        progress_add(&p, k, pow(0.99, (double)k), (double)k * 3e-3);
    progress_end(&p);
    fclose(out);
    long counts[64], iterations[64];
    int n = counts_of(text, counts, iterations, 64);
    cr_assert_gt(n, 3, "%s", text);
    for (int k = 0; k < n; k++) {
        cr_assert_geq(counts[k], 0, "unknown at %ld: '%s'", iterations[k], text);
        cr_assert(labs(counts[k] - (1146 - iterations[k])) <= 3, "at %ld: %ld left",
                  iterations[k], counts[k]);
    }
    cr_assert(strstr(text, "more to where float stagnates, ETA about "), "%s", text);
    free(text);
}

Test(progress, a_rate_is_steady_within_ten_percent_of_the_last_window)
{
    cr_assert(progress_rate_is_steady(-0.01, -0.0105));
    cr_assert(!progress_rate_is_steady(-0.01, -0.1), "fast then slow");
    cr_assert(!progress_rate_is_steady(-0.01, NAN), "no window yet");
    cr_assert(!progress_rate_is_steady(0.01, 0.01), "growing");
}

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

/* Issue 26, item 2: the ETA follows the measured decay and is "unknown" until that
 * decay is steady, never a number from the fast start. */
Test(progress, eta_is_unknown_until_the_decay_rate_is_steady)
{
    char *text = line_of_two_rates();
    const char *first = strstr(text, "\r  iteration ");
    cr_assert_not_null(first, "no line drawn");
    cr_assert(strstr(first, "ETA unknown") < strstr(first, "more to eps") ||
                  !strstr(first, "more to eps"),
              "the first lines know no ETA: '%s'", text);
    /* every line with a count of iterations left counts at the slow rate, or at the
     * fast one before the change; none mixes both */
    int unknown_after_change = 0;
    for (const char *p = first; p; p = strstr(p + 1, "\r  iteration ")) {
        long k = 0, left = 0;
        cr_assert_eq(sscanf(p, "\r  iteration %ld", &k), 1);
        const char *tilde = strchr(p + 1, '~'), *next = strstr(p + 1, "\r  iteration ");
        const char *unknown = strstr(p, "ETA unknown");
        if (k > 1200 && k < 2200 && unknown && (!next || unknown < next))
            unknown_after_change++;
        if (!tilde || (next && tilde > next))
            continue;
        cr_assert_eq(sscanf(tilde, "~%ld", &left), 1);
        double log_norm =
            k <= 1200 ? k * log(0.9) : 1200 * log(0.9) + (k - 1200) * log(0.99);
        double rate = k <= 1200 ? log(0.9) : log(0.99);
        long want = (long)ceil((log(1e-300) - log_norm) / rate);
        cr_assert(labs(left - want) <= 1, "at %ld: %ld left, want %ld", k, left, want);
    }
    cr_assert(unknown_after_change > 0, "the change of rate is not hidden: '%s'", text);
    cr_assert(strstr(text, "more to eps"), "the slow rate is steady at last: '%s'", text);
    free(text);
}

Test(progress, a_rate_is_steady_within_ten_percent_of_the_last_window)
{
    cr_assert(progress_rate_is_steady(-0.01, -0.0105));
    cr_assert(!progress_rate_is_steady(-0.01, -0.1), "fast then slow");
    cr_assert(!progress_rate_is_steady(-0.01, NAN), "no window yet");
    cr_assert(!progress_rate_is_steady(0.01, 0.01), "growing");
}

/*
 * duration.c - seconds written as a duration (duration.h).
 */
#include "support/duration.h"

#include <math.h>
#include <stdio.h>

const char *duration_text(double seconds, char *buf, size_t n)
{
    if (!isfinite(seconds) || seconds < 0.0) {
        snprintf(buf, n, "unknown");
    } else if (seconds < 10.0) {
        snprintf(buf, n, "about %.2g s", seconds);
    } else if (seconds < 60.0) {
        snprintf(buf, n, "about %.0f s", seconds);
    } else if (seconds < 600.0) {
        long tens = lround(seconds / 10.0); /* to 10 s */
        if (tens % 6 == 0)
            snprintf(buf, n, "about %ld min", tens / 6);
        else
            snprintf(buf, n, "about %ld min %ld s", tens / 6, tens % 6 * 10);
    } else if (seconds < 7200.0) {
        snprintf(buf, n, "about %ld min", lround(seconds / 60.0));
    } else if (seconds < 2.0 * 86400.0) {
        long minutes = lround(seconds / 600.0) * 10; /* to 10 min */
        if (minutes % 60 == 0)
            snprintf(buf, n, "about %ld h", minutes / 60);
        else
            snprintf(buf, n, "about %ld h %ld min", minutes / 60, minutes % 60);
    } else {
        snprintf(buf, n, "about %.1f days", seconds / 86400.0);
    }
    return buf;
}

const char *duration_short_text(double seconds, char *buf, size_t n)
{
    if (seconds < 1e-3)
        snprintf(buf, n, "%.3g us", seconds * 1e6);
    else if (seconds < 1.0)
        snprintf(buf, n, "%.3g ms", seconds * 1e3);
    else
        snprintf(buf, n, "%.3g s", seconds);
    return buf;
}

/*
 * say.c - a refusal or a failure said on stderr by rank 0 (say.h).
 */
#include "run/say.h"

#include <stdio.h>
#include <string.h>

#include "mpi/ranks.h"
#include "settings/config.h"
#include "support/error.h"

/* A refusal is one line: a control byte (a tab, a newline) or a byte that is not
 * UTF-8 in it can only come from what the user typed (an option's value, an INI
 * file's key or value, a variable), which the setters echo as they got it; here
 * each is written as \t, \n, \xNN (error_quote), whichever path refused. */
int say_usage_error(const char *message)
{
    char shown[4 * CONFIG_ERROR_MAX]; /* every byte escaped at most 4 times as long */
    if (ranks_rank() == 0)
        fprintf(stderr, "laplace: %s\n", error_quote(message, shown, sizeof shown));
    return EXIT_BAD_USAGE;
}

int say_run_error(const char *message)
{
    for (const char *line = ranks_rank() == 0 ? message : NULL; line;) {
        const char *end = strchr(line, '\n');
        int length = end ? (int)(end - line) : (int)strlen(line);
        fprintf(stderr, "laplace: %.*s\n", length, line);
        line = end ? end + 1 : NULL;
    }
    return EXIT_FAILURE_RUN;
}

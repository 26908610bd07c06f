/*
 * say.c - a refusal or a failure said on stderr by rank 0 (say.h).
 */
#include "say.h"

#include <stdio.h>
#include <string.h>

#include "mpi/ranks.h"
#include "support/error.h"

int say_usage_error(const char *message)
{
    if (ranks_rank() == 0)
        fprintf(stderr, "laplace: %s\n", message);
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

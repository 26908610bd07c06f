/*
 * bench_env.c - the bench's variables (bench_env.h), each checked where it is read.
 */
#include "bench_env.h"
#include "bench_state.h"

#include <stdlib.h>
#include <string.h>

#include "settings/config.h"
#include "support/error.h"

/* The longest LAPLACE_BENCH_DIR: CONFIG_PATH_MAX less room for the names. */
enum { BENCH_ENV_DIR_MAX = CONFIG_PATH_MAX - 256 };

/* The variable's value, or NULL when it is unset or empty (as the other LAPLACE_*
 * variables take an empty value). */
static const char *set(const char *variable)
{
    const char *value = getenv(variable);
    return value && *value ? value : NULL;
}

/* The variable's value refused: EXIT_BAD_USAGE with one line in err. */
static int refused(const char *variable, const char *value, const char *expected,
                   char *err, size_t n)
{
    char shown[256]; /* the value as the message echoes it, on one line */
    return error_status(EXIT_BAD_USAGE, err, n, "%s='%s': expected %s", variable,
                        error_quote(value, shown, sizeof shown), expected);
}

static int read_parts(int *parts, char *err, size_t n)
{
    const char *only = set("LAPLACE_BENCH_ONLY");
    if (!only)
        *parts = BENCH_PART_MATRIX | BENCH_PART_SWEEP;
    else if (strcmp(only, "matrix") == 0)
        *parts = BENCH_PART_MATRIX;
    else if (strcmp(only, "sweep") == 0)
        *parts = BENCH_PART_SWEEP;
    else
        return refused("LAPLACE_BENCH_ONLY", only,
                       "a part of the bench, matrix or sweep (unset for both)", err, n);
    return EXIT_OK;
}

static int read_quick(int *quick, char *err, size_t n)
{
    const char *value = set("LAPLACE_BENCH_QUICK");
    *quick = value && strcmp(value, "1") == 0;
    if (value && !*quick && strcmp(value, "0") != 0)
        return refused("LAPLACE_BENCH_QUICK", value, "1 (quick) or 0 (unset: 0)", err, n);
    return EXIT_OK;
}

/* DIR leaves room in a path for the CSVs' names (bench-GPU-DATE-N-sweep.csv), which
 * would otherwise be cut short and written elsewhere. */
static int read_dir(const char **dir, char *err, size_t n)
{
    const char *value = set("LAPLACE_BENCH_DIR");
    *dir = value ? value : "results";
    if (value && strlen(value) > BENCH_ENV_DIR_MAX)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "LAPLACE_BENCH_DIR: a folder name of %zu characters "
                            "leaves no room for the CSVs' names (at most %d)",
                            strlen(value), BENCH_ENV_DIR_MAX);
    return EXIT_OK;
}

int bench_env_read(struct bench_env *e, char *err, size_t n)
{
    int status = read_parts(&e->parts, err, n);
    if (status == EXIT_OK)
        status = read_quick(&e->quick, err, n);
    if (status == EXIT_OK)
        status = read_dir(&e->dir, err, n);
    return status;
}

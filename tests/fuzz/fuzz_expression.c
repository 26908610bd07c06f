/*
 * fuzz_expression.c - libFuzzer target of the expression layer (libmatheval
 * behind expression.c).
 *
 * Feeds: the input as text (a NUL byte ends it) to expression_parse; when it
 * parses, expression_eval at a few points (the corners and the middle of the
 * unit square, negative and large coordinates), then expression_free. Also
 * expression_is_number on the same text.
 *
 * Checks: no crash, leak or undefined behaviour in our code or libmatheval
 * (ASan sees its heap; its code is not instrumented, so coverage guides the
 * fuzzer through expression.c only and the dictionary does the rest); nothing
 * is written to stdout (libmatheval's scanner echoes bytes it does not know; it
 * would garble --csv output); a refusal returns no expression and says why; a
 * plain number is finite.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "problem/expression.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int condition, const char *what)
{
    if (condition)
        return;
    fprintf(stderr, "fuzz: invariant broken: %s\n", what);
    abort();
}

/* stdout goes to an in-memory file, which must stay empty (libFuzzer itself
 * prints to stderr). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    int fd = memfd_create("fuzz_expression_stdout", 0);
    require(fd >= 0 && dup2(fd, STDOUT_FILENO) >= 0, "stdout to memory");
    close(fd);
    return 0;
}

static void require_stdout_empty(void)
{
    struct stat info;
    fflush(stdout);
    require(fstat(STDOUT_FILENO, &info) == 0 && info.st_size == 0,
            "nothing is written to stdout");
}

static const double points[][2] = {
    {0, 0}, {1, 0}, {0, 1}, {1, 1}, {0.5, 0.25}, {-1, -2}, {1e300, -1e-300},
};

/* Evaluates at every point; the sum keeps the calls from being optimised away. */
static double evaluate(const struct expression *e)
{
    double sum = 0;
    for (size_t k = 0; k < sizeof points / sizeof points[0]; k++)
        sum += expression_eval(e, points[k][0], points[k][1]);
    return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), why[512] = "";
    struct expression *e = NULL;
    double number;
    require(text != NULL, "malloc works");
    memcpy(text, data, size);
    text[size] = '\0';
    if (expression_is_number(text, &number))
        require(isfinite(number), "a plain number is finite");
    if (expression_parse(text, &e, why, sizeof why) == 0) {
        require(e != NULL, "a parsed expression is returned");
        volatile double sum = evaluate(e);
        (void)sum;
        expression_free(e);
    } else {
        require(e == NULL, "a refused expression returns NULL");
        require(why[0] != '\0', "a refusal says why");
    }
    require_stdout_empty();
    free(text);
    return 0;
}

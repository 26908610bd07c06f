/*
 * expression.c - formulas in x and y, parsed and evaluated by libmatheval.
 */
#include "expression.h"

#include <errno.h>
#include <math.h>
#include <matheval.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expression {
    void *evaluator; /* libmatheval's */
};

/* libmatheval's flex scanner calls yywrap() at the end of its input; the static
 * library leaves it to the program (libfl has one, but also a main()). 1: there
 * is no more input. */
int yywrap(void);
int yywrap(void)
{
    return 1;
}

/* libmatheval's flex scanner writes every byte it does not know to yyout (flex's
 * default rule; stdout unless set), parse error or not: "x$y" printed "$" on
 * stdout, "[x]" parsed as x (found by tests/fuzz/fuzz_expression.c). */
extern FILE *yyout;

/* evaluator_create with the scanner's echo caught in memory: NULL when the text
 * does not parse or has a byte the scanner does not know (then *unknown). */
static void *create_evaluator(char *text, int *unknown)
{
    char *echo = NULL;
    size_t size = 0;
    FILE *sink = open_memstream(&echo, &size);
    *unknown = -1;
    if (!sink)
        return NULL;
    yyout = sink;
    void *f = evaluator_create(text);
    yyout = stdout;
    fclose(sink);
    if (size > 0) {
        *unknown = (unsigned char)echo[0];
        if (f)
            evaluator_destroy(f);
        f = NULL;
    }
    free(echo);
    return f;
}

int expression_parse(const char *text, struct expression **out, char *why, size_t n)
{
    int unknown;
    char copy[1024];
    *out = NULL;
    if (strlen(text) >= sizeof copy)
        return snprintf(why, n, "expression longer than %zu characters", sizeof copy - 1),
               -1;
    strcpy(copy, text); /* libmatheval takes a non-const string */
    void *f = create_evaluator(copy, &unknown);
    if (!f && unknown > ' ' && unknown < 127)
        return snprintf(why, n, "unexpected character '%c' in '%s'", unknown, text), -1;
    if (!f && unknown >= 0)
        return snprintf(why, n, "unexpected byte 0x%02x in a formula", unknown), -1;
    if (!f)
        return snprintf(why, n, "cannot parse '%s' as a number or a formula in x and y",
                        text),
               -1;
    char **names;
    int count;
    evaluator_get_variables(f, &names, &count);
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], "x") != 0 && strcmp(names[i], "y") != 0) {
            snprintf(why, n, "unknown variable '%s' in '%s' (only x and y)", names[i],
                     text);
            evaluator_destroy(f);
            return -1;
        }
    *out = malloc(sizeof **out);
    if (!*out) {
        evaluator_destroy(f);
        return snprintf(why, n, "out of memory"), -1;
    }
    (*out)->evaluator = f;
    return 0;
}

double expression_eval(const struct expression *e, double x, double y)
{
    char *names[] = {"x", "y"};
    double values[] = {x, y};
    return evaluator_evaluate(e->evaluator, 2, names, values);
}

int expression_is_number(const char *text, double *value)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (*text == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v))
        return 0;
    *value = v;
    return 1;
}

void expression_free(struct expression *e)
{
    if (!e)
        return;
    evaluator_destroy(e->evaluator);
    free(e);
}

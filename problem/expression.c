/*
 * expression.c - formulas in x and y, parsed and evaluated by libmatheval.
 *
 * Only the characters of libmatheval's grammar reach it: its flex scanner copies
 * any other character to stdout and goes on without it, so that top = "1" would
 * read as 1 and print "" into the report or the CSV row. Nor do two operands side
 * by side ("2x", "x y", "(x)(y)"): its parser refuses them but leaks what it built,
 * which fails a run under LeakSanitizer, and "write 2*x" is the clearer answer.
 */
#include "problem/expression.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <matheval.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/error.h"

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

/* The offset of the first character outside the grammar (numbers, names,
 * + - * / ^, parentheses, blanks), or -1. */
static long expression_stray_character(const char *text)
{
    static const char allowed[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789_. \t+-*/^()";
    size_t good = strspn(text, allowed);
    return text[good] ? (long)good : -1;
}

/* The end of the number that starts at p: digits, a point, digits, an exponent. */
static const char *number_end(const char *p)
{
    static const char digits[] = "0123456789";
    p += strspn(p, digits);
    if (*p == '.')
        p += 1 + strspn(p + 1, digits);
    if (*p != 'e' && *p != 'E')
        return p;
    const char *exponent = p + 1 + (p[1] == '+' || p[1] == '-');
    return isdigit((unsigned char)*exponent) ? exponent + strspn(exponent, digits) : p;
}

/* The offset of an operand that follows another with no operator between them
 * ("2x", "x y", "(x)(y)"; a name before '(' is a function), or -1. */
static long expression_missing_operator(const char *text)
{
    int after_operand = 0, after_name = 0;
    for (const char *p = text; *p;) {
        int name = isalpha((unsigned char)*p) || *p == '_';
        int starts_operand = name || isdigit((unsigned char)*p) || *p == '.' || *p == '(';
        if (starts_operand && after_operand && !(after_name && *p == '('))
            return (long)(p - text);
        if (*p == ' ' || *p == '\t') {
            p++;
            continue;
        }
        after_operand = starts_operand ? *p != '(' : *p == ')';
        after_name = name;
        if (name)
            p += strspn(
                p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        else if (*p != '(' && starts_operand)
            p = number_end(p);
        else
            p++;
    }
    return -1;
}

/* libmatheval's flex scanner writes every byte it does not know to yyout (flex's
 * default rule; stdout unless set), and goes on: "s*." printed "." on stdout (found
 * by tests/fuzz/fuzz_expression.c after the checks above were in place). */
extern FILE *yyout;

/* evaluator_create with the scanner's echo caught in memory: NULL when the text
 * does not parse, or when the scanner met a byte it does not know (*unknown). */
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

/* Refuses (-1, why) what is outside the grammar before libmatheval sees it: a
 * character no formula has, or two operands with no operator between them. */
static int check_grammar(const char *text, char *err, size_t n)
{
    long stray = expression_stray_character(text), missing;
    if (stray >= 0 && (unsigned char)text[stray] >= 0x20 &&
        (unsigned char)text[stray] < 0x7f)
        return error_set(
            err, n,
            "'%c' at column %ld of '%s' cannot be part of a formula (numbers, "
            "x, y, pi, e, functions, + - * / ^ and parentheses)",
            text[stray], stray + 1, text);
    if (stray >= 0)
        return error_set(
            err, n,
            "byte 0x%02X at column %ld cannot be part of a formula (numbers, "
            "x, y, pi, e, functions, + - * / ^ and parentheses)",
            (unsigned char)text[stray], stray + 1);
    missing = expression_missing_operator(text);
    if (missing >= 0)
        return error_set(
            err, n,
            "an operator is missing at column %ld of '%s' (write 2*x, not 2x "
            "or 2 x)",
            missing + 1, text);
    return 0;
}

int expression_parse(const char *text, struct expression **out, char *err, size_t n)
{
    char copy[1024];
    *out = NULL;
    if (strlen(text) >= sizeof copy)
        return error_set(err, n, "expression longer than %zu characters",
                         sizeof copy - 1);
    if (check_grammar(text, err, n) != 0)
        return -1;
    strcpy(copy, text); /* libmatheval takes a non-const string */
    int unknown;
    void *f = create_evaluator(copy, &unknown);
    if (!f && unknown > ' ' && unknown < 127)
        return error_set(err, n, "unexpected character '%c' in '%s'", unknown, text);
    if (!f)
        return error_set(err, n, "cannot parse '%s' as a number or a formula in x and y",
                         text);
    char **names;
    int count;
    evaluator_get_variables(f, &names, &count);
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], "x") != 0 && strcmp(names[i], "y") != 0) {
            snprintf(err, n, "unknown variable '%s' in '%s' (only x and y)", names[i],
                     text);
            evaluator_destroy(f);
            return -1;
        }
    *out = malloc(sizeof **out);
    if (!*out) {
        evaluator_destroy(f);
        return error_set(err, n, "out of memory");
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

/* The digits at *p, skipped; how many there were. */
static int skip_digits(const char **p)
{
    int count = 0;
    while (isdigit((unsigned char)**p))
        (*p)++, count++;
    return count;
}

int expression_is_decimal(const char *text, int integer)
{
    const char *p = text;
    if (*p == '+' || *p == '-')
        p++;
    int digits = skip_digits(&p);
    if (!integer && *p == '.')
        p++, digits += skip_digits(&p);
    if (digits == 0)
        return 0;
    if (!integer && (*p == 'e' || *p == 'E')) {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (skip_digits(&p) == 0)
            return 0;
    }
    return *p == '\0';
}

int expression_is_number(const char *text, double *value)
{
    char *end;
    if (!expression_is_decimal(text, 0))
        return 0;
    errno = 0;
    double v = strtod(text, &end);
    if (*end != '\0' || errno == ERANGE || !isfinite(v))
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

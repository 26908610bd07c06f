/*
 * expression.h - values given as formulas in x and y (libmatheval): boundary
 * values, the source and region values. "1", "sin(pi*x)" and "x^2 - y^2" are
 * all expressions; pi and e are known, as are sin, cos, exp, log, sqrt, ^ ...
 */
#ifndef LAPLACE_EXPRESSION_H
#define LAPLACE_EXPRESSION_H

#include <stddef.h>

struct expression;

/* Parses text; only the variables x and y may appear. Returns 0, or -1 with err set
 * (without the text's name) when it does not parse or names another variable. */
int expression_parse(const char *text, struct expression **out, char *err, size_t n);

/* The value at (x, y). */
double expression_eval(const struct expression *e, double x, double y);

/* 1 when text is a plain decimal number: an optional sign, digits with at most one
 * point, an optional exponent (with integer set: the sign and digits only); no
 * hexadecimal, no inf or nan, no spaces around it. The one syntax of numbers. */
int expression_is_decimal(const char *text, int integer);

/* 1 when text is a finite decimal number (expression_is_decimal), *value set. */
int expression_is_number(const char *text, double *value);

void expression_free(struct expression *e);

#endif

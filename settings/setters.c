/*
 * setters.c - one setter per setting that is more than a plain count, choice or flag
 * (setters.h): each parses and checks its value and stores it in struct config,
 * or says why not (without the setting's name, which the caller adds). The table of
 * config.c names each setting's setter.
 */
#include "settings/setters.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "problem/expression.h"
#include "outputs/output_formats.h"
#include "laplace_kernels.h"
#include "problem/update_rule.h"

#include "settings/config_internal.h"

/* A formula in x and y kept as text, once its length is checked and it parses. */
static int set_formula(char *formula, const char *v, char *err, size_t n)
{
    struct expression *e;
    if (strlen(v) >= EXPRESSION_MAX)
        return error_status(EXIT_BAD_USAGE, err, n, "formula longer than %d characters",
                            EXPRESSION_MAX - 1);
    if (expression_parse(v, &e, err, n) != 0)
        return EXIT_BAD_USAGE;
    expression_free(e);
    strcpy(formula, v);
    return 0;
}

/* An edge value: a number, or a formula in x and y kept as text. */
static int set_edge(struct config *c, int edge, double *number, const char *v, char *err,
                    size_t n)
{
    char *formula = c->problem.edge_formula[edge];
    char *end;
    if (expression_is_number(v, number))
        return formula[0] = '\0', 0;
    int numeric = *v && (strtod(v, &end), *end == '\0');
    if (numeric && expression_is_decimal(v, 0))
        return number_out_of_range(v, err, n); /* 1e400, 1e-320: past a double */
    if (numeric)                               /* inf, nan */
        return error_status(EXIT_BAD_USAGE, err, n,
                            "expected a finite number or a formula, got '%s'", v);
    return set_formula(formula, v, err, n);
}

int setter_top(struct config *c, const char *v, char *err, size_t n)
{
    return set_edge(c, EDGE_TOP, &c->problem.top, v, err, n);
}
int setter_bottom(struct config *c, const char *v, char *err, size_t n)
{
    return set_edge(c, EDGE_BOTTOM, &c->problem.bottom, v, err, n);
}
int setter_left(struct config *c, const char *v, char *err, size_t n)
{
    return set_edge(c, EDGE_LEFT, &c->problem.left, v, err, n);
}
int setter_right(struct config *c, const char *v, char *err, size_t n)
{
    return set_edge(c, EDGE_RIGHT, &c->problem.right, v, err, n);
}

static int parse_length(const char *v, double *out, char *err, size_t n)
{
    int rc = parse_double(v, out, err, n);
    if (rc == 0 && *out <= 0)
        return error_status(EXIT_BAD_USAGE, err, n, "must be more than 0, got '%s'", v);
    return rc;
}
int setter_lx(struct config *c, const char *v, char *err, size_t n)
{
    return parse_length(v, &c->problem.lx, err, n);
}
int setter_ly(struct config *c, const char *v, char *err, size_t n)
{
    return parse_length(v, &c->problem.ly, err, n);
}

int setter_source(struct config *c, const char *v, char *err, size_t n)
{
    double number;
    if (expression_is_number(v, &number) && number == 0.0)
        return c->problem.source[0] = '\0', 0; /* Laplace */
    return set_formula(c->problem.source, v, err, n);
}

int setter_exact(struct config *c, const char *v, char *err, size_t n)
{
    return set_formula(c->exact, v, err, n);
}

int setter_omega(struct config *c, const char *v, char *err, size_t n)
{
    if (strcmp(v, "auto") == 0)
        return c->omega = OMEGA_AUTO, 0;
    int rc = parse_double(v, &c->omega, err, n);
    if (rc == 0 && c->omega <= 0)
        return error_status(EXIT_BAD_USAGE, err, n, "must be more than 0, got '%s'", v);
    return rc;
}

int setter_eps(struct config *c, const char *v, char *err, size_t n)
{
    int rc = parse_double(v, &c->eps, err, n);
    if (rc == 0 && c->eps < 0)
        return error_status(EXIT_BAD_USAGE, err, n, "must be 0 or more, got '%s'", v);
    return rc;
}

int setter_partition(struct config *c, const char *v, char *err, size_t n)
{
    if (strcmp(v, "auto") == 0)
        return c->partition_x = c->partition_y = 0, 0;
    return parse_pair(v, 1024, &c->partition_x, &c->partition_y, err, n);
}

int setter_ranks(struct config *c, const char *v, char *err, size_t n)
{
    if (strcmp(v, "auto") == 0)
        return c->ranks_x = c->ranks_y = 0, 0;
    return parse_pair(v, 1024, &c->ranks_x, &c->ranks_y, err, n);
}

/* One id of a --devices list, length characters of item; 0 or EXIT_BAD_USAGE. A
 * blank may follow a comma ("0, 1"), as nowhere else around a number: not before
 * the first id (' 0') nor after one ("0 ,1"). */
static int parse_device_id(const char *item, size_t length, int first, int *id, char *err,
                           size_t n)
{
    char text[16];
    while (!first && length > 0 && *item == ' ')
        item++, length--;
    if (length >= sizeof text)
        return EXIT_BAD_USAGE; /* no id of 0 to 1023; an empty one ("0,,1") fails below */
    memcpy(text, item, length);
    text[length] = '\0';
    return parse_int(text, 0, 1023, id, err, n);
}

int setter_devices(struct config *c, const char *v, char *err, size_t n)
{
    const char *item = v;
    int count = 0;
    for (;;) {
        size_t length = strcspn(item, ",");
        int id;
        if (count == CONFIG_MAX_DEVICES)
            return error_status(EXIT_BAD_USAGE, err, n, "more than %d devices",
                                CONFIG_MAX_DEVICES);
        if (parse_device_id(item, length, count == 0, &id, err, n) != 0)
            return error_status(EXIT_BAD_USAGE, err, n,
                                "expected device ids like 0,1,2 (each 0 to 1023, a blank "
                                "only after a comma), got '%s'",
                                v);
        c->devices[count++] = id;
        if (item[length] == '\0')
            break;
        item += length + 1;
    }
    c->device_count = count;
    return 0;
}

/* --sides N1,N2,...: lattice sides from 3 to 16777216, plain decimals and commas. */
int setter_sides(struct config *c, const char *v, char *err, size_t n)
{
    const char *item = v;
    int count = 0;
    for (;;) {
        size_t length = strcspn(item, ",");
        char text[16];
        if (count == CONFIG_SIDES_MAX)
            return error_status(EXIT_BAD_USAGE, err, n, "more than %d sides",
                                CONFIG_SIDES_MAX);
        if (length == 0 || length >= sizeof text ||
            (memcpy(text, item, length), text[length] = '\0',
             parse_long(text, 3, 1L << 24, &c->sides[count], err, n) != 0))
            return error_status(EXIT_BAD_USAGE, err, n,
                                "expected lattice sides like 16,32,64 (each 3 to "
                                "16777216), got '%s'",
                                v);
        count++;
        if (item[length] == '\0')
            break;
        item += length + 1;
    }
    c->side_count = count;
    return 0;
}

int setter_block(struct config *c, const char *v, char *err, size_t n)
{
    if (strcmp(v, "auto") == 0)
        return c->block_x = c->block_y = 0, 0;
    int rc = parse_pair(v, 1024, &c->block_x, &c->block_y, err, n);
    if (rc == 0 && c->block_x * c->block_y > 1024)
        return error_status(EXIT_BAD_USAGE, err, n, "%d threads per block; at most 1024",
                            c->block_x * c->block_y);
    return rc;
}

int setter_kernel(struct config *c, const char *v, char *err, size_t n)
{
    if (kernel_by_name(v) < 0)
        return error_status(EXIT_BAD_USAGE, err, n, "unknown kernel '%s' (known: %s)", v,
                            kernel_names());
    snprintf(c->kernel, sizeof c->kernel, "%s", v);
    return 0;
}

int setter_no_p2p(struct config *c, const char *v, char *err, size_t n)
{
    int no = 0;
    int rc = parse_bool(v, &no, err, n);
    if (rc == 0)
        c->use_p2p = !no;
    return rc;
}

int setter_output(struct config *c, const char *v, char *err, size_t n)
{
    const char *dot = strrchr(v, '.');
    if (c->output_count == CONFIG_MAX_OUTPUTS)
        return error_status(EXIT_BAD_USAGE, err, n, "at most %d outputs",
                            CONFIG_MAX_OUTPUTS);
    if (strlen(v) >= CONFIG_PATH_MAX - 16) /* room for "-000100" and "_63.vti" */
        return error_status(EXIT_BAD_USAGE, err, n, "path longer than %d characters",
                            CONFIG_PATH_MAX - 17);
    if (!dot || strchr(dot, '/'))
        return error_status(EXIT_BAD_USAGE, err, n,
                            "'%s' has no extension (" OUTPUT_EXTENSIONS ")", v);
    if (output_format_of(v) == FORMAT_UNKNOWN)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "unknown extension '%s' of '%s' (" OUTPUT_EXTENSIONS ")", dot,
                            v);
    for (int i = 0; i < c->output_count; i++)
        if (strcmp(c->outputs[i], v) == 0)
            return error_status(EXIT_BAD_USAGE, err, n, "'%s' is already an output", v);
    strcpy(c->outputs[c->output_count++], v);
    return 0;
}

/* LO:HI, two finite numbers with LO < HI: the colour scale of the .png outputs. */
int setter_png_range(struct config *c, const char *v, char *err, size_t n)
{
    const char *colon = strchr(v, ':');
    char lo[64];
    if (!colon || (size_t)(colon - v) >= sizeof lo)
        return error_status(EXIT_BAD_USAGE, err, n, "expected LO:HI, got '%s'", v);
    snprintf(lo, sizeof lo, "%.*s", (int)(colon - v), v);
    if (parse_double(lo, &c->png_lo, err, n) != 0 ||
        parse_double(colon + 1, &c->png_hi, err, n) != 0)
        return EXIT_BAD_USAGE;
    if (!(c->png_lo < c->png_hi))
        return error_status(EXIT_BAD_USAGE, err, n, "LO must be below HI, got '%s'", v);
    if (!isfinite(c->png_hi - c->png_lo)) /* the colour scale divides by it */
        return error_status(EXIT_BAD_USAGE, err, n,
                            "HI - LO is beyond the largest double, got '%s'", v);
    c->png_range = 1;
    return 0;
}

int setter_history(struct config *c, const char *v, char *err, size_t n)
{
    const char *dot = strrchr(v, '.');
    if (strlen(v) >= CONFIG_PATH_MAX)
        return error_status(EXIT_BAD_USAGE, err, n, "path longer than %d characters",
                            CONFIG_PATH_MAX - 1);
    if (!dot || strcmp(dot, ".csv") != 0)
        return error_status(EXIT_BAD_USAGE, err, n, "'%s' is not a .csv file", v);
    strcpy(c->history, v);
    return 0;
}

/* --csv-append FILE: any path of a file; whether it can be written is checked
 * before the run (main.c). */
int setter_csv_append(struct config *c, const char *v, char *err, size_t n)
{
    if (v[0] == '\0')
        return error_status(EXIT_BAD_USAGE, err, n, "the file name is empty");
    if (strlen(v) >= CONFIG_PATH_MAX)
        return error_status(EXIT_BAD_USAGE, err, n, "path longer than %d characters",
                            CONFIG_PATH_MAX - 1);
    strcpy(c->csv_append, v);
    return 0;
}

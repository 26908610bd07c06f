/*
 * config.c - defaults, the INI reader (inih), the command line (getopt_long)
 * and the help text, all driven by one table of settings so that an option, its
 * INI key and its help line can never drift apart.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "expression.h"
#include "laplace_kernels.h"
#include "update_rule.h"

#define WHY_MAX 400 /* why a value was refused, without the name */

/* Parses value into the setting; on failure writes why (without the name). */
typedef int (*setter_fn)(struct config *c, const char *value, char *why, size_t n);

struct setting {
    const char *name;    /* long option and INI key */
    const char *section; /* INI section; NULL: command line only */
    const char *arg;     /* the argument as shown in the help; NULL for a flag */
    const char *help;    /* one line, the default included */
    setter_fn set;
};

static int fail(char *why, size_t n, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t n, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(why, n, format, args);
    va_end(args);
    return EXIT_BAD_USAGE;
}

/* ---- parsers of one value ------------------------------------------------ */

/* The offset of the first byte of text that does not begin a well-formed UTF-8
 * character (no overlong forms, no surrogates, nothing past U+10FFFF), or -1. */
static long utf8_invalid_at(const char *text, size_t length)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < length) {
        unsigned b = s[i], code, least;
        size_t more;
        if (b < 0x80) {
            i++;
            continue;
        }
        if ((b & 0xE0) == 0xC0)
            more = 1, code = b & 0x1F, least = 0x80;
        else if ((b & 0xF0) == 0xE0)
            more = 2, code = b & 0x0F, least = 0x800;
        else if ((b & 0xF8) == 0xF0)
            more = 3, code = b & 0x07, least = 0x10000;
        else
            return (long)i;
        if (more >= length - i)
            return (long)i;
        for (size_t k = 1; k <= more; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return (long)i;
            code = code << 6 | (s[i + k] & 0x3F);
        }
        if (code < least || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return (long)i;
        i += more + 1;
    }
    return -1;
}

/* The offset of the first control character of text other than a tab, or -1: a
 * value echoed in a message must keep it to one line and leave the terminal alone. */
static long control_character_at(const char *text, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return (long)i;
    }
    return -1;
}

static int parse_long(const char *value, long min, long max, long *out, char *why,
                      size_t n)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (*value == '\0' || *end != '\0' || errno == ERANGE)
        return fail(why, n, "expected an integer, got '%s'", value);
    if (v < min || v > max)
        return fail(why, n, "expected an integer from %ld to %ld, got %ld", min, max, v);
    *out = v;
    return 0;
}

static int parse_int(const char *value, int min, int max, int *out, char *why, size_t n)
{
    long v = 0;
    int rc = parse_long(value, min, max, &v, why, n);
    if (rc == 0)
        *out = (int)v;
    return rc;
}

static int parse_double(const char *value, double *out, char *why, size_t n)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (*value == '\0' || *end != '\0' || !isfinite(v))
        return fail(why, n, "expected a finite number, got '%s'", value);
    if (errno == ERANGE)
        return fail(why, n,
                    "'%s' is out of the range of a double (about 1e-308 to 1e308)",
                    value);
    *out = v;
    return 0;
}

static int parse_bool(const char *value, int *out, char *why, size_t n)
{
    static const char *yes[] = {"1", "true", "yes", "on"},
                      *no[] = {"0", "false", "no", "off"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(value, yes[i]) == 0)
            return *out = 1, 0;
        if (strcasecmp(value, no[i]) == 0)
            return *out = 0, 0;
    }
    return fail(why, n, "expected true or false, got '%s'", value);
}

/* "AxB" with both parts in [1, max]. */
static int parse_pair(const char *value, int max, int *a, int *b, char *why, size_t n)
{
    char *end;
    errno = 0;
    long x = strtol(value, &end, 10);
    if (end == value || (*end != 'x' && *end != 'X'))
        return fail(why, n, "expected AxB (e.g. 2x2), got '%s'", value);
    const char *second = end + 1;
    long y = strtol(second, &end, 10);
    if (end == second || *end != '\0' || errno == ERANGE)
        return fail(why, n, "expected AxB (e.g. 2x2), got '%s'", value);
    if (x < 1 || y < 1 || x > max || y > max)
        return fail(why, n, "each part must be from 1 to %d, got '%s'", max, value);
    *a = (int)x;
    *b = (int)y;
    return 0;
}

/* ---- setters, one per setting -------------------------------------------- */

#define LATTICE_MAX (1L << 24)

static int set_nx(struct config *c, const char *v, char *why, size_t n)
{
    return parse_long(v, 3, LATTICE_MAX, &c->problem.nx, why, n);
}
static int set_ny(struct config *c, const char *v, char *why, size_t n)
{
    return parse_long(v, 3, LATTICE_MAX, &c->problem.ny, why, n);
}
/* An edge value: a number, or a formula in x and y kept as text. */
static int set_edge(struct config *c, int edge, double *number, const char *v, char *why,
                    size_t n)
{
    char *formula = c->problem.edge_formula[edge];
    struct expression *e;
    char *end;
    if (expression_is_number(v, number))
        return formula[0] = '\0', 0;
    if (*v && (strtod(v, &end), *end == '\0')) /* a number, but inf, nan or too large */
        return fail(why, n, "expected a finite number or a formula, got '%s'", v);
    if (strlen(v) >= EXPRESSION_MAX)
        return fail(why, n, "formula longer than %d characters", EXPRESSION_MAX - 1);
    if (expression_parse(v, &e, why, n) != 0)
        return EXIT_BAD_USAGE;
    expression_free(e);
    strcpy(formula, v);
    return 0;
}

static int set_top(struct config *c, const char *v, char *why, size_t n)
{
    return set_edge(c, EDGE_TOP, &c->problem.top, v, why, n);
}
static int set_bottom(struct config *c, const char *v, char *why, size_t n)
{
    return set_edge(c, EDGE_BOTTOM, &c->problem.bottom, v, why, n);
}
static int set_left(struct config *c, const char *v, char *why, size_t n)
{
    return set_edge(c, EDGE_LEFT, &c->problem.left, v, why, n);
}
static int set_right(struct config *c, const char *v, char *why, size_t n)
{
    return set_edge(c, EDGE_RIGHT, &c->problem.right, v, why, n);
}

static int parse_length(const char *v, double *out, char *why, size_t n)
{
    int rc = parse_double(v, out, why, n);
    if (rc == 0 && *out <= 0)
        return fail(why, n, "must be more than 0, got '%s'", v);
    return rc;
}
static int set_lx(struct config *c, const char *v, char *why, size_t n)
{
    return parse_length(v, &c->problem.lx, why, n);
}
static int set_ly(struct config *c, const char *v, char *why, size_t n)
{
    return parse_length(v, &c->problem.ly, why, n);
}

static int set_source(struct config *c, const char *v, char *why, size_t n)
{
    double number;
    struct expression *e;
    if (expression_is_number(v, &number) && number == 0.0)
        return c->problem.source[0] = '\0', 0; /* Laplace */
    if (strlen(v) >= EXPRESSION_MAX)
        return fail(why, n, "formula longer than %d characters", EXPRESSION_MAX - 1);
    if (expression_parse(v, &e, why, n) != 0)
        return EXIT_BAD_USAGE;
    expression_free(e);
    strcpy(c->problem.source, v);
    return 0;
}

static int set_precision(struct config *c, const char *v, char *why, size_t n)
{
    if (strcmp(v, "float") == 0)
        c->problem.precision = PRECISION_FLOAT;
    else if (strcmp(v, "double") == 0)
        c->problem.precision = PRECISION_DOUBLE;
    else
        return fail(why, n, "expected float or double, got '%s'", v);
    return 0;
}

static int set_method(struct config *c, const char *v, char *why, size_t n)
{
    for (int m = METHOD_JACOBI; m <= METHOD_SOR; m++)
        if (strcmp(v, method_name((enum method)m)) == 0)
            return c->method = (enum method)m, 0;
    return fail(why, n, "expected jacobi, weighted or sor, got '%s'", v);
}

static int set_omega(struct config *c, const char *v, char *why, size_t n)
{
    if (strcmp(v, "auto") == 0)
        return c->omega = OMEGA_AUTO, 0;
    int rc = parse_double(v, &c->omega, why, n);
    if (rc == 0 && c->omega <= 0)
        return fail(why, n, "must be more than 0, got '%s'", v);
    return rc;
}

static int set_norm(struct config *c, const char *v, char *why, size_t n)
{
    for (int k = NORM_L2; k <= NORM_RESIDUAL; k++)
        if (strcmp(v, norm_name((enum norm_kind)k)) == 0)
            return c->norm = (enum norm_kind)k, 0;
    return fail(why, n, "expected l2, max or residual, got '%s'", v);
}

static int set_steps(struct config *c, const char *v, char *why, size_t n)
{
    return parse_long(v, 1, LONG_MAX, &c->steps, why, n);
}

static int set_snapshot_every(struct config *c, const char *v, char *why, size_t n)
{
    return parse_long(v, 1, LONG_MAX, &c->snapshot_every, why, n);
}

/* ---- fixed regions: [region NAME] sections, or --region "SHAPE NUMBERS VALUE" ---- */

/* Bits of struct region.given, one per key. */
enum {
    GIVEN_SHAPE = 1,
    GIVEN_X0 = 2,
    GIVEN_Y0 = 4,
    GIVEN_X1 = 8,
    GIVEN_Y1 = 16,
    GIVEN_CX = 32,
    GIVEN_CY = 64,
    GIVEN_R = 128,
    GIVEN_VALUE = 256
};

#define RECT_KEYS (GIVEN_SHAPE | GIVEN_X0 | GIVEN_Y0 | GIVEN_X1 | GIVEN_Y1 | GIVEN_VALUE)
#define DISC_KEYS (GIVEN_SHAPE | GIVEN_CX | GIVEN_CY | GIVEN_R | GIVEN_VALUE)

/* The region of that name, added if new; NULL when there are too many. */
static struct region *region_named(struct problem *p, const char *name)
{
    for (int k = 0; k < p->region_count; k++)
        if (strcmp(p->regions[k].name, name) == 0)
            return &p->regions[k];
    if (p->region_count == REGIONS_MAX)
        return NULL;
    struct region *r = &p->regions[p->region_count++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    return r;
}

/* One key of a [region NAME] section. */
static int set_region_key(struct region *r, const char *key, const char *v, char *why,
                          size_t n)
{
    static const struct {
        const char *key;
        unsigned bit;
        size_t offset;
    } numbers[] = {
        {"x0", GIVEN_X0, offsetof(struct region, x0)},
        {"y0", GIVEN_Y0, offsetof(struct region, y0)},
        {"x1", GIVEN_X1, offsetof(struct region, x1)},
        {"y1", GIVEN_Y1, offsetof(struct region, y1)},
        {"cx", GIVEN_CX, offsetof(struct region, cx)},
        {"cy", GIVEN_CY, offsetof(struct region, cy)},
        {"r", GIVEN_R, offsetof(struct region, r)},
        {"value", GIVEN_VALUE, offsetof(struct region, value)},
    };
    if (strcmp(key, "shape") == 0) {
        if (strcmp(v, "rect") != 0 && strcmp(v, "disc") != 0)
            return fail(why, n, "expected rect or disc, got '%s'", v);
        r->shape = strcmp(v, "rect") == 0 ? REGION_RECT : REGION_DISC;
        r->given |= GIVEN_SHAPE;
        return 0;
    }
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
        if (strcmp(key, numbers[i].key) == 0) {
            if (parse_double(v, (double *)((char *)r + numbers[i].offset), why, n) != 0)
                return EXIT_BAD_USAGE;
            if (numbers[i].bit == GIVEN_R && r->r <= 0)
                return fail(why, n, "the radius must be more than 0, got '%s'", v);
            r->given |= numbers[i].bit;
            return 0;
        }
    return fail(why, n, "unknown key '%s' (shape, x0 y0 x1 y1, cx cy r, value)", key);
}

/* Whether a region has every key its shape needs; why names the first missing. */
static int region_complete(const struct region *r, char *why, size_t n)
{
    unsigned need = r->shape == REGION_DISC ? DISC_KEYS : RECT_KEYS;
    static const char *names[] = {"shape", "x0", "y0", "x1",   "y1",
                                  "cx",    "cy", "r",  "value"};
    for (int bit = 0; bit < 9; bit++)
        if ((need & (1u << bit)) && !(r->given & (1u << bit)))
            return fail(why, n, "region %s: '%s' is missing", r->name, names[bit]);
    return 0;
}

/* --region "rect X0 Y0 X1 Y1 VALUE" or "disc CX CY R VALUE". */
static int set_region(struct config *c, const char *v, char *why, size_t n)
{
    char shape[8] = "", name[32], extra;
    double a[5];
    int got = sscanf(v, "%7s %lf %lf %lf %lf %lf %c", shape, &a[0], &a[1], &a[2], &a[3],
                     &a[4], &extra);
    int rect = strcmp(shape, "rect") == 0, disc = strcmp(shape, "disc") == 0;
    if (got < 1 || !(rect || disc) || got != (rect ? 6 : 5))
        return fail(why, n,
                    "expected \"rect X0 Y0 X1 Y1 VALUE\" or \"disc CX CY R VALUE\", "
                    "got '%s'",
                    v);
    snprintf(name, sizeof name, "--region #%d", c->problem.region_count + 1);
    struct region *r = region_named(&c->problem, name);
    if (!r)
        return fail(why, n, "at most %d regions", REGIONS_MAX);
    const char *keys[2][5] = {{"x0", "y0", "x1", "y1", "value"},
                              {"cx", "cy", "r", "value", NULL}};
    set_region_key(r, "shape", shape, why, n);
    for (int i = 0; i < (rect ? 5 : 4); i++) {
        char number[32];
        snprintf(number, sizeof number, "%.17g", a[i]);
        if (set_region_key(r, keys[disc][i], number, why, n) != 0)
            return EXIT_BAD_USAGE;
    }
    return 0;
}

static int set_eps(struct config *c, const char *v, char *why, size_t n)
{
    int rc = parse_double(v, &c->eps, why, n);
    if (rc == 0 && c->eps < 0)
        return fail(why, n, "must be 0 or more, got '%s'", v);
    return rc;
}

static int set_max_iter(struct config *c, const char *v, char *why, size_t n)
{
    return parse_long(v, 1, LONG_MAX, &c->max_iter, why, n);
}

static int set_check_every(struct config *c, const char *v, char *why, size_t n)
{
    return parse_long(v, 1, LONG_MAX, &c->check_every, why, n);
}

static int set_backend(struct config *c, const char *v, char *why, size_t n)
{
    for (int b = BACKEND_AUTO; b <= BACKEND_SERIAL; b++)
        if (strcmp(v, backend_name((enum backend)b)) == 0)
            return c->backend = (enum backend)b, 0;
    return fail(why, n, "expected auto, gpu, cpu or serial, got '%s'", v);
}

static int set_partition(struct config *c, const char *v, char *why, size_t n)
{
    if (strcmp(v, "auto") == 0)
        return c->partition_x = c->partition_y = 0, 0;
    return parse_pair(v, 1024, &c->partition_x, &c->partition_y, why, n);
}

/* One id of a --devices list, length characters of item; 0 or EXIT_BAD_USAGE. */
static int parse_device_id(const char *item, size_t length, int *id, char *why, size_t n)
{
    char text[16];
    if (length >= sizeof text)
        return EXIT_BAD_USAGE; /* no id of 0 to 1023; an empty one ("0,,1") fails below */
    memcpy(text, item, length);
    text[length] = '\0';
    return parse_int(text, 0, 1023, id, why, n);
}

static int set_devices(struct config *c, const char *v, char *why, size_t n)
{
    const char *item = v;
    int count = 0;
    for (;;) {
        size_t length = strcspn(item, ",");
        int id;
        if (count == CONFIG_MAX_DEVICES)
            return fail(why, n, "more than %d devices", CONFIG_MAX_DEVICES);
        if (parse_device_id(item, length, &id, why, n) != 0)
            return fail(why, n,
                        "expected device ids like 0,1,2 (each 0 to 1023), got '%s'", v);
        c->devices[count++] = id;
        if (item[length] == '\0')
            break;
        item += length + 1;
    }
    c->device_count = count;
    return 0;
}

static int set_block(struct config *c, const char *v, char *why, size_t n)
{
    if (strcmp(v, "auto") == 0)
        return c->block_x = c->block_y = 0, 0;
    int rc = parse_pair(v, 1024, &c->block_x, &c->block_y, why, n);
    if (rc == 0 && c->block_x * c->block_y > 1024)
        return fail(why, n, "%d threads per block; at most 1024",
                    c->block_x * c->block_y);
    return rc;
}

static int set_kernel(struct config *c, const char *v, char *why, size_t n)
{
    if (kernel_by_name(v) < 0)
        return fail(why, n, "unknown kernel '%s' (known: %s)", v, kernel_names());
    snprintf(c->kernel, sizeof c->kernel, "%s", v);
    return 0;
}

static int set_reduce(struct config *c, const char *v, char *why, size_t n)
{
    if (strcmp(v, "host") == 0)
        return c->reduce = REDUCE_HOST, 0;
    if (strcmp(v, "device") == 0)
        return c->reduce = REDUCE_DEVICE, 0;
    return fail(why, n, "expected host or device, got '%s'", v);
}

static int set_loop(struct config *c, const char *v, char *why, size_t n)
{
    if (strcmp(v, "auto") == 0)
        return c->loop = LOOP_AUTO, 0;
    if (strcmp(v, "host") == 0)
        return c->loop = LOOP_HOST, 0;
    if (strcmp(v, "batched") == 0)
        return c->loop = LOOP_BATCHED, 0;
    return fail(why, n, "expected auto, host or batched, got '%s'", v);
}

static int set_no_p2p(struct config *c, const char *v, char *why, size_t n)
{
    int no = 0;
    int rc = parse_bool(v, &no, why, n);
    if (rc == 0)
        c->use_p2p = !no;
    return rc;
}

static int set_compare(struct config *c, const char *v, char *why, size_t n)
{
    return parse_bool(v, &c->compare, why, n);
}

static int set_compare_cpu(struct config *c, const char *v, char *why, size_t n)
{
    return parse_bool(v, &c->compare_cpu, why, n);
}

static int set_monitor(struct config *c, const char *v, char *why, size_t n)
{
    return parse_long(v, 0, LONG_MAX, &c->monitor_every, why, n);
}

static int set_csv(struct config *c, const char *v, char *why, size_t n)
{
    return parse_bool(v, &c->csv, why, n);
}

static int set_quiet(struct config *c, const char *v, char *why, size_t n)
{
    return parse_bool(v, &c->quiet, why, n);
}

static int set_output(struct config *c, const char *v, char *why, size_t n)
{
    static const char *known[] = {".dat", ".vti", ".pvti", ".png", ".bin"};
    const char *dot = strrchr(v, '.');
    int k = 0;
    if (c->output_count == CONFIG_MAX_OUTPUTS)
        return fail(why, n, "at most %d outputs", CONFIG_MAX_OUTPUTS);
    if (strlen(v) >= CONFIG_PATH_MAX - 16) /* room for "-000100" and "_63.vti" */
        return fail(why, n, "path longer than %d characters", CONFIG_PATH_MAX - 17);
    if (!dot || strchr(dot, '/'))
        return fail(why, n, "'%s' has no extension (.dat .vti .pvti .png .bin)", v);
    while (k < 5 && strcmp(dot, known[k]) != 0)
        k++;
    if (k == 5)
        return fail(why, n, "unknown extension '%s' of '%s' (.dat .vti .pvti .png .bin)",
                    dot, v);
    for (int i = 0; i < c->output_count; i++)
        if (strcmp(c->outputs[i], v) == 0)
            return fail(why, n, "'%s' is already an output", v);
    strcpy(c->outputs[c->output_count++], v);
    return 0;
}

static int set_png_tiles(struct config *c, const char *v, char *why, size_t n)
{
    return parse_bool(v, &c->png_tiles, why, n);
}

static int set_history(struct config *c, const char *v, char *why, size_t n)
{
    const char *dot = strrchr(v, '.');
    if (strlen(v) >= CONFIG_PATH_MAX)
        return fail(why, n, "path longer than %d characters", CONFIG_PATH_MAX - 1);
    if (!dot || strcmp(dot, ".csv") != 0)
        return fail(why, n, "'%s' is not a .csv file", v);
    strcpy(c->history, v);
    return 0;
}

static int set_help(struct config *c, const char *v, char *why, size_t n)
{
    return parse_bool(v, &c->show_help, why, n);
}
static int set_version(struct config *c, const char *v, char *why, size_t n)
{
    return parse_bool(v, &c->show_version, why, n);
}
static int set_topology(struct config *c, const char *v, char *why, size_t n)
{
    return parse_bool(v, &c->show_topology, why, n);
}
static int set_bench(struct config *c, const char *v, char *why, size_t n)
{
    return parse_bool(v, &c->bench, why, n);
}

/* ---- the table ----------------------------------------------------------- */

static const struct setting settings[] = {
    {"nx", "problem", "N", "lattice sites in x, boundary included (default 256)", set_nx},
    {"ny", "problem", "N", "lattice sites in y, boundary included (default 256)", set_ny},
    {"top", "problem", "V", "value on the top edge, y = ny-1 (default 1)", set_top},
    {"bottom", "problem", "V", "value on the bottom edge, y = 0 (default 0)", set_bottom},
    {"left", "problem", "V", "value on the left edge, x = 0 (default 0)", set_left},
    {"right", "problem", "V", "value on the right edge, x = nx-1 (default 0)", set_right},
    {"lx", "problem", "L", "width of the domain: dx = L/(nx-1) (default 1)", set_lx},
    {"ly", "problem", "L",
     "height: dy = L/(ny-1) (default: square cells, dy = dx; 1 on square lattices)",
     set_ly},
    {"source", "problem", "EXPR",
     "f(x,y) of the Poisson problem laplacian(u) = f (default 0: Laplace)", set_source},
    {"region", "problem", "\"SHAPE ...\"",
     "hold sites fixed: \"rect X0 Y0 X1 Y1 V\" or \"disc CX CY R V\"; repeatable",
     set_region},
    {"precision", "problem", "float|double", "working precision (default double)",
     set_precision},
    {"method", "solver", "jacobi|weighted|sor", "iteration (default jacobi)", set_method},
    {"omega", "solver", "W|auto",
     "relaxation: weighted 0<W<=1 (default 2/3), sor 1<=W<2 or auto (default)",
     set_omega},
    {"eps", "solver", "E", "stop when the norm < E (default 1e-6)", set_eps},
    {"norm", "solver", "l2|max|residual", "stopping norm, see below (default l2)",
     set_norm},
    {"max-iter", "solver", "N", "stop after N iterations at most (default 1000000)",
     set_max_iter},
    {"check-every", "solver", "K",
     "compute and test the norm every K iterations (default 1)", set_check_every},
    {"steps", "solver", "N",
     "exactly N iterations (heat time steps), no convergence test", set_steps},
    {"snapshot-every", "solver", "K",
     "also write every output at iterations K, 2K, ... as NAME-ITER.EXT",
     set_snapshot_every},
    {"backend", "parallel", "auto|gpu|cpu|serial",
     "gpu, cpu (host tiles) or serial (reference); auto: gpu if any (default auto)",
     set_backend},
    {"partition", "parallel", "AxB|auto",
     "NGx x NGy tiles; auto: every GPU or CPU core (default auto)", set_partition},
    {"devices", "parallel", "LIST",
     "CUDA device of each tile, e.g. 0,1,2,3 (default: 0,1,...); a device listed "
     "again holds several tiles (0,0: a 2-tile layout on one GPU)",
     set_devices},
    {"block", "parallel", "TXxTY|auto",
     "thread-block shape; host tiles: partial-sum block "
     "(default auto: 32x8)",
     set_block},
    {"kernel", "parallel", "NAME", "GPU sweep kernel, see below (default auto: rows)",
     set_kernel},
    {"reduce", "parallel", "host|device",
     "who adds the GPU block partial sums (default host; device is slower in "
     "batches: one more kernel a sweep)",
     set_reduce},
    {"loop", "parallel", "auto|host|batched",
     "batched: the devices chain their sweeps, the host looks once a batch; "
     "host: at every iteration (default auto: batched where it pays)",
     set_loop},
    {"no-p2p", "parallel", NULL, "GPU edges by peer copies into halos, not peer reads",
     set_no_p2p},
    {"compare", "parallel", NULL,
     "also solve on 1 device: speed-up, efficiency, field difference", set_compare},
    {"compare-cpu", "parallel", NULL,
     "also solve on the host tiles (every core): speed-up", set_compare_cpu},
    {"monitor", "output", "K",
     "print iteration, norm and time every K iterations (default 0: off)", set_monitor},
    {"history", "output", "FILE.csv",
     "write iteration, norm, elapsed seconds at every norm computed", set_history},
    {"csv", "output", NULL, "print a CSV header and one row instead of the report",
     set_csv},
    {"output", "output", "FILE",
     "write the field: .dat (course text, top row first), .vti (ParaView), .pvti "
     "(one .vti piece per tile), .png (heat map), .bin (raw, 48-byte header); "
     "repeatable",
     set_output},
    {"png-tiles", "output", NULL, "draw the tile borders on .png outputs", set_png_tiles},
    {"quiet", "output", NULL, "print nothing but errors", set_quiet},
    {"topology", NULL, NULL, "print the GPUs, their links and peer access, and exit",
     set_topology},
    {"bench", NULL, NULL,
     "run the benchmark matrix, then the lattice sweep (1 GPU against all), into "
     "results/bench-*.csv and bench-*-sweep.csv; only --devices, -q apply (see below)",
     set_bench},
    {"help", NULL, NULL, "print this help and exit", set_help},
    {"version", NULL, NULL, "print the version and the CUDA runtime, and exit",
     set_version},
};

#define SETTING_COUNT ((int)(sizeof settings / sizeof settings[0]))

/* The setting of an option or INI key; '_' and '-' are the same in keys. */
static const struct setting *find_setting(const char *name)
{
    char canonical[64];
    snprintf(canonical, sizeof canonical, "%s", name);
    for (char *p = canonical; *p; p++)
        if (*p == '_')
            *p = '-';
    for (int i = 0; i < SETTING_COUNT; i++)
        if (strcmp(settings[i].name, canonical) == 0)
            return &settings[i];
    return NULL;
}

void config_defaults(struct config *c)
{
    memset(c, 0, sizeof *c);
    c->problem =
        (struct problem){.nx = 256, .ny = 256, .top = 1.0, .precision = PRECISION_DOUBLE};
    c->eps = 1e-6;
    c->max_iter = 1000000;
    c->check_every = 1;
    c->backend = BACKEND_AUTO;
    c->partition_x = c->partition_y = 0; /* auto */
    c->block_x = c->block_y = 0;         /* auto */
    snprintf(c->kernel, sizeof c->kernel, "auto");
    c->use_p2p = 1;
}

/* A value from the command line or config_set: UTF-8 text without control
 * characters (else never echoed), then the setting's own checks. */
static int apply_setting(struct config *c, const struct setting *s, const char *value,
                         char *why, size_t n)
{
    long control = control_character_at(value, strlen(value));
    if (utf8_invalid_at(value, strlen(value)) >= 0)
        return fail(why, n, "the value is not UTF-8 text");
    if (control >= 0)
        return fail(why, n, "control character 0x%02X at column %ld of the value",
                    (unsigned char)value[control], control + 1);
    return s->set(c, value, why, n);
}

int config_set(struct config *c, const char *name, const char *value, char *err,
               size_t errlen)
{
    const struct setting *s = find_setting(name);
    char why[WHY_MAX];
    if (!s)
        return fail(err, errlen, "unknown setting '%s'", name);
    if (apply_setting(c, s, value, why, sizeof why) != 0)
        return fail(err, errlen, "%s", why);
    return 0;
}

/* ---- INI files ----------------------------------------------------------- */

/*
 * inih parses the lines, but our reader hands them to it one at a time, so that we
 * know the line inih is on (the Debian build gives the handler no line number) and
 * can refuse, with file:line, what inih would let through: a line longer than inih's
 * buffer (inih would split it and read the rest as a line of its own), a NUL byte
 * (the rest of the line would vanish), bytes that are not UTF-8, an unknown section
 * (even one without keys) and text after a section's ']'. The handler refuses a
 * key given twice in a section and an indented line after a key, which inih
 * would read as a continuation of that key's value (multi-line values).
 * An empty file, or one of comments and blank lines only, means "all defaults".
 */

#define INI_KEYS_MAX 256 /* distinct keys in one file: ~40 settings + 16 regions x 9 */

struct ini_key_seen {
    char name[96]; /* section '/' key, '_' read as '-' */
    int line;
};

struct ini_context {
    struct config *config;
    FILE *file;
    int line;                       /* lines read: the one inih is working on */
    int line_is_indented;           /* it starts with a blank and is not a comment */
    int error_line;                 /* the first error's line; 0: none */
    char why[CONFIG_ERROR_MAX / 2]; /* that error, without file and line */
    char last_key[64];              /* the previous key of the section; "" after [] */
    int last_key_line;
    struct ini_key_seen keys[INI_KEYS_MAX];
    int key_count;
    int region_line[REGIONS_MAX]; /* where each region's section starts */
};

static void ini_fail(struct ini_context *ctx, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Keeps the first error and its line; the reader stops at it. */
static void ini_fail(struct ini_context *ctx, const char *format, ...)
{
    if (ctx->error_line)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(ctx->why, sizeof ctx->why, format, args);
    va_end(args);
    ctx->error_line = ctx->line;
}

/* A [region NAME] header: the region, made now so that one without keys is missed. */
static void ini_region_section(struct ini_context *ctx, const char *name)
{
    struct problem *p = &ctx->config->problem;
    struct region *r = NULL;
    if (name[0] == '\0' || strlen(name) >= sizeof r->name)
        ini_fail(ctx, "[region %s]: a region needs a name of 1 to %zu characters", name,
                 sizeof r->name - 1);
    else if (!(r = region_named(p, name)))
        ini_fail(ctx, "[region %s]: at most %d regions", name, REGIONS_MAX);
    else if (ctx->region_line[r - p->regions] == 0)
        ctx->region_line[r - p->regions] = ctx->line;
}

/* A section header: known names only, nothing after the ']' but a comment. */
static void ini_section(struct ini_context *ctx, const char *header)
{
    static const char *known[] = {"problem", "solver", "parallel", "output"};
    const char *close = strchr(header, ']');
    char name[256];
    if (!close)
        return; /* inih refuses it: no ']' */
    const char *after = close + 1 + strspn(close + 1, " \t\r\v\f");
    if (*after != '\0' && *after != ';' && *after != '#') {
        ini_fail(ctx, "text after the section header: '%s'", after);
        return;
    }
    snprintf(name, sizeof name, "%.*s", (int)(close - header - 1), header + 1);
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (strcmp(name, known[k]) == 0)
            return;
    if (strncmp(name, "region ", 7) == 0)
        ini_region_section(ctx, name + 7);
    else
        ini_fail(ctx,
                 "unknown section [%s] (known: [problem] [solver] [parallel] [output] "
                 "[region NAME])",
                 name);
}

/* What inih will make of the line: notes an indentation, checks a section header. */
static void ini_look_at_line(struct ini_context *ctx, const char *line)
{
    const char *start = line + strspn(line, " \t\r\v\f"); /* inih skips isspace() */
    int comment_or_blank = *start == '\0' || *start == ';' || *start == '#';
    ctx->line_is_indented = start > line && !comment_or_blank;
    if (*start != '[' || (ctx->line_is_indented && ctx->last_key[0]))
        return; /* not a header: a key, a comment, or inih's continuation line */
    ctx->last_key[0] = '\0';
    ini_section(ctx, start);
}

/* Refuses a line with bytes that are not UTF-8, a NUL or another control character
 * (a tab, and the '\r' of a CRLF end, excepted); names the first by its column. */
static void ini_check_bytes(struct ini_context *ctx, const char *line, long length)
{
    long text = length > 0 && line[length - 1] == '\r' ? length - 1 : length;
    long control = control_character_at(line, (size_t)text);
    long bad = utf8_invalid_at(line, (size_t)length);
    if (control >= 0 && (bad < 0 || control < bad) && line[control] == '\0')
        ini_fail(ctx, "a NUL byte at column %ld", control + 1);
    else if (control >= 0 && (bad < 0 || control < bad))
        ini_fail(ctx, "control character 0x%02X at column %ld",
                 (unsigned char)line[control], control + 1);
    else if (bad >= 0)
        ini_fail(ctx, "byte 0x%02X at column %ld is not UTF-8 (save the file as UTF-8)",
                 (unsigned char)line[bad], bad + 1);
}

/* inih's reader: the next line into line (size bytes, no newline kept), or NULL at
 * the end of the file and after an error. */
static char *ini_read_line(char *line, int size, void *stream)
{
    struct ini_context *ctx = stream;
    int length = 0, c;
    if (ctx->error_line || (c = getc(ctx->file)) == EOF) {
        if (!ctx->error_line && ferror(ctx->file))
            ini_fail(ctx, "cannot read the file: %s", strerror(errno));
        return NULL;
    }
    ctx->line++;
    for (; c != EOF && c != '\n'; c = getc(ctx->file)) {
        if (length >= size - 2) { /* inih's buffer, less its newline and NUL */
            ini_fail(ctx, "line longer than %d bytes, the most the INI reader takes",
                     size - 2);
            return NULL;
        }
        line[length++] = (char)c;
    }
    line[length] = '\0';
    if (c == EOF && ferror(ctx->file))
        ini_fail(ctx, "cannot read the file: %s", strerror(errno));
    else
        ini_check_bytes(ctx, line, length);
    if (!ctx->error_line) /* inih skips a UTF-8 byte-order mark at the start */
        ini_look_at_line(ctx, ctx->line == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0
                                  ? line + 3
                                  : line);
    return ctx->error_line ? NULL : line;
}

/* Only output and region may be given more than once: each adds one. */
static int setting_is_repeatable(const struct setting *s)
{
    return s && (s->set == set_output || s->set == set_region);
}

/* Refuses an indented line after a key (inih: a continuation of its value) and a
 * key given twice in one section. */
static int ini_check_repeat(struct ini_context *ctx, const char *section, const char *key,
                            char *why, size_t n)
{
    char name[sizeof ctx->keys[0].name];
    if (ctx->line_is_indented && ctx->last_key[0])
        return fail(why, n,
                    "an indented line continues the value of line %d (multi-line "
                    "values are not supported); remove the indentation",
                    ctx->last_key_line);
    if (strncmp(section, "region ", 7) != 0 && setting_is_repeatable(find_setting(key)))
        return 0;
    snprintf(name, sizeof name, "%s/%s", section, key);
    for (char *p = name + strlen(section); *p; p++)
        if (*p == '_')
            *p = '-';
    for (int k = 0; k < ctx->key_count; k++)
        if (strcmp(ctx->keys[k].name, name) == 0)
            return fail(why, n, "given twice in [%s]: first at line %d, again here",
                        section, ctx->keys[k].line);
    if (ctx->key_count == INI_KEYS_MAX)
        return fail(why, n, "more than %d keys in one file", INI_KEYS_MAX);
    ctx->keys[ctx->key_count++] = (struct ini_key_seen){.line = ctx->line};
    snprintf(ctx->keys[ctx->key_count - 1].name, sizeof name, "%s", name);
    return 0;
}

/* A key of a [region NAME] section (the reader checked the name). */
static int ini_region_entry(struct config *c, const char *name, const char *key,
                            const char *value, char *why, size_t n)
{
    struct region *r = region_named(&c->problem, name);
    if (!r)
        return fail(why, n, "at most %d regions", REGIONS_MAX);
    return set_region_key(r, key, value, why, n);
}

/* One key = value of a section. */
static int ini_apply(struct config *c, const char *section, const char *key,
                     const char *value, char *why, size_t n)
{
    const struct setting *s = find_setting(key);
    if (strncmp(section, "region ", 7) == 0)
        return ini_region_entry(c, section + 7, key, value, why, n);
    if (section[0] == '\0')
        return fail(why, n, "'%s' is outside a section", key);
    if (!s || !s->section)
        return fail(why, n, "unknown key '%s' in [%s]", key, section);
    if (strcmp(s->section, section) != 0)
        return fail(why, n, "'%s' belongs in [%s], not [%s]", key, s->section, section);
    return s->set(c, value, why, n);
}

/* inih's handler: 1 when the key is taken, 0 on the first error. */
static int ini_entry(void *user, const char *section, const char *key, const char *value)
{
    struct ini_context *ctx = user;
    char why[WHY_MAX];
    if (ctx->error_line)
        return 0;
    if (ini_check_repeat(ctx, section, key, why, sizeof why) != 0 ||
        ini_apply(ctx->config, section, key, value, why, sizeof why) != 0)
        return ini_fail(ctx, "%s: %s", key, why), 0;
    snprintf(ctx->last_key, sizeof ctx->last_key, "%s", key);
    ctx->last_key_line = ctx->line;
    return 1;
}

/* Every region of the file has the keys of its shape; named at its section's line. */
static int ini_regions_complete(const struct config *c, const struct ini_context *ctx,
                                const char *path, char *err, size_t errlen)
{
    char why[WHY_MAX];
    for (int k = 0; k < c->problem.region_count; k++) {
        if (region_complete(&c->problem.regions[k], why, sizeof why) == 0)
            continue;
        if (ctx->region_line[k] > 0)
            return fail(err, errlen, "%s:%d: %s", path, ctx->region_line[k], why);
        return fail(err, errlen, "%s: %s", path, why);
    }
    return 0;
}

int config_load_file(struct config *c, const char *path, char *err, size_t errlen)
{
    struct ini_context *ctx;
    struct stat info;
    if (path[0] == '\0')
        return fail(err, errlen, "the config file name is empty");
    /* stat first: opening a FIFO would wait for a writer */
    if (stat(path, &info) == 0 && !S_ISREG(info.st_mode))
        return fail(err, errlen, "%s: cannot read config file: not a regular file", path);
    FILE *file = fopen(path, "rb");
    if (!file)
        return fail(err, errlen, "%s: cannot open config file: %s", path,
                    strerror(errno));
    ctx = calloc(1, sizeof *ctx); /* some 25 kB: the keys seen */
    if (!ctx)
        return fclose(file), fail(err, errlen, "%s: out of memory while reading", path);
    ctx->config = c;
    ctx->file = file;
    int line = ini_parse_stream(ini_read_line, ctx, ini_entry, ctx), rc = 0;
    fclose(file);
    if (line == -2)
        rc = fail(err, errlen, "%s: out of memory while reading", path);
    else if (line > 0 && (ctx->error_line == 0 || line < ctx->error_line))
        rc =
            fail(err, errlen, "%s:%d: expected 'key = value' or '[section]'", path, line);
    else if (ctx->error_line > 0)
        rc = fail(err, errlen, "%s:%d: %s", path, ctx->error_line, ctx->why);
    else
        rc = ini_regions_complete(c, ctx, path, err, errlen);
    free(ctx);
    if (rc == 0)
        snprintf(c->config_file, sizeof c->config_file, "%s", path);
    return rc;
}

/* ---- the command line ---------------------------------------------------- */

static void build_long_options(struct option *opts)
{
    for (int i = 0; i < SETTING_COUNT; i++)
        opts[i] = (struct option){settings[i].name,
                                  settings[i].arg ? required_argument : no_argument, NULL,
                                  1000 + i};
    opts[SETTING_COUNT] = (struct option){0, 0, 0, 0};
}

/* One option seen on the command line, applied after the INI file. */
struct seen_option {
    const struct setting *setting;
    const char *value;
};

/* A word getopt_long refused: a flag given a value (--compare=yes), or unknown. */
static int refuse_option(const char *word, char *err, size_t errlen)
{
    const char *equals = strchr(word, '=');
    if (strncmp(word, "--", 2) == 0 && equals)
        for (int i = 0; i < SETTING_COUNT; i++)
            if (!settings[i].arg &&
                strlen(settings[i].name) == (size_t)(equals - word - 2) &&
                strncmp(settings[i].name, word + 2, (size_t)(equals - word - 2)) == 0)
                return fail(err, errlen, "option '--%s' takes no value, got '%s'",
                            settings[i].name, word);
    if (utf8_invalid_at(word, strlen(word)) >= 0)
        return fail(err, errlen, "unknown option, not UTF-8 text (see --help)");
    return fail(err, errlen, "unknown option '%s' (see --help)", word);
}

static int read_options(int argc, char **argv, struct seen_option *seen, int *count,
                        const char **file, char *err, size_t errlen)
{
    struct option opts[SETTING_COUNT + 1];
    build_long_options(opts);
    opterr = 0;
    optind = 0;
    *count = 0;
    int code;
    while ((code = getopt_long(argc, argv, ":qh", opts, NULL)) != -1) {
        const char *bad = argv[optind - 1];
        if (code == '?')
            return refuse_option(bad, err, errlen);
        if (code == ':')
            return fail(err, errlen, "option '%s' needs a value (see --help)", bad);
        const struct setting *s = code == 'q'   ? find_setting("quiet")
                                  : code == 'h' ? find_setting("help")
                                                : &settings[code - 1000];
        seen[(*count)++] = (struct seen_option){s, s->arg ? optarg : "true"};
    }
    if (argc - optind > 1)
        return fail(err, errlen, "more than one config file given: '%s' and '%s'",
                    argv[optind], argv[optind + 1]);
    *file = optind < argc ? argv[optind] : NULL;
    return 0;
}

int config_from_args(struct config *c, int argc, char **argv, char *err, size_t errlen)
{
    size_t most = (size_t)argc + 1; /* options seen at most: -qhq is three in one */
    for (int i = 1; i < argc; i++)
        most += strlen(argv[i]);
    struct seen_option *seen = calloc(most, sizeof *seen);
    const char *file = NULL;
    int count = 0, rc;
    if (!seen)
        return fail(err, errlen, "out of memory");
    rc = read_options(argc, argv, seen, &count, &file, err, errlen);
    if (rc == 0 && file)
        rc = config_load_file(c, file, err, errlen);
    for (int i = 0; rc == 0 && i < count; i++) {
        char why[WHY_MAX];
        if (apply_setting(c, seen[i].setting, seen[i].value, why, sizeof why) != 0)
            rc = fail(err, errlen, "--%s: %s", seen[i].setting->name, why);
    }
    free(seen);
    return rc;
}

/* The method against omega: refuses settings that cannot converge. */
static int validate_method(const struct config *c, char *err, size_t errlen)
{
    double w = c->omega;
    if (c->method == METHOD_JACOBI && w != OMEGA_UNSET)
        return fail(err, errlen,
                    "--omega: plain Jacobi has no relaxation factor; use --method "
                    "weighted or sor");
    if (c->method == METHOD_WEIGHTED && w == OMEGA_AUTO)
        return fail(
            err, errlen,
            "--omega: auto is the optimum of SOR; weighted Jacobi needs 0 < W <= 1");
    if (c->method == METHOD_WEIGHTED && w > 1.0)
        return fail(err, errlen,
                    "--omega: weighted Jacobi with W = %g > 1 does not converge (and is "
                    "an unstable heat step); use 0 < W <= 1",
                    w);
    if (c->method == METHOD_SOR && w != OMEGA_UNSET && w != OMEGA_AUTO &&
        (w < 1.0 || w >= 2.0))
        return fail(
            err, errlen,
            "--omega: SOR over-relaxes with 1 <= W < 2 (W >= 2 does not converge; "
            "for W < 1 use --method weighted), got %g",
            w);
    if (c->method == METHOD_SOR && c->steps > 0)
        return fail(err, errlen,
                    "--steps: SOR iterations are not time steps; use --method weighted "
                    "(or jacobi)");
    return 0;
}

/* The problem's formulas and regions, and the kernel against the rule. */
static int validate_problem(const struct config *c, char *err, size_t errlen)
{
    char why[WHY_MAX];
    for (int k = 0; k < c->problem.region_count; k++)
        if (region_complete(&c->problem.regions[k], why, sizeof why) != 0)
            return fail(err, errlen, "%s", why);
    if (problem_check(&c->problem, why, sizeof why) != 0)
        return fail(err, errlen, "[problem] %s", why);
    struct update_rule rule = config_update_rule(c);
    int kernel = kernel_by_name(c->kernel);
    if (!update_rule_is_plain_jacobi(&rule) && kernel != KERNEL_AUTO &&
        kernel != KERNEL_GENERAL)
        return fail(err, errlen,
                    "--kernel: %s runs only plain Jacobi with the l2 or residual norm on "
                    "a square grid without source or regions; use auto or general",
                    c->kernel);
    if (c->snapshot_every > 0 && c->output_count == 0)
        return fail(err, errlen, "--snapshot-every: needs at least one --output FILE");
    return 0;
}

struct update_rule config_update_rule(const struct config *c)
{
    double w = c->omega;
    if (c->method == METHOD_WEIGHTED && w == OMEGA_UNSET)
        w = WEIGHTED_OMEGA_DEFAULT;
    if (c->method == METHOD_SOR && w == OMEGA_UNSET)
        w = OMEGA_AUTO;
    return update_rule_make(&c->problem, c->method, w, c->norm);
}

long config_max_iter(const struct config *c)
{
    return c->steps > 0 ? c->steps : c->max_iter;
}

double config_eps(const struct config *c)
{
    return c->steps > 0 ? 0.0 : c->eps;
}

int config_validate(const struct config *c, char *err, size_t errlen)
{
    if (validate_method(c, err, errlen) != 0 || validate_problem(c, err, errlen) != 0)
        return EXIT_BAD_USAGE;
    long inner_x = c->problem.nx - 2, inner_y = c->problem.ny - 2;
    if (c->partition_x > inner_x || c->partition_y > inner_y)
        return fail(err, errlen,
                    "--partition: %dx%d tiles need at least %dx%d interior sites; the "
                    "lattice %ldx%ld has %ldx%ld",
                    c->partition_x, c->partition_y, c->partition_x, c->partition_y,
                    c->problem.nx, c->problem.ny, inner_x, inner_y);
    if (c->backend == BACKEND_CPU && c->partition_x * c->partition_y > CPU_TILES_MAX)
        return fail(err, errlen,
                    "--partition: %dx%d host tiles; at most %d (one thread each)",
                    c->partition_x, c->partition_y, CPU_TILES_MAX);
    if (c->backend == BACKEND_SERIAL && c->partition_x * c->partition_y > 1)
        return fail(err, errlen,
                    "--partition: the serial backend has one tile; use "
                    "--backend cpu or gpu to split the lattice");
    if (c->backend == BACKEND_SERIAL && (c->compare || c->compare_cpu))
        return fail(err, errlen,
                    "--compare%s: the serial backend has nothing to compare; use "
                    "--backend gpu or cpu",
                    c->compare ? "" : "-cpu");
    if (c->device_count > 0 && c->device_count < c->partition_x * c->partition_y)
        return fail(err, errlen, "--devices: %d devices listed for %dx%d tiles",
                    c->device_count, c->partition_x, c->partition_y);
    return 0;
}

const char *backend_name(enum backend backend)
{
    static const char *names[] = {"auto", "gpu", "cpu", "serial"};
    return names[backend];
}

void config_print_help(const char *program)
{
    const char *sections[] = {"problem", "solver", "parallel", "output", NULL};
    printf(
        "Usage: %s [OPTIONS] [CONFIG.ini]\n"
        "Solves the 2D Laplace or Poisson equation (laplacian(u) = f) with Jacobi,\n"
        "weighted Jacobi or red-black SOR iterations on one or several GPUs (one\n"
        "OpenMP thread per GPU over NGx x NGy tiles), on host tiles, or serially.\n"
        "Options override the INI file, the file overrides the defaults. INI keys are\n"
        "the long option names, in the section shown in brackets.\n",
        program);
    for (int k = 0; k < (int)(sizeof sections / sizeof sections[0]); k++) {
        printf("\n%s%s%s:\n", sections[k] ? "[" : "",
               sections[k] ? sections[k] : "actions", sections[k] ? "]" : "");
        for (int i = 0; i < SETTING_COUNT; i++) {
            const struct setting *s = &settings[i];
            if ((s->section == NULL) != (sections[k] == NULL) ||
                (s->section && strcmp(s->section, sections[k]) != 0))
                continue;
            char left[64];
            snprintf(left, sizeof left, "--%s%s%s", s->name, s->arg ? " " : "",
                     s->arg ? s->arg : "");
            printf("  %-30s %s\n", left, s->help);
        }
    }
    printf(
        "\n  -q is --quiet, -h is --help. Known kernels: %s.\n"
        "\nValues of top, bottom, left, right and source are numbers or formulas in x\n"
        "and y (libmatheval: + - * / ^, sin cos exp log sqrt ..., pi, e), e.g.\n"
        "  --left 'sin(pi*y)' --source '-2*pi^2*sin(pi*x)*sin(pi*y)'\n"
        "Fixed regions in an INI file, one section each (a later one wins on overlap):\n"
        "  [region heater]  shape = rect, x0 = 0.4, y0 = 0.4, x1 = 0.6, y1 = 0.6, value "
        "= 1\n"
        "  [region body]    shape = disc, cx = 0.3, cy = 0.5, r = 0.1, value = 0\n"
        "\nNorms (computed every --check-every iterations, compared with --eps):\n"
        "  l2        sqrt(sum (new - old)^2) over the sites: the lecture's update norm\n"
        "  max       max |new - old|\n"
        "  residual  sqrt(dx dy sum r^2) / N, r = f - laplacian(u) at the N interior\n"
        "            sites, of the field each site's update started from\n"
        "\nMetrics in the report and CSV:\n"
        "  glups   interior sites updated per second, in 1e9 (iterations x sites / "
        "time)\n"
        "  gbps    bytes per second, counting one read and one write of each site per\n"
        "          iteration (8 bytes in float, 16 in double): the memory-traffic floor\n"
        "  gflops  4 flops per site update (3 adds, 1 multiply) plus 3 per site on\n"
        "          iterations that compute the norm (subtract, square, add)\n"
        "\nEnvironment of --bench:\n"
        "  LAPLACE_BENCH_ONLY=matrix|sweep   run one part after the ceilings (default "
        "both)\n"
        "  LAPLACE_BENCH_QUICK=1             tiny lattices, a smoke test (not for "
        "numbers)\n"
        "  LAPLACE_BENCH_DIR=DIR             where the CSVs go (default results)\n"
        "\nExit status: 0 finished (converged or stopped at --max-iter), 2 bad command\n"
        "line or config, 1 any other failure (device, memory, I/O, divergence).\n",
        kernel_names());
}

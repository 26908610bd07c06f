/*
 * config.c - the settings: the defaults, one setter per setting, and the one table
 * that gives each its long option, INI key, section, help line and setter, so that
 * these can never drift apart; config_set applies one setting by name.
 * The INI reader (config_ini.c), the command line (config_args.c) and the help
 * (config_help.c) are all driven by this table; config_internal.h lists the rest.
 */
#include "config_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expression.h"
#include "laplace_kernels.h"
#include "update_rule.h"

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
        return error_status(EXIT_BAD_USAGE, why, n,
                            "expected a finite number or a formula, got '%s'", v);
    if (strlen(v) >= EXPRESSION_MAX)
        return error_status(EXIT_BAD_USAGE, why, n, "formula longer than %d characters",
                            EXPRESSION_MAX - 1);
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
        return error_status(EXIT_BAD_USAGE, why, n, "must be more than 0, got '%s'", v);
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
        return error_status(EXIT_BAD_USAGE, why, n, "formula longer than %d characters",
                            EXPRESSION_MAX - 1);
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
        return error_status(EXIT_BAD_USAGE, why, n, "expected float or double, got '%s'",
                            v);
    return 0;
}

static int set_method(struct config *c, const char *v, char *why, size_t n)
{
    for (int m = METHOD_JACOBI; m <= METHOD_SOR; m++)
        if (strcmp(v, method_name((enum method)m)) == 0)
            return c->method = (enum method)m, 0;
    return error_status(EXIT_BAD_USAGE, why, n,
                        "expected jacobi, weighted or sor, got '%s'", v);
}

static int set_omega(struct config *c, const char *v, char *why, size_t n)
{
    if (strcmp(v, "auto") == 0)
        return c->omega = OMEGA_AUTO, 0;
    int rc = parse_double(v, &c->omega, why, n);
    if (rc == 0 && c->omega <= 0)
        return error_status(EXIT_BAD_USAGE, why, n, "must be more than 0, got '%s'", v);
    return rc;
}

static int set_norm(struct config *c, const char *v, char *why, size_t n)
{
    for (int k = NORM_L2; k <= NORM_RESIDUAL; k++)
        if (strcmp(v, norm_name((enum norm_kind)k)) == 0)
            return c->norm = (enum norm_kind)k, 0;
    return error_status(EXIT_BAD_USAGE, why, n, "expected l2, max or residual, got '%s'",
                        v);
}

static int set_steps(struct config *c, const char *v, char *why, size_t n)
{
    return parse_long(v, 1, LONG_MAX, &c->steps, why, n);
}

static int set_snapshot_every(struct config *c, const char *v, char *why, size_t n)
{
    return parse_long(v, 1, LONG_MAX, &c->snapshot_every, why, n);
}

static int set_eps(struct config *c, const char *v, char *why, size_t n)
{
    int rc = parse_double(v, &c->eps, why, n);
    if (rc == 0 && c->eps < 0)
        return error_status(EXIT_BAD_USAGE, why, n, "must be 0 or more, got '%s'", v);
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
    return error_status(EXIT_BAD_USAGE, why, n,
                        "expected auto, gpu, cpu or serial, got '%s'", v);
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
            return error_status(EXIT_BAD_USAGE, why, n, "more than %d devices",
                                CONFIG_MAX_DEVICES);
        if (parse_device_id(item, length, &id, why, n) != 0)
            return error_status(
                EXIT_BAD_USAGE, why, n,
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
        return error_status(EXIT_BAD_USAGE, why, n, "%d threads per block; at most 1024",
                            c->block_x * c->block_y);
    return rc;
}

static int set_kernel(struct config *c, const char *v, char *why, size_t n)
{
    if (kernel_by_name(v) < 0)
        return error_status(EXIT_BAD_USAGE, why, n, "unknown kernel '%s' (known: %s)", v,
                            kernel_names());
    snprintf(c->kernel, sizeof c->kernel, "%s", v);
    return 0;
}

static int set_reduce(struct config *c, const char *v, char *why, size_t n)
{
    if (strcmp(v, "host") == 0)
        return c->reduce = REDUCE_HOST, 0;
    if (strcmp(v, "device") == 0)
        return c->reduce = REDUCE_DEVICE, 0;
    return error_status(EXIT_BAD_USAGE, why, n, "expected host or device, got '%s'", v);
}

static int set_loop(struct config *c, const char *v, char *why, size_t n)
{
    if (strcmp(v, "auto") == 0)
        return c->loop = LOOP_AUTO, 0;
    if (strcmp(v, "host") == 0)
        return c->loop = LOOP_HOST, 0;
    if (strcmp(v, "batched") == 0)
        return c->loop = LOOP_BATCHED, 0;
    return error_status(EXIT_BAD_USAGE, why, n,
                        "expected auto, host or batched, got '%s'", v);
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
        return error_status(EXIT_BAD_USAGE, why, n, "at most %d outputs",
                            CONFIG_MAX_OUTPUTS);
    if (strlen(v) >= CONFIG_PATH_MAX - 16) /* room for "-000100" and "_63.vti" */
        return error_status(EXIT_BAD_USAGE, why, n, "path longer than %d characters",
                            CONFIG_PATH_MAX - 17);
    if (!dot || strchr(dot, '/'))
        return error_status(EXIT_BAD_USAGE, why, n,
                            "'%s' has no extension (.dat .vti .pvti .png .bin)", v);
    while (k < 5 && strcmp(dot, known[k]) != 0)
        k++;
    if (k == 5)
        return error_status(EXIT_BAD_USAGE, why, n,
                            "unknown extension '%s' of '%s' (.dat .vti .pvti .png .bin)",
                            dot, v);
    for (int i = 0; i < c->output_count; i++)
        if (strcmp(c->outputs[i], v) == 0)
            return error_status(EXIT_BAD_USAGE, why, n, "'%s' is already an output", v);
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
        return error_status(EXIT_BAD_USAGE, why, n, "path longer than %d characters",
                            CONFIG_PATH_MAX - 1);
    if (!dot || strcmp(dot, ".csv") != 0)
        return error_status(EXIT_BAD_USAGE, why, n, "'%s' is not a .csv file", v);
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

static const struct setting table[] = {
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

_Static_assert(sizeof table / sizeof table[0] == SETTING_COUNT,
               "SETTING_COUNT (config_internal.h) counts the table");

const struct setting *const settings = table;

/* The setting of an option or INI key; '_' and '-' are the same in keys. */
const struct setting *find_setting(const char *name)
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

/* Only output and region may be given more than once: each adds one. */
int setting_is_repeatable(const struct setting *s)
{
    return s && (s->set == set_output || s->set == set_region);
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
int apply_setting(struct config *c, const struct setting *s, const char *value, char *why,
                  size_t n)
{
    long control = control_character_at(value, strlen(value));
    if (utf8_invalid_at(value, strlen(value)) >= 0)
        return error_status(EXIT_BAD_USAGE, why, n, "the value is not UTF-8 text");
    if (control >= 0)
        return error_status(EXIT_BAD_USAGE, why, n,
                            "control character 0x%02X at column %ld of the value",
                            (unsigned char)value[control], control + 1);
    return s->set(c, value, why, n);
}

int config_set(struct config *c, const char *name, const char *value, char *err,
               size_t errlen)
{
    const struct setting *s = find_setting(name);
    char why[WHY_MAX];
    if (!s)
        return error_status(EXIT_BAD_USAGE, err, errlen, "unknown setting '%s'", name);
    if (apply_setting(c, s, value, why, sizeof why) != 0)
        return error_status(EXIT_BAD_USAGE, err, errlen, "%s", why);
    return 0;
}

const char *backend_name(enum backend backend)
{
    static const char *names[] = {"auto", "gpu", "cpu", "serial"};
    return names[backend];
}

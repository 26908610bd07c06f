/*
 * config.c - the settings: the defaults, and the one table that gives each its long
 * option, INI key, section, help line and setter (setters.c), so that these can
 * never drift apart; config_set applies one setting by name.
 * The INI reader (config_ini.c), the command line (config_args.c) and the help
 * (config_help.c) are all driven by this table; config_internal.h lists the rest.
 */
#include "settings/config_internal.h"
#include "settings/setters.h"

#include <limits.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#define LATTICE_MAX (1L << 24)

/* ---- the table ----------------------------------------------------------- */

static const struct setting table[] = {
    {"nx", "problem", "N",
     "lattice sites in x, boundary included (default: ny when only ny is given, else "
     "256; over a CONFIG.ini's lattice it sets x alone, said on stderr)",
     NULL},
    {"ny", "problem", "N",
     "lattice sites in y, boundary included (default: nx when only nx is given, else "
     "256)",
     NULL},
    {"top", "problem", "V", "value on the top edge, y = ny-1 (default 1)", setter_top},
    {"bottom", "problem", "V", "value on the bottom edge, y = 0 (default 0)",
     setter_bottom},
    {"left", "problem", "V", "value on the left edge, x = 0 (default 0)", setter_left},
    {"right", "problem", "V", "value on the right edge, x = nx-1 (default 0)",
     setter_right},
    {"lx", "problem", "L", "width of the domain: dx = L/(nx-1) (default 1)", setter_lx},
    {"ly", "problem", "L",
     "height: dy = L/(ny-1) (default: square cells, dy = dx; 1 on square lattices)",
     setter_ly},
    {"source", "problem", "EXPR",
     "f(x,y) of the Poisson problem laplacian(u) = f (default 0: Laplace)",
     setter_source},
    {"exact", "problem", "EXPR",
     "a known solution u(x, y): the report gives the final field's error against it "
     "(max and l2)",
     setter_exact},
    {"region", "problem", "\"SHAPE ...\"",
     "hold sites fixed: \"rect X0 Y0 X1 Y1 V\" or \"disc CX CY R V\"; repeatable",
     set_region},
    {"precision", "problem", "float|double", "working precision (default double)", NULL},
    {"method", "solver", "jacobi|weighted|sor", "iteration (default jacobi)", NULL},
    {"omega", "solver", "W|auto",
     "relaxation: weighted 0<W<=1 (default 2/3), sor 1<=W<2 or auto (default)",
     setter_omega},
    {"eps", "solver", "E", "stop when the norm < E (default 1e-6)", setter_eps},
    {"norm", "solver", "l2|max|residual", "stopping norm, see below (default l2)", NULL},
    {"max-iter", "solver", "N",
     "stop after N iterations at most (default 10000000: the course's lattices to "
     "2048^2 at eps 1e-10; a run expected to need more than the default's or its "
     "file's is warned at its start)",
     NULL},
    {"check-every", "solver", "K",
     "compute and test the norm every K iterations (default 1)", NULL},
    {"steps", "solver", "N",
     "exactly N iterations (heat time steps), no convergence test", NULL},
    {"snapshot-every", "solver", "K",
     "also write every output at iterations K, 2K, ... as NAME-ITER.EXT", NULL},
    {"error-if-not-converged", "solver", NULL,
     "exit with status 1 when --max-iter ends a run before --eps (not with --steps)",
     NULL},
    {"backend", "parallel", "auto|gpu|cpu|serial",
     "gpu, cpu (host tiles) or serial (reference); auto: gpu if any (default auto)",
     NULL},
    {"partition", "parallel", "AxB|auto",
     "NGx x NGy tiles; auto: the GPUs that pay on this lattice, stacked in rows, or "
     "every CPU core (default auto)",
     setter_partition},
    {"devices", "parallel", "LIST",
     "CUDA device of each tile, e.g. 0,1,2,3 (default: 0,1,...); a device listed "
     "again holds several tiles (0,0: a 2-tile layout on one GPU); under MPI, of "
     "each tile of a rank (default: by the rank's place on its node)",
     setter_devices},
    {"ranks", "parallel", "RXxRY|auto",
     "under mpirun or srun: the tiles split into RX x RY blocks, one a rank "
     "(default auto: as square as the tiles allow)",
     setter_ranks},
    {"block", "parallel", "TXxTY|auto",
     "thread-block shape; host tiles: partial-sum block "
     "(default auto: 32x8; the rows kernel's grows with the tile: 32x4 up to 64 MiB "
     "a field, 64x4 up to 256 MiB, then 128x4; small tiles keep 32x8)",
     setter_block},
    {"kernel", "parallel", "NAME",
     "GPU sweep kernel, see below (default auto: rows, or the loop on chip for a "
     "lone plain-Jacobi tile that fits in the GPU's shared memory)",
     setter_kernel},
    {"reduce", "parallel", "host|device",
     "who adds the GPU block partial sums (default host; device is slower in "
     "batches: one more kernel a sweep)",
     NULL},
    {"loop", "parallel", "auto|host|batched|chip",
     "batched: the devices chain their sweeps, the host looks once a batch; "
     "host: at every iteration; chip: a lone GPU tile iterates in the shared "
     "memory of one cluster, or by plain Jacobi of every multiprocessor, also of "
     "tiles stacked in rows, a GPU each (--partition 1xN) (default auto: on chip "
     "or batched where it pays)",
     NULL},
    {"no-p2p", "parallel", NULL, "GPU edges by peer copies into halos, not peer reads",
     setter_no_p2p},
    {"compare", "parallel", NULL,
     "also solve on 1 device: speed-up, efficiency, field difference; under mpirun "
     "rank 0 solves it whole (refused where it cannot hold it) and each rank "
     "compares its part",
     NULL},
    {"compare-cpu", "parallel", NULL,
     "also solve on the host tiles (every core): speed-up; under mpirun on rank 0, "
     "as --compare",
     NULL},
    {"monitor", "output", "K",
     "print iteration, norm and time every K iterations (default 0: off)", NULL},
    {"history", "output", "FILE.csv",
     "write iteration, norm, elapsed seconds at every norm computed, and the run's "
     "eps",
     setter_history},
    {"csv", "output", NULL, "print a CSV header and one row instead of the report", NULL},
    {"csv-append", "output", "FILE",
     "also append the CSV row(s) to FILE, with the header only when FILE is new or "
     "empty: one table from several runs (a FILE with another header, or not ending "
     "in a newline, is refused; a row cut short is undone)",
     setter_csv_append},
    {"output", "output", "FILE",
     "write the field: .dat (course text, top row first), .vti (ParaView), .pvti "
     "(one .vti piece per tile, with a cell array 'tile' to colour by), .png (heat map, "
     "axes in site indices), .bin (raw, "
     "48-byte header), .npy "
     "(NumPy's np.load); repeatable",
     setter_output},
    {"png-tiles", "output", NULL, "draw the tile borders on .png outputs", NULL},
    {"png-range", "output", "LO:HI",
     "colours of .png outputs from LO to HI, the same for every snapshot (default: "
     "the field's own range)",
     setter_png_range},
    {"quiet", "output", NULL, "print nothing but errors", NULL},
    {"topology", NULL, NULL, "print the GPUs, their links and peer access, and exit",
     NULL},
    {"bench", NULL, NULL,
     "run the benchmark matrix, then the lattice sweep (1 GPU against all), into "
     "results/bench-*.csv and bench-*-sweep.csv; only --devices, -q apply, other "
     "options and a CONFIG.ini are refused (see below)",
     NULL},
    {"sides", NULL, "N1,N2,...",
     "the lab sweep: solve the problem on each N x N lattice in turn, print a row "
     "per side (with --csv the CSV rows; --csv-append collects them) and the "
     "exponents fitted to iterations and time against N on log-log axes "
     "(scripts/plot_lab.gp draws them; Ctrl-C prints the fit of the sides done); "
     "with --dry-run each side's iterations and time, and the total",
     setter_sides},
    {"print-config", NULL, NULL,
     "print the settings (INI file and options) as an INI file that reproduces the "
     "run (a name or formula INI cannot hold bare is quoted), and exit",
     NULL},
    {"dry-run", NULL, NULL,
     "make the plan, print the tiles, devices and memory per device and host, the "
     "iterations expected to eps (an estimate from the method's spectral radius) and "
     "the time they take at a warm-up's rate (of 0.3 s at least), and exit without "
     "solving; a run expected to take over a minute says so in its first line",
     NULL},
    {"help", NULL, NULL, "print this help and exit (also -h)", NULL},
    {"version", NULL, NULL, "print the version and the CUDA runtime, and exit (also -V)",
     NULL},
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
    return s && (s->set == setter_output || s->set == set_region);
}

void config_defaults(struct config *c)
{
    memset(c, 0, sizeof *c);
    c->tune = tuning_auto();
    c->problem =
        (struct problem){.nx = 256, .ny = 256, .top = 1.0, .precision = PRECISION_DOUBLE};
    c->eps = 1e-6;
    c->max_iter = 10000000;
    c->check_every = 1;
    c->backend = BACKEND_AUTO;
    c->partition_x = c->partition_y = 0; /* auto */
    c->block_x = c->block_y = 0;         /* auto */
    snprintf(c->kernel, sizeof c->kernel, "auto");
    c->use_p2p = 1;
}

/* Every enum field of struct config has int's size, so a choice's index can be
 * stored into it through plain_fields[]. */
_Static_assert(sizeof(enum precision) == sizeof(int) &&
                   sizeof(enum method) == sizeof(int) &&
                   sizeof(enum norm_kind) == sizeof(int) &&
                   sizeof(enum backend) == sizeof(int) &&
                   sizeof(enum reduce_mode) == sizeof(int) &&
                   sizeof(enum loop_mode) == sizeof(int),
               "choice settings are stored as int");

/*
 * The settings stored straight into a field of struct config, with no setter of
 * their own (NULL in the table): a count, a long from least to most; a choice
 * among the names of the setting's arg ("a|b|c", in the order of the field's
 * enum), stored as the name's index; or a flag, an int set by parse_bool.
 */
enum plain_kind { PLAIN_COUNT, PLAIN_CHOICE, PLAIN_FLAG };

static const struct plain_field {
    const char *name;
    size_t offset;
    enum plain_kind kind;
    long least, most; /* of a count */
} plain_fields[] = {
    {"nx", offsetof(struct config, problem.nx), PLAIN_COUNT, 3, LATTICE_MAX},
    {"ny", offsetof(struct config, problem.ny), PLAIN_COUNT, 3, LATTICE_MAX},
    {"max-iter", offsetof(struct config, max_iter), PLAIN_COUNT, 1, LONG_MAX},
    {"check-every", offsetof(struct config, check_every), PLAIN_COUNT, 1, LONG_MAX},
    {"steps", offsetof(struct config, steps), PLAIN_COUNT, 1, LONG_MAX},
    {"snapshot-every", offsetof(struct config, snapshot_every), PLAIN_COUNT, 1, LONG_MAX},
    {"monitor", offsetof(struct config, monitor_every), PLAIN_COUNT, 0, LONG_MAX},
    {"precision", offsetof(struct config, problem.precision), PLAIN_CHOICE, 0, 0},
    {"method", offsetof(struct config, method), PLAIN_CHOICE, 0, 0},
    {"norm", offsetof(struct config, norm), PLAIN_CHOICE, 0, 0},
    {"backend", offsetof(struct config, backend), PLAIN_CHOICE, 0, 0},
    {"reduce", offsetof(struct config, reduce), PLAIN_CHOICE, 0, 0},
    {"loop", offsetof(struct config, loop), PLAIN_CHOICE, 0, 0},
    {"compare", offsetof(struct config, compare), PLAIN_FLAG, 0, 0},
    {"compare-cpu", offsetof(struct config, compare_cpu), PLAIN_FLAG, 0, 0},
    {"csv", offsetof(struct config, csv), PLAIN_FLAG, 0, 0},
    {"quiet", offsetof(struct config, quiet), PLAIN_FLAG, 0, 0},
    {"png-tiles", offsetof(struct config, png_tiles), PLAIN_FLAG, 0, 0},
    {"help", offsetof(struct config, show_help), PLAIN_FLAG, 0, 0},
    {"version", offsetof(struct config, show_version), PLAIN_FLAG, 0, 0},
    {"topology", offsetof(struct config, show_topology), PLAIN_FLAG, 0, 0},
    {"bench", offsetof(struct config, bench), PLAIN_FLAG, 0, 0},
    {"error-if-not-converged", offsetof(struct config, error_if_not_converged),
     PLAIN_FLAG, 0, 0},
    {"print-config", offsetof(struct config, print_config), PLAIN_FLAG, 0, 0},
    {"dry-run", offsetof(struct config, dry_run), PLAIN_FLAG, 0, 0},
};

static const struct plain_field *plain_field_of(const struct setting *s)
{
    for (size_t i = 0; i < sizeof plain_fields / sizeof plain_fields[0]; i++)
        if (strcmp(plain_fields[i].name, s->name) == 0)
            return &plain_fields[i];
    return NULL;
}

int setting_set(struct config *c, const struct setting *s, const char *value, char *err,
                size_t n)
{
    const struct plain_field *f = s->set ? NULL : plain_field_of(s);
    char *field = f ? (char *)c + f->offset : NULL;
    if (!f)
        return s->set(c, value, err, n);
    if (f->kind == PLAIN_COUNT)
        return parse_long(value, f->least, f->most, (long *)(void *)field, err, n);
    if (f->kind == PLAIN_FLAG)
        return parse_bool(value, (int *)(void *)field, err, n);
    int index = parse_choice(value, s->arg, err, n);
    if (index < 0)
        return EXIT_BAD_USAGE;
    memcpy(field, &index, sizeof index);
    return 0;
}

/* A value from the command line or config_set: UTF-8 text without control
 * characters (else never echoed), then the setting's own checks. */
int apply_setting(struct config *c, const struct setting *s, const char *value, char *err,
                  size_t n)
{
    long control = control_character_at(value, strlen(value));
    if (utf8_invalid_at(value, strlen(value)) >= 0)
        return error_status(EXIT_BAD_USAGE, err, n, "the value is not UTF-8 text");
    if (control >= 0)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "control character 0x%02X at column %ld of the value",
                            (unsigned char)value[control], control + 1);
    return setting_set(c, s, value, err, n);
}

int config_set(struct config *c, const char *name, const char *value, char *err, size_t n)
{
    const struct setting *s = find_setting(name);
    char why[WHY_MAX];
    if (!s)
        return error_status(EXIT_BAD_USAGE, err, n, "unknown setting '%s'", name);
    if (apply_setting(c, s, value, why, sizeof why) != 0)
        return error_status(EXIT_BAD_USAGE, err, n, "%s", why);
    return 0;
}

const char *backend_name(enum backend backend)
{
    static const char *names[] = {"auto", "gpu", "cpu", "serial"};
    return names[backend];
}

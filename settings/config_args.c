/*
 * config_args.c - the command line (config_from_args): getopt_long over the options
 * of the table, the one positional argument as the INI file, read first, then the
 * options applied in their order, so that they override the file. An INI file named
 * bare that the current folder lacks is looked for among the presets (presets.h).
 */
#include "settings/config_internal.h"
#include "settings/presets.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

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

/* The edit distance (insertions, deletions, substitutions) of a and b, counted up
 * to 64 characters of each. */
static int edit_distance(const char *a, const char *b)
{
    int la = (int)strnlen(a, 64), lb = (int)strnlen(b, 64);
    int row[65];
    for (int j = 0; j <= lb; j++)
        row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diagonal = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int above = row[j];
            int best = diagonal + (a[i - 1] != b[j - 1]);
            if (above + 1 < best)
                best = above + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

/* NVIDIA's multi-GPU samples' single-dash names whose long option here is spelt
 * otherwise (-nx, -ny and -csv are ours with two dashes). */
static const char *const sample_names[][2] = {
    {"niter", "max-iter"},
    {"nccheck", "check-every"},
};

/* The long option nearest a misspelt --word or -word (its name before any '='), or
 * NULL when none is close: the option itself when only a dash is missing, one of
 * NVIDIA's samples' names, else at most 2 edits and fewer than half of its letters. */
static const char *nearest_option(const char *word)
{
    char name[65];
    const char *best = NULL;
    int best_distance = 3, dashes = strncmp(word, "--", 2) == 0 ? 2 : 1;
    if (word[0] != '-')
        return NULL;
    snprintf(name, sizeof name, "%.*s", (int)strcspn(word + dashes, "="), word + dashes);
    size_t samples = dashes == 1 ? sizeof sample_names / sizeof sample_names[0] : 0;
    for (size_t i = 0; i < samples; i++)
        if (strcmp(name, sample_names[i][0]) == 0)
            return sample_names[i][1];
    for (int i = 0; i < SETTING_COUNT; i++) {
        int d = edit_distance(name, settings[i].name);
        if (d < best_distance && 2 * d < (int)strlen(name)) {
            best = settings[i].name;
            best_distance = d;
        }
    }
    return best;
}

/* The word of an unknown short option (optopt): getopt moves optind past a word
 * only once its last letter is read, so "-nx" is still argv[optind] when 'n' is
 * refused, while a finished "-qn" is argv[optind - 1]. 'first' is the index of
 * the first word this getopt call could have read. */
static const char *refused_short_word(int argc, char **argv, int first)
{
    if (optind - 1 >= first) {
        const char *last = argv[optind - 1];
        size_t len = strlen(last);
        if (last[0] == '-' && last[1] != '-' && len > 1 && last[len - 1] == optopt)
            return last;
    }
    return optind < argc ? argv[optind] : argv[argc - 1];
}

/* A word getopt_long refused: a flag given a value (--compare=yes), or unknown (with
 * the nearest option's name when it is misspelt, on the same line). */
static int refuse_option(const char *word, char *err, size_t n)
{
    char shown[CONFIG_PATH_MAX]; /* the word as the message echoes it (error_quote) */
    error_quote(word, shown, sizeof shown);
    const char *equals = strchr(word, '=');
    if (strncmp(word, "--", 2) == 0 && equals)
        for (int i = 0; i < SETTING_COUNT; i++)
            if (!settings[i].arg &&
                strlen(settings[i].name) == (size_t)(equals - word - 2) &&
                strncmp(settings[i].name, word + 2, (size_t)(equals - word - 2)) == 0)
                return error_status(EXIT_BAD_USAGE, err, n,
                                    "option '--%s' takes no value, got '%s'",
                                    settings[i].name, shown);
    if (utf8_invalid_at(word, strlen(word)) >= 0)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "unknown option, not UTF-8 text (see --help)");
    const char *near = nearest_option(word);
    if (near)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "unknown option '%s'; did you mean '--%s'? (see --help)",
                            shown, near);
    return error_status(EXIT_BAD_USAGE, err, n, "unknown option '%s' (see --help)",
                        shown);
}

/* A value that is the next option itself ("--nx --ny 5": --nx took "--ny"). */
static int is_option_name(const char *word)
{
    char name[64];
    if (strncmp(word, "--", 2) != 0)
        return 0;
    snprintf(name, sizeof name, "%.*s", (int)strcspn(word + 2, "="), word + 2);
    return name[0] && find_setting(name) != NULL;
}

static int read_options(int argc, char **argv, struct seen_option *seen, int *count,
                        const char **file, char *err, size_t n)
{
    struct option opts[SETTING_COUNT + 1];
    build_long_options(opts);
    opterr = 0;
    optind = 0;
    *count = 0;
    int code, first = 1;
    while ((code = getopt_long(argc, argv, ":qhV", opts, NULL)) != -1) {
        const char *bad = argv[optind - 1];
        if (code == '?')
            return refuse_option(optopt ? refused_short_word(argc, argv, first) : bad,
                                 err, n);
        if (code == ':')
            return error_status(EXIT_BAD_USAGE, err, n,
                                "option '%s' needs a value (see --help)", bad);
        const struct setting *s = code == 'q'   ? find_setting("quiet")
                                  : code == 'h' ? find_setting("help")
                                  : code == 'V' ? find_setting("version")
                                                : &settings[code - 1000];
        if (s->arg && optarg == argv[optind - 1] && is_option_name(optarg))
            return error_status(EXIT_BAD_USAGE, err, n,
                                "option '--%s' needs a value, got the option '%s' (see "
                                "--help)",
                                s->name, optarg);
        seen[(*count)++] = (struct seen_option){s, s->arg ? optarg : "true"};
        first = optind;
    }
    if (argc - optind > 1) {
        char first[CONFIG_PATH_MAX / 2], second[CONFIG_PATH_MAX / 2];
        return error_status(EXIT_BAD_USAGE, err, n,
                            "more than one config file given: '%s' and '%s'",
                            error_quote(argv[optind], first, sizeof first),
                            error_quote(argv[optind + 1], second, sizeof second));
    }
    *file = optind < argc ? argv[optind] : NULL;
    return 0;
}

/* A side given alone (by the file or an option) is the other's too: --nx 16 is
 * 16 x 16, not 16 x 256; neither given, the defaults stay. Both are 0 until then. */
static void square_a_lone_side(struct config *c, long default_nx, long default_ny)
{
    struct problem *p = &c->problem;
    if (p->nx == 0 && p->ny == 0)
        p->nx = default_nx, p->ny = default_ny;
    else if (p->ny == 0)
        p->ny = p->nx;
    else if (p->nx == 0)
        p->nx = p->ny;
}

/* 1 for --nx, 2 for --ny, 0 for any other option. */
static int side_bit(const char *name)
{
    return strcmp(name, "nx") == 0 ? 1 : strcmp(name, "ny") == 0 ? 2 : 0;
}

/* The side of the square lattice the INI file set (one side alone squares it), so
 * that one side typed over it can be said to make it oblong (main.c). */
static void note_file_side(struct config *c)
{
    const struct problem *p = &c->problem;
    c->file_side = p->nx == p->ny || !p->nx || !p->ny ? (p->nx ? p->nx : p->ny) : 0;
}

/* --bench runs its own matrix and sweep: of the options only --devices and -q (and
 * --help, --version, which come first) apply; anything else, a CONFIG.ini too, would
 * be silently ignored, so it is refused. */
static int refuse_for_bench(const struct seen_option *seen, int count, const char *file,
                            char *err, size_t n)
{
    static const char *used[] = {"bench", "devices", "quiet", "help", "version"};
    int bench = 0;
    for (int i = 0; i < count; i++)
        bench |= strcmp(seen[i].setting->name, "bench") == 0;
    if (!bench)
        return 0;
    if (file)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--bench runs its own configurations: it takes no CONFIG.ini "
                            "(only --devices and -q apply)");
    for (int i = 0; i < count; i++) {
        size_t k = 0;
        while (k < sizeof used / sizeof used[0] && strcmp(seen[i].setting->name, used[k]))
            k++;
        if (k == sizeof used / sizeof used[0])
            return error_status(EXIT_BAD_USAGE, err, n,
                                "--%s: --bench runs its own configurations and does not "
                                "use it (only --devices and -q apply)",
                                seen[i].setting->name);
    }
    return 0;
}

int config_from_args(struct config *c, int argc, char **argv, char *err, size_t n)
{
    long default_nx = c->problem.nx, default_ny = c->problem.ny;
    size_t most = (size_t)argc + 1; /* options seen at most: -qhq is three in one */
    for (int i = 1; i < argc; i++)
        most += strlen(argv[i]);
    struct seen_option *seen = calloc(most, sizeof *seen);
    const char *file = NULL;
    int count = 0, rc, typed_side = 0;
    if (!seen)
        return error_status(EXIT_BAD_USAGE, err, n, "out of memory");
    rc = read_options(argc, argv, seen, &count, &file, err, n);
    if (rc == 0)
        rc = refuse_for_bench(seen, count, file, err, n);
    c->problem.nx = c->problem.ny = 0; /* not given yet (a side is at least 3) */
    char preset[CONFIG_PATH_MAX];      /* a bare name found among the presets */
    if (rc == 0 && file && presets_find(file, preset, sizeof preset) == 0)
        rc = config_load_file(c, preset, err, n);
    else if (rc == 0 && file)
        rc = presets_refuse_missing(file, err, n) != 0
                 ? EXIT_BAD_USAGE
                 : config_load_file(c, file, err, n);
    note_file_side(c);
    for (int i = 0; rc == 0 && i < count; i++) {
        char why[WHY_MAX];
        c->max_iter_typed |= strcmp(seen[i].setting->name, "max-iter") == 0;
        typed_side |= side_bit(seen[i].setting->name);
        if (apply_setting(c, seen[i].setting, seen[i].value, why, sizeof why) != 0)
            rc = error_status(EXIT_BAD_USAGE, err, n, "--%s: %s", seen[i].setting->name,
                              why);
    }
    if (rc == 0 && c->side_count > 0 && typed_side)
        rc = error_status(EXIT_BAD_USAGE, err, n,
                          "--sides sets nx and ny of each run; drop --nx and --ny");
    free(seen);
    c->typed_side = typed_side == 1 ? 'x' : typed_side == 2 ? 'y' : 0;
    square_a_lone_side(c, default_nx, default_ny);
    return rc;
}

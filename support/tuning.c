/*
 * tuning.c - LAPLACE_TUNE, the GPU loops' tuning knobs (tuning.h): its one reader.
 * Each knob is a row of `knobs`: its key, where it goes, its range or its words.
 */
#include "support/tuning.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/error.h"

/* One knob: a whole number from least to most, or one of `words` (value = index). */
struct knob {
    const char *key;
    size_t offset; /* in struct tuning */
    long least, most;
    const char *words[2];
};

#define KNOB(name, lo, hi)                                                               \
    {                                                                                    \
#name, offsetof(struct tuning, name), lo, hi,                                    \
        {                                                                                \
            NULL, NULL                                                                   \
        }                                                                                \
    }
static const struct knob knobs[] = {
    {"chip_way", offsetof(struct tuning, chip_way), 1, 2, {"cluster", "spread"}},
    KNOB(chip_depth, 0, 8),
    KNOB(spread_depth, 0, 4),
    KNOB(spread_lag, 1, 4),
    KNOB(spread_blocks, 2, 160),
    KNOB(spread_columns, 0, 1),
    KNOB(spread_unroll, 3, 4),
    {"sweep_order", offsetof(struct tuning, sweep_order), 0, 1, {"forward", "alternate"}},
    KNOB(pairs, 0, 1),
    {"pass_meeting", offsetof(struct tuning, pass_meeting), 0, 1, {"graph", "flags"}},
    KNOB(breakdown, 0, 1),
};
#undef KNOB
#define KNOB_COUNT (sizeof knobs / sizeof knobs[0])

struct tuning tuning_auto(void)
{
    struct tuning t;
    for (size_t i = 0; i < KNOB_COUNT; i++)
        *(int *)((char *)&t + knobs[i].offset) = TUNING_AUTO;
    return t;
}

static const struct knob *knob_named(const char *key, size_t length)
{
    for (size_t i = 0; i < KNOB_COUNT; i++)
        if (strlen(knobs[i].key) == length && strncmp(knobs[i].key, key, length) == 0)
            return &knobs[i];
    return NULL;
}

/* The value of knob k written as `text` (length bytes): 0 and *value, or -1. */
static int value_of(const struct knob *k, const char *text, size_t length, long *value)
{
    if (k->words[0]) {
        for (int w = 0; w < 2; w++)
            if (strlen(k->words[w]) == length && strncmp(k->words[w], text, length) == 0)
                return *value = k->least + w, 0;
        return -1;
    }
    char digits[24];
    if (length == 0 || length >= sizeof digits)
        return -1;
    memcpy(digits, text, length);
    digits[length] = '\0';
    char *end = NULL;
    errno = 0;
    *value = strtol(digits, &end, 10);
    return *end == '\0' && errno == 0 && *value >= k->least && *value <= k->most ? 0 : -1;
}

/* What knob k takes, for a refusal: "cluster or spread", "0 to 8". */
static void allowed(const struct knob *k, char *out, size_t n)
{
    if (k->words[0])
        snprintf(out, n, "%s or %s", k->words[0], k->words[1]);
    else
        snprintf(out, n, "a whole number from %ld to %ld", k->least, k->most);
}

/* One "key=value" of length bytes into out; 0, or -1 with err set. */
static int parse_item(const char *item, size_t length, struct tuning *out, char *err,
                      size_t n)
{
    const char *eq = memchr(item, '=', length);
    const size_t key_length = eq ? (size_t)(eq - item) : length;
    const struct knob *k = knob_named(item, key_length);
    char quoted[64];
    snprintf(quoted, sizeof quoted, "%.*s", (int)(length < 48 ? length : 48), item);
    if (!k) {
        char keys[256] = "";
        for (size_t i = 0; i < KNOB_COUNT; i++)
            snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%s",
                     i ? ", " : "", knobs[i].key);
        return error_set(err, n, "%s: unknown knob '%.*s' (knobs: %s)", TUNING_VARIABLE,
                         (int)(key_length < 48 ? key_length : 48), item, keys);
    }
    long value = 0;
    char what[64];
    allowed(k, what, sizeof what);
    if (!eq)
        return error_set(err, n, "%s: '%s' is not KEY=VALUE (%s takes %s)",
                         TUNING_VARIABLE, quoted, k->key, what);
    if (value_of(k, eq + 1, length - key_length - 1, &value) != 0)
        return error_set(
            err, n, "%s: %s takes %s, not '%.*s'", TUNING_VARIABLE, k->key, what,
            (int)(length - key_length - 1 < 32 ? length - key_length - 1 : 32), eq + 1);
    *(int *)((char *)out + k->offset) = (int)value;
    return 0;
}

int tuning_parse(const char *text, struct tuning *out, char *err, size_t n)
{
    *out = tuning_auto();
    if (!text)
        return 0;
    for (const char *item = text; *item;) {
        const char *comma = strchr(item, ',');
        const size_t length = comma ? (size_t)(comma - item) : strlen(item);
        if (parse_item(item, length, out, err, n) != 0)
            return -1;
        item += length + (comma ? 1 : 0);
        if (comma && !*item)
            return error_set(err, n, "%s: a comma ends the list", TUNING_VARIABLE);
    }
    return 0;
}

/* The variables that read a knob before LAPLACE_TUNE, and the key that replaced each
 * ("": its experiment concluded and its default stays, with the code). */
static const char *const retired[][2] = {
    {"LAPLACE_CHIP_WAY", "chip_way"},
    {"LAPLACE_CHIP_DEPTH", "chip_depth"},
    {"LAPLACE_SPREAD_DEPTH", "spread_depth"},
    {"LAPLACE_SPREAD_LAG", "spread_lag"},
    {"LAPLACE_SPREAD_BLOCKS", "spread_blocks"},
    {"LAPLACE_SPREAD_COLUMNS", "spread_columns"},
    {"LAPLACE_SPREAD_UNROLL", "spread_unroll"},
    {"LAPLACE_SWEEP_ORDER", "sweep_order"},
    {"LAPLACE_PAIRS", "pairs"},
    {"LAPLACE_ROWS_PER_THREAD", ""},
    {"LAPLACE_COLUMNS_PER_THREAD", ""},
    {"LAPLACE_OVERLAP", ""},
    {"LAPLACE_CHIP_THREADS", ""},
    {"LAPLACE_CHIP_BLOCKS", ""},
    {"LAPLACE_SPREAD_THREADS", ""},
    {"LAPLACE_PAIRS_ROWS", ""},
    {"LAPLACE_PAIRS_AHEAD", ""},
};

/* A retired variable set (an experiment would measure the default believing it
 * measured the variant): -1 with err naming it and what replaced it, else 0. */
static int refuse_retired(char *err, size_t n)
{
    for (size_t i = 0; i < sizeof retired / sizeof retired[0]; i++) {
        const char *value = getenv(retired[i][0]);
        if (!value || !*value)
            continue;
        if (retired[i][1][0])
            return error_set(err, n, "%s is no longer read: set %s=%s=VALUE",
                             retired[i][0], TUNING_VARIABLE, retired[i][1]);
        return error_set(err, n,
                         "%s is no longer read: its experiment concluded and the default "
                         "stays (results/)",
                         retired[i][0]);
    }
    return 0;
}

int tuning_read(struct tuning *out, char *err, size_t n)
{
    *out = tuning_auto();
    if (refuse_retired(err, n) != 0)
        return -1;
    return tuning_parse(getenv(TUNING_VARIABLE), out, err, n);
}

const char *tuning_help(void)
{
    return "  LAPLACE_TUNE=KEY=VALUE[,...]     the GPU loops' knobs (experiments and "
           "the\n"
           "                                   GPU suite; unset: the loop plan's "
           "choice):\n"
           "      chip_way=cluster|spread      the loop on chip takes only that way\n"
           "      chip_depth=0..8              the cluster's rounds (0: every "
           "iteration)\n"
           "      spread_depth=0..4, spread_lag=1..4   the spread strips' halo rows and\n"
           "                                   how late their decision may come\n"
           "      spread_blocks=2..160         the spread strips' blocks\n"
           "      spread_columns=0             fields in shared memory, not columns\n"
           "      spread_unroll=3|4            rows a spread thread walks at a time\n"
           "      sweep_order=forward|alternate  the rows kernel's order of block rows\n"
           "      pairs=0|1                    passes of two iterations: never, or\n"
           "                                   wherever a lone tile's batches run\n"
           "      pass_meeting=graph|flags     how GPUs stacked in rows meet once a\n"
           "                                   pass: one graph's edges (auto), or peer\n"
           "                                   flags where each GPU holds one tile\n"
           "      breakdown=1                  time every pass of two in the batches'\n"
           "                                   graphs (CUDA events); the report says\n"
           "                                   where an iteration's time went\n";
}

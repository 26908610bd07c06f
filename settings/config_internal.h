/*
 * config_internal.h - what the config_*.c files share and nothing else does: the
 * table of settings (config.c), the checks of bytes and the parsers of one value
 * (config_parse.c), the fixed regions (config_region.c), and how a setting is
 * looked up and applied. config.h is the interface the rest of the program uses.
 *
 *   config_parse.c     bytes (UTF-8, control characters) and values (numbers, AxB)
 *   config_region.c    [region NAME] keys and --region
 *   config.c           defaults, the table, config_set
 *   setters.c          one setter per setting that needs more than a plain field
 *   config_ini.c       INI files: our line reader around inih, file:line errors
 *   config_args.c      the command line (getopt_long)
 *   config_validate.c  relations between settings, and the update rule they make
 *   config_help.c      the help text, drawn from the table
 */
#ifndef LAPLACE_CONFIG_INTERNAL_H
#define LAPLACE_CONFIG_INTERNAL_H

#include <stddef.h>

#include "settings/config.h"
#include "support/error.h"

#define WHY_MAX 400 /* why a value was refused, without the name */

/* Parses value into the setting; on failure writes err (without the name). */
typedef int (*setter_fn)(struct config *c, const char *value, char *err, size_t n);

struct setting {
    const char *name;    /* long option and INI key */
    const char *section; /* INI section; NULL: command line only */
    const char *arg;     /* the argument as shown in the help; NULL for a flag */
    const char *help;    /* one line, the default included */
    setter_fn set;       /* NULL: a plain count or choice, stored by setting_set */
};

/* ---- config.c: the table ------------------------------------------------- */

#define SETTING_COUNT 47 /* entries of the table (config.c checks the count) */

/* Every setting, SETTING_COUNT of them, in the order of the help. */
extern const struct setting *const settings;

/* The setting of an option or INI key; '_' and '-' are the same in keys. */
const struct setting *find_setting(const char *name);

/* Parses value into the setting: its setter, or its choice of names. Returns 0,
 * or EXIT_BAD_USAGE with err set (without the name). */
int setting_set(struct config *c, const struct setting *s, const char *value, char *err,
                size_t n);

/* Only output and region may be given more than once: each adds one. */
int setting_is_repeatable(const struct setting *s);

/* A value from the command line or config_set: UTF-8 text without control
 * characters (else never echoed), then the setting's own checks. */
int apply_setting(struct config *c, const struct setting *s, const char *value, char *err,
                  size_t n);

/* ---- config_parse.c: bytes and values ------------------------------------ */

/* The index of v among the names of choices ("a|b|c", in the enum's order), or -1
 * with err saying "expected a, b or c, got 'v'". */
int parse_choice(const char *v, const char *choices, char *err, size_t n);

/* utf8_invalid_at (the bytes of a value) is error.h's, shared with error_quote. */

/* The offset of the first control character of text other than a tab, or -1: a
 * value echoed in a message must keep it to one line and leave the terminal alone. */
long control_character_at(const char *text, size_t length);

/* Each parses the whole of value or returns EXIT_BAD_USAGE with err set. */
int parse_long(const char *value, long min, long max, long *out, char *err, size_t n);
int parse_int(const char *value, int min, int max, int *out, char *err, size_t n);
int parse_double(const char *value, double *out, char *err, size_t n); /* finite */

/* The shortest of 15 to 17 digits that reads back to v, in buf (NUMBER_TEXT_MAX
 * bytes): how --print-config writes numbers and messages quote them (1.0000001,
 * never a rounded "1"). */
#define NUMBER_TEXT_MAX 32
const char *number_text(double v, char *buf);

/* Refuses a decimal number a double cannot hold (too large, or below the smallest
 * normal double, as 1e-320): EXIT_BAD_USAGE with err saying so. */
int number_out_of_range(const char *value, char *err, size_t n);
int parse_bool(const char *value, int *out, char *err, size_t n); /* true/yes/on/1 ... */
int parse_pair(const char *value, int max, int *a, int *b, char *err, size_t n); /* AxB */

/* ---- config_region.c: fixed regions -------------------------------------- */

/* The region of that name, added if new; NULL when there are too many. */
struct region *region_named(struct problem *p, const char *name);

/* One key of a [region NAME] section. */
int set_region_key(struct region *r, const char *key, const char *v, char *err, size_t n);

/* Whether a region has every key its shape needs; err names the first missing. */
int region_complete(const struct region *r, char *err, size_t n);

/* The setter of --region "rect X0 Y0 X1 Y1 VALUE" or "disc CX CY R VALUE". */
int set_region(struct config *c, const char *v, char *err, size_t n);

#endif

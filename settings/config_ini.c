/*
 * config_ini.c - INI files (config_load_file).
 *
 * inih parses the lines, but our reader hands them to it one at a time, so that we
 * know the line inih is on (the Debian build gives the handler no line number) and
 * can refuse, with file:line, what inih would let through: a line longer than inih's
 * buffer (inih would split it and read the rest as a line of its own), a NUL byte
 * (the rest of the line would vanish), bytes that are not UTF-8, an unknown section
 * (even one without keys) and text after a section's ']'. The handler refuses a
 * key given twice in a section and an indented line after a key, which inih
 * would read as a continuation of that key's value (multi-line values).
 * An empty file, or one of comments and blank lines only, means "all defaults".
 * Each key = value goes to the setter of the table (config.c), a region's keys to
 * config_region.c. A quoted value (ini_value.h) may go on over indented quoted
 * lines: it is applied once its last line is read, its errors named at its first.
 */
#include "settings/config_internal.h"
#include "settings/ini_value.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    struct ini_quoted {           /* a quoted value, kept until its last line */
        int line;                 /* its key's line; 0: none */
        char section[64], key[64];
        char text[CONFIG_PATH_MAX + EXPRESSION_MAX];
        size_t used;
    } quoted;
};

/* Keeps the first error and its line; the reader stops at it. */
static void ini_vfail(struct ini_context *ctx, int line, const char *format, va_list args)
{
    if (ctx->error_line)
        return;
    vsnprintf(ctx->why, sizeof ctx->why, format, args);
    ctx->error_line = line;
}

static void ini_fail_at(struct ini_context *ctx, int line, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void ini_fail_at(struct ini_context *ctx, int line, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    ini_vfail(ctx, line, format, args);
    va_end(args);
}

/* The same at the line inih is on. */
static void ini_fail(struct ini_context *ctx, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void ini_fail(struct ini_context *ctx, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    ini_vfail(ctx, ctx->line, format, args);
    va_end(args);
}

/* A [region NAME] header: the region, made now so that one without keys is missed. */
static void ini_region_section(struct ini_context *ctx, const char *name)
{
    struct problem *p = &ctx->config->problem;
    struct region *r = NULL;
    if (name[0] == '\0' || strlen(name) >= sizeof r->name)
        ini_fail(ctx,
                 "[region %s]: a region needs a name of 1 to %zu bytes (ASCII letters "
                 "take one byte each, other UTF-8 characters 2 to 4)",
                 name, sizeof r->name - 1);
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

/* The column of a UTF-8 byte-order mark (U+FEFF, invisible) past the file's first
 * bytes, or 0: echoed in a message it would read "unknown key 'nx'". */
static long ini_bom_column(const struct ini_context *ctx, const char *line)
{
    const char *from =
        ctx->line == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0 ? line + 3 : line;
    const char *bom = strstr(from, "\xef\xbb\xbf");
    return bom ? (long)(bom - line) + 1 : 0;
}

/* Refuses a line with bytes that are not UTF-8, a NUL or another control character
 * (a tab excepted; the reader drops a CRLF's '\r') or a byte-order mark past the
 * file's start; names the first by its column. */
static void ini_check_bytes(struct ini_context *ctx, const char *line, long length)
{
    long control = control_character_at(line, (size_t)length);
    long bad = utf8_invalid_at(line, (size_t)length), bom = 0;
    if (control < 0 && bad < 0 && (bom = ini_bom_column(ctx, line)) > 0)
        ini_fail(ctx,
                 "an invisible byte-order mark (U+FEFF) at column %ld; only the file's "
                 "first bytes may hold one (remove it)",
                 bom);
    else if (control >= 0 && (bad < 0 || control < bad) && line[control] == '\0')
        ini_fail(ctx, "a NUL byte at column %ld", control + 1);
    else if (control >= 0 && (bad < 0 || control < bad))
        ini_fail(ctx, "control character 0x%02X at column %ld",
                 (unsigned char)line[control], control + 1);
    else if (bad >= 0)
        ini_fail(ctx, "byte 0x%02X at column %ld is not UTF-8 (save the file as UTF-8)",
                 (unsigned char)line[bad], bad + 1);
}

/* After a '\r': whether the line ends there (a '\n' or the end of the file, which
 * is consumed); else the byte is put back. */
static int ini_line_ends(FILE *file)
{
    int next = getc(file);
    if (next == '\n' || next == EOF)
        return 1;
    ungetc(next, file);
    return 0;
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
        if (c == '\r' && ini_line_ends(ctx->file))
            break; /* a CRLF's '\r' is not text: it counts against no limit */
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

/* Refuses an indented line after a key (inih: a continuation of its value) and a
 * key given twice in one section. */
static int ini_check_repeat(struct ini_context *ctx, const char *section, const char *key,
                            char *err, size_t n)
{
    char name[sizeof ctx->keys[0].name];
    if (ctx->line_is_indented && ctx->last_key[0])
        return error_status(EXIT_BAD_USAGE, err, n,
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
            return error_status(EXIT_BAD_USAGE, err, n,
                                "given twice in [%s]: first at line %d, again here",
                                section, ctx->keys[k].line);
    if (ctx->key_count == INI_KEYS_MAX)
        return error_status(EXIT_BAD_USAGE, err, n, "more than %d keys in one file",
                            INI_KEYS_MAX);
    ctx->keys[ctx->key_count++] = (struct ini_key_seen){.line = ctx->line};
    snprintf(ctx->keys[ctx->key_count - 1].name, sizeof name, "%s", name);
    return 0;
}

/* A key of a [region NAME] section (the reader checked the name). */
static int ini_region_entry(struct config *c, const char *name, const char *key,
                            const char *value, char *err, size_t n)
{
    struct region *r = region_named(&c->problem, name);
    if (!r)
        return error_status(EXIT_BAD_USAGE, err, n, "at most %d regions", REGIONS_MAX);
    return set_region_key(r, key, value, err, n);
}

/* One key = value of a section. */
static int ini_apply(struct config *c, const char *section, const char *key,
                     const char *value, char *err, size_t n)
{
    const struct setting *s = find_setting(key);
    if (strncmp(section, "region ", 7) == 0)
        return ini_region_entry(c, section + 7, key, value, err, n);
    if (section[0] == '\0')
        return error_status(EXIT_BAD_USAGE, err, n, "'%s' is outside a section", key);
    if (!s || !s->section)
        return error_status(EXIT_BAD_USAGE, err, n, "unknown key '%s' in [%s]", key,
                            section);
    if (strcmp(s->section, section) != 0)
        return error_status(EXIT_BAD_USAGE, err, n, "'%s' belongs in [%s], not [%s]", key,
                            s->section, section);
    return setting_set(c, s, value, err, n);
}

/* The quoted value kept so far, applied and forgotten; its errors at its line. */
static void ini_apply_quoted(struct ini_context *ctx)
{
    struct ini_quoted *q = &ctx->quoted;
    char why[WHY_MAX];
    if (q->line && !ctx->error_line &&
        ini_apply(ctx->config, q->section, q->key, q->text, why, sizeof why) != 0)
        ini_fail_at(ctx, q->line, "%s: %s", q->key, why);
    q->line = 0;
}

/* A quoted value's first line, or (indented, right after) one that continues it. */
static void ini_add_quoted(struct ini_context *ctx, const char *section, const char *key,
                           const char *value)
{
    struct ini_quoted *q = &ctx->quoted;
    char why[WHY_MAX];
    if (!q->line) {
        q->line = ctx->line;
        q->used = 0;
        snprintf(q->section, sizeof q->section, "%s", section);
        snprintf(q->key, sizeof q->key, "%s", key);
    }
    if (ini_value_unquote(value, q->text, sizeof q->text, &q->used, why, sizeof why))
        ini_fail(ctx, "%s: %s", key, why);
}

/* inih's handler: 1 when the key is taken, 0 on the first error. */
static int ini_entry(void *user, const char *section, const char *key, const char *value)
{
    struct ini_context *ctx = user;
    char why[WHY_MAX];
    int quoted = ini_value_is_quoted(value);
    if (ctx->error_line)
        return 0;
    if (quoted && ctx->line_is_indented && ctx->quoted.line) {
        ini_add_quoted(ctx, section, key, value); /* it goes on */
        return !ctx->error_line;
    }
    ini_apply_quoted(ctx); /* the value before this line is whole */
    if (ctx->error_line)
        return 0;
    if (ini_check_repeat(ctx, section, key, why, sizeof why) != 0 ||
        (!quoted && ini_apply(ctx->config, section, key, value, why, sizeof why) != 0))
        return ini_fail(ctx, "%s: %s", key, why), 0;
    if (quoted)
        ini_add_quoted(ctx, section, key, value);
    snprintf(ctx->last_key, sizeof ctx->last_key, "%s", key);
    ctx->last_key_line = ctx->line;
    return !ctx->error_line;
}

/* Every region of the file has the keys of its shape; named at its section's line. */
static int ini_regions_complete(const struct config *c, const struct ini_context *ctx,
                                const char *path, char *err, size_t n)
{
    char why[WHY_MAX];
    for (int k = 0; k < c->problem.region_count; k++) {
        if (region_complete(&c->problem.regions[k], why, sizeof why) == 0)
            continue;
        if (ctx->region_line[k] > 0)
            return error_status(EXIT_BAD_USAGE, err, n, "%s:%d: %s", path,
                                ctx->region_line[k], why);
        return error_status(EXIT_BAD_USAGE, err, n, "%s: %s", path, why);
    }
    return 0;
}

int config_load_file(struct config *c, const char *path, char *err, size_t n)
{
    char shown[CONFIG_PATH_MAX]; /* the name as messages echo it (error_quote) */
    error_quote(path, shown, sizeof shown);
    struct ini_context *ctx;
    struct stat info;
    if (path[0] == '\0')
        return error_status(EXIT_BAD_USAGE, err, n, "the config file name is empty");
    /* stat first: opening a FIFO would wait for a writer */
    if (stat(path, &info) == 0 && !S_ISREG(info.st_mode))
        return error_status(EXIT_BAD_USAGE, err, n,
                            "%s: cannot read config file: not a regular file", shown);
    FILE *file = fopen(path, "rb");
    if (!file)
        return error_status(EXIT_BAD_USAGE, err, n, "%s: cannot open config file: %s",
                            shown, strerror(errno));
    ctx = calloc(1, sizeof *ctx); /* some 25 kB: the keys seen */
    if (!ctx)
        return fclose(file), error_status(EXIT_BAD_USAGE, err, n,
                                          "%s: out of memory while reading", shown);
    ctx->config = c;
    ctx->file = file;
    int line = ini_parse_stream(ini_read_line, ctx, ini_entry, ctx), rc = 0;
    ini_apply_quoted(ctx); /* the last value, if quoted */
    fclose(file);
    if (line == -2)
        rc = error_status(EXIT_BAD_USAGE, err, n, "%s: out of memory while reading",
                          shown);
    else if (line > 0 && (ctx->error_line == 0 || line < ctx->error_line))
        rc = error_status(EXIT_BAD_USAGE, err, n,
                          "%s:%d: expected 'key = value' or '[section]'", shown, line);
    else if (ctx->error_line > 0)
        rc = error_status(EXIT_BAD_USAGE, err, n, "%s:%d: %s", shown, ctx->error_line,
                          ctx->why);
    else
        rc = ini_regions_complete(c, ctx, shown, err, n);
    free(ctx);
    if (rc == 0)
        snprintf(c->config_file, sizeof c->config_file, "%s", path);
    return rc;
}

/*
 * settings_agree.c - the ranks' settings compared before anything runs
 * (settings_agree.h): each rank's text of them hashed, the hashes set against rank
 * 0's, and, only when one differs, that rank's text sent to rank 0 to name the
 * first setting. Every MPI exchange goes through ranks.h; every rank takes the same
 * path and leaves with the same status, so no rank waits for one that left.
 */
#include "settings/settings_agree.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/ranks.h"
#include "support/error.h"

#define VALUES_SHOWN 400 /* the bytes of one rank's values a message shows */

/* ---- the text ------------------------------------------------------------- */

/*
 * One line of config_print_ini as key and value: "key = value", or a setting left
 * to its default, "; key: what that means". 0 for the rest (sections, blank
 * lines, the heading comment) and for --devices, which is each rank's own.
 */
static int ini_setting(const char *line, size_t length, const char **key,
                       size_t *key_length, const char **value)
{
    int comment = strncmp(line, "; ", 2) == 0;
    const char *at = line + (comment ? 2 : 0);
    size_t k = strcspn(at, comment ? ": \n" : " =\n");
    const char *rest = at + k;
    if (k == 0 || rest >= line + length ||
        strncmp(rest, comment ? ": " : " = ", comment ? 2 : 3) != 0)
        return 0;
    if (k == strlen("devices") && strncmp(at, "devices", k) == 0)
        return 0;
    *key = at;
    *key_length = k;
    *value = rest + (comment ? 2 : 3);
    return 1;
}

/* The "key=value" lines of config_print_ini's text ini into out. */
static void settings_of_ini(const char *ini, FILE *out)
{
    for (const char *line = ini; *line;) {
        size_t length = strcspn(line, "\n"), key_length;
        const char *key, *value;
        if (ini_setting(line, length, &key, &key_length, &value))
            fprintf(out, "%.*s=%.*s\n", (int)key_length, key,
                    (int)(line + length - value), value);
        line += length + (line[length] == '\n');
    }
}

/* The actions that decide which path a rank takes: one rank's --dry-run, or
 * --help, would leave the others waiting for it. */
static void actions(const struct config *c, FILE *out)
{
    const int flags[] = {c->show_help, c->show_version, c->show_topology,
                         c->bench,     c->print_config, c->dry_run};
    const char *names[] = {"help",  "version",      "topology",
                           "bench", "print-config", "dry-run"};
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
        fprintf(out, "%s=%s\n", names[i], flags[i] ? "true" : "false");
}

char *settings_agree_text(const struct config *c)
{
    char *ini = NULL, *text = NULL;
    size_t ini_length = 0, length = 0;
    FILE *out = open_memstream(&ini, &ini_length);
    if (!out)
        return NULL;
    config_print_ini(out, c);
    if (fclose(out) != 0) {
        free(ini);
        return NULL;
    }
    out = open_memstream(&text, &length);
    if (out) {
        settings_of_ini(ini, out);
        actions(c, out);
        if (fclose(out) != 0)
            free(text), text = NULL;
    }
    free(ini);
    return text;
}

/* ---- the first setting that differs ----------------------------------------- */

/* The index-th value of key in text ("key=value" lines), its length in *length; NULL
 * when there are fewer. */
static const char *nth_value(const char *text, const char *key, size_t key_length,
                             int index, size_t *length)
{
    for (const char *line = text; *line;) {
        size_t line_length = strcspn(line, "\n");
        if (line_length > key_length && line[key_length] == '=' &&
            strncmp(line, key, key_length) == 0 && index-- == 0) {
            *length = line_length - key_length - 1;
            return line + key_length + 1;
        }
        line += line_length + (line[line_length] == '\n');
    }
    return NULL;
}

/* Whether key has the same values, in the same order, in a and b. */
static int same_values(const char *a, const char *b, const char *key, size_t key_length)
{
    for (int i = 0;; i++) {
        size_t la = 0, lb = 0;
        const char *va = nth_value(a, key, key_length, i, &la);
        const char *vb = nth_value(b, key, key_length, i, &lb);
        if (!va || !vb)
            return !va && !vb;
        if (la != lb || memcmp(va, vb, la) != 0)
            return 0;
    }
}

/* key's values in text, as a message shows them: "a, b", or "none". */
static const char *shown_values(const char *text, const char *key, size_t key_length,
                                char *out, size_t n)
{
    size_t length, used = 0;
    const char *value;
    snprintf(out, n, "none");
    for (int i = 0; (value = nth_value(text, key, key_length, i, &length)); i++) {
        char raw[VALUES_SHOWN], quoted[VALUES_SHOWN];
        snprintf(raw, sizeof raw, "%.*s", (int)length, value);
        error_quote(raw, quoted, sizeof quoted);
        used += (size_t)snprintf(out + used, n - used, "%s%s", i ? ", " : "", quoted);
        if (used >= n)
            break;
    }
    return out;
}

/* The first key of text, in its order, that other has with other values; NULL if
 * none. */
static const char *first_differing(const char *text, const char *other, size_t *length)
{
    for (const char *line = text; *line;) {
        size_t line_length = strcspn(line, "\n"), k = strcspn(line, "=\n");
        size_t ignored;
        int first = nth_value(text, line, k, 0, &ignored) == line + k + 1;
        if (k < line_length && first && !same_values(text, other, line, k)) {
            *length = k;
            return line;
        }
        line += line_length + (line[line_length] == '\n');
    }
    return NULL;
}

void settings_agree_describe(const char *rank_0, const char *theirs, int other, char *err,
                             size_t n)
{
    size_t k = 0;
    const char *key = first_differing(rank_0, theirs, &k);
    if (!key) /* a setting rank 0 does not have at all */
        key = first_differing(theirs, rank_0, &k);
    if (!key) {
        error_set(err, n,
                  "ranks disagree on their settings: rank 0 and rank %d (every rank "
                  "must run the same settings)",
                  other);
        return;
    }
    char mine[VALUES_SHOWN], others[VALUES_SHOWN];
    error_set(err, n,
              "ranks disagree on --%.*s: rank 0 has %s, rank %d has %s (every rank "
              "must run the same settings)",
              (int)k, key, shown_values(rank_0, key, k, mine, sizeof mine), other,
              shown_values(theirs, key, k, others, sizeof others));
}

/* ---- the ranks ------------------------------------------------------------------ */

/* FNV-1a, 64 bits: the same text gives the same number on every node. */
static uint64_t text_hash(const char *text)
{
    uint64_t hash = 14695981039346656037ULL;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        hash = (hash ^ *p) * 1099511628211ULL;
    return hash;
}

/* The first rank whose hash differs from rank 0's sends its text; rank 0 says
 * which setting differs. Every rank calls it; EXIT_BAD_USAGE on every one. */
static int describe_difference(const char *mine, int other, char *err, size_t n)
{
    long length = (long)strlen(mine);
    ranks_share(other, &length, sizeof length);
    char *theirs = malloc((size_t)length + 1);
    if (ranks_first_flagged(theirs == NULL) >= 0) { /* no rank sends into nothing */
        free(theirs);
        return error_status(EXIT_BAD_USAGE, err, n,
                            "ranks disagree on their settings: rank 0 and rank %d "
                            "(every rank must run the same settings)",
                            other);
    }
    if (ranks_rank() == other)
        memcpy(theirs, mine, (size_t)length + 1);
    ranks_share(other, theirs, (size_t)length + 1);
    settings_agree_describe(mine, theirs, other, err, n); /* rank 0's is said */
    free(theirs);
    return EXIT_BAD_USAGE;
}

int settings_agree_check(const struct config *c, char *err, size_t n)
{
    if (ranks_size() == 1)
        return EXIT_OK;
    char *mine = settings_agree_text(c);
    int status = mine ? EXIT_OK
                      : error_status(EXIT_FAILURE_RUN, err, n,
                                     "rank %d (%s): out of host memory for its settings",
                                     ranks_rank(), ranks_node());
    status = ranks_agree_status(status, err, n);
    if (status == EXIT_OK) {
        uint64_t hash = text_hash(mine), rank_0 = hash;
        ranks_share(0, &rank_0, sizeof rank_0);
        int other = ranks_first_flagged(hash != rank_0);
        if (other >= 0)
            status = describe_difference(mine, other, err, n);
    }
    free(mine);
    return ranks_agree_status(status, err, n); /* rank 0's message on every rank */
}

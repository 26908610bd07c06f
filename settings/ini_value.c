/*
 * ini_value.c - quoted INI values (ini_value.h): when a value needs quotes, how it
 * is written on lines short enough for the reader, and how a quoted line reads.
 */
#include "settings/ini_value.h"

#include <ctype.h>
#include <string.h>

#include "support/error.h"

/* Bytes of a quoted line's text before it is continued on the next line. */
#define PIECE_MAX 72

/* 1 when "key = value" reads back as value: no blank at either end, no ';' after
 * a blank (nor first: the '=' is followed by a blank), no opening quote, valid
 * UTF-8 without control characters, and a line short enough. */
static int holds_bare(const char *key, const char *value)
{
    size_t length = strlen(value);
    if (length == 0)
        return 1;
    if (isspace((unsigned char)value[0]) || isspace((unsigned char)value[length - 1]) ||
        value[0] == '"' || value[0] == ';' || utf8_invalid_at(value, length) >= 0 ||
        strlen(key) + 3 + length > INI_VALUE_LINE_MAX)
        return 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)value[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return 0;
        if (c == ';' && isspace((unsigned char)value[i - 1]))
            return 0;
    }
    return 1;
}

/* The bytes of value[i] as written inside quotes: 2 for an escaped one, else 1. */
static int escaped(char c)
{
    return c == '"' || c == '\\' || c == ';' ? 2 : 1;
}

/* Writes value quoted from i on, PIECE_MAX bytes of text a line at most, never
 * cutting an escape or a UTF-8 character; returns where it stopped. */
static size_t print_piece(FILE *out, const char *value, size_t i)
{
    size_t taken = 0;
    fputc('"', out);
    while (value[i]) {
        size_t next = i + 1;
        while ((value[next] & 0xc0) == 0x80) /* the rest of a UTF-8 character */
            next++;
        size_t cost = next - i + (size_t)(escaped(value[i]) - 1);
        if (taken > 0 && taken + cost > PIECE_MAX)
            break;
        if (escaped(value[i]) == 2)
            fputc('\\', out);
        fwrite(value + i, 1, next - i, out);
        taken += cost;
        i = next;
    }
    fputs("\"\n", out);
    return i;
}

void ini_value_print(FILE *out, const char *key, const char *value)
{
    if (holds_bare(key, value)) {
        fprintf(out, "%s = %s\n", key, value);
        return;
    }
    fprintf(out, "%s = ", key);
    size_t i = print_piece(out, value, 0);
    while (value[i]) {
        fputs("    ", out);
        i = print_piece(out, value, i);
    }
}

int ini_value_is_quoted(const char *text)
{
    return text[0] == '"';
}

int ini_value_unquote(const char *text, char *out, size_t n, size_t *used, char *err,
                      size_t en)
{
    const char *p = text + 1;
    for (; *p && *p != '"'; p++) {
        char c = *p;
        if (c == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == ';'))
            c = *++p;
        else if (c == '\\')
            return error_set(
                err, en,
                "unknown escape '\\%.1s' in a quoted value (known: \\\" \\\\ "
                "\\;)",
                p + 1);
        if (*used + 1 >= n)
            return error_set(err, en, "a value longer than %zu bytes", n - 1);
        out[(*used)++] = c;
    }
    out[*used] = '\0';
    if (*p != '"')
        return error_set(err, en, "a quoted value without its closing quote");
    if (p[1] != '\0')
        return error_set(err, en, "text after the closing quote: '%s'", p + 1);
    return 0;
}

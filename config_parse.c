/*
 * config_parse.c - the checks of a value's bytes (UTF-8, control characters) and
 * the parsers of one value (integers, numbers, booleans, AxB pairs), each refusing
 * with a reason that quotes what it was given (config_internal.h).
 */
#include "config_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The offset of the first byte of text that does not begin a well-formed UTF-8
 * character (no overlong forms, no surrogates, nothing past U+10FFFF), or -1. */
long utf8_invalid_at(const char *text, size_t length)
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
long control_character_at(const char *text, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return (long)i;
    }
    return -1;
}

int parse_long(const char *value, long min, long max, long *out, char *why, size_t n)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (*value == '\0' || *end != '\0' || errno == ERANGE)
        return error_status(EXIT_BAD_USAGE, why, n, "expected an integer, got '%s'",
                            value);
    if (v < min || v > max)
        return error_status(EXIT_BAD_USAGE, why, n,
                            "expected an integer from %ld to %ld, got %ld", min, max, v);
    *out = v;
    return 0;
}

int parse_int(const char *value, int min, int max, int *out, char *why, size_t n)
{
    long v = 0;
    int rc = parse_long(value, min, max, &v, why, n);
    if (rc == 0)
        *out = (int)v;
    return rc;
}

int parse_double(const char *value, double *out, char *why, size_t n)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (*value == '\0' || *end != '\0' || !isfinite(v))
        return error_status(EXIT_BAD_USAGE, why, n, "expected a finite number, got '%s'",
                            value);
    if (errno == ERANGE)
        return error_status(
            EXIT_BAD_USAGE, why, n,
            "'%s' is out of the range of a double (about 1e-308 to 1e308)", value);
    *out = v;
    return 0;
}

int parse_bool(const char *value, int *out, char *why, size_t n)
{
    static const char *yes[] = {"1", "true", "yes", "on"},
                      *no[] = {"0", "false", "no", "off"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(value, yes[i]) == 0)
            return *out = 1, 0;
        if (strcasecmp(value, no[i]) == 0)
            return *out = 0, 0;
    }
    return error_status(EXIT_BAD_USAGE, why, n, "expected true or false, got '%s'",
                        value);
}

/* "AxB" with both parts in [1, max]. */
int parse_pair(const char *value, int max, int *a, int *b, char *why, size_t n)
{
    char *end;
    errno = 0;
    long x = strtol(value, &end, 10);
    if (end == value || (*end != 'x' && *end != 'X'))
        return error_status(EXIT_BAD_USAGE, why, n, "expected AxB (e.g. 2x2), got '%s'",
                            value);
    const char *second = end + 1;
    long y = strtol(second, &end, 10);
    if (end == second || *end != '\0' || errno == ERANGE)
        return error_status(EXIT_BAD_USAGE, why, n, "expected AxB (e.g. 2x2), got '%s'",
                            value);
    if (x < 1 || y < 1 || x > max || y > max)
        return error_status(EXIT_BAD_USAGE, why, n,
                            "each part must be from 1 to %d, got '%s'", max, value);
    *a = (int)x;
    *b = (int)y;
    return 0;
}

int parse_choice(const char *v, const char *choices, char *why, size_t n)
{
    char list[256] = "";
    int index = 0, count = 1;
    for (const char *c = choices; *c; c++)
        count += *c == '|';
    for (const char *name = choices; index < count; index++) {
        size_t length = strcspn(name, "|");
        if (strlen(v) == length && strncmp(v, name, length) == 0)
            return index;
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%.*s",
                 index == 0           ? ""
                 : index == count - 1 ? " or "
                                      : ", ",
                 (int)length, name);
        name += length + 1;
    }
    error_status(EXIT_BAD_USAGE, why, n, "expected %s, got '%s'", list, v);
    return -1;
}

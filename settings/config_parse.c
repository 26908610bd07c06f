/*
 * config_parse.c - the check of a value's bytes for control characters (UTF-8 is
 * error.c's utf8_invalid_at) and the parsers of one value (decimal integers and
 * numbers, booleans, AxB pairs), each refusing with a reason that quotes what it
 * was given (config_internal.h).
 */
#include "settings/config_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "problem/expression.h"

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

const char *number_text(double v, char *buf)
{
    char text[NUMBER_TEXT_MAX]; /* a local: gcc 12's UBSan build saw a NULL buf */
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (strtod(text, NULL) == v)
            break;
    }
    return memcpy(buf, text, sizeof text);
}

int number_out_of_range(const char *value, char *err, size_t n)
{
    return error_status(
        EXIT_BAD_USAGE, err, n,
        "'%s' is out of the range of a double (about 2.2e-308 to 1.8e308, or 0)", value);
}

int parse_long(const char *value, long min, long max, long *out, char *err, size_t n)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (!expression_is_decimal(value, 1) || *end != '\0' || errno == ERANGE)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "expected a decimal integer, got '%s'", value);
    if (v < min || v > max)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "expected an integer from %ld to %ld, got %ld", min, max, v);
    *out = v;
    return 0;
}

int parse_int(const char *value, int min, int max, int *out, char *err, size_t n)
{
    long v = 0;
    int rc = parse_long(value, min, max, &v, err, n);
    if (rc == 0)
        *out = (int)v;
    return rc;
}

int parse_double(const char *value, double *out, char *err, size_t n)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (!expression_is_decimal(value, 0) || *end != '\0' || !isfinite(v))
        return error_status(EXIT_BAD_USAGE, err, n,
                            "expected a finite decimal number, got '%s'", value);
    if (errno == ERANGE)
        return number_out_of_range(value, err, n);
    *out = v;
    return 0;
}

int parse_bool(const char *value, int *out, char *err, size_t n)
{
    static const char *yes[] = {"1", "true", "yes", "on"},
                      *no[] = {"0", "false", "no", "off"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(value, yes[i]) == 0)
            return *out = 1, 0;
        if (strcasecmp(value, no[i]) == 0)
            return *out = 0, 0;
    }
    return error_status(EXIT_BAD_USAGE, err, n, "expected true or false, got '%s'",
                        value);
}

/* "AxB" with both parts in [1, max], each plain decimal digits. */
int parse_pair(const char *value, int max, int *a, int *b, char *err, size_t n)
{
    char *end;
    errno = 0;
    long x = strtol(value, &end, 10);
    if (!isdigit((unsigned char)value[0]) || (*end != 'x' && *end != 'X') ||
        !isdigit((unsigned char)end[1]))
        return error_status(EXIT_BAD_USAGE, err, n, "expected AxB (e.g. 2x2), got '%s'",
                            value);
    const char *second = end + 1;
    long y = strtol(second, &end, 10);
    if (end == second || *end != '\0' || errno == ERANGE)
        return error_status(EXIT_BAD_USAGE, err, n, "expected AxB (e.g. 2x2), got '%s'",
                            value);
    if (x < 1 || y < 1 || x > max || y > max)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "each part must be from 1 to %d, got '%s'", max, value);
    *a = (int)x;
    *b = (int)y;
    return 0;
}

int parse_choice(const char *v, const char *choices, char *err, size_t n)
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
    error_status(EXIT_BAD_USAGE, err, n, "expected %s, got '%s'", list, v);
    return -1;
}

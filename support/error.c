/*
 * error.c - error_set and error_status (error.h), and the quoting of names that
 * a message echoes (error_quote), so that it stays one line of text.
 */
#include "support/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void write_message(char *err, size_t n, const char *format, va_list args)
{
    if (n > 0)
        vsnprintf(err, n, format, args);
}

int error_set(char *err, size_t n, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    write_message(err, n, format, args);
    va_end(args);
    return -1;
}

int error_status(int status, char *err, size_t n, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    write_message(err, n, format, args);
    va_end(args);
    return status;
}

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

/* The escape of byte c, or NULL when it is written as it is. */
static const char *escape_of(unsigned char c, char *hex, size_t n)
{
    if (c == '\n')
        return "\\n";
    if (c == '\r')
        return "\\r";
    if (c == '\t')
        return "\\t";
    snprintf(hex, n, "\\x%02X", c);
    return hex;
}

const char *error_quote(const char *text, char *out, size_t n)
{
    size_t length = strlen(text), o = 0;
    for (size_t i = 0; i < length && n > 0;) {
        unsigned char c = (unsigned char)text[i];
        char hex[8];
        const char *escape = NULL;
        size_t take = 1;
        if (c < 0x20 || c == 0x7f)
            escape = escape_of(c, hex, sizeof hex);
        else if (c >= 0x80 &&
                 utf8_invalid_at(text + i, length - i < 4 ? length - i : 4) == 0)
            escape = escape_of(c, hex, sizeof hex);
        else if (c >= 0x80) /* a whole UTF-8 character: 2, 3 or 4 bytes */
            take = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
        const char *piece = escape ? escape : text + i;
        size_t size = escape ? strlen(escape) : take;
        if (o + size >= n)
            break;
        memcpy(out + o, piece, size);
        o += size, i += take;
    }
    if (n > 0)
        out[o] = '\0';
    return out;
}

void error_add_line(char *err, size_t n, const char *line)
{
    size_t used = strlen(err);
    snprintf(err + used, n - used, "%s%s", used ? "\n" : "", line);
}

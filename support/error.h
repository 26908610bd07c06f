/*
 * error.h - how a failure is described on its way up: a message written into the
 * caller's buffer, and -1 returned, in one call (`return error_set(err, n, ...);`).
 */
#ifndef LAPLACE_ERROR_H
#define LAPLACE_ERROR_H

#include <stddef.h>

/* Writes the message into err (n bytes, always terminated) and returns -1. */
int error_set(char *err, size_t n, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The same, returning status instead (an exit status of config.h, for example). */
int error_status(int status, char *err, size_t n, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* The offset of the first byte of text that does not begin a well-formed UTF-8
 * character (no overlong forms, no surrogates, nothing past U+10FFFF), or -1. */
long utf8_invalid_at(const char *text, size_t length);

/*
 * text as it may appear inside a one-line message: newlines, tabs and other
 * control characters, and bytes that are not UTF-8, written as \n, \t, \xNN;
 * cut short to fit out (n bytes, always terminated). Returns out. For names a
 * message echoes that no check has seen (a file name, an unknown option, an
 * environment variable's value).
 */
const char *error_quote(const char *text, char *out, size_t n);

#endif

/*
 * error.h - how a failure travels up, the one convention of the code:
 *
 *   - a function that can fail takes the caller's buffer last, (char *err, size_t n),
 *     and returns 0 on success; on failure it writes one line into err and returns
 *     -1, or an exit status below where the caller must tell usage from failure;
 *     error_set and error_status do both in one call (`return error_set(err, n, ...);`);
 *   - main prints that line once and exits with the status (DESIGN.md's contract);
 *   - a public name's prefix is its file's name, so grep finds the owner.
 */
#ifndef LAPLACE_ERROR_H
#define LAPLACE_ERROR_H

#include <stddef.h>

/* Exit statuses of the contract: finished; any failure of the run (device, memory,
 * I/O, divergence); a bad command line or configuration. */
enum { EXIT_OK = 0, EXIT_FAILURE_RUN = 1, EXIT_BAD_USAGE = 2 };

/* Writes the message into err (n bytes, always terminated) and returns -1. */
int error_set(char *err, size_t n, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The same, returning status instead (an exit status above, for example). */
int error_status(int status, char *err, size_t n, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* Appends line to err (n bytes), after a newline if err holds a line already: the
 * error of a step that reports each of several failures. */
void error_add_line(char *err, size_t n, const char *line);

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

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

#endif

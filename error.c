/*
 * error.c - error_set and error_status (error.h).
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

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

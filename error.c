/*
 * error.c - error_set (error.h).
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

int error_set(char *err, size_t n, const char *format, ...)
{
    va_list args;
    if (n == 0)
        return -1;
    va_start(args, format);
    vsnprintf(err, n, format, args);
    va_end(args);
    return -1;
}

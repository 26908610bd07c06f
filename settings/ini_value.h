/*
 * ini_value.h - the one form of an INI value that a bare value cannot hold, written
 * by --print-config (config_print.c) and read by config_ini.c:
 *
 *   output = " spaced ;name.dat"      a value in double quotes is taken as it is,
 *   top = "sin(pi*x) + 0.5*cos(p"     blanks and all; inside, \" is a quote, \\ a
 *       "i*y) + ..."                  backslash and \; a ';' (after a blank, a bare
 *                                     ';' starts a comment); an indented quoted line
 *                                     right after it continues it (a line holds 198
 *                                     bytes, a path 1023)
 *
 * A bare value loses its leading and trailing blanks and what follows " ;", and a
 * line longer than 198 bytes is refused: such values are written quoted.
 */
#ifndef LAPLACE_INI_VALUE_H
#define LAPLACE_INI_VALUE_H

#include <stddef.h>
#include <stdio.h>

/* The most bytes of one INI line (inih's buffer, less its newline and NUL). */
#define INI_VALUE_LINE_MAX 198

/* Writes "key = value\n": bare when the INI reader gives it back as it is, else
 * quoted, on as many indented lines as it needs. */
void ini_value_print(FILE *out, const char *key, const char *value);

/* 1 when text, a value as inih hands it over, is quoted (it begins with '"'). */
int ini_value_is_quoted(const char *text);

/* Appends the text of the quoted value text to out (n bytes, *used of them taken,
 * always terminated). 0, or -1 with err set: no closing quote, text after it, an
 * escape other than \" \\ \;, or more than n - 1 bytes in all. */
int ini_value_unquote(const char *text, char *out, size_t n, size_t *used, char *err,
                      size_t en);

#endif

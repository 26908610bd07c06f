/*
 * csv_append.h - --csv-append's file: one table grown by many runs. A row is added
 * with one write() (after the header when the file is new or empty); a write cut
 * short (a full disk) is undone by truncating the file back to its old length, so
 * no half row is left for the next row to be glued to. A file that is not regular
 * (a FIFO is never waited on), not writable, not ending in a newline or headed by
 * other columns is refused, before the run and again at the append.
 */
#ifndef LAPLACE_CSV_APPEND_H
#define LAPLACE_CSV_APPEND_H

#include <stddef.h>

/* Whether rows with this header (one line, with its '\n') can be appended to path,
 * checked before the run and leaving no file behind. 0, or -1 with err set. */
int csv_append_check(const char *path, const char *header, char *err, size_t n);

/* Appends row (one line, with its '\n') to path, after header when the file is new
 * or empty. 0, or -1 with err set and the file as it was. */
int csv_append_row(const char *path, const char *header, const char *row, char *err,
                   size_t n);

#endif

/*
 * temp_file.h - a file written whole or not at all (temp_file.c): written under a
 * unique temporary name beside its final one, guarded by interrupt.h (a second
 * signal that ends the program removes it), then renamed over the final name.
 */
#ifndef LAPLACE_TEMP_FILE_H
#define LAPLACE_TEMP_FILE_H

#include <stddef.h>
#include <stdio.h>

#define OUTPUT_PATH_MAX 4200 /* a path, or a piece's name made from one */

/* A file being written: its temporary name, guarded by interrupt.h. */
struct temp_file {
    char name[OUTPUT_PATH_MAX];
    int guard;
};

/* Creates a new empty file beside path under a unique short name, guarded by
 * interrupt.h, and opens it for writing. The FILE, or NULL with err set. */
FILE *temp_file_open(const char *path, struct temp_file *t, char *err, size_t n);

/* Gives the temporary file its name path (replace 0: never over an existing file)
 * and releases its guard. 0, or -1 with errno set and the temporary removed. */
int temp_file_commit(struct temp_file *t, const char *path, int replace);

/* Removes the temporary file and releases its guard. */
void temp_file_discard(struct temp_file *t);

#endif

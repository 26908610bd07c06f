/*
 * output_paths.h - the names of the files a run writes, compared and checked before
 * the solve: two names are one file when their folders resolve to the same place
 * (".", "..", symbolic links) and their last parts are equal; a file appended to
 * (--csv-append) is followed through a link, since the append writes through it,
 * while a file written whole replaces a link by its rename. A snapshot
 * (output_snapshot_path) is matched by its pattern, NAME-ITERATION.EXT.
 */
#ifndef LAPLACE_OUTPUT_PATHS_H
#define LAPLACE_OUTPUT_PATHS_H

#include <stddef.h>

/* path as one file's name: the real path of its folder, then its last part (the
 * whole real path, for append, of a file that exists). When the folder does not
 * resolve, path itself (its check then says why it cannot be written). */
void output_paths_resolve(const char *path, int append, char *out, size_t n);

/* 1 when file (resolved) is a snapshot of the output (resolved) taken every
 * `every` iterations, or one of its .pvti pieces. */
int output_paths_is_snapshot(const char *file, const char *output, long every);

/* path's last part within the file system's NAME_MAX and the whole within its
 * PATH_MAX (a name too long is otherwise found only at the rename, after the
 * solve). 0, or -1 with err set. */
int output_paths_check_name(const char *path, char *err, size_t n);

#endif

/*
 * output.h - writing the field to files, chosen by extension. Today: .dat, the
 * course's text format (one lattice row per line, top row first).
 */
#ifndef LAPLACE_OUTPUT_H
#define LAPLACE_OUTPUT_H

#include <stddef.h>

#include "problem.h"

/*
 * Checks before the solve that path can be written (its folder exists and is
 * writable), so a long run never fails at its end. 0, or -1 with err set.
 */
int output_check_writable(const char *path, char *err, size_t errlen);

/*
 * Writes the field to path; the format follows the extension. The file is
 * written under a temporary name and renamed, so a failed write never leaves a
 * half file under path. 0, or -1 with err set.
 */
int output_write(const char *path, const struct field *field, char *err, size_t errlen);

/* The name of a snapshot of path at an iteration: "heat.dat" -> "heat-000100.dat".
 * 0, or -1 when it does not fit in n. */
int output_snapshot_path(const char *path, long iteration, char *out, size_t n);

#endif

/*
 * settings_agree.h - under MPI, the ranks agree on their settings before anything
 * runs (issue 25): an MPMD launch ("mpirun -np 1 ./laplace --nx 64 : -np 1
 * ./laplace --nx 65") or another INI file on one node is refused, said once by rank
 * 0, naming the first setting that differs and the two ranks:
 *
 *   laplace: ranks disagree on --nx: rank 0 has 64, rank 1 has 65 (every rank must
 *   run the same settings)
 *
 * What is compared: every setting --print-config writes (config_print_ini, so a
 * setting added there is compared here too), --devices left out (under MPI each
 * rank names the GPUs of its own node), and the actions that decide the code path
 * (--help, --version, --topology, --bench, --print-config, --dry-run). The name of
 * the INI file is not compared, its settings are. Each rank hashes its text
 * (FNV-1a, 64 bits) and compares the hash with rank 0's; only when one differs are
 * the texts sent, to say which setting. With one process nothing is done.
 */
#ifndef LAPLACE_SETTINGS_AGREE_H
#define LAPLACE_SETTINGS_AGREE_H

#include <stddef.h>

#include "settings/config.h"

/* Every rank calls it with its settings. EXIT_OK when every rank has rank 0's;
 * otherwise the same status on every rank (EXIT_BAD_USAGE for settings that differ,
 * EXIT_FAILURE_RUN when out of memory) with rank 0's message in err. */
int settings_agree_check(const struct config *c, char *err, size_t n);

/* The settings that must agree as "key=value" lines (the INI keys, repeated for
 * each --output and --region), malloc'ed; NULL when out of memory. */
char *settings_agree_text(const struct config *c);

/* The message of two ranks' texts (rank 0's and rank other's) that differ: the
 * first setting, in rank 0's order, whose values differ. */
void settings_agree_describe(const char *rank_0, const char *theirs, int other, char *err,
                             size_t n);

#endif

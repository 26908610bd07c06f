/*
 * fuzz_config_check.h - what the config fuzz targets assert after a run of the
 * config layer: a refusal is status 2 with one line in err; an accepted and
 * validated config is consistent (every value in the range its setter and
 * config_validate promise, every string terminated inside its array).
 */
#ifndef LAPLACE_FUZZ_CONFIG_CHECK_H
#define LAPLACE_FUZZ_CONFIG_CHECK_H

#include <stddef.h>

#include "settings/config.h"

/* Aborts (a finding) with the failed condition unless it holds. */
void fuzz_require(int condition, const char *what);

/* rc and err of config_from_args, config_load_file or config_validate. */
void fuzz_check_result(int rc, const char *err, size_t errlen);

/* Whether config_validate would take long by design: a source formula is
 * evaluated at every site (a bad source is refused before the solve), so a huge
 * lattice with one costs seconds, which the fuzzer would report as a hang. */
int fuzz_validation_is_slow(const struct config *c);

/* A config that config_validate accepted. */
void fuzz_check_config(const struct config *c);

#endif

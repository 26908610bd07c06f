/*
 * setters.h - the setters of the settings that need more than a plain count,
 * choice or flag (setters.c), for config.c's table. Each parses value v into the
 * configuration: 0, or EXIT_BAD_USAGE with err saying why (without the name).
 */
#ifndef LAPLACE_SETTERS_H
#define LAPLACE_SETTERS_H

#include <stddef.h>

#include "settings/config.h"

int setter_block(struct config *c, const char *v, char *err, size_t n);
int setter_bottom(struct config *c, const char *v, char *err, size_t n);
int setter_csv_append(struct config *c, const char *v, char *err, size_t n);
int setter_devices(struct config *c, const char *v, char *err, size_t n);
int setter_sides(struct config *c, const char *v, char *err, size_t n);
int setter_eps(struct config *c, const char *v, char *err, size_t n);
int setter_exact(struct config *c, const char *v, char *err, size_t n);
int setter_history(struct config *c, const char *v, char *err, size_t n);
int setter_kernel(struct config *c, const char *v, char *err, size_t n);
int setter_left(struct config *c, const char *v, char *err, size_t n);
int setter_lx(struct config *c, const char *v, char *err, size_t n);
int setter_ly(struct config *c, const char *v, char *err, size_t n);
int setter_no_p2p(struct config *c, const char *v, char *err, size_t n);
int setter_omega(struct config *c, const char *v, char *err, size_t n);
int setter_output(struct config *c, const char *v, char *err, size_t n);
int setter_partition(struct config *c, const char *v, char *err, size_t n);
int setter_png_range(struct config *c, const char *v, char *err, size_t n);
int setter_ranks(struct config *c, const char *v, char *err, size_t n);
int setter_right(struct config *c, const char *v, char *err, size_t n);
int setter_source(struct config *c, const char *v, char *err, size_t n);
int setter_top(struct config *c, const char *v, char *err, size_t n);

#endif

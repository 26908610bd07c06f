/*
 * version.h - the program's version and licence, as --version, the report and
 * every output's caption give them.
 */
#ifndef LAPLACE_VERSION_H
#define LAPLACE_VERSION_H

#define LAPLACE_VERSION "0.1.0"

/* The project's licence, as an SPDX name; the full text is LICENSE. Chosen on
 * purpose: the binary links libmatheval (GPL-3.0-or-later) statically, so the
 * program as distributed is GPL-3.0-or-later whatever this file says. */
#define LAPLACE_LICENSE "GPL-3.0-or-later"

#endif

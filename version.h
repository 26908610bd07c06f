/*
 * version.h - the program's version, as --version, the report and every output's
 * caption give it.
 */
#ifndef LAPLACE_VERSION_H
#define LAPLACE_VERSION_H

#define LAPLACE_VERSION "0.1.0"

#endif

/*
 * stdout_closed.h - a standard output closed by the caller ("laplace ... >&-"):
 * descriptor 1 is taken by a stand-in (so the first file opened cannot take it and
 * the monitor's lines never land there), and whatever the program printed to it is
 * noticed, so that main reports it lost: status 1, as for a full stdout.
 */
#ifndef LAPLACE_STDOUT_CLOSED_H
#define LAPLACE_STDOUT_CLOSED_H

/* Puts the stand-in on descriptor 1, which the caller found closed (0, 1 and 2
 * all open now, so that the pipe takes none of them): 0, or -1 when it cannot. */
int stdout_closed_stand_in(void);

/* 1 when the standard output was closed and something was printed to it (a
 * program that printed nothing, as with -q, lost nothing). */
int stdout_closed_lost(void);

#endif

/*
 * say.h - how a refusal or a failure reaches the user: "laplace: " and the message
 * on stderr, one line per line of it, said by rank 0 alone under MPI (every rank
 * refuses and fails alike), and the exit status returned (support/error.h).
 */
#ifndef LAPLACE_SAY_H
#define LAPLACE_SAY_H

/* A refusal of the command line or the configuration: EXIT_BAD_USAGE. */
int say_usage_error(const char *message);

/* A failure of the run; message may hold several lines (one per output that
 * failed), each said on a line of its own: EXIT_FAILURE_RUN. */
int say_run_error(const char *message);

#endif

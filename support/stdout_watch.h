/*
 * stdout_watch.h - a run whose standard output has lost its reader ("laplace ... |
 * head -1") stops at once instead of solving to the end for nobody: a thread
 * waits on the pipe (poll, no cost to the run) and, when its reader is gone, asks
 * the run to stop as a SIGPIPE would (interrupt.h); main then reports the failed
 * write to stdout, one line, status 1.
 */
#ifndef LAPLACE_STDOUT_WATCH_H
#define LAPLACE_STDOUT_WATCH_H

/* Starts the watch when the standard output is a pipe or a socket (a file or a
 * terminal has no reader to lose); once per process. */
void stdout_watch_start(void);

/* 1 once the watch saw the reader go. */
int stdout_watch_closed(void);

/* Why a write to the standard output failed, from the descriptor itself, for when
 * stdio no longer says (it drops the buffer a failed write held: a later fflush
 * has nothing to write and sets no errno): EPIPE for a pipe or socket whose reader
 * has gone, EFBIG for a file at the process's size limit (ulimit -f), else 0. */
int stdout_watch_failure(void);

#endif

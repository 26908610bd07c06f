/*
 * interrupt.h - Ctrl-C (SIGINT), SIGTERM and SIGHUP: the first one asks the run to
 * stop at the next iteration and write what it has; a second one ends the program
 * at once, removing the temporary files being written so that no half file is
 * left. SIGPIPE and SIGXFSZ are ignored: a write that fails (EPIPE, EFBIG) is then
 * reported like any other failed write.
 */
#ifndef LAPLACE_INTERRUPT_H
#define LAPLACE_INTERRUPT_H

/* Installs the handlers for SIGINT, SIGTERM and SIGHUP; ignores SIGPIPE, SIGXFSZ. */
void interrupt_install(void);

/* The same handlers for a program that cannot stop halfway (the bench): the first
 * signal already removes the guarded files and ends the program. */
void interrupt_install_at_once(void);

/* The signal that asked the run to stop (SIGINT, SIGTERM, SIGHUP), or 0. */
int interrupt_requested(void);

/* The signal the MPI ranks agreed on (the lowest rank's that had one), taken as if
 * this process had received it: every rank then stops at the same iteration and
 * exits with the same status. */
void interrupt_adopt(int signo);

/* The exit status of a run stopped by signal: 128 + its number (130 for SIGINT). */
int interrupt_exit_status(void);

/* Files being written under a temporary name: a second signal removes them before
 * the program ends. There is no limit on how many are guarded at once. Returns a
 * handle for interrupt_release, or -1 when out of memory (the file is then not
 * removed by a second signal). */
int interrupt_guard(const char *temporary_path);
void interrupt_release(int handle);

#endif

/*
 * interrupt.h - Ctrl-C (SIGINT), SIGTERM, SIGHUP, SIGQUIT and every other catchable
 * signal that would end the program (USR1, USR2, ALRM, VTALRM, PROF, XCPU): the
 * first one asks the run to stop at the next iteration and write what it has (a
 * signal that comes while the outputs are written lets them be finished); a second
 * one ends the program at once, removing the temporary files being written so
 * that no half file is left. SIGPIPE and SIGXFSZ are ignored from the start: a write that
 * fails (EPIPE, EFBIG) is then reported like any other failed write. A standard output
 * whose reader has gone (stdout_watch.h) is taken as a SIGPIPE that stops the run.
 */
#ifndef LAPLACE_INTERRUPT_H
#define LAPLACE_INTERRUPT_H

/* Ignores SIGPIPE and SIGXFSZ: main's first call, so that no path dies by them. */
void interrupt_ignore_write_signals(void);

/* Installs the handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
 * SIGALRM, SIGVTALRM, SIGPROF and SIGXCPU; ignores SIGPIPE, SIGXFSZ. */
void interrupt_install(void);

/* A second signal ends the program without its line on stderr: for one of several
 * MPI ranks, whose second signal is the launcher tearing the job down once a rank
 * has ended (mpirun prints its own account). */
void interrupt_silence_second(void);

/* A second signal that comes between hold and end_hold waits for end_hold, which
 * then ends the program: for renames that must all be done or none (a .pvti's
 * pieces and its index). Holds nest. */
void interrupt_hold(void);
void interrupt_end_hold(void);

/*
 * Waits on other processes: an MPI call, which never returns when a peer has died.
 * A launcher then tears the job down (Open MPI: SIGTERM, then SIGKILL 1 s later),
 * and the graceful stop never comes to run. So a signal that comes inside a wait
 * asks for the stop as ever, and, when the same wait is still going
 * INTERRUPT_WAIT_GRACE_MS later, ends the program at once, removing the temporary
 * files (status 128 + the signal). Waits nest; watch_waits makes the timer this
 * needs (a real-time signal, SIGRTMIN): 0, or -1 when it cannot (waits are then
 * not watched).
 */
#define INTERRUPT_WAIT_GRACE_MS 400
int interrupt_watch_waits(void);
void interrupt_wait_begin(void);
void interrupt_wait_end(void);

/* The signal that asked the run to stop (one of those handled, or SIGPIPE for a
 * closed standard output), or 0. */
int interrupt_requested(void);

/* Its name, "SIGINT" ... ("a signal" for another). */
const char *interrupt_signal_name(void);

/* The signal the MPI ranks agreed on (the lowest rank's that had one), taken as if
 * this process had received it: every rank then stops at the same iteration and
 * exits with the same status. */
void interrupt_adopt(int signo);

/* The exit status of a run stopped by signal: 128 + its number (130 for SIGINT);
 * 1 for a closed standard output (SIGPIPE), a failed write as any other. */
int interrupt_exit_status(void);

/* Files being written under a temporary name: a second signal removes them before
 * the program ends. There is no limit on how many are guarded at once. Returns a
 * handle for interrupt_release, or -1 when out of memory (the file is then not
 * removed by a second signal). */
int interrupt_guard(const char *temporary_path);
void interrupt_release(int handle);

#endif

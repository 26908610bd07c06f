/*
 * interrupt.h - Ctrl-C (SIGINT) and SIGTERM: the first one asks the run to stop
 * at the next iteration and write what it has; a second one ends the program at
 * once, removing the temporary file being written so that no half file is left.
 */
#ifndef LAPLACE_INTERRUPT_H
#define LAPLACE_INTERRUPT_H

/* Installs the handlers for SIGINT and SIGTERM. */
void interrupt_install(void);

/* The signal that asked the run to stop (SIGINT, SIGTERM), or 0. */
int interrupt_requested(void);

/* The exit status of a run stopped by signal: 128 + its number (130 for SIGINT). */
int interrupt_exit_status(void);

/* Files being written under a temporary name: a second signal removes them before
 * the program ends. Returns a slot for interrupt_release, or -1 when all are taken
 * (the file is then not removed; there are enough slots for every output). */
int interrupt_guard(const char *temporary_path);
void interrupt_release(int slot);

#endif

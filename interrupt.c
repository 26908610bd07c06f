/*
 * interrupt.c - the signal handlers of interrupt.h. The handler only does what is
 * safe in a signal handler: it records the signal the first time; the second time
 * it unlinks the guarded temporary files and calls _exit.
 */
#define _POSIX_C_SOURCE 200809L
#include "interrupt.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#define GUARD_SLOTS 40 /* every --output, its pieces, and the history */
#define GUARD_PATH 4200

static volatile sig_atomic_t requested;
static volatile sig_atomic_t guarded[GUARD_SLOTS];
static char guard_path[GUARD_SLOTS][GUARD_PATH];

static void on_signal(int signo)
{
    if (!requested) {
        requested = signo;
        return;
    }
    for (int i = 0; i < GUARD_SLOTS; i++)
        if (guarded[i])
            unlink(guard_path[i]);
    _exit(128 + signo);
}

void interrupt_install(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

int interrupt_requested(void)
{
    return requested;
}

int interrupt_exit_status(void)
{
    return 128 + requested;
}

int interrupt_guard(const char *temporary_path)
{
    int slot = -1;
#pragma omp critical(interrupt_guard)
    for (int i = 0; i < GUARD_SLOTS && slot < 0; i++)
        if (!guarded[i] && strlen(temporary_path) < GUARD_PATH) {
            strcpy(guard_path[i], temporary_path);
            atomic_signal_fence(memory_order_seq_cst); /* the handler sees a whole name */
            guarded[i] = 1;
            slot = i;
        }
    return slot;
}

void interrupt_release(int slot)
{
    if (slot >= 0)
        guarded[slot] = 0;
}

/*
 * fault.c - reads LAPLACE_INJECT_FAULT and LAPLACE_INJECT_SIGNAL (fault.h) and
 * says where the fault falls, or raises the signal there.
 */
#include "support/fault.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/error.h"

struct fault {
    int armed; /* the variable names a fault */
    int valid; /* its value has the form D:K */
    int device;
    long iteration;
};

/* LAPLACE_INJECT_SIGNAL's pairs: signal[i] before rename[i]. */
#define FAULT_SIGNALS_MAX 4
struct fault_signals {
    int armed, valid, count;
    int signal[FAULT_SIGNALS_MAX];
    long rename[FAULT_SIGNALS_MAX];
};

static struct fault fault;
static struct fault_signals signals;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;
static pthread_once_t signals_once = PTHREAD_ONCE_INIT;

static void fault_read(void)
{
    const char *value = getenv(FAULT_VARIABLE);
    char rest;
    if (!value || !value[0])
        return;
    fault.armed = 1;
    fault.valid =
        sscanf(value, "%d:%ld%c", &fault.device, &fault.iteration, &rest) == 2 &&
        fault.device >= 0 && fault.iteration >= 0;
}

int fault_injected(int device, long from, long to)
{
    pthread_once(&fault_once, fault_read);
    return fault.armed && fault.valid && device == fault.device &&
           fault.iteration >= from && fault.iteration <= to;
}

/* "S:K[,S:K...]", each S a signal number, each K from 1. */
static void signals_read(void)
{
    const char *value = getenv(FAULT_SIGNAL_VARIABLE);
    if (!value || !value[0])
        return;
    signals.armed = signals.valid = 1;
    for (const char *p = value; p && signals.valid; p = strchr(p, ',')) {
        int used = 0, i = signals.count++;
        p += *p == ',';
        signals.valid =
            i < FAULT_SIGNALS_MAX &&
            sscanf(p, "%d:%ld%n", &signals.signal[i], &signals.rename[i], &used) == 2 &&
            (p[used] == ',' || p[used] == '\0') && signals.signal[i] > 0 &&
            signals.signal[i] < NSIG && signals.rename[i] > 0;
    }
}

void fault_signal_at_rename(void)
{
    static _Atomic long renames;
    pthread_once(&signals_once, signals_read);
    if (!signals.armed || !signals.valid)
        return;
    long k = atomic_fetch_add(&renames, 1) + 1;
    for (int i = 0; i < signals.count; i++)
        if (signals.rename[i] == k)
            raise(signals.signal[i]);
}

/* A malformed value of variable, as one line in err: -1. */
static int malformed(const char *variable, const char *expected, char *err, size_t n)
{
    char shown[256]; /* the value as the message echoes it, on one line */
    snprintf(err, n, "%s='%s': expected %s", variable,
             error_quote(getenv(variable), shown, sizeof shown), expected);
    return -1;
}

int fault_check_variable(char *err, size_t n)
{
    pthread_once(&fault_once, fault_read);
    pthread_once(&signals_once, signals_read);
    if (fault.armed && !fault.valid)
        return malformed(FAULT_VARIABLE, "DEVICE:ITERATION, e.g. 1:100", err, n);
    if (signals.armed && !signals.valid)
        return malformed(FAULT_SIGNAL_VARIABLE,
                         "SIGNAL:RENAME[,SIGNAL:RENAME...], e.g. 15:2", err, n);
    return 0;
}

/*
 * fault.c - reads LAPLACE_INJECT_FAULT (fault.h) and says where the fault falls.
 */
#include "support/fault.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/error.h"

struct fault {
    int armed; /* the variable names a fault */
    int valid; /* its value has the form D:K */
    int device;
    long iteration;
};

static struct fault fault;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;

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

int fault_check_variable(char *err, size_t n)
{
    pthread_once(&fault_once, fault_read);
    if (!fault.armed || fault.valid)
        return 0;
    char shown[256]; /* the value as the message echoes it, on one line */
    snprintf(err, n, "%s='%s': expected DEVICE:ITERATION, e.g. 1:100", FAULT_VARIABLE,
             error_quote(getenv(FAULT_VARIABLE), shown, sizeof shown));
    return -1;
}

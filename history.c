/*
 * history.c - the convergence history file of history.h.
 */
#include "history.h"

#include <errno.h>
#include <string.h>

#include "error.h"
#include "interrupt.h"
#include "output.h"

int history_open(struct history *h, const char *path, char *err, size_t n)
{
    memset(h, 0, sizeof *h);
    h->guard = -1;
    snprintf(h->path, sizeof h->path, "%s", path);
    output_temporary_name(path, h->temporary, sizeof h->temporary);
    h->file = fopen(h->temporary, "w");
    if (!h->file)
        return error_set(err, n, "cannot write '%s': %s", path, strerror(errno));
    h->guard = interrupt_guard(h->temporary);
    if (fprintf(h->file, "iteration,norm,elapsed_s\n") < 0)
        h->failed = 1;
    return 0;
}

void history_add(void *history, long iteration, double norm, double elapsed_s)
{
    struct history *h = history;
    if (h->file && fprintf(h->file, "%ld,%.9e,%.6f\n", iteration, norm, elapsed_s) < 0)
        h->failed = 1;
}

int history_close(struct history *h, char *err, size_t n)
{
    int rc = h->failed ? -1 : 0;
    if (fclose(h->file) != 0)
        rc = -1;
    h->file = NULL;
    if (rc == 0 && rename(h->temporary, h->path) != 0)
        rc = -1;
    if (rc != 0) {
        snprintf(err, n, "writing '%s' failed: %s", h->path, strerror(errno));
        remove(h->temporary);
    }
    interrupt_release(h->guard);
    return rc;
}

void history_abandon(struct history *h)
{
    if (h->file)
        fclose(h->file);
    h->file = NULL;
    remove(h->temporary);
    interrupt_release(h->guard);
}

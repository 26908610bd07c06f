/*
 * history.c - the convergence history file of history.h.
 */
#include "watch/history.h"

#include <errno.h>
#include <string.h>

#include "support/error.h"
#include "outputs/output.h"

int history_open(struct history *h, const char *path, double eps, char *err, size_t n)
{
    memset(h, 0, sizeof *h);
    h->eps = eps;
    snprintf(h->path, sizeof h->path, "%s", path);
    h->file = temp_file_open(path, &h->temporary, err, n);
    if (!h->file)
        return -1;
    if (fprintf(h->file, "iteration,norm,elapsed_s,eps\n") < 0)
        h->failed = 1, h->error = errno;
    return 0;
}

void history_add(void *history, long iteration, double norm, double elapsed_s)
{
    struct history *h = history;
    if (h->file &&
        fprintf(h->file, "%ld,%.9e,%.6f,%g\n", iteration, norm, elapsed_s, h->eps) < 0 &&
        !h->failed)
        h->failed = 1, h->error = errno;
}

int history_close(struct history *h, char *err, size_t n)
{
    int rc = h->failed ? -1 : 0, error = h->error;
    if (fclose(h->file) != 0 && rc == 0)
        rc = -1, error = errno;
    h->file = NULL;
    if (rc != 0)
        temp_file_discard(&h->temporary);
    else if (temp_file_commit(&h->temporary, h->path, 1) != 0)
        rc = -1, error = errno;
    if (rc != 0)
        error_set(err, n, "writing '%s' failed: %s", h->path,
                  error ? strerror(error) : "a write failed");
    return rc;
}

void history_abandon(struct history *h)
{
    if (h->file)
        fclose(h->file);
    h->file = NULL;
    temp_file_discard(&h->temporary);
}

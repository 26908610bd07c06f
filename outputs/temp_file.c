/*
 * temp_file.c - files written whole (temp_file.h): a unique short name beside the
 * final one, created exclusively, guarded while it exists, renamed at the end.
 */
#include "outputs/temp_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "support/error.h"
#include "support/fault.h"
#include "support/interrupt.h"

/* path's folder with its slash ("dir/", or "" for the current one), in n bytes. */
static int folder_of(const char *path, char *out, size_t n)
{
    const char *slash = strrchr(path, '/');
    int length = slash ? (int)(slash - path + 1) : 0;
    return snprintf(out, n, "%.*s", length, path) >= (int)n ? -1 : 0;
}

/* Six letters or digits that differ from call to call and from process to process;
 * O_EXCL makes the name unique, these only make a clash rare. */
static void random_letters(char out[7])
{
    static const char letters[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static _Atomic unsigned long counter;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t x = (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 30) ^
                 ((uint64_t)getpid() << 20) ^ (uint64_t)(uintptr_t)&now ^
                 (uint64_t)atomic_fetch_add(&counter, 1) * 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 6; i++) {
        x ^= x >> 31;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 29;
        out[i] = letters[x % 62];
    }
    out[6] = '\0';
}

/* A new file "FOLDER/.lpXXXXXX" made with O_EXCL (mode 0666 less the umask, as
 * fopen makes files); its descriptor, or -1 with errno set. */
static int create_beside(const char *path, char *name, size_t n)
{
    char folder[OUTPUT_PATH_MAX], letters[7];
    if (folder_of(path, folder, sizeof folder) != 0)
        return errno = ENAMETOOLONG, -1;
    for (int attempt = 0; attempt < 100; attempt++) {
        random_letters(letters);
        if (snprintf(name, n, "%s.lp%s", folder, letters) >= (int)n)
            return errno = ENAMETOOLONG, -1;
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

FILE *temp_file_open(const char *path, struct temp_file *t, char *err, size_t n)
{
    t->guard = -1;
    int fd = create_beside(path, t->name, sizeof t->name);
    if (fd < 0) {
        error_set(err, n, "cannot write '%s': %s", path, strerror(errno));
        return NULL;
    }
    t->guard = interrupt_guard(t->name);
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        error_set(err, n, "cannot write '%s': %s", path, strerror(errno));
        close(fd);
        temp_file_discard(t);
    }
    return f;
}

int temp_file_commit(struct temp_file *t, const char *path, int replace)
{
    int rc;
    fault_signal_at_rename(); /* the tests' signal, if LAPLACE_INJECT_SIGNAL says so */
    if (replace) {
        rc = rename(t->name, path);
    } else {
        rc = link(t->name, path); /* fails with EEXIST instead of replacing */
        if (rc != 0 && errno != EEXIST && access(path, F_OK) != 0)
            rc = rename(t->name, path); /* a file system without links */
        else if (rc == 0)
            unlink(t->name);
    }
    int saved = errno;
    if (rc != 0)
        remove(t->name);
    interrupt_release(t->guard);
    t->guard = -1;
    errno = saved;
    return rc;
}

void temp_file_discard(struct temp_file *t)
{
    int saved = errno;
    remove(t->name);
    interrupt_release(t->guard);
    t->guard = -1;
    errno = saved;
}

/*
 * stdout_watch.c - the thread that notices a standard output without a reader
 * (stdout_watch.h). A pipe's write end polls as POLLERR once its last reader has
 * closed it, a socket's as POLLHUP; the thread asks for nothing else (events 0),
 * so it sleeps in poll until then, or until the program ends. The same poll, and a
 * file's size against its limit, say why a write failed once stdio has forgotten.
 */
#include "support/stdout_watch.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/interrupt.h"

static atomic_int closed;

static void *watch(void *unused)
{
    struct pollfd out = {.fd = STDOUT_FILENO, .events = 0};
    (void)unused;
    while (poll(&out, 1, -1) < 0 && errno == EINTR)
        ; /* a signal meant for the run */
    if (out.revents & (POLLERR | POLLHUP)) {
        atomic_store(&closed, 1);
        if (!interrupt_requested())
            interrupt_adopt(SIGPIPE);
    }
    return NULL;
}

void stdout_watch_start(void)
{
    static atomic_int started;
    struct stat info;
    pthread_t thread;
    pthread_attr_t attr;
    if (fstat(STDOUT_FILENO, &info) != 0 ||
        !(S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode)) ||
        atomic_exchange(&started, 1))
        return;
    /* without the watch the run goes on, and main reports the failed write after it */
    if (pthread_attr_init(&attr) != 0)
        return;
    if (pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
        pthread_create(&thread, &attr, watch, NULL) != 0)
        atomic_store(&started, 0);
    pthread_attr_destroy(&attr);
}

int stdout_watch_closed(void)
{
    return atomic_load(&closed);
}

int stdout_watch_failure(void)
{
    struct pollfd out = {.fd = STDOUT_FILENO, .events = 0};
    struct stat info;
    struct rlimit limit;
    if (atomic_load(&closed) ||
        (poll(&out, 1, 0) == 1 && (out.revents & (POLLERR | POLLHUP))))
        return EPIPE;
    if (fstat(STDOUT_FILENO, &info) == 0 && S_ISREG(info.st_mode) &&
        getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        (rlim_t)info.st_size >= limit.rlim_cur)
        return EFBIG;
    return 0;
}

/*
 * stdout_closed.c - the stand-in of a closed standard output (stdout_closed.h): a
 * pipe whose write end is descriptor 1 (non-blocking, so a long run's monitor
 * never waits on it: past the pipe's buffer its writes fail, which stdio keeps in
 * its error flag) and whose read end this process keeps, never reads, and asks
 * at the end whether any byte came.
 *
 *   printf -> fd 1 = [pipe] -> read end kept here: FIONREAD > 0, or ferror: lost
 */
#include "support/stdout_closed.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int reader = -1; /* the stand-in's read end; -1: stdout was open */

int stdout_closed_stand_in(void)
{
    int ends[2];
    if (pipe(ends) != 0)
        return -1;
    int moved = dup2(ends[1], STDOUT_FILENO) == STDOUT_FILENO;
    close(ends[1]);
    if (!moved) {
        close(ends[0]);
        return -1;
    }
    reader = ends[0];
    if (fcntl(reader, F_SETFD, FD_CLOEXEC) != 0 ||
        fcntl(STDOUT_FILENO, F_SETFL, O_NONBLOCK) != 0)
        return -1;
    return 0;
}

int stdout_closed_lost(void)
{
    int pending = 0;
    if (reader < 0)
        return 0;
    fflush(stdout);
    return ferror(stdout) || (ioctl(reader, FIONREAD, &pending) == 0 && pending > 0);
}

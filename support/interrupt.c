/*
 * interrupt.c - the signal handlers of interrupt.h. The handler only does what is
 * safe in a signal handler: it records the signal the first time; the second time
 * it unlinks the guarded temporary files and calls _exit, unless a set of renames
 * holds it (interrupt_hold): then it records the signal, and the end of the hold
 * stops the program. A signal that comes inside a wait on other processes (an MPI
 * call) also arms a one-shot timer: if that same wait is still going when it
 * rings, the process is taken to be torn down by its launcher and ends at once.
 *
 * The guarded names live in a list that only grows: a released entry is reused,
 * never freed, so the handler may walk the list at any moment.
 *
 *   head -> [in use, "dir/.lpA1b2C3"] -> [free] -> [in use, "dir/.lpZz09Qq"] -> NULL
 */
#define _POSIX_C_SOURCE 200809L
#include "support/interrupt.h"
#include "support/error.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct guard {
    volatile sig_atomic_t used;
    int handle;
    size_t room; /* bytes of path */
    char *path;
    struct guard *_Atomic next;
};

static volatile sig_atomic_t requested;
static struct guard *_Atomic head;
static int guard_count; /* entries in the list; handle i is the i-th made */

static const char *name_of(int signo);
static volatile sig_atomic_t silent; /* interrupt_silence_second */
static atomic_int holding;           /* interrupt_hold's depth */
static volatile sig_atomic_t held;   /* the second signal that came in a hold */

/* Waits on other processes (interrupt_wait_begin): their depth, a number per
 * outermost wait, the one the timer was armed in, the timer (if made). */
static atomic_int wait_depth;
static atomic_long wait_number, armed_number;
static timer_t wait_timer;
static volatile sig_atomic_t wait_timer_made;

void interrupt_silence_second(void)
{
    silent = 1;
}

/* One line on stderr from the handler: write(2) alone, which a handler may call. */
static void say_stopped_at_once(int signo)
{
    const char *parts[] = {"laplace: ", name_of(signo), " again",
                           ": stopped at once; the files being written are removed\n"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (write(STDERR_FILENO, parts[i], strlen(parts[i])) < 0)
            return;
}

/* The end of the program at once: the guarded files unlinked, _exit. */
static void stop_at_once(int signo)
{
    for (struct guard *g = atomic_load(&head); g; g = atomic_load(&g->next))
        if (g->used)
            unlink(g->path);
    if (!silent)
        say_stopped_at_once(signo);
    _exit(128 + signo);
}

/* The timer for the wait going on now: it rings after INTERRUPT_WAIT_GRACE_MS
 * (timer_settime is async-signal-safe). */
static void arm_wait_timer(void)
{
    struct itimerspec in = {
        .it_value = {.tv_sec = INTERRUPT_WAIT_GRACE_MS / 1000,
                     .tv_nsec = INTERRUPT_WAIT_GRACE_MS % 1000 * 1000000L}};
    if (!wait_timer_made || atomic_load(&wait_depth) == 0)
        return;
    atomic_store(&armed_number, atomic_load(&wait_number));
    timer_settime(wait_timer, 0, &in, NULL);
}

/* The timer rang: the wait the signal came in has not ended. */
static void on_wait_timer(int signo)
{
    (void)signo;
    if (atomic_load(&wait_depth) > 0 &&
        atomic_load(&wait_number) == atomic_load(&armed_number))
        stop_at_once(requested ? requested : SIGTERM);
}

static void on_signal(int signo)
{
    if (!requested) {
        requested = signo;
        arm_wait_timer();
        return;
    }
    if (atomic_load(&holding) > 0) {
        held = signo;
        return;
    }
    stop_at_once(signo);
}

void interrupt_hold(void)
{
    atomic_fetch_add(&holding, 1);
}

void interrupt_end_hold(void)
{
    if (atomic_fetch_sub(&holding, 1) == 1 && held)
        stop_at_once(held);
}

void interrupt_ignore_write_signals(void)
{
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
}

/* Every catchable signal whose default ends the program (a core dump aside):
 * Ctrl-C, the terminal's and a batch system's (TERM, HUP, QUIT; XCPU: a CPU
 * limit; ALRM, VTALRM, PROF: timers; USR1, USR2: a job's warnings). Each stops
 * the run as Ctrl-C does, so that no temporary is left behind. */
static const struct {
    int signo;
    const char *name;
} handled[] = {
    {SIGINT, "SIGINT"},   {SIGTERM, "SIGTERM"},     {SIGHUP, "SIGHUP"},
    {SIGQUIT, "SIGQUIT"}, {SIGUSR1, "SIGUSR1"},     {SIGUSR2, "SIGUSR2"},
    {SIGALRM, "SIGALRM"}, {SIGVTALRM, "SIGVTALRM"}, {SIGPROF, "SIGPROF"},
    {SIGXCPU, "SIGXCPU"},
};

void interrupt_install(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++)
        sigaction(handled[i].signo, &action, NULL);
    interrupt_ignore_write_signals();
}

int interrupt_requested(void)
{
    return requested;
}

void interrupt_adopt(int signo)
{
    requested = signo;
}

static const char *name_of(int signo)
{
    if (signo == SIGPIPE)
        return "SIGPIPE";
    for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++)
        if (handled[i].signo == signo)
            return handled[i].name;
    return "a signal";
}

const char *interrupt_signal_name(void)
{
    return name_of(requested);
}

int interrupt_exit_status(void)
{
    return requested == SIGPIPE ? EXIT_FAILURE_RUN : 128 + requested;
}

/* A free entry with room for length bytes, or a new one at the head; NULL: no memory. */
static struct guard *free_entry(size_t length)
{
    for (struct guard *g = atomic_load(&head); g; g = atomic_load(&g->next))
        if (!g->used && g->room >= length)
            return g;
    struct guard *g = calloc(1, sizeof *g);
    char *path = malloc(length < 256 ? 256 : length);
    if (!g || !path) {
        free(g);
        free(path);
        return NULL;
    }
    g->room = length < 256 ? 256 : length;
    g->path = path;
    g->handle = guard_count++;
    atomic_store(&g->next, atomic_load(&head));
    atomic_store(&head, g); /* the handler sees it whole, still unused */
    return g;
}

int interrupt_guard(const char *temporary_path)
{
    int handle = -1;
#pragma omp critical(interrupt_guard)
    {
        struct guard *g = free_entry(strlen(temporary_path) + 1);
        if (g) {
            strcpy(g->path, temporary_path);
            atomic_signal_fence(memory_order_seq_cst); /* the handler sees a whole name */
            g->used = 1;
            handle = g->handle;
        }
    }
    return handle;
}

void interrupt_release(int handle)
{
    if (handle < 0)
        return;
#pragma omp critical(interrupt_guard)
    for (struct guard *g = atomic_load(&head); g; g = atomic_load(&g->next))
        if (g->handle == handle)
            g->used = 0;
}

int interrupt_watch_waits(void)
{
    struct sigevent event;
    struct sigaction action;
    memset(&event, 0, sizeof event);
    memset(&action, 0, sizeof action);
    action.sa_handler = on_wait_timer;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    event.sigev_notify = SIGEV_SIGNAL;
    event.sigev_signo = SIGRTMIN;
    if (sigaction(SIGRTMIN, &action, NULL) != 0 ||
        timer_create(CLOCK_MONOTONIC, &event, &wait_timer) != 0)
        return -1;
    wait_timer_made = 1;
    return 0;
}

void interrupt_wait_begin(void)
{
    if (atomic_fetch_add(&wait_depth, 1) == 0)
        atomic_fetch_add(&wait_number, 1);
}

void interrupt_wait_end(void)
{
    atomic_fetch_sub(&wait_depth, 1);
}

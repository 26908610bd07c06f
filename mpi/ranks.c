/*
 * ranks.c - the MPI calls of laplace (ranks.h), each checked by MPI_CHECK.
 *
 * MPI starts only when a launcher set up this process (mpirun's OMPI_*, PMIx's
 * or PMI's variables); otherwise, and in a build without MPI (no HAVE_MPI), there
 * is one rank and nothing here talks to anyone. The threads of a rank take turns
 * with MPI (MPI_THREAD_SERIALIZED): the solver calls it from one thread at a time,
 * between barriers.
 *
 * An MPI call that fails means the ranks can no longer talk, so no agreement is
 * possible: MPI_CHECK prints one line naming the call, the rank and the node, and
 * stops every rank with MPI_Abort. The device failures the solver meets are not of
 * that kind: they travel as flags (ranks_first_flagged) and every rank stops
 * together.
 */
#include "mpi/ranks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "support/error.h"
#include "support/interrupt.h"

static int my_rank, world_size = 1, local_rank, local_size = 1, started;
static char node[256] = "localhost";

/* ranks_file with one process, or without MPI: plain POSIX calls. */
static int posix_open(struct ranks_file *f, const char *path, char *err, size_t n)
{
    f->handle = NULL;
    f->fd = open(path, O_WRONLY | O_CLOEXEC);
    return f->fd >= 0 ? 0
                      : error_set(err, n, "cannot open '%s': %s", path, strerror(errno));
}

static int posix_write_at(struct ranks_file *f, long long offset, const void *data,
                          size_t bytes, char *err, size_t n)
{
    for (size_t at = 0; at < bytes;) {
        ssize_t done = pwrite(f->fd, (const char *)data + at, bytes - at,
                              (off_t)(offset + (long long)at));
        if (done <= 0)
            return error_set(err, n, "a write failed: %s",
                             done < 0 ? strerror(errno) : "nothing written");
        at += (size_t)done;
    }
    return 0;
}

static int posix_close(struct ranks_file *f, char *err, size_t n)
{
    if (f->fd >= 0 && close(f->fd) != 0)
        return error_set(err, n, "closing a file failed: %s", strerror(errno));
    f->fd = -1;
    return 0;
}

#ifdef HAVE_MPI
#include <mpi.h>
#if defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h> /* MPIX_Query_cuda_support */
#endif

/* Prints the failed call with the rank and node, then stops every rank. */
static void mpi_failed(int rc, const char *call, const char *file, int line)
{
    char text[MPI_MAX_ERROR_STRING] = "unknown error";
    int length = 0;
    MPI_Error_string(rc, text, &length);
    fprintf(stderr, "laplace: rank %d (%s): %s failed: %s (%s:%d)\n", my_rank, node, call,
            text, file, line);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

enum { IDLE_POLL_NS = 1000000 }; /* ranks_wait_idle looks every millisecond */

/* Every call is a wait on the other ranks (interrupt.h): a signal that finds this
 * rank blocked in one by a dead peer ends it at once, its temporaries removed. */
#define MPI_CHECK(call)                                                                  \
    do {                                                                                 \
        interrupt_wait_begin();                                                          \
        int mpi_rc_ = (call);                                                            \
        interrupt_wait_end();                                                            \
        if (mpi_rc_ != MPI_SUCCESS)                                                      \
            mpi_failed(mpi_rc_, #call, __FILE__, __LINE__);                              \
    } while (0)

/* Whether a launcher (mpirun, srun, mpiexec) started this process. */
static int launched(void)
{
    static const char *variables[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK",
                                      "PMI_SIZE"};
    for (size_t i = 0; i < sizeof variables / sizeof *variables; i++)
        if (getenv(variables[i]))
            return 1;
    return 0;
}

/* This rank's place among the ranks of its node. */
static void find_node_ranks(void)
{
    MPI_Comm shared;
    int length = 0;
    MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, my_rank,
                                  MPI_INFO_NULL, &shared));
    MPI_CHECK(MPI_Comm_rank(shared, &local_rank));
    MPI_CHECK(MPI_Comm_size(shared, &local_size));
    MPI_CHECK(MPI_Comm_free(&shared));
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_CHECK(MPI_Get_processor_name(name, &length));
    snprintf(node, sizeof node, "%.*s", length, name);
}

int ranks_start(char *err, size_t n)
{
    int provided = 0;
    if (!launched())
        return 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        return error_set(err, n, "MPI_Init_thread failed: MPI could not start");
    started = 1;
    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &my_rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &world_size));
    find_node_ranks();
    if (world_size > 1)
        interrupt_watch_waits(); /* when it cannot, a wait is only not watched */
    if (provided < MPI_THREAD_SERIALIZED)
        return error_set(err, n,
                         "this MPI gives no MPI_THREAD_SERIALIZED: the threads of a rank "
                         "cannot take turns with it");
    return 0;
}

void ranks_end(void)
{
    if (started)
        MPI_Finalize();
    started = 0;
}

int ranks_built_with_mpi(void)
{
    return 1;
}

int ranks_cuda_aware(void)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return started && MPIX_Query_cuda_support() == 1;
#else
    return 0;
#endif
}

void ranks_wait_idle(void)
{
    MPI_Request barrier;
    int done = 0;
    if (!started)
        return;
    MPI_CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &barrier));
    interrupt_wait_begin(); /* the polls and sleeps are one wait */
    while (!done) {
        MPI_CHECK(MPI_Test(&barrier, &done, MPI_STATUS_IGNORE));
        if (!done)
            nanosleep(&(struct timespec){.tv_nsec = IDLE_POLL_NS}, NULL);
    }
    interrupt_wait_end();
}

int ranks_first_flagged(int flag)
{
    int mine = flag ? my_rank : world_size, first = mine;
    if (started)
        MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    return first < world_size ? first : -1;
}

void ranks_share(int root, void *data, size_t n)
{
    if (started)
        MPI_CHECK(MPI_Bcast(data, (int)n, MPI_BYTE, root, MPI_COMM_WORLD));
}

long ranks_max(long value)
{
    long all = value;
    if (started)
        MPI_CHECK(MPI_Allreduce(&value, &all, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD));
    return all;
}

double ranks_largest(double value)
{
    double all = value;
    if (started)
        MPI_CHECK(MPI_Allreduce(&value, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    return all;
}

void ranks_gather_all(const double *mine, const int *counts, double *all)
{
    if (!started) {
        memcpy(all, mine, (size_t)counts[0] * sizeof *all);
        return;
    }
    int *offsets = malloc((size_t)world_size * sizeof *offsets);
    if (!offsets)
        mpi_failed(MPI_ERR_NO_MEM, "malloc (the gather's offsets)", __FILE__, __LINE__);
    for (int r = 0, at = 0; r < world_size; at += counts[r++])
        offsets[r] = at;
    MPI_CHECK(MPI_Allgatherv(mine, counts[my_rank], MPI_DOUBLE, all, counts, offsets,
                             MPI_DOUBLE, MPI_COMM_WORLD));
    free(offsets);
}

void ranks_exchange(struct rank_message *messages, int count)
{
    MPI_Request *requests = malloc((size_t)(count ? count : 1) * sizeof *requests);
    if (!requests)
        mpi_failed(MPI_ERR_NO_MEM, "malloc (the exchange's requests)", __FILE__,
                   __LINE__);
    for (int i = 0; i < count; i++) {
        struct rank_message *m = &messages[i];
        if (m->receive)
            MPI_CHECK(MPI_Irecv(m->data, (int)m->bytes, MPI_BYTE, m->peer, m->tag,
                                MPI_COMM_WORLD, &requests[i]));
        else
            MPI_CHECK(MPI_Isend(m->data, (int)m->bytes, MPI_BYTE, m->peer, m->tag,
                                MPI_COMM_WORLD, &requests[i]));
    }
    MPI_CHECK(MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
    free(requests);
}

void ranks_merge(void *data, size_t count, size_t elem)
{
    const size_t chunk = (size_t)1 << 28; /* an int counts the values of one call */
    MPI_Datatype type = elem == 8 ? MPI_UINT64_T : MPI_UINT32_T;
    for (size_t at = 0; started && at < count; at += chunk) {
        int length = (int)(count - at < chunk ? count - at : chunk);
        MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, (char *)data + at * elem, length, type,
                                MPI_BOR, MPI_COMM_WORLD));
    }
}

void ranks_barrier(void)
{
    if (started)
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

void ranks_sum(long long *values, size_t count)
{
    const size_t chunk = (size_t)1 << 28;
    for (size_t at = 0; started && at < count; at += chunk) {
        int length = (int)(count - at < chunk ? count - at : chunk);
        MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values + at, length, MPI_LONG_LONG, MPI_SUM,
                                MPI_COMM_WORLD));
    }
}

/* An MPI-IO call's failure as one line in err. */
static int file_failed(int rc, const char *what, char *err, size_t n)
{
    char text[MPI_MAX_ERROR_STRING] = "unknown error";
    int length = 0;
    MPI_Error_string(rc, text, &length);
    return error_set(err, n, "rank %d (%s): %s failed: %s", my_rank, node, what, text);
}

int ranks_file_open(struct ranks_file *f, const char *path, char *err, size_t n)
{
    f->fd = -1;
    if (!started)
        return posix_open(f, path, err, n);
    MPI_File *file = malloc(sizeof *file);
    f->handle = file;
    if (!file)
        return error_set(err, n, "rank %d: out of memory", my_rank);
    interrupt_wait_begin(); /* collective */
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, file);
    interrupt_wait_end();
    if (rc != MPI_SUCCESS) {
        free(file);
        f->handle = NULL;
        return file_failed(rc, "MPI_File_open", err, n);
    }
    return 0;
}

int ranks_file_write_at(struct ranks_file *f, long long offset, const void *data,
                        size_t bytes, char *err, size_t n)
{
    const size_t chunk = (size_t)1 << 30; /* an int counts the bytes of one call */
    if (!f->handle)
        return posix_write_at(f, offset, data, bytes, err, n);
    for (size_t at = 0; at < bytes; at += chunk) {
        int length = (int)(bytes - at < chunk ? bytes - at : chunk);
        MPI_Status status;
        int written = 0;
        int rc = MPI_File_write_at(*(MPI_File *)f->handle,
                                   (MPI_Offset)(offset + (long long)at),
                                   (const char *)data + at, length, MPI_BYTE, &status);
        if (rc != MPI_SUCCESS)
            return file_failed(rc, "MPI_File_write_at", err, n);
        MPI_Get_count(&status, MPI_BYTE, &written);
        if (written != length)
            return error_set(err, n, "rank %d (%s): a write was cut short", my_rank,
                             node);
    }
    return 0;
}

int ranks_file_close(struct ranks_file *f, char *err, size_t n)
{
    if (!f->handle)
        return posix_close(f, err, n);
    interrupt_wait_begin(); /* collective */
    int rc = MPI_File_close((MPI_File *)f->handle);
    interrupt_wait_end();
    free(f->handle);
    f->handle = NULL;
    return rc == MPI_SUCCESS ? 0 : file_failed(rc, "MPI_File_close", err, n);
}

#else /* no MPI in this build: one rank */

void ranks_wait_idle(void) {}

int ranks_start(char *err, size_t n)
{
    (void)err, (void)n;
    return 0;
}

void ranks_end(void)
{
    started = 0; /* never set: MPI is not in this build */
}

int ranks_built_with_mpi(void)
{
    return 0;
}

int ranks_cuda_aware(void)
{
    return 0;
}

int ranks_first_flagged(int flag)
{
    return flag ? 0 : -1;
}

void ranks_share(int root, void *data, size_t n)
{
    (void)root, (void)data, (void)n;
}

long ranks_max(long value)
{
    return value;
}

double ranks_largest(double value)
{
    return value;
}

void ranks_gather_all(const double *mine, const int *counts, double *all)
{
    memcpy(all, mine, (size_t)counts[0] * sizeof *all);
}

void ranks_exchange(struct rank_message *messages, int count)
{
    (void)messages, (void)count; /* one rank has no one to talk to */
}

void ranks_merge(void *data, size_t count, size_t elem)
{
    (void)data, (void)count, (void)elem;
}

void ranks_barrier(void) {}

void ranks_sum(long long *values, size_t count)
{
    (void)values, (void)count;
}

int ranks_file_open(struct ranks_file *f, const char *path, char *err, size_t n)
{
    return posix_open(f, path, err, n);
}

int ranks_file_write_at(struct ranks_file *f, long long offset, const void *data,
                        size_t bytes, char *err, size_t n)
{
    return posix_write_at(f, offset, data, bytes, err, n);
}

int ranks_file_close(struct ranks_file *f, char *err, size_t n)
{
    return posix_close(f, err, n);
}
#endif

int ranks_agree_status(int status, char *err, size_t n)
{
    int first = ranks_first_flagged(status != 0);
    if (first < 0)
        return status;
    ranks_share(first, &status, sizeof status);
    ranks_share(first, err, n);
    err[n - 1] = '\0';
    return status;
}

int ranks_rank(void)
{
    return my_rank;
}

int ranks_size(void)
{
    return world_size;
}

int ranks_local_rank(void)
{
    return local_rank;
}

int ranks_local_size(void)
{
    return local_size;
}

const char *ranks_node(void)
{
    return node;
}

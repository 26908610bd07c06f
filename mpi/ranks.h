/*
 * ranks.h - the MPI ranks of a run across nodes: every MPI call of laplace is in
 * ranks.c, behind these functions, so the rest of the program reads the same with
 * one process or many.
 *
 * Under mpirun or srun each rank drives a block of the tiles (gpu_partition.h,
 * partition_rank_of): its tiles' OpenMP threads and GPUs as on one workstation,
 * the edges between ranks sent by MPI. Every rank runs the same code path and takes
 * the same decisions from the same numbers; rank 0 alone prints and writes the
 * whole-field outputs. A failure on one rank is agreed on before anyone leaves, so
 * no rank waits forever.
 *
 * Without a launcher (no MPI environment), or in a build without MPI, there is one
 * rank and every function here is a plain no-op: laplace runs exactly as on one
 * workstation, without initialising MPI at all.
 */
#ifndef LAPLACE_RANKS_H
#define LAPLACE_RANKS_H

#include <stddef.h>

/* Starts MPI when a launcher started this process (after the signal handlers are
 * installed: interrupt.h). 0, or -1 with err set (MPI could not start). */
int ranks_start(char *err, size_t n);

/* Ends MPI, if ranks_start started it. */
void ranks_end(void);

int ranks_rank(void);           /* this process's rank, 0 without MPI */
int ranks_size(void);           /* the number of ranks, 1 without MPI */
int ranks_local_rank(void);     /* this rank's place among the ranks of its node */
int ranks_local_size(void);     /* the ranks on this node */
const char *ranks_node(void);   /* the name of this rank's node */
int ranks_built_with_mpi(void); /* 1 when laplace was built with MPI */
/* 1 when the MPI says, at run time, that it takes GPU memory (CUDA-aware). laplace
 * does not use that yet: edges between ranks always pass through host memory. */
int ranks_cuda_aware(void);

/* Every rank waits here until all have come, without holding a core meanwhile (it
 * looks every millisecond): for the ranks that wait while one rank works alone,
 * such as rank 0's comparison on the node's cores, where a waiting rank that spun
 * in MPI would slow it and its timing. */
void ranks_wait_idle(void);

/* The lowest rank whose flag is set (every rank calls it), or -1 when none is. */
int ranks_first_flagged(int flag);

/* Copies rank root's n bytes at data into data on every rank. */
void ranks_share(int root, void *data, size_t n);

/* The largest of every rank's value, on every rank. */
long ranks_max(long value);
double ranks_largest(double value);

/* Every rank's values on every rank: rank r sends counts[r] doubles (its `mine`),
 * all[] gets them rank after rank. */
void ranks_gather_all(const double *mine, const int *counts, double *all);

/* One edge sent to or received from another rank (ranks_exchange). */
struct rank_message {
    int peer;   /* the other rank */
    int tag;    /* the same on both sides */
    void *data; /* host memory */
    size_t bytes;
    int receive; /* 1: from peer into data; 0: data to peer */
};

/* Posts every message at once (non-blocking) and waits for all of them. */
void ranks_exchange(struct rank_message *messages, int count);

/* count values of elem bytes (4 or 8) at data become, on every rank, the bitwise
 * OR of every rank's: where each value is non-zero on one rank at most, every
 * rank gets every rank's values, bit for bit. */
void ranks_merge(void *data, size_t count, size_t elem);

/* The status of the first rank whose status is not 0 becomes every rank's, its
 * message copied into err (n bytes); status itself when every rank had 0. */
int ranks_agree_status(int status, char *err, size_t n);

/* Every rank waits for every other. */
void ranks_barrier(void);

/* The values of every rank added, in place, on every rank (exact for the byte
 * counts of ranks_file's pieces). */
void ranks_sum(long long *values, size_t count);

/*
 * A file that every rank writes at once (MPI-IO), each rank its own pieces at their
 * offsets: ranks_file_open (every rank; the file exists already: the ranks open
 * it for writing), ranks_file_write_at (any rank, any number of times) and
 * ranks_file_close (every rank). Each 0, or -1 with err set: an I/O error is no
 * MPI failure, so it is returned, for the ranks to agree on (ranks_agree_status).
 * Without MPI, plain POSIX writes.
 */
struct ranks_file {
    void *handle; /* MPI_File, or the descriptor without MPI */
    int fd;
};
int ranks_file_open(struct ranks_file *f, const char *path, char *err, size_t n);
int ranks_file_write_at(struct ranks_file *f, long long offset, const void *data,
                        size_t bytes, char *err, size_t n);
int ranks_file_close(struct ranks_file *f, char *err, size_t n);

#endif

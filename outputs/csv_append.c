/*
 * csv_append.c - rows appended whole to --csv-append's file (csv_append.h).
 */
#include "outputs/csv_append.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outputs/output_paths.h"
#include "outputs/temp_file.h"
#include "support/error.h"

/* Opens path to append (created when absent, if create), without waiting on a
 * FIFO; a descriptor of a regular file, or -1 with err set. */
static int open_table(const char *path, int create, char *err, size_t n)
{
    struct stat info;
    int fd =
        open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC | (create ? O_CREAT : 0),
             0666);
    if (fd < 0 && errno == EISDIR)
        return error_set(err, n, "cannot append to %s: it is a directory", path);
    if (fd < 0 && errno == ENXIO) /* a FIFO without a reader */
        return error_set(err, n, "cannot append to %s: not a regular file", path);
    if (fd < 0)
        return error_set(err, n, "cannot append to %s: %s", path, strerror(errno));
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        close(fd);
        return error_set(err, n, "cannot append to %s: not a regular file", path);
    }
    if (!(info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))) { /* root may write it */
        close(fd);
        return error_set(err, n, "cannot append to %s: it is read-only", path);
    }
    return fd;
}

/* The table in fd (size bytes) ends with a newline and begins with header. */
static int check_table(int fd, off_t size, const char *path, const char *header,
                       char *err, size_t n)
{
    size_t length = strlen(header);
    char last, *first = malloc(length + 1);
    if (!first)
        return error_set(err, n, "cannot append to %s: out of memory", path);
    int same = pread(fd, first, length, 0) == (ssize_t)length &&
               memcmp(first, header, length) == 0;
    free(first);
    if (pread(fd, &last, 1, size - 1) != 1 || last != '\n')
        return error_set(err, n,
                         "cannot append to %s: it does not end with a newline (a row "
                         "cut short?); mend or move it",
                         path);
    if (!same)
        return error_set(err, n,
                         "cannot append to %s: its first line is not this program's "
                         "CSV header; append to a new file",
                         path);
    return 0;
}

/* The table's length, after checking it when not empty; -1 with err set. */
static off_t table_length(int fd, const char *path, const char *header, char *err,
                          size_t n)
{
    struct stat info;
    if (fstat(fd, &info) != 0)
        return error_set(err, n, "cannot append to %s: %s", path, strerror(errno));
    if (info.st_size > 0 && check_table(fd, info.st_size, path, header, err, n) != 0)
        return -1;
    return info.st_size;
}

/* A descriptor to append to path, whose table (*length bytes) was checked. */
static int open_checked(const char *path, const char *header, int create, off_t *length,
                        char *err, size_t n)
{
    int fd = open_table(path, create, err, n);
    if (fd < 0)
        return -1;
    int reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (reader < 0) {
        close(fd);
        return error_set(err, n, "cannot append to %s: %s", path, strerror(errno));
    }
    *length = table_length(reader, path, header, err, n);
    close(reader);
    if (*length >= 0)
        return fd;
    close(fd);
    return -1;
}

int csv_append_check(const char *path, const char *header, char *err, size_t n)
{
    struct stat info;
    off_t length;
    if (stat(path, &info) != 0 && errno == ENOENT) { /* new: its real folder writable */
        char real[OUTPUT_PATH_MAX];
        struct temp_file t;
        output_paths_resolve(path, 1, real, sizeof real);
        FILE *f = temp_file_open(real, &t, err, n);
        if (!f)
            return -1;
        fclose(f);
        temp_file_discard(&t);
        return 0;
    }
    int fd = open_checked(path, header, 0, &length, err, n);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

int csv_append_row(const char *path, const char *header, const char *row, char *err,
                   size_t n)
{
    off_t length;
    int fd = open_checked(path, header, 1, &length, err, n);
    if (fd < 0)
        return -1;
    size_t head = length == 0 ? strlen(header) : 0, size = head + strlen(row);
    char *line = malloc(size);
    if (!line) {
        close(fd);
        return error_set(err, n, "cannot append to %s: out of memory", path);
    }
    memcpy(line, header, head);
    memcpy(line + head, row, size - head);
    errno = 0;
    ssize_t written = write(fd, line, size);
    int saved = errno;
    free(line);
    if (written != (ssize_t)size && ftruncate(fd, length) != 0 && !saved)
        saved = errno;
    if (close(fd) != 0 && written == (ssize_t)size)
        return error_set(err, n, "cannot append to %s: %s", path, strerror(errno));
    if (written != (ssize_t)size)
        return error_set(err, n, "cannot append to %s: %s (the row is not added)", path,
                         saved ? strerror(saved) : "a write cut short");
    return 0;
}

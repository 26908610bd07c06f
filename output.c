/*
 * output.c - the field to files: the .dat text format of the course (top row
 * first, values separated by spaces, printed with enough digits to read back
 * the same bits: 9 significant digits in float, 17 in double).
 */
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void temporary_name(const char *path, char *tmp, size_t n)
{
    snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
}

int output_check_writable(const char *path, char *err, size_t errlen)
{
    char tmp[4096];
    struct stat info;
    if (stat(path, &info) == 0 && S_ISDIR(info.st_mode)) {
        snprintf(err, errlen, "cannot write '%s': it is a directory", path);
        return -1;
    }
    temporary_name(path, tmp, sizeof tmp);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    fclose(f);
    remove(tmp);
    return 0;
}

static int write_dat(FILE *f, const struct field *field)
{
    int digits = field->precision == PRECISION_FLOAT ? 9 : 17;
    for (long y = field->ny - 1; y >= 0; y--) {
        for (long x = 0; x < field->nx; x++)
            if (fprintf(f, x ? " %.*g" : "%.*g", digits, field_get(field, x, y)) < 0)
                return -1;
        if (fputc('\n', f) == EOF)
            return -1;
    }
    return 0;
}

int output_write(const char *path, const struct field *field, char *err, size_t errlen)
{
    char tmp[4096];
    temporary_name(path, tmp, sizeof tmp);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    int rc = write_dat(f, field);
    if (fclose(f) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1;
    if (rc != 0) {
        snprintf(err, errlen, "writing '%s' failed: %s", path, strerror(errno));
        remove(tmp);
    }
    return rc;
}

int output_snapshot_path(const char *path, long iteration, char *out, size_t n)
{
    const char *dot = strrchr(path, '.');
    int stem = dot ? (int)(dot - path) : (int)strlen(path);
    int written = snprintf(out, n, "%.*s-%06ld%s", stem, path, iteration, dot ? dot : "");
    return written < 0 || (size_t)written >= n ? -1 : 0;
}

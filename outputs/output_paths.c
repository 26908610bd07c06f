/*
 * output_paths.c - one file under two names, and names too long (output_paths.h).
 */
#include "outputs/output_paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/error.h"

/* path's folder ("." for none) in folder, its last part at *base. */
static void split(const char *path, char *folder, size_t n, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(folder, n, ".");
    else if (slash == path)
        snprintf(folder, n, "/");
    else
        snprintf(folder, n, "%.*s", (int)(slash - path), path);
}

/* output_paths_resolve, following at most depth links of a file appended to that
 * does not exist yet (a link to a new file: the append creates its target). */
static void resolve(const char *path, int append, int depth, char *out, size_t n)
{
    char folder[PATH_MAX], real[PATH_MAX], target[PATH_MAX], joined[2 * PATH_MAX];
    const char *base;
    if (append && realpath(path, real)) {
        snprintf(out, n, "%s", real);
        return;
    }
    split(path, folder, sizeof folder, &base);
    ssize_t length = append && depth > 0 ? readlink(path, target, sizeof target - 1) : -1;
    if (length > 0) {
        target[length] = '\0';
        snprintf(joined, sizeof joined, "%s%s%s", target[0] == '/' ? "" : folder,
                 target[0] == '/' ? "" : "/", target);
        resolve(joined, append, depth - 1, out, n);
    } else if (realpath(folder, real)) {
        snprintf(out, n, "%s%s%s", real, strcmp(real, "/") ? "/" : "", base);
    } else {
        snprintf(out, n, "%s", path);
    }
}

void output_paths_resolve(const char *path, int append, char *out, size_t n)
{
    resolve(path, append, 8, out, n);
}

int output_paths_is_snapshot(const char *file, const char *output, long every)
{
    const char *dot = strrchr(output, '.'), *slash = strrchr(output, '/');
    size_t stem =
        dot && (!slash || dot > slash) ? (size_t)(dot - output) : strlen(output);
    const char *ext = output + stem, *p = file + stem;
    if (every <= 0 || strncmp(file, output, stem) != 0 || *p != '-')
        return 0;
    char *end;
    long iteration = strtol(p + 1, &end, 10);
    if (end - (p + 1) < 6 || iteration <= 0 || iteration % every != 0)
        return 0;
    if (strcmp(end, ext) == 0)
        return 1;
    if (*end != '_' || strcmp(ext, ".pvti") != 0) /* a piece: NAME-ITER_T.vti */
        return 0;
    char *after;
    strtol(end + 1, &after, 10);
    return after > end + 1 && strcmp(after, ".vti") == 0;
}

int output_paths_check_name(const char *path, char *err, size_t n)
{
    char folder[PATH_MAX];
    const char *base;
    split(path, folder, sizeof folder, &base);
    errno = 0;
    long name_max = pathconf(folder, _PC_NAME_MAX), path_max = PATH_MAX;
    if (name_max <= 0)
        name_max = NAME_MAX; /* a folder that does not exist: its own check says so */
    if ((long)strlen(base) > name_max)
        return error_set(err, n,
                         "cannot write '%.80s...': its name has %zu bytes, more than the "
                         "%ld the file system takes",
                         path, strlen(base), name_max);
    if ((long)strlen(path) >= path_max)
        return error_set(err, n,
                         "cannot write '%.80s...': its path has %zu bytes, more than the "
                         "%ld the system takes",
                         path, strlen(path), path_max - 1);
    return 0;
}

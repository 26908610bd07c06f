/*
 * presets.c - the presets folder (presets.h), found from the running binary's own
 * path (/proc/self/exe) rather than from a folder fixed at build time: the same
 * binary installed under any PREFIX (spaces included), or moved, or run from the
 * source tree, finds its own presets.
 *
 *   PREFIX/bin/laplace          ->  PREFIX/share/laplace/config/   (make install)
 *   TREE/laplace                ->  TREE/config/                   (the source tree)
 */
#include "settings/presets.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/error.h"

/* The folders of the presets, relative to the binary's folder, in order. */
static const char *const beside_binary[] = {"/../share/laplace/config", "/config"};

int presets_dir(char *dir, size_t n)
{
    char exe[PATH_MAX], candidate[PATH_MAX + 32], resolved[PATH_MAX];
    struct stat info;
    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    dir[0] = '\0';
    if (length <= 0)
        return -1;
    exe[length] = '\0';
    *strrchr(exe, '/') = '\0'; /* the binary's folder: the link is absolute */
    for (size_t i = 0; i < sizeof beside_binary / sizeof *beside_binary; i++) {
        snprintf(candidate, sizeof candidate, "%s%s", exe, beside_binary[i]);
        if (realpath(candidate, resolved) && stat(resolved, &info) == 0 &&
            S_ISDIR(info.st_mode) && strlen(resolved) < n) {
            memcpy(dir, resolved, strlen(resolved) + 1);
            return 0;
        }
    }
    return -1;
}

int presets_find(const char *name, char *path, size_t n)
{
    char dir[PATH_MAX];
    struct stat info;
    if (!name[0] || strchr(name, '/') || access(name, F_OK) == 0 ||
        presets_dir(dir, sizeof dir) != 0)
        return -1;
    if ((size_t)snprintf(path, n, "%s/%s", dir, name) >= n || stat(path, &info) != 0)
        return -1;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .ini files of dir, sorted, ", "-separated, into out (cut short with "..."
 * where n is too small). */
static void list_presets(const char *dir, char *out, size_t n)
{
    char *names[256];
    int count = 0;
    DIR *d = opendir(dir);
    out[0] = '\0';
    for (struct dirent *e; d && count < 256 && (e = readdir(d));) {
        size_t length = strlen(e->d_name);
        if (length > 4 && strcmp(e->d_name + length - 4, ".ini") == 0 &&
            (names[count] = strdup(e->d_name)))
            count++;
    }
    if (d)
        closedir(d);
    qsort(names, (size_t)count, sizeof *names, by_name);
    for (int i = 0; i < count; i++) {
        size_t used = strlen(out);
        if (used + strlen(names[i]) + 8 < n)
            snprintf(out + used, n - used, "%s%s", i ? ", " : "", names[i]);
        else if (used + 5 < n && !strstr(out, "..."))
            snprintf(out + used, n - used, ", ...");
        free(names[i]);
    }
}

int presets_refuse_missing(const char *name, char *err, size_t n)
{
    char dir[PATH_MAX], list[600];
    if (!name[0] || strchr(name, '/') || access(name, F_OK) == 0)
        return 0; /* "" is refused as empty by config_load_file */
    if (presets_dir(dir, sizeof dir) != 0) {
        error_status(EXIT_BAD_USAGE, err, n,
                     "%s: no such file, and this laplace has no presets folder beside it "
                     "(share/laplace/config or config/)",
                     name);
        return -1;
    }
    list_presets(dir, list, sizeof list);
    error_status(EXIT_BAD_USAGE, err, n, "%s: no such file, nor a preset in %s (%s)",
                 name, dir, list[0] ? list : "none there");
    return -1;
}

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

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

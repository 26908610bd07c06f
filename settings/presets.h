/*
 * presets.h - where the presets (the INI files of config/) are found: beside the
 * running binary, PREFIX/share/laplace/config for an installed laplace
 * (PREFIX/bin/laplace), or the source tree's config/ for ./laplace there (presets.c).
 */
#ifndef LAPLACE_PRESETS_H
#define LAPLACE_PRESETS_H

#include <stddef.h>

/* The presets folder, resolved (no "..", no link). 0 with dir set; -1 when the
 * binary has none (dir then holds ""). */
int presets_dir(char *dir, size_t n);

/*
 * A CONFIG.ini given as a bare name (no '/') that the current folder does not
 * hold: its path in the presets folder. 0 with path set; -1 when name is not
 * such a preset (then name itself is read, and its error is name's own).
 */
int presets_find(const char *name, char *path, size_t n);

/*
 * A CONFIG.ini that is neither a file nor a preset, refused: "NAME: no such file, nor
 * a preset in DIR (a.ini, b.ini, ...)" in err, naming the folder searched and the
 * presets it holds (or that this binary has none). Returns -1 when name is such a
 * bare name (no '/'), with err set; 0 otherwise (the file is read as it is).
 */
int presets_refuse_missing(const char *name, char *err, size_t n);

#endif

/*
 * output_formats.h - the file formats of --output, by extension: the one list that
 * the settings check (setters.c) and the writers dispatch on (output.c).
 */
#ifndef LAPLACE_OUTPUT_FORMATS_H
#define LAPLACE_OUTPUT_FORMATS_H

#include <string.h>

enum output_format {
    FORMAT_DAT,  /* text, top row first, one lattice row per line */
    FORMAT_VTI,  /* VTK ImageData */
    FORMAT_PVTI, /* VTK parallel ImageData: an index and one .vti piece per tile */
    FORMAT_PNG,  /* the heat map */
    FORMAT_BIN,  /* raw values behind a 48-byte header */
    FORMAT_NPY,  /* NumPy's .npy: np.load reads it */
    FORMAT_UNKNOWN
};

/* The extensions in the order of enum output_format, as the messages list them. */
#define OUTPUT_EXTENSIONS ".dat .vti .pvti .png .bin .npy"

/* The format of a path, by the extension after its last dot. */
static inline enum output_format output_format_of(const char *path)
{
    static const char *const extensions[] = {".dat", ".vti", ".pvti",
                                             ".png", ".bin", ".npy"};
    const char *dot = strrchr(path, '.');
    for (int f = 0; dot && f < FORMAT_UNKNOWN; f++)
        if (strcmp(dot, extensions[f]) == 0)
            return (enum output_format)f;
    return FORMAT_UNKNOWN;
}

#endif

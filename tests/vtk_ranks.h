/*
 * vtk_ranks.h - what a .pvti written under MPI adds to one process's (issue 44, item
 * 7): each piece's "rank" cell array, checked against the tile's owner and taken out,
 * with the .pvti's declaration of it, so that the tests comparing the ranks' files
 * with one process's compare the rest byte for byte.
 */
#ifndef LAPLACE_TEST_VTK_RANKS_H
#define LAPLACE_TEST_VTK_RANKS_H

#include <dirent.h>
#include <stdint.h>

#include "gpu_partition.h"
#include "helpers.h"

/* The rank array a piece written under MPI carries (issue 44, item 7): checked to be
 * rank's in every cell, then taken out (its declaration and its appended block, the
 * last), leaving the bytes one process writes. */
static inline void vtk_ranks_take_piece(const char *path, int rank)
{
    static const char declared[] =
        "        <DataArray type=\"Int32\" Name=\"rank\" format=\"appended\"";
    long size = 0;
    unsigned char *bytes = slurp_bytes(path, &size);
    cr_assert(bytes, "cannot read %s", path);
    bytes[size] = '\0';
    char *line = strstr((char *)bytes, declared);
    cr_assert(line, "%s declares no rank array", path);
    const char *offset = strstr(line, "offset=\"");
    cr_assert(offset, "%s: no offset of rank", path);
    long at = atol(offset + 8);
    const unsigned char *block =
        (unsigned char *)strchr(strstr((char *)bytes, "<AppendedData"), '_') + 1 + at;
    uint64_t count;
    memcpy(&count, block, sizeof count);
    for (uint64_t c = 0; c < count / 4; c++) {
        int32_t got;
        memcpy(&got, block + 8 + 4 * c, 4);
        cr_assert_eq(got, rank, "%s: rank %d in cell %llu, want %d", path, got,
                     (unsigned long long)c, rank);
    }
    long line_length = (long)(strchr(line, '\n') + 1 - line);
    long block_start = (long)(block - bytes), block_end = block_start + 8 + (long)count;
    FILE *f = fopen(path, "wb");
    cr_assert(f, "cannot rewrite %s", path);
    long head = (long)((unsigned char *)line - bytes);
    cr_assert(fwrite(bytes, 1, (size_t)head, f) == (size_t)head &&
                  fwrite(bytes + head + line_length, 1,
                         (size_t)(block_start - head - line_length),
                         f) == (size_t)(block_start - head - line_length) &&
                  fwrite(bytes + block_end, 1, (size_t)(size - block_end), f) ==
                      (size_t)(size - block_end) &&
                  fclose(f) == 0,
              "cannot rewrite %s", path);
    free(bytes);
}

/* The same for every piece (NAME_T.vti) in dir and every .pvti's declaration of
 * rank; the ranks expected from the tiles' layout (partition_rank_of) on rx x ry
 * ranks, args holding "--nx N --ny N" and "--partition AxB". */
static inline void vtk_ranks_take(const char *dir, const char *args, int rx, int ry)
{
    int ngx, ngy;
    long nx, ny;
    struct partition p;
    const char *partition = strstr(args, "--partition "), *sides = strstr(args, "--nx ");
    cr_assert(partition && sides, "%s", args);
    cr_assert(sscanf(partition, "--partition %dx%d", &ngx, &ngy) == 2 &&
                  sscanf(sides, "--nx %ld --ny %ld", &nx, &ny) == 2,
              "%s", args);
    cr_assert_eq(partition_init(&p, nx, ny, ngx, ngy), 0);
    DIR *d = opendir(dir);
    cr_assert(d, "cannot list %s", dir);
    for (struct dirent *e; (e = readdir(d));) {
        char path[1024], *under = strrchr(e->d_name, '_');
        size_t length = strlen(e->d_name);
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (under && length > 4 && strcmp(e->d_name + length - 4, ".vti") == 0)
            vtk_ranks_take_piece(path, partition_rank_of(&p, rx, ry, atoi(under + 1)));
        if (length > 5 && strcmp(e->d_name + length - 5, ".pvti") == 0) {
            char command[1200];
            snprintf(command, sizeof command,
                     "sed -i '/<PDataArray type=\"Int32\" Name=\"rank\"\\/>/d' '%s'",
                     path);
            cr_assert_eq(system(command), 0, "%s", command);
        }
    }
    closedir(d);
    partition_free(&p);
}

#endif

/*
 * run_files.c - the files a run will write, checked before the solve (run_files.h):
 * every file listed with one name for it (output_paths.h), the pairs compared, each
 * file tried; --csv-append's file never the stdout that the report overwrites; and
 * --csv-append's row, whose header the check compares too.
 */
#include "run/run_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outputs/csv_append.h"
#include "outputs/output.h"
#include "outputs/output_paths.h"
#include "support/error.h"

/* The files a run writes: the history, the CSV appended to, each --output, each
 * .pvti's pieces; each also as one name for its file (output_paths.h). */
struct run_file {
    char path[OUTPUT_PATH_MAX];
    char resolved[OUTPUT_PATH_MAX];
    const char *option; /* "--history", "--csv-append", "--output", or a piece's .pvti */
};

/* Adds path to files[*k] under option. */
static void add_file(struct run_file *files, int *k, const char *path, const char *option)
{
    struct run_file *f = &files[(*k)++];
    snprintf(f->path, sizeof f->path, "%s", path);
    output_paths_resolve(path, strcmp(option, "--csv-append") == 0, f->resolved,
                         sizeof f->resolved);
    f->option = option;
}

/* Every file of the plan in files (calloc'd, *count of them); NULL: no memory. */
static struct run_file *files_of(const struct plan *plan, int *count)
{
    const struct config *c = &plan->config;
    int tiles = plan->ops ? partition_count(&plan->partition) : 1, k = 0;
    char piece[OUTPUT_PATH_MAX];
    struct run_file *files =
        calloc((size_t)(2 + c->output_count * (tiles + 1)), sizeof *files);
    if (files && c->history[0])
        add_file(files, &k, c->history, "--history");
    if (files && c->csv_append[0])
        add_file(files, &k, c->csv_append, "--csv-append");
    for (int i = 0; files && i < c->output_count; i++) {
        add_file(files, &k, c->outputs[i], "--output");
        for (int t = 0; output_has_pieces(c->outputs[i]) && t < tiles; t++)
            if (output_piece_path(c->outputs[i], t, piece, sizeof piece) == 0)
                add_file(files, &k, piece, c->outputs[i]);
    }
    *count = k;
    return files;
}

/* a and b, two names of one file: EXIT_BAD_USAGE naming both. (Pieces of two
 * different .pvti cannot share a name: their stems differ.) */
static int same_file(const struct run_file *a, const struct run_file *b, char *err,
                     size_t n)
{
    if (a->option[0] != '-') /* b is an option on a's piece */
        return error_status(EXIT_BAD_USAGE, err, n,
                            "%s '%s': it is a piece of --output '%s'", b->option, b->path,
                            a->option);
    if (b->option[0] != '-')
        return error_status(EXIT_BAD_USAGE, err, n,
                            "%s '%s': it is a piece of --output '%s'", a->option, a->path,
                            b->option);
    return error_status(EXIT_BAD_USAGE, err, n, "%s '%s': the same file as %s '%s'",
                        b->option, b->path, a->option, a->path);
}

/* file would be overwritten by a snapshot of output (--snapshot-every). */
static int snapshot_on(const struct run_file *file, const struct run_file *output,
                       long every, char *err, size_t n)
{
    if (file == output || strcmp(output->option, "--output") != 0 ||
        !output_paths_is_snapshot(file->resolved, output->resolved, every))
        return EXIT_OK;
    return error_status(EXIT_BAD_USAGE, err, n,
                        "%s '%s': a snapshot of --output '%s' (--snapshot-every %ld) "
                        "takes that name",
                        file->option, file->path, output->path, every);
}

/* Two of the files on one file: EXIT_BAD_USAGE, one line naming both. */
static int check_distinct(const struct run_file *files, int count, long snapshot_every,
                          char *err, size_t n)
{
    for (int i = 0; i < count; i++)
        for (int j = 0; j < count; j++) {
            const struct run_file *a = &files[i], *b = &files[j];
            int status = snapshot_on(b, a, snapshot_every, err, n);
            if (status != EXIT_OK)
                return status;
            if (j > i && (a->option[0] == '-' || b->option[0] == '-') &&
                strcmp(a->resolved, b->resolved) == 0)
                return same_file(a, b, err, n);
        }
    return EXIT_OK;
}

/* The report's CSV header, or a row of r (r NULL: the header), as text (malloc'd;
 * NULL: no memory). */
static char *csv_text(const struct run_report *r)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    if (r)
        report_csv_row(f, r);
    else
        report_csv_header(f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int run_files_csv_append(const char *path, const struct run_report *r, char *err,
                         size_t n)
{
    char *header = csv_text(NULL), *row = r ? csv_text(r) : NULL;
    int rc = !header || (r && !row)
                 ? error_set(err, n, "cannot append to %s: out of memory", path)
             : r ? csv_append_row(path, header, row, err, n)
                 : csv_append_check(path, header, err, n);
    free(header);
    free(row);
    return rc;
}

/* The longest snapshot name of --output path (that of iteration last) fits the
 * file system: 0, or -1 with one line naming the snapshot, its iteration and the
 * end of its name (the head is the --output's own). */
static int check_snapshot_name(const char *path, long last, char *line, size_t n)
{
    char snapshot[OUTPUT_PATH_MAX], why[CONFIG_ERROR_MAX];
    if (output_snapshot_path(path, last, snapshot, sizeof snapshot) != 0)
        return error_set(line, n,
                         "--snapshot-every: the snapshots' names of --output '%.200s' are "
                         "too long",
                         path);
    if (output_paths_check_name(snapshot, why, sizeof why) == 0)
        return 0;
    size_t length = strlen(snapshot);
    return error_set(line, n,
                     "--snapshot-every: the snapshot of iteration %ld of --output, "
                     "named '...%s': %s",
                     last, snapshot + (length > 40 ? length - 40 : 0), why);
}

/* Each file the plan writes (and its snapshots' names) can be written: one line
 * of err each that cannot. */
static int check_each(const struct plan *plan, const struct run_file *files, int count,
                      char *err, size_t n)
{
    char line[CONFIG_ERROR_MAX];
    int status = EXIT_OK;
    for (int i = 0; i < count; i++) {
        const struct run_file *f = &files[i];
        int failed = strcmp(f->option, "--csv-append") == 0
                         ? run_files_csv_append(f->path, NULL, line, sizeof line) != 0
                     : strcmp(f->option, "--output") == 0
                         ? output_check_writable(f->path, line, sizeof line) != 0
                         : output_check_file(f->path, line, sizeof line) != 0;
        if (!failed && strcmp(f->option, "--output") == 0 &&
            plan->config.snapshot_every > 0)
            failed = check_snapshot_name(f->path, plan->max_iter, line, sizeof line);
        if (failed) {
            error_add_line(err, n, line);
            status = EXIT_FAILURE_RUN;
        }
    }
    return status;
}

/* --csv-append on the file that stdout writes from its start (> FILE, or
 * /proc/self/fd/1): the report would overwrite the rows; EXIT_BAD_USAGE. A stdout
 * opened to append (>> FILE) adds after them, as the rows are added. */
static int check_not_stdout(const struct config *c, char *err, size_t n)
{
    struct stat table, out;
    int flags = fcntl(STDOUT_FILENO, F_GETFL);
    if (!c->csv_append[0] || stat(c->csv_append, &table) != 0 ||
        fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode) ||
        table.st_dev != out.st_dev || table.st_ino != out.st_ino ||
        (flags != -1 && (flags & O_APPEND)))
        return EXIT_OK;
    return error_status(EXIT_BAD_USAGE, err, n,
                        "--csv-append '%s': it is the standard output, which the report "
                        "overwrites; use --csv, or append with >>",
                        c->csv_append);
}

int run_files_check(const struct plan *plan, char *err, size_t n)
{
    int count, status;
    struct run_file *files = files_of(plan, &count);
    if (!files)
        return error_status(EXIT_FAILURE_RUN, err, n, "out of host memory");
    err[0] = '\0';
    status = check_distinct(files, count, plan->config.snapshot_every, err, n);
    if (status == EXIT_OK)
        status = check_not_stdout(&plan->config, err, n);
    if (status == EXIT_OK)
        status = check_each(plan, files, count, err, n);
    free(files);
    return status;
}

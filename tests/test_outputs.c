/*
 * test_outputs.c - the output files end to end, through ./laplace on the host tiles:
 * .bin, .vti, .pvti, .png and .dat of one run agree with each other and with the
 * serial run; --history; Ctrl-C (SIGINT) stops the run, writes the field reached,
 * says "interrupted at iteration k" and exits 130; a second one exits at once
 * leaving no half file.
 */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb/stb_image.h> /* stbi_info; test_png.c holds the implementation */

#include "helpers.h"

#define PLATE "--nx 61 --ny 45 --top 1 --left 0.3 --right -0.7 --bottom 2.5 --eps 1e-5"

/* The raw values of a .vti: what follows "_" and the 8-byte count. */
static const unsigned char *vti_values(const unsigned char *vti, long size,
                                       uint64_t *bytes)
{
    const char *appended = strstr((const char *)vti, "<AppendedData encoding=\"raw\">");
    cr_assert(appended, "no raw appended data");
    const unsigned char *underscore = (const unsigned char *)strchr(appended, '_');
    cr_assert(underscore && underscore + 9 < vti + size);
    memcpy(bytes, underscore + 1, 8);
    return underscore + 9;
}

static void write_all(const char *layout, const char *stem)
{
    struct run r =
        laplace_run("--backend %s " PLATE " -q --output %s.bin --output %s.vti "
                    "--output %s.pvti --output %s.png --output %s.dat",
                    layout, stem, stem, stem, stem, stem);
    cr_assert_eq(r.status, 0, "%s: %s", layout, r.err);
    run_free(&r);
}

Test(outputs, every_format_holds_the_field_on_1_2_and_4_tiles, .timeout = 120)
{
    require_laplace();
    const char *layouts[] = {"serial", "cpu --partition 1x1", "cpu --partition 2x1",
                             "cpu --partition 2x2"};
    const int tiles[] = {1, 1, 2, 4};
    long serial_size = 0;
    unsigned char *serial = NULL;
    for (int i = 0; i < 4; i++) {
        char stem[256], path[300];
        snprintf(stem, sizeof stem, TEST_OUT "/%ld-all%d", out_pid(), i);
        write_all(layouts[i], stem);
        long bin_size, vti_size;
        snprintf(path, sizeof path, "%s.bin", stem);
        unsigned char *bin = slurp_bytes(path, &bin_size);
        snprintf(path, sizeof path, "%s.vti", stem);
        unsigned char *vti = slurp_bytes(path, &vti_size);
        cr_assert(bin && vti);
        /* .bin: the header, then the values; the same bits on every layout */
        cr_assert(memcmp(bin, "LAPLACEB", 8) == 0);
        int64_t nx, ny;
        memcpy(&nx, bin + 16, 8), memcpy(&ny, bin + 24, 8);
        cr_assert(nx == 61 && ny == 45 && bin_size == 48 + 61 * 45 * 8);
        if (!serial)
            serial = bin, serial_size = bin_size;
        else
            cr_assert(bin_size == serial_size &&
                          memcmp(bin + 48, serial + 48, (size_t)bin_size - 48) == 0,
                      "%s: the field differs from serial", layouts[i]);
        /* .vti: the same values in the same order (x fastest, bottom row first) */
        uint64_t bytes;
        const unsigned char *values = vti_values(vti, vti_size, &bytes);
        cr_assert_eq(bytes, (uint64_t)(bin_size - 48));
        cr_assert(memcmp(values, bin + 48, bytes) == 0, "%s: .vti values", layouts[i]);
        /* .pvti: one piece per tile, each a file beside it */
        snprintf(path, sizeof path, "%s.pvti", stem);
        char *pvti = slurp(path);
        cr_assert(pvti);
        int pieces = 0;
        for (const char *p = pvti; (p = strstr(p, "<Piece ")); p++)
            pieces++;
        cr_assert_eq(pieces, tiles[i], "%s: %d pieces", layouts[i], pieces);
        for (int t = 0; t < tiles[i]; t++) {
            snprintf(path, sizeof path, "%s_%d.vti", stem, t);
            cr_assert_eq(access(path, R_OK), 0, "%s missing", path);
            remove(path);
        }
        /* .png: decodes, and is wider than the lattice (the colour bar) */
        int w, h, comp;
        snprintf(path, sizeof path, "%s.png", stem);
        cr_assert(stbi_info(path, &w, &h, &comp), "%s does not decode", path);
        cr_assert(w > 61 && h >= 45, "%dx%d", w, h);
        /* .dat: 45 lines of 61 values, top row first */
        snprintf(path, sizeof path, "%s.dat", stem);
        char *dat = slurp(path);
        cr_assert(dat);
        cr_assert_eq(count_lines(dat), 45);
        const char *exts[] = {"bin", "vti", "pvti", "png", "dat"};
        for (int e = 0; e < 5; e++) {
            snprintf(path, sizeof path, "%s.%s", stem, exts[e]);
            remove(path);
        }
        free(dat), free(pvti), free(vti);
        if (bin != serial)
            free(bin);
    }
    free(serial);
}

Test(outputs, unwritable_path_is_refused_before_the_solve)
{
    require_laplace();
    struct run r = laplace_run("--backend cpu --nx 2000 --ny 2000 --eps 1e-12 --output "
                               "/nonexistent-folder/a.vti");
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(strstr(r.err, "/nonexistent-folder/a.vti"), "%s", r.err);
    cr_assert_eq(r.out[0], '\0', "nothing ran: %s", r.out);
    run_free(&r);
}

Test(outputs, history_has_every_norm_in_order)
{
    require_laplace();
    char path[256];
    out_path(path, sizeof path, "h.csv");
    struct run r =
        laplace_run("--backend cpu --partition 2x1 " PLATE " --csv --history %s", path);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char iterations[64];
    csv_field(nth_line(r.out, 1), 7, iterations, sizeof iterations);
    char *h = slurp(path);
    cr_assert(h);
    cr_assert(strncmp(h, "iteration,norm,elapsed_s,eps\n", 29) == 0);
    long rows = count_lines(h) - 1, last = 0, k;
    double norm = 0, elapsed, before = 0;
    for (const char *line = strchr(h, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        cr_assert_eq(sscanf(line, "%ld,%lf,%lf", &k, &norm, &elapsed), 3, "%s", line);
        cr_assert(k == last + 1 && elapsed >= before, "row %ld after %ld", k, last);
        last = k, before = elapsed;
    }
    cr_assert_eq(rows, atol(iterations), "a row per iteration (the norm every one)");
    cr_assert(norm < 1e-5, "the last norm %g is under eps", norm);
    free(h);
    run_free(&r);
}

/* Runs laplace in the background, sends SIGINT count times after a second, and
 * returns its exit status; its stdout goes to out_file. */
static int interrupt_run(const char *args, int count, const char *out_file)
{
    char command[2048];
    snprintf(command, sizeof command,
             "./laplace %s > %s 2>&1 & pid=$!; sleep 1; for i in $(seq %d); do "
             "kill -INT $pid; done; wait $pid",
             args, out_file, count);
    int raw = system(command);
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

Test(outputs, ctrl_c_writes_the_field_reached_and_exits_130, .timeout = 60)
{
    require_laplace();
    char stem[256], args[1024], report[300], path[300];
    snprintf(stem, sizeof stem, TEST_OUT "/%ld-int", out_pid());
    snprintf(report, sizeof report, "%s.txt", stem);
    snprintf(args, sizeof args,
             "--backend cpu --partition 2x1 --nx 300 --ny 300 --eps 1e-14 "
             "--max-iter 100000000 --output %s.bin --output %s.vti --history %s.csv",
             stem, stem, stem);
    cr_assert_eq(interrupt_run(args, 1, report), 130);
    char *text = slurp(report);
    const char *at = text ? strstr(text, "interrupted at iteration ") : NULL;
    cr_assert(at, "the report says where: %s", text ? text : "(none)");
    long k = atol(at + strlen("interrupted at iteration "));
    long size;
    snprintf(path, sizeof path, "%s.bin", stem);
    unsigned char *bin = slurp_bytes(path, &size);
    cr_assert(bin && size == 48 + 300 * 300 * 8, "the whole field was written");
    int64_t iteration;
    uint32_t flags;
    memcpy(&iteration, bin + 32, 8), memcpy(&flags, bin + 40, 4);
    cr_assert(iteration == k && (flags & 1), "bin: iteration %ld flags %u, report %ld",
              (long)iteration, flags, k);
    snprintf(path, sizeof path, "%s.vti", stem);
    char *vti = slurp(path);
    char note[64];
    snprintf(note, sizeof note, "interrupted at iteration %ld", k);
    cr_assert(vti && strstr(vti, note), "the .vti says '%s'", note);
    snprintf(path, sizeof path, "%s.csv", stem);
    cr_assert_eq(access(path, R_OK), 0, "the history up to there is kept");
    const char *exts[] = {"bin", "vti", "csv", "txt"};
    for (int e = 0; e < 4; e++) {
        snprintf(path, sizeof path, "%s.%s", stem, exts[e]);
        remove(path);
    }
    free(bin), free(vti), free(text);
}

Test(outputs, a_second_ctrl_c_exits_at_once_leaving_no_half_file, .timeout = 60)
{
    require_laplace();
    char dir[256], args[1024], report[300], command[600];
    snprintf(dir, sizeof dir, TEST_OUT "/%ld-int2", out_pid());
    mkdir(dir, 0777);
    snprintf(report, sizeof report, "%s.txt", dir);
    snprintf(args, sizeof args,
             "--backend cpu --nx 3000 --ny 3000 --eps 1e-14 --max-iter 100000000 "
             "--output %s/a.dat --output %s/a.vti",
             dir, dir);
    cr_assert_eq(interrupt_run(args, 2, report), 130);
    /* every file there is whole: no temporary name left, a .dat of 3000 lines */
    snprintf(command, sizeof command, "ls %s | grep -c tmp", dir);
    FILE *p = popen(command, "r");
    int temporaries = -1;
    cr_assert(p && fscanf(p, "%d", &temporaries) == 1);
    pclose(p);
    cr_assert_eq(temporaries, 0, "a temporary file was left in %s", dir);
    char path[300];
    snprintf(path, sizeof path, "%s/a.dat", dir);
    char *dat = slurp(path);
    cr_assert(!dat || count_lines(dat) == 3000, "a.dat is whole or absent");
    free(dat);
    snprintf(command, sizeof command, "rm -rf %s %s", dir, report);
    cr_assert_eq(system(command), 0);
}

/* .npy: NumPy's format 1.0 (magic, header length, the dict with the dtype and the
 * shape (ny, nx), the values at a multiple of 64 bytes) holding the .bin's values. */
Test(outputs, npy_is_numpys_format_with_the_bins_values)
{
    require_laplace();
    char stem[256], path[300];
    snprintf(stem, sizeof stem, TEST_OUT "/%ld-npy", out_pid());
    for (int p = 0; p < 2; p++) {
        const char *precision = p ? "double" : "float";
        struct run r = laplace_run("--backend cpu --partition 2x1 " PLATE
                                   " --precision %s -q --output %s.npy --output %s.bin",
                                   precision, stem, stem);
        cr_assert_eq(r.status, 0, "%s", r.err);
        run_free(&r);
        long npy_size, bin_size;
        snprintf(path, sizeof path, "%s.npy", stem);
        unsigned char *npy = slurp_bytes(path, &npy_size);
        snprintf(path, sizeof path, "%s.bin", stem);
        unsigned char *bin = slurp_bytes(path, &bin_size);
        cr_assert(npy && bin && npy_size > 10, "both written");
        cr_assert(memcmp(npy, "\x93NUMPY\x01\x00", 8) == 0, "the magic and version 1.0");
        long header = npy[8] | (npy[9] << 8), start = 10 + header;
        cr_assert_eq(start % 64, 0, "the values start at %ld, a multiple of 64", start);
        cr_assert_eq(npy[start - 1], '\n', "the header ends with a newline");
        char dict[256] = "", want[128];
        memcpy(dict, npy + 10, (size_t)(header < 255 ? header : 255));
        snprintf(want, sizeof want,
                 "'descr': '<f%d', 'fortran_order': False, 'shape': (45, 61)", p ? 8 : 4);
        cr_assert(strstr(dict, want), "the header %s holds %s", dict, want);
        cr_assert(npy_size - start == bin_size - 48 &&
                      memcmp(npy + start, bin + 48, (size_t)(bin_size - 48)) == 0,
                  "the values are the .bin's (%s)", precision);
        free(npy), free(bin);
    }
    snprintf(path, sizeof path, "%s.npy", stem), remove(path);
    snprintf(path, sizeof path, "%s.bin", stem), remove(path);
}

/* A snapshot that cannot be written stops the run with status 1 and one line naming
 * the file, on every backend; one process names no MPI rank (the serial reference
 * said "rank 0 (): " before its result started as the tiles' does). */
Test(outputs, a_snapshot_that_cannot_be_written_is_one_line_and_status_1)
{
    require_laplace();
    static const char *const backends[] = {"serial", "cpu"};
    char dir[256], blocker[400];
    snprintf(dir, sizeof dir, TEST_OUT "/%ld-snapfail", out_pid());
    mkdir(dir, 0777);
    snprintf(blocker, sizeof blocker, "%s/f-000010.dat", dir);
    cr_assert_eq(mkdir(blocker, 0777), 0, "a directory where the snapshot goes");
    for (int b = 0; b < 2; b++) {
        struct run r = laplace_run("--backend %s --nx 32 --ny 32 --max-iter 30 "
                                   "--snapshot-every 10 -q --output %s/f.dat",
                                   backends[b], dir);
        cr_assert_eq(r.status, 1, "%s: status %d", backends[b], r.status);
        cr_assert(strstr(r.err, "laplace: writing '") && strstr(r.err, "f-000010.dat"),
                  "%s: %s", backends[b], r.err);
        cr_assert(!strstr(r.err, "rank"), "%s names a rank: %s", backends[b], r.err);
        cr_assert(!strchr(r.err, '\n') || !strchr(r.err, '\n')[1],
                  "%s: more than one line: %s", backends[b], r.err);
        run_free(&r);
    }
    rmdir(blocker);
    rmdir(dir);
}

/* A .pvti snapshot has one piece per tile, as the final output has: the same extents. */
Test(outputs, a_pvti_snapshot_has_a_piece_per_tile)
{
    require_laplace();
    char dir[256], path[512];
    snprintf(dir, sizeof dir, TEST_OUT "/%ld-snap", out_pid());
    mkdir(dir, 0777);
    struct run r =
        laplace_run("--backend cpu --partition 2x2 --nx 40 --ny 30 --method "
                    "weighted --steps 20 --snapshot-every 10 -q --output %s/s.pvti",
                    dir);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    snprintf(path, sizeof path, "%s/s.pvti", dir);
    char *final = slurp(path);
    snprintf(path, sizeof path, "%s/s-000010.pvti", dir);
    char *snapshot = slurp(path);
    cr_assert(final && snapshot, "both indexes written");
    const char *f = final, *s = snapshot;
    int pieces = 0;
    while ((f = strstr(f, "<Piece Extent=\"")) && (s = strstr(s, "<Piece Extent=\""))) {
        cr_assert_eq(strncmp(f, s, strcspn(f, "S")), 0, "piece %d: the same extent",
                     pieces);
        snprintf(path, sizeof path, "%s/s-000010_%d.vti", dir, pieces);
        cr_assert_eq(access(path, R_OK), 0, "%s written", path);
        f++, s++, pieces++;
    }
    cr_assert_eq(pieces, 4, "4 pieces in the snapshot's index, as in the final one");
    free(final), free(snapshot);
    char command[600];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    cr_assert_eq(system(command), 0);
}

/*
 * test_messages.c - the small things people meet at once (issue 26, item 11): each
 * message says what was given and why it is refused, nothing is accepted and then
 * ignored, and a lone lattice side makes a square lattice.
 */
#include <criterion/criterion.h>

#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"

TestSuite(messages, .init = require_laplace);

#define SMALL "--backend serial --nx 8 --ny 8 --max-iter 20"

/* One line, status 2, naming what; and the text the message must hold. */
static void refused_saying(const char *args, const char *named, const char *says)
{
    struct run r = laplace_run("%s", args);
    check_refused(&r, 2, named);
    cr_assert(strstr(r.err, says), "%s: want '%s' in: %s", args, says, r.err);
    run_free(&r);
}

Test(messages, an_omega_just_past_its_limit_is_quoted_as_given)
{
    refused_saying(SMALL " --method weighted --omega 1.0000001", "--omega",
                   "W = 1.0000001 > 1");
    refused_saying(SMALL " --method sor --omega 2.0000000001", "--omega",
                   "got 2.0000000001");
}

Test(messages, a_subnormal_number_is_out_of_range_not_infinite)
{
    refused_saying(SMALL " --top 1e-320", "--top", "out of the range of a double");
    refused_saying(SMALL " --eps 1e-320", "--eps", "out of the range of a double");
    struct run r = laplace_run(SMALL " --top 1e-320");
    cr_assert_null(strstr(r.err, "finite"), "not called 'not finite': %s", r.err);
    run_free(&r);
}

Test(messages, a_float_edge_formula_past_the_largest_float_is_refused_before_the_run)
{
    refused_saying(SMALL " --precision float --top 'exp(700)'", "--top",
                   "beyond the largest float");
    refused_saying(SMALL " --precision float --left '1e32*exp(20*y)'", "--left",
                   "beyond the largest float");
    struct run r = laplace_run(SMALL " --precision double --top 'exp(700)' -q");
    cr_assert_eq(r.status, 0, "double holds it: %s", r.err);
    run_free(&r);
    r = laplace_run(SMALL " --precision float --top 'exp(40)' -q");
    cr_assert_eq(r.status, 0, "float holds exp(40): %s", r.err);
    run_free(&r);
}

/* An INI file of these bytes, run with --dry-run; its run. */
static struct run ini_run(const char *name, const char *bytes, size_t length)
{
    char path[256];
    out_path(path, sizeof path, name);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(bytes, 1, length, f), length);
    cr_assert_eq(fclose(f), 0);
    return laplace_run("%s --backend cpu --dry-run", path);
}
#define INI_RUN(name, text) ini_run(name, text, sizeof text - 1)

Test(messages, a_byte_order_mark_past_the_files_start_is_named_not_echoed)
{
    struct run r = INI_RUN("bom.ini", "[problem]\n\xef\xbb\xbfnx = 16\n");
    check_refused(&r, 2, "bom.ini:2");
    cr_assert(strstr(r.err, "byte-order mark (U+FEFF) at column 1"), "%s", r.err);
    cr_assert_null(strstr(r.err, "\xef\xbb\xbf"), "the mark is not echoed: %s", r.err);
    run_free(&r);
    r = INI_RUN("bom-start.ini", "\xef\xbb\xbf[problem]\nnx = 16\n");
    cr_assert_eq(r.status, 0, "a mark at the start is fine: %s", r.err);
    run_free(&r);
}

#define TEN "0123456789"
#define HUNDRED TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN
/* "; " and 196 more: a comment line of 198 bytes, the most the reader takes. */
#define LINE_198 "; " HUNDRED TEN TEN TEN TEN TEN TEN TEN TEN TEN "012345"

Test(messages, a_crlf_end_does_not_count_against_the_line_limit)
{
    struct run r = INI_RUN("crlf.ini", LINE_198 "\r\n[problem]\r\nnx = 9\r\n");
    cr_assert_eq(r.status, 0, "198 bytes and CRLF: %s", r.err);
    cr_assert(strstr(r.out, "9 x 9 lattice"), "%s", r.out);
    run_free(&r);
    r = INI_RUN("crlf-long.ini", LINE_198 "7\r\n[problem]\r\nnx = 9\r\n");
    check_refused(&r, 2, "crlf-long.ini:1");
    cr_assert(strstr(r.err, "longer than 198 bytes"), "%s", r.err);
    run_free(&r);
    r = INI_RUN("cr-inside.ini", "[problem]\r\nnx = 9\rny = 9\r\n");
    check_refused(&r, 2, "cr-inside.ini:2"); /* a lone CR is still a control byte */
    run_free(&r);
}

Test(messages, a_region_name_is_limited_in_bytes_and_said_so)
{
    /* 16 two-byte characters: 32 bytes, one too many */
    struct run r =
        INI_RUN("name.ini", "[region \xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
                            "\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
                            "\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9]\n");
    check_refused(&r, 2, "name.ini:1");
    cr_assert(strstr(r.err, "1 to 31 bytes"), "%s", r.err);
    run_free(&r);
}

Test(messages, a_key_of_the_other_shape_is_refused_not_ignored)
{
    struct run r = INI_RUN("disc.ini", "[region a]\nshape = disc\ncx = 0.5\ncy = 0.5\n"
                                       "r = 0.2\nvalue = 1\nx0 = 0.1\n");
    check_refused(&r, 2, "disc.ini");
    cr_assert(strstr(r.err, "'x0' is not a key of a disc"), "%s", r.err);
    run_free(&r);
    r = INI_RUN("rect.ini", "[region b]\nshape = rect\nx0 = 0.1\ny0 = 0.1\nx1 = 0.5\n"
                            "y1 = 0.5\nvalue = 1\nr = 0.3\n");
    check_refused(&r, 2, "rect.ini");
    cr_assert(strstr(r.err, "'r' is not a key of a rect"), "%s", r.err);
    run_free(&r);
}

Test(messages, devices_take_a_blank_only_after_a_comma)
{
    refused_saying("--backend cpu --partition 1x1 --devices ' 0' --dry-run", "--devices",
                   "a blank only after a comma");
    refused_saying("--backend cpu --partition 2x1 --devices '0 ,1' --dry-run",
                   "--devices", "got '0 ,1'");
    refused_saying("--backend cpu --partition 1x1 --devices '0 ' --dry-run", "--devices",
                   "got '0 '");
    struct run r =
        laplace_run("--backend cpu --partition 2x1 --devices '0, 1' --dry-run");
    cr_assert_eq(r.status, 0, "'0, 1' is a list: %s", r.err);
    run_free(&r);
}

Test(messages, a_lone_side_makes_a_square_lattice)
{
    const char *ways[][2] = {{"--nx 16", "16 x 16"},
                             {"--ny 20", "20 x 20"},
                             {"", "256 x 256"},
                             {"--nx 16 --ny 40", "16 x 40"}};
    for (size_t k = 0; k < sizeof ways / sizeof ways[0]; k++) {
        struct run r = laplace_run("%s --backend cpu --dry-run", ways[k][0]);
        cr_assert_eq(r.status, 0, "%s: %s", ways[k][0], r.err);
        cr_assert(strstr(r.out, ways[k][1]), "%s: want %s in %s", ways[k][0], ways[k][1],
                  r.out);
        run_free(&r);
    }
    struct run r = INI_RUN("side.ini", "[problem]\nny = 12\n");
    cr_assert(strstr(r.out, "12 x 12 lattice"), "a side from the file: %s", r.out);
    run_free(&r);
    /* the file gives both: an option changes one only */
    r = laplace_run("config/course-512.ini --nx 64 --backend cpu --dry-run");
    cr_assert(strstr(r.out, "64 x 512 lattice"), "%s", r.out);
    run_free(&r);
}

Test(messages, more_tiles_than_cores_are_said_also_to_a_log_file)
{
    int cores = omp_get_num_procs(), tiles = cores + 1;
    struct run r =
        laplace_run("--backend cpu --partition %dx1 --nx %d --ny 8 --max-iter 3", tiles,
                    4 * tiles + 2);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "take turns"), "stderr is a file here: %s", r.err);
    run_free(&r);
    r = laplace_run("--backend cpu --partition %dx1 --nx %d --ny 8 --max-iter 3 -q",
                    tiles, 4 * tiles + 2);
    cr_assert_str_eq(r.err, "", "-q: errors only");
    run_free(&r);
}

Test(messages, ranks_of_one_tile_each_say_tile)
{
    char command[1024];
    require_mpirun();
    mpirun_command(command, sizeof command, "-np 2 --bind-to none ./laplace");
    struct run r = program_run(120, command,
                               "--backend cpu --partition 2x1 --nx 20 --ny 20 "
                               "--max-iter 5");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "blocks of 1 tile each"), "%s", r.out);
    run_free(&r);
}

/* The history carries the run's eps, and the convergence plot draws it as a line
 * (gnuplot is one of scripts/install-deps.sh's packages; without it that part skips). */
Test(messages, the_convergence_plot_draws_the_eps_line)
{
    char csv[256], png[256], command[1024];
    int status;
    out_path(csv, sizeof csv, "conv.csv");
    out_path(png, sizeof png, "conv-history.png");
    struct run r = laplace_run("--backend cpu --nx 32 --eps 1e-5 -q --history %s", csv);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    char *text = slurp(csv), field[64];
    cr_assert(text && strncmp(text, "iteration,norm,elapsed_s,eps\n", 29) == 0, "%s",
              text);
    cr_assert_str_eq(csv_field(nth_line(text, 1), 3, field, sizeof field), "1e-05");
    free(text);
    if (system("command -v gnuplot > /dev/null 2>&1") != 0)
        cr_skip_test("needs gnuplot (make deps installs gnuplot-nox)");
    snprintf(command, sizeof command,
             "gnuplot -e \"csv='%s'\" scripts/plot_history.gp 2>&1", csv);
    char *said = shell_run(command, &status);
    cr_assert_eq(status, 0, "%s", said);
    cr_assert(strstr(said, "the eps line at 1e-05"), "%s", said);
    cr_assert_null(strstr(said, "warning"), "%s", said);
    /* issue 44, item 11: the line clear of the bottom frame, a decade above it (the
     * last norm is just below eps) */
    const char *from = strstr(said, ", the y axis from ");
    cr_assert(from && strtod(from + 18, NULL) <= 1e-6, "%s", said);
    free(said);
    long size = 0;
    unsigned char *bytes = slurp_bytes(png, &size);
    cr_assert(bytes && size > 1000, "no %s", png);
    free(bytes);
    remove(png);
}

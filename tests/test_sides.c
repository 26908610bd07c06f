/*
 * test_sides.c - the lab's sides in one command (issue 26, item 10): --sides runs the
 * problem on each N x N lattice, one row per side (the course table's counts), the
 * exponents fitted on log-log axes, --csv-append collecting the rows, the options it
 * cannot take refused, and scripts/plot_lab.gp drawing the figure from the CSV.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "run/sides.h"

#define COURSE "config/course-512.ini --backend cpu"

TestSuite(sides, .init = require_laplace);

Test(sides, the_fit_is_the_slope_on_log_log_axes)
{
    double x[] = {16, 32, 64, 128}, y[4], t[4];
    for (int i = 0; i < 4; i++)
        y[i] = 3.0 * x[i] * x[i], t[i] = 1e-9 * pow(x[i], 4.0);
    cr_assert_float_eq(sides_fit_exponent(x, y, 4), 2.0, 1e-12);
    cr_assert_float_eq(sides_fit_exponent(x, t, 4), 4.0, 1e-12);
    cr_assert(isnan(sides_fit_exponent(x, y, 1)), "one point has no slope");
    double same[] = {16, 16};
    cr_assert(isnan(sides_fit_exponent(same, y, 2)), "one side twice has none");
}

/* The course table from one command: the counts of config/course-512.ini at 16^2 to
 * 64^2, one CSV row each, stop column and all. */
Test(sides, the_course_table_from_one_command)
{
    struct run r = laplace_run(COURSE " --sides 16,32,64 --csv");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(count_lines(r.out), 4, "a header and 3 rows:\n%s", r.out);
    const long want[] = {676, 2606, 9745};
    for (int k = 0; k < 3; k++) {
        char nx[16], iterations[32];
        const char *row = nth_line(r.out, k + 1);
        csv_field(row, 2, nx, sizeof nx);
        csv_field(row, 7, iterations, sizeof iterations);
        cr_assert_eq(atol(nx), 16L << k, "%s", row);
        cr_assert_eq(atol(iterations), want[k], "%s", row);
    }
    run_free(&r);
}

Test(sides, prints_a_row_per_side_and_the_fitted_exponents)
{
    struct run r = laplace_run(COURSE " --sides 16,32,64,128");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "laplace --sides: float, jacobi, eps 1e-10"), "%s", r.out);
    cr_assert(strstr(r.out, "     128^2       35073 iterations  stagnated"), "%s", r.out);
    double a = 0.0, b = 0.0;
    const char *fit = strstr(r.out, "  fit           iterations ~ N^");
    cr_assert(fit &&
                  sscanf(fit, "  fit           iterations ~ N^%lf, compute time ~ N^%lf",
                         &a, &b) == 2,
              "%s", r.out);
    cr_assert(a > 1.8 && a < 2.0, "Jacobi's iterations grow as N^2 (less the log): %g",
              a);
    /* The time's exponent depends on the machine's load (CI runs tests side by side),
     * so it is checked against the rows it was fitted on, not against physics. */
    double side[4], seconds[4];
    for (int k = 0; k < 4; k++) {
        const char *row = nth_line(r.out, k + 1);
        cr_assert(sscanf(row, " %lf^2 %*d iterations %*s compute %lf s", &side[k],
                         &seconds[k]) == 2,
                  "%s", row);
    }
    double refit = sides_fit_exponent(side, seconds, 4);
    cr_assert(isfinite(b) && b > 0.0, "compute time grows with the side: %g", b);
    cr_assert(fabs(b - refit) < 0.15, "the time's exponent %g is the fit of the rows' %g",
              b, refit);
    run_free(&r);
}

Test(sides, csv_append_collects_the_rows_of_every_side)
{
    char csv[256];
    out_path(csv, sizeof csv, "lab.csv");
    remove(csv);
    struct run r = laplace_run(COURSE " --sides 16,24,32 -q --csv-append %s", csv);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out, "", "-q: nothing on stdout");
    run_free(&r);
    char *text = slurp(csv);
    cr_assert_not_null(text);
    cr_assert_eq(count_lines(text), 4, "a header and 3 rows:\n%s", text);
    cr_assert(strncmp(text, "backend,precision,nx,ny,", 24) == 0, "%s", text);
    free(text);
}

Test(sides, what_sides_cannot_take_is_refused_with_status_2)
{
    const char *bad[][2] = {
        {"--sides 16,32 --nx 64", "--nx"},
        {"--sides 16,2", "--sides"},
        {"--sides ''", "--sides"},
        {"--sides 16,,32", "--sides"},
        {"--sides ' 16'", "--sides"},
        {"--sides 16 --output x.png", "--output"},
        {"--sides 16 --history h.csv", "--history"},
        {"--sides 16 --compare", "--compare"},
        {"--sides 16 --method weighted --steps 5", "--steps"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        struct run r = laplace_run("--backend cpu %s", bad[k][0]);
        check_refused(&r, 2, bad[k][1]);
        run_free(&r);
    }
}

/* gnuplot is one of scripts/install-deps.sh's packages; without it this skips. */
Test(sides, plot_lab_draws_the_figure_with_the_exponents)
{
    char csv[256], png[256], command[1024];
    int status;
    if (system("command -v gnuplot > /dev/null 2>&1") != 0)
        cr_skip_test("needs gnuplot (make deps installs gnuplot-nox)");
    out_path(csv, sizeof csv, "fig.csv");
    out_path(png, sizeof png, "fig-lab.png");
    remove(csv);
    struct run r = laplace_run(COURSE " --sides 16,32,64 -q --csv-append %s", csv);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    snprintf(command, sizeof command, "gnuplot -e \"csv='%s'\" scripts/plot_lab.gp 2>&1",
             csv);
    char *said = shell_run(command, &status);
    cr_assert_eq(status, 0, "%s", said);
    cr_assert(strstr(said, "iterations ~ N^1.9"), "the exponent: %s", said);
    long size = 0;
    unsigned char *bytes = slurp_bytes(png, &size);
    cr_assert(bytes && size > 1000 && memcmp(bytes, "\x89PNG", 4) == 0, "no %s", png);
    free(bytes);
    free(said);
    remove(png);
}

/* Issue 44, item 11: the lab's figure names the backend and the partition of its rows
 * and draws an N^2 line; rows of other settings appended to the same CSV are warned
 * about before they are fitted together. */
Test(sides, the_lab_figure_names_its_runs_and_warns_of_mixed_rows, .timeout = 120)
{
    char dir[512];
    if (system("command -v gnuplot >/dev/null") != 0)
        cr_skip_test("gnuplot is not installed");
    fresh_out_dir(dir, sizeof dir, "lab");
    cr_assert_eq(run_in_dir(dir, "$L --backend cpu --partition 1x2 --top 1 --eps 1e-6 "
                                 "--sides 8,12,16 --csv-append lab.csv -q"),
                 0);
    int status;
    char command[1200];
    snprintf(command, sizeof command, "scripts/laplace-plot lab '%s/lab.csv'", dir);
    char *out = shell_run(command, &status);
    cr_assert_eq(status, 0, "%s", out);
    cr_assert(strstr(out, "backend cpu, partition 1x2, double; the dashed line is N^2"),
              "%s", out);
    cr_assert_null(strstr(out, "warning"), "%s", out);
    free(out);
    snprintf(command, sizeof command, "%s/lab-lab.png", dir);
    cr_assert_eq(access(command, R_OK), 0, "no %s", command);
    cr_assert_eq(run_in_dir(dir,
                            "$L --backend cpu --partition 1x2 --top 1 --eps 1e-6 "
                            "--sides 8,12 --precision float --csv-append lab.csv -q"),
                 0);
    snprintf(command, sizeof command, "make -s plots LAB='%s/lab.csv'", dir);
    out = shell_run(command, &status);
    cr_assert_eq(status, 0, "%s", out);
    cr_assert(strstr(out, "laplace-plot: warning: ") &&
                  strstr(out, "mixes rows of different settings (precision double and "
                              "float): the fit puts them together"),
              "%s", out);
    free(out);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    cr_assert_eq(system(command), 0);
}

/*
 * test_config.c - defaults, one setting at a time, INI files, the command line
 * and the checks between settings.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "settings/config.h"
#include "settings/config_internal.h"
#include "helpers.h"

static struct config fresh(void)
{
    struct config c;
    config_defaults(&c);
    return c;
}

/* config_set must refuse value for name, with a message; returns the message. */
static const char *refuse(const char *name, const char *value)
{
    static char err[CONFIG_ERROR_MAX];
    struct config c = fresh();
    err[0] = '\0';
    int rc = config_set(&c, name, value, err, sizeof err);
    cr_assert_eq(rc, EXIT_BAD_USAGE, "%s = '%s' was accepted", name, value);
    cr_assert_neq(err[0], '\0', "%s = '%s': no message", name, value);
    cr_assert_null(strchr(err, '\n'), "%s = '%s': message is one line: %s", name, value,
                   err);
    return err;
}

static struct config accept(const char *name, const char *value)
{
    char err[CONFIG_ERROR_MAX] = "";
    struct config c = fresh();
    cr_assert_eq(config_set(&c, name, value, err, sizeof err), 0, "%s = '%s' refused: %s",
                 name, value, err);
    return c;
}

/* ---- defaults ------------------------------------------------------------ */

Test(config, defaults_match_the_help_text)
{
    struct config c = fresh();
    cr_assert_eq(c.problem.nx, 256);
    cr_assert_eq(c.problem.ny, 256);
    cr_assert_eq(c.problem.top, 1.0);
    cr_assert_eq(c.problem.bottom, 0.0);
    cr_assert_eq(c.problem.left, 0.0);
    cr_assert_eq(c.problem.right, 0.0);
    cr_assert_eq(c.problem.precision, PRECISION_DOUBLE);
    cr_assert_eq(c.eps, 1e-6);
    cr_assert_eq(c.max_iter, 10000000);
    cr_assert_eq(c.check_every, 1);
    cr_assert_eq(c.backend, BACKEND_AUTO);
    cr_assert(c.partition_x == 0 && c.partition_y == 0, "partition auto");
    cr_assert_eq(c.device_count, 0);
    cr_assert(c.block_x == 0 && c.block_y == 0, "block auto (0x0: the device chooses)");
    cr_assert_str_eq(c.kernel, "auto");
    cr_assert_eq(c.use_p2p, 1);
    cr_assert_eq(c.compare, 0);
    cr_assert_eq(c.monitor_every, 0);
    cr_assert_eq(c.csv, 0);
    cr_assert_eq(c.quiet, 0);
    cr_assert_eq(c.output_count, 0);
    cr_assert_str_eq(c.config_file, "");
}

/* ---- one setting --------------------------------------------------------- */

Test(config, lattice_sizes)
{
    cr_assert_eq(accept("nx", "37").problem.nx, 37);
    cr_assert_eq(accept("ny", "23").problem.ny, 23);
    cr_assert_eq(accept("nx", "3").problem.nx, 3, "3 is the smallest lattice");
    refuse("nx", "abc");
    refuse("nx", "2");
    refuse("nx", "-5");
    refuse("nx", "1e3");
    refuse("nx", "");
    refuse("nx", "12abc");
    refuse("ny", "99999999999999999999999");
    cr_assert(strstr(refuse("nx", "abc"), "abc"), "the message quotes the bad value");
}

Test(config, edge_values)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX];
    cr_assert_eq(config_set(&c, "top", "1.5", err, sizeof err), 0);
    cr_assert_eq(config_set(&c, "bottom", "-2", err, sizeof err), 0);
    cr_assert_eq(config_set(&c, "left", "0.25", err, sizeof err), 0);
    cr_assert_eq(config_set(&c, "right", "3e2", err, sizeof err), 0);
    cr_assert_eq(c.problem.top, 1.5);
    cr_assert_eq(c.problem.bottom, -2.0);
    cr_assert_eq(c.problem.left, 0.25);
    cr_assert_eq(c.problem.right, 300.0);
    refuse("top", "hot");
    refuse("left", "nan");
    refuse("right", "inf");
    refuse("bottom", "1e999");
}

Test(config, precision)
{
    cr_assert_eq(accept("precision", "float").problem.precision, PRECISION_FLOAT);
    cr_assert_eq(accept("precision", "double").problem.precision, PRECISION_DOUBLE);
    refuse("precision", "half");
    refuse("precision", "Float64");
}

Test(config, eps_max_iter_check_every)
{
    cr_assert_eq(accept("eps", "1e-10").eps, 1e-10);
    cr_assert_eq(accept("eps", "0").eps, 0.0);
    refuse("eps", "-1");
    refuse("eps", "nan");
    refuse("eps", "small");
    cr_assert_eq(accept("max-iter", "7").max_iter, 7);
    cr_assert_eq(accept("max_iter", "8").max_iter, 8, "'_' is the same as '-' in names");
    refuse("max-iter", "0");
    refuse("max-iter", "-3");
    cr_assert_eq(accept("check-every", "10").check_every, 10);
    cr_assert_eq(accept("check_every", "4").check_every, 4);
    refuse("check-every", "0");
}

Test(config, backend)
{
    cr_assert_eq(accept("backend", "gpu").backend, BACKEND_GPU);
    cr_assert_eq(accept("backend", "cpu").backend, BACKEND_CPU);
    cr_assert_eq(accept("backend", "serial").backend, BACKEND_SERIAL);
    cr_assert_eq(accept("backend", "auto").backend, BACKEND_AUTO);
    const char *why = refuse("backend", "fpga");
    cr_assert(strstr(why, "fpga"), "message quotes the value: %s", why);
    cr_assert_str_eq(backend_name(BACKEND_GPU), "gpu");
    cr_assert_str_eq(backend_name(BACKEND_CPU), "cpu");
    cr_assert_str_eq(backend_name(BACKEND_SERIAL), "serial");
}

Test(config, partition)
{
    struct config c = accept("partition", "3x3");
    cr_assert(c.partition_x == 3 && c.partition_y == 3);
    c = accept("partition", "4x2");
    cr_assert(c.partition_x == 4 && c.partition_y == 2, "AxB is NGx x NGy");
    c = accept("partition", "auto");
    cr_assert(c.partition_x == 0 && c.partition_y == 0);
    refuse("partition", "2x");
    refuse("partition", "x2");
    refuse("partition", "0x2");
    refuse("partition", "2x0");
    refuse("partition", "-1x2");
    refuse("partition", "2x2x2");
    refuse("partition", "2*2");
    refuse("partition", "4");
}

Test(config, block)
{
    struct config c = accept("block", "16x16");
    cr_assert(c.block_x == 16 && c.block_y == 16);
    c = accept("block", "32x32");
    cr_assert(c.block_x == 32 && c.block_y == 32, "1024 threads is the limit, allowed");
    const char *why = refuse("block", "64x32");
    cr_assert(strstr(why, "1024"), "names the limit: %s", why);
    refuse("block", "33x32");
    c = accept("block", "auto");
    cr_assert(c.block_x == 0 && c.block_y == 0, "auto is 0x0");
    refuse("block", "0x8");
    refuse("block", "32");
}

Test(config, devices)
{
    struct config c = accept("devices", "0,1,2,3");
    cr_assert_eq(c.device_count, 4);
    cr_assert(c.devices[0] == 0 && c.devices[1] == 1 && c.devices[2] == 2 &&
              c.devices[3] == 3);
    c = accept("devices", "3,1");
    cr_assert(c.device_count == 2 && c.devices[0] == 3 && c.devices[1] == 1,
              "order is kept");
    c = accept("devices", "0,0,1");
    cr_assert(c.device_count == 3 && c.devices[0] == 0 && c.devices[1] == 0,
              "a device listed again holds several tiles");
    refuse("devices", "a,b");
    refuse("devices", "");
    refuse("devices", ",");
    refuse("devices", "-1");
    refuse("devices", "0,x");
}

Test(config, output_method_and_later_features)
{
    struct config c = accept("output", "field.dat");
    cr_assert_eq(c.output_count, 1);
    cr_assert_str_eq(c.outputs[0], "field.dat");
    const char *formats[] = {"x.png", "x.vti", "x.pvti", "x.bin", "dir/x.dat"};
    for (int i = 0; i < 5; i++)
        cr_assert_str_eq(accept("output", formats[i]).outputs[0], formats[i]);
    const char *why = refuse("output", "x.txt");
    cr_assert(strstr(why, ".txt"), "names the extension: %s", why);
    refuse("output", "noextension");
    refuse("output", "dir.d/noextension");
    cr_assert_eq(accept("method", "jacobi").method, METHOD_JACOBI);
    cr_assert_eq(accept("method", "sor").method, METHOD_SOR);
    cr_assert_eq(accept("method", "weighted").method, METHOD_WEIGHTED);
    refuse("method", "gauss");
    cr_assert_eq(accept("norm", "l2").norm, NORM_L2);
    cr_assert_eq(accept("norm", "max").norm, NORM_MAX);
    cr_assert_eq(accept("norm", "residual").norm, NORM_RESIDUAL);
    refuse("norm", "l1");
    cr_assert_eq(accept("omega", "1.5").omega, 1.5);
    cr_assert_eq(accept("omega", "auto").omega, OMEGA_AUTO);
    refuse("omega", "0");
    refuse("omega", "-1");
    refuse("omega", "fast");
    cr_assert_str_eq(accept("history", "runs/h.csv").history, "runs/h.csv");
    cr_assert(strstr(refuse("history", "h.txt"), "h.txt"));
    cr_assert_eq(accept("png-tiles", "yes").png_tiles, 1);
    cr_assert_eq(accept("reduce", "host").reduce, REDUCE_HOST);
    cr_assert_eq(accept("reduce", "device").reduce, REDUCE_DEVICE);
    refuse("reduce", "gpu");
    accept("kernel", "global");
    refuse("kernel", "turbo");
}

Test(config, outputs_accumulate)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX];
    cr_assert_eq(config_set(&c, "output", "a.dat", err, sizeof err), 0);
    cr_assert_eq(config_set(&c, "output", "b.dat", err, sizeof err), 0);
    cr_assert_eq(c.output_count, 2);
    cr_assert_str_eq(c.outputs[1], "b.dat");
}

Test(config, flags_and_unknown_names)
{
    cr_assert_eq(accept("no-p2p", "true").use_p2p, 0);
    cr_assert_eq(accept("no_p2p", "no").use_p2p, 1);
    cr_assert_eq(accept("compare", "yes").compare, 1);
    cr_assert_eq(accept("csv", "on").csv, 1);
    cr_assert_eq(accept("quiet", "1").quiet, 1);
    cr_assert_eq(accept("monitor", "10").monitor_every, 10);
    refuse("csv", "maybe");
    refuse("monitor", "-1");
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX] = "";
    cr_assert_eq(config_set(&c, "speed", "11", err, sizeof err), EXIT_BAD_USAGE);
    cr_assert(strstr(err, "speed"), "names the unknown setting: %s", err);
}

/* ---- INI files ----------------------------------------------------------- */

/* Writes text to a fresh INI file under tests/out and loads it into *c. */
static int load_ini(struct config *c, const char *name, const char *text, char *path,
                    size_t path_n, char *err, size_t err_n)
{
    out_path(path, path_n, name);
    cr_assert_eq(write_text(path, text), 0, "cannot write %s", path);
    err[0] = '\0';
    return config_load_file(c, path, err, err_n);
}

Test(config, ini_file_sets_values_in_every_section)
{
    struct config c = fresh();
    char path[512], err[CONFIG_ERROR_MAX];
    int rc = load_ini(&c, "good.ini",
                      "; a comment\n"
                      "[problem]\n"
                      "nx = 37\n"
                      "ny=23\n"
                      "top = 2.5\n"
                      "left = -1\n"
                      "precision = float\n"
                      "\n"
                      "[solver]\n"
                      "eps = 1e-8\n"
                      "max_iter = 123\n"
                      "check-every = 4\n"
                      "[parallel]\n"
                      "backend = serial\n"
                      "partition = 1x1\n"
                      "block = 16x4\n"
                      "no-p2p = true\n"
                      "[output]\n"
                      "monitor = 5\n"
                      "csv = yes\n"
                      "output = f.dat\n",
                      path, sizeof path, err, sizeof err);
    cr_assert_eq(rc, 0, "good file refused: %s", err);
    cr_assert_eq(c.problem.nx, 37);
    cr_assert_eq(c.problem.ny, 23);
    cr_assert_eq(c.problem.top, 2.5);
    cr_assert_eq(c.problem.left, -1.0);
    cr_assert_eq(c.problem.right, 0.0, "unset keys keep their default");
    cr_assert_eq(c.problem.precision, PRECISION_FLOAT);
    cr_assert_eq(c.eps, 1e-8);
    cr_assert_eq(c.max_iter, 123);
    cr_assert_eq(c.check_every, 4);
    cr_assert_eq(c.backend, BACKEND_SERIAL);
    cr_assert(c.partition_x == 1 && c.partition_y == 1);
    cr_assert(c.block_x == 16 && c.block_y == 4);
    cr_assert_eq(c.use_p2p, 0);
    cr_assert_eq(c.monitor_every, 5);
    cr_assert_eq(c.csv, 1);
    cr_assert_eq(c.output_count, 1);
    cr_assert_str_eq(c.config_file, path, "the file is remembered");
}

/* The file is refused with "path:line" in the message; returns the message. */
static const char *ini_refused(const char *name, const char *text, int line)
{
    static char err[CONFIG_ERROR_MAX];
    char path[512], where[600];
    struct config c = fresh();
    int rc = load_ini(&c, name, text, path, sizeof path, err, sizeof err);
    cr_assert_eq(rc, EXIT_BAD_USAGE, "%s accepted", name);
    snprintf(where, sizeof where, "%s:%d:", path, line);
    cr_assert(strstr(err, where), "%s: message '%s' lacks '%s'", name, err, where);
    cr_assert_null(strchr(err, '\n'), "one line: %s", err);
    return err;
}

Test(config, ini_unknown_section_names_the_line)
{
    const char *why = /* the header's line: a section is refused even without keys */
        ini_refused("section.ini", "[problem]\nnx = 37\n\n[gpu]\nblock = 8x8\n", 4);
    cr_assert(strstr(why, "gpu"), "names the section: %s", why);
}

Test(config, ini_key_in_wrong_section_names_the_line)
{
    const char *why = ini_refused("wrong.ini", "[problem]\nnx = 37\neps = 1e-3\n", 3);
    cr_assert(strstr(why, "solver"), "says where eps belongs: %s", why);
}

Test(config, ini_unknown_key_names_the_line)
{
    const char *why = ini_refused("unknown.ini", "[solver]\n; fine\nspeed = 3\n", 3);
    cr_assert(strstr(why, "speed"), "names the key: %s", why);
}

Test(config, ini_key_outside_any_section_names_the_line)
{
    ini_refused("outside.ini", "; header\nnx = 37\n[problem]\nny = 23\n", 2);
}

Test(config, ini_bad_value_names_the_line_and_key)
{
    const char *why =
        ini_refused("value.ini", "[problem]\nnx = 37\nny = 23\n[solver]\neps = -1\n", 5);
    cr_assert(strstr(why, "eps"), "names the key: %s", why);
}

Test(config, ini_line_without_equals_names_the_line)
{
    ini_refused("syntax.ini", "[problem]\nnx = 37\nthis is not ini\n", 3);
}

Test(config, ini_command_line_only_setting_is_refused)
{
    ini_refused("action.ini", "[output]\nhelp = true\n", 2);
}

Test(config, ini_first_error_wins)
{
    ini_refused("first.ini", "[problem]\nnx = 1\nny = abc\n", 2);
}

Test(config, ini_missing_file_is_a_usage_error)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX] = "";
    int rc = config_load_file(&c, TEST_OUT "/no-such-file.ini", err, sizeof err);
    cr_assert_eq(rc, EXIT_BAD_USAGE);
    cr_assert(strstr(err, "no-such-file.ini"), "names the file: %s", err);
}

/* Regression test (config.c, config_load_file): a directory reads as an empty, valid
 * file. */
Test(config, ini_directory_is_not_a_config_file)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX] = "";
    ensure_out_dir();
    int rc = config_load_file(&c, TEST_OUT, err, sizeof err);
    cr_assert_eq(rc, EXIT_BAD_USAGE, "the directory %s was accepted as a config file",
                 TEST_OUT);
    cr_assert(strstr(err, TEST_OUT), "names the path: %s", err);
}

/* ---- the command line ---------------------------------------------------- */

/* config_from_args on a NULL-terminated list of words after "laplace". */
static int args(struct config *c, char *err, size_t n, const char *const *words)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = "laplace";
    for (int i = 0; words[i]; i++)
        argv[argc++] = (char *)words[i];
    argv[argc] = NULL;
    err[0] = '\0';
    return config_from_args(c, argc, argv, err, n);
}

#define ARGS(c, err, ...)                                                                \
    args(c, err, sizeof err, (const char *const[]){__VA_ARGS__, NULL})

Test(cmdline, options_set_values)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX];
    cr_assert_eq(ARGS(&c, err, "--nx", "37", "--ny=23", "--precision", "float",
                      "--backend", "cpu", "--partition", "2x3", "--csv", "-q", "--no-p2p",
                      "--max-iter", "9"),
                 0, "%s", err);
    cr_assert_eq(c.problem.nx, 37);
    cr_assert_eq(c.problem.ny, 23);
    cr_assert_eq(c.problem.precision, PRECISION_FLOAT);
    cr_assert_eq(c.backend, BACKEND_CPU);
    cr_assert(c.partition_x == 2 && c.partition_y == 3);
    cr_assert_eq(c.csv, 1);
    cr_assert_eq(c.quiet, 1);
    cr_assert_eq(c.use_p2p, 0);
    cr_assert_eq(c.max_iter, 9);
}

Test(cmdline, options_override_the_file_in_any_order)
{
    char path[512], err[CONFIG_ERROR_MAX];
    out_path(path, sizeof path, "override.ini");
    cr_assert_eq(
        write_text(path, "[problem]\nnx = 9\nny = 8\ntop = 5\n[solver]\neps = 1e-3\n"),
        0);
    struct config c = fresh();
    cr_assert_eq(ARGS(&c, err, "--nx", "11", path, "--eps", "1e-9"), 0, "%s", err);
    cr_assert_eq(c.problem.nx, 11, "option before the file wins");
    cr_assert_eq(c.eps, 1e-9, "option after the file wins");
    cr_assert_eq(c.problem.ny, 8, "the file overrides the default");
    cr_assert_eq(c.problem.top, 5.0);
    cr_assert_str_eq(c.config_file, path);
    c = fresh();
    cr_assert_eq(ARGS(&c, err, path, "--nx", "12"), 0, "%s", err);
    cr_assert_eq(c.problem.nx, 12);
}

Test(cmdline, later_option_wins_over_earlier)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX];
    cr_assert_eq(ARGS(&c, err, "--nx", "11", "--nx", "13"), 0, "%s", err);
    cr_assert_eq(c.problem.nx, 13);
}

Test(cmdline, unknown_option_is_refused_by_name)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX];
    cr_assert_eq(ARGS(&c, err, "--nx", "11", "--frobnicate"), EXIT_BAD_USAGE);
    cr_assert(strstr(err, "--frobnicate"), "names the option: %s", err);
    cr_assert_eq(ARGS(&c, err, "-z"), EXIT_BAD_USAGE);
    cr_assert(strstr(err, "-z"), "names the option: %s", err);
}

Test(cmdline, missing_value_is_refused_by_name)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX];
    cr_assert_eq(ARGS(&c, err, "--ny", "5", "--nx"), EXIT_BAD_USAGE);
    cr_assert(strstr(err, "--nx"), "names the option: %s", err);
}

Test(cmdline, bad_value_names_the_option)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX];
    cr_assert_eq(ARGS(&c, err, "--nx", "abc"), EXIT_BAD_USAGE);
    cr_assert(strstr(err, "--nx"), "names the option: %s", err);
    cr_assert_eq(ARGS(&c, err, "--partition", "0x2"), EXIT_BAD_USAGE);
    cr_assert(strstr(err, "--partition"), "names the option: %s", err);
}

Test(cmdline, two_config_files_are_refused)
{
    char a[512], b[512], err[CONFIG_ERROR_MAX];
    out_path(a, sizeof a, "a.ini");
    out_path(b, sizeof b, "b.ini");
    cr_assert_eq(write_text(a, "[problem]\nnx = 9\n"), 0);
    cr_assert_eq(write_text(b, "[problem]\nnx = 10\n"), 0);
    struct config c = fresh();
    cr_assert_eq(ARGS(&c, err, a, b), EXIT_BAD_USAGE);
    cr_assert(strstr(err, a) && strstr(err, b), "names both files: %s", err);
}

Test(cmdline, bad_config_file_through_args_keeps_file_and_line)
{
    char path[512], err[CONFIG_ERROR_MAX], where[600];
    out_path(path, sizeof path, "bad-args.ini");
    cr_assert_eq(write_text(path, "[problem]\n\nnx = zero\n"), 0);
    struct config c = fresh();
    cr_assert_eq(ARGS(&c, err, "--ny", "9", path), EXIT_BAD_USAGE);
    snprintf(where, sizeof where, "%s:3:", path);
    cr_assert(strstr(err, where), "'%s' lacks '%s'", err, where);
}

Test(cmdline, actions_are_flags)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX];
    cr_assert_eq(ARGS(&c, err, "--help"), 0, "%s", err);
    cr_assert_eq(c.show_help, 1);
    c = fresh();
    cr_assert_eq(ARGS(&c, err, "-h"), 0, "%s", err);
    cr_assert_eq(c.show_help, 1);
    c = fresh();
    cr_assert_eq(ARGS(&c, err, "--version"), 0, "%s", err);
    cr_assert_eq(c.show_version, 1);
    c = fresh();
    cr_assert_eq(ARGS(&c, err, "--topology"), 0, "%s", err);
    cr_assert_eq(c.show_topology, 1);
}

/* ---- relations between settings ------------------------------------------ */

static int validate(struct config *c, char *err, size_t n)
{
    err[0] = '\0';
    return config_validate(c, err, n);
}

Test(validate, partition_must_fit_the_interior)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX];
    c.problem.nx = 5;
    c.problem.ny = 12;
    c.backend = BACKEND_CPU;
    c.partition_x = 3;
    c.partition_y = 10;
    cr_assert_eq(validate(&c, err, sizeof err), 0, "3x10 fits a 3x10 interior: %s", err);
    c.partition_x = 4;
    cr_assert_eq(validate(&c, err, sizeof err), EXIT_BAD_USAGE,
                 "4 columns on 3 interior sites");
    cr_assert(strstr(err, "--partition"), "names the option: %s", err);
    c.partition_x = 1;
    c.partition_y = 11;
    cr_assert_eq(validate(&c, err, sizeof err), EXIT_BAD_USAGE,
                 "11 rows on 10 interior sites");
}

Test(validate, serial_backend_has_one_tile_and_no_compare)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX];
    c.backend = BACKEND_SERIAL;
    c.partition_x = c.partition_y = 1;
    cr_assert_eq(validate(&c, err, sizeof err), 0, "%s", err);
    c.partition_x = 2;
    cr_assert_eq(validate(&c, err, sizeof err), EXIT_BAD_USAGE, "serial with 2x1");
    cr_assert(strstr(err, "serial"), "%s", err);
    c.partition_x = 1;
    c.compare = 1;
    cr_assert_eq(validate(&c, err, sizeof err), EXIT_BAD_USAGE, "serial with --compare");
    cr_assert(strstr(err, "--compare"), "names the option: %s", err);
    c.backend = BACKEND_CPU;
    cr_assert_eq(validate(&c, err, sizeof err), 0, "cpu with --compare is fine: %s", err);
}

Test(validate, too_few_devices_for_the_partition)
{
    struct config c = fresh();
    char err[CONFIG_ERROR_MAX];
    c.backend = BACKEND_GPU;
    c.partition_x = 2;
    c.partition_y = 2;
    c.device_count = 2;
    cr_assert_eq(validate(&c, err, sizeof err), EXIT_BAD_USAGE);
    cr_assert(strstr(err, "--devices"), "names the option: %s", err);
    c.device_count = 4;
    cr_assert_eq(validate(&c, err, sizeof err), 0, "%s", err);
}

/* The settings without a setter of their own are stored through config.c's table of
 * plain fields: each takes its first name, 7 (a count) or true (a flag) and lands in
 * its field; a setting missing from that table would call no setter at all. */
Test(config, every_plain_setting_reaches_its_field)
{
    const struct {
        const char *name, *value;
        size_t offset, size;
        long expected;
    } plain[] = {
        {"nx", "7", offsetof(struct config, problem.nx), sizeof(long), 7},
        {"ny", "7", offsetof(struct config, problem.ny), sizeof(long), 7},
        {"max-iter", "7", offsetof(struct config, max_iter), sizeof(long), 7},
        {"check-every", "7", offsetof(struct config, check_every), sizeof(long), 7},
        {"steps", "7", offsetof(struct config, steps), sizeof(long), 7},
        {"snapshot-every", "7", offsetof(struct config, snapshot_every), sizeof(long), 7},
        {"monitor", "7", offsetof(struct config, monitor_every), sizeof(long), 7},
        {"precision", "float", offsetof(struct config, problem.precision), sizeof(int),
         PRECISION_FLOAT},
        {"method", "sor", offsetof(struct config, method), sizeof(int), METHOD_SOR},
        {"norm", "residual", offsetof(struct config, norm), sizeof(int), NORM_RESIDUAL},
        {"backend", "serial", offsetof(struct config, backend), sizeof(int),
         BACKEND_SERIAL},
        {"reduce", "device", offsetof(struct config, reduce), sizeof(int), REDUCE_DEVICE},
        {"loop", "batched", offsetof(struct config, loop), sizeof(int), LOOP_BATCHED},
        {"loop", "chip", offsetof(struct config, loop), sizeof(int), LOOP_CHIP},
    };
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        struct config c;
        char err[CONFIG_ERROR_MAX];
        config_defaults(&c);
        cr_assert_eq(config_set(&c, plain[i].name, plain[i].value, err, sizeof err), 0,
                     "%s = %s: %s", plain[i].name, plain[i].value, err);
        long got = 0;
        if (plain[i].size == sizeof(long))
            memcpy(&got, (char *)&c + plain[i].offset, sizeof(long));
        else {
            int v;
            memcpy(&v, (char *)&c + plain[i].offset, sizeof v);
            got = v;
        }
        cr_assert_eq(got, plain[i].expected, "%s = %s gave %ld", plain[i].name,
                     plain[i].value, got);
    }
    for (int i = 0; i < SETTING_COUNT; i++) {
        if (settings[i].set)
            continue;
        char value[32], err[CONFIG_ERROR_MAX];
        struct config c;
        const char *arg = settings[i].arg ? settings[i].arg : "true"; /* a flag */
        snprintf(value, sizeof value, "%.*s", (int)strcspn(arg, "|"), arg);
        if (strcmp(value, "N") == 0 || strcmp(value, "K") == 0)
            snprintf(value, sizeof value, "7");
        config_defaults(&c);
        cr_assert_eq(config_set(&c, settings[i].name, value, err, sizeof err), 0,
                     "the table's setting %s = %s: %s", settings[i].name, value, err);
    }
}

/* Issue 44, item 8: --nx alone over a preset's square lattice keeps the preset's ny
 * (5 x 512 here), which a lone --nx without a file would square: said once. */
Test(config_cli, one_side_typed_over_a_square_preset_is_said_once)
{
    require_laplace();
    struct run r = laplace_run("config/course-512.ini --nx 5 --max-iter 2");
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *said = "laplace: warning: --nx 5 replaces one side of "
                       "config/course-512.ini's 512 x 512 lattice: the run is 5 x 512 "
                       "(add --ny 5 for 5 x 5)\n";
    const char *at = strstr(r.err, said);
    cr_assert(at, "stderr:\n%s", r.err);
    cr_assert_null(strstr(at + strlen(said), "replaces one side"), "said twice:\n%s",
                   r.err);
    cr_assert(strstr(r.out, "laplace: 5 x 512 lattice"), "%s", r.out);
    run_free(&r);
    r = laplace_run("course-512.ini --ny 6 --dry-run");
    cr_assert(strstr(r.err, "--ny 6 replaces one side of ") &&
                  strstr(r.err, "the run is 512 x 6 (add --nx 6 for 6 x 6)"),
              "a preset by name, --dry-run: %s", r.err);
    run_free(&r);
    const char *quiet[] = {"config/course-512.ini --nx 5 --ny 5 --max-iter 2",
                           "config/course-512.ini --nx 5 --max-iter 2 -q",
                           "--nx 5 --max-iter 2",
                           "config/course-512.ini --nx 512 --max-iter 2"};
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) {
        r = laplace_run("%s", quiet[i]);
        cr_assert_eq(r.status, 0, "%s: %s", quiet[i], r.err);
        cr_assert_null(strstr(r.err, "replaces one side"), "%s: %s", quiet[i], r.err);
        run_free(&r);
    }
    r = laplace_run("--help");
    cr_assert(strstr(r.out, "CONFIG.ini's lattice it sets x alone"), "--help: %s", r.out);
    run_free(&r);
}

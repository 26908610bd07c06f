/*
 * test_print_config.c - --print-config round-trips every value it prints (issue 26,
 * item 6): names and formulas that INI cannot hold bare (blanks at either end, a
 * ';' after a blank, quotes, backslashes, lines longer than the reader takes) are
 * written quoted (settings/ini_value.h), read back to the same bytes, and printed
 * again to the same file; the reader refuses a malformed quoted value at its line.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "settings/config.h"

/* 218 bytes: with "top = " too long for one INI line. */
#define LONG_FORMULA                                                                     \
    "x*y + sin(1*x)+sin(2*x)+sin(3*x)+sin(4*x)+sin(5*x)+sin(6*x)+sin(7*x)+sin(8*x)+"     \
    "sin(9*x)+sin(10*x)+sin(11*x)+sin(12*x)+sin(13*x)+sin(14*x)+sin(15*x)+sin(16*x)+"    \
    "sin(17*x)+sin(18*x)+sin(19*x)+sin(20*x)+sin(21*x)+sin(22*x)+0"

/* The hostile values, as options. The long name is filled in by hostile_argv. */
static char long_name[400];
static char *hostile[] = {"laplace",
                          "--backend",
                          "serial",
                          "--nx",
                          "8",
                          "--ny",
                          "8",
                          "--top",
                          LONG_FORMULA,
                          "--bottom",
                          " 1 + x ",
                          "--source",
                          "2 ",
                          "--exact",
                          "\tx*y",
                          "--output",
                          " a ;b.dat",
                          "--output",
                          "q\"\\;x.vti",
                          "--output",
                          ";semi.png",
                          "--output",
                          "\"quoted\".bin",
                          "--output",
                          "tab\t;x.npy",
                          "--output",
                          "\xc3\xa9 ;\xc3\xbc.dat",
                          "--output",
                          long_name,
                          "--history",
                          "  lead;.csv",
                          "--csv-append",
                          "tail ;x "};

static void hostile_config(struct config *c)
{
    char err[CONFIG_ERROR_MAX];
    memset(long_name, 0, sizeof long_name);
    for (int i = 0; i < 300; i++) /* " ;" every ten bytes, and a UTF-8 letter */
        long_name[i] = i % 10 == 8 ? ' ' : i % 10 == 9 ? ';' : 'n';
    strcpy(long_name + 300, "\xc3\xa9.vti");
    config_defaults(c);
    cr_assert_eq(
        config_from_args(c, sizeof hostile / sizeof hostile[0], hostile, err, sizeof err),
        0, "%s", err);
}

/* config_print_ini's text (malloc'd). */
static char *printed(const struct config *c)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    cr_assert(f);
    config_print_ini(f, c);
    cr_assert_eq(fclose(f), 0);
    return text;
}

Test(print_config, hostile_names_and_formulas_read_back_to_the_same_bytes)
{
    struct config given, read;
    char path[256], err[CONFIG_ERROR_MAX];
    hostile_config(&given);
    char *text = printed(&given);
    for (const char *line = text; line; line = strchr(line, '\n'), line += !!line)
        cr_assert(strcspn(line, "\n") <= 198, "a line too long to read back:\n%s", text);
    out_path(path, sizeof path, "hostile.ini");
    cr_assert_eq(write_text(path, text), 0);
    config_defaults(&read);
    cr_assert_eq(config_load_file(&read, path, err, sizeof err), 0, "%s\n%s", err, text);
    cr_assert_str_eq(read.problem.edge_formula[EDGE_TOP], LONG_FORMULA);
    cr_assert_str_eq(read.problem.edge_formula[EDGE_BOTTOM], " 1 + x ");
    cr_assert_str_eq(read.problem.source, "2 ");
    cr_assert_str_eq(read.exact, "\tx*y");
    cr_assert_eq(read.output_count, given.output_count);
    for (int i = 0; i < given.output_count; i++)
        cr_assert_str_eq(read.outputs[i], given.outputs[i], "output %d", i);
    cr_assert_str_eq(read.outputs[given.output_count - 1], long_name);
    cr_assert_str_eq(read.history, "  lead;.csv");
    cr_assert_str_eq(read.csv_append, "tail ;x ");
    char *again = printed(&read);
    cr_assert_str_eq(again, text, "printed again, the file differs");
    free(again);
    free(text);
}

/* Through ./laplace: its --print-config, fed back as the INI, prints the same. */
Test(print_config, laplace_prints_the_same_file_from_its_own_print_config)
{
    char first[256];
    require_laplace();
    out_path(first, sizeof first, "first.ini");
    struct run r = laplace_run("--backend serial --nx 8 --ny 8 --top '" LONG_FORMULA
                               "' --bottom ' 1 + x ' --output ' a ;b.dat' "
                               "--output 'q\"\\;x.vti' --history '  lead;.csv' "
                               "--csv-append 'tail ;x ' --print-config");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(write_text(first, r.out), 0);
    struct run again = laplace_run("%s --print-config", first);
    cr_assert_eq(again.status, 0, "%s\n%s", again.err, r.out);
    cr_assert_str_eq(again.out, r.out);
    run_free(&again);
    run_free(&r);
}

/* A malformed quoted value: refused at the line of its key, saying what is wrong. */
Test(print_config, a_malformed_quoted_value_is_refused_at_its_line)
{
    const char *files[][2] = {
        {"[output]\nhistory = \"a.csv\n", "closing quote"},
        {"[output]\nhistory = \"a\\x.csv\"\n", "unknown escape"},
        {"[output]\nhistory = \"a.csv\" b\n", "after the closing quote"},
        {"[problem]\nnx = 8\n[output]\nhistory = \"a\"\n    \"b.txt\"\nquiet = true\n",
         "'ab.txt' is not a .csv"}, /* the whole value is checked */
    };
    char path[256], err[CONFIG_ERROR_MAX];
    out_path(path, sizeof path, "bad-quote.ini");
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        struct config c;
        config_defaults(&c);
        cr_assert_eq(write_text(path, files[k][0]), 0);
        cr_assert_eq(config_load_file(&c, path, err, sizeof err), EXIT_BAD_USAGE, "%s",
                     files[k][0]);
        int line = k == 3 ? 4 : 2;
        char at[300];
        snprintf(at, sizeof at, "%s:%d: history", path, line);
        cr_assert(strstr(err, at), "'%s' does not start with '%s'", err, at);
        cr_assert(strstr(err, files[k][1]), "%s", err);
    }
}

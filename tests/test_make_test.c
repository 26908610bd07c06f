/*
 * test_make_test.c - what make test leaves behind: tests/clean_out.sh removes the
 * outputs of the passing tests from tests/out and keeps (naming them) those of
 * the tests that failed, found through tests/out/owners (helpers.h, out_pid).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "helpers.h"

/* Writes text to dir/name, asserting every step. */
static void write_file(const char *dir, const char *name, const char *text)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot open %s", path);
    cr_assert(fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", path);
}

static int exists(const char *dir, const char *name)
{
    char path[1200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

/* A fake tests/out: three tests' outputs (11 passed, 22 failed, 33 unknown), a
 * file of no test's, the owners list, and Criterion's TAP report beside it. */
static void fake_run(char *dir, size_t n, const char *tap)
{
    char command[2400];
    fresh_out_dir(dir, n, "clean-out");
    snprintf(command, sizeof command,
             "mkdir -p '%s/11-field' '%s/22-field' '%s/33-field' && "
             "head -c 100000 /dev/zero > '%s/22-field/u.dat'",
             dir, dir, dir, dir);
    cr_assert_eq(system(command), 0);
    write_file(dir, "11-run.csv", "a,b\n");
    write_file(dir, "22-run.csv", "a,b\n");
    write_file(dir, "stray.txt", "x\n");
    write_file(dir, "owners", "11 s::passes\n22 s::fails\n");
    write_file(dir, "report.tap", tap);
}

static char *clean(const char *dir, int *status)
{
    char command[1200];
    snprintf(command, sizeof command,
             "mv '%s/report.tap' '%s.tap' && bash tests/clean_out.sh '%s.tap' '%s'", dir,
             dir, dir, dir);
    return shell_run(command, status);
}

Test(make_test, a_passing_run_leaves_nothing_in_tests_out)
{
    char dir[1024];
    int status;
    fake_run(dir, sizeof dir, "TAP version 13\nok - s::passes\nok - s::fails\n");
    char *out = clean(dir, &status);
    cr_assert_eq(status, 0, "%s", out);
    const char *gone[] = {"11-field",   "22-field",  "33-field", "11-run.csv",
                          "22-run.csv", "stray.txt", "owners"};
    for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
        cr_assert_not(exists(dir, gone[i]), "%s/%s left behind: %s", dir, gone[i], out);
    cr_assert(strstr(out, "removed"), "says what it removed: %s", out);
    free(out);
}

Test(make_test, a_failed_tests_outputs_are_kept_and_named)
{
    char dir[1024];
    int status;
    fake_run(dir, sizeof dir,
             "TAP version 13\nok - s::passes\nnot ok - s::fails test.c:3: Assertion\n");
    char *out = clean(dir, &status);
    cr_assert_eq(status, 0, "%s", out);
    cr_assert(exists(dir, "22-field/u.dat") && exists(dir, "22-run.csv"),
              "the failed test's outputs stay: %s", out);
    cr_assert(strstr(out, "22-field") && strstr(out, "s::fails failed"),
              "the kept path and its test are named: %s", out);
    const char *gone[] = {"11-field", "33-field", "11-run.csv", "stray.txt"};
    for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
        cr_assert_not(exists(dir, gone[i]), "%s/%s left behind: %s", dir, gone[i], out);
    free(out);
}

/* Each test that writes under tests/out is listed in its owners file. */
Test(make_test, a_test_writing_under_tests_out_is_listed_as_its_owner)
{
    char want[128];
    snprintf(want, sizeof want,
             "%ld make_test::a_test_writing_under_tests_out_is_listed_as_its_owner\n",
             out_pid());
    char *owners = slurp(TEST_OUT "/owners");
    cr_assert(owners && strstr(owners, want), "'%s' not in " TEST_OUT "/owners", want);
    free(owners);
}

/* make test asks for the clean-up (nested runs of run_unit_tests.sh must not). */
Test(make_test, make_test_cleans_tests_out_after_the_run)
{
    char *makefile = slurp("Makefile");
    cr_assert(makefile);
    const char *rule = strstr(makefile, "\ntest: ");
    cr_assert(rule && strstr(rule, "run_unit_tests.sh $(BUILD)/unit_tests "
                                   "--clean-out=tests/out"),
              "make test runs the tests with --clean-out=tests/out");
    free(makefile);
}

/*
 * test_tuning.c - a tuning knob read from the environment (support/tuning.h): a whole
 * number within its range, else the default.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "support/tuning.h"

#define KNOB "LAPLACE_TEST_TUNING_KNOB"

static long read_as(const char *text, long least, long most, long unset)
{
    if (text)
        setenv(KNOB, text, 1);
    else
        unsetenv(KNOB);
    const long v = tuning(KNOB, least, most, unset);
    unsetenv(KNOB);
    return v;
}

Test(tuning, a_whole_number_in_range_is_taken)
{
    cr_expect_eq(read_as("32", 32, 32, 16), 32);
    cr_expect_eq(read_as("0", 0, 1, -1), 0);
    cr_expect_eq(read_as("1", 0, 1, -1), 1);
    cr_expect_eq(read_as("8", 1, 8, 4), 8);
}

Test(tuning, anything_else_gives_the_default)
{
    cr_expect_eq(read_as(NULL, 0, 1, -1), -1);
    cr_expect_eq(read_as("", 0, 1, -1), -1);
    cr_expect_eq(read_as("16", 32, 32, 16), 16);
    cr_expect_eq(read_as("32x", 32, 32, 16), 16);
    cr_expect_eq(read_as("yes", 0, 1, -1), -1);
    cr_expect_eq(read_as("2", 0, 1, -1), -1);
    cr_expect_eq(read_as("-1", 0, 1, 7), 7);
}

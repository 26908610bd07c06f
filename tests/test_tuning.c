/*
 * test_tuning.c - LAPLACE_TUNE's one reader (support/tuning.h): each knob within its
 * range or among its words, everything else refused naming the key or the value.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "support/tuning.h"

static int parse(const char *text, struct tuning *t, char *err)
{
    err[0] = '\0';
    return tuning_parse(text, t, err, 256);
}

Test(tuning, unset_or_empty_leaves_every_knob_auto)
{
    struct tuning t;
    char err[256];
    cr_assert_eq(parse(NULL, &t, err), 0);
    cr_expect_eq(memcmp(&t, &(struct tuning){0}, sizeof t) == 0, 0, "not zeroes");
    struct tuning a = tuning_auto();
    cr_expect_eq(memcmp(&t, &a, sizeof t), 0);
    cr_assert_eq(parse("", &t, err), 0);
    cr_expect_eq(memcmp(&t, &a, sizeof t), 0);
    cr_expect_eq(a.pairs, TUNING_AUTO);
    cr_expect_eq(a.chip_way, TUNING_AUTO);
    cr_expect_eq(a.spread_columns, TUNING_AUTO);
}

Test(tuning, every_knob_is_taken_at_its_ends)
{
    struct tuning t;
    char err[256];
    cr_assert_eq(parse("chip_way=cluster,chip_depth=0,spread_depth=4,spread_lag=1,"
                       "spread_blocks=160,spread_columns=0,spread_unroll=3,"
                       "sweep_order=alternate,pairs=1,pass_meeting=flags,breakdown=0",
                       &t, err),
                 0, "%s", err);
    cr_expect_eq(t.chip_way, TUNING_WAY_CLUSTER);
    cr_expect_eq(t.chip_depth, 0);
    cr_expect_eq(t.spread_depth, 4);
    cr_expect_eq(t.spread_lag, 1);
    cr_expect_eq(t.spread_blocks, 160);
    cr_expect_eq(t.spread_columns, 0);
    cr_expect_eq(t.spread_unroll, 3);
    cr_expect_eq(t.sweep_order, TUNING_ORDER_ALTERNATE);
    cr_expect_eq(t.pairs, 1);
    cr_expect_eq(t.pass_meeting, TUNING_MEET_FLAGS);
    cr_expect_eq(t.breakdown, 0);
    cr_assert_eq(parse("chip_way=spread,sweep_order=forward,chip_depth=8,breakdown=1", &t,
                       err),
                 0);
    cr_expect_eq(t.breakdown, 1);
    cr_expect_eq(t.chip_way, TUNING_WAY_SPREAD);
    cr_expect_eq(t.sweep_order, TUNING_ORDER_FORWARD);
    cr_expect_eq(t.chip_depth, 8);
    cr_expect_eq(t.pairs, TUNING_AUTO, "a knob not named stays auto");
}

Test(tuning, the_last_of_a_knob_named_twice_wins)
{
    struct tuning t;
    char err[256];
    cr_assert_eq(parse("pairs=0,pairs=1", &t, err), 0);
    cr_expect_eq(t.pairs, 1);
}

Test(tuning, anything_else_is_refused_naming_it)
{
    static const char *bad[][2] = {
        {"junk", "unknown knob 'junk'"},
        {"pairs=2", "pairs takes a whole number from 0 to 1, not '2'"},
        {"breakdown=2", "breakdown takes a whole number from 0 to 1, not '2'"},
        {"pairs=", "not ''"},
        {"pairs=yes", "not 'yes'"},
        {"chip_depth=9", "chip_depth takes a whole number from 0 to 8"},
        {"spread_lag=0", "spread_lag takes a whole number from 1 to 4"},
        {"spread_unroll=3x", "not '3x'"},
        {"spread_blocks=99999999999999999999", "spread_blocks takes"},
        {"chip_way=Spread", "chip_way takes cluster or spread"},
        {"sweep_order", "'sweep_order' is not KEY=VALUE"},
        {"pairs=1,,pairs=0", "unknown knob ''"},
        {"pairs=1,", "a comma ends the list"},
        {"LAPLACE_PAIRS=1", "unknown knob 'LAPLACE_PAIRS'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tuning t;
        char err[256];
        cr_expect_eq(parse(bad[i][0], &t, err), -1, "'%s' taken", bad[i][0]);
        cr_expect(strstr(err, bad[i][1]), "'%s': %s", bad[i][0], err);
        cr_expect(strncmp(err, "LAPLACE_TUNE: ", 14) == 0, "'%s': %s", bad[i][0], err);
    }
}

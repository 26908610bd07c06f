/*
 * config_region.c - fixed regions: the keys of a [region NAME] section (the INI
 * reader hands them over one at a time), the check that a region has every key of
 * its shape, and --region "SHAPE NUMBERS VALUE", which goes through the same keys.
 */
#include "settings/config_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Bits of struct region.given, one per key. */
enum {
    GIVEN_SHAPE = 1,
    GIVEN_X0 = 2,
    GIVEN_Y0 = 4,
    GIVEN_X1 = 8,
    GIVEN_Y1 = 16,
    GIVEN_CX = 32,
    GIVEN_CY = 64,
    GIVEN_R = 128,
    GIVEN_VALUE = 256
};

#define RECT_KEYS (GIVEN_SHAPE | GIVEN_X0 | GIVEN_Y0 | GIVEN_X1 | GIVEN_Y1 | GIVEN_VALUE)
#define DISC_KEYS (GIVEN_SHAPE | GIVEN_CX | GIVEN_CY | GIVEN_R | GIVEN_VALUE)

/* The region of that name, added if new; NULL when there are too many. */
struct region *region_named(struct problem *p, const char *name)
{
    for (int k = 0; k < p->region_count; k++)
        if (strcmp(p->regions[k].name, name) == 0)
            return &p->regions[k];
    if (p->region_count == REGIONS_MAX)
        return NULL;
    struct region *r = &p->regions[p->region_count++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    return r;
}

/* One key of a [region NAME] section. */
int set_region_key(struct region *r, const char *key, const char *v, char *err, size_t n)
{
    static const struct {
        const char *key;
        unsigned bit;
        size_t offset;
    } numbers[] = {
        {"x0", GIVEN_X0, offsetof(struct region, x0)},
        {"y0", GIVEN_Y0, offsetof(struct region, y0)},
        {"x1", GIVEN_X1, offsetof(struct region, x1)},
        {"y1", GIVEN_Y1, offsetof(struct region, y1)},
        {"cx", GIVEN_CX, offsetof(struct region, cx)},
        {"cy", GIVEN_CY, offsetof(struct region, cy)},
        {"r", GIVEN_R, offsetof(struct region, r)},
        {"value", GIVEN_VALUE, offsetof(struct region, value)},
    };
    if (strcmp(key, "shape") == 0) {
        if (strcmp(v, "rect") != 0 && strcmp(v, "disc") != 0)
            return error_status(EXIT_BAD_USAGE, err, n, "expected rect or disc, got '%s'",
                                v);
        r->shape = strcmp(v, "rect") == 0 ? REGION_RECT : REGION_DISC;
        r->given |= GIVEN_SHAPE;
        return 0;
    }
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
        if (strcmp(key, numbers[i].key) == 0) {
            if (parse_double(v, (double *)((char *)r + numbers[i].offset), err, n) != 0)
                return EXIT_BAD_USAGE;
            if (numbers[i].bit == GIVEN_R && r->r <= 0)
                return error_status(EXIT_BAD_USAGE, err, n,
                                    "the radius must be more than 0, got '%s'", v);
            r->given |= numbers[i].bit;
            return 0;
        }
    return error_status(EXIT_BAD_USAGE, err, n,
                        "unknown key '%s' (shape, x0 y0 x1 y1, cx cy r, value)", key);
}

/* Whether a region has every key its shape needs and no key of the other shape
 * (a disc's x0 would be ignored); why names the first missing or foreign key. */
int region_complete(const struct region *r, char *err, size_t n)
{
    int disc = r->shape == REGION_DISC;
    unsigned need = disc ? DISC_KEYS : RECT_KEYS;
    static const char *names[] = {"shape", "x0", "y0", "x1",   "y1",
                                  "cx",    "cy", "r",  "value"};
    for (int bit = 0; bit < 9; bit++)
        if ((need & (1u << bit)) && !(r->given & (1u << bit)))
            return error_status(EXIT_BAD_USAGE, err, n, "region %s: '%s' is missing",
                                r->name, names[bit]);
    for (int bit = 0; bit < 9; bit++)
        if (!(need & (1u << bit)) && (r->given & (1u << bit)))
            return error_status(EXIT_BAD_USAGE, err, n,
                                "region %s: '%s' is not a key of a %s (%s)", r->name,
                                names[bit], disc ? "disc" : "rect",
                                disc ? "cx cy r value" : "x0 y0 x1 y1 value");
    return 0;
}

/* --region "rect X0 Y0 X1 Y1 VALUE" or "disc CX CY R VALUE". */
int set_region(struct config *c, const char *v, char *err, size_t n)
{
    char shape[8] = "", name[32], word[5][64], extra[2];
    /* words, each then read as a decimal number by set_region_key (no 0x10, no inf) */
    int got = sscanf(v, "%7s %63s %63s %63s %63s %63s %1s", shape, word[0], word[1],
                     word[2], word[3], word[4], extra);
    int rect = strcmp(shape, "rect") == 0, disc = strcmp(shape, "disc") == 0;
    if (got < 1 || !(rect || disc) || got != (rect ? 6 : 5))
        return error_status(
            EXIT_BAD_USAGE, err, n,
            "expected \"rect X0 Y0 X1 Y1 VALUE\" or \"disc CX CY R VALUE\", "
            "got '%s'",
            v);
    snprintf(name, sizeof name, "--region #%d", c->problem.region_count + 1);
    struct region *r = region_named(&c->problem, name);
    if (!r)
        return error_status(EXIT_BAD_USAGE, err, n, "at most %d regions", REGIONS_MAX);
    const char *keys[2][5] = {{"x0", "y0", "x1", "y1", "value"},
                              {"cx", "cy", "r", "value", NULL}};
    set_region_key(r, "shape", shape, err, n);
    for (int i = 0; i < (rect ? 5 : 4); i++)
        if (set_region_key(r, keys[disc][i], word[i], err, n) != 0)
            return EXIT_BAD_USAGE;
    return 0;
}

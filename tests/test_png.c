/*
 * test_png.c - the PNG heat map (png_output.c), read back with stb_image: sizes,
 * orientation, the ends of the colour map, averaging when reduced, tile
 * borders, NaN and constant fields, the caption, an unwritable path.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_partition.h"
#include "helpers.h"
#include "outputs/png_output.h"

/* The decoder's one implementation in the test binary (test_outputs.c uses it too). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

#define M PNG_MARGIN

/* The ends and the middle of viridis, and the NaN colour. */
static const int viridis_min[3] = {68, 1, 84};
static const int viridis_quarter[3] = {59, 82, 139};
static const int viridis_middle[3] = {33, 144, 140};
static const int viridis_max[3] = {253, 231, 37};
static const int magenta[3] = {255, 0, 255};
static const int white[3] = {255, 255, 255};

/* A decoded picture, RGB. */
struct picture {
    int width, height;
    unsigned char *rgb;
};

static const unsigned char *pixel(const struct picture *p, long x, long y)
{
    cr_assert(x >= 0 && y >= 0 && x < p->width && y < p->height,
              "pixel (%ld, %ld) outside the %dx%d picture", x, y, p->width, p->height);
    return p->rgb + 3 * ((size_t)y * p->width + x);
}

/* 1 when pixel (x, y) is within tol of colour in each channel. */
static int is_colour(const struct picture *p, long x, long y, const int colour[3],
                     int tol)
{
    const unsigned char *c = pixel(p, x, y);
    for (int k = 0; k < 3; k++)
        if (abs(c[k] - colour[k]) > tol)
            return 0;
    return 1;
}

static void assert_colour(const struct picture *p, long x, long y, const int colour[3],
                          const char *what)
{
    const unsigned char *c = pixel(p, x, y);
    cr_assert(is_colour(p, x, y, colour, 2),
              "%s at (%ld, %ld): (%d, %d, %d), want (%d, %d, %d)", what, x, y, c[0], c[1],
              c[2], colour[0], colour[1], colour[2]);
}

/* Writes field with options to tests/out/<pid>-name and reads the picture back. */
static struct picture write_and_read(const char *name, const struct field *field,
                                     const struct png_options *options)
{
    char path[1024], err[512] = "";
    out_path(path, sizeof path, name);
    cr_assert_eq(png_write(path, field, options, err, sizeof err), 0, "png_write: %s",
                 err);
    struct picture p;
    int channels;
    p.rgb = stbi_load(path, &p.width, &p.height, &channels, 3);
    cr_assert_not_null(p.rgb, "%s does not decode: %s", path, stbi_failure_reason());
    return p;
}

static struct field new_field(long nx, long ny, enum precision precision)
{
    struct field f;
    cr_assert_eq(field_alloc(&f, nx, ny, precision), 0, "out of memory for %ldx%ld", nx,
                 ny);
    return f;
}

/* The heat map is w x h at (M, M): coloured inside, white just outside. */
static void assert_heat_map_region(const struct picture *p, long w, long h)
{
    long corners[4][2] = {{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}};
    for (int k = 0; k < 4; k++)
        cr_assert(!is_colour(p, M + corners[k][0], M + corners[k][1], white, 0),
                  "heat map corner (%ld, %ld) is white", corners[k][0], corners[k][1]);
    assert_colour(p, M + w, M + h / 2, white, "right of the heat map");
    assert_colour(p, M + w / 2, M + h, white, "below the heat map");
    assert_colour(p, M - 1, M, white, "left of the heat map");
    assert_colour(p, M, M - 1, white, "above the heat map");
}

/* A field of nx x ny with a ramp in x, written and checked to be w x h. */
static void check_size(long nx, long ny, long max_side, long want_w, long want_h)
{
    long w, h;
    png_heat_map_size(nx, ny, max_side, &w, &h);
    cr_assert(w == want_w && h == want_h,
              "%ldx%ld max %ld: heat map %ldx%ld, want %ldx%ld", nx, ny, max_side, w, h,
              want_w, want_h);
    struct field f = new_field(nx, ny, PRECISION_FLOAT);
    for (long y = 0; y < ny; y++)
        for (long x = 0; x < nx; x++)
            field_set(&f, x, y, (double)x);
    struct png_options o = {.max_side = max_side};
    struct picture p = write_and_read("size.png", &f, &o);
    assert_heat_map_region(&p, w, h);
    cr_assert_gt(p.width, M + w + 2 * M, "room for the bar and its labels");
    cr_assert_geq(p.height, M + h + M);
    stbi_image_free(p.rgb);
    field_free(&f);
}

Test(png, tiny_lattice_enlarged_by_an_integer_factor)
{
    check_size(100, 40, 0, 300, 120); /* factor ceil(256 / 100) = 3 */
    long w, h;
    png_heat_map_size(100, 40, 0, &w, &h);
    cr_assert_eq(w % 100, 0, "integer factor");
    check_size(100, 40, 200, 200, 80); /* never past max_side */
}

Test(png, picture_is_wider_than_tall_for_100x40)
{
    struct field f = new_field(100, 40, PRECISION_DOUBLE);
    struct picture p = write_and_read("wide.png", &f, NULL);
    cr_assert_gt(p.width, p.height, "%dx%d", p.width, p.height);
    stbi_image_free(p.rgb);
    field_free(&f);
}

Test(png, one_pixel_per_site_up_to_max_side)
{
    check_size(512, 512, 0, 512, 512);
    check_size(300, 1024, 0, 300, 1024);
}

Test(png, large_lattice_reduced_to_max_side)
{
    check_size(3000, 1000, 1024, 1024,
               341);                    /* 1000 * 1024 / 3000 = 341.3, rounded down */
    check_size(5000, 3, 1024, 1024, 1); /* at least one pixel */
}

/*
 * Top row (y = ny-1) 1, left column below it 0.5, the rest 0: the top of the
 * picture is the max colour, the left column the middle, the bottom right the
 * min. The colour bar runs from the max colour (top) to the min colour.
 */
Test(png, top_row_is_largest_y_and_colour_map_ends)
{
    struct field f = new_field(50, 30, PRECISION_FLOAT);
    for (long x = 0; x < 50; x++)
        field_set(&f, x, 29, 1.0);
    for (long y = 0; y < 29; y++)
        field_set(&f, 0, y, 0.5);
    struct picture p = write_and_read("orientation.png", &f, NULL);
    long w, h;
    png_heat_map_size(50, 30, 0, &w, &h);
    for (long x = 0; x < w; x++) {
        assert_colour(&p, M + x, M, viridis_max, "top row");
        if (x >= w / 50)
            assert_colour(&p, M + x, M + h - 1, viridis_min, "bottom row");
    }
    assert_colour(&p, M, M + h / 2, viridis_middle, "left column");
    long bar_x = M + w + 16 + 12; /* BAR_GAP + half of BAR_WIDTH */
    assert_colour(&p, bar_x, M, viridis_max, "top of the colour bar");
    assert_colour(&p, bar_x, M + (h > 64 ? h : 64) - 1, viridis_min, "bottom of the bar");
    stbi_image_free(p.rgb);
    field_free(&f);
}

/* Every heat-map pixel of p is colour (the test of a reduced field). */
static void assert_all_heat_map(const struct picture *p, long w, long h,
                                const int colour[3])
{
    for (long y = 0; y < h; y++)
        for (long x = 0; x < w; x++)
            if (!is_colour(p, M + x, M + y, colour, 1))
                assert_colour(p, M + x, M + y, colour, "heat map");
}

/* Each pixel holds 2 x 2 sites, two of 0 and two of 1: all show 0.5, none an end. */
Test(png, reduction_averages_every_site)
{
    struct field f = new_field(2048, 2048, PRECISION_FLOAT);
    for (long y = 0; y < 2048; y++)
        for (long x = 0; x < 2048; x++)
            field_set(&f, x, y, (double)((x + y) % 2));
    struct png_options o = {.max_side = 1024};
    struct picture p = write_and_read("checkerboard.png", &f, &o);
    assert_all_heat_map(&p, 1024, 1024, viridis_middle);
    stbi_image_free(p.rgb);
    field_free(&f);
}

/* One site of 1 among zeros still shows, as a quarter of its pixel. */
Test(png, reduction_keeps_a_single_site)
{
    struct field f = new_field(2048, 2048, PRECISION_FLOAT);
    field_set(&f, 1001, 1777, 1.0);
    struct png_options o = {.max_side = 1024};
    struct picture p = write_and_read("one-site.png", &f, &o);
    long px = 1001 / 2, py = 1023 - 1777 / 2;
    assert_colour(&p, M + px, M + py, viridis_quarter, "the pixel of the site");
    for (long y = 0; y < 1024; y++)
        for (long x = 0; x < 1024; x++)
            if (x != px || y != py)
                cr_assert(is_colour(&p, M + x, M + y, viridis_min, 1),
                          "pixel (%ld, %ld) is not the min colour", x, y);
    stbi_image_free(p.rgb);
    field_free(&f);
}

/* How many pixels of heat-map column x (or row y, when x < 0) are white. */
static long white_in_line(const struct picture *p, long x, long y, long length)
{
    long count = 0;
    for (long k = 0; k < length; k++)
        count += is_colour(p, M + (x >= 0 ? x : k), M + (x >= 0 ? k : y), white, 0);
    return count;
}

/*
 * 64x64 on 2x2 tiles of 32 sites, drawn 4x: the border lines are heat-map
 * column 128 (first column of the east tiles) and row 127 (bottom row of the
 * north tiles), white over the whole heat map; none without tiles.
 */
Test(png, tile_borders_at_the_tile_boundaries)
{
    struct field f = new_field(64, 64, PRECISION_DOUBLE);
    struct partition part;
    cr_assert_eq(partition_init(&part, 64, 64, 2, 2), 0);
    struct png_options o = {.tiles = &part};
    struct picture p = write_and_read("tiles.png", &f, &o);
    cr_assert_eq(white_in_line(&p, 128, 0, 256), 256, "column 128 is a border");
    cr_assert_eq(white_in_line(&p, -1, 127, 256), 256, "row 127 is a border");
    cr_assert_eq(white_in_line(&p, 127, 0, 256), 1, "column 127 crosses row 127 only");
    cr_assert_eq(white_in_line(&p, 129, 0, 256), 1, "column 129 crosses row 127 only");
    cr_assert_eq(white_in_line(&p, -1, 128, 256), 1, "row 128 crosses column 128 only");
    stbi_image_free(p.rgb);
    struct picture plain = write_and_read("no-tiles.png", &f, NULL);
    for (long x = 0; x < 256; x++)
        cr_assert_eq(white_in_line(&plain, x, 0, 256), 0, "no border without tiles");
    stbi_image_free(plain.rgb);
    partition_free(&part);
    field_free(&f);
}

/* A NaN site is magenta (its 4x4 pixels) and does not enter the range. */
Test(png, nan_site_in_its_own_colour)
{
    struct field f = new_field(64, 64, PRECISION_DOUBLE);
    for (long y = 0; y < 64; y++)
        for (long x = 0; x < 64; x++)
            field_set(&f, x, y, (double)y / 63.0);
    field_set(&f, 10, 20, NAN);
    field_set(&f, 11, 20, INFINITY);
    struct picture p = write_and_read("nan.png", &f, NULL);
    long magenta_pixels = 0;
    for (long y = 0; y < 256; y++)
        for (long x = 0; x < 256; x++)
            magenta_pixels += is_colour(&p, M + x, M + y, magenta, 0);
    cr_assert_eq(magenta_pixels, 2 * 16, "two sites of 4x4 pixels");
    assert_colour(&p, M + 10 * 4, M + (63 - 20) * 4, magenta, "NaN site");
    assert_colour(&p, M + 11 * 4 + 3, M + (63 - 20) * 4 + 3, magenta, "Inf site");
    assert_colour(&p, M, M, viridis_max, "top row: the max is still 1");
    assert_colour(&p, M, M + 255, viridis_min, "bottom row: the min is still 0");
    stbi_image_free(p.rgb);
    field_free(&f);
}

Test(png, constant_field_is_the_middle_colour)
{
    struct field f = new_field(300, 200, PRECISION_FLOAT);
    for (long y = 0; y < 200; y++)
        for (long x = 0; x < 300; x++)
            field_set(&f, x, y, 42.0);
    struct picture p = write_and_read("constant.png", &f, NULL);
    assert_all_heat_map(&p, 300, 200, viridis_middle);
    stbi_image_free(p.rgb);
    field_free(&f);
}

Test(png, field_without_a_finite_site_is_all_magenta)
{
    struct field f = new_field(8, 8, PRECISION_DOUBLE);
    for (long y = 0; y < 8; y++)
        for (long x = 0; x < 8; x++)
            field_set(&f, x, y, NAN);
    struct picture p = write_and_read("all-nan.png", &f, NULL);
    assert_all_heat_map(&p, 256, 256, magenta);
    stbi_image_free(p.rgb);
    field_free(&f);
}

/* How many black pixels in the rectangle (x0, y0) - (x1, y1), x1 and y1 excluded. */
static long black_pixels(const struct picture *p, long x0, long y0, long x1, long y1)
{
    static const int black[3] = {0, 0, 0};
    long count = 0;
    for (long y = y0; y < y1; y++)
        for (long x = x0; x < x1; x++)
            count += is_colour(p, x, y, black, 0);
    return count;
}

/* The range labels beside the bar, the caption under the picture, in black. */
Test(png, labels_and_caption_are_drawn)
{
    struct field f = new_field(512, 256, PRECISION_FLOAT);
    field_set(&f, 3, 3, 1.5);
    struct picture plain = write_and_read("plain.png", &f, NULL);
    struct png_options o = {.caption = "512x256 float, 423553 iterations"};
    struct picture p = write_and_read("caption.png", &f, &o);
    cr_assert_gt(p.height, plain.height, "the caption adds a line");
    cr_assert_eq(black_pixels(&plain, 0, 0, M + 512, plain.height), 0, "no text left");
    long labels_x = M + 512 + 16 + 24;
    cr_assert_gt(black_pixels(&p, labels_x, M, p.width, M + 20), 0, "max label");
    cr_assert_gt(black_pixels(&p, labels_x, M + 256 - 20, p.width, M + 256), 0,
                 "min label");
    cr_assert_gt(black_pixels(&p, M, M + 256, p.width, p.height), 0, "caption");
    stbi_image_free(plain.rgb);
    stbi_image_free(p.rgb);
    field_free(&f);
}

Test(png, unwritable_path_is_an_error_naming_it)
{
    struct field f = new_field(16, 16, PRECISION_DOUBLE);
    char err[512] = "";
    const char *path = "/nonexistent-dir/x.png";
    cr_assert_eq(png_write(path, &f, NULL, err, sizeof err), -1);
    cr_assert(strstr(err, path), "message '%s' does not name the path", err);
    cr_assert(strstr(err, "No such file"), "message '%s' gives the reason", err);
    field_free(&f);
}

/* The rightmost column with a pixel that is not white among rows y0 .. y1 - 1. */
static long rightmost_ink(const struct picture *p, long y0, long y1)
{
    for (long x = p->width - 1; x >= 0; x--)
        for (long y = y0; y < y1; y++)
            if (!is_colour(p, x, y, white, 0))
                return x;
    return -1;
}

/* A small heat map with the program's long caption: the caption is wrapped, so the
 * map, its bar and their labels fill the picture's width (no blank half). */
Test(png, a_small_map_with_a_long_caption_leaves_no_blank_half)
{
    struct field f = new_field(64, 32, PRECISION_DOUBLE);
    for (long x = 0; x < 64; x++)
        field_set(&f, x, 31, 1.0);
    struct png_options o = {
        .caption = "laplace 0.1.0, 64x32 double, jacobi, stopped at iteration 2000"};
    struct picture p = write_and_read("small-caption.png", &f, &o);
    long w, h;
    png_heat_map_size(64, 32, 0, &w, &h);
    long right = rightmost_ink(&p, M, M + h);
    cr_assert_geq(right, p.width - M - 8,
                  "map, bar and labels end at x = %ld of a %d-pixel picture", right,
                  p.width);
    cr_assert_gt(black_pixels(&p, M, M + h, p.width, p.height), 0, "the caption");
    stbi_image_free(p.rgb);
    field_free(&f);
}

/* How many runs of rows hold black pixels in columns x0 .. x1 - 1: the labels. */
static int text_rows(const struct picture *p, long x0, long x1, long y0, long y1)
{
    int runs = 0, inside = 0;
    for (long y = y0; y < y1; y++) {
        int ink = black_pixels(p, x0, y, x1, y + 1) > 0;
        runs += ink && !inside;
        inside = ink;
    }
    return runs;
}

/* Five labelled ticks beside the bar (max, three between, min), with their values. */
Test(png, the_colour_bar_has_five_labelled_ticks)
{
    struct field f = new_field(300, 300, PRECISION_FLOAT);
    for (long x = 0; x < 300; x++)
        field_set(&f, x, 299, 1.0);
    struct picture p = write_and_read("ticks.png", &f, NULL);
    long labels_x = M + 300 + 16 + 24 + 4; /* BAR_GAP, BAR_WIDTH, the tick mark */
    int labels = text_rows(&p, labels_x, p.width, M, M + 300);
    cr_assert_geq(labels, 5, "%d labels beside the bar", labels);
    stbi_image_free(p.rgb);
    field_free(&f);
}

/* A fixed range: the field's max 1 in [0, 2] takes the middle colour, not the top. */
Test(png, a_fixed_range_sets_the_colours)
{
    struct field f = new_field(50, 30, PRECISION_FLOAT);
    for (long x = 0; x < 50; x++)
        field_set(&f, x, 29, 1.0);
    struct png_options o = {.fixed_range = 1, .range_lo = 0.0, .range_hi = 2.0};
    struct picture p = write_and_read("range.png", &f, &o);
    long w, h;
    png_heat_map_size(50, 30, 0, &w, &h);
    assert_colour(&p, M + w / 2, M, viridis_middle, "1 in [0, 2]");
    assert_colour(&p, M + w / 2, M + h - 1, viridis_min, "0 in [0, 2]");
    stbi_image_free(p.rgb);
    field_free(&f);
}

/* --png-range through the program: the same scale for every snapshot. */
Test(png, png_range_option_reaches_the_picture)
{
    require_laplace();
    char path[256];
    snprintf(path, sizeof path, TEST_OUT "/%ld-range.png", (long)getpid());
    struct run r = laplace_run("--backend serial --nx 40 --ny 40 --max-iter 50 -q "
                               "--png-range 0:2 --output %s",
                               path);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    struct picture p;
    int channels;
    p.rgb = stbi_load(path, &p.width, &p.height, &channels, 3);
    cr_assert_not_null(p.rgb);
    assert_colour(&p, M + 100, M, viridis_middle, "the top edge, 1 in [0, 2]");
    stbi_image_free(p.rgb);
    remove(path);
    r = laplace_run("--backend serial --png-range 2:1");
    check_refused(&r, 2, "--png-range");
    run_free(&r);
}

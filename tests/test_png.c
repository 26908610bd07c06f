/*
 * test_png.c - the PNG heat map (png_output.c), read back with stb_image: sizes,
 * orientation, the ends of the colour map, averaging when reduced, tile
 * borders, NaN and constant fields, the caption, an unwritable path, and the
 * axes (png_axes.c): which sites the ticks name, their marks on the middle of
 * those sites' pixels, their labels, the room the axes take.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_partition.h"
#include "helpers.h"
#include "outputs/png_axes.h"
#include "outputs/png_canvas.h"
#include "outputs/png_output.h"

/* The decoder's one implementation in the test binary (test_outputs.c uses it too). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

#define M PNG_MARGIN /* the heat map's top edge; its left edge is picture.left */

/* The ends and the middle of viridis, and the NaN colour. */
static const int viridis_min[3] = {68, 1, 84};
static const int viridis_quarter[3] = {59, 82, 139};
static const int viridis_middle[3] = {33, 144, 140};
static const int viridis_max[3] = {253, 231, 37};
static const int magenta[3] = {255, 0, 255};
static const int white[3] = {255, 255, 255};

/* A decoded picture, RGB, and where its heat map's left edge is. */
struct picture {
    int width, height;
    unsigned char *rgb;
    long left;
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

/* Reads the picture of a lattice of ny rows back from path. */
static struct picture read_picture(const char *path, long ny)
{
    struct picture p;
    int channels;
    p.rgb = stbi_load(path, &p.width, &p.height, &channels, 3);
    cr_assert_not_null(p.rgb, "%s does not decode: %s", path, stbi_failure_reason());
    p.left = png_heat_map_left(ny);
    return p;
}

/* Writes field with options to tests/out/<pid>-name and reads the picture back. */
static struct picture write_and_read(const char *name, const struct field *field,
                                     const struct png_options *options)
{
    char path[1024], err[512] = "";
    out_path(path, sizeof path, name);
    cr_assert_eq(png_write(path, field, options, err, sizeof err), 0, "png_write: %s",
                 err);
    return read_picture(path, field->ny);
}

static struct field new_field(long nx, long ny, enum precision precision)
{
    struct field f;
    cr_assert_eq(field_alloc(&f, nx, ny, precision), 0, "out of memory for %ldx%ld", nx,
                 ny);
    return f;
}

static const int black[3] = {0, 0, 0};

/* 1 when pixel (x, y) is paper or ink, none of the heat map's colours. */
static int is_paper(const struct picture *p, long x, long y)
{
    return is_colour(p, x, y, white, 0) || is_colour(p, x, y, black, 0);
}

/* The heat map is w x h at (left, M): coloured inside, white just outside (or
 * black: the axes' marks touch it below and on the left). */
static void assert_heat_map_region(const struct picture *p, long w, long h)
{
    long corners[4][2] = {{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}};
    for (int k = 0; k < 4; k++)
        cr_assert(!is_paper(p, p->left + corners[k][0], M + corners[k][1]),
                  "heat map corner (%ld, %ld) is white", corners[k][0], corners[k][1]);
    assert_colour(p, p->left + w, M + h / 2, white, "right of the heat map");
    cr_assert(is_paper(p, p->left + w / 2, M + h), "below the heat map");
    cr_assert(is_paper(p, p->left - 1, M), "left of the heat map");
    assert_colour(p, p->left, M - 1, white, "above the heat map");
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
    cr_assert_gt(p.width, p.left + w + 2 * M, "room for the bar and its labels");
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
               341); /* 1000 * 1024 / 3000 = 341.3, rounded down */
    /* 3 sites along y: 2 cells (the first and the last site apart), each stretched
     * to a label's room, 14 + 8 pixels (png_axes_fit) */
    check_size(5000, 3, 1024, 1024, 44);
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
        assert_colour(&p, p.left + x, M, viridis_max, "top row");
        if (x >= w / 50)
            assert_colour(&p, p.left + x, M + h - 1, viridis_min, "bottom row");
    }
    assert_colour(&p, p.left, M + h / 2, viridis_middle, "left column");
    long bar_x = p.left + w + 16 + 12; /* BAR_GAP + half of BAR_WIDTH */
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
            if (!is_colour(p, p->left + x, M + y, colour, 1))
                assert_colour(p, p->left + x, M + y, colour, "heat map");
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
    assert_colour(&p, p.left + px, M + py, viridis_quarter, "the pixel of the site");
    for (long y = 0; y < 1024; y++)
        for (long x = 0; x < 1024; x++)
            if (x != px || y != py)
                cr_assert(is_colour(&p, p.left + x, M + y, viridis_min, 1),
                          "pixel (%ld, %ld) is not the min colour", x, y);
    stbi_image_free(p.rgb);
    field_free(&f);
}

/* How many pixels of heat-map column x (or row y, when x < 0) are white. */
static long white_in_line(const struct picture *p, long x, long y, long length)
{
    long count = 0;
    for (long k = 0; k < length; k++)
        count += is_colour(p, p->left + (x >= 0 ? x : k), M + (x >= 0 ? k : y), white, 0);
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
            magenta_pixels += is_colour(&p, p.left + x, M + y, magenta, 0);
    cr_assert_eq(magenta_pixels, 2 * 16, "two sites of 4x4 pixels");
    assert_colour(&p, p.left + 10 * 4, M + (63 - 20) * 4, magenta, "NaN site");
    assert_colour(&p, p.left + 11 * 4 + 3, M + (63 - 20) * 4 + 3, magenta, "Inf site");
    assert_colour(&p, p.left, M, viridis_max, "top row: the max is still 1");
    assert_colour(&p, p.left, M + 255, viridis_min, "bottom row: the min is still 0");
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
    long x_axis_end = M + 256 + png_axes_height();
    cr_assert_eq(black_pixels(&plain, 0, x_axis_end, plain.width, plain.height), 0,
                 "no text under the x axis");
    long labels_x = p.left + 512 + 16 + 24;
    cr_assert_gt(black_pixels(&p, labels_x, M, p.width, M + 20), 0, "max label");
    cr_assert_gt(black_pixels(&p, labels_x, M + 256 - 20, p.width, M + 256), 0,
                 "min label");
    cr_assert_gt(black_pixels(&p, M, x_axis_end, p.width, p.height), 0, "caption");
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
    cr_assert_gt(black_pixels(&p, M, M + h + png_axes_height(), p.width, p.height), 0,
                 "the caption");
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
    long labels_x = p.left + 300 + 16 + 24 + 4; /* BAR_GAP, BAR_WIDTH, the tick mark */
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
    assert_colour(&p, p.left + w / 2, M, viridis_middle, "1 in [0, 2]");
    assert_colour(&p, p.left + w / 2, M + h - 1, viridis_min, "0 in [0, 2]");
    stbi_image_free(p.rgb);
    field_free(&f);
}

/* --png-range through the program: the same scale for every snapshot. */
Test(png, png_range_option_reaches_the_picture)
{
    require_laplace();
    char path[256];
    snprintf(path, sizeof path, TEST_OUT "/%ld-range.png", out_pid());
    struct run r = laplace_run("--backend serial --nx 40 --ny 40 --max-iter 50 -q "
                               "--png-range 0:2 --output %s",
                               path);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_free(&r);
    struct picture p = read_picture(path, 40);
    assert_colour(&p, p.left + 100, M, viridis_middle, "the top edge, 1 in [0, 2]");
    stbi_image_free(p.rgb);
    remove(path);
    r = laplace_run("--backend serial --png-range 2:1");
    check_refused(&r, 2, "--png-range");
    run_free(&r);
}

/* The sites the ticks of one axis of an nx x ny lattice name, as "0 5 10 15". */
static void assert_tick_sites(long nx, long ny, enum png_axis axis, const char *want)
{
    struct heat_map hm;
    png_heat_map_shape(nx, ny, 0, &hm);
    struct png_axes_ticks t;
    png_axes_ticks(&hm, axis, &t);
    char got[256] = "";
    for (int k = 0; k < t.count; k++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%ld", k ? " " : "",
                 t.site[k]);
    cr_assert_str_eq(got, want, "%ldx%ld, %c axis: ticks at %s, want %s", nx, ny,
                     axis == PNG_AXIS_X ? 'x' : 'y', got, want);
}

/* 0, the last site, and round sites between (1, 2 or 5 times a power of ten);
 * a round site too close to the last one for their labels is left out. */
Test(png, ticks_name_0_the_last_site_and_round_sites_between)
{
    assert_tick_sites(16, 16, PNG_AXIS_X, "0 5 10 15");
    assert_tick_sites(16, 16, PNG_AXIS_Y, "0 5 10 15");
    assert_tick_sites(64, 64, PNG_AXIS_X, "0 20 40 63"); /* not 60 */
    assert_tick_sites(256, 256, PNG_AXIS_X, "0 100 200 255");
    assert_tick_sites(512, 512, PNG_AXIS_Y, "0 200 400 511");
    assert_tick_sites(100, 40, PNG_AXIS_X, "0 20 40 60 80 99");
    assert_tick_sites(100, 40, PNG_AXIS_Y, "0 10 20 30 39");
    assert_tick_sites(1500, 700, PNG_AXIS_X, "0 500 1000 1499"); /* reduced */
    assert_tick_sites(1500, 700, PNG_AXIS_Y, "0 200 400 600 699");
    assert_tick_sites(2, 1, PNG_AXIS_X, "0 1");
    assert_tick_sites(2, 1, PNG_AXIS_Y, "0");
    assert_tick_sites(5000, 3, PNG_AXIS_Y, "0 2"); /* 3 sites in 2 cells */
}

/* A thin lattice's short side is stretched until its axis names the last site,
 * with every two labels of an axis a label's room apart (a digit's height on y,
 * the widest label's width on x): none overlap. */
Test(png, thin_lattices_name_their_last_site_with_labels_apart)
{
    assert_tick_sites(3, 1000, PNG_AXIS_X, "0 2");
    assert_tick_sites(257, 3, PNG_AXIS_Y, "0 2");
    assert_tick_sites(1025, 4, PNG_AXIS_Y, "0 3");
    assert_tick_sites(4, 1025, PNG_AXIS_X, "0 3");
    const long sides[][2] = {{3, 1000}, {257, 3}, {1025, 4}, {10000, 2}, {2, 300}};
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        struct heat_map hm;
        long w, h;
        png_heat_map_shape(sides[i][0], sides[i][1], 0, &hm);
        png_heat_map_size(sides[i][0], sides[i][1], 0, &w, &h);
        cr_assert(w == hm.width && h == hm.height, "the size is the shape's");
        for (int axis = PNG_AXIS_X; axis <= PNG_AXIS_Y; axis++) {
            struct png_axes_ticks t;
            png_axes_ticks(&hm, (enum png_axis)axis, &t);
            long n = axis == PNG_AXIS_X ? sides[i][0] : sides[i][1];
            cr_assert(t.count >= 2 && t.site[t.count - 1] == n - 1,
                      "%ldx%ld: the %c axis does not name site %ld", sides[i][0],
                      sides[i][1], axis == PNG_AXIS_X ? 'x' : 'y', n - 1);
            long room = axis == PNG_AXIS_X ? png_canvas_text_width(t.label[t.count - 1])
                                           : PNG_TEXT_HEIGHT;
            for (int k = 1; k < t.count; k++)
                cr_assert_geq(labs(t.pixel[k] - t.pixel[k - 1]), room,
                              "%ldx%ld: labels %s and %s overlap", sides[i][0],
                              sides[i][1], t.label[k - 1], t.label[k]);
        }
    }
}

/* The smallest box [x0, x1) x [y0, y1) that holds the black pixels of the given
 * one (x1 <= x0 when there are none). */
struct box {
    long x0, y0, x1, y1;
};

static struct box ink_box(const struct picture *p, struct box in)
{
    struct box b = {in.x1, in.y1, in.x0, in.y0};
    for (long y = in.y0; y < in.y1; y++)
        for (long x = in.x0; x < in.x1; x++)
            if (is_colour(p, x, y, black, 0)) {
                b.x0 = x < b.x0 ? x : b.x0;
                b.y0 = y < b.y0 ? y : b.y0;
                b.x1 = x + 1 > b.x1 ? x + 1 : b.x1;
                b.y1 = y + 1 > b.y1 ? y + 1 : b.y1;
            }
    return b;
}

/* The ink in box `in` of p is text, pixel for pixel as png_canvas draws it; returns
 * the box of that ink. */
static struct box assert_reads(const struct picture *p, struct box in, const char *text)
{
    long w = png_canvas_text_width(text) + 4, h = PNG_TEXT_HEIGHT + 8;
    struct picture want = {(int)w, (int)h, malloc(3 * (size_t)(w * h)), 0};
    cr_assert_not_null(want.rgb);
    memset(want.rgb, 255, 3 * (size_t)(w * h));
    png_canvas_text(&(struct png_canvas){w, h, want.rgb}, 2, 2, text);
    struct box t = ink_box(&want, (struct box){0, 0, w, h});
    struct box b = ink_box(p, in);
    cr_assert(b.x1 - b.x0 == t.x1 - t.x0 && b.y1 - b.y0 == t.y1 - t.y0,
              "the label in (%ld, %ld)-(%ld, %ld) is %ldx%ld pixels, '%s' %ldx%ld", in.x0,
              in.y0, in.x1, in.y1, b.x1 - b.x0, b.y1 - b.y0, text, t.x1 - t.x0,
              t.y1 - t.y0);
    for (long y = 0; y < b.y1 - b.y0; y++)
        for (long x = 0; x < b.x1 - b.x0; x++)
            cr_assert_eq(is_colour(p, b.x0 + x, b.y0 + y, black, 0),
                         is_colour(&want, t.x0 + x, t.y0 + y, black, 0),
                         "the label at (%ld, %ld) does not read '%s'", b.x0, b.y0, text);
    free(want.rgb);
    return b;
}

/* The runs [start, end) of pixels along a heat-map row (or column, when vertical)
 * that are not the min colour: the hot sites. Returns how many (at most max). */
static int hot_runs(const struct picture *p, long at, long length, int vertical,
                    long (*runs)[2], int max)
{
    int count = 0;
    for (long k = 0, start = -1; k <= length; k++) {
        int hot = k < length && !is_colour(p, vertical ? p->left + at : p->left + k,
                                           vertical ? M + k : M + at, viridis_min, 1);
        if (hot && start < 0)
            start = k;
        if (!hot && start >= 0 && count < max) {
            runs[count][0] = start;
            runs[count++][1] = k;
        }
        start = hot ? start : -1;
    }
    return count;
}

/* The black pixels in [a, b) along row y (or column x when vertical): the marks. */
static long marks_between(const struct picture *p, long a, long b, long other,
                          int vertical)
{
    return vertical ? black_pixels(p, other, a, other + 1, b)
                    : black_pixels(p, a, other, b, other + 1);
}

/* Reads "0 5 10" into sites; returns how many. */
static int parse_sites(const char *text, long *sites, int max)
{
    int n = 0;
    for (char *end; n < max && *text; text = end)
        sites[n++] = strtol(text, &end, 10);
    return n;
}

#define DIGIT_WIDTH (6 * PNG_TEXT_SCALE) /* a digit and its space: 6 font pixels */

/* The ink in box `around` of p reads the site's index; returns the ink's box. */
static struct box assert_label(const struct picture *p, struct box around, long site)
{
    char label[24];
    snprintf(label, sizeof label, "%ld", site);
    return assert_reads(p, around, label);
}

/*
 * The x axis of a picture whose field is hot on the columns of the sites named:
 * along heat-map row `row` each run of hot pixels has a mark under it on its
 * middle pixel(s), exactly, and under the mark, centred, a label that reads the
 * site; there are no other marks.
 */
static void assert_x_ticks(const struct picture *p, long w, long h, long row,
                           const char *sites)
{
    long want[PNG_AXES_TICKS_MAX], runs[PNG_AXES_TICKS_MAX + 1][2], marks = 0;
    int count = parse_sites(sites, want, PNG_AXES_TICKS_MAX);
    cr_assert_eq(hot_runs(p, row, w, 0, runs, PNG_AXES_TICKS_MAX + 1), count,
                 "the field's hot columns");
    for (int k = 0; k < count; k++) {
        long lo = p->left + (runs[k][0] + runs[k][1] - 1) / 2;
        long hi = p->left + (runs[k][0] + runs[k][1]) / 2; /* lo, or lo + 1 */
        for (long y = M + h; y < M + h + PNG_TICK_LENGTH; y++)
            cr_assert(marks_between(p, lo - 1, hi + 2, y, 0) == hi - lo + 1 &&
                          marks_between(p, lo, hi + 1, y, 0) == hi - lo + 1,
                      "site %ld: no mark on heat-map columns %ld..%ld only, row %ld",
                      want[k], lo - p->left, hi - p->left, y - M - h);
        marks += hi - lo + 1;
        long half = 3 * DIGIT_WIDTH, top = M + h + PNG_TICK_LENGTH + 3;
        struct box b = assert_label(
            p, (struct box){lo - half, top, hi + 1 + half, top + PNG_TEXT_HEIGHT + 6},
            want[k]);
        cr_assert(labs(b.x0 + b.x1 - (lo + hi + 1)) <= 2 * PNG_TEXT_SCALE,
                  "the label of site %ld is not centred under its mark", want[k]);
    }
    cr_assert_eq(marks_between(p, p->left - 8, p->left + w + 8, M + h, 0), marks,
                 "marks other than the ticks' under the heat map");
}

/* The same for the y axis: field hot on the rows of the sites, scanned along
 * heat-map column `col`, the marks left of the heat map, the labels left of them,
 * centred on them. */
static void assert_y_ticks(const struct picture *p, long h, long col, const char *sites)
{
    long want[PNG_AXES_TICKS_MAX], runs[PNG_AXES_TICKS_MAX + 1][2], marks = 0;
    int count = parse_sites(sites, want, PNG_AXES_TICKS_MAX);
    cr_assert_eq(hot_runs(p, col, h, 1, runs, PNG_AXES_TICKS_MAX + 1), count,
                 "the field's hot rows");
    for (int k = 0; k < count; k++) {
        long site = want[count - 1 - k]; /* the runs go down from the top */
        long lo = M + (runs[k][0] + runs[k][1] - 1) / 2;
        long hi = M + (runs[k][0] + runs[k][1]) / 2;
        for (long x = p->left - PNG_TICK_LENGTH; x < p->left; x++)
            cr_assert(marks_between(p, lo - 1, hi + 2, x, 1) == hi - lo + 1 &&
                          marks_between(p, lo, hi + 1, x, 1) == hi - lo + 1,
                      "site %ld: no mark on heat-map rows %ld..%ld only, column %ld",
                      site, lo - M, hi - M, x - p->left);
        marks += hi - lo + 1;
        /* searched for from 2 pixels left of its place on, short of the axis's name */
        long digits = snprintf(NULL, 0, "%ld", site), half = PNG_TEXT_HEIGHT;
        long right = p->left - PNG_TICK_LENGTH - 1;
        long left = right - PNG_LABEL_GAP - digits * DIGIT_WIDTH - 2;
        struct box b =
            assert_label(p, (struct box){left, lo - half, right, hi + 1 + half}, site);
        cr_assert(labs(b.y0 + b.y1 - (lo + hi + 1)) <= 2 * PNG_TEXT_SCALE,
                  "the label of site %ld is not centred on its mark", site);
        cr_assert_leq(b.x1, p->left - PNG_TICK_LENGTH - PNG_LABEL_GAP);
    }
    cr_assert_eq(marks_between(p, M - 8, M + h + 8, p->left - 1, 1), marks,
                 "marks other than the ticks' left of the heat map");
}

/*
 * An nx x ny field, 0 but 1 on the columns of x_sites and the rows of y_sites,
 * drawn: the axes name exactly those sites at their pixels. row and col are a
 * heat-map row and column that show no hot site.
 */
static void check_axes(long nx, long ny, const char *x_sites, const char *y_sites,
                       long row, long col)
{
    struct field f = new_field(nx, ny, PRECISION_FLOAT);
    long sites[PNG_AXES_TICKS_MAX];
    for (int k = 0, n = parse_sites(x_sites, sites, PNG_AXES_TICKS_MAX); k < n; k++)
        for (long y = 0; y < ny; y++)
            field_set(&f, sites[k], y, 1.0);
    for (int k = 0, n = parse_sites(y_sites, sites, PNG_AXES_TICKS_MAX); k < n; k++)
        for (long x = 0; x < nx; x++)
            field_set(&f, x, sites[k], 1.0);
    struct picture p = write_and_read("axes.png", &f, NULL);
    long w, h;
    png_heat_map_size(nx, ny, 0, &w, &h);
    assert_x_ticks(&p, w, h, row, x_sites);
    assert_y_ticks(&p, h, col, y_sites);
    stbi_image_free(p.rgb);
    field_free(&f);
}

/* 16 x 16, 16 pixels a site: each mark on the middle two pixels of its site. */
Test(png, axes_of_16x16_mark_the_middle_of_the_sites_they_name)
{
    check_axes(16, 16, "0 5 10 15", "0 5 10 15", (15 - 2) * 16 + 8, 2 * 16 + 8);
}

/* 100 x 40, 3 pixels a site: each mark on the middle one. */
Test(png, axes_of_100x40_mark_the_middle_of_the_sites_they_name)
{
    check_axes(100, 40, "0 20 40 60 80 99", "0 10 20 30 39", (39 - 5) * 3 + 1, 5 * 3 + 1);
}

/* 1500 x 700 reduced to 1024 x 477 pixels, a pixel the average of 1 or 2 sites:
 * the ticks still name sites (0 500 1000 1499, not pixels), each on the pixel
 * that shows its site (site 500 on pixel 341). */
Test(png, axes_of_a_reduced_lattice_name_sites_at_their_pixels)
{
    check_axes(1500, 700, "0 500 1000 1499", "0 200 400 600 699", 476 - 100 * 477 / 700,
               100 * 1024 / 1500);
}

/*
 * The y axis takes the room of its widest label, which grows with ny (one digit
 * more, one glyph more), and holds it whole from the left margin on; under the
 * heat map, the x axis's marks, labels and name, then the bottom margin.
 */
Test(png, the_picture_grows_to_fit_its_axes)
{
    long previous = 0;
    for (long ny = 10; ny <= 10000; ny *= 10) {
        struct field f = new_field(8, ny, PRECISION_FLOAT);
        struct picture p = write_and_read("axes-room.png", &f, NULL);
        long w, h;
        png_heat_map_size(8, ny, 0, &w, &h);
        cr_assert_eq(p.left - previous, previous ? DIGIT_WIDTH : p.left,
                     "ny %ld: the heat map at x = %ld", ny, p.left);
        previous = p.left;
        struct box all = ink_box(&p, (struct box){0, 0, p.width, p.height});
        cr_assert_eq(all.x0, M, "ny %ld: the y axis's name at the left margin", ny);
        cr_assert_eq(all.y1, p.height - M, "ny %ld: the bottom margin", ny);
        cr_assert_gt(all.y1, M + h + PNG_TICK_LENGTH + 2 * PNG_TEXT_HEIGHT,
                     "ny %ld: the x axis's labels and name under the marks", ny);
        long top = M + 22; /* under the label of site ny - 1, at the top */
        assert_label(&p, (struct box){M + 1, 0, p.left - PNG_TICK_LENGTH, top}, ny - 1);
        stbi_image_free(p.rgb);
        field_free(&f);
    }
}

/* Issue 44, item 11: where tile borders are drawn the caption says what the white
 * lines are; a single tile, or no borders, leaves the caption as it was. */
Test(png, the_caption_names_the_white_lines_tile_borders)
{
    char out[PNG_TEXT_MAX + 1];
    struct partition four, one;
    cr_assert_eq(partition_init(&four, 32, 32, 2, 2), 0);
    cr_assert_eq(partition_init(&one, 32, 32, 1, 1), 0);
    struct png_options o = {.tiles = &four, .caption = "laplace 0.1.0, 32x32 float"};
    png_caption_text(&o, out);
    cr_assert_str_eq(out, "laplace 0.1.0, 32x32 float, white lines: tile borders");
    o.caption = NULL;
    png_caption_text(&o, out);
    cr_assert_str_eq(out, "white lines: tile borders");
    o = (struct png_options){.tiles = &one, .caption = "a, b"};
    png_caption_text(&o, out);
    cr_assert_str_eq(out, "a, b");
    o.tiles = NULL;
    png_caption_text(&o, out);
    cr_assert_str_eq(out, "a, b");
    partition_free(&four);
    partition_free(&one);
}

/* The box of the ink in rows y0 .. p->height of the columns [x0, x0 + w) that reads
 * text. */
static struct box text_under(const struct picture *p, long x0, long w, long y0,
                             const char *text)
{
    return assert_reads(p, (struct box){x0, y0, x0 + w, p->height}, text);
}

/* Issue 44, item 11: the colour bar is named after the field, "u", centred under
 * the bar on the line of the x axis's name; a bar taller than a flat map has it
 * under the bar, and the picture grows to hold it. */
Test(png, the_colour_bar_is_named_after_the_field)
{
    static const long sides[2][2] = {{300, 300}, {300, 6}};
    for (int k = 0; k < 2; k++) {
        struct field f = new_field(sides[k][0], sides[k][1], PRECISION_FLOAT);
        for (long x = 0; x < sides[k][0]; x++)
            field_set(&f, x, sides[k][1] - 1, 1.0);
        struct picture p = write_and_read("bar-name.png", &f, NULL);
        struct heat_map hm;
        png_heat_map_shape(sides[k][0], sides[k][1], 0, &hm);
        long w = hm.width, h = hm.height, bar_width = 24; /* BAR_WIDTH */
        long tall = h < 86;                               /* the bar's least height */
        long bar_x = p.left + w + 16 + (tall ? png_axes_overhang(&hm) : 0); /* BAR_GAP */
        long bar_bottom = M + (tall ? 86 : h);
        struct box u = text_under(&p, bar_x, bar_width, bar_bottom, FIELD_NAME);
        cr_assert(labs(u.x0 + u.x1 - (2 * bar_x + bar_width)) <= 2 * PNG_TEXT_SCALE,
                  "%ldx%ld: the name is not centred under the bar", sides[k][0],
                  sides[k][1]);
        cr_assert_geq(u.y0, bar_bottom + PNG_NAME_GAP, "under the bar, apart");
        cr_assert_leq(u.y1, p.height - M, "the bottom margin");
        if (k == 0) {
            struct box x = text_under(&p, p.left + w / 2 - 20, 40, M + h + 26, "x");
            cr_assert_eq(u.y1, x.y1, "on the line of the x axis's name");
        }
        stbi_image_free(p.rgb);
        field_free(&f);
    }
}

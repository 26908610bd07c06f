/*
 * test_partition.c - the NGx x NGy split: extents, remainders, neighbours,
 * numbering, refusals, a tile's upload and download of its rectangle of the whole
 * lattice (on the host tiles), and the automatic layout.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "devices/device.h"
#include "gpu_partition.h"
#include "helpers.h"

/* Awkward lattices: odd, non-square, tiles of width 1, tiles of only boundary. */
static const long lattices[][2] = {{37, 23}, {10, 9}, {5, 5}, {11, 4}, {3, 3}};
#define LATTICE_COUNT ((int)(sizeof lattices / sizeof lattices[0]))

/* Calls check(p) for every layout 1..8 x 1..8 that the lattice allows. */
#define FOR_EACH_LAYOUT(p, BODY)                                                         \
    for (int l = 0; l < LATTICE_COUNT; l++)                                              \
        for (int ngx = 1; ngx <= 8; ngx++)                                               \
            for (int ngy = 1; ngy <= 8; ngy++) {                                         \
                long nx = lattices[l][0], ny = lattices[l][1];                           \
                if (ngx > nx - 2 || ngy > ny - 2)                                        \
                    continue;                                                            \
                struct partition p;                                                      \
                cr_assert_eq(partition_init(&p, nx, ny, ngx, ngy), 0,                    \
                             "partition_init %ldx%ld into %dx%d", nx, ny, ngx, ngy);     \
                BODY;                                                                    \
                partition_free(&p);                                                      \
            }

Test(partition, tiles_cover_every_site_exactly_once)
{
    FOR_EACH_LAYOUT(p, {
        int *covered = calloc((size_t)(nx * ny), sizeof *covered);
        long area = 0;
        for (int t = 0; t < partition_count(&p); t++) {
            const struct tile_extent *e = &p.tiles[t];
            area += e->lx * e->ly;
            for (long y = e->y0; y < e->y0 + e->ly; y++)
                for (long x = e->x0; x < e->x0 + e->lx; x++) {
                    cr_assert(x >= 0 && x < nx && y >= 0 && y < ny,
                              "%ldx%ld %dx%d: tile %d reaches outside (%ld,%ld)", nx, ny,
                              ngx, ngy, t, x, y);
                    covered[x + nx * y]++;
                }
        }
        cr_assert_eq(area, nx * ny, "%ldx%ld %dx%d: areas add to %ld", nx, ny, ngx, ngy,
                     area);
        for (long i = 0; i < nx * ny; i++)
            cr_assert_eq(covered[i], 1, "%ldx%ld %dx%d: site %ld covered %d times", nx,
                         ny, ngx, ngy, i, covered[i]);
        free(covered);
    });
}

Test(partition, tiles_are_contiguous_rows_and_columns)
{
    FOR_EACH_LAYOUT(p, {
        cr_assert_eq(p.ngx, ngx);
        cr_assert_eq(p.ngy, ngy);
        cr_assert_eq(p.nx, nx);
        cr_assert_eq(p.ny, ny);
        for (int t = 0; t < partition_count(&p); t++) {
            const struct tile_extent *e = &p.tiles[t];
            const struct tile_extent *below = &p.tiles[e->ix]; /* row 0, same column */
            const struct tile_extent *first =
                &p.tiles[e->iy * ngx]; /* column 0, same row */
            cr_assert(e->x0 == below->x0 && e->lx == below->lx,
                      "%ldx%ld %dx%d: tile %d not aligned with its column", nx, ny, ngx,
                      ngy, t);
            cr_assert(e->y0 == first->y0 && e->ly == first->ly,
                      "%ldx%ld %dx%d: tile %d not aligned with its row", nx, ny, ngx, ngy,
                      t);
            long want_x0 = e->ix == 0 ? 0 : p.tiles[t - 1].x0 + p.tiles[t - 1].lx;
            long want_y0 = e->iy == 0 ? 0 : p.tiles[t - ngx].y0 + p.tiles[t - ngx].ly;
            cr_assert_eq(e->x0, want_x0, "%ldx%ld %dx%d: tile %d x0", nx, ny, ngx, ngy,
                         t);
            cr_assert_eq(e->y0, want_y0, "%ldx%ld %dx%d: tile %d y0", nx, ny, ngx, ngy,
                         t);
            if (e->ix == ngx - 1)
                cr_assert_eq(e->x0 + e->lx, nx, "last column ends at nx");
            if (e->iy == ngy - 1)
                cr_assert_eq(e->y0 + e->ly, ny, "last row ends at ny");
        }
    });
}

Test(partition, widths_differ_by_at_most_one_larger_first)
{
    FOR_EACH_LAYOUT(p, {
        for (int ix = 0; ix < ngx; ix++) {
            long w = p.tiles[ix].lx;
            cr_assert(w == nx / ngx || w == nx / ngx + 1, "%ldx%ld %dx%d: width %ld", nx,
                      ny, ngx, ngy, w);
            cr_assert_eq(w, nx / ngx + (ix < nx % ngx ? 1 : 0),
                         "%ldx%ld %dx%d: column %d has width %ld; remainders go first",
                         nx, ny, ngx, ngy, ix, w);
        }
        for (int iy = 0; iy < ngy; iy++) {
            long h = p.tiles[iy * ngx].ly;
            cr_assert_eq(h, ny / ngy + (iy < ny % ngy ? 1 : 0),
                         "%ldx%ld %dx%d: row %d has height %ld; remainders go first", nx,
                         ny, ngx, ngy, iy, h);
        }
    });
}

Test(partition, tile_number_is_ix_plus_iy_times_ngx)
{
    FOR_EACH_LAYOUT(p, {
        for (int iy = 0; iy < ngy; iy++)
            for (int ix = 0; ix < ngx; ix++) {
                const struct tile_extent *e = &p.tiles[ix + iy * ngx];
                cr_assert(e->ix == ix && e->iy == iy, "%dx%d: tile %d is at (%d,%d)", ngx,
                          ngy, ix + iy * ngx, e->ix, e->iy);
            }
    });
}

Test(partition, neighbours_are_adjacent_and_symmetric)
{
    FOR_EACH_LAYOUT(p, {
        for (int t = 0; t < partition_count(&p); t++) {
            const struct tile_extent *e = &p.tiles[t];
            const int *nb = e->neighbour;
            cr_assert_eq(nb[SIDE_WEST], e->ix > 0 ? t - 1 : -1, "%dx%d: west of %d", ngx,
                         ngy, t);
            cr_assert_eq(nb[SIDE_EAST], e->ix < ngx - 1 ? t + 1 : -1, "%dx%d: east of %d",
                         ngx, ngy, t);
            cr_assert_eq(nb[SIDE_SOUTH], e->iy > 0 ? t - ngx : -1, "%dx%d: south of %d",
                         ngx, ngy, t);
            cr_assert_eq(nb[SIDE_NORTH], e->iy < ngy - 1 ? t + ngx : -1,
                         "%dx%d: north of %d", ngx, ngy, t);
            if (nb[SIDE_WEST] >= 0) {
                cr_assert_eq(p.tiles[nb[SIDE_WEST]].neighbour[SIDE_EAST], t);
                cr_assert_eq(p.tiles[nb[SIDE_WEST]].iy, e->iy, "west is in the same row");
                cr_assert_eq(p.tiles[nb[SIDE_WEST]].x0 + p.tiles[nb[SIDE_WEST]].lx, e->x0,
                             "west tile touches this one");
            }
            if (nb[SIDE_EAST] >= 0)
                cr_assert_eq(p.tiles[nb[SIDE_EAST]].neighbour[SIDE_WEST], t);
            if (nb[SIDE_SOUTH] >= 0) {
                cr_assert_eq(p.tiles[nb[SIDE_SOUTH]].neighbour[SIDE_NORTH], t);
                cr_assert_eq(p.tiles[nb[SIDE_SOUTH]].y0 + p.tiles[nb[SIDE_SOUTH]].ly,
                             e->y0, "south tile touches this one");
            }
            if (nb[SIDE_NORTH] >= 0)
                cr_assert_eq(p.tiles[nb[SIDE_NORTH]].neighbour[SIDE_SOUTH], t);
        }
    });
}

Test(partition, header_example_11_wide_in_3_columns)
{
    struct partition p;
    cr_assert_eq(partition_init(&p, 11, 6, 3, 2), 0);
    cr_assert_eq(p.tiles[0].lx, 4);
    cr_assert_eq(p.tiles[1].lx, 4);
    cr_assert_eq(p.tiles[2].lx, 3);
    cr_assert_eq(p.tiles[2].x0, 8);
    cr_assert_eq(p.tiles[1].neighbour[SIDE_NORTH], 4, "north of t1 is t4");
    cr_assert_eq(p.tiles[1].neighbour[SIDE_WEST], 0, "west of t1 is t0");
    cr_assert_eq(p.tiles[1].neighbour[SIDE_EAST], 2, "east of t1 is t2");
    cr_assert_eq(p.tiles[1].neighbour[SIDE_SOUTH], -1, "t1 is on the bottom row");
    cr_assert_eq(p.tiles[4].y0, 3, "row 1 starts at y = 3");
    partition_free(&p);
}

Test(partition, refuses_more_tiles_than_interior_sites)
{
    struct partition p;
    cr_assert_eq(partition_init(&p, 10, 9, 9, 1), -2, "ngx = nx-1 > nx-2");
    cr_assert_eq(partition_init(&p, 10, 9, 1, 8), -2, "ngy = ny-1 > ny-2");
    cr_assert_eq(partition_init(&p, 5, 5, 4, 4), -2, "4x4 on a 3x3 interior");
    cr_assert_eq(partition_init(&p, 3, 3, 2, 1), -2, "2 columns on a 1-site interior");
    cr_assert_eq(partition_init(&p, 10, 9, 0, 1), -2, "zero columns");
    cr_assert_eq(partition_init(&p, 10, 9, 1, 0), -2, "zero rows");
    cr_assert_eq(partition_init(&p, 10, 9, -1, 1), -2, "negative columns");
    cr_assert_eq(partition_init(&p, 10, 9, 8, 7), 0, "ngx = nx-2, ngy = ny-2 is allowed");
    partition_free(&p);
}

/* Fills a field with values that are all different (and exact in float). */
static void fill_distinct(struct field *f)
{
    for (long y = 0; y < f->ny; y++)
        for (long x = 0; x < f->nx; x++)
            field_set(f, x, y,
                      1.0 + (double)x + 1000.0 * (double)y +
                          0.25 * (double)((x + y) % 3));
}

/* Tile t's site (i, j) of a tile array against site (x0 + i, y0 + j) of the whole. */
static void check_tile_holds(const struct tile *t, const void *tile_h,
                             const struct field *whole, const char *what)
{
    const struct tile_extent *e = t->extent;
    struct field tile = {
        .nx = e->lx, .ny = e->ly, .precision = whole->precision, .data = (void *)tile_h};
    for (long j = 0; j < e->ly; j++)
        for (long i = 0; i < e->lx; i++)
            cr_assert_eq(field_get(&tile, i, j), field_get(whole, e->x0 + i, e->y0 + j),
                         "%ldx%ld tile %d: %s site (%ld,%ld)", whole->nx, whole->ny,
                         t->index, what, i, j);
}

/* Tile t of p uploads its rectangle of the whole arrays and downloads it into back. */
static void check_tile_round_trip(const struct partition *p, int t,
                                  const struct tile_input *in, const struct field *whole,
                                  const struct field *source, struct field *back)
{
    struct tile tile = {.index = t, .extent = &p->tiles[t], .device = -1};
    const struct tile_extent *e = tile.extent;
    tile.precision = whole->precision;
    tile.settings.update_rule.has_source = tile.settings.update_rule.has_fixed = 1;
    cr_assert_eq(device_host_ops.open(&tile), 0, "%s", tile.error);
    cr_assert_eq(device_host_ops.upload(&tile, in), 0, "%s", tile.error);
    check_tile_holds(&tile, tile.field[0], whole, "field[0]");
    check_tile_holds(&tile, tile.field[1], whole, "field[1]");
    check_tile_holds(&tile, tile.source, source, "source");
    for (long j = 0; j < e->ly; j++)
        for (long i = 0; i < e->lx; i++)
            cr_assert_eq(tile.fixed[j * e->lx + i],
                         in->fixed[(e->y0 + j) * in->pitch + e->x0 + i],
                         "%ldx%ld tile %d: mask site (%ld,%ld)", p->nx, p->ny, t, i, j);
    cr_assert_eq(device_host_ops.download(&tile, t % 2, back), 0);
    device_host_ops.close(&tile);
}

/* Each tile's upload reads its rectangle of the whole field, source and mask
 * (pitch nx) into both fields and its terms (pitch lx); its download writes a
 * field back into that rectangle, so downloading every tile rebuilds the whole. */
static void check_upload_download(enum precision precision)
{
    for (int l = 0; l < LATTICE_COUNT; l++)
        for (int ngx = 1; ngx <= 8; ngx++)
            for (int ngy = 1; ngy <= 8; ngy++) {
                long nx = lattices[l][0], ny = lattices[l][1];
                struct partition p;
                if (partition_init(&p, nx, ny, ngx, ngy) != 0)
                    continue;
                struct field whole, source, back;
                cr_assert_eq(field_alloc(&whole, nx, ny, precision), 0);
                cr_assert_eq(field_alloc(&source, nx, ny, precision), 0);
                cr_assert_eq(field_alloc(&back, nx, ny, precision), 0);
                unsigned char *fixed = malloc((size_t)(nx * ny));
                fill_distinct(&whole);
                for (long y = 0; y < ny; y++)
                    for (long x = 0; x < nx; x++) {
                        field_set(&source, x, y, -field_get(&whole, x, y));
                        field_set(&back, x, y, NAN);
                        fixed[y * nx + x] = (unsigned char)(x + 7 * y);
                    }
                struct tile_input in = {whole.data, source.data, fixed, nx, 0, 0};
                for (int t = 0; t < partition_count(&p); t++)
                    check_tile_round_trip(&p, t, &in, &whole, &source, &back);
                cr_assert(field_bit_identical(&whole, &back),
                          "%ldx%ld %dx%d %s: download(upload(f)) != f", nx, ny, ngx, ngy,
                          precision_name(precision));
                field_free(&whole);
                field_free(&source);
                field_free(&back);
                free(fixed);
                partition_free(&p);
            }
}

Test(partition, upload_then_download_is_identity_double)
{
    check_upload_download(PRECISION_DOUBLE);
}

Test(partition, upload_then_download_is_identity_float)
{
    check_upload_download(PRECISION_FLOAT);
}

static void check_layout(int n, long nx, long ny, int want_x, int want_y)
{
    int gx = -1, gy = -1;
    partition_auto_layout(n, nx, ny, &gx, &gy);
    cr_assert(gx == want_x && gy == want_y,
              "auto layout of %d tiles on %ldx%ld: %dx%d, want %dx%d", n, nx, ny, gx, gy,
              want_x, want_y);
}

Test(partition, auto_layout_is_near_square_with_ngx_le_ngy)
{
    check_layout(1, 256, 256, 1, 1);
    check_layout(2, 256, 256, 1, 2);
    check_layout(3, 256, 256, 1, 3);
    check_layout(4, 256, 256, 2, 2);
    check_layout(6, 256, 256, 2, 3);
    check_layout(7, 256, 256, 1, 7);
    check_layout(8, 256, 256, 2, 4);
    check_layout(9, 256, 256, 3, 3);
    check_layout(12, 256, 256, 3, 4);
    check_layout(16, 256, 256, 4, 4);
}

Test(partition, auto_layout_reduces_the_count_on_small_lattices)
{
    check_layout(8, 5, 5, 2, 3); /* 3x3 interior: 2x4 and 1x7 do not fit, 2x3 does */
    check_layout(4, 3, 3, 1, 1); /* one interior site */
    check_layout(2, 3, 3, 1, 1);
    for (int n = 1; n <= 64; n++) {
        int gx, gy;
        partition_auto_layout(n, 6, 7, &gx, &gy);
        cr_assert(gx >= 1 && gy >= 1 && gx * gy <= n && gx <= 4 && gy <= 5,
                  "auto layout of %d on 6x7: %dx%d does not fit", n, gx, gy);
        struct partition p;
        cr_assert_eq(partition_init(&p, 6, 7, gx, gy), 0, "the auto layout is accepted");
        partition_free(&p);
    }
}

/*
 * Regression test (gpu_partition.c, partition_auto_layout): only ngx <= ngy is tried, so
 * a flat lattice loses tiles that fit across it. 3 tiles on 100x4 (interior 98x2) fit as
 * 3x1, but the layout falls back to 1x2; the header promises fewer tiles only "if the
 * lattice's interior is too small for n".
 */
Test(partition, auto_layout_uses_every_tile_on_flat_lattices)
{
    int gx, gy;
    partition_auto_layout(3, 100, 4, &gx, &gy);
    cr_assert_eq(gx * gy, 3, "3 tiles on a 98x2 interior give %dx%d (3x1 fits)", gx, gy);
    partition_auto_layout(8, 1000, 5, &gx, &gy);
    cr_assert_eq(gx * gy, 8, "8 tiles on a 998x3 interior give %dx%d (8x1 fits)", gx, gy);
}

Test(partition, side_names)
{
    cr_assert_str_eq(partition_side_name(SIDE_WEST), "west");
    cr_assert_str_eq(partition_side_name(SIDE_EAST), "east");
    cr_assert_str_eq(partition_side_name(SIDE_SOUTH), "south");
    cr_assert_str_eq(partition_side_name(SIDE_NORTH), "north");
}

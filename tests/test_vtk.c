/*
 * test_vtk.c - the VTK writers read back by a small reader of our own: the head
 * (extents, origin, spacing, types, byte order), the appended raw values bit for
 * bit, the pieces of a partition and the .pvti that joins them, the note, and a
 * write that fails.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_partition.h"
#include "helpers.h"
#include "outputs/vtk_output.h"

#define NX 37
#define NY 23

static const struct vtk_grid grid = {.x0 = -1.5, .y0 = 2.0, .dx = 0.5, .dy = 0.25};

/* What the reader found in a .vti. */
struct vti {
    unsigned char *bytes; /* the whole file, with a NUL added after it */
    size_t size;
    char *head; /* the XML up to <AppendedData>, NUL-terminated */
    long whole[6], extent[6];
    double origin[3], spacing[3];
    char byte_order[32], header_type[32], type[32];
    long offset;
    uint64_t count;              /* the byte count before the values */
    const unsigned char *values; /* count bytes */
};

/* ---- the reader ------------------------------------------------------------ */

/* The whole file, NUL-terminated; the test fails if it cannot be read. */
static unsigned char *read_bytes(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long end = ftell(f);
    rewind(f);
    unsigned char *bytes = malloc((size_t)end + 1);
    cr_assert_not_null(bytes);
    cr_assert_eq(fread(bytes, 1, (size_t)end, f), (size_t)end, "short read of %s", path);
    fclose(f);
    bytes[end] = '\0';
    *size = (size_t)end;
    return bytes;
}

/* The value of attribute name in text, the first time it appears (copied to out). */
static const char *attribute(const char *text, const char *name, char *out, size_t n)
{
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *at = strstr(text, key);
    cr_assert_not_null(at, "no attribute %s", name);
    at += strlen(key);
    size_t len = strcspn(at, "\"");
    cr_assert_lt(len, n, "attribute %s too long", name);
    memcpy(out, at, len);
    out[len] = '\0';
    return out;
}

/* The start ('<') of the element in which key first appears. */
static const char *element_with(const char *text, const char *key)
{
    const char *at = strstr(text, key);
    cr_assert_not_null(at, "no %s", key);
    while (at > text && *at != '<')
        at--;
    return at;
}

static void extent_attribute(const char *text, const char *name, long extent[6])
{
    char value[128];
    attribute(text, name, value, sizeof value);
    cr_assert_eq(sscanf(value, "%ld %ld %ld %ld %ld %ld", &extent[0], &extent[1],
                        &extent[2], &extent[3], &extent[4], &extent[5]),
                 6, "%s = '%s'", name, value);
}

static void vector_attribute(const char *text, const char *name, double v[3])
{
    char value[128];
    attribute(text, name, value, sizeof value);
    cr_assert_eq(sscanf(value, "%lf %lf %lf", &v[0], &v[1], &v[2]), 3, "%s = '%s'", name,
                 value);
}

/* Where the values start: offset bytes after the '_' that opens the appended data. */
static void find_values(struct vti *v)
{
    const char *appended = strstr((char *)v->bytes, "<AppendedData encoding=\"raw\">");
    cr_assert_not_null(appended, "no <AppendedData encoding=\"raw\">");
    v->head = strndup((char *)v->bytes, (size_t)(appended - (char *)v->bytes));
    const char *underscore = strchr(appended, '_');
    cr_assert_not_null(underscore, "no '_' after <AppendedData>");
    const unsigned char *block = (const unsigned char *)underscore + 1 + v->offset;
    size_t before = (size_t)(block - v->bytes);
    cr_assert_leq(before + sizeof v->count, v->size, "file ends inside the byte count");
    memcpy(&v->count, block, sizeof v->count);
    cr_assert_leq(before + sizeof v->count + v->count, v->size,
                  "file ends in the values");
    v->values = block + sizeof v->count;
    const char *after = (const char *)v->values + v->count;
    /* a piece's cell arrays (tile, rank) follow u, each [count][bytes] */
    for (const char *a = strstr(v->head, "format=\"appended\""); a;
         a = strstr(a + 1, "format=\"appended\"")) {
        if (a == strstr(v->head, "format=\"appended\""))
            continue; /* u's */
        uint64_t bytes;
        memcpy(&bytes, after, sizeof bytes);
        after += sizeof bytes + bytes;
        cr_assert_leq((size_t)(after - (const char *)v->bytes), v->size,
                      "file ends in a cell array");
    }
    after += strspn(after, " \n");
    cr_assert_eq(strncmp(after, "</AppendedData>", 15), 0, "no </AppendedData> after u");
    after += 15 + strspn(after + 15, " \n");
    cr_assert_str_eq(after, "</VTKFile>\n", "the file goes on after </AppendedData>");
}

static struct vti read_vti(const char *path)
{
    struct vti v = {0};
    char offset[32];
    v.bytes = read_bytes(path, &v.size);
    const char *text = (const char *)v.bytes; /* the head holds no NUL */
    extent_attribute(text, "WholeExtent", v.whole);
    extent_attribute(text, "Extent", v.extent);
    vector_attribute(text, "Origin", v.origin);
    vector_attribute(text, "Spacing", v.spacing);
    attribute(text, "byte_order", v.byte_order, sizeof v.byte_order);
    attribute(text, "header_type", v.header_type, sizeof v.header_type);
    attribute(element_with(text, "Name=\"u\""), "type", v.type, sizeof v.type);
    v.offset = atol(attribute(text, "offset", offset, sizeof offset));
    find_values(&v);
    return v;
}

static void vti_free(struct vti *v)
{
    free(v->bytes);
    free(v->head);
}

/* ---- fields and files ---------------------------------------------------------- */

/* A field with a different value at every site: no test passes on zeros. */
static struct field test_field(long nx, long ny, enum precision precision)
{
    struct field field;
    cr_assert_eq(field_alloc(&field, nx, ny, precision), 0);
    for (long j = 0; j < ny; j++)
        for (long i = 0; i < nx; i++)
            field_set(&field, i, j, sin(0.37 * (double)(i + nx * j)) + 0.001 * (double)i);
    return field;
}

/* Writes sites [x0, x1] x [y0, y1] of the field to a fresh file; returns its path. */
static void write_vti(char *path, size_t n, const char *name, const struct field *field,
                      long x0, long y0, long x1, long y1, const struct vtk_note *note)
{
    out_path(path, n, name);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot create %s", path);
    cr_assert_eq(vtk_write_image(f, field, x0, y0, x1, y1, &grid, note), 0);
    cr_assert_eq(fclose(f), 0);
}

static const char *machine_byte_order(void)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return "LittleEndian";
#else
    return "BigEndian";
#endif
}

/* The file holds exactly sites [x0, x1] x [y0, y1], each with the field's bits. */
static void check_vti(const struct vti *v, const struct field *field, long x0, long y0,
                      long x1, long y1)
{
    long want[6] = {x0, x1, y0, y1, 0, 0};
    size_t size = precision_size(field->precision);
    for (int k = 0; k < 6; k++) {
        cr_assert_eq(v->whole[k], want[k], "WholeExtent[%d] = %ld, want %ld", k,
                     v->whole[k], want[k]);
        cr_assert_eq(v->extent[k], want[k], "Extent[%d] = %ld, want %ld", k, v->extent[k],
                     want[k]);
    }
    cr_assert_str_eq(v->type,
                     field->precision == PRECISION_FLOAT ? "Float32" : "Float64");
    cr_assert_str_eq(v->byte_order, machine_byte_order());
    cr_assert_str_eq(v->header_type, "UInt64");
    cr_assert_eq(v->offset, 0);
    cr_assert_eq(v->count, (uint64_t)((x1 - x0 + 1) * (y1 - y0 + 1)) * size);
    const unsigned char *value = v->values;
    for (long j = y0; j <= y1; j++)
        for (long i = x0; i <= x1; i++, value += size) {
            float f = (float)field_get(field, i, j);
            double d = field_get(field, i, j);
            const void *expected = size == sizeof f ? (const void *)&f : (const void *)&d;
            cr_assert_eq(memcmp(value, expected, size), 0, "value at (%ld, %ld)", i, j);
        }
}

static void check_grid(const struct vti *v)
{
    cr_assert(v->origin[0] == grid.x0 && v->origin[1] == grid.y0 && v->origin[2] == 0,
              "Origin %g %g %g", v->origin[0], v->origin[1], v->origin[2]);
    cr_assert(v->spacing[0] == grid.dx && v->spacing[1] == grid.dy && v->spacing[2] == 1,
              "Spacing %g %g %g", v->spacing[0], v->spacing[1], v->spacing[2]);
}

/* 1 when xmllint finds the file well-formed, 0 when not, -1 without xmllint. */
static int xml_well_formed(const char *path)
{
    if (system("command -v xmllint >/dev/null 2>&1") != 0)
        return -1;
    char command[2048];
    snprintf(command, sizeof command, "xmllint --noout '%s' 2>/dev/null", path);
    return system(command) == 0;
}

/* The head of a .vti, closed after the head, as a file xmllint can read. */
static void write_head(char *path, size_t n, const char *name, const struct vti *v)
{
    out_path(path, n, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "%s</VTKFile>\n", v->head);
    fclose(f);
}

/* ---- a whole lattice, a part of one ------------------------------------------- */

static void check_whole(enum precision precision, const char *name)
{
    char path[1024];
    struct field field = test_field(NX, NY, precision);
    write_vti(path, sizeof path, name, &field, 0, 0, NX - 1, NY - 1, NULL);
    struct vti v = read_vti(path);
    check_vti(&v, &field, 0, 0, NX - 1, NY - 1);
    check_grid(&v);
    vti_free(&v);
    field_free(&field);
}

Test(vtk, whole_float_field_reads_back_bit_for_bit)
{
    check_whole(PRECISION_FLOAT, "whole-float.vti");
}

Test(vtk, whole_double_field_reads_back_bit_for_bit)
{
    check_whole(PRECISION_DOUBLE, "whole-double.vti");
}

Test(vtk, a_sub_extent_holds_those_sites_only)
{
    char path[1024];
    struct field field = test_field(NX, NY, PRECISION_FLOAT);
    write_vti(path, sizeof path, "part.vti", &field, 5, 3, 20, 10, NULL);
    struct vti v = read_vti(path);
    check_vti(&v, &field, 5, 3, 20, 10);
    check_grid(&v);
    vti_free(&v);
    field_free(&field);
}

Test(vtk, a_rectangle_outside_the_field_is_refused)
{
    struct field field = test_field(NX, NY, PRECISION_FLOAT);
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_assert_eq(vtk_write_image(f, &field, 0, 0, NX, NY - 1, &grid, NULL), -1);
    cr_assert_eq(vtk_write_image(f, &field, -1, 0, 3, 3, &grid, NULL), -1);
    cr_assert_eq(vtk_write_image(f, &field, 4, 0, 3, 3, &grid, NULL), -1);
    fclose(f);
    field_free(&field);
}

/* ---- pieces of a partition ------------------------------------------------------ */

#define PX 61
#define PY 45

/* Pieces a and b (x0, y0, x1, y1) overlap at most on one column or one row. */
static void check_overlap(const long a[4], const long b[4], int ta, int tb)
{
    long ix0 = a[0] > b[0] ? a[0] : b[0], ix1 = a[2] < b[2] ? a[2] : b[2];
    long iy0 = a[1] > b[1] ? a[1] : b[1], iy1 = a[3] < b[3] ? a[3] : b[3];
    if (ix0 > ix1 || iy0 > iy1)
        return;
    cr_assert(ix0 == ix1 || iy0 == iy1, "pieces %d and %d overlap on %ldx%ld sites", ta,
              tb, ix1 - ix0 + 1, iy1 - iy0 + 1);
}

/* Piece t starts where its tile does and ends on its east and north neighbours'
 * first column and row, or at the edge of the lattice where it has none. */
static void check_growth(const struct partition *p, int t, const long e[4])
{
    const struct tile_extent *tile = &p->tiles[t];
    int east = tile->neighbour[SIDE_EAST], north = tile->neighbour[SIDE_NORTH];
    long x1 = east >= 0 ? p->tiles[east].x0 : p->nx - 1;
    long y1 = north >= 0 ? p->tiles[north].y0 : p->ny - 1;
    cr_assert(e[0] == tile->x0 && e[1] == tile->y0, "piece %d starts at its tile", t);
    cr_assert(e[2] == x1 && e[3] == y1,
              "%dx%d piece %d ends at (%ld, %ld), want (%ld, %ld)", p->ngx, p->ngy, t,
              e[2], e[3], x1, y1);
}

static void check_pieces(int ngx, int ngy)
{
    struct partition p;
    long piece[16][4];
    int covered[PX * PY] = {0};
    cr_assert_eq(partition_init(&p, PX, PY, ngx, ngy), 0);
    for (int t = 0; t < partition_count(&p); t++) {
        long *e = piece[t];
        vtk_piece_extent(&p, t, &e[0], &e[1], &e[2], &e[3]);
        check_growth(&p, t, e);
        for (long j = e[1]; j <= e[3]; j++)
            for (long i = e[0]; i <= e[2]; i++)
                covered[i + PX * j]++;
        for (int u = 0; u < t; u++)
            check_overlap(piece[u], e, u, t);
    }
    for (long s = 0; s < PX * PY; s++)
        cr_assert_gt(covered[s], 0, "%dx%d: site (%ld, %ld) in no piece", ngx, ngy,
                     s % PX, s / PX);
    partition_free(&p);
}

Test(vtk, pieces_cover_the_lattice_and_share_one_column_or_row)
{
    check_pieces(2, 2);
    check_pieces(3, 1);
    check_pieces(1, 3);
}

/* ---- the .pvti ------------------------------------------------------------------ */

static void check_pvti_pieces(const char *text, const struct partition *p,
                              const char *const names[])
{
    const char *at = text;
    for (int t = 0; t < partition_count(p); t++) {
        long want[6] = {0, 0, 0, 0, 0, 0}, got[6];
        char source[256];
        vtk_piece_extent(p, t, &want[0], &want[2], &want[1], &want[3]);
        at = strstr(at, "<Piece ");
        cr_assert_not_null(at, "piece %d missing", t);
        extent_attribute(at, "Extent", got);
        for (int k = 0; k < 6; k++)
            cr_assert_eq(got[k], want[k], "piece %d Extent[%d] = %ld, want %ld", t, k,
                         got[k], want[k]);
        cr_assert_str_eq(attribute(at, "Source", source, sizeof source), names[t]);
        at++;
    }
    cr_assert_null(strstr(at, "<Piece "), "more pieces than tiles");
}

/* Each piece, written as its own .vti, reads back equal to the field there. */
static void check_piece_files(const struct field *field, const struct partition *p)
{
    for (int t = 0; t < partition_count(p); t++) {
        char path[1024], name[64];
        long x0, y0, x1, y1;
        vtk_piece_extent(p, t, &x0, &y0, &x1, &y1);
        snprintf(name, sizeof name, "piece-%d.vti", t);
        write_vti(path, sizeof path, name, field, x0, y0, x1, y1, NULL);
        struct vti v = read_vti(path);
        check_vti(&v, field, x0, y0, x1, y1);
        check_grid(&v);
        vti_free(&v);
    }
}

Test(vtk, pvti_lists_the_pieces_of_a_2x2_partition)
{
    const char *const names[] = {"heat_0.vti", "heat_1.vti", "heat_2.vti", "heat_3.vti"};
    char path[1024], type[32];
    long whole[6];
    double origin[3], spacing[3];
    struct field field = test_field(PX, PY, PRECISION_DOUBLE);
    struct partition p;
    cr_assert_eq(partition_init(&p, PX, PY, 2, 2), 0);
    out_path(path, sizeof path, "heat.pvti");
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    cr_assert_eq(vtk_write_pvti(f, &field, &p, &grid, names, NULL, 0), 0);
    cr_assert_eq(fclose(f), 0);
    char *text = slurp(path);
    cr_assert(strstr(text, "type=\"PImageData\""));
    extent_attribute(text, "WholeExtent", whole);
    cr_assert(whole[0] == 0 && whole[1] == PX - 1 && whole[2] == 0 &&
                  whole[3] == PY - 1 && whole[4] == 0 && whole[5] == 0,
              "WholeExtent of the lattice");
    vector_attribute(text, "Origin", origin);
    vector_attribute(text, "Spacing", spacing);
    cr_assert(origin[0] == grid.x0 && origin[1] == grid.y0 && spacing[0] == grid.dx &&
              spacing[1] == grid.dy);
    cr_assert_str_eq(attribute(strstr(text, "<PDataArray"), "type", type, sizeof type),
                     "Float64");
    check_pvti_pieces(text, &p, names);
    if (xml_well_formed(path) == 0)
        cr_assert_fail("xmllint: %s is not well-formed", path);
    check_piece_files(&field, &p);
    free(text);
    partition_free(&p);
    field_free(&field);
}

/* ---- the tile (and rank) of each piece (issue 44, item 7) ----------------------- */

/* The appended Int32 cell array name of a piece: every one of its cells equals want,
 * and there is one value a cell (VTK's count: a direction of one site adds none). */
static void check_cell_array(const struct vti *v, const char *name, int32_t want)
{
    char key[64], offset[32], type[32];
    snprintf(key, sizeof key, "Name=\"%s\"", name);
    const char *element = element_with(v->head, key);
    const char *cell_data = strstr(v->head, "<CellData Scalars=\"tile\">");
    cr_assert(cell_data && cell_data < element, "%s is not inside <CellData>", name);
    cr_assert_str_eq(attribute(element, "type", type, sizeof type), "Int32");
    long at = atol(attribute(element, "offset", offset, sizeof offset));
    const unsigned char *block =
        (const unsigned char *)strchr(strstr((char *)v->bytes, "<AppendedData"), '_') +
        1 + at;
    uint64_t count;
    memcpy(&count, block, sizeof count);
    long cx = v->extent[1] > v->extent[0] ? v->extent[1] - v->extent[0] : 1;
    long cy = v->extent[3] > v->extent[2] ? v->extent[3] - v->extent[2] : 1;
    cr_assert_eq(count, (uint64_t)(cx * cy) * 4, "%s: %llu bytes for %ld cells", name,
                 (unsigned long long)count, cx * cy);
    for (long c = 0; c < cx * cy; c++) {
        int32_t got;
        memcpy(&got, block + 8 + 4 * c, 4);
        cr_assert_eq(got, want, "%s of cell %ld is %d, want %d", name, c, got, want);
    }
}

Test(vtk, each_piece_carries_its_tile_as_a_cell_array)
{
    struct field field = test_field(PX, PY, PRECISION_FLOAT);
    struct partition p;
    cr_assert_eq(partition_init(&p, PX, PY, 3, 2), 0);
    for (int t = 0; t < partition_count(&p); t++) {
        char path[1024], name[64];
        long x0, y0, x1, y1;
        vtk_piece_extent(&p, t, &x0, &y0, &x1, &y1);
        snprintf(name, sizeof name, "tile-%d.vti", t);
        out_path(path, sizeof path, name);
        FILE *f = fopen(path, "wb");
        cr_assert_not_null(f);
        struct vtk_piece_ids ids = {.tile = t, .rank = t % 2 ? 7 : -1};
        cr_assert_eq(vtk_write_piece(f, &field, x0, y0, x1, y1, &grid, NULL, &ids), 0);
        cr_assert_eq(fclose(f), 0);
        struct vti v = read_vti(path);
        check_vti(&v, &field, x0, y0, x1, y1); /* "u" as before, at offset 0 */
        check_cell_array(&v, "tile", t);
        if (t % 2)
            check_cell_array(&v, "rank", 7);
        else
            cr_assert_null(strstr(v.head, "Name=\"rank\""), "one process: no rank");
        char head[1024];
        write_head(head, sizeof head, "tile-head.xml", &v);
        if (xml_well_formed(head) == 0)
            cr_assert_fail("xmllint: the head of %s is not well-formed", path);
        vti_free(&v);
    }
    partition_free(&p);
    field_free(&field);
}

Test(vtk, the_pvti_declares_the_cell_arrays)
{
    const char *const names[] = {"a_0.vti", "a_1.vti"};
    char path[1024];
    struct field field = test_field(PX, PY, PRECISION_DOUBLE);
    struct partition p;
    cr_assert_eq(partition_init(&p, PX, PY, 2, 1), 0);
    for (int ranked = 0; ranked < 2; ranked++) {
        out_path(path, sizeof path, ranked ? "ranked.pvti" : "one.pvti");
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        cr_assert_eq(vtk_write_pvti(f, &field, &p, &grid, names, NULL, ranked), 0);
        cr_assert_eq(fclose(f), 0);
        char *text = slurp(path);
        const char *cells =
            strstr(text, "<PCellData Scalars=\"tile\">\n"
                         "      <PDataArray type=\"Int32\" Name=\"tile\"/>");
        cr_assert_not_null(cells, "%s", text);
        cr_assert_eq(!!strstr(cells, "<PDataArray type=\"Int32\" Name=\"rank\"/>"),
                     ranked, "%s", text);
        free(text);
    }
    partition_free(&p);
    field_free(&field);
}

/* The pieces ./laplace writes carry them too; the whole .vti does not. */
Test(vtk, the_pieces_of_a_run_carry_their_tile)
{
    char index[256], piece[300], whole[256];
    out_path(index, sizeof index, "run.pvti");
    out_path(whole, sizeof whole, "run.vti");
    struct run r = laplace_run("--backend cpu --nx 33 --ny 20 --partition 2x2 "
                               "--max-iter 7 -q --output %s --output %s",
                               index, whole);
    cr_assert_eq(r.status, 0, "%s", r.err);
    for (int t = 0; t < 4; t++) {
        snprintf(piece, sizeof piece, "%.*s_%d.vti", (int)strlen(index) - 5, index, t);
        struct vti v = read_vti(piece);
        check_cell_array(&v, "tile", t);
        cr_assert_null(strstr(v.head, "Name=\"rank\""), "one process: no rank");
        vti_free(&v);
        remove(piece);
    }
    char *text = slurp(index);
    cr_assert(text && strstr(text, "<PDataArray type=\"Int32\" Name=\"tile\"/>"));
    free(text);
    struct vti v = read_vti(whole);
    cr_assert_null(strstr(v.head, "CellData"), "the whole .vti has no tile");
    vti_free(&v);
    run_free(&r);
}

/* ---- the note ------------------------------------------------------------------- */

/* The value of FieldData array name, which must have the given type. */
static long field_data(const char *head, const char *name, const char *type)
{
    char key[64], got[32];
    snprintf(key, sizeof key, "Name=\"%s\"", name);
    const char *element = element_with(head, key);
    const char *field_data = strstr(head, "<FieldData>");
    cr_assert(field_data && field_data < element, "%s is not inside <FieldData>", name);
    cr_assert_str_eq(attribute(element, "type", got, sizeof got), type);
    return atol(strchr(element, '>') + 1);
}

/* The comment holds the note's words and no "--"; it sits before <VTKFile>. */
static void check_comment(const char *head)
{
    const char *open = strstr(head, "<!--"), *close = open ? strstr(open, "-->") : NULL;
    cr_assert(open && close, "no comment in:\n%s", head);
    const char *vtk_file = strstr(head, "<VTKFile");
    cr_assert(vtk_file && open < vtk_file, "the comment comes before <VTKFile>");
    char *body = strndup(open + 4, (size_t)(close - open - 4));
    cr_assert_null(strstr(body, "--"), "'--' inside the comment: '%s'", body);
    cr_assert(strstr(body, "laplace 0.1.0") && strstr(body, "iteration 1200"),
              "the note's text: '%s'", body);
    cr_assert_neq(body[strlen(body) - 1], '-', "a comment may not end with '-'");
    free(body);
}

Test(vtk, the_note_is_a_comment_and_field_data)
{
    const struct vtk_note note = {
        .iteration = 1200,
        .interrupted = 1,
        .text = "laplace 0.1.0 -- 37x23 float --- interrupted at iteration 1200 -"};
    char path[1024], head_path[1024];
    struct field field = test_field(NX, NY, PRECISION_FLOAT);
    write_vti(path, sizeof path, "note.vti", &field, 0, 0, NX - 1, NY - 1, &note);
    struct vti v = read_vti(path);
    check_comment(v.head);
    cr_assert_eq(field_data(v.head, "iteration", "Int64"), 1200);
    cr_assert_eq(field_data(v.head, "interrupted", "Int32"), 1);
    check_vti(&v, &field, 0, 0, NX - 1, NY - 1);
    write_head(head_path, sizeof head_path, "note-head.xml", &v);
    if (xml_well_formed(head_path) == 0)
        cr_assert_fail("xmllint: the head of %s is not well-formed", path);
    vti_free(&v);
    field_free(&field);
}

Test(vtk, without_a_note_there_is_no_comment_nor_field_data)
{
    char path[1024];
    struct field field = test_field(NX, NY, PRECISION_FLOAT);
    write_vti(path, sizeof path, "bare.vti", &field, 0, 0, NX - 1, NY - 1, NULL);
    struct vti v = read_vti(path);
    cr_assert_null(strstr(v.head, "<!--"));
    cr_assert_null(strstr(v.head, "FieldData"));
    vti_free(&v);
    field_free(&field);
}

Test(vtk, the_pvti_carries_the_note_too)
{
    const char *const names[] = {"a.vti", "b.vti", "c.vti"};
    const struct vtk_note note = {.iteration = 1200,
                                  .text = "laplace 0.1.0, iteration 1200"};
    char path[1024];
    struct field field = test_field(PX, PY, PRECISION_FLOAT);
    struct partition p;
    cr_assert_eq(partition_init(&p, PX, PY, 1, 3), 0);
    out_path(path, sizeof path, "note.pvti");
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    cr_assert_eq(vtk_write_pvti(f, &field, &p, &grid, names, &note, 0), 0);
    cr_assert_eq(fclose(f), 0);
    char *text = slurp(path);
    check_comment(text);
    cr_assert_eq(field_data(text, "iteration", "Int64"), 1200);
    cr_assert_eq(field_data(text, "interrupted", "Int32"), 0);
    check_pvti_pieces(text, &p, names);
    free(text);
    partition_free(&p);
    field_free(&field);
}

/* ---- failures ------------------------------------------------------------------- */

Test(vtk, a_write_to_a_full_device_fails)
{
    const char *const names[] = {"a.vti", "b.vti", "c.vti", "d.vti"};
    struct field field = test_field(NX, NY, PRECISION_DOUBLE);
    struct partition p;
    cr_assert_eq(partition_init(&p, NX, NY, 2, 2), 0);
    FILE *f = fopen("/dev/full", "w");
    if (!f)
        cr_skip_test("no /dev/full on this machine");
    cr_assert_eq(vtk_write_image(f, &field, 0, 0, NX - 1, NY - 1, &grid, NULL), -1);
    fclose(f);
    f = fopen("/dev/full", "w");
    cr_assert_not_null(f);
    cr_assert_eq(vtk_write_pvti(f, &field, &p, &grid, names, NULL, 0), -1);
    fclose(f);
    partition_free(&p);
    field_free(&field);
}

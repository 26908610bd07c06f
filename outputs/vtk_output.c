/*
 * vtk_output.c - the field as VTK XML ImageData (.vti) and the partition as a
 * parallel ImageData (.pvti) that joins one .vti per tile.
 *
 * A .vti is an XML head that says where the sites are (extent, origin, spacing)
 * and declares one point array "u"; its values follow the head in an
 * <AppendedData encoding="raw"> element: after a '_', a UInt64 byte count, then
 * the values, x fastest then y, in the machine's byte order (the head says which).
 *
 *     <?xml ...?> <!-- note --> <VTKFile ...> <ImageData ...> ... </ImageData>
 *     <AppendedData encoding="raw"> _ [count][u(x0,y0) u(x0+1,y0) ... u(x1,y1)]
 *
 * A .pvti holds no values: the whole extent, the declaration of "u" and, per tile,
 * the extent of its piece and the name of the .vti that holds it. Its pieces also
 * carry cell arrays "tile" (and under MPI "rank"), constant over a piece, appended
 * after "u" in the same way: ParaView reads a .pvti as one image, and colouring it
 * by "tile" is what shows the partition.
 */
#include "outputs/vtk_output.h"

#include <stdint.h>
#include <string.h>

/* The byte order of this machine, as VTK names it. */
static const char *byte_order(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1 ? "LittleEndian" : "BigEndian";
}

static const char *value_type(enum precision precision)
{
    return precision == PRECISION_FLOAT ? "Float32" : "Float64";
}

/* The text of a note as the body of an XML comment: "--" may not appear inside
 * one, so a space goes between two dashes; control characters become spaces. */
static int write_comment(FILE *f, const char *text)
{
    if (fputs("<!-- ", f) == EOF)
        return -1;
    char previous = ' ';
    for (; *text; text++) {
        char c = (unsigned char)*text < 0x20 ? ' ' : *text;
        if (c == '-' && previous == '-' && fputc(' ', f) == EOF)
            return -1;
        if (fputc(c, f) == EOF)
            return -1;
        previous = c;
    }
    return fputs(" -->\n", f) == EOF ? -1 : 0;
}

/* What stands for c inside a quoted XML attribute; NULL when c stands for itself. */
static const char *entity_of(char c)
{
    switch (c) {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '"':
        return "&quot;";
    default:
        return NULL;
    }
}

/* s as the value of an XML attribute (quoted with "). */
static int write_attribute_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        const char *entity = entity_of(*s);
        if (entity ? fputs(entity, f) == EOF : fputc(*s, f) == EOF)
            return -1;
    }
    return 0;
}

/* The XML declaration, the note's comment and the opening <VTKFile>. */
static int write_prologue(FILE *f, const char *file_type, const struct vtk_note *note)
{
    if (fputs("<?xml version=\"1.0\"?>\n", f) == EOF)
        return -1;
    if (note && note->text && write_comment(f, note->text) != 0)
        return -1;
    return fprintf(f,
                   "<VTKFile type=\"%s\" version=\"1.0\" byte_order=\"%s\""
                   " header_type=\"UInt64\">\n",
                   file_type, byte_order()) < 0
               ? -1
               : 0;
}

/* The note as FieldData, which ParaView shows in its information panel. */
static int write_field_data(FILE *f, const struct vtk_note *note)
{
    if (!note)
        return 0;
    return fprintf(f,
                   "    <FieldData>\n"
                   "      <DataArray type=\"Int64\" Name=\"iteration\""
                   " NumberOfTuples=\"1\" format=\"ascii\">%ld</DataArray>\n"
                   "      <DataArray type=\"Int32\" Name=\"interrupted\""
                   " NumberOfTuples=\"1\" format=\"ascii\">%d</DataArray>\n"
                   "    </FieldData>\n",
                   note->iteration, note->interrupted ? 1 : 0) < 0
               ? -1
               : 0;
}

/* The attributes that place the sites: WholeExtent, Origin, Spacing. Origin is where
 * site (0, 0) lies, also for a file that holds only part of the lattice. */
static int write_placement(FILE *f, long x0, long y0, long x1, long y1,
                           const struct vtk_grid *grid)
{
    return fprintf(f,
                   "WholeExtent=\"%ld %ld %ld %ld 0 0\" Origin=\"%.17g %.17g 0\""
                   " Spacing=\"%.17g %.17g 1\"",
                   x0, x1, y0, y1, grid->x0, grid->y0, grid->dx, grid->dy) < 0
               ? -1
               : 0;
}

/* Rows y0..y1 of columns x0..x1 (lattice sites), straight from the field (whole, or
 * a rank's part). */
static int write_values(FILE *f, const struct field *field, long x0, long y0, long x1,
                        long y1)
{
    size_t size = precision_size(field->precision);
    size_t row = (size_t)(x1 - x0 + 1);
    for (long j = y0; j <= y1; j++) {
        size_t first =
            (size_t)(j - field->y0) * (size_t)field->nx + (size_t)(x0 - field->x0);
        if (fwrite((const char *)field->data + first * size, size, row, f) != row)
            return -1;
    }
    return 0;
}

/* Everything the writes left in f's buffer goes out; an earlier failure stays. */
static int finish(FILE *f, int rc)
{
    if (fflush(f) != 0 || ferror(f))
        return -1;
    return rc;
}

/* The cells of sites [x0, x1] x [y0, y1], as VTK counts them: a direction of one
 * site adds no factor (a column of sites is a line of cells). */
static long cell_count(long x0, long y0, long x1, long y1)
{
    long cx = x1 > x0 ? x1 - x0 : 1, cy = y1 > y0 ? y1 - y0 : 1;
    return cx * cy;
}

/* The declarations of a piece's cell arrays, which follow "u" (of bytes bytes)
 * in the appended data: "tile", then "rank" where ids->rank >= 0. */
static int write_cell_declarations(FILE *f, uint64_t bytes, long cells,
                                   const struct vtk_piece_ids *ids)
{
    uint64_t tile_at = sizeof(uint64_t) + bytes;
    uint64_t rank_at = tile_at + sizeof(uint64_t) + (uint64_t)cells * sizeof(int32_t);
    if (fprintf(f,
                "      <CellData Scalars=\"tile\">\n"
                "        <DataArray type=\"Int32\" Name=\"tile\" format=\"appended\""
                " offset=\"%llu\"/>\n",
                (unsigned long long)tile_at) < 0)
        return -1;
    if (ids->rank >= 0 &&
        fprintf(f,
                "        <DataArray type=\"Int32\" Name=\"rank\" format=\"appended\""
                " offset=\"%llu\"/>\n",
                (unsigned long long)rank_at) < 0)
        return -1;
    return fputs("      </CellData>\n", f) == EOF ? -1 : 0;
}

/* The head of an image or a piece: its placement, the declaration of "u" and, for a
 * piece (ids not NULL), of its cell arrays; then the appended data's start and the
 * byte count of "u". */
static int image_head(FILE *f, enum precision precision, long x0, long y0, long x1,
                      long y1, const struct vtk_grid *grid, const struct vtk_note *note,
                      const struct vtk_piece_ids *ids)
{
    uint64_t bytes =
        (uint64_t)(x1 - x0 + 1) * (uint64_t)(y1 - y0 + 1) * precision_size(precision);
    if (write_prologue(f, "ImageData", note) != 0 || fputs("  <ImageData ", f) == EOF ||
        write_placement(f, x0, y0, x1, y1, grid) != 0 || fputs(">\n", f) == EOF ||
        write_field_data(f, note) != 0)
        return -1;
    if (fprintf(f,
                "    <Piece Extent=\"%ld %ld %ld %ld 0 0\">\n"
                "      <PointData Scalars=\"" FIELD_NAME "\">\n"
                "        <DataArray type=\"%s\" Name=\"" FIELD_NAME
                "\" format=\"appended\""
                " offset=\"0\"/>\n"
                "      </PointData>\n",
                x0, x1, y0, y1, value_type(precision)) < 0 ||
        (ids && write_cell_declarations(f, bytes, cell_count(x0, y0, x1, y1), ids) != 0))
        return -1;
    if (fputs("    </Piece>\n"
              "  </ImageData>\n"
              "  <AppendedData encoding=\"raw\">\n   _",
              f) == EOF)
        return -1;
    return fwrite(&bytes, sizeof bytes, 1, f) == 1 ? 0 : -1;
}

int vtk_write_image_head(FILE *f, enum precision precision, long x0, long y0, long x1,
                         long y1, const struct vtk_grid *grid,
                         const struct vtk_note *note)
{
    return image_head(f, precision, x0, y0, x1, y1, grid, note, NULL);
}

/* One appended Int32 array of cells values, all equal to value. */
static int write_constant_cells(FILE *f, long cells, int32_t value)
{
    int32_t run[1024];
    uint64_t bytes = (uint64_t)cells * sizeof value;
    for (int i = 0; i < 1024; i++)
        run[i] = value;
    if (fwrite(&bytes, sizeof bytes, 1, f) != 1)
        return -1;
    for (long done = 0; done < cells;) {
        size_t now = (size_t)(cells - done < 1024 ? cells - done : 1024);
        if (fwrite(run, sizeof value, now, f) != now)
            return -1;
        done += (long)now;
    }
    return 0;
}

/* A piece: its head, the values of "u", its cell arrays, the tail. */
static int piece_body(FILE *f, const struct field *field, long x0, long y0, long x1,
                      long y1, const struct vtk_grid *grid, const struct vtk_note *note,
                      const struct vtk_piece_ids *ids)
{
    long cells = cell_count(x0, y0, x1, y1);
    if (image_head(f, field->precision, x0, y0, x1, y1, grid, note, ids) != 0 ||
        write_values(f, field, x0, y0, x1, y1) != 0 ||
        write_constant_cells(f, cells, ids->tile) != 0)
        return -1;
    if (ids->rank >= 0 && write_constant_cells(f, cells, ids->rank) != 0)
        return -1;
    return fputs(VTK_IMAGE_TAIL, f) == EOF ? -1 : 0;
}

int vtk_write_piece(FILE *f, const struct field *field, long x0, long y0, long x1,
                    long y1, const struct vtk_grid *grid, const struct vtk_note *note,
                    const struct vtk_piece_ids *ids)
{
    if (x1 < x0 || y1 < y0 || !field_holds(field, x0, y0) || !field_holds(field, x1, y1))
        return -1;
    return finish(f, piece_body(f, field, x0, y0, x1, y1, grid, note, ids));
}

/* The .vti: the head, the values, the tail. */
static int image_body(FILE *f, const struct field *field, long x0, long y0, long x1,
                      long y1, const struct vtk_grid *grid, const struct vtk_note *note)
{
    if (vtk_write_image_head(f, field->precision, x0, y0, x1, y1, grid, note) != 0 ||
        write_values(f, field, x0, y0, x1, y1) != 0)
        return -1;
    return fputs(VTK_IMAGE_TAIL, f) == EOF ? -1 : 0;
}

int vtk_write_image(FILE *f, const struct field *field, long x0, long y0, long x1,
                    long y1, const struct vtk_grid *grid, const struct vtk_note *note)
{
    if (x1 < x0 || y1 < y0 || !field_holds(field, x0, y0) || !field_holds(field, x1, y1))
        return -1;
    return finish(f, image_body(f, field, x0, y0, x1, y1, grid, note));
}

void vtk_piece_extent(const struct partition *p, int t, long *x0, long *y0, long *x1,
                      long *y1)
{
    const struct tile_extent *e = &p->tiles[t];
    *x0 = e->x0;
    *y0 = e->y0;
    *x1 = e->x0 + e->lx - 1 + (e->neighbour[SIDE_EAST] >= 0 ? 1 : 0);
    *y1 = e->y0 + e->ly - 1 + (e->neighbour[SIDE_NORTH] >= 0 ? 1 : 0);
}

/* One <Piece Extent=... Source=.../> per tile, in tile order. */
static int write_pieces(FILE *f, const struct partition *p,
                        const char *const piece_names[])
{
    for (int t = 0; t < partition_count(p); t++) {
        long x0, y0, x1, y1;
        vtk_piece_extent(p, t, &x0, &y0, &x1, &y1);
        if (fprintf(f, "    <Piece Extent=\"%ld %ld %ld %ld 0 0\" Source=\"", x0, x1, y0,
                    y1) < 0 ||
            write_attribute_text(f, piece_names[t]) != 0 || fputs("\"/>\n", f) == EOF)
            return -1;
    }
    return 0;
}

/* The .pvti's declarations of the pieces' cell arrays (vtk_write_piece). */
static int write_pcell_data(FILE *f, int ranked)
{
    return fprintf(f,
                   "    <PCellData Scalars=\"tile\">\n"
                   "      <PDataArray type=\"Int32\" Name=\"tile\"/>\n"
                   "%s"
                   "    </PCellData>\n",
                   ranked ? "      <PDataArray type=\"Int32\" Name=\"rank\"/>\n" : "") < 0
               ? -1
               : 0;
}

/* The .pvti: the head, the declarations of "u" and of the cell arrays, the pieces. */
static int pvti_body(FILE *f, const struct field *field, const struct partition *p,
                     const struct vtk_grid *grid, const char *const piece_names[],
                     const struct vtk_note *note, int ranked)
{
    if (write_prologue(f, "PImageData", note) != 0 ||
        fputs("  <PImageData GhostLevel=\"0\" ", f) == EOF ||
        write_placement(f, 0, 0, p->nx - 1, p->ny - 1, grid) != 0 ||
        fputs(">\n", f) == EOF || write_field_data(f, note) != 0)
        return -1;
    if (fprintf(f,
                "    <PPointData Scalars=\"" FIELD_NAME "\">\n"
                "      <PDataArray type=\"%s\" Name=\"" FIELD_NAME "\"/>\n"
                "    </PPointData>\n",
                value_type(field->precision)) < 0 ||
        write_pcell_data(f, ranked) != 0)
        return -1;
    if (write_pieces(f, p, piece_names) != 0)
        return -1;
    return fputs("  </PImageData>\n</VTKFile>\n", f) == EOF ? -1 : 0;
}

int vtk_write_pvti(FILE *f, const struct field *field, const struct partition *p,
                   const struct vtk_grid *grid, const char *const piece_names[],
                   const struct vtk_note *note, int ranked)
{
    return finish(f, pvti_body(f, field, p, grid, piece_names, note, ranked));
}

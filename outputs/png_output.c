/*
 * png_output.c - the field as a PNG heat map: the lattice reduced (box filter)
 * or enlarged to the heat map's size, the viridis colours, the colour bar with
 * five labelled ticks and its name under it (the field's, FIELD_NAME), the
 * caption wrapped to the picture's width, the tile borders, and where each goes
 * (layout: png_output.h).
 *
 * The cells come from heat_map.c: a cell is one pixel when the lattice is reduced
 * (the average of the sites in it), one site when it is drawn at full size or
 * enlarged (a zoom x zoom square of pixels). The axes are png_axes.c's; rectangles
 * and text are painted by png_canvas.c; stb_image_write encodes.
 */
#include "outputs/png_output.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outputs/png_axes.h"
#include "outputs/png_canvas.h"
#include "support/error.h"

/* stb raises these under -Wall -Wextra when it is not in a system folder. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-braces"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

/* The layout, in pixels; the heat map's top-left corner is at (map_x, PNG_MARGIN). */
#define BAR_GAP 16      /* heat map to colour bar */
#define BAR_WIDTH 24    /* the colour bar */
#define BAR_TICKS 5     /* labelled ticks of the bar: max, 3 between, min */
#define CAPTION_GAP 10  /* heat map, its x axis or the bar to the caption */
#define LINE_GAP 4      /* between two lines of the caption */
#define CAPTION_LINES 4 /* a caption is wrapped onto at most this many */
/* Room for the labels of every tick beside a flat heat map. */
#define BAR_MIN_HEIGHT (BAR_TICKS * PNG_TEXT_HEIGHT + (BAR_TICKS - 1) * LINE_GAP)

static const struct png_rgb black = {0, 0, 0};
static const struct png_rgb nan_colour = {255, 0, 255}; /* magenta: no shade of viridis */
static const struct png_rgb tile_colour = {255, 255, 255};

/*
 * Viridis (van der Walt and Smith, matplotlib's default map) at the 17 points
 * t = 0, 1/16, ..., 1 of its 256-entry table. Between two anchors the colour is
 * interpolated linearly, which stays within 6 levels of the full table.
 */
static const struct png_rgb viridis[17] = {
    {68, 1, 84},    {72, 24, 106},  {71, 45, 123},  {66, 64, 134},  {59, 82, 139},
    {51, 99, 141},  {44, 114, 142}, {38, 129, 142}, {33, 144, 140}, {31, 159, 136},
    {40, 174, 128}, {62, 188, 116}, {93, 201, 99},  {130, 211, 76}, {171, 220, 50},
    {213, 226, 26}, {253, 231, 37}};

static unsigned char mix(unsigned char a, unsigned char b, double f)
{
    return (unsigned char)lround(a + (b - a) * f);
}

/* The viridis colour of t in [0, 1] (clamped; NaN counts as 0). */
static struct png_rgb viridis_colour(double t)
{
    double s = 16 * (t > 0 ? (t < 1 ? t : 1) : 0);
    int k = s >= 16 ? 15 : (int)s;
    const struct png_rgb *a = &viridis[k], *b = &viridis[k + 1];
    return (struct png_rgb){mix(a->r, b->r, s - k), mix(a->g, b->g, s - k),
                            mix(a->b, b->b, s - k)};
}

/* The colour of a value: its place in [lo, hi]; the middle when the field is
 * constant; magenta when not finite. */
static struct png_rgb value_colour(double v, double lo, double hi)
{
    if (!isfinite(v))
        return nan_colour;
    return hi > lo ? viridis_colour((v - lo) / (hi - lo)) : viridis_colour(0.5);
}

static long larger(long a, long b)
{
    return a > b ? a : b;
}

/* Heat-map pixels of cells [i0, i1) x [j0, j1) (values row by row, row j0 first):
 * pixel (px, py), py = 0 at the top, shows cell (px / zoom_x, top cell row - py /
 * zoom_y):
 * the largest y at the top, x = 0 on the left. */
static void paint_cells(struct png_canvas *c, const struct heat_map *hm, long x, long i0,
                        long i1, long j0, long j1, const double *cells)
{
    for (long py = (hm->cells_y - j1) * hm->zoom_y; py < (hm->cells_y - j0) * hm->zoom_y;
         py++) {
        long j = hm->cells_y - 1 - py / hm->zoom_y;
        const double *row = cells + (size_t)(j - j0) * (size_t)(i1 - i0);
        for (long px = i0 * hm->zoom_x; px < i1 * hm->zoom_x; px++)
            png_canvas_fill(c, x + px, PNG_MARGIN + py, 1, 1,
                            value_colour(row[px / hm->zoom_x - i0], hm->lo, hm->hi));
    }
}

/*
 * The tile borders, 1 pixel wide: on the first pixel column of every tile that
 * has a tile to its west, and on the bottom pixel row of every tile that has a
 * tile to its south. Tiles in a column share x0, tiles in a row share y0.
 */
static void paint_tile_borders(struct png_canvas *c, const struct heat_map *hm, long x,
                               const struct partition *p)
{
    for (int ix = 1; ix < p->ngx; ix++) {
        long i = p->tiles[ix].x0 * hm->cells_x / hm->nx;
        png_canvas_fill(c, x + i * hm->zoom_x, PNG_MARGIN, 1, hm->height, tile_colour);
    }
    for (int iy = 1; iy < p->ngy; iy++) {
        long j = p->tiles[iy * p->ngx].y0 * hm->cells_y / hm->ny;
        long py = (hm->cells_y - j) * hm->zoom_y - 1;
        png_canvas_fill(c, x, PNG_MARGIN + py, hm->width, 1, tile_colour);
    }
}

/* The picture's texts, each as the font can draw it (printable ASCII). */
struct texts {
    char tick[BAR_TICKS][32];       /* the values beside the colour bar, max first */
    char caption[PNG_TEXT_MAX + 1]; /* "" when there is none */
    char line[CAPTION_LINES][PNG_TEXT_MAX + 1]; /* the caption wrapped to the picture */
    int lines;
};

/* Copies text for the font: at most PNG_TEXT_MAX characters, '?' for any character
 * outside printable ASCII (the font has no glyph for it). */
static void printable(const char *text, char *out)
{
    int n = 0;
    for (; text && text[n] && n < PNG_TEXT_MAX; n++)
        out[n] = text[n] >= 32 && text[n] < 127 ? text[n] : '?';
    out[n] = '\0';
}

/* The caption for the font (printable); where tile borders are drawn, it ends by
 * saying what the white lines are. */
void png_caption_text(const struct png_options *options, char *out)
{
    static const char borders[] = ", white lines: tile borders";
    printable(options->caption, out);
    if (options->tiles && partition_count(options->tiles) > 1 &&
        strlen(out) + sizeof borders - 1 <= PNG_TEXT_MAX)
        strcat(out, out[0] ? borders : borders + 2);
}

/* Where everything goes; see the picture in png_output.h. */
struct layout {
    long map_x;             /* the heat map's left edge; its top is at PNG_MARGIN */
    long bar_x, bar_height; /* the colour bar; its top is at PNG_MARGIN */
    long label_x;           /* left edge of the tick labels */
    long name_y;            /* top of the bar's name, under the bar */
    long caption_y;         /* top of the caption's first line */
    long width, height;     /* the whole picture */
};

/* The widest of the tick labels. */
static long ticks_width(const struct texts *t)
{
    long widest = 0;
    for (int k = 0; k < BAR_TICKS; k++)
        widest = larger(widest, png_canvas_text_width(t->tick[k]));
    return widest;
}

/*
 * Breaks the caption after its commas into lines no wider than width (a part wider
 * than that gets a line of its own), at most CAPTION_LINES; so a small heat map's
 * picture is as wide as the map and its bar, not as its caption.
 */
static void wrap_caption(struct texts *t, long width)
{
    const char *rest = t->caption;
    t->lines = 0;
    while (*rest && t->lines < CAPTION_LINES) {
        char *line = t->line[t->lines++];
        size_t taken = strlen(rest); /* the last line takes the rest */
        if (t->lines < CAPTION_LINES) {
            for (const char *c = strchr(rest, ','); c; c = strchr(c + 1, ',')) {
                snprintf(line, PNG_TEXT_MAX + 1, "%.*s", (int)(c + 1 - rest), rest);
                if (png_canvas_text_width(line) > width && c != strchr(rest, ','))
                    break;
                taken = (size_t)(c + 1 - rest);
            }
            snprintf(line, PNG_TEXT_MAX + 1, "%s", rest);
            if (png_canvas_text_width(line) <= width)
                taken = strlen(rest);
        }
        snprintf(line, PNG_TEXT_MAX + 1, "%.*s", (int)taken, rest);
        rest += taken;
        while (*rest == ' ')
            rest++;
    }
}

/* The heat map with its y axis on the left and its x axis below, the colour bar
 * on the right (past the x axis's last label when the bar reaches down beside
 * it) with its name under it, on the x axis's name's line (lower when the bar
 * is taller than the map), then the caption under all of them. */
static void plan_layout(const struct heat_map *hm, struct texts *t, struct layout *l)
{
    l->map_x = png_heat_map_left(hm->ny);
    l->bar_height = larger(hm->height, BAR_MIN_HEIGHT);
    l->bar_x = l->map_x + hm->width + BAR_GAP;
    if (hm->height < l->bar_height)
        l->bar_x += png_axes_overhang(hm);
    l->label_x = l->bar_x + BAR_WIDTH + PNG_TICK_LENGTH + PNG_LABEL_GAP;
    l->width = l->label_x + ticks_width(t) + PNG_MARGIN;
    l->name_y = PNG_MARGIN + larger(hm->height + png_axes_height() - PNG_TEXT_HEIGHT,
                                    l->bar_height + PNG_NAME_GAP);
    long bottom =
        larger(PNG_MARGIN + hm->height + png_axes_height(), l->name_y + PNG_TEXT_HEIGHT);
    l->caption_y = bottom + CAPTION_GAP;
    l->height = bottom + PNG_MARGIN;
    wrap_caption(t, l->width - 2 * PNG_MARGIN);
    for (int i = 0; i < t->lines; i++)
        l->width =
            larger(l->width, PNG_MARGIN + png_canvas_text_width(t->line[i]) + PNG_MARGIN);
    if (t->lines > 0)
        l->height = l->caption_y + t->lines * (PNG_TEXT_HEIGHT + LINE_GAP) - LINE_GAP +
                    PNG_MARGIN;
}

/* The colour map from max (top) to min (bottom), BAR_TICKS ticks evenly spaced
 * along it, each with its value, and the bar's name centred under it (the font's
 * width ends with one font pixel of space, which is not centred). */
static void paint_colour_bar(struct png_canvas *c, const struct layout *l,
                             const struct texts *t)
{
    for (long row = 0; row < l->bar_height; row++) {
        double level = 1.0 - (double)row / (double)(l->bar_height - 1);
        png_canvas_fill(c, l->bar_x, PNG_MARGIN + row, BAR_WIDTH, 1,
                        viridis_colour(level));
    }
    for (int k = 0; k < BAR_TICKS; k++) {
        long row = k * (l->bar_height - 1) / (BAR_TICKS - 1);
        long text_y =
            row - k * PNG_TEXT_HEIGHT / (BAR_TICKS - 1); /* top, middle, bottom */
        png_canvas_fill(c, l->bar_x + BAR_WIDTH, PNG_MARGIN + row, PNG_TICK_LENGTH, 1,
                        black);
        png_canvas_text(c, l->label_x, PNG_MARGIN + text_y, t->tick[k]);
    }
    long name_width = png_canvas_text_width(FIELD_NAME) - PNG_TEXT_SCALE;
    png_canvas_text(c, l->bar_x + (BAR_WIDTH - name_width) / 2, l->name_y, FIELD_NAME);
}

/* The values of the ticks, max first: the field's range, or the one asked for. */
static void tick_texts(const struct heat_map *hm, struct texts *t)
{
    for (int k = 0; k < BAR_TICKS; k++) {
        double f = (double)(BAR_TICKS - 1 - k) / (BAR_TICKS - 1);
        double v = k == 0               ? hm->hi
                   : k == BAR_TICKS - 1 ? hm->lo
                                        : hm->lo + f * (hm->hi - hm->lo);
        snprintf(t->tick[k], sizeof t->tick[k], "%.4g", v);
    }
}

/* Encodes the picture and writes it; every write and the close are checked
 * (stbi_write_png checks neither). */
static int save_png(const char *path, const struct png_canvas *im, char *err, size_t n)
{
    int stride = (int)(3 * im->width), bytes = 0;
    unsigned char *png = stbi_write_png_to_mem(im->rgb, stride, (int)im->width,
                                               (int)im->height, 3, &bytes);
    if (!png) {
        snprintf(err, n, "cannot write '%s': out of memory encoding the PNG", path);
        return -1;
    }
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(png, 1, (size_t)bytes, f) == (size_t)bytes;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        snprintf(err, n, "cannot write '%s': %s", path, strerror(errno));
    free(png);
    return ok ? 0 : -1;
}

/* A picture being painted (png_output.h): the heat map's shape and shown range, its
 * texts, where everything goes, the canvas, and the options. */
struct png_picture {
    struct heat_map shown; /* its cells are not held here */
    struct texts t;
    struct layout l;
    struct png_canvas im;
    struct png_options options;
};

struct png_picture *png_picture_begin(const struct heat_map *hm,
                                      const struct png_options *options)
{
    struct png_picture *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->options = *options;
    p->shown = *hm;
    p->shown.value = NULL;
    if (options->fixed_range) {
        p->shown.lo = options->range_lo;
        p->shown.hi = options->range_hi;
    }
    tick_texts(&p->shown, &p->t);
    png_caption_text(options, p->t.caption);
    plan_layout(&p->shown, &p->t, &p->l);
    size_t bytes = 3 * (size_t)p->l.width * (size_t)p->l.height;
    p->im = (struct png_canvas){p->l.width, p->l.height, malloc(bytes)};
    if (!p->im.rgb) {
        free(p);
        return NULL;
    }
    memset(p->im.rgb, 255, bytes); /* white */
    return p;
}

void png_picture_paint(struct png_picture *p, long i0, long i1, long j0, long j1,
                       const double *cells)
{
    paint_cells(&p->im, &p->shown, p->l.map_x, i0, i1, j0, j1, cells);
}

int png_picture_write(const char *path, struct png_picture *p, char *err, size_t n)
{
    const struct heat_map *hm = &p->shown;
    if (p->options.tiles)
        paint_tile_borders(&p->im, hm, p->l.map_x, p->options.tiles);
    png_axes_paint(&p->im, hm, p->l.map_x, PNG_MARGIN);
    paint_colour_bar(&p->im, &p->l, &p->t);
    for (int i = 0; i < p->t.lines; i++)
        png_canvas_text(&p->im, PNG_MARGIN,
                        p->l.caption_y + i * (PNG_TEXT_HEIGHT + LINE_GAP), p->t.line[i]);
    return save_png(path, &p->im, err, n);
}

void png_picture_free(struct png_picture *p)
{
    if (p)
        free(p->im.rgb);
    free(p);
}

_Static_assert(PNG_MAX_SIDE_LIMIT == 16384, "png_heat_map_start writes the limit out");

long png_heat_map_left(long ny)
{
    return PNG_MARGIN + png_axes_width(ny);
}

void png_heat_map_shape(long nx, long ny, long max_side, struct heat_map *hm)
{
    heat_map_shape(nx, ny, max_side > 0 ? max_side : PNG_MAX_SIDE, PNG_MIN_SIDE, hm);
    png_axes_fit(hm);
}

void png_heat_map_size(long nx, long ny, long max_side, long *width, long *height)
{
    struct heat_map hm;
    png_heat_map_shape(nx, ny, max_side, &hm);
    *width = hm.width;
    *height = hm.height;
}

int png_heat_map_start(const char *path, long nx, long ny, const struct png_options *o,
                       struct heat_map *hm, char *err, size_t n)
{
    const char *why = NULL;
    if (nx < 1 || ny < 1)
        why = "the field is empty";
    else if (o->max_side < 0 || o->max_side > PNG_MAX_SIDE_LIMIT)
        why = "max_side is not in 1..16384";
    else if (o->tiles && (o->tiles->nx != nx || o->tiles->ny != ny))
        why = "the tiles are not those of the field";
    if (why) {
        snprintf(err, n, "cannot write '%s': %s", path, why);
        return -1;
    }
    png_heat_map_shape(nx, ny, o->max_side, hm);
    return 0;
}

int png_write(const char *path, const struct field *field,
              const struct png_options *options, char *err, size_t n)
{
    static const struct png_options defaults = {0};
    struct heat_map hm;
    if (!options)
        options = &defaults;
    if (!field || !field->data)
        return error_set(err, n, "cannot write '%s': the field is empty", path);
    if (png_heat_map_start(path, field->nx, field->ny, options, &hm, err, n) != 0)
        return -1;
    if (heat_map_fill(field, &hm) != 0)
        return error_set(err, n,
                         "cannot write '%s': out of memory for a %ldx%ld heat map", path,
                         hm.cells_x, hm.cells_y);
    struct png_picture *p = png_picture_begin(&hm, options);
    if (!p) {
        free(hm.value);
        return error_set(err, n, "cannot write '%s': out of memory for the picture",
                         path);
    }
    png_picture_paint(p, 0, hm.cells_x, 0, hm.cells_y, hm.value);
    free(hm.value); /* once painted, the cells leave the encoding their memory */
    int rc = png_picture_write(path, p, err, n);
    png_picture_free(p);
    return rc;
}

/*
 * png_axes.c - the x and y axes of a PNG heat map (png_axes.h): which sites the
 * ticks name, where their marks go, and the drawing of marks, labels and names.
 * Along an axis, positions are counted from its start (the heat map's left edge
 * for x, its bottom edge for y), where site 0 is; the y axis is turned into rows
 * from the top only at the end.
 */
#include "outputs/png_axes.h"

#include <math.h>
#include <stdio.h>

#define MOST_STEPS 5  /* the round step crosses an axis in at most this many */
#define LABEL_SPACE 8 /* the least space between two labels of an axis */

static const struct png_rgb black = {0, 0, 0};

/* One side of the heat map: n sites shown as `cells` cells of zoom pixels each. */
struct side {
    long n, cells, zoom;
};

static struct side side_of(const struct heat_map *hm, enum png_axis axis)
{
    if (axis == PNG_AXIS_X)
        return (struct side){hm->nx, hm->cells_x, hm->zoom_x};
    return (struct side){hm->ny, hm->cells_y, hm->zoom_y};
}

/* The first pixel of site s's mark from the start of the side: the middle pixel
 * of its cell's pixels, the first of the middle two when the zoom is even. */
static long along(const struct side *a, long s)
{
    return heat_map_cell_of(s, a->n, a->cells) * a->zoom + (a->zoom - 1) / 2;
}

/* The label of a site: its index. */
static void site_label(long site, char text[24])
{
    snprintf(text, 24, "%ld", site);
}

static long label_width(long site)
{
    char text[24];
    site_label(site, text);
    return png_canvas_text_width(text);
}

/* The least distance in pixels between two ticks: a label and a space. Every
 * digit is equally wide, so the last site's label is the widest. */
static long tick_room(const struct side *a, enum png_axis axis)
{
    long label = axis == PNG_AXIS_X ? label_width(a->n - 1) : PNG_TEXT_HEIGHT;
    return label + LABEL_SPACE;
}

/* The smallest of 1, 2, 5, 10, 20, 50, ... that is at least `least`. */
static long round_step(double least)
{
    static const long mantissa[3] = {1, 2, 5};
    for (long power = 1;; power *= 10)
        for (int k = 0; k < 3; k++)
            if (mantissa[k] * power >= least)
                return mantissa[k] * power;
}

static void add_tick(struct png_axes_ticks *t, const struct side *a, long site)
{
    t->site[t->count] = site;
    t->pixel[t->count] = along(a, site);
    site_label(site, t->label[t->count]);
    t->count++;
}

/* 0, the multiples of the step that keep `room` from the ticks on either side,
 * and the last site if it keeps `room` from the tick before it. */
static void choose_ticks(const struct side *a, long room, struct png_axes_ticks *t)
{
    long last = a->n - 1;
    double per_site = (double)(a->cells * a->zoom) / (double)a->n; /* pixels */
    long step = round_step(fmax((double)last / MOST_STEPS, room / per_site));
    t->count = 0;
    add_tick(t, a, 0);
    for (long s = step; s < last; s += step)
        if (along(a, s) - t->pixel[t->count - 1] >= room &&
            along(a, last) - along(a, s) >= room)
            add_tick(t, a, s);
    if (last > 0 && along(a, last) - t->pixel[t->count - 1] >= room)
        add_tick(t, a, last);
}

/* The zoom that puts the first and the last cell of a side `room` pixels apart
 * (1 when the side has one cell, which holds both). */
static long zoom_for_room(const struct side *a, long room)
{
    return a->cells > 1 ? (room + a->cells - 2) / (a->cells - 1) : 1;
}

void png_axes_fit(struct heat_map *hm)
{
    struct side x = side_of(hm, PNG_AXIS_X), y = side_of(hm, PNG_AXIS_Y);
    heat_map_stretch(hm, zoom_for_room(&x, tick_room(&x, PNG_AXIS_X)),
                     zoom_for_room(&y, tick_room(&y, PNG_AXIS_Y)));
}

void png_axes_ticks(const struct heat_map *hm, enum png_axis axis,
                    struct png_axes_ticks *t)
{
    struct side a = side_of(hm, axis);
    t->mark = a.zoom % 2 ? 1 : 2;
    choose_ticks(&a, tick_room(&a, axis), t);
    if (axis == PNG_AXIS_Y) /* rows from the top: the bottom row is height - 1 */
        for (int k = 0; k < t->count; k++)
            t->pixel[k] = hm->height - t->pixel[k] - t->mark;
}

long png_axes_width(long ny)
{
    return png_canvas_text_width("y") + PNG_NAME_GAP + label_width(ny - 1) +
           PNG_LABEL_GAP + PNG_TICK_LENGTH;
}

long png_axes_height(void)
{
    return PNG_TICK_LENGTH + PNG_LABEL_GAP + PNG_TEXT_HEIGHT + PNG_NAME_GAP +
           PNG_TEXT_HEIGHT;
}

/* The left edge of a label centred on the mark at `pixel`: the font's width
 * ends with one font pixel of space, which is not centred. */
static long centred(long pixel, long mark, const char *label)
{
    return pixel + mark / 2 - (png_canvas_text_width(label) - PNG_TEXT_SCALE) / 2;
}

long png_axes_overhang(const struct heat_map *hm)
{
    struct png_axes_ticks t;
    png_axes_ticks(hm, PNG_AXIS_X, &t);
    const char *last = t.label[t.count - 1];
    long right =
        centred(t.pixel[t.count - 1], t.mark, last) + png_canvas_text_width(last);
    return right > hm->width ? right - hm->width : 0;
}

/* The x axis under the heat map, whose bottom-left corner is at (x, bottom). */
static void paint_x_axis(struct png_canvas *c, const struct heat_map *hm, long x,
                         long bottom)
{
    struct png_axes_ticks t;
    png_axes_ticks(hm, PNG_AXIS_X, &t);
    long label_y = bottom + PNG_TICK_LENGTH + PNG_LABEL_GAP;
    for (int k = 0; k < t.count; k++) {
        png_canvas_fill(c, x + t.pixel[k], bottom, t.mark, PNG_TICK_LENGTH, black);
        png_canvas_text(c, x + centred(t.pixel[k], t.mark, t.label[k]), label_y,
                        t.label[k]);
    }
    png_canvas_text(c, x + centred(hm->width / 2, 0, "x"),
                    label_y + PNG_TEXT_HEIGHT + PNG_NAME_GAP, "x");
}

/* The y axis left of the heat map, whose top-left corner is at (left, y): labels
 * right-aligned against the marks, the name halfway up. */
static void paint_y_axis(struct png_canvas *c, const struct heat_map *hm, long left,
                         long y)
{
    struct png_axes_ticks t;
    png_axes_ticks(hm, PNG_AXIS_Y, &t);
    long label_right = left - PNG_TICK_LENGTH - PNG_LABEL_GAP;
    for (int k = 0; k < t.count; k++) {
        long row = y + t.pixel[k] + t.mark / 2; /* the middle of the mark */
        png_canvas_fill(c, left - PNG_TICK_LENGTH, y + t.pixel[k], PNG_TICK_LENGTH,
                        t.mark, black);
        png_canvas_text(c, label_right - png_canvas_text_width(t.label[k]),
                        row - PNG_TEXT_HEIGHT / 2, t.label[k]);
    }
    png_canvas_text(c, left - png_axes_width(hm->ny),
                    y + hm->height / 2 - PNG_TEXT_HEIGHT / 2, "y");
}

void png_axes_paint(struct png_canvas *c, const struct heat_map *hm, long x, long y)
{
    paint_x_axis(c, hm, x, y + hm->height);
    paint_y_axis(c, hm, x, y);
}

/*
 * png_canvas.h - an RGB picture to paint a PNG on (png_canvas.c): filled rectangles
 * and black text. The text is stb_easy_font's, whose glyphs are rectangles, each
 * font pixel drawn as PNG_TEXT_SCALE x PNG_TEXT_SCALE picture pixels. Below the
 * heat map's painters (png_output.c) and its axes (png_axes.c), which both write
 * text and share the look of a labelled tick (PNG_TICK_LENGTH, PNG_LABEL_GAP).
 */
#ifndef LAPLACE_PNG_CANVAS_H
#define LAPLACE_PNG_CANVAS_H

#define PNG_TEXT_SCALE 2                     /* one font pixel is 2 x 2 picture pixels */
#define PNG_TEXT_HEIGHT (7 * PNG_TEXT_SCALE) /* digits and capitals: 7 font pixels */
#define PNG_TEXT_MAX 128                     /* longer texts are cut */
#define PNG_TICK_LENGTH 4 /* a tick's mark, out from the bar or the heat map */
#define PNG_LABEL_GAP 6   /* a tick's mark to its label */
#define PNG_NAME_GAP 8    /* the labels to the name of their axis or colour bar */

struct png_rgb {
    unsigned char r, g, b;
};

/* A picture, 3 bytes per pixel, rows from the top. */
struct png_canvas {
    long width, height;
    unsigned char *rgb;
};

/* Fills the rectangle of w x h pixels at (x, y), clipped to the picture. */
void png_canvas_fill(struct png_canvas *c, long x, long y, long w, long h,
                     struct png_rgb colour);

/* The width in pixels of text (printable ASCII) as png_canvas_text draws it. */
long png_canvas_text_width(const char *text);

/* Draws text (printable ASCII, at most PNG_TEXT_MAX characters) in black, its
 * top-left corner at (x, y); clipped to the picture. */
void png_canvas_text(struct png_canvas *c, long x, long y, const char *text);

#endif

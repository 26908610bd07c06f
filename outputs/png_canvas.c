/*
 * png_canvas.c - rectangles and text on an RGB picture (png_canvas.h). The text is
 * stb_easy_font's: it gives each glyph as a few quads, which are filled scaled.
 */
#include "outputs/png_canvas.h"

#include <math.h>
#include <stddef.h>

/* stb raises these under -Wall -Wextra when it is not in a system folder. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-braces"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_easy_font.h>
#pragma GCC diagnostic pop

void png_canvas_fill(struct png_canvas *c, long x, long y, long w, long h,
                     struct png_rgb colour)
{
    for (long row = y < 0 ? 0 : y; row < y + h && row < c->height; row++)
        for (long col = x < 0 ? 0 : x; col < x + w && col < c->width; col++) {
            unsigned char *p = c->rgb + 3 * ((size_t)row * c->width + col);
            p[0] = colour.r;
            p[1] = colour.g;
            p[2] = colour.b;
        }
}

long png_canvas_text_width(const char *text)
{
    return (long)stb_easy_font_width((char *)text) * PNG_TEXT_SCALE;
}

/* The font gives quads of 4 vertices (x, y, z, colour: 4 floats); vertices 0 and
 * 2 are opposite corners. */
void png_canvas_text(struct png_canvas *c, long x, long y, const char *text)
{
    static const struct png_rgb black = {0, 0, 0};
    float quads[PNG_TEXT_MAX * 8 * 16]; /* ~8 quads per glyph; more are cut */
    int n = stb_easy_font_print(0, 0, (char *)text, NULL, quads, (int)sizeof quads);
    for (int q = 0; q < n; q++) {
        const float *v = quads + 16 * q;
        long x0 = lroundf(v[0]), y0 = lroundf(v[1]);
        long x1 = lroundf(v[8]), y1 = lroundf(v[9]);
        png_canvas_fill(c, x + PNG_TEXT_SCALE * x0, y + PNG_TEXT_SCALE * y0,
                        PNG_TEXT_SCALE * (x1 - x0), PNG_TEXT_SCALE * (y1 - y0), black);
    }
}

/*
 * chart_draw.h: what the charts draw with (lib/chart only): colours, the
 * font, text placed by its capitals, a round step, and the page, a white
 * surface made and written as PNG.
 */
#ifndef SEAWX_CHART_DRAW_H
#define SEAWX_CHART_DRAW_H

#include <cairo.h>

#define SWX_CHART_FONT "DejaVu Sans"

/* A colour 0xRRGGBB, opaque or with alpha a. */
void swx__chart_rgb(cairo_t *cr, unsigned c);
void swx__chart_rgba(cairo_t *cr, unsigned c, double a);
void swx__chart_font(cairo_t *cr, double size, int bold);
/* The advance width of s in the current font. */
double swx__chart_text_w(cairo_t *cr, const char *s);
/* Draws s with its advance box's left (ax 0), centre (0.5) or right (1) at
 * x and its capital letters centred on y; _halo: over a white outline that
 * keeps it readable on a map. */
void swx__chart_text_at(cairo_t *cr, double x, double y, double ax, const char *s);
void swx__chart_text_halo(cairo_t *cr, double x, double y, double ax, const char *s);
/* The font size at which s fits in width w, from size down to min (the
 * font is left set to it, but at min). */
double swx__chart_fit_size(cairo_t *cr, const char *s, double size, double min, double w, int bold);
/* A round step (1, 2 or 5 times a power of ten) at least raw. */
double swx__chart_nice_step(double raw);

/* The page: width x height RGB24 painted white, for the chart library of
 * version `version` (that of libseawx, else SWX_EINVAL with *why). 0, or
 * SWX_ENOMEM. */
int swx__chart_page_begin(cairo_surface_t **sf, cairo_t **cr, const char *version, int width,
                          int height, const char **why);
/* The page drawn, checked and written as PNG through write (cairo's
 * stream); the surface and context freed whatever happens. 0, SWX_ENOMEM or
 * SWX_EIO (*why: cairo's words, when it has some). */
int swx__chart_page_end(cairo_surface_t *sf, cairo_t *cr, cairo_write_func_t write, void *closure,
                        const char **why);

#endif

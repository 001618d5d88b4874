/* chart_draw.c: what the departure plan's chart and the router's chart both
 * draw with (chart_draw.h). */
#include "chart_draw.h"
#include "seawx/error.h"

#include <math.h>
#include <string.h>

#define BG_RGB 0xffffff

void swx__chart_rgb(cairo_t *cr, unsigned c)
{
    cairo_set_source_rgb(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0,
                         (c & 255) / 255.0);
}

void swx__chart_rgba(cairo_t *cr, unsigned c, double a)
{
    cairo_set_source_rgba(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0,
                          (c & 255) / 255.0, a);
}

void swx__chart_font(cairo_t *cr, double size, int bold)
{
    cairo_select_font_face(cr, SWX_CHART_FONT, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

double swx__chart_text_w(cairo_t *cr, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

static void text(cairo_t *cr, double x, double y, double ax, const char *s, int halo)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    double cap = fe.ascent * 0.72; /* DejaVu's capital height, of its ascent */
    cairo_move_to(cr, x - ax * swx__chart_text_w(cr, s), y + cap / 2);
    if (halo) {
        cairo_save(cr);
        cairo_text_path(cr, s);
        cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
        cairo_set_line_width(cr, fe.ascent * 0.3);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        cairo_stroke(cr);
        cairo_restore(cr);
        cairo_move_to(cr, x - ax * swx__chart_text_w(cr, s), y + cap / 2);
    }
    cairo_show_text(cr, s);
}

void swx__chart_text_at(cairo_t *cr, double x, double y, double ax, const char *s)
{
    text(cr, x, y, ax, s, 0);
}

void swx__chart_text_halo(cairo_t *cr, double x, double y, double ax, const char *s)
{
    text(cr, x, y, ax, s, 1);
}

double swx__chart_fit_size(cairo_t *cr, const char *s, double size, double min, double w, int bold)
{
    for (; size > min; size *= 0.92) {
        swx__chart_font(cr, size, bold);
        if (swx__chart_text_w(cr, s) <= w)
            return size;
    }
    return min;
}

double swx__chart_nice_step(double raw)
{
    if (!(raw > 0))
        return 1;
    double p = pow(10, floor(log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

int swx__chart_page_begin(cairo_surface_t **sf, cairo_t **cr, const char *version, int width,
                          int height, const char **why)
{
    *sf = NULL;
    *cr = NULL;
    *why = NULL;
    if (!version || strcmp(version, SEAWX_VERSION) != 0) {
        *why = "the chart library is of another version than libseawx";
        return SWX_EINVAL;
    }
    *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    *cr = cairo_create(*sf);
    if (cairo_status(*cr) != CAIRO_STATUS_SUCCESS) {
        cairo_destroy(*cr);
        cairo_surface_destroy(*sf);
        *sf = NULL;
        *cr = NULL;
        return SWX_ENOMEM;
    }
    swx__chart_rgb(*cr, BG_RGB);
    cairo_paint(*cr);
    return 0;
}

int swx__chart_page_end(cairo_surface_t *sf, cairo_t *cr, cairo_write_func_t write, void *closure,
                        const char **why)
{
    int rc = 0;
    cairo_surface_flush(sf);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
        rc = cairo_status(cr) == CAIRO_STATUS_NO_MEMORY ? SWX_ENOMEM : SWX_EIO;
        *why = cairo_status_to_string(cairo_status(cr));
    } else {
        cairo_status_t st = cairo_surface_write_to_png_stream(sf, write, closure);
        if (st == CAIRO_STATUS_NO_MEMORY)
            rc = SWX_ENOMEM;
        else if (st == CAIRO_STATUS_WRITE_ERROR)
            rc = SWX_EIO;
        else if (st != CAIRO_STATUS_SUCCESS) {
            rc = SWX_EIO;
            *why = cairo_status_to_string(st);
        }
    }
    cairo_destroy(cr);
    cairo_surface_destroy(sf);
    return rc;
}

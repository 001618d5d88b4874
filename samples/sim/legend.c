/* legend.c: GetLegendGraphic's image, as WMS servers draw theirs: the
 * colour ramp of the layer's style, and under it tick marks at round values
 * with the values and the unit (the layer name's, "K", "m s-1"; none for a
 * layer without one). The strip is the very ramp GetMap colours with,
 * spread over the variable's range (catalog.c's lo and hi, shown in the
 * layer's unit: SI * scale + offset). Drawn with cairo in DejaVu Sans. An
 * image too small for text (under 64 x 32) is the strip alone. */
#include "legend.h"

#include "png.h"
#include "render.h"

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FONT "DejaVu Sans"

/* A round step (1, 2 or 5 times a power of ten) at least raw. */
static double nice_step(double raw)
{
    double p = pow(10, floor(log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

static void label_of(char *out, size_t n, double v, double step)
{
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    snprintf(out, n, "%.*f", dec, fabs(v) < step / 1e6 ? 0.0 : v);
}

/* Ticks and values under the strip, the unit after the last value. */
static void ticks(cairo_t *cr, const struct sim_variable *var, unsigned W, unsigned H, double sh)
{
    const char *unit = strchr(var->id, ':');
    unit = unit ? unit + 1 : "";
    double lo = var->lo * var->scale + var->offset, hi = var->hi * var->scale + var->offset;
    if (hi < lo) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    double fs = fmin(fmax((H - sh) * 0.62, 8), 14);
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, fs);
    char b[48];
    cairo_text_extents_t e;
    snprintf(b, sizeof b, "%.0f", fabs(hi) > fabs(lo) ? hi : lo);
    cairo_text_extents(cr, b, &e);
    /* as many values as fit with a space of two of them between */
    double room = e.x_advance + fs * 1.5;
    double step = nice_step((hi - lo) / fmax(1, floor(W / room) - 1));
    double unit_w = 0;
    if (*unit) {
        cairo_text_extents(cr, unit, &e);
        unit_w = e.x_advance + fs * 0.4;
    }
    cairo_set_source_rgb(cr, 0.13, 0.13, 0.13);
    cairo_set_line_width(cr, 1);
    double last_right = -1e9, base = sh + 3 + fs;
    for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
        double x = round((v - lo) / (hi - lo) * (W - 1)) + 0.5;
        cairo_move_to(cr, x, sh);
        cairo_line_to(cr, x, sh + 3);
        cairo_stroke(cr);
        label_of(b, sizeof b, v, step);
        cairo_text_extents(cr, b, &e);
        double left = fmin(fmax(x - e.x_advance / 2, 0), W - e.x_advance - unit_w);
        if (left < last_right + fs * 0.8)
            continue;
        cairo_move_to(cr, left, base);
        cairo_show_text(cr, b);
        last_right = left + e.x_advance;
    }
    if (*unit) {
        cairo_move_to(cr, W - unit_w + fs * 0.4, base);
        cairo_show_text(cr, unit);
    }
}

int sim_legend_png(const struct sim_variable *var, unsigned W, unsigned H, char **data, size_t *len)
{
    int rc = -1;
    struct sim_png *png = NULL;
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)W, (int)H);
    cairo_t *cr = cairo_create(sf);
    uint8_t *row = malloc((size_t)W * 4), *ramp = malloc((size_t)W * 4);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS || !row || !ramp)
        goto done;
    sim_render_legend_row(var, W, ramp);
    int text = W >= 64 && H >= 32;
    double sh = text ? round(H * 0.55) : H;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    if (text)
        ticks(cr, var, W, H, sh);
    cairo_surface_flush(sf);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS ||
        sim_png_begin(&png, W, H, (size_t)W * H * 4 + H + 65536) != 0)
        goto done;
    const unsigned char *px = cairo_image_surface_get_data(sf);
    int stride = cairo_image_surface_get_stride(sf);
    for (unsigned y = 0; y < H; y++) {
        if (y < sh) { /* the strip: the ramp's own colours, as GetMap's */
            if (sim_png_rows(png, ramp, 1) != 0)
                goto done;
            continue;
        }
        const uint32_t *s = (const uint32_t *)(px + (size_t)y * stride);
        for (unsigned x = 0; x < W; x++) { /* opaque: premultiplied is plain */
            row[4 * x] = (uint8_t)(s[x] >> 16);
            row[4 * x + 1] = (uint8_t)(s[x] >> 8);
            row[4 * x + 2] = (uint8_t)s[x];
            row[4 * x + 3] = 255;
        }
        if (sim_png_rows(png, row, 1) != 0)
            goto done;
    }
    rc = sim_png_end(png, data, len);
done:
    sim_png_free(png);
    free(row);
    free(ramp);
    cairo_destroy(cr);
    cairo_surface_destroy(sf);
    return rc;
}

/* chart_route.c: the router's chart, drawn (swx_chart_route_draw in
 * route_chart.h; swx_routing_chart_png in seawx/route_chart.h gathers what
 * it shows, loads this library and writes the file). Built into
 * libseawx_chart alone, with chart_plan.c: only the charts need cairo.
 *
 * The page, top to bottom: the title (from, to, distance, hours) and a line
 * with the departure and arrival times and the storm that came nearest; the
 * map, framed, with its latitudes left and longitudes below; the key. The
 * map, in the projection route_chart.h states (and the PNG's tEXt chunk
 * repeats): the sea plain, a light graticule, the isochrones as thin grey
 * lines (a fortieth of the passage apart at least), land filled over them
 * (an isochrone's points are at sea, the lines joining them may not be),
 * the storm that came nearest at its nearest moment (its area, the larger
 * of its 1-2-3 danger circle and its 34 kt radius in each quadrant, and the
 * 34 kt radii by quadrant darker, both translucent so that land shows
 * through), the route coloured by the true wind of
 * each leg over a dark casing, the waypoints passed (white diamonds with
 * their numbers), the start (a green disc) and the end (a black square)
 * with their times, and a scale bar in nautical miles. The
 * frame holds the route and the storm's area with a margin, widened on one
 * axis to the map's shape. Lengths derive from the font size, which follows
 * the image's size. */
#include "route_chart.h"
#include "chart_draw.h"
#include "seawx/error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define DEG (M_PI / 180.0)
#define R_NM 3440.0695 /* the sphere's radius, nautical miles (6371.0088 km) */

/* Colours (0xRRGGBB). The wind bins follow the Beaufort scale's feel, as
 * the plan's chart does: light blue light airs, green breeze, yellow fresh,
 * orange strong, red near gale, purple gale and over. The storm is drawn
 * in STORM_RGB at STORM_DANGER_A over its whole area and again at
 * STORM_R34_A inside its 34 kt radii (cairo's OVER operator). */
#define NBINS 6
static const double bin_kn[NBINS] = {0, 10, 15, 20, 25, 30};
static const unsigned bin_rgb[NBINS] = {0x29b6f6, 0x43a047, 0xfdd835, 0xfb8c00, 0xe53935, 0x6a1b9a};
#define SEA_RGB 0xeef4f9
#define LAND_RGB 0xe3d6b4
#define COAST_RGB 0x8d7b52
#define GRAT_RGB 0xd3dee8
#define ISO_RGB 0x9e9e9e
#define CASE_RGB 0x263238
#define START_RGB 0x2e7d32
#define END_RGB 0x111111
#define STORM_RGB 0xc2185b
#define STORM_DANGER_A 0.22
#define STORM_R34_A 0.45
#define BG_RGB 0xffffff
#define INK_RGB 0x212121
#define SOFT_RGB 0x616161

static unsigned bin_colour(double kn)
{
    int k = 0;
    if (isnan(kn))
        return ISO_RGB;
    while (k + 1 < NBINS && kn >= bin_kn[k + 1])
        k++;
    return bin_rgb[k];
}

/* ---- text ---- */

/* "2024-10-08 06:00Z", UTC. */
static void time_label(char *out, size_t n, int64_t t)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&tt, &tm) || !strftime(out, n, "%Y-%m-%d %H:%MZ", &tm))
        snprintf(out, n, "?");
}

/* "25.50°N 63.20°W" */
static void pos_label(char *out, size_t n, double lat, double lon)
{
    lon = remainder(lon, 360.0);
    snprintf(out, n, "%.2f\xc2\xb0%c %.2f\xc2\xb0%c", fabs(lat), lat < 0 ? 'S' : 'N', fabs(lon),
             lon < 0 ? 'W' : 'E');
}

/* ---- the map's frame and projection ---- */

typedef struct view {
    int W, H;
    double fs, m;           /* body font size, margin */
    double mx, my, mw, mh;  /* the map's frame, pixels */
    double w, e, s, n;      /* its edges, degrees (e may pass 180) */
    double lonc;            /* the longitude positions are unwrapped near */
    double key_y, key_line; /* the key's first line's centre, a line's height */
} view;

/* lon moved by whole turns to within 180 of ref. */
static double unwrap(double lon, double ref)
{
    return ref + remainder(lon - ref, 360.0);
}

static void project(const view *v, double lat, double lon, double *x, double *y)
{
    *x = v->mx + (lon - v->w) / (v->e - v->w) * v->mw;
    *y = v->my + (v->n - lat) / (v->n - v->s) * v->mh;
}

/* The place dist_nm from (lat, lon) on bearing brg (degrees), on the sphere. */
static void destination(double *lat2, double *lon2, double lat, double lon, double brg,
                        double dist_nm)
{
    double d = dist_nm / R_NM, p1 = lat * DEG, b = brg * DEG;
    double p2 = asin(sin(p1) * cos(d) + cos(p1) * sin(d) * cos(b));
    double l2 = atan2(sin(b) * sin(d) * cos(p1), cos(d) - sin(p1) * sin(p2));
    *lat2 = p2 / DEG;
    *lon2 = lon + l2 / DEG;
}

/* The radius of the storm's area on bearing b (degrees from its centre). */
static double storm_reach(const swx_routing_storm_shape *st, double b, int r34_only)
{
    int q = (int)(fmod(b + 360.0, 360.0) / 90.0);
    double r34 = st->r34_nm[q > 3 ? 3 : q];
    return r34_only ? r34 : fmax(st->danger_nm, r34);
}

static void grow(double *lo, double *hi, double v)
{
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

/* The frame: the route and the storm's area with a margin, widened to the
 * map's shape about its middle. */
static void frame(view *v, const swx_route_chart *c)
{
    double w = INFINITY, e = -INFINITY, s = INFINITY, n = -INFINITY;
    double ref = c->pts[0].lon;
    v->lonc = ref;
    for (size_t i = 0; i < c->npts; i++) {
        ref = unwrap(c->pts[i].lon, ref);
        grow(&w, &e, ref);
        grow(&s, &n, c->pts[i].lat);
    }
    if (c->has_storm)
        for (int b = 0; b < 360; b += 5) {
            double la, lo;
            destination(&la, &lo, c->storm.lat, unwrap(c->storm.lon, v->lonc), b,
                        storm_reach(&c->storm, b, 0));
            grow(&w, &e, lo);
            grow(&s, &n, la);
        }
    double k = cos(fmin(fabs((s + n) / 2), 80) * DEG);
    double pad_y = fmax(0.12 * fmax(n - s, (e - w) * k), 0.2);
    s = fmax(s - pad_y, -88);
    n = fmin(n + pad_y, 88);
    w -= pad_y / k;
    e += pad_y / k;
    double mid = (s + n) / 2;
    k = cos(mid * DEG);
    double dw = (e - w) * k, dh = n - s;
    if (dw / dh > v->mw / v->mh) {
        double half = dw * v->mh / v->mw / 2;
        s = mid - half;
        n = mid + half;
    } else {
        double half = dh * v->mw / v->mh / k / 2, cx = (w + e) / 2;
        w = cx - half;
        e = cx + half;
    }
    v->w = w;
    v->e = e;
    v->s = s;
    v->n = n;
    v->lonc = (w + e) / 2;
}

/* ---- the key ---- */

enum { KEY_ISO = NBINS, KEY_LAND, KEY_R34, KEY_DANGER, KEY_N };

static void key_label(char *b, size_t n, int k)
{
    static const char *const more[] = {"isochrones", "land", "storm: 34 kt winds",
                                       "storm: danger area"};
    if (k < NBINS - 1)
        snprintf(b, n, "%g\xe2\x80\x93%g", bin_kn[k], bin_kn[k + 1]);
    else if (k == NBINS - 1)
        snprintf(b, n, "%g+ kn", bin_kn[k]);
    else
        snprintf(b, n, "%s", more[k - NBINS]);
}

static void key_swatch(cairo_t *cr, const view *v, int k, double x, double cy, double sw)
{
    double x0 = round(x), y0 = round(cy - sw / 2), s = round(sw);
    if (k < NBINS) {
        swx__chart_rgb(cr, bin_rgb[k]);
        cairo_rectangle(cr, x0, round(cy - sw / 4), s, round(sw / 2));
        cairo_fill(cr);
        return;
    }
    if (k == KEY_ISO) {
        swx__chart_rgb(cr, ISO_RGB);
        cairo_set_line_width(cr, fmax(1, v->fs / 14));
        cairo_move_to(cr, x0, cy);
        cairo_line_to(cr, x0 + s, cy);
        cairo_stroke(cr);
        return;
    }
    swx__chart_rgb(cr, k == KEY_LAND ? LAND_RGB : SEA_RGB);
    cairo_rectangle(cr, x0, y0, s, s);
    cairo_fill(cr);
    if (k != KEY_LAND) {
        swx__chart_rgba(cr, STORM_RGB, STORM_DANGER_A);
        cairo_rectangle(cr, x0, y0, s, s);
        cairo_fill(cr);
        if (k == KEY_R34) {
            swx__chart_rgba(cr, STORM_RGB, STORM_R34_A);
            cairo_rectangle(cr, x0, y0, s, s);
            cairo_fill(cr);
        }
    }
    swx__chart_rgb(cr, k == KEY_LAND ? COAST_RGB : STORM_RGB);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, x0 + 0.5, y0 + 0.5, s - 1, s - 1);
    cairo_stroke(cr);
}

/* The key: "wind (kn)" and the bins, then the other marks, in lines that
 * fit the width. Draws when draw is set; returns the number of lines. */
static int key(cairo_t *cr, const view *v, int storm, int draw)
{
    double sw = v->fs * 1.1, gap = v->fs * 0.4, sep = v->fs * 1.2;
    double left = v->mx, right = v->W - v->m, x = left;
    int line = 0;
    char b[64];
    swx__chart_font(cr, v->fs, 1);
    const char *head = "Wind on the route (kn)";
    if (draw) {
        swx__chart_rgb(cr, INK_RGB);
        swx__chart_text_at(cr, x, v->key_y, 0, head);
    }
    x += swx__chart_text_w(cr, head) + sep * 0.6;
    swx__chart_font(cr, v->fs, 0);
    for (int k = 0; k < KEY_N; k++) {
        if (k >= KEY_R34 && !storm)
            break;
        key_label(b, sizeof b, k);
        double w = sw + gap + swx__chart_text_w(cr, b);
        if (x > left && x + w > right) {
            line++;
            x = left;
        }
        if (draw) {
            double cy = v->key_y + line * v->key_line;
            key_swatch(cr, v, k, x, cy, sw);
            swx__chart_rgb(cr, INK_RGB);
            swx__chart_text_at(cr, x + sw + gap, cy, 0, b);
        }
        x += w + (k == NBINS - 1 ? sep * 1.6 : sep);
    }
    return line + 1;
}

static void layout(view *v, cairo_t *cr, const swx_route_chart *c)
{
    v->fs = fmin(fmax(fmin(v->W / 75.0, v->H / 55.0), 9.0), 22.0);
    v->m = round(v->fs * 1.2);
    double fs = v->fs;
    swx__chart_font(cr, fs * 0.85, 0);
    double lat_w = swx__chart_text_w(cr, "88.5\xc2\xb0N");
    v->mx = round(v->m + lat_w + fs * 0.5);
    v->mw = round(v->W - v->m - v->mx);
    v->my = round(v->m + fs * 1.5 + fs * 1.6 + fs * 0.6);
    v->key_line = fs * 1.6;
    int lines = key(cr, v, c->has_storm, 0);
    double below = fs * 0.6 + fs * 1.2 + fs * 0.8 + lines * v->key_line + v->m;
    v->mh = round(v->H - below - v->my);
    v->key_y = v->my + v->mh + fs * 0.6 + fs * 1.2 + fs * 0.8 + v->key_line / 2 - fs * 0.4;
}

/* ---- drawing ---- */

static void draw_title(cairo_t *cr, const view *v, const swx_route_chart *c)
{
    char title[320], sub[400], a[64], b[64], ta[32], tb[32];
    const swx_routing_point *p0 = &c->pts[0], *p1 = &c->pts[c->npts - 1];
    pos_label(a, sizeof a, p0->lat, p0->lon);
    pos_label(b, sizeof b, p1->lat, p1->lon);
    snprintf(title, sizeof title, "Route %s \xe2\x86\x92 %s \xc2\xb7 %.0f nm in %.1f h (%.1f days)",
             a, b, c->distance_nm, c->hours, c->hours / 24);
    time_label(ta, sizeof ta, p0->time);
    time_label(tb, sizeof tb, p1->time);
    int k = snprintf(sub, sizeof sub, "Departs %s, arrives %s (UTC)", ta, tb);
    if (c->has_storm && k > 0 && (size_t)k < sizeof sub) {
        char tn[32];
        time_label(tn, sizeof tn, c->near.time);
        snprintf(sub + k, sizeof sub - (size_t)k,
                 " \xc2\xb7 storm %s came nearest at %s: %.0f nm from its centre, %.0f nm "
                 "outside its area (drawn then)",
                 c->near.title ? c->near.title : "?", tn, c->near.centre_nm, c->near.clear_nm);
    }
    double w = v->W - 2 * v->m;
    swx__chart_font(cr, swx__chart_fit_size(cr, title, v->fs * 1.3, 6, w, 1), 1);
    swx__chart_rgb(cr, INK_RGB);
    swx__chart_text_at(cr, v->m, v->m + v->fs * 0.7, 0, title);
    swx__chart_font(cr, swx__chart_fit_size(cr, sub, v->fs, 6, w, 0), 0);
    swx__chart_rgb(cr, SOFT_RGB);
    swx__chart_text_at(cr, v->m, v->m + v->fs * 1.5 + v->fs * 0.8, 0, sub);
}

/* Meridians and parallels at a round step, labelled outside the frame. */
static void draw_graticule(cairo_t *cr, const view *v)
{
    static const double steps[] = {0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30};
    double want = (v->n - v->s) * v->fs * 5 / v->mh, step = 30;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (steps[i] >= want) {
            step = steps[i];
            break;
        }
    char b[32];
    int dec = step < 1 ? (step < 0.5 ? 2 : 1) : 0;
    cairo_set_line_width(cr, 1);
    swx__chart_font(cr, v->fs * 0.85, 0);
    for (double la = ceil(v->s / step) * step; la <= v->n; la += step) {
        double x, y;
        project(v, la, v->w, &x, &y);
        y = round(y) + 0.5;
        swx__chart_rgb(cr, GRAT_RGB);
        cairo_move_to(cr, v->mx, y);
        cairo_line_to(cr, v->mx + v->mw, y);
        cairo_stroke(cr);
        snprintf(b, sizeof b, "%.*f\xc2\xb0%c", dec, fabs(la), la < 0 ? 'S' : la > 0 ? 'N' : ' ');
        swx__chart_rgb(cr, SOFT_RGB);
        swx__chart_text_at(cr, v->mx - v->fs * 0.35, y, 1, b);
    }
    double lstep = step;
    swx__chart_font(cr, v->fs * 0.85, 0);
    while ((lstep / (v->e - v->w)) * v->mw < swx__chart_text_w(cr, "178.25\xc2\xb0W") + v->fs)
        lstep *= 2;
    for (double lo = ceil(v->w / lstep) * lstep; lo <= v->e; lo += lstep) {
        double x, y, l = remainder(lo, 360.0);
        project(v, v->n, lo, &x, &y);
        x = round(x) + 0.5;
        swx__chart_rgb(cr, GRAT_RGB);
        cairo_move_to(cr, x, v->my);
        cairo_line_to(cr, x, v->my + v->mh);
        cairo_stroke(cr);
        snprintf(b, sizeof b, "%.*f\xc2\xb0%c", dec, fabs(l),
                 l < 0                ? 'W'
                 : (l > 0 && l < 180) ? 'E'
                                      : ' ');
        double hw = swx__chart_text_w(cr, b) / 2;
        swx__chart_rgb(cr, SOFT_RGB);
        swx__chart_text_at(cr, fmin(fmax(x, hw + 2), v->W - hw - 2), v->my + v->mh + v->fs * 0.9,
                           0.5, b);
    }
}

/* The storm's area as a path: on each bearing from its centre, a degree
 * apart, the area's radius (r34_only: the 34 kt radius, through the centre
 * where a quadrant has none). */
static void storm_path(cairo_t *cr, const view *v, const swx_routing_storm_shape *st, int r34_only)
{
    double clat = st->lat, clon = unwrap(st->lon, v->lonc), x, y;
    cairo_new_path(cr);
    for (int b = 0; b <= 360; b++) {
        double bb = b == 360 ? 359.999 : b, la, lo;
        double r = storm_reach(st, bb, r34_only);
        if (r34_only && b % 90 == 0 && b) { /* a quadrant's edge: back to its last radius */
            destination(&la, &lo, clat, clon, bb - 1e-3, storm_reach(st, bb - 1e-3, 1));
            project(v, la, lo, &x, &y);
            cairo_line_to(cr, x, y);
        }
        destination(&la, &lo, clat, clon, bb, r);
        project(v, la, lo, &x, &y);
        cairo_line_to(cr, x, y);
    }
    cairo_close_path(cr);
}

static void draw_storm(cairo_t *cr, const view *v, const swx_route_chart *c)
{
    const swx_routing_storm_shape *st = &c->storm;
    double x, y, la, lo;
    storm_path(cr, v, st, 0);
    swx__chart_rgba(cr, STORM_RGB, STORM_DANGER_A);
    cairo_fill_preserve(cr);
    swx__chart_rgba(cr, STORM_RGB, 0.9);
    cairo_set_line_width(cr, fmax(1, v->fs / 10));
    cairo_stroke(cr);
    storm_path(cr, v, st, 1);
    swx__chart_rgba(cr, STORM_RGB, STORM_R34_A);
    cairo_fill(cr);
    /* the centre, and the storm's name above its area */
    project(v, st->lat, unwrap(st->lon, v->lonc), &x, &y);
    double s = v->fs * 0.35;
    swx__chart_rgb(cr, STORM_RGB);
    cairo_set_line_width(cr, fmax(1.5, v->fs / 8));
    cairo_move_to(cr, x - s, y - s);
    cairo_line_to(cr, x + s, y + s);
    cairo_move_to(cr, x - s, y + s);
    cairo_line_to(cr, x + s, y - s);
    cairo_stroke(cr);
    char b[96], t[32];
    time_label(t, sizeof t, c->near.time);
    snprintf(b, sizeof b, "%s at %s", c->near.title ? c->near.title : "storm", t);
    destination(&la, &lo, st->lat, unwrap(st->lon, v->lonc), 0, storm_reach(st, 0, 0));
    double tx, ty;
    project(v, la, lo, &tx, &ty);
    swx__chart_font(cr, v->fs * 0.9, 1);
    double hw = swx__chart_text_w(cr, b) / 2;
    tx = fmin(fmax(tx, v->mx + hw + 4), v->mx + v->mw - hw - 4);
    ty = fmax(ty - v->fs * 0.8, v->my + v->fs * 0.8);
    swx__chart_rgb(cr, STORM_RGB);
    swx__chart_text_halo(cr, tx, ty, 0.5, b);
}

/* Land: every ring in one path, filled by the non-zero rule (GSHHG's rings
 * are cut at its bins and share their edges there, which a fill of each
 * alone would show as seams). Each ring is moved by whole turns to the
 * frame. */
static void draw_land(cairo_t *cr, const view *v, const swx_route_chart *c)
{
    cairo_new_path(cr);
    for (size_t i = 0; i < c->nrings; i++) {
        const double *xy = c->rings[i].lonlat;
        size_t n = c->rings[i].n;
        if (!xy || n < 3)
            continue;
        double shift = unwrap(xy[0], v->lonc) - xy[0];
        for (size_t k = 0; k < n; k++) {
            double x, y;
            project(v, xy[2 * k + 1], xy[2 * k] + shift, &x, &y);
            if (k)
                cairo_line_to(cr, x, y);
            else
                cairo_move_to(cr, x, y);
        }
        cairo_close_path(cr);
    }
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    swx__chart_rgb(cr, LAND_RGB);
    cairo_fill(cr);
}

static void draw_isochrones(cairo_t *cr, const view *v, const swx_route_chart *c)
{
    swx__chart_rgb(cr, ISO_RGB);
    cairo_set_line_width(cr, fmax(0.8, v->fs / 16));
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    int64_t gap = (int64_t)(c->hours * 3600 / 40), last = 0;
    for (size_t i = 0; i < c->niso; i++) {
        const double *ll = c->iso[i];
        if (!ll || c->iso_n[i] < 2)
            continue;
        if (c->iso_t) {
            if (i && c->iso_t[i] - last < gap)
                continue;
            last = c->iso_t[i];
        }
        double ref = v->lonc;
        cairo_new_path(cr);
        for (size_t k = 0; k < c->iso_n[i]; k++) {
            double x, y;
            ref = unwrap(ll[2 * k + 1], ref);
            project(v, ll[2 * k], ref, &x, &y);
            if (k)
                cairo_line_to(cr, x, y);
            else
                cairo_move_to(cr, x, y);
        }
        cairo_stroke(cr);
    }
}

/* The route: a dark casing, then each leg in its wind's colour (the wind of
 * the point it leaves). */
static void draw_route(cairo_t *cr, const view *v, const swx_route_chart *c)
{
    double lw = fmax(2.5, v->fs * 0.32), ref = v->lonc;
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (int pass = 0; pass < 2; pass++) {
        ref = v->lonc;
        double px = 0, py = 0;
        for (size_t i = 0; i < c->npts; i++) {
            double x, y;
            ref = unwrap(c->pts[i].lon, ref);
            project(v, c->pts[i].lat, ref, &x, &y);
            if (i && pass == 0) {
                cairo_move_to(cr, px, py);
                cairo_line_to(cr, x, y);
            } else if (i) {
                swx__chart_rgb(cr, bin_colour(c->pts[i - 1].tws_kn));
                cairo_set_line_width(cr, lw);
                cairo_move_to(cr, px, py);
                cairo_line_to(cr, x, y);
                cairo_stroke(cr);
            }
            px = x;
            py = y;
        }
        if (pass == 0) {
            swx__chart_rgb(cr, CASE_RGB);
            cairo_set_line_width(cr, lw + fmax(2, v->fs / 8));
            cairo_stroke(cr);
        }
    }
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
}

/* The start (a green disc) and the end (a black square), ringed in white,
 * with their times beside them, kept inside the frame. */
static void draw_ends(cairo_t *cr, const view *v, const swx_route_chart *c)
{
    double r = v->fs * 0.55;
    for (int end = 0; end < 2; end++) {
        const swx_routing_point *p = end ? &c->pts[c->npts - 1] : &c->pts[0];
        double x, y, ref = v->lonc;
        if (end)
            for (size_t i = 0; i < c->npts; i++)
                ref = unwrap(c->pts[i].lon, ref);
        else
            ref = unwrap(p->lon, ref);
        project(v, p->lat, ref, &x, &y);
        cairo_new_path(cr); /* no current point for the arc to join */
        if (end)
            cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
        else
            cairo_arc(cr, x, y, r, 0, 2 * M_PI);
        swx__chart_rgb(cr, end ? END_RGB : START_RGB);
        cairo_fill_preserve(cr);
        swx__chart_rgb(cr, BG_RGB);
        cairo_set_line_width(cr, fmax(1.5, v->fs / 8));
        cairo_stroke(cr);
        char t[32], b[64];
        time_label(t, sizeof t, p->time);
        snprintf(b, sizeof b, "%s %s", end ? "arrives" : "departs", t);
        swx__chart_font(cr, v->fs * 0.9, 1);
        double w = swx__chart_text_w(cr, b);
        /* below the mark, or above it near the frame's foot */
        double ty = y + r + v->fs * 0.9;
        if (ty > v->my + v->mh - v->fs * 2.5)
            ty = y - r - v->fs * 0.9;
        double tx = fmin(fmax(x, v->mx + w / 2 + 4), v->mx + v->mw - w / 2 - 4);
        swx__chart_rgb(cr, INK_RGB);
        swx__chart_text_halo(cr, tx, ty, 0.5, b);
    }
}

/* The waypoints passed between the start and the end: a white diamond
 * ringed in ink, its number in the route file beside it. */
static void draw_waypoints(cairo_t *cr, const view *v, const swx_route_chart *c)
{
    double r = v->fs * 0.7;
    swx__chart_font(cr, v->fs * 0.8, 1);
    for (size_t i = 0; i < c->nwaypoints; i++) {
        double x, y, lat = c->waypoints[2 * i], lon = unwrap(c->waypoints[2 * i + 1], v->lonc);
        char b[16];
        project(v, lat, lon, &x, &y);
        cairo_move_to(cr, x, y - r);
        cairo_line_to(cr, x + r, y);
        cairo_line_to(cr, x, y + r);
        cairo_line_to(cr, x - r, y);
        cairo_close_path(cr);
        swx__chart_rgb(cr, BG_RGB);
        cairo_fill_preserve(cr);
        swx__chart_rgb(cr, INK_RGB);
        cairo_set_line_width(cr, fmax(1.5, v->fs / 8));
        cairo_stroke(cr);
        snprintf(b, sizeof b, "%zu", i + 2);
        swx__chart_text_halo(cr, x + r + v->fs * 0.2 + swx__chart_text_w(cr, b) / 2, y - r, 0.5, b);
        /* the text leaves a current point: an arc drawn next would join it */
        cairo_new_path(cr);
    }
}

/* A scale bar in nautical miles at the frame's foot, left: two halves, black
 * and white, about a fifth of the map wide at its middle latitude. */
static void draw_scale(cairo_t *cr, const view *v)
{
    double nm_px = (v->n - v->s) * 60 / v->mh;
    double len = swx__chart_nice_step(v->mw / 5 * nm_px * 0.7), px = len / nm_px;
    double x0 = round(v->mx + v->fs), y0 = round(v->my + v->mh - v->fs * 1.4);
    double h = round(v->fs * 0.45);
    char b[32];
    snprintf(b, sizeof b, "%g nm", len);
    swx__chart_font(cr, v->fs * 0.85, 0);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
    cairo_rectangle(cr, x0 - v->fs * 0.5, y0 - v->fs * 1.3,
                    px + v->fs + swx__chart_text_w(cr, b) / 2, h + v->fs * 1.8);
    cairo_fill(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    swx__chart_rgb(cr, INK_RGB);
    cairo_rectangle(cr, x0, y0, round(px / 2), h);
    cairo_fill(cr);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, x0 + 0.5, y0 + 0.5, round(px) - 1, h - 1);
    cairo_stroke(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    swx__chart_text_at(cr, x0, y0 - v->fs * 0.6, 0.5, "0");
    swx__chart_text_at(cr, x0 + round(px), y0 - v->fs * 0.6, 0.5, b);
}

static void draw_map(cairo_t *cr, const view *v, const swx_route_chart *c)
{
    cairo_save(cr);
    cairo_rectangle(cr, v->mx, v->my, v->mw, v->mh);
    cairo_clip(cr);
    swx__chart_rgb(cr, SEA_RGB);
    cairo_paint(cr);
    cairo_restore(cr);
    draw_graticule(cr, v);
    cairo_save(cr);
    cairo_rectangle(cr, v->mx, v->my, v->mw, v->mh);
    cairo_clip(cr);
    draw_isochrones(cr, v, c);
    draw_land(cr, v, c);
    if (c->has_storm)
        draw_storm(cr, v, c);
    draw_route(cr, v, c);
    draw_waypoints(cr, v, c);
    draw_ends(cr, v, c);
    draw_scale(cr, v);
    cairo_restore(cr);
    swx__chart_rgb(cr, SOFT_RGB);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, v->mx - 0.5, v->my - 0.5, v->mw + 1, v->mh + 1);
    cairo_stroke(cr);
}

/* ---- writing: cairo's PNG with the projection's tEXt chunk after IHDR ---- */

static unsigned long crc32_png(unsigned long crc, const unsigned char *p, size_t n)
{
    crc = ~crc & 0xffffffffUL;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = crc & 1 ? (crc >> 1) ^ 0xedb88320UL : crc >> 1;
    }
    return ~crc & 0xffffffffUL;
}

#define PNG_HEAD 33 /* the signature (8) and the IHDR chunk (25) */

typedef struct sink {
    swx_chart_write_fn write;
    void *closure;
    size_t done;            /* bytes passed on */
    const unsigned char *t; /* the tEXt chunk, whole */
    size_t tn;
} sink;

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int len)
{
    sink *s = closure;
    if (s->done < PNG_HEAD && s->done + len >= PNG_HEAD) {
        unsigned a = (unsigned)(PNG_HEAD - s->done);
        if ((a && s->write(s->closure, data, a)) || s->write(s->closure, s->t, (unsigned)s->tn))
            return CAIRO_STATUS_WRITE_ERROR;
        s->done += a;
        data += a;
        len -= a;
    }
    s->done += len;
    return s->write(s->closure, data, len) ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

/* The tEXt chunk stating the projection (route_chart.h's format) into buf. */
static size_t map_chunk(unsigned char *buf, size_t size, const view *v)
{
    char text[400];
    int n = snprintf(text, sizeof text,
                     "%s%cequirectangular west=%.9g east=%.9g south=%.9g north=%.9g x0=%.9g "
                     "y0=%.9g x1=%.9g y1=%.9g",
                     SWX_ROUTE_CHART_KEY, 0, v->w, v->e, v->s, v->n, v->mx, v->my, v->mx + v->mw,
                     v->my + v->mh);
    if (n < 0 || (size_t)n + 12 > size || (size_t)n >= sizeof text)
        return 0;
    buf[0] = (unsigned char)(n >> 24);
    buf[1] = (unsigned char)(n >> 16);
    buf[2] = (unsigned char)(n >> 8);
    buf[3] = (unsigned char)n;
    memcpy(buf + 4, "tEXt", 4);
    memcpy(buf + 8, text, (size_t)n);
    unsigned long crc = crc32_png(0, buf + 4, (size_t)n + 4);
    buf[8 + n] = (unsigned char)(crc >> 24);
    buf[9 + n] = (unsigned char)(crc >> 16);
    buf[10 + n] = (unsigned char)(crc >> 8);
    buf[11 + n] = (unsigned char)crc;
    return (size_t)n + 12;
}

int swx_chart_route_draw(const swx_route_chart *c, const char *version, int width, int height,
                         swx_chart_write_fn write, void *closure, const char **why)
{
    cairo_surface_t *sf;
    cairo_t *cr;
    unsigned char chunk[512];
    int rc = swx__chart_page_begin(&sf, &cr, version, width, height, why);
    if (rc)
        return rc;
    view v = {.W = width, .H = height};
    layout(&v, cr, c);
    frame(&v, c);
    draw_title(cr, &v, c);
    draw_map(cr, &v, c);
    key(cr, &v, c->has_storm, 1);
    sink s = {write, closure, 0, chunk, map_chunk(chunk, sizeof chunk, &v)};
    return swx__chart_page_end(sf, cr, sink_write, &s, why);
}

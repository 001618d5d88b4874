/* storm_geometry.c: the geometry of storm features: tracks and forecast
 * lines cut at the antimeridian, wind radii quadrants built on the sphere, and
 * the features of a storm handed out kind by kind (see seawx/storm_geojson.h). */
#include "seawx/storm_geojson.h"

#include "seawx/error.h"
#include "seawx/sphere.h"
#include "storm_danger_int.h"
#include "storm_feature.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- geometry ---- */

struct swx_storm_geo {
    double *xy; /* pairs */
    size_t n, cap;
    size_t *parts;
    size_t nparts, pcap;
    double *tmp; /* scratch ring / line, pairs */
    size_t tcap;
    double *tmp2;
    size_t t2cap;
    /* Bearings of the radii ring, clockwise from north, every 90/ARC_STEPS degrees. */
    double bear_sin[4 * 6 + 1], bear_cos[4 * 6 + 1];
    const swx_storm_danger *danger; /* NULL: the defaults */
    swx_danger_ws *dws;             /* made on first use */
};

#define ARC_STEPS 6 /* segments per quadrant: 15 degrees */
#define DEG (M_PI / 180.0)

int swx_storm_geo_new(swx_storm_geo **out)
{
    swx_storm_geo *g = calloc(1, sizeof *g);
    *out = g;
    if (!g)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (int i = 0; i <= 4 * ARC_STEPS; i++) {
        double b = i * (90.0 / ARC_STEPS) * DEG;
        g->bear_sin[i] = sin(b);
        g->bear_cos[i] = cos(b);
    }
    return 0;
}

void swx_storm_geo_free(swx_storm_geo *g)
{
    if (!g)
        return;
    free(g->xy);
    free(g->parts);
    free(g->tmp);
    free(g->tmp2);
    swx_danger_ws_free(g->dws);
    free(g);
}

void swx_storm_geo_set_danger(swx_storm_geo *g, const struct swx_storm_danger *d)
{
    g->danger = d;
}

static int reserve(double **p, size_t *cap, size_t pairs)
{
    if (pairs <= *cap)
        return 0;
    size_t c = *cap ? *cap : 64;
    while (c < pairs)
        c *= 2;
    double *q = realloc(*p, c * 2 * sizeof **p);
    if (!q)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    *p = q;
    *cap = c;
    return 0;
}

/* v rounded to 6 decimals (ties to even), never -0. Below 2^51 millionths,
 * adding and taking away 1.5 * 2^52 rounds to an integer in the current
 * rounding mode exactly as nearbyint does, without the call. */
static inline double r6(double v)
{
    double s = v * 1e6;
    double r = (fabs(s) < 0x1p51 ? (s + 0x1.8p52) - 0x1.8p52 : nearbyint(s)) / 1e6;
    return r == 0 ? 0 : r;
}

static void geo_reset(swx_storm_geo *g)
{
    g->n = 0;
    g->nparts = 0;
}

static int part_begin(swx_storm_geo *g)
{
    if (g->nparts == g->pcap) {
        size_t c = g->pcap ? g->pcap * 2 : 8;
        size_t *p = realloc(g->parts, c * sizeof *p);
        if (!p)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        g->parts = p;
        g->pcap = c;
    }
    g->parts[g->nparts++] = 0;
    return 0;
}

/* Appends a position to the current part, rounded, unless it repeats the
 * last one; xy has room for it. */
static inline void part_put(swx_storm_geo *g, double x, double y)
{
    x = r6(x);
    y = r6(y);
    size_t *k = &g->parts[g->nparts - 1];
    double *at = g->xy + 2 * g->n;
    if (*k && at[-2] == x && at[-1] == y)
        return;
    at[0] = x;
    at[1] = y;
    g->n++;
    (*k)++;
}

static int part_add(swx_storm_geo *g, double x, double y)
{
    int rc = reserve(&g->xy, &g->cap, g->n + 1);
    if (rc)
        return rc;
    part_put(g, x, y);
    return 0;
}

/* Drops the current part when it has fewer than min positions. */
static void part_end(swx_storm_geo *g, size_t min)
{
    size_t k = g->parts[g->nparts - 1];
    if (k < min) {
        g->n -= k;
        g->nparts--;
    }
}

/* A line through n positions (lon, lat pairs with lon in [-180, 180)), cut at
 * the antimeridian. Longitudes are first unwrapped so that each step is the
 * short way round; every time the unwrapped line passes 180 + 360k the part
 * ends on the meridian and the next starts on its other side. */
static int build_line(swx_storm_geo *g, const double *in, size_t n)
{
    int rc;
    geo_reset(g);
    if (n == 0)
        return 0;
    double px = in[0], py = in[1];
    if ((rc = part_begin(g)) || (rc = part_add(g, px, py)))
        return rc;
    double shift = 0; /* of the current part: unwrapped x minus written x */
    for (size_t i = 1; i < n; i++) {
        double d = in[2 * i] - in[2 * i - 2];
        if (d > 180)
            d -= 360;
        else if (d < -180)
            d += 360;
        double x = px + d, y = in[2 * i + 1];
        /* Crossings of the meridians 180 + 360k between px and x. */
        while (x - shift > 180 || x - shift < -180) {
            double b = x - shift > 180 ? shift + 180 : shift - 180;
            double t = (b - px) / (x - px);
            double yb = py + t * (y - py);
            if ((rc = part_add(g, b - shift, yb)))
                return rc;
            part_end(g, 2);
            shift += x - shift > 180 ? 360 : -360;
            if ((rc = part_begin(g)) || (rc = part_add(g, b - shift, yb)))
                return rc;
        }
        if ((rc = part_add(g, x - shift, y)))
            return rc;
        px = x;
        py = y;
    }
    part_end(g, 2);
    return 0;
}

/* Signed area (shoelace, > 0 counter-clockwise) of a ring of n pairs. */
static double ring_area(const double *r, size_t n)
{
    double a = 0;
    for (size_t i = 0; i + 1 < n; i++)
        a += r[2 * i] * r[2 * i + 3] - r[2 * i + 2] * r[2 * i + 1];
    return a / 2;
}

/* Clips a closed ring (n pairs, first == last) to x >= lo (dir 1) or x <= hi
 * (dir -1) with Sutherland-Hodgman; out gets a closed ring. */
static size_t clip_ring(const double *in, size_t n, double edge, int dir, double *out)
{
    size_t m = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        double ax = in[2 * i], ay = in[2 * i + 1], bx = in[2 * i + 2], by = in[2 * i + 3];
        int ain = dir > 0 ? ax >= edge : ax <= edge;
        int bin = dir > 0 ? bx >= edge : bx <= edge;
        if (ain) {
            out[2 * m] = ax;
            out[2 * m + 1] = ay;
            m++;
        }
        if (ain != bin) {
            double t = (edge - ax) / (bx - ax);
            out[2 * m] = edge;
            out[2 * m + 1] = ay + t * (by - ay);
            m++;
        }
    }
    if (m) {
        out[2 * m] = out[0];
        out[2 * m + 1] = out[1];
        m++;
    }
    return m;
}

/* Adds one ring as a polygon part: rounded, deduplicated, counter-clockwise;
 * dropped when it keeps fewer than 3 distinct positions or no area. */
static int add_ring(swx_storm_geo *g, const double *r, size_t n, double shift)
{
    int rc;
    if (n < 4)
        return 0;
    size_t start = g->n;
    if ((rc = part_begin(g)) || (rc = reserve(&g->xy, &g->cap, g->n + n)))
        return rc;
    for (size_t i = 0; i < n; i++)
        part_put(g, r[2 * i] - shift, r[2 * i + 1]);
    size_t k = g->parts[g->nparts - 1];
    double *p = g->xy + 2 * start;
    if (k < 4 || p[0] != p[2 * k - 2] || p[1] != p[2 * k - 1]) {
        part_end(g, (size_t)-1); /* degenerate: drop */
        return 0;
    }
    double a = ring_area(p, k);
    if (a == 0) {
        part_end(g, (size_t)-1);
        return 0;
    }
    if (a < 0)
        swx_ring_reverse(p, k);
    return 0;
}

static int radii_nonzero(const swx_storm_radii *r)
{
    if (!r->present)
        return 0;
    for (int q = 0; q < 4; q++)
        if (isfinite(r->r[q]) && r->r[q] > 0)
            return 1;
    return 0;
}

/* The quadrant polygon of one threshold around a centre: for each quadrant
 * (ne, se, sw, nw) the arc of its radius, or the centre when the radius is 0
 * or null; consecutive arcs are joined by radial steps. Longitudes are left
 * unwrapped around the centre, then the ring is cut into the 360-degree bands
 * it touches. */
static int build_radii(swx_storm_geo *g, const swx_storm_pos *p, int t)
{
    int rc;
    const size_t max = 4 * (ARC_STEPS + 1) + 2;
    geo_reset(g);
    if ((rc = reserve(&g->tmp, &g->tcap, max)) ||
        (rc = reserve(&g->tmp2, &g->t2cap, 4 * (max + 4))))
        return rc;
    double lat1 = p->lat * DEG, slat = sin(lat1), clat = cos(lat1);
    double *r = g->tmp;
    size_t n = 0;
    double minx = p->lon, maxx = p->lon;
    for (int q = 0; q < 4; q++) {
        double rad = p->radii[t].r[q];
        if (!(isfinite(rad) && rad > 0)) {
            if (!n || r[2 * n - 2] != p->lon || r[2 * n - 1] != p->lat) {
                r[2 * n] = p->lon;
                r[2 * n + 1] = p->lat;
                n++;
            }
            continue;
        }
        double d = rad * SWX_NM_M / SWX_EARTH_RADIUS_M, sd = sin(d), cd = cos(d);
        for (int k = 0; k <= ARC_STEPS; k++) {
            int b = q * ARC_STEPS + k;
            double slat2 = slat * cd + clat * sd * g->bear_cos[b];
            if (slat2 > 1)
                slat2 = 1;
            if (slat2 < -1)
                slat2 = -1;
            double lat2 = asin(slat2);
            double dlon = atan2(g->bear_sin[b] * sd * clat, cd - slat * slat2);
            double x = p->lon + dlon / DEG;
            r[2 * n] = x;
            r[2 * n + 1] = lat2 / DEG;
            n++;
            if (x < minx)
                minx = x;
            if (x > maxx)
                maxx = x;
        }
    }
    r[2 * n] = r[0];
    r[2 * n + 1] = r[1];
    n++;
    if (minx >= -180 && maxx <= 180)
        return add_ring(g, r, n, 0);
    /* The bands [-180 + 360j, 180 + 360j] the ring touches. */
    for (int j = (int)floor((minx + 180) / 360); j <= (int)floor((maxx + 180) / 360); j++) {
        double lo = -180 + 360.0 * j, hi = 180 + 360.0 * j;
        double *a = g->tmp2, *b = g->tmp2 + 4 * (max + 4); /* pair 2 * (max + 4) */
        size_t m = clip_ring(r, n, lo, 1, a);
        m = m ? clip_ring(a, m, hi, -1, b) : 0;
        if ((rc = add_ring(g, b, m, 360.0 * j)))
            return rc;
    }
    return 0;
}

/* Positions of the observed track, or of the forecast line (the last
 * observed position first), as lon/lat pairs in tmp. */
static int gather(swx_storm_geo *g, const swx_storm *s, int observed, size_t *n)
{
    const swx_storm_pos *lo = swx_storm_last_observed(s);
    size_t cnt = observed ? s->nobserved : s->nforecast + (lo ? 1 : 0);
    int rc = reserve(&g->tmp, &g->tcap, cnt + 1);
    if (rc)
        return rc;
    size_t k = 0;
    if (observed) {
        for (size_t i = 0; i < s->nobserved; i++, k++) {
            g->tmp[2 * k] = s->observed[i].lon;
            g->tmp[2 * k + 1] = s->observed[i].lat;
        }
    } else {
        if (lo) {
            g->tmp[0] = lo->lon;
            g->tmp[1] = lo->lat;
            k = 1;
        }
        for (size_t i = 0; i < s->nforecast; i++, k++) {
            g->tmp[2 * k] = s->forecast[i].lon;
            g->tmp[2 * k + 1] = s->forecast[i].lat;
        }
    }
    *n = k;
    return 0;
}

/* Distinct positions of a list of pairs, after rounding (at most 2 counted). */
static size_t distinct2(const double *xy, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (r6(xy[2 * i]) != r6(xy[0]) || r6(xy[2 * i + 1]) != r6(xy[1]))
            return 2;
    return n ? 1 : 0;
}

/* The observed track is a Point when it has one distinct position; the
 * forecast line needs two. */
static int build_track(swx_storm_geo *g, const swx_storm *s, int observed, swx_storm_feature *f)
{
    size_t n;
    int rc = gather(g, s, observed, &n);
    if (rc)
        return rc;
    f->geom = SWX_GEOM_NONE;
    geo_reset(g);
    size_t d = distinct2(g->tmp, n);
    if (d == 1 && observed) {
        if ((rc = part_begin(g)) || (rc = part_add(g, g->tmp[0], g->tmp[1])))
            return rc;
        f->geom = SWX_GEOM_POINT;
    } else if (d == 2) {
        if ((rc = build_line(g, g->tmp, n)))
            return rc;
        f->geom = g->nparts > 1 ? SWX_GEOM_MULTILINESTRING
                  : g->nparts   ? SWX_GEOM_LINESTRING
                                : SWX_GEOM_NONE;
    }
    return 0;
}

size_t swx_storm_count_track(const swx_storm *s, int kind)
{
    (void)s;
    (void)kind;
    return 1;
}

size_t swx_storm_count_track_points(const swx_storm *s, int kind)
{
    (void)kind;
    return s->nobserved;
}

size_t swx_storm_count_forecast_points(const swx_storm *s, int kind)
{
    (void)kind;
    return s->nforecast;
}

size_t swx_storm_count_forecast_line(const swx_storm *s, int kind)
{
    (void)kind;
    if (!s->nforecast)
        return 0;
    const swx_storm_pos *lo = swx_storm_last_observed(s);
    const swx_storm_pos *first = lo ? lo : &s->forecast[0];
    for (size_t i = 0; i < s->nforecast; i++)
        if (r6(s->forecast[i].lon) != r6(first->lon) || r6(s->forecast[i].lat) != r6(first->lat))
            return 1;
    return 0;
}

size_t swx_storm_count_radii(const swx_storm *s, int kind)
{
    size_t n = 0;
    (void)kind;
    for (int fc = 0; fc < 2; fc++) {
        const swx_storm_pos *p = fc ? s->forecast : s->observed;
        size_t np = fc ? s->nforecast : s->nobserved;
        for (size_t i = 0; i < np; i++)
            for (int t = 0; t < SWX_STORM_NRADII; t++)
                n += radii_nonzero(&p[i].radii[t]);
    }
    return n;
}

size_t swx_storm_count_danger(const swx_storm *s, int kind)
{
    return (size_t)swx_danger_exists(s, kind, 1, 0);
}

size_t swx_storm_count_swath(const swx_storm *s, int kind)
{
    size_t n = 0;
    for (int fc = 0; fc < 2; fc++)
        for (int t = 0; t < SWX_STORM_NRADII; t++)
            n += (size_t)swx_danger_exists(s, kind, fc, t);
    return n;
}

size_t swx_storm_feature_count(const swx_storm *s, int kind)
{
    const swx_storm_kind_row *r = swx_storm_kind_row_of(kind);
    return r ? r->count(s, kind) : 0;
}

static void set_geom(swx_storm_feature *f, const swx_storm_geo *g)
{
    f->nparts = g->nparts;
    f->part_len = g->parts;
    f->xy = g->xy;
}

static int point_features(swx_storm_geo *g, const swx_storm *s, int kind, int fc,
                          swx_storm_feature_fn fn, void *ud)
{
    int rc;
    const swx_storm_pos *p = fc ? s->forecast : s->observed;
    size_t n = fc ? s->nforecast : s->nobserved;
    for (size_t i = 0; i < n; i++) {
        swx_storm_feature f = {.kind = kind, .storm = s, .pos = &p[i], .seq = i, .forecast = fc};
        geo_reset(g);
        if ((rc = part_begin(g)) || (rc = part_add(g, p[i].lon, p[i].lat)))
            return rc;
        f.geom = SWX_GEOM_POINT;
        set_geom(&f, g);
        if ((rc = fn(ud, &f)))
            return rc;
    }
    return 0;
}

int swx_storm_build_track_points(swx_storm_geo *g, const swx_storm *s, int kind,
                                 swx_storm_feature_fn fn, void *ud)
{
    return point_features(g, s, kind, 0, fn, ud);
}

int swx_storm_build_forecast_points(swx_storm_geo *g, const swx_storm *s, int kind,
                                    swx_storm_feature_fn fn, void *ud)
{
    return point_features(g, s, kind, 1, fn, ud);
}

/* One feature per storm, with no geometry when the track has none. */
int swx_storm_build_track(swx_storm_geo *g, const swx_storm *s, int kind, swx_storm_feature_fn fn,
                          void *ud)
{
    swx_storm_feature f = {.kind = kind, .storm = s};
    int rc = build_track(g, s, 1, &f);
    if (rc)
        return rc;
    set_geom(&f, g);
    return fn(ud, &f);
}

/* None without a forecast, or when the line would be a point. */
int swx_storm_build_forecast_line(swx_storm_geo *g, const swx_storm *s, int kind,
                                  swx_storm_feature_fn fn, void *ud)
{
    if (!s->nforecast)
        return 0;
    swx_storm_feature f = {.kind = kind, .storm = s};
    int rc = build_track(g, s, 0, &f);
    if (rc)
        return rc;
    set_geom(&f, g);
    return f.geom != SWX_GEOM_NONE ? fn(ud, &f) : 0;
}

int swx_storm_build_radii(swx_storm_geo *g, const swx_storm *s, int kind, swx_storm_feature_fn fn,
                          void *ud)
{
    int rc;
    for (int fc = 0; fc < 2; fc++) {
        const swx_storm_pos *p = fc ? s->forecast : s->observed;
        size_t np = fc ? s->nforecast : s->nobserved;
        for (size_t i = 0; i < np; i++)
            for (int t = 0; t < SWX_STORM_NRADII; t++) {
                if (!radii_nonzero(&p[i].radii[t]))
                    continue;
                swx_storm_feature f = {.kind = kind,
                                       .storm = s,
                                       .pos = &p[i],
                                       .seq = i,
                                       .forecast = fc,
                                       .threshold = t};
                if ((rc = build_radii(g, &p[i], t)))
                    return rc;
                /* A polygon always keeps at least one band with area. */
                f.geom = g->nparts > 1 ? SWX_GEOM_MULTIPOLYGON : SWX_GEOM_POLYGON;
                set_geom(&f, g);
                if (g->nparts && (rc = fn(ud, &f)))
                    return rc;
            }
    }
    return 0;
}

/* The danger polygon of track fc (1: the forecast) and threshold t, when
 * there is one. */
static int danger_feature(swx_storm_geo *g, const swx_storm *s, int kind, int fc, int t,
                          swx_storm_feature_fn fn, void *ud)
{
    int rc;
    if (!swx_danger_exists(s, kind, fc, t))
        return 0;
    if (!g->dws && (rc = swx_danger_ws_new(&g->dws)))
        return rc;
    swx_danger_info info;
    if ((rc = swx_danger_build(g->dws, g->danger, s, kind, fc, t, &info)))
        return rc;
    swx_storm_feature f = {.kind = kind,
                           .storm = s,
                           .forecast = fc,
                           .threshold = t,
                           .start_time = info.start_time,
                           .end_time = info.end_time,
                           .max_lead_h = info.max_lead_h,
                           .max_nm = info.max_nm};
    swx_danger_geometry(g->dws, &f.nparts, &f.part_len, &f.xy, &f.npolys, &f.poly_rings);
    f.geom = f.npolys ? SWX_GEOM_MULTIPOLYGON : SWX_GEOM_NONE;
    return fn(ud, &f);
}

int swx_storm_build_danger(swx_storm_geo *g, const swx_storm *s, int kind, swx_storm_feature_fn fn,
                           void *ud)
{
    return danger_feature(g, s, kind, 1, 0, fn, ud);
}

int swx_storm_build_swath(swx_storm_geo *g, const swx_storm *s, int kind, swx_storm_feature_fn fn,
                          void *ud)
{
    int rc;
    for (int fc = 0; fc < 2; fc++)
        for (int t = 0; t < SWX_STORM_NRADII; t++)
            if ((rc = danger_feature(g, s, kind, fc, t, fn, ud)))
                return rc;
    return 0;
}

int swx_storm_features(swx_storm_geo *g, const swx_storm *s, unsigned mask, swx_storm_feature_fn fn,
                       void *ud)
{
    int rc;
    for (int k = 0; k < SWX_SK_COUNT; k++)
        if ((mask & (1u << k)) && (rc = swx_storm_kind_row_of(k)->build(g, s, k, fn, ud)))
            return rc;
    return 0;
}

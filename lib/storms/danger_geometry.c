/* danger_geometry.c: the geometry work space of the danger products, and
 * the shapes and hulls a product is made of: local frames, circles and
 * quadrant sectors projected into a gnomonic plane, convex hulls, and one
 * link's hull as a polygon on the sphere.
 *
 * Geometry. Each product is a chain of shapes along a track: circles (cone,
 * danger area) or the four quadrant sectors of a wind threshold (swath), one
 * at each fix. Between two fixes the centre moves and every radius changes
 * linearly, so the area a convex shape sweeps from one fix to the next is the
 * convex hull of its two ends (conv(A u B) is the union over t of (1 - t) A +
 * t B, and (1 - t) r1 S + t r2 S = ((1 - t) r1 + t r2) S for a convex S).
 * Hulls are taken in a gnomonic projection centred on a fix of the chain,
 * where great circles are straight lines, so that the common tangents are
 * great circles; their vertices are placed on the sphere (circles and arcs
 * every 10 degrees of bearing at the radius that gives the arc's area,
 * tangents cut every degree of arc). The hulls
 * of a product are then merged (GEOS unary union, danger_chain.c, or in one
 * plane, plane_merge.c) in longitudes unwrapped along the track, and the
 * result is cut at the antimeridian into the bands it touches (RFC 7946,
 * danger_rings.c). */
#include "danger_geometry_int.h"

#include "buf.h"
#include "seawx/error.h"
#include "seawx/sphere.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void geos_quiet(const char *msg, void *ud)
{
    (void)msg;
    (void)ud;
}

/* The engine's last error, kept for the message (never printed). */
static void geos_error(const char *msg, void *ud)
{
    swx_danger_ws *w = ud;
    snprintf(w->geos_msg, sizeof w->geos_msg, "%s", msg ? msg : "");
}

int swx_danger_ws_new(swx_danger_ws **out)
{
    swx_danger_ws *w = calloc(1, sizeof *w);
    *out = NULL;
    if (!w)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if (swx_cu_new(&w->cu) || !(w->geos = GEOS_init_r())) {
        swx_cu_free(w->cu);
        free(w);
        return swx_error_set(SWX_ENOMEM, "cannot start the geometry engine");
    }
    GEOSContext_setErrorMessageHandler_r(w->geos, geos_error, w);
    GEOSContext_setNoticeMessageHandler_r(w->geos, geos_quiet, NULL);
    *out = w;
    return 0;
}

void swx_danger_drop_polys(swx_danger_ws *w)
{
    for (size_t i = 0; i < w->npolys; i++)
        GEOSGeom_destroy_r(w->geos, w->polys[i]);
    w->npolys = 0;
}

void swx_danger_ws_geos_only(swx_danger_ws *w, int on)
{
    w->geos_only = on;
}

size_t swx_danger_ws_fallbacks(const swx_danger_ws *w)
{
    return w->fallbacks;
}

void swx_danger_ws_free(swx_danger_ws *w)
{
    if (!w)
        return;
    swx_danger_drop_polys(w);
    free(w->polys);
    free(w->pts);
    free(w->hull);
    free(w->ring);
    free(w->xy);
    free(w->parts);
    free(w->rings);
    free(w->rh);
    free(w->ph);
    free(w->mxy);
    free(w->mlen);
    free(w->fr);
    free(w->sp);
    free(w->soff);
    swx_cu_free(w->cu);
    GEOS_finish_r(w->geos);
    free(w);
}

/* Grows an array of elem-sized items to hold n. */
int swx_danger_grow(void **p, size_t *cap, size_t n, size_t elem)
{
    void *q = swx_array_reserve(*p, cap, n, elem, 256);
    if (!q)
        return SWX_ENOMEM;
    *p = q;
    return 0;
}

void swx_danger_frame_at(struct frame *f, double lon, double lat)
{
    double sl = sin(lon * DEG), cl = cos(lon * DEG), sp = sin(lat * DEG), cp = cos(lat * DEG);
    f->u[0] = cp * cl;
    f->u[1] = cp * sl;
    f->u[2] = sp;
    f->e[0] = -sl;
    f->e[1] = cl;
    f->e[2] = 0;
    f->n[0] = -sp * cl;
    f->n[1] = -sp * sl;
    f->n[2] = cp;
}

/* Cosines and sines of the bearings of put_shape: circles at k of
 * CIRCLE_STEPS, quadrant q at q * 90 degrees + k of QUAD_STEPS; computed once
 * with the same expressions as before, so the vertices do not change. */
struct bearings {
    double circle[CIRCLE_STEPS][2];
    double quad[4][QUAD_STEPS + 1][2];
};

static const struct bearings *bearings(void)
{
    static struct bearings tab;
    static int ready;
    /* Written once with the same bytes: harmless if two threads race here. */
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
        struct bearings t;
        for (int k = 0; k < CIRCLE_STEPS; k++) {
            double b = k * (2 * M_PI / CIRCLE_STEPS);
            t.circle[k][0] = cos(b);
            t.circle[k][1] = sin(b);
        }
        for (int q = 0; q < 4; q++)
            for (int k = 0; k <= QUAD_STEPS; k++) {
                double b = q * (M_PI / 2) + k * (M_PI / 2 / QUAD_STEPS);
                t.quad[q][k][0] = cos(b);
                t.quad[q][k][1] = sin(b);
            }
        tab = t;
        __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    }
    return &tab;
}

/* Adds the point at the bearing of cosine cb and sine sb and the distance of
 * cosine cd and sine sd (on the unit sphere) from the centre of cf,
 * projected into the gnomonic plane of pf. */
static void put_point(swx_danger_ws *w, const struct frame *cf, const struct frame *pf, double cb,
                      double sb, double cd, double sd)
{
    double v[3];
    for (int i = 0; i < 3; i++)
        v[i] = cd * cf->u[i] + sd * (cb * cf->n[i] + sb * cf->e[i]);
    double du = v[0] * pf->u[0] + v[1] * pf->u[1] + v[2] * pf->u[2];
    if (du < 1e-6)
        du = 1e-6; /* beyond 90 degrees: never for storm-sized shapes */
    double *p = w->pts + 2 * w->npts++;
    p[0] = (v[0] * pf->e[0] + v[1] * pf->e[1] + v[2] * pf->e[2]) / du;
    p[1] = (v[0] * pf->n[0] + v[1] * pf->n[1] + v[2] * pf->n[2]) / du;
}

/* The points of one shape: a circle (q < 0) or the sector of quadrant q,
 * with the centre; radius 0 gives the centre only. */
int swx_danger_put_shape(swx_danger_ws *w, const struct frame *cf, const struct frame *pf, int q,
                         double r_nm)
{
    int rc =
        swx_danger_grow((void **)&w->pts, &w->cpts, w->npts + CIRCLE_STEPS + 2, 2 * sizeof(double));
    if (rc)
        return rc;
    if (!(r_nm > 0) || q >= 0)
        put_point(w, cf, pf, 1, 0, 1, 0);
    if (!(r_nm > 0))
        return 0;
    /* Chords every step of bearing cut the arc's area by a factor
     * sin(step) / step: the vertices go out by its square root's inverse. */
    static const double step = 2 * M_PI / CIRCLE_STEPS;
    r_nm *= sqrt(step / sin(step));
    const struct bearings *bt = bearings();
    double dd = r_nm * SWX_NM_M / SWX_EARTH_RADIUS_M, cd = cos(dd), sd = sin(dd);
    if (q < 0) {
        for (int k = 0; k < CIRCLE_STEPS; k++)
            put_point(w, cf, pf, bt->circle[k][0], bt->circle[k][1], cd, sd);
    } else {
        for (int k = 0; k <= QUAD_STEPS; k++)
            put_point(w, cf, pf, bt->quad[q][k][0], bt->quad[q][k][1], cd, sd);
    }
    return 0;
}

/* 1 when point p comes before q: by x, then by y. */
static inline int xy_before(const double *p, const double *q)
{
    return p[0] < q[0] || (p[0] == q[0] && p[1] < q[1]);
}

/* Sorts n points (pairs) by x, then y, with tmp room for n more: a merge
 * sort that compares inline (a hull has some 20 to 80 points, and sorting
 * them through a callback cost as much as the rest of the hull). */
void swx_danger_sort_xy(double *p, double *tmp, size_t n)
{
    double *src = p, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                const double *x =
                    xy_before(src + 2 * j, src + 2 * i) ? src + 2 * j++ : src + 2 * i++;
                dst[2 * k] = x[0];
                dst[2 * k + 1] = x[1];
                k++;
            }
            if (i < mid)
                memcpy(dst + 2 * k, src + 2 * i, (mid - i) * 2 * sizeof(double));
            else if (j < hi)
                memcpy(dst + 2 * k, src + 2 * j, (hi - j) * 2 * sizeof(double));
        }
        double *t = src;
        src = dst;
        dst = t;
    }
    if (src != p)
        memcpy(p, src, n * 2 * sizeof(double));
}

static double cross(const double *o, const double *a, const double *b)
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/* Andrew's monotone chain: the counter-clockwise hull of w->pts into
 * w->hull; returns its size (without the closing point). With sorted set,
 * the points are already in order (by x, then y). */
int swx_danger_monotone_hull(swx_danger_ws *w, size_t *nh, int sorted)
{
    size_t n = w->npts;
    *nh = 0;
    int rc = swx_danger_grow((void **)&w->hull, &w->chull, 2 * n + 2, 2 * sizeof(double));
    if (rc)
        return rc;
    if (!sorted)
        swx_danger_sort_xy(w->pts, w->hull, n); /* w->hull as the scratch */
    double *h = w->hull;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        while (k >= 2 && cross(h + 2 * (k - 2), h + 2 * (k - 1), w->pts + 2 * i) <= 0)
            k--;
        memcpy(h + 2 * k++, w->pts + 2 * i, 2 * sizeof(double));
    }
    for (size_t i = n - 1, t = k + 1; i-- > 0;) {
        while (k >= t && cross(h + 2 * (k - 2), h + 2 * (k - 1), w->pts + 2 * i) <= 0)
            k--;
        memcpy(h + 2 * k++, w->pts + 2 * i, 2 * sizeof(double));
    }
    *nh = k > 1 ? k - 1 : 0;
    return 0;
}

int swx_danger_convex_hull(swx_danger_ws *w, size_t *nh)
{
    return swx_danger_monotone_hull(w, nh, 0);
}

/* The n points of one shape of put_shape (a convex polygon, clockwise) into
 * out in order by x, then y, in linear time: its upper chain (clockwise from
 * the first point in that order to the last) merged with its lower chain
 * taken backwards. Returns 0 when the points turn out not to be in order
 * (a shape of radius near 0, where rounding decides): the caller sorts. */
int swx_danger_shape_sorted(double *out, const double *p, size_t n)
{
    size_t lo = 0, hi = 0;
    for (size_t i = 1; i < n; i++) {
        if (xy_before(p + 2 * i, p + 2 * lo))
            lo = i;
        if (xy_before(p + 2 * hi, p + 2 * i))
            hi = i;
    }
    size_t nu = (hi + n - lo) % n + 1; /* lo .. hi clockwise, both included */
    size_t nl = n - nu;                /* after hi .. before lo, walked back */
    size_t a = 0, b = 0, k = 0;
    while (a < nu || b < nl) {
        const double *pu = p + 2 * ((lo + a) % n), *pl = p + 2 * ((lo + n - 1 - b) % n);
        const double *x = b >= nl || (a < nu && !xy_before(pl, pu)) ? (a++, pu) : (b++, pl);
        if (k && xy_before(x, out + 2 * k - 2))
            return 0;
        out[2 * k] = x[0];
        out[2 * k + 1] = x[1];
        k++;
    }
    return 1;
}

/* Merges the sorted points a (na) and b (nb) into w->pts. */
int swx_danger_merge_sorted(swx_danger_ws *w, const double *a, size_t na, const double *b,
                            size_t nb)
{
    int rc = swx_danger_grow((void **)&w->pts, &w->cpts, na + nb, 2 * sizeof(double));
    if (rc)
        return rc;
    size_t i = 0, j = 0, k = 0;
    while (i < na || j < nb) {
        const double *x =
            j >= nb || (i < na && !xy_before(b + 2 * j, a + 2 * i)) ? a + 2 * i++ : b + 2 * j++;
        w->pts[2 * k] = x[0];
        w->pts[2 * k + 1] = x[1];
        k++;
    }
    w->npts = k;
    return 0;
}

/* Extra vertices of a hull edge of plane length len (at most 1000). */
size_t swx_danger_edge_steps(double len)
{
    double k = len / TANGENT_STEP;
    return !(k < 1000) ? 1000 : (size_t)k;
}

/* 1 when the hull (counter-clockwise) holds the projection of a pole: its
 * ring in longitude and latitude would not be a simple polygon. */
static int hull_has_pole(const swx_danger_ws *w, const struct frame *pf, size_t nh)
{
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        double du = sgn * pf->u[2];
        if (du <= 1e-9)
            continue; /* the pole is behind the plane's hemisphere */
        double pt[2] = {sgn * pf->e[2] / du, sgn * pf->n[2] / du};
        int inside = 1;
        for (size_t i = 0; i < nh && inside; i++)
            inside = cross(w->hull + 2 * i, w->hull + 2 * ((i + 1) % nh), pt) >= 0;
        if (inside)
            return 1;
    }
    return 0;
}

/* The hull as a polygon in longitudes unwrapped near ref: each edge cut
 * into arcs of at most TANGENT_STEP (straight in the plane = great circle).
 * A hull around a pole is left out: storms never come near one. */
int swx_danger_hull_polygon(swx_danger_ws *w, const struct frame *pf, size_t nh, double ref)
{
    if (nh < 3 || hull_has_pole(w, pf, nh))
        return 0;
    size_t need = 1;
    const double *h = w->hull;
    for (size_t i = 0; i < nh; i++) {
        const double *a = h + 2 * i, *b = h + 2 * ((i + 1) % nh);
        double len = hypot(b[0] - a[0], b[1] - a[1]);
        need += 1 + swx_danger_edge_steps(len);
    }
    int rc = swx_danger_grow((void **)&w->ring, &w->cring, need + 1, 2 * sizeof(double));
    if (rc)
        return rc;
    size_t m = 0;
    for (size_t i = 0; i < nh; i++) {
        const double *a = h + 2 * i, *b = h + 2 * ((i + 1) % nh);
        double len = hypot(b[0] - a[0], b[1] - a[1]);
        size_t steps = 1 + swx_danger_edge_steps(len);
        for (size_t k = 0; k < steps; k++) {
            double f = (double)k / (double)steps;
            double x = a[0] + (b[0] - a[0]) * f, y = a[1] + (b[1] - a[1]) * f, v[3];
            for (int j = 0; j < 3; j++)
                v[j] = pf->u[j] + x * pf->e[j] + y * pf->n[j];
            double lon, lat;
            swx_storm_from_vec(&lon, &lat, v);
            lon += 360.0 * floor((ref - lon + 180) / 360.0);
            w->ring[2 * m] = lon;
            w->ring[2 * m + 1] = lat;
            m++;
        }
    }
    w->ring[2 * m] = w->ring[0];
    w->ring[2 * m + 1] = w->ring[1];
    m++;
    if ((rc = swx_danger_grow((void **)&w->polys, &w->cpolys, w->npolys + 1, sizeof *w->polys)))
        return rc;
    GEOSCoordSequence *cs = GEOSCoordSeq_copyFromBuffer_r(w->geos, w->ring, m, 0, 0);
    GEOSGeometry *lr = cs ? GEOSGeom_createLinearRing_r(w->geos, cs) : NULL;
    GEOSGeometry *poly = lr ? GEOSGeom_createPolygon_r(w->geos, lr, NULL, 0) : NULL;
    if (!poly) {
        if (lr)
            GEOSGeom_destroy_r(w->geos, lr);
        else if (cs)
            GEOSCoordSeq_destroy_r(w->geos, cs);
        return swx_error_set(SWX_ENOMEM, "the geometry engine could not build a polygon");
    }
    w->polys[w->npolys++] = poly;
    return 0;
}

/* One link of a chain: the hull of the shapes at two centres (lon unwrapped),
 * or the shape alone when b is NULL. q < 0: circles; else quadrant q. */
int swx_danger_link(swx_danger_ws *w, const double *a, double ra, const double *b, double rb, int q)
{
    struct frame fa, fb, pf;
    swx_danger_frame_at(&fa, a[0], a[1]);
    if (b) {
        double mlon, mlat;
        swx_storm_gc_interp(&mlon, &mlat, a[0], a[1], b[0], b[1], 0.5);
        swx_danger_frame_at(&fb, b[0], b[1]);
        swx_danger_frame_at(&pf, mlon, mlat);
    } else {
        pf = fa;
    }
    w->npts = 0;
    int rc = swx_danger_put_shape(w, &fa, &pf, q, ra);
    if (!rc && b)
        rc = swx_danger_put_shape(w, &fb, &pf, q, rb);
    size_t nh;
    if (!rc)
        rc = swx_danger_convex_hull(w, &nh);
    if (!rc)
        rc = swx_danger_hull_polygon(w, &pf, nh, a[0]);
    return rc;
}

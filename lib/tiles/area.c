/*
 * area.c: areas (a bbox, polygons, a buffered route) and the enumeration of their
 * tiles.
 *
 * Enumeration is a quadtree descent from the zoom-0 tile. Each node is
 * classified against the area as OUTSIDE (no descendant belongs), INSIDE (every
 * descendant belongs) or PARTIAL (descend). A node's classification only needs
 * the parts of the area that reached its parent: candidate edges (polygons) or
 * legs (routes) are filtered on the way down and kept on one stack, so memory
 * is bounded by the depth times the vertex count, whatever the tile count.
 *
 * Geometry per kind, all on a node's rectangle [lon0, lon1] x [lat0, lat1]
 * (Mercator tiles are rectangles in degrees too):
 *   - bbox: interval overlap on the circle of longitudes, and in latitude;
 *   - polygons: planar in degrees. Rings are unwrapped (consecutive longitudes
 *     differ by at most 180) and every edge is kept at shifts -360, 0 and +360,
 *     so that a ring across the antimeridian is an ordinary planar ring at one of
 *     the shifts. A node is PARTIAL when an edge meets its open interior, else
 *     INSIDE or OUTSIDE by the even-odd rule at its centre over all edges;
 *   - routes: legs are great-circle arcs (unit vectors A, B and the normal N of
 *     their plane). A node belongs when the spherical distance from the
 *     rectangle to some leg is at most the buffer angle. The distance is exact:
 *     the leg is cut where it crosses the meridians lon0 and lon1; a piece
 *     within [lon0, lon1] is at the latitude gap between its latitude range
 *     (endpoints and the circle's vertex) and [lat0, lat1]; a piece outside is
 *     nearest to a meridian edge, and two minor arcs that do not cross are
 *     nearest at an endpoint of one of them.
 */
#include "area.h"
#include "tile.h"

#include "buf.h"
#include "seawx/error.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum node_state { OUTSIDE = 0, PARTIAL = 1, INSIDE = 2 };

/* ---- vectors on the unit sphere ---- */

void swx__area_unit(double lon, double lat, double v[3])
{
    double cl = cos(lat * DEG);
    v[0] = cl * cos(lon * DEG);
    v[1] = cl * sin(lon * DEG);
    v[2] = sin(lat * DEG);
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double a[3], const double b[3], double out[3])
{
    double r0 = a[1] * b[2] - a[2] * b[1];
    double r1 = a[2] * b[0] - a[0] * b[2];
    double r2 = a[0] * b[1] - a[1] * b[0];
    out[0] = r0;
    out[1] = r1;
    out[2] = r2;
}

static double norm(const double a[3])
{
    return sqrt(dot(a, a));
}

static int normalize(double a[3])
{
    double l = norm(a);
    if (l < 1e-15)
        return -1;
    a[0] /= l;
    a[1] /= l;
    a[2] /= l;
    return 0;
}

/* Angle between unit vectors, stable for small and large angles. */
static double angle(const double a[3], const double b[3])
{
    double c[3];
    cross(a, b, c);
    return atan2(norm(c), dot(a, b));
}

static double lat_of(const double v[3])
{
    double z = v[2] > 1 ? 1 : v[2] < -1 ? -1 : v[2];
    return asin(z);
}

static double lon_of(const double v[3])
{
    return atan2(v[1], v[0]);
}

/* Whether x (on the great circle of normal n) lies on the minor arc a..b. */
static int on_arc(const double x[3], const double a[3], const double b[3], const double n[3])
{
    double c1[3], c2[3];
    cross(a, x, c1);
    cross(x, b, c2);
    return dot(c1, n) >= -1e-12 && dot(c2, n) >= -1e-12;
}

/* Distance from p to the arc a..b with unit normal n (radians). */
static double point_arc(const double p[3], const double a[3], const double b[3], const double n[3])
{
    double s = dot(p, n);
    double f[3] = {p[0] - s * n[0], p[1] - s * n[1], p[2] - s * n[2]};
    if (normalize(f) == 0 && on_arc(f, a, b, n))
        return fabs(asin(s > 1 ? 1 : s < -1 ? -1 : s));
    double da = angle(p, a), db = angle(p, b);
    return da < db ? da : db;
}

/* Distance between two minor arcs. */
static double arc_arc(const double a[3], const double b[3], const double n1[3], const double c[3],
                      const double d[3], const double n2[3])
{
    double l[3];
    cross(n1, n2, l);
    if (normalize(l) == 0) {
        if (on_arc(l, a, b, n1) && on_arc(l, c, d, n2))
            return 0;
        double m[3] = {-l[0], -l[1], -l[2]};
        if (on_arc(m, a, b, n1) && on_arc(m, c, d, n2))
            return 0;
    }
    double r = point_arc(a, c, d, n2);
    double t = point_arc(b, c, d, n2);
    if (t < r)
        r = t;
    t = point_arc(c, a, b, n1);
    if (t < r)
        r = t;
    t = point_arc(d, a, b, n1);
    return t < r ? t : r;
}

/* A node rectangle in radians; span is lon1 - lon0 (up to 2 pi). */
typedef struct rect {
    double lon0, lon1, lat0, lat1, span;
} rect;

static int lon_in(double lon, const rect *r)
{
    if (r->span >= 2 * M_PI - 1e-12)
        return 1;
    double d = fmod(lon - r->lon0 + 4 * M_PI, 2 * M_PI);
    return d <= r->span + 1e-15;
}

/* Distance from p to the meridian edge at lon, between lat0 and lat1. */
static double point_meridian(const double p[3], double lon, const rect *r)
{
    double c0[3], c1[3], n[3];
    swx__area_unit(lon / DEG, r->lat0 / DEG, c0);
    swx__area_unit(lon / DEG, r->lat1 / DEG, c1);
    cross(c0, c1, n);
    normalize(n);
    return point_arc(p, c0, c1, n);
}

static double gap(double lo, double hi, const rect *r)
{
    if (hi < r->lat0)
        return r->lat0 - hi;
    if (lo > r->lat1)
        return lo - r->lat1;
    return 0;
}

static double point_rect(const double p[3], const rect *r)
{
    double lat = lat_of(p);
    if (lon_in(lon_of(p), r))
        return gap(lat, lat, r);
    double d0 = point_meridian(p, r->lon0, r), d1 = point_meridian(p, r->lon1, r);
    return d0 < d1 ? d0 : d1;
}

/* Distance from the piece p..q of leg g to the rectangle. */
static double piece_rect(const leg *g, const double p[3], const double q[3], const rect *r)
{
    double m[3] = {p[0] + q[0], p[1] + q[1], p[2] + q[2]};
    if (normalize(m) != 0)
        return point_rect(p, r);
    if (lon_in(lon_of(m), r)) {
        double lo = lat_of(p), hi = lo, t = lat_of(q);
        lo = t < lo ? t : lo;
        hi = t > hi ? t : hi;
        /* The circle's northernmost and southernmost points. */
        double z = g->n[2];
        double v[3] = {-z * g->n[0], -z * g->n[1], 1 - z * g->n[2]};
        if (normalize(v) == 0) {
            if (on_arc(v, p, q, g->n))
                hi = lat_of(v) > hi ? lat_of(v) : hi;
            double w[3] = {-v[0], -v[1], -v[2]};
            if (on_arc(w, p, q, g->n))
                lo = lat_of(w) < lo ? lat_of(w) : lo;
        }
        return gap(lo, hi, r);
    }
    double best = 1e9;
    for (int k = 0; k < 2; k++) {
        double lon = k ? r->lon1 : r->lon0;
        double c0[3], c1[3], n[3];
        swx__area_unit(lon / DEG, r->lat0 / DEG, c0);
        swx__area_unit(lon / DEG, r->lat1 / DEG, c1);
        cross(c0, c1, n);
        normalize(n);
        double d = arc_arc(p, q, g->n, c0, c1, n);
        best = d < best ? d : best;
    }
    return best;
}

static double leg_rect(const leg *g, const rect *r)
{
    if (g->point)
        return point_rect(g->a, r);
    /* Cut points where the leg crosses the meridians lon0 and lon1, in order. */
    double cuts[4][3];
    double at[4];
    int ncut = 0;
    if (r->span < 2 * M_PI - 1e-12) {
        for (int k = 0; k < 2; k++) {
            double lon = k ? r->lon1 : r->lon0;
            double mn[3] = {-sin(lon), cos(lon), 0}, e[3] = {cos(lon), sin(lon), 0};
            double x[3];
            cross(g->n, mn, x);
            if (normalize(x) != 0)
                continue;
            for (int s = 0; s < 2; s++) {
                double y[3] = {s ? -x[0] : x[0], s ? -x[1] : x[1], s ? -x[2] : x[2]};
                if (dot(y, e) > 0 && on_arc(y, g->a, g->b, g->n)) {
                    memcpy(cuts[ncut], y, sizeof y);
                    at[ncut++] = angle(g->a, y);
                }
            }
        }
    }
    if (ncut == 2 && at[1] < at[0]) {
        double t[3];
        memcpy(t, cuts[0], sizeof t);
        memcpy(cuts[0], cuts[1], sizeof t);
        memcpy(cuts[1], t, sizeof t);
    }
    const double *pts[4];
    int np = 0;
    pts[np++] = g->a;
    for (int i = 0; i < ncut; i++)
        pts[np++] = cuts[i];
    pts[np++] = g->b;
    double best = 1e9;
    for (int i = 0; i + 1 < np; i++) {
        double d = piece_rect(g, pts[i], pts[i + 1], r);
        if (d < best)
            best = d;
        if (best == 0)
            break;
    }
    return best;
}

/* ---- planar polygon tests (degrees) ---- */

/* Clips segment e to the closed rectangle; 1 with the parameter range if any. */
static int clip(const edge *e, double x0, double y0, double x1, double y1, double *ta, double *tb)
{
    double t0 = 0, t1 = 1;
    double dx = e->x1 - e->x0, dy = e->y1 - e->y0;
    double p[4] = {-dx, dx, -dy, dy};
    double q[4] = {e->x0 - x0, x1 - e->x0, e->y0 - y0, y1 - e->y0};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return 0;
            continue;
        }
        double t = q[i] / p[i];
        if (p[i] < 0) {
            if (t > t1)
                return 0;
            if (t > t0)
                t0 = t;
        } else {
            if (t < t0)
                return 0;
            if (t < t1)
                t1 = t;
        }
    }
    *ta = t0;
    *tb = t1;
    return 1;
}

/* 0: misses the closed rectangle; 1: touches its boundary only; 2: meets its interior. */
static int edge_rect(const edge *e, double x0, double y0, double x1, double y1)
{
    double ta, tb;
    if (!clip(e, x0, y0, x1, y1, &ta, &tb))
        return 0;
    if (!(tb > ta))
        return 1;
    double t = (ta + tb) / 2;
    double mx = e->x0 + t * (e->x1 - e->x0), my = e->y0 + t * (e->y1 - e->y0);
    return (mx > x0 && mx < x1 && my > y0 && my < y1) ? 2 : 1;
}

static int point_in_edges(const swx_area *a, double px, double py)
{
    int in = 0;
    for (size_t i = 0; i < a->nedges; i++) {
        const edge *e = &a->edges[i];
        if ((e->y0 > py) != (e->y1 > py)) {
            double x = e->x0 + (py - e->y0) / (e->y1 - e->y0) * (e->x1 - e->x0);
            if (x > px)
                in = !in;
        }
    }
    return in;
}

/* ---- node classification ---- */

typedef struct node {
    int l;
    uint32_t x, y;
} node;

static void node_deg(const node *nd, double *w, double *s, double *e, double *n)
{
    swx_tile_bounds_deg(w, s, e, n, nd->l, nd->x, nd->y);
}

/* Classifies a node, writing the candidates that reach it into cout (room for
 * nin). For bbox areas there are no candidates. */
static int classify_rect(const swx_area *a, double w, double s, double e, double n,
                         const uint32_t *cin, size_t nin, uint32_t *cout, size_t *nout)
{
    *nout = 0;
    if (a->kind == AREA_BBOX) {
        double t = e - w;
        if (!(s < a->bn && n > a->bs))
            return OUTSIDE;
        if (a->bspan < 360.0) {
            double r1 = fmod(w - a->bw + 720.0, 360.0), r2 = fmod(a->bw - w + 720.0, 360.0);
            if (!(r1 < a->bspan || r2 < t))
                return OUTSIDE;
            if (!(r1 + t <= a->bspan))
                return PARTIAL;
        }
        return (s >= a->bs && n <= a->bn) ? INSIDE : PARTIAL;
    }
    if (a->kind == AREA_POLYGON) {
        int open = 0;
        for (size_t i = 0; i < nin; i++) {
            int k = edge_rect(&a->edges[cin[i]], w, s, e, n);
            if (k) {
                cout[(*nout)++] = cin[i];
                open |= k == 2;
            }
        }
        if (open)
            return PARTIAL;
        return point_in_edges(a, (w + e) / 2, (s + n) / 2) ? INSIDE : OUTSIDE;
    }
    rect r = {w * DEG, e * DEG, s * DEG, n * DEG, (e - w) * DEG};
    for (size_t i = 0; i < nin; i++)
        if (leg_rect(&a->legs[cin[i]], &r) <= a->buffer)
            cout[(*nout)++] = cin[i];
    return *nout ? PARTIAL : OUTSIDE;
}

static int classify(const swx_area *a, const node *nd, const uint32_t *cin, size_t nin,
                    uint32_t *cout, size_t *nout)
{
    double w, s, e, n;
    node_deg(nd, &w, &s, &e, &n);
    return classify_rect(a, w, s, e, n, cin, nin, cout, nout);
}

/* The candidates of the zoom-0 tile: every leg, or the edges near the world. */
typedef struct cstack {
    uint32_t *v;
    size_t len, cap;
} cstack;

static int cs_reserve(cstack *c, size_t more)
{
    uint32_t *v = swx_array_reserve(c->v, &c->cap, c->len + more, sizeof *v, 1024);
    if (!v)
        return swx_error_set(SWX_ENOMEM, "out of memory enumerating tiles");
    c->v = v;
    return 0;
}

static int root_candidates(const swx_area *a, cstack *c)
{
    size_t n = a->kind == AREA_POLYGON ? a->nedges : a->kind == AREA_ROUTE ? a->nlegs : 0;
    if (cs_reserve(c, n ? n : 1))
        return SWX_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        if (a->kind == AREA_POLYGON &&
            !edge_rect(&a->edges[i], -180, -SWX_MERC_MAX_LAT, 180, SWX_MERC_MAX_LAT))
            continue;
        c->v[c->len++] = (uint32_t)i;
    }
    return 0;
}

/* Classifies child nd of a node whose candidates are c->v[off .. off + n); the
 * child's candidates are pushed on c. */
static int classify_push(const swx_area *a, const node *nd, int parent_state, cstack *c, size_t off,
                         size_t n, size_t *cn, int *state)
{
    *cn = 0;
    if (parent_state == INSIDE) {
        *state = INSIDE;
        return 0;
    }
    if (cs_reserve(c, n ? n : 1))
        return SWX_ENOMEM;
    *state = classify(a, nd, c->v + off, n, c->v + c->len, cn);
    c->len += *cn;
    return 0;
}

/* The state of tile (z, x, y) from a descent from the zoom-0 tile; the
 * candidates that reach it are c->v[*off .. *off + *n). SWX_ENOMEM on failure. */
static int tile_state(int *state, const swx_area *a, int z, uint32_t x, uint32_t y, cstack *c,
                      size_t *off, size_t *n)
{
    if (root_candidates(a, c))
        return SWX_ENOMEM;
    *off = 0;
    *n = c->len;
    *state = PARTIAL;
    for (int l = 0; l <= z && *state != OUTSIDE; l++) {
        node nd = {l, x >> (z - l), y >> (z - l)};
        size_t cn;
        size_t top = c->len;
        if (classify_push(a, &nd, *state, c, *off, *n, &cn, state))
            return SWX_ENOMEM;
        *off = top;
        *n = cn;
    }
    return 0;
}

int swx_area_meets_rect(const swx_area *a, double west, double south, double east, double north)
{
    if (a->kind == AREA_ROUTE) {
        rect r = {west * DEG, east * DEG, south * DEG, north * DEG, (east - west) * DEG};
        for (size_t i = 0; i < a->nlegs; i++)
            if (leg_rect(&a->legs[i], &r) <= a->buffer)
                return 1;
        return 0;
    }
    if (a->kind == AREA_BBOX) {
        uint32_t none;
        size_t nout;
        return classify_rect(a, west, south, east, north, NULL, 0, &none, &nout) != OUTSIDE;
    }
    /* polygons: by their bounds */
    double w = a->west, e = a->east < a->west ? a->east + 360 : a->east;
    if (!(south <= a->lat_north && north >= a->lat_south))
        return 0;
    for (int k = -1; k <= 1; k++)
        if (west <= e + 360 * k && east >= w + 360 * k)
            return 1;
    return 0;
}

int swx_area_has_tile(const swx_area *a, int z, uint32_t x, uint32_t y)
{
    if (z < 0 || z > SWX_TILE_MAX_ZOOM || x >= (1u << z) || y >= (1u << z))
        return 0;
    cstack c = {0};
    size_t off, n;
    int state = OUTSIDE;
    if (tile_state(&state, a, z, x, y, &c, &off, &n))
        state = OUTSIDE;
    free(c.v);
    return state != OUTSIDE;
}

/* ---- pixels of a tile ---- */

/* A square of pixels of the tile being clipped: its size and top-left pixel. */
typedef struct pixel_walk {
    const swx_area *a;
    uint8_t *keep;
    int ts, z;
    uint32_t x, y;
    cstack c;
    size_t kept;
} pixel_walk;

/* A route's buffer holds the whole rectangle when, for some leg, the distance
 * from the rectangle's centre to the leg plus the farthest corner from the
 * centre is within the buffer (on the sphere the farthest point of a
 * longitude/latitude rectangle from its centre is a corner). */
static int route_holds(const swx_area *a, double w, double s, double e, double n,
                       const uint32_t *cand, size_t nc)
{
    double ctr[3], k[3], r = 0;
    swx__area_unit((w + e) / 2, (s + n) / 2, ctr);
    const double cw[4] = {w, e, w, e}, cs[4] = {s, s, n, n};
    for (int i = 0; i < 4; i++) {
        swx__area_unit(cw[i], cs[i], k);
        double d = angle(ctr, k);
        r = d > r ? d : r;
    }
    r *= 1 + 1e-9;
    for (size_t i = 0; i < nc; i++) {
        const leg *g = &a->legs[cand[i]];
        double d = g->point ? angle(ctr, g->a) : point_arc(ctr, g->a, g->b, g->n);
        if (d + r <= a->buffer)
            return 1;
    }
    return 0;
}

static void keep_square(pixel_walk *pw, int px, int py, int size)
{
    for (int j = 0; j < size; j++)
        memset(pw->keep + (size_t)(py + j) * (size_t)pw->ts + (size_t)px, 1, (size_t)size);
    pw->kept += (size_t)size * (size_t)size;
}

/* Classifies the square of size pixels at (px, py) with the candidates
 * c.v[off .. off + n), and its quarters where it is partly in the area. */
static int pixels_rec(pixel_walk *pw, int px, int py, int size, size_t off, size_t n)
{
    double world = (double)(1u << pw->z), ts = pw->ts;
    double fx0 = pw->x + px / ts, fx1 = pw->x + (px + size) / ts;
    double w = fx0 / world * 360.0 - 180.0, e = fx1 / world * 360.0 - 180.0;
    double north = swx_tile_row_lat(pw->z, pw->y + py / ts);
    double south = swx_tile_row_lat(pw->z, pw->y + (py + size) / ts);
    if (cs_reserve(&pw->c, n ? n : 1))
        return SWX_ENOMEM;
    size_t top = pw->c.len, cn = 0;
    int st = classify_rect(pw->a, w, south, e, north, pw->c.v + off, n, pw->c.v + top, &cn);
    pw->c.len += cn;
    if (st == PARTIAL && pw->a->kind == AREA_ROUTE &&
        route_holds(pw->a, w, south, e, north, pw->c.v + top, cn))
        st = INSIDE;
    int rc = 0;
    if (st == INSIDE || (st == PARTIAL && size == 1)) {
        keep_square(pw, px, py, size);
    } else if (st == PARTIAL) {
        int h = size / 2;
        for (int q = 0; q < 4 && !rc; q++)
            rc = pixels_rec(pw, px + (q & 1) * h, py + (q >> 1) * h, h, top, cn);
    }
    pw->c.len = top;
    return rc;
}

int swx_area_tile_pixels(uint8_t *keep, const swx_area *a, int z, uint32_t x, uint32_t y, int ts)
{
    pixel_walk pw = {a, keep, ts, z, x, y, {0}, 0};
    size_t off = 0, n = 0;
    int state = OUTSIDE, rc = 0;
    if (z < 0 || z > SWX_TILE_MAX_ZOOM || x >= (1u << z) || y >= (1u << z) || ts < 1 ||
        (ts & (ts - 1)))
        return swx_error_set(SWX_EINVAL, "tile %d/%u/%u of %d pixels cannot be clipped", z, x, y,
                             ts);
    if (tile_state(&state, a, z, x, y, &pw.c, &off, &n)) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory clipping a tile");
        goto done;
    }
    if (state != PARTIAL) {
        rc = state == INSIDE ? SWX_CLIP_ALL : SWX_CLIP_NONE;
        goto done;
    }
    memset(keep, 0, (size_t)ts * (size_t)ts);
    if (pixels_rec(&pw, 0, 0, ts, off, n)) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory clipping a tile");
        goto done;
    }
    rc = pw.kept == (size_t)ts * (size_t)ts ? SWX_CLIP_ALL
         : pw.kept                          ? SWX_CLIP_SOME
                                            : SWX_CLIP_NONE;
done:
    free(pw.c.v);
    return rc;
}

static int count_rec(const swx_area *a, int z, const node *nd, int state, cstack *c, size_t off,
                     size_t n, uint64_t *total)
{
    if (state == INSIDE) {
        *total += 1ull << (2 * (z - nd->l));
        return 0;
    }
    if (nd->l == z) {
        *total += 1;
        return 0;
    }
    for (int k = 0; k < 4; k++) {
        node ch = {nd->l + 1, nd->x * 2 + (uint32_t)(k & 1), nd->y * 2 + (uint32_t)(k >> 1)};
        size_t top = c->len, cn;
        int cs;
        if (classify_push(a, &ch, state, c, off, n, &cn, &cs))
            return SWX_ENOMEM;
        int rc = cs == OUTSIDE ? 0 : count_rec(a, z, &ch, cs, c, top, cn, total);
        c->len = top;
        if (rc)
            return rc;
    }
    return 0;
}

int swx_area_count(uint64_t *count, const swx_area *a, int z)
{
    *count = 0;
    if (z < 0 || z > SWX_TILE_MAX_ZOOM)
        return swx_error_set(SWX_EINVAL, "zoom %d is outside 0-%d", z, SWX_TILE_MAX_ZOOM);
    cstack c = {0};
    int rc = root_candidates(a, &c);
    if (rc)
        goto done;
    node root = {0, 0, 0};
    size_t n = c.len, cn;
    int state;
    if ((rc = classify_push(a, &root, PARTIAL, &c, 0, n, &cn, &state)))
        goto done;
    if (state != OUTSIDE)
        rc = count_rec(a, z, &root, state, &c, n, cn, count);
done:
    free(c.v);
    return rc;
}

/* ---- the iterator ---- */

typedef struct frame {
    node nd;
    int state;
    int next_child; /* -1: not yet visited */
    size_t off, n;  /* candidates on the stack */
} frame;

struct swx_tile_iter {
    const swx_area *a;
    int z, mz, n; /* target zoom, metatile level, block side */
    frame f[SWX_TILE_MAX_ZOOM + 1];
    int depth; /* -1 when finished */
    cstack c;
};

void swx_tile_iter_free(swx_tile_iter *it)
{
    if (!it)
        return;
    free(it->c.v);
    free(it);
}

int swx_tile_iter_new(swx_tile_iter **out, const swx_area *a, int z, int metatile)
{
    *out = NULL;
    if (z < 0 || z > SWX_TILE_MAX_ZOOM)
        return swx_error_set(SWX_EINVAL, "zoom %d is outside 0-%d", z, SWX_TILE_MAX_ZOOM);
    if (metatile != 1 && metatile != 2 && metatile != 4 && metatile != 8)
        return swx_error_set(SWX_EINVAL, "metatile size %d: use 1, 2, 4 or 8", metatile);
    swx_tile_iter *it = calloc(1, sizeof *it);
    if (!it)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    int lg = metatile == 1 ? 0 : metatile == 2 ? 1 : metatile == 4 ? 2 : 3;
    it->a = a;
    it->z = z;
    it->mz = z > lg ? z - lg : 0;
    it->n = 1 << (z - it->mz);
    int rc = root_candidates(a, &it->c);
    if (rc) {
        swx_tile_iter_free(it);
        return rc;
    }
    frame *r = &it->f[0];
    r->nd = (node){0, 0, 0};
    size_t n = it->c.len;
    if ((rc = classify_push(a, &r->nd, PARTIAL, &it->c, 0, n, &r->n, &r->state))) {
        swx_tile_iter_free(it);
        return rc;
    }
    r->off = n;
    r->next_child = -1;
    it->depth = r->state == OUTSIDE ? -1 : 0;
    *out = it;
    return 0;
}

static int block_mask(swx_tile_iter *it, const node *nd, int state, size_t off, size_t n,
                      const swx_tile_block *b, uint64_t *mask)
{
    int side = 1 << (it->z - nd->l);
    uint32_t x0 = nd->x << (it->z - nd->l), y0 = nd->y << (it->z - nd->l);
    if (state == INSIDE || nd->l == it->z) {
        for (int j = 0; j < side; j++)
            for (int i = 0; i < side; i++)
                *mask |= 1ull << ((y0 + (uint32_t)j - b->y0) * (uint32_t)b->n +
                                  (x0 + (uint32_t)i - b->x0));
        return 0;
    }
    for (int k = 0; k < 4; k++) {
        node ch = {nd->l + 1, nd->x * 2 + (uint32_t)(k & 1), nd->y * 2 + (uint32_t)(k >> 1)};
        size_t top = it->c.len, cn;
        int cs;
        if (classify_push(it->a, &ch, state, &it->c, off, n, &cn, &cs))
            return SWX_ENOMEM;
        int rc = cs == OUTSIDE ? 0 : block_mask(it, &ch, cs, top, cn, b, mask);
        it->c.len = top;
        if (rc)
            return rc;
    }
    return 0;
}

int swx_tile_iter_next(swx_tile_block *b, swx_tile_iter *it)
{
    while (it->depth >= 0) {
        frame *fr = &it->f[it->depth];
        if (fr->nd.l == it->mz) {
            b->z = it->z;
            b->n = it->n;
            b->x0 = fr->nd.x << (it->z - it->mz);
            b->y0 = fr->nd.y << (it->z - it->mz);
            b->mask = 0;
            int rc = block_mask(it, &fr->nd, fr->state, fr->off, fr->n, b, &b->mask);
            it->c.len = fr->off;
            it->depth--;
            if (rc)
                return rc;
            if (b->mask)
                return 1;
            continue;
        }
        if (fr->next_child < 0)
            fr->next_child = 0;
        if (fr->next_child >= 4) {
            it->c.len = fr->off;
            it->depth--;
            continue;
        }
        int k = fr->next_child++;
        it->c.len = fr->off + fr->n; /* drop the previous child's candidates */
        frame *ch = &it->f[it->depth + 1];
        ch->nd = (node){fr->nd.l + 1, fr->nd.x * 2 + (uint32_t)(k & 1),
                        fr->nd.y * 2 + (uint32_t)(k >> 1)};
        size_t top = it->c.len;
        if (classify_push(it->a, &ch->nd, fr->state, &it->c, fr->off, fr->n, &ch->n, &ch->state))
            return SWX_ENOMEM;
        if (ch->state == OUTSIDE) {
            it->c.len = top;
            continue;
        }
        ch->off = top;
        ch->next_child = -1;
        it->depth++;
    }
    return 0;
}

/* ---- building areas ---- */

int swx__area_new(swx_area **out, enum area_kind kind)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    (*out)->kind = kind;
    return 0;
}

void swx_area_free(swx_area *a)
{
    if (!a)
        return;
    free(a->edges);
    free(a->legs);
    free(a);
}

void swx_area_bounds(double *west, double *south, double *east, double *north, const swx_area *a)
{
    *west = a->west;
    *south = a->south;
    *east = a->east;
    *north = a->north;
}

void swx__area_bounds_latlon(double *west, double *south, double *east, double *north,
                             const swx_area *a)
{
    swx_area_bounds(west, south, east, north, a);
    *south = a->lat_south;
    *north = a->lat_north;
}

int swx_area_from_bbox(swx_area **out, double minlon, double minlat, double maxlon, double maxlat)
{
    *out = NULL;
    if (!(minlon >= -180 && minlon <= 180 && maxlon >= -180 && maxlon <= 180))
        return swx_error_set(SWX_EINVAL, "bbox longitudes must be within -180 to 180");
    if (!(minlat >= -90 && maxlat <= 90 && minlat < maxlat))
        return swx_error_set(SWX_EINVAL,
                             "bbox latitudes must be within -90 to 90 with minlat < maxlat");
    if (minlon == maxlon)
        return swx_error_set(SWX_EINVAL, "the bbox is empty: minlon equals maxlon");
    if (minlat >= SWX_MERC_MAX_LAT || maxlat <= -SWX_MERC_MAX_LAT)
        return swx_error_set(SWX_EINVAL, "the bbox lies outside Web Mercator's latitudes "
                                         "(-85.0511 to 85.0511)");
    int rc = swx__area_new(out, AREA_BBOX);
    if (rc)
        return rc;
    swx_area *a = *out;
    a->bw = minlon;
    a->bspan = maxlon > minlon ? maxlon - minlon : maxlon - minlon + 360.0;
    if (minlon == -180 && maxlon == 180)
        a->bspan = 360.0;
    a->bs = minlat;
    a->bn = maxlat;
    a->west = minlon;
    a->east = maxlon;
    a->south = minlat < -SWX_MERC_MAX_LAT ? -SWX_MERC_MAX_LAT : minlat;
    a->north = maxlat > SWX_MERC_MAX_LAT ? SWX_MERC_MAX_LAT : maxlat;
    a->lat_south = minlat;
    a->lat_north = maxlat;
    return 0;
}

int swx_area_from_bbox_text(swx_area **out, const char *text)
{
    double v[4];
    const char *p = text;
    *out = NULL;
    for (int i = 0; i < 4; i++) {
        char *end;
        errno = 0;
        v[i] = strtod(p, &end);
        if (end == p || errno || !isfinite(v[i]))
            goto bad;
        while (*end == ' ')
            end++;
        if (i < 3) {
            if (*end != ',')
                goto bad;
            end++;
        } else if (*end) {
            goto bad;
        }
        p = end;
    }
    return swx_area_from_bbox(out, v[0], v[1], v[2], v[3]);
bad:
    return swx_error_set(SWX_EINVAL, "bbox '%.80s' is not minlon,minlat,maxlon,maxlat in degrees",
                         text);
}

/* Longitude difference taken the short way round, in (-180, 180]. */
static double wrap180(double d)
{
    while (d > 180)
        d -= 360;
    while (d <= -180)
        d += 360;
    return d;
}

/* Lon extent of a set of longitudes on the circle: the complement of the largest
 * gap. Writes west and east in [-180, 180] (west > east across 180). */
static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static void lon_extent(double *lons, size_t n, double pad, double *west, double *east)
{
    for (size_t i = 0; i < n; i++)
        lons[i] = wrap180(lons[i]);
    qsort(lons, n, sizeof *lons, cmp_double);
    double best = lons[0] + 360 - lons[n - 1];
    size_t at = n - 1; /* the gap after lons[at] */
    for (size_t i = 0; i + 1 < n; i++)
        if (lons[i + 1] - lons[i] > best) {
            best = lons[i + 1] - lons[i];
            at = i;
        }
    double w = lons[(at + 1) % n], e = lons[at];
    if (360 - best + 2 * pad >= 360) {
        *west = -180;
        *east = 180;
        return;
    }
    w = wrap180(w - pad);
    e = wrap180(e + pad);
    if (w == 180)
        w = -180;
    if (e == -180)
        e = 180;
    *west = w;
    *east = e;
}

int swx__area_push_lon(builder *b, double lon, double lat)
{
    double *lons = swx_array_reserve(b->lons, &b->lons_cap, b->nlons + 1, sizeof *lons, 256);
    if (!lons)
        return SWX_ENOMEM;
    b->lons = lons;
    b->lons[b->nlons++] = lon;
    if (lat < b->south)
        b->south = lat;
    if (lat > b->north)
        b->north = lat;
    return 0;
}

int swx__area_count_vertex(builder *b)
{
    if (++b->a->nvertices > AREA_MAX_VERTICES)
        return swx_error_set(SWX_ETOOBIG, "more than %u vertices; simplify the area or route",
                             AREA_MAX_VERTICES);
    return 0;
}

static int add_edge(swx_area *a, double x0, double y0, double x1, double y1)
{
    edge *edges = swx_array_reserve(a->edges, &a->edges_cap, a->nedges + 3, sizeof *edges, 192);
    if (!edges)
        return SWX_ENOMEM;
    a->edges = edges;
    if (y0 == y1 && x0 == x1)
        return 0;
    for (int s = -1; s <= 1; s++)
        a->edges[a->nedges++] = (edge){x0 + 360.0 * s, y0, x1 + 360.0 * s, y1};
    return 0;
}

/* One ring of n positions (lon, lat pairs in pos). */
int swx__area_add_ring(builder *b, const double *pos, size_t n, const char *what)
{
    if (n < 3)
        return swx_error_set(SWX_EINVAL, "%s: a ring needs at least 4 positions", what);
    double x0 = wrap180(pos[0]);
    if (x0 == 180)
        x0 = -180;
    double px = x0, py = pos[1];
    int rc;
    if ((rc = swx__area_push_lon(b, px, py)))
        return rc;
    for (size_t i = 1; i <= n; i++) {
        size_t k = i % n;
        double x = px + wrap180(pos[2 * k] - pos[2 * (i - 1)]);
        double y = pos[2 * k + 1];
        if (i == n) {
            if (fabs(x - x0) > 1e-6)
                return swx_error_set(SWX_EINVAL,
                                     "%s: a ring goes round a pole; split it into rings that "
                                     "do not",
                                     what);
            x = x0;
        }
        if ((rc = add_edge(b->a, px, py, x, y)) || (rc = swx__area_push_lon(b, x, y)))
            return rc;
        px = x;
        py = y;
    }
    return 0;
}

/* The northernmost and southernmost points of leg g when they lie between its
 * ends (its samples may miss them, by much near a pole). */
static int push_leg_extremes(builder *b, const leg *g)
{
    double z = g->n[2];
    double v[3] = {-z * g->n[0], -z * g->n[1], 1 - z * g->n[2]};
    if (normalize(v) != 0)
        return 0; /* an equator: its latitudes are the ends' */
    for (int k = 0; k < 2; k++) {
        double p[3] = {k ? -v[0] : v[0], k ? -v[1] : v[1], k ? -v[2] : v[2]};
        int rc;
        if (on_arc(p, g->a, g->b, g->n) &&
            (rc = swx__area_push_lon(b, lon_of(p) / DEG, lat_of(p) / DEG)))
            return rc;
    }
    return 0;
}

int swx__area_add_leg(builder *b, double lon0, double lat0, double lon1, double lat1,
                      const char *what)
{
    swx_area *a = b->a;
    leg *legs = swx_array_reserve(a->legs, &a->legs_cap, a->nlegs + 1, sizeof *legs, 4);
    if (!legs)
        return SWX_ENOMEM;
    a->legs = legs;
    leg *g = &a->legs[a->nlegs];
    swx__area_unit(lon0, lat0, g->a);
    swx__area_unit(lon1, lat1, g->b);
    cross(g->a, g->b, g->n);
    g->point = 0;
    double len = angle(g->a, g->b);
    if (len < 1e-12) {
        g->point = 1;
    } else if (len > 179.0 * DEG) {
        return swx_error_set(SWX_EINVAL,
                             "%s: the leg from %.4f,%.4f to %.4f,%.4f spans more than 179 "
                             "degrees; add a waypoint between them",
                             what, lat0, lon0, lat1, lon1);
    } else {
        normalize(g->n);
    }
    a->nlegs++;
    /* Samples for the bounds, about one per degree. */
    int steps = (int)(len / DEG) + 1;
    for (int i = 0; i <= steps; i++) {
        double t = (double)i / steps, s0 = sin((1 - t) * len), s1 = sin(t * len), sl = sin(len);
        double p[3];
        if (g->point) {
            memcpy(p, g->a, sizeof p);
        } else {
            for (int k = 0; k < 3; k++)
                p[k] = (s0 * g->a[k] + s1 * g->b[k]) / sl;
        }
        int rc = swx__area_push_lon(b, lon_of(p) / DEG, lat_of(p) / DEG);
        if (rc)
            return rc;
    }
    /* exact for latitude/longitude grids; tiles' bounds (and the shards'
     * hashes of them) keep the samples */
    return g->point || !b->latlon ? 0 : push_leg_extremes(b, g);
}

int swx__area_check_position(double lon, double lat, const char *what)
{
    if (!isfinite(lon) || !isfinite(lat) || lat < -90 || lat > 90 || lon < -360 || lon > 360)
        return swx_error_set(SWX_EINVAL, "%s: position %g,%g is not a longitude, latitude pair",
                             what, lon, lat);
    return 0;
}

/* Widens the area's longitudes by what a buffer of pad_deg degrees around
 * positions from latitude b->south to b->north takes: every longitude when it
 * holds a pole. */
static void pad_lons(swx_area *a, const builder *b, double pad_deg)
{
    double top = fabs(b->south) > fabs(b->north) ? fabs(b->south) : fabs(b->north);
    double span = a->east - a->west + (a->east < a->west ? 360 : 0);
    double lonpad = 180;
    if (top + pad_deg < 90) {
        double maxlat = top + pad_deg >= 89 ? 89 : top + pad_deg;
        /* generous away from the poles; near them the half-width of the
         * buffer around a position at latitude top, asin(sin r / cos top) */
        lonpad = pad_deg / cos(maxlat * DEG);
        double exact = asin(sin(pad_deg * DEG) / cos(top * DEG)) / DEG;
        lonpad = exact > lonpad ? exact : lonpad;
    }
    if (span + 2 * lonpad >= 360) {
        a->west = -180;
        a->east = 180;
        return;
    }
    a->west = wrap180(a->west - lonpad);
    a->east = wrap180(a->east + lonpad);
    if (a->west == 180)
        a->west = -180;
    if (a->east == -180)
        a->east = 180;
}

int swx__area_finish_bounds(builder *b, double pad_deg)
{
    swx_area *a = b->a;
    if (!b->nlons)
        return swx_error_set(SWX_EINVAL, "the area has no positions");
    lon_extent(b->lons, b->nlons, 0, &a->west, &a->east);
    if (pad_deg > 0)
        pad_lons(a, b, pad_deg);
    a->lat_south = b->south - pad_deg < -90 ? -90 : b->south - pad_deg;
    a->lat_north = b->north + pad_deg > 90 ? 90 : b->north + pad_deg;
    a->south = a->lat_south < -SWX_MERC_MAX_LAT ? -SWX_MERC_MAX_LAT : a->lat_south;
    a->north = a->lat_north > SWX_MERC_MAX_LAT ? SWX_MERC_MAX_LAT : a->lat_north;
    if (a->north <= -SWX_MERC_MAX_LAT || a->south >= SWX_MERC_MAX_LAT) {
        if (!b->latlon)
            return swx_error_set(SWX_EINVAL, "the area lies outside Web Mercator's latitudes");
        /* no tile: empty Web Mercator bounds on the side it lies */
        a->south = a->north = a->south >= SWX_MERC_MAX_LAT ? SWX_MERC_MAX_LAT : -SWX_MERC_MAX_LAT;
    }
    return 0;
}

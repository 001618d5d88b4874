/* polar_hull.c: the convex hull of a polar curve (see seawx/plan.h), what a
 * boat makes good in a direction by tacking or gybing.
 *
 * Frame of a row: x toward the wind (a = 0 head to wind), y to one side; the
 * curve is sampled every HULL_DA degrees and at every angle of the table,
 * on both sides, with the origin (the boat at rest). Each row keeps its
 * hull's vertices counter-clockwise; a query intersects the ray at the
 * asked angle with the hull's edge there. */
#include "seawx/error.h"
#include "seawx/plan.h"
#include "polar_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HULL_DA 0.5
#define HULL_MAX_TWS 200.0
#define DEG (M_PI / 180.0)

typedef struct hull_pt {
    double x, y;
} hull_pt;

typedef struct hull_row {
    size_t n;    /* vertices, counter-clockwise */
    hull_pt *v;  /* into the hull's pool */
    double *ang; /* each vertex's angle about the origin, radians */
    int inside;  /* 1: the origin is strictly inside (angles increase cyclically) */
} hull_row;

struct swx_polar_hull {
    size_t nrows;
    hull_row *rows; /* row i at i * SWX_POLAR_HULL_TWS_STEP kn */
    hull_pt *pool;
    double *apool;
};

void swx_polar_hull_free(swx_polar_hull *h)
{
    if (!h)
        return;
    free(h->rows);
    free(h->pool);
    free(h->apool);
    free(h);
}

static double cross3(hull_pt o, hull_pt a, hull_pt b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

static int pt_cmp(const void *pa, const void *pb)
{
    const hull_pt *a = pa, *b = pb;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    return 0;
}

/* Andrew's monotone chain: pts (n, sorted in place) to hull (counter-
 * clockwise, collinear points dropped); returns the vertex count. hull has
 * room for 2 n. */
static size_t monotone_chain(hull_pt *pts, size_t n, hull_pt *hull)
{
    size_t k = 0;
    qsort(pts, n, sizeof *pts, pt_cmp);
    for (size_t i = 0; i < n; i++) {
        while (k >= 2 && cross3(hull[k - 2], hull[k - 1], pts[i]) <= 0)
            k--;
        hull[k++] = pts[i];
    }
    for (size_t i = n - 1, lo = k + 1; i-- > 0;) {
        while (k >= lo && cross3(hull[k - 2], hull[k - 1], pts[i]) <= 0)
            k--;
        hull[k++] = pts[i];
    }
    return k > 1 ? k - 1 : k;
}

/* The sample angles of a row: every HULL_DA degrees and the table's. */
static size_t row_points(hull_pt *pts, const swx_polar *p, double tws, double min_twa)
{
    size_t n = 0;
    pts[n++] = (hull_pt){0, 0};
    for (int i = 0; i <= (int)(180 / HULL_DA); i++) {
        double a = i * HULL_DA;
        if (a < min_twa && a + HULL_DA > min_twa)
            a = min_twa; /* the closest angle allowed, exactly */
        if (a < min_twa)
            continue;
        double v = swx_polar_speed(p, tws, a);
        if (!(v > 0))
            continue;
        pts[n++] = (hull_pt){v * cos(a * DEG), v * sin(a * DEG)};
        pts[n++] = (hull_pt){v * cos(a * DEG), -v * sin(a * DEG)};
    }
    return n;
}

/* Reverses the vertices [a, b). */
static void reverse(hull_row *r, size_t a, size_t b)
{
    for (; a + 1 < b; a++, b--) {
        hull_pt t = r->v[a];
        double ta = r->ang[a];
        r->v[a] = r->v[b - 1];
        r->ang[a] = r->ang[b - 1];
        r->v[b - 1] = t;
        r->ang[b - 1] = ta;
    }
}

/* Puts the vertices in order of angle from the smallest, and notes whether
 * the origin is strictly inside. */
static void row_finish(hull_row *r)
{
    size_t first = 0;
    r->inside = r->n >= 3;
    for (size_t i = 0; i < r->n; i++) {
        hull_pt a = r->v[i], b = r->v[(i + 1) % r->n];
        if (a.x * b.y - a.y * b.x <= 1e-12)
            r->inside = 0;
        r->ang[i] = atan2(a.y, a.x);
        if (r->ang[i] < r->ang[first])
            first = i;
    }
    if (!r->inside || first == 0)
        return;
    reverse(r, 0, first);
    reverse(r, first, r->n);
    reverse(r, 0, r->n);
}

int swx_polar_hull_new(swx_polar_hull **out, const swx_polar *p, double min_twa_deg)
{
    swx_polar_hull *h = NULL;
    hull_pt *pts = NULL;
    int rc = 0;
    size_t maxpts = 2 * ((size_t)(180 / HULL_DA) + 2) + 1;
    *out = NULL;
    if (!p || !(min_twa_deg >= 0 && min_twa_deg < 180))
        return swx_error_set(SWX_EINVAL, "a polar hull needs a polar and an angle of 0 to 180");
    double top = swx__polar_top_tws(p);
    if (top > HULL_MAX_TWS)
        top = HULL_MAX_TWS;
    h = calloc(1, sizeof *h);
    if (h) {
        h->nrows = (size_t)ceil(top / SWX_POLAR_HULL_TWS_STEP) + 1;
        h->rows = calloc(h->nrows, sizeof *h->rows);
        h->pool = malloc(h->nrows * 2 * maxpts * sizeof *h->pool);
        h->apool = malloc(h->nrows * 2 * maxpts * sizeof *h->apool);
        pts = malloc(maxpts * sizeof *pts);
    }
    if (!h || !h->rows || !h->pool || !h->apool || !pts) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory building the polar's hull");
        goto done;
    }
    for (size_t i = 0; i < h->nrows; i++) {
        hull_row *r = &h->rows[i];
        size_t n = row_points(pts, p, i * SWX_POLAR_HULL_TWS_STEP, min_twa_deg);
        r->v = h->pool + i * 2 * maxpts;
        r->ang = h->apool + i * 2 * maxpts;
        r->n = n >= 3 ? monotone_chain(pts, n, r->v) : 0;
        row_finish(r);
    }
done:
    free(pts);
    if (rc) {
        swx_polar_hull_free(h);
        return rc;
    }
    *out = h;
    return 0;
}

/* Distance along the unit ray e to the edge a-b, or -1 when it misses. */
static double ray_edge(double ex, double ey, hull_pt a, hull_pt b)
{
    double dx = b.x - a.x, dy = b.y - a.y;
    double den = ex * dy - ey * dx;
    if (fabs(den) < 1e-15)
        return -1;
    double s = (a.x * dy - a.y * dx) / den;
    double u = fabs(dx) > fabs(dy) ? (s * ex - a.x) / dx : (s * ey - a.y) / dy;
    return u >= -1e-9 && u <= 1 + 1e-9 && s >= 0 ? s : -1;
}

static double row_radius(const hull_row *r, double th)
{
    double ex = cos(th), ey = sin(th), best = 0;
    if (r->n < 2)
        return 0;
    if (r->inside) {
        size_t lo = 0, hi = r->n; /* the last vertex at or below th, cyclically */
        if (th < r->ang[0] || th >= r->ang[r->n - 1]) {
            lo = r->n - 1;
        } else {
            while (hi - lo > 1) {
                size_t m = (lo + hi) / 2;
                if (r->ang[m] <= th)
                    lo = m;
                else
                    hi = m;
            }
        }
        double s = ray_edge(ex, ey, r->v[lo], r->v[(lo + 1) % r->n]);
        if (s >= 0)
            return s;
    }
    for (size_t i = 0; i < r->n; i++) {
        double s = ray_edge(ex, ey, r->v[i], r->v[(i + 1) % r->n]);
        if (s > best)
            best = s;
    }
    return best;
}

double swx_polar_hull_speed(const swx_polar_hull *h, double tws_kn, double twa_deg)
{
    if (!h || !isfinite(tws_kn) || !isfinite(twa_deg))
        return NAN;
    double a = fmod(fabs(twa_deg), 360.0);
    if (a > 180)
        a = 360 - a;
    double f = (tws_kn < 0 ? 0 : tws_kn) / SWX_POLAR_HULL_TWS_STEP;
    size_t i = (size_t)f;
    if (i + 1 >= h->nrows)
        return row_radius(&h->rows[h->nrows - 1], a * DEG);
    double w = f - (double)i, r0 = row_radius(&h->rows[i], a * DEG);
    return w > 0 ? r0 * (1 - w) + row_radius(&h->rows[i + 1], a * DEG) * w : r0;
}

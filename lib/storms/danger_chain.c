/* danger_chain.c: the chain of shapes of a danger product along a storm's
 * track: its fixes taken from the timeline, its links merged in runs and by
 * GEOS where the merge in one plane does not take it, and the products built
 * (cone, 1-2-3 danger area, wind swaths; see danger_geometry.c for how). */
#include "danger_geometry_int.h"

#include "seawx/error.h"
#include "seawx/sphere.h"

#include <stdlib.h>
#include <string.h>

/* Centres with longitudes unwrapped along the chain, in place. */
static void unwrap(double *c, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        double d = c[2 * i] - c[2 * i - 2];
        c[2 * i] = c[2 * i - 2] + d - 360.0 * floor((d + 180) / 360.0);
    }
}

/* Runs. Merging is what costs: a swath of the archive has some 45 fixes and
 * four quadrants, 180 links to merge. Along a track that runs straight,
 * several links have one convex hull, so consecutive links are taken as one
 * hull as long as that hull reaches no further than RUN_TOL of the largest
 * radius of the run beyond the links it replaces (tested at points along
 * each of its edges). */
#define RUN_MAX 16
#define RUN_TOL 0.01
#define RUN_SAMPLES 6

/* The hull of shapes i..j (radius r[k * nq + qi], quadrant q) in the plane
 * of pf, into w->hull; with extra (n pairs) points added first. */
static int shapes_hull(swx_danger_ws *w, const double *c, const double *r, int nq, int qi, int q,
                       size_t i, size_t j, const struct frame *pf, const double *extra, size_t n,
                       size_t *nh)
{
    w->npts = 0;
    int rc = swx_danger_grow((void **)&w->pts, &w->cpts, n + 1, 2 * sizeof(double));
    if (rc)
        return rc;
    if (n)
        memcpy(w->pts, extra, n * 2 * sizeof(double));
    w->npts = n;
    for (size_t k = i; k <= j; k++) {
        struct frame fk;
        swx_danger_frame_at(&fk, c[2 * k], c[2 * k + 1]);
        if ((rc = swx_danger_put_shape(w, &fk, pf, q, r[k * nq + qi])))
            return rc;
    }
    return swx_danger_convex_hull(w, nh);
}

/* Appends the edges of w->hull (nh, counter-clockwise) as inward unit
 * normals and offsets (nx, ny, c: inside when nx x + ny y + c >= 0) to the
 * link hulls of the run, as link k. */
static int add_link_edges(swx_danger_ws *w, size_t k, size_t nh)
{
    size_t at = k ? w->ph_off[k] : 0;
    int rc = swx_danger_grow((void **)&w->ph, &w->cph, 3 * (at + nh) / 2 + 2, 2 * sizeof(double));
    if (rc)
        return rc;
    double *e = w->ph + 3 * at;
    for (size_t v = 0; v < nh; v++) {
        const double *p0 = w->hull + 2 * v, *p1 = w->hull + 2 * ((v + 1) % nh);
        double dx = p1[0] - p0[0], dy = p1[1] - p0[1], len = hypot(dx, dy);
        if (len == 0)
            len = 1;
        e[3 * v] = -dy / len;
        e[3 * v + 1] = dx / len;
        e[3 * v + 2] = -(e[3 * v] * p0[0] + e[3 * v + 1] * p0[1]);
    }
    w->ph_off[k] = at;
    w->ph_off[k + 1] = at + nh;
    return 0;
}

/* Whether the hull in w->hull (nh) reaches no further than tol beyond the
 * links 0..nlinks-1 (tested at points along its edges). */
static int hull_fits(const swx_danger_ws *w, size_t nh, size_t nlinks, double tol)
{
    size_t last = 0;
    for (size_t e = 0; e < nh; e++) {
        const double *a = w->hull + 2 * e, *b = w->hull + 2 * ((e + 1) % nh);
        for (int sm = 1; sm < RUN_SAMPLES; sm++) {
            double x = a[0] + (b[0] - a[0]) * sm / RUN_SAMPLES;
            double y = a[1] + (b[1] - a[1]) * sm / RUN_SAMPLES;
            int in_any = 0;
            for (size_t t = 0; t < nlinks && !in_any; t++) {
                size_t k = (last + t) % nlinks; /* the link that held the last point first */
                const double *ed = w->ph + 3 * w->ph_off[k];
                size_t m = w->ph_off[k + 1] - w->ph_off[k];
                int in = m >= 3;
                for (size_t v = 0; v < m && in; v++)
                    in = ed[3 * v] * x + ed[3 * v + 1] * y + ed[3 * v + 2] >= -tol;
                if (in) {
                    in_any = 1;
                    last = k;
                }
            }
            if (!in_any)
                return 0;
        }
    }
    return 1;
}

/* Angle (degrees) between two positions. */
static double angle_deg(const double *a, const double *b)
{
    double va[3], vb[3];
    swx_storm_to_vec(va, a[0], a[1]);
    swx_storm_to_vec(vb, b[0], b[1]);
    double d = va[0] * vb[0] + va[1] * vb[1] + va[2] * vb[2];
    return acos(d > 1 ? 1 : d < -1 ? -1 : d) / DEG;
}

/* A chain of n shapes: centres c (pairs), radii r[i * nq + qi] for
 * quadrants (nq = 4) or circles (nq = 1, q = -1). Runs are built in the
 * plane of their first fix. */
static int chain(swx_danger_ws *w, double *c, const double *r, size_t n, int nq)
{
    int rc = 0, done = 0;
    unwrap(c, n);
    swx_danger_drop_polys(w);
    if (!w->geos_only && ((rc = swx_danger_fast_chain(w, c, r, n, nq, &done)) || done))
        return rc;
    for (int qi = 0; qi < nq && !rc; qi++) {
        int q = nq == 1 ? -1 : qi;
        if (n == 1) {
            if (r[qi] > 0)
                rc = swx_danger_link(w, c, r[qi], NULL, 0, q);
            continue;
        }
        size_t i = 0;
        while (i + 1 < n && !rc) {
            if ((!(r[i * nq + qi] > 0) && !(r[(i + 1) * nq + qi] > 0)) ||
                angle_deg(c + 2 * i, c + 2 * i + 2) > LINK_MAX_DEG) {
                i++;
                continue;
            }
            struct frame pf;
            size_t nh, nr;
            swx_danger_frame_at(&pf, c[2 * i], c[2 * i + 1]);
            if ((rc = shapes_hull(w, c, r, nq, qi, q, i, i + 1, &pf, NULL, 0, &nh)) ||
                (rc = add_link_edges(w, 0, nh)) ||
                (rc = swx_danger_grow((void **)&w->rh, &w->crh, nh + 1, 2 * sizeof(double))))
                break;
            memcpy(w->rh, w->hull, nh * 2 * sizeof(double));
            nr = nh;
            double rmax = fmax(r[i * nq + qi], r[(i + 1) * nq + qi]);
            size_t j = i + 1;
            while (j + 1 < n && j + 1 - i < RUN_MAX &&
                   (r[j * nq + qi] > 0 || r[(j + 1) * nq + qi] > 0) &&
                   angle_deg(c + 2 * i, c + 2 * j + 2) <= RUN_MAX_DEG) {
                size_t k = j - i; /* the new link's index in the run */
                if ((rc = shapes_hull(w, c, r, nq, qi, q, j, j + 1, &pf, NULL, 0, &nh)) ||
                    (rc = add_link_edges(w, k, nh)))
                    break;
                double rm = fmax(rmax, r[(j + 1) * nq + qi]);
                if ((rc = shapes_hull(w, c, r, nq, qi, q, j + 1, j + 1, &pf, w->rh, nr, &nh)))
                    break;
                if (!hull_fits(w, nh, k + 1, RUN_TOL * rm * SWX_NM_M / SWX_EARTH_RADIUS_M))
                    break;
                if ((rc = swx_danger_grow((void **)&w->rh, &w->crh, nh + 1, 2 * sizeof(double))))
                    break;
                memcpy(w->rh, w->hull, nh * 2 * sizeof(double));
                nr = nh;
                rmax = rm;
                j++;
            }
            if (rc)
                break;
            if ((rc = swx_danger_grow((void **)&w->hull, &w->chull, nr + 1, 2 * sizeof(double))))
                break;
            memcpy(w->hull, w->rh, nr * 2 * sizeof(double));
            rc = swx_danger_hull_polygon(w, &pf, nr, c[2 * i]);
            i = j;
        }
    }
    if (!rc)
        rc = swx_danger_finish_union(w);
    return rc;
}

/* The forecast chain: the last observed position (lead 0) and the forecast
 * positions after it. Fills centres (pairs) and leads; returns the count. */
static size_t forecast_chain(const struct swx_fix *f, size_t n, size_t *first)
{
    size_t i = 0;
    while (i < n && !f[i].forecast)
        i++;
    if (i == n)
        return 0;
    *first = i > 0 ? i - 1 : i;
    return n - *first;
}

int swx_danger_build(swx_danger_ws *w, const swx_storm_danger *d, const swx_storm *s, int kind,
                     int forecast, int threshold, swx_danger_info *info)
{
    struct swx_fix *f = NULL;
    double *c = NULL, *r = NULL;
    size_t n, first = 0, m;
    int rc;
    if (!d)
        d = swx_storm_danger_default();
    memset(info, 0, sizeof *info);
    swx_danger_out_reset(w);
    if ((rc = swx_storm_timeline(&f, &n, s)))
        return rc;
    if (kind == SWX_SK_WIND_SWATH && !forecast) {
        first = 0;
        m = 0;
        while (m < n && !f[m].forecast)
            m++;
    } else {
        m = forecast_chain(f, n, &first);
    }
    if (!m)
        goto done;
    int nq = kind == SWX_SK_WIND_SWATH ? 4 : 1;
    c = malloc(2 * m * sizeof *c);
    r = malloc((size_t)nq * m * sizeof *r);
    if (!c || !r) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    const char *basin = swx_storm_cone_basin(s);
    int64_t season = swx_storm_season(s);
    info->start_time = f[first].t;
    info->end_time = f[first + m - 1].t;
    info->max_lead_h = f[first + m - 1].lead_h;
    for (size_t i = 0; i < m; i++) {
        const struct swx_fix *x = &f[first + i];
        double lead = x->forecast ? x->lead_h : 0;
        c[2 * i] = x->lon;
        c[2 * i + 1] = x->lat;
        if (kind == SWX_SK_WIND_SWATH) {
            for (int q = 0; q < 4; q++) {
                r[4 * i + q] = x->r[threshold][q];
                if (r[4 * i + q] > info->max_nm)
                    info->max_nm = r[4 * i + q];
            }
        } else {
            double r34 = 0;
            for (int q = 0; q < 4; q++)
                r34 = x->r[0][q] > r34 ? x->r[0][q] : r34;
            r[i] = kind == SWX_SK_CONE ? swx_storm_cone_radius(d, basin, season, lead)
                                       : swx_storm_danger_error(d, lead) + r34;
            if (r[i] > info->max_nm)
                info->max_nm = r[i];
        }
    }
    if (info->max_nm > 0)
        rc = chain(w, c, r, m, nq);
done:
    free(f);
    free(c);
    free(r);
    return rc;
}

int swx_danger_exists(const swx_storm *s, int kind, int forecast, int threshold)
{
    /* Mirrors swx_danger_build without geometry: a product exists when its
     * chain has a radius > 0 somewhere. */
    struct swx_fix *f;
    size_t n, first = 0, m;
    if (swx_storm_timeline(&f, &n, s)) {
        swx_error_clear();
        return 0;
    }
    int yes = 0;
    if (kind == SWX_SK_WIND_SWATH && !forecast) {
        for (m = 0; m < n && !f[m].forecast; m++)
            ;
    } else {
        m = forecast_chain(f, n, &first);
    }
    if (kind == SWX_SK_WIND_SWATH) {
        for (size_t i = first; i < first + m && !yes; i++)
            for (int q = 0; q < 4; q++)
                yes |= f[i].r[threshold][q] > 0;
    } else {
        /* The last lead is > 0 whenever the chain has two fixes, and every
         * table radius and error is > 0 past lead 0 unless the user gave 0. */
        yes = m >= 2 || (m == 1 && kind == SWX_SK_DANGER_AREA);
    }
    free(f);
    return yes;
}

void swx_danger_geometry(const swx_danger_ws *w, size_t *nparts, const size_t **part_len,
                         const double **xy, size_t *npolys, const size_t **poly_rings)
{
    *nparts = w->nparts;
    *part_len = w->parts;
    *xy = w->xy;
    *npolys = w->nrings;
    *poly_rings = w->rings;
}

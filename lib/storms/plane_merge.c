/* plane_merge.c: the merge in one plane of a danger product's link hulls.
 *
 * A chain whose centres all lie within FAST_MAX_DEG of their mean is built
 * in one gnomonic plane centred there (great circles stay straight lines
 * anywhere in it, so each link's hull is still the spherical one) and its
 * link hulls are merged by convex_union.c; a chain that reaches further, or
 * whose union that method cannot trace, is merged by GEOS (danger_chain.c). */
#include "danger_geometry_int.h"

#include "seawx/error.h"
#include "seawx/sphere.h"

#include <stdlib.h>
#include <string.h>

#define FAST_MAX_DEG 60.0
#define FAST_MAX_RADIUS_DEG 15.0

/* The rings of the union (plane) onto the sphere into w->mxy, closed, each
 * edge cut into arcs of at most TANGENT_STEP, longitudes unwrapped from
 * ref along each ring. */
static int rings_to_sphere(swx_danger_ws *w, const struct frame *pf, size_t nrings,
                           const size_t *ring_len, const double *xy, double ref, double *minx,
                           double *maxx)
{
    size_t need = 0;
    w->nmxy = 0;
    *minx = INFINITY;
    *maxx = -INFINITY;
    int rc = swx_danger_grow((void **)&w->mlen, &w->cmlen, nrings + 1, sizeof(size_t));
    if (rc)
        return rc;
    const double *p = xy;
    for (size_t k = 0; k < nrings; p += 2 * ring_len[k], k++) {
        size_t n = ring_len[k];
        need = 1;
        for (size_t i = 0; i < n; i++) {
            const double *a = p + 2 * i, *b = p + 2 * ((i + 1) % n);
            need += 1 + swx_danger_edge_steps(hypot(b[0] - a[0], b[1] - a[1]));
        }
        if ((rc = swx_danger_grow((void **)&w->mxy, &w->cmxy, w->nmxy + need, 2 * sizeof(double))))
            return rc;
        double *o = w->mxy + 2 * w->nmxy, last = ref;
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            const double *a = p + 2 * i, *b = p + 2 * ((i + 1) % n);
            size_t steps = 1 + swx_danger_edge_steps(hypot(b[0] - a[0], b[1] - a[1]));
            for (size_t s = 0; s < steps; s++) {
                double f = (double)s / (double)steps, v[3], lon, lat;
                double x = a[0] + (b[0] - a[0]) * f, y = a[1] + (b[1] - a[1]) * f;
                for (int j = 0; j < 3; j++)
                    v[j] = pf->u[j] + x * pf->e[j] + y * pf->n[j];
                swx_storm_from_vec(&lon, &lat, v);
                lon += 360.0 * floor((last - lon + 180) / 360.0);
                last = lon;
                o[2 * m] = lon;
                o[2 * m + 1] = lat;
                *minx = fmin(*minx, lon);
                *maxx = fmax(*maxx, lon);
                m++;
            }
        }
        o[2 * m] = o[0];
        o[2 * m + 1] = o[1];
        m++;
        w->mlen[k] = m;
        w->nmxy += m;
    }
    return 0;
}

/* The rings of w->mxy (npolys polygons of poly_rings[i] rings) as GEOS
 * polygons, cut at the antimeridian into the output. */
static int cut_rings(swx_danger_ws *w, size_t npolys, const size_t *poly_rings)
{
    int rc = 0;
    size_t most = 1;
    for (size_t i = 0; i < npolys; i++)
        most = poly_rings[i] > most ? poly_rings[i] : most;
    GEOSGeometry **polys = calloc(npolys + 1, sizeof *polys), *mp = NULL;
    GEOSGeometry **rings = malloc(most * sizeof *rings);
    size_t k = 0, at = 0;
    if (!polys || !rings) {
        free(polys);
        free(rings);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < npolys && !rc; i++) {
        size_t nr = poly_rings[i];
        size_t made = 0;
        for (; made < nr; made++) {
            GEOSCoordSequence *cs =
                GEOSCoordSeq_copyFromBuffer_r(w->geos, w->mxy + 2 * at, w->mlen[k], 0, 0);
            at += w->mlen[k++];
            if (!cs || !(rings[made] = GEOSGeom_createLinearRing_r(w->geos, cs))) {
                if (cs)
                    GEOSCoordSeq_destroy_r(w->geos, cs);
                break;
            }
        }
        if (made == nr &&
            (polys[i] = GEOSGeom_createPolygon_r(w->geos, rings[0], rings + 1, (unsigned)nr - 1)))
            continue;
        for (size_t r = 0; r < made; r++)
            GEOSGeom_destroy_r(w->geos, rings[r]);
        rc = swx_error_set(SWX_ENOMEM, "the geometry engine could not build a polygon");
    }
    if (!rc &&
        !(mp = GEOSGeom_createCollection_r(w->geos, GEOS_MULTIPOLYGON, polys, (unsigned)npolys)))
        rc = swx_error_set(SWX_ENOMEM, "the geometry engine could not collect the polygons");
    if (mp) {
        rc = swx_danger_cut_output(w, mp);
        GEOSGeom_destroy_r(w->geos, mp);
    } else {
        for (size_t i = 0; i < npolys; i++)
            if (polys[i])
                GEOSGeom_destroy_r(w->geos, polys[i]);
    }
    free(polys);
    free(rings);
    return rc;
}

/* The cosine of the angle between the centres of frames f[0] and f[1]. */
static inline double link_cos(const struct frame *f)
{
    return f[0].u[0] * f[1].u[0] + f[0].u[1] * f[1].u[1] + f[0].u[2] * f[1].u[2];
}

/* The chain of chain() (danger_chain.c), merged in one plane; *done 0 when
 * the chain is not for this method (GEOS merges it then). */
int swx_danger_fast_chain(swx_danger_ws *w, const double *c, const double *r, size_t n, int nq,
                          int *done)
{
    *done = 0;
    double m[3] = {0, 0, 0}, v[3], rmax = 0;
    for (size_t i = 0; i < n; i++) {
        swx_storm_to_vec(v, c[2 * i], c[2 * i + 1]);
        for (int k = 0; k < 3; k++)
            m[k] += v[k];
    }
    for (size_t i = 0; i < n * (size_t)nq; i++)
        rmax = fmax(rmax, r[i]);
    double len = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
    if (!(len > 1e-9) || rmax * SWX_NM_M / SWX_EARTH_RADIUS_M > FAST_MAX_RADIUS_DEG * DEG)
        return 0;
    double clon, clat, far = cos(FAST_MAX_DEG * DEG);
    for (int k = 0; k < 3; k++)
        m[k] /= len;
    swx_storm_from_vec(&clon, &clat, m);
    clon += 360.0 * floor((c[0] - clon + 180) / 360.0);
    struct frame pf;
    swx_danger_frame_at(&pf, clon, clat);
    for (size_t i = 0; i < n; i++) {
        swx_storm_to_vec(v, c[2 * i], c[2 * i + 1]);
        if (v[0] * pf.u[0] + v[1] * pf.u[1] + v[2] * pf.u[2] < far)
            return 0;
    }
    swx_cu_reset(w->cu);
    double bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
    int rc = swx_danger_grow((void **)&w->fr, &w->cfr, n, sizeof *w->fr);
    if (!rc)
        rc = swx_danger_grow((void **)&w->soff, &w->csoff, n + 1, sizeof(size_t));
    if (!rc)
        rc = swx_danger_grow((void **)&w->sp, &w->csp, n * (CIRCLE_STEPS + 2), 2 * sizeof(double));
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++)
        swx_danger_frame_at(&w->fr[i], c[2 * i], c[2 * i + 1]);
    const double cos_link_max = cos(LINK_MAX_DEG * DEG);
    for (int qi = 0; qi < nq && !rc; qi++) {
        int q = nq == 1 ? -1 : qi;
        /* each fix's shape, projected once, in order by x then y */
        w->soff[0] = 0;
        for (size_t i = 0; i < n && !rc; i++) {
            w->npts = 0;
            rc = swx_danger_put_shape(w, &w->fr[i], &pf, q, r[i * nq + qi]);
            double *out = w->sp + 2 * w->soff[i];
            if (!rc && !swx_danger_shape_sorted(out, w->pts, w->npts)) {
                rc = swx_danger_grow((void **)&w->hull, &w->chull, w->npts, 2 * sizeof(double));
                if (!rc) {
                    swx_danger_sort_xy(w->pts, w->hull, w->npts);
                    memcpy(out, w->pts, w->npts * 2 * sizeof(double));
                }
            }
            w->soff[i + 1] = w->soff[i] + w->npts;
        }
        for (size_t i = 0; (i + 1 < n || (n == 1 && i == 0)) && !rc; i++) {
            size_t nh;
            const double *b = i + 1 < n ? c + 2 * i + 2 : NULL;
            double ra = r[i * nq + qi], rb = b ? r[(i + 1) * nq + qi] : 0;
            if (b ? (!(ra > 0) && !(rb > 0)) || link_cos(w->fr + i) < cos_link_max : !(ra > 0))
                continue;
            const double *sa = w->sp + 2 * w->soff[i];
            size_t na = w->soff[i + 1] - w->soff[i], nb = b ? w->soff[i + 2] - w->soff[i + 1] : 0;
            if ((rc = swx_danger_merge_sorted(w, sa, na, sa + 2 * na, nb)) ||
                (rc = swx_danger_monotone_hull(w, &nh, 1)) || nh < 3)
                continue;
            for (size_t k = 0; k < nh; k++) {
                const double *p = w->hull + 2 * k;
                bx0 = p[0] < bx0 ? p[0] : bx0;
                bx1 = p[0] > bx1 ? p[0] : bx1;
                by0 = p[1] < by0 ? p[1] : by0;
                by1 = p[1] > by1 ? p[1] : by1;
            }
            rc = swx_cu_add(w->cu, w->hull, nh);
        }
    }
    if (rc)
        return rc;
    /* A pole inside: its ring in longitude and latitude would not be simple
     * (GEOS's way leaves such a hull out). */
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        double du = sgn * pf.u[2];
        if (du > 1e-9) {
            double px = sgn * pf.e[2] / du, py = sgn * pf.n[2] / du;
            if (px >= bx0 && px <= bx1 && py >= by0 && py <= by1)
                return 0;
        }
    }
    size_t npolys;
    const size_t *poly_rings, *ring_len;
    const double *xy;
    rc = swx_cu_union(w->cu, &npolys, &poly_rings, &ring_len, &xy);
    if (rc == 1) {
        swx_error_clear();
        w->fallbacks++;
        return 0;
    }
    if (rc)
        return rc;
    *done = 1;
    swx_danger_out_reset(w);
    size_t nrings = 0;
    for (size_t i = 0; i < npolys; i++)
        nrings += poly_rings[i];
    double minx, maxx;
    if ((rc = rings_to_sphere(w, &pf, nrings, ring_len, xy, clon, &minx, &maxx)) || !nrings)
        return rc;
    int j0, j1;
    swx_danger_bands(&j0, &j1, minx, maxx);
    if (j0 != j1)
        return cut_rings(w, npolys, poly_rings);
    const double *ring = w->mxy;
    size_t k = 0;
    for (size_t i = 0; i < npolys && !rc; i++) {
        int kept;
        size_t nr = 0;
        if ((rc = swx_danger_grow((void **)&w->rings, &w->rcap, w->nrings + 1, sizeof(size_t))))
            break;
        for (size_t h = 0; h < poly_rings[i] && !rc; h++, k++) {
            if (h == 0 || nr) {
                rc = swx_danger_out_ring(w, ring, w->mlen[k], 360.0 * j0, h > 0, &kept);
                nr += (size_t)kept;
            }
            ring += 2 * w->mlen[k];
        }
        if (nr)
            w->rings[w->nrings++] = nr;
    }
    return rc;
}

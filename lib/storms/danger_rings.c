/* danger_rings.c: the output rings of the danger products: merged polygons
 * rounded to 1e-6 degree, outer rings counter-clockwise and holes clockwise,
 * cut at the antimeridian into the bands of longitude they touch (RFC 7946);
 * the GEOS union of a chain's link hulls. */
#include "danger_geometry_int.h"

#include "seawx/error.h"

static inline double r6(double v)
{
    double r = nearbyint(v * 1e6) / 1e6;
    return r == 0 ? 0 : r;
}

void swx_danger_out_reset(swx_danger_ws *w)
{
    w->n = w->nparts = w->nrings = 0;
}

/* Adds a ring of n pairs (closed), shifted by -shift in longitude, rounded
 * and deduplicated; outer rings counter-clockwise, holes clockwise. Returns
 * 1 when kept, 0 when it degenerated. */
int swx_danger_out_ring(swx_danger_ws *w, const double *r, size_t n, double shift, int hole,
                        int *kept)
{
    *kept = 0;
    int rc = swx_danger_grow((void **)&w->xy, &w->cap, w->n + n, 2 * sizeof(double));
    if (!rc)
        rc = swx_danger_grow((void **)&w->parts, &w->pcap, w->nparts + 1, sizeof(size_t));
    if (rc)
        return rc;
    double *p = w->xy + 2 * w->n;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        double x = r6(r[2 * i] - shift), y = r6(r[2 * i + 1]);
        if (x > 180)
            x = 180;
        if (x < -180)
            x = -180;
        if (k && p[2 * k - 2] == x && p[2 * k - 1] == y)
            continue;
        p[2 * k] = x;
        p[2 * k + 1] = y;
        k++;
    }
    if (k < 4 || p[0] != p[2 * k - 2] || p[1] != p[2 * k - 1])
        return 0;
    double a = 0;
    for (size_t i = 0; i + 1 < k; i++)
        a += p[2 * i] * p[2 * i + 3] - p[2 * i + 2] * p[2 * i + 1];
    if (a == 0)
        return 0;
    if ((a < 0) != (hole != 0))
        swx_ring_reverse(p, k);
    w->parts[w->nparts++] = k;
    w->n += k;
    *kept = 1;
    return 0;
}

static int ring_of(swx_danger_ws *w, const GEOSGeometry *ring, double shift, int hole, int *kept)
{
    const GEOSCoordSequence *cs = GEOSGeom_getCoordSeq_r(w->geos, ring);
    unsigned int n = 0;
    *kept = 0;
    if (!cs || !GEOSCoordSeq_getSize_r(w->geos, cs, &n))
        return swx_error_set(SWX_ENOMEM, "the geometry engine failed");
    int rc = swx_danger_grow((void **)&w->ring, &w->cring, n + 1, 2 * sizeof(double));
    if (rc)
        return rc;
    if (n && !GEOSCoordSeq_copyToBuffer_r(w->geos, cs, w->ring, 0, 0))
        return swx_error_set(SWX_ENOMEM, "the geometry engine failed");
    return swx_danger_out_ring(w, w->ring, n, shift, hole, kept);
}

/* The polygons of g (a Polygon or a collection of them) into the output. */
static int out_polygons(swx_danger_ws *w, const GEOSGeometry *g, double shift)
{
    int type = GEOSGeomTypeId_r(w->geos, g);
    if (type == GEOS_MULTIPOLYGON || type == GEOS_GEOMETRYCOLLECTION) {
        int k = GEOSGetNumGeometries_r(w->geos, g);
        for (int i = 0; i < k; i++) {
            int rc = out_polygons(w, GEOSGetGeometryN_r(w->geos, g, i), shift);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (type != GEOS_POLYGON || GEOSisEmpty_r(w->geos, g) == 1)
        return 0;
    int kept, rc = swx_danger_grow((void **)&w->rings, &w->rcap, w->nrings + 1, sizeof(size_t));
    if (!rc)
        rc = ring_of(w, GEOSGetExteriorRing_r(w->geos, g), shift, 0, &kept);
    if (rc || !kept)
        return rc;
    size_t nr = 1;
    int holes = GEOSGetNumInteriorRings_r(w->geos, g);
    for (int i = 0; i < holes; i++) {
        if ((rc = ring_of(w, GEOSGetInteriorRingN_r(w->geos, g, i), shift, 1, &kept)))
            return rc;
        nr += (size_t)kept;
    }
    w->rings[w->nrings++] = nr;
    return 0;
}

/* The bands of longitude [-180, 180] + 360 j, j0 <= j <= j1, that minx..maxx
 * (unwrapped) touches. */
void swx_danger_bands(int *j0, int *j1, double minx, double maxx)
{
    *j0 = (int)floor((minx + 180) / 360);
    *j1 = (int)floor((maxx + 180) / 360);
    if (maxx == 180.0 + 360.0 * *j1 && *j1 > *j0)
        (*j1)--;
}

/* The merged polygons u (longitudes unwrapped) into the output, cut at the
 * antimeridian into the bands they touch. */
int swx_danger_cut_output(swx_danger_ws *w, const GEOSGeometry *u)
{
    double minx, maxx;
    if (!GEOSGeom_getXMin_r(w->geos, u, &minx) || !GEOSGeom_getXMax_r(w->geos, u, &maxx))
        return 0; /* empty */
    int j0, j1, rc = 0;
    swx_danger_bands(&j0, &j1, minx, maxx);
    if (j0 == j1)
        return out_polygons(w, u, 360.0 * j0);
    for (int j = j0; j <= j1 && !rc; j++) {
        GEOSGeometry *c = GEOSClipByRect_r(w->geos, u, -180 + 360.0 * j, -90, 180 + 360.0 * j, 90);
        if (!c)
            return swx_error_set(SWX_ENOMEM, "the geometry engine could not cut at 180 degrees");
        rc = out_polygons(w, c, 360.0 * j);
        GEOSGeom_destroy_r(w->geos, c);
    }
    return rc;
}

/* Unions the links gathered and cuts the union at the antimeridian. */
int swx_danger_finish_union(swx_danger_ws *w)
{
    int rc = 0;
    GEOSGeometry *coll = NULL, *u = NULL;
    swx_danger_out_reset(w);
    if (!w->npolys)
        return 0;
    coll = GEOSGeom_createCollection_r(w->geos, GEOS_GEOMETRYCOLLECTION, w->polys,
                                       (unsigned)w->npolys);
    if (!coll) {
        rc = swx_error_set(SWX_ENOMEM, "the geometry engine could not collect the polygons");
        goto done;
    }
    w->npolys = 0; /* coll owns them */
    /* Hulls are valid by construction; should the engine still trip on a
     * near-degenerate one, merging on the output's 1e-6 degree grid settles it. */
    if ((u = GEOSUnaryUnion_r(w->geos, coll)) || (u = GEOSUnaryUnionPrec_r(w->geos, coll, 1e-6)))
        rc = swx_danger_cut_output(w, u);
    /* else no geometry rather than a wrong one */
done:
    if (u)
        GEOSGeom_destroy_r(w->geos, u);
    if (coll)
        GEOSGeom_destroy_r(w->geos, coll);
    swx_danger_drop_polys(w);
    return rc;
}

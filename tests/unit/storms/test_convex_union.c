/* test_convex_union.c: the union of convex polygons in a plane
 * (lib/storms/convex_union.c) against figures worked out by hand and against
 * GEOS: shared and collinear edges, holes, polygons inside others, parts
 * and holes that touch at a point, and random chains of link hulls like a
 * swath's, loops and all, whose union must equal GEOS's to 1e-9 of its area. */
#define GEOS_USE_ONLY_R_API
#include "convex_union.h"
#include "cu_support.h"

#include <geos_c.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double ring_area(const double *p, size_t n)
{
    double a = 0;
    for (size_t i = 0, j = n - 1; i < n; j = i++)
        a += p[2 * j] * p[2 * i + 1] - p[2 * i] * p[2 * j + 1];
    return a / 2;
}

/* Area of the union (holes subtract), and its polygon and ring counts. */
static int union_of(swx_cu *u, double *area, size_t *npolys, size_t *nrings)
{
    const size_t *pr, *rl;
    const double *xy;
    int rc = swx_cu_union(u, npolys, &pr, &rl, &xy);
    *area = 0;
    *nrings = 0;
    for (size_t i = 0; i < *npolys; i++)
        for (size_t k = 0; k < pr[i]; k++) {
            double a = ring_area(xy, rl[*nrings]);
            /* outer rings counter-clockwise, holes clockwise */
            CU_ASSERT((k == 0) == (a > 0));
            *area += a;
            xy += 2 * rl[(*nrings)++];
        }
    return rc;
}

static void square(swx_cu *u, double x, double y, double s)
{
    double p[8] = {x, y, x + s, y, x + s, y + s, x, y + s};
    CU_ASSERT_EQUAL(swx_cu_add(u, p, 4), 0);
}

static void test_by_hand(void)
{
    swx_cu *u = NULL;
    double area;
    size_t np, nr;
    CU_ASSERT_EQUAL_FATAL(swx_cu_new(&u), 0);

    /* Two unit squares overlapping by a quarter: 1.75. */
    square(u, 0, 0, 1);
    square(u, 0.5, 0.5, 1);
    CU_ASSERT_EQUAL(union_of(u, &area, &np, &nr), 0);
    CU_ASSERT_DOUBLE_EQUAL(area, 1.75, 1e-12);
    CU_ASSERT_EQUAL(np, 1);
    CU_ASSERT_EQUAL(nr, 1);

    /* Side by side, one edge shared the other way round: one rectangle. */
    swx_cu_reset(u);
    square(u, 0, 0, 1);
    square(u, 1, 0, 1);
    CU_ASSERT_EQUAL(union_of(u, &area, &np, &nr), 0);
    CU_ASSERT_DOUBLE_EQUAL(area, 2, 1e-12);
    CU_ASSERT_EQUAL(np, 1);

    /* The same square twice, and one inside another: the outer one. */
    swx_cu_reset(u);
    square(u, 0, 0, 2);
    square(u, 0, 0, 2);
    square(u, 0.5, 0.5, 1);
    square(u, 0, 0, 1); /* two edges on the big one's, same way round */
    CU_ASSERT_EQUAL(union_of(u, &area, &np, &nr), 0);
    CU_ASSERT_DOUBLE_EQUAL(area, 4, 1e-12);
    CU_ASSERT_EQUAL(nr, 1);

    /* Apart: two polygons. */
    swx_cu_reset(u);
    square(u, 0, 0, 1);
    square(u, 3, 0, 1);
    CU_ASSERT_EQUAL(union_of(u, &area, &np, &nr), 0);
    CU_ASSERT_DOUBLE_EQUAL(area, 2, 1e-12);
    CU_ASSERT_EQUAL(np, 2);

    /* Eight squares around a ninth left out: one polygon with a hole. */
    swx_cu_reset(u);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (i != 1 || j != 1)
                square(u, i, j, 1.0001);
    CU_ASSERT_EQUAL(union_of(u, &area, &np, &nr), 0);
    CU_ASSERT_EQUAL(np, 1);
    CU_ASSERT_EQUAL(nr, 2);
    CU_ASSERT_DOUBLE_EQUAL(area, 3.0001 * 3.0001 - 0.9999 * 0.9999, 1e-9);

    /* Corners touching: two polygons, each ring simple. */
    swx_cu_reset(u);
    square(u, 0, 0, 1);
    square(u, 1, 1, 1);
    CU_ASSERT_EQUAL(union_of(u, &area, &np, &nr), 0);
    CU_ASSERT_EQUAL(np, 2);
    CU_ASSERT_EQUAL(nr, 2);
    CU_ASSERT_DOUBLE_EQUAL(area, 2, 1e-12);

    /* Seven squares around the middle one, the last two touching only at a
     * corner: one polygon whose hole touches its outer ring at that point. */
    swx_cu_reset(u);
    static const int cells[7][2] = {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {0, 1}, {0, 2}, {1, 2}};
    for (int i = 0; i < 7; i++)
        square(u, cells[i][0], cells[i][1], 1);
    CU_ASSERT_EQUAL(union_of(u, &area, &np, &nr), 0);
    CU_ASSERT_EQUAL(np, 1);
    CU_ASSERT_EQUAL(nr, 2);
    CU_ASSERT_DOUBLE_EQUAL(area, 7, 1e-12);

    /* Nothing: nothing. A triangle with a vertex on another's edge. */
    swx_cu_reset(u);
    CU_ASSERT_EQUAL(union_of(u, &area, &np, &nr), 0);
    CU_ASSERT_EQUAL(np, 0);
    double t1[6] = {0, 0, 2, 0, 1, 1}, t2[6] = {1, 0, 2, -1, 3, 0.5};
    CU_ASSERT_EQUAL(swx_cu_add(u, t1, 3), 0);
    CU_ASSERT_EQUAL(swx_cu_add(u, t2, 3), 0);
    CU_ASSERT_EQUAL(union_of(u, &area, &np, &nr), 0);
    CU_ASSERT_EQUAL(np, 1);
    swx_cu_free(u);
}

/* ---- random chains against GEOS ---- */

static unsigned long long rng = 88172645463325252ULL;
static double rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static int by_xy(const void *a, const void *b)
{
    const double *p = a, *q = b;
    return p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : p[1] < q[1] ? -1 : p[1] > q[1];
}

/* Counter-clockwise hull of n points (Andrew), into h; returns its size. */
static size_t hull(double *pts, size_t n, double *h)
{
    qsort(pts, n, 2 * sizeof(double), by_xy);
    size_t k = 0;
    for (size_t pass = 0; pass < 2; pass++) {
        size_t t = k + 1;
        for (size_t m = 0; m < n; m++) {
            const double *p = pts + 2 * (pass ? n - 1 - m : m);
            while (k >= (pass ? t : 2)) {
                const double *o = h + 2 * (k - 2), *a = h + 2 * (k - 1);
                if ((a[0] - o[0]) * (p[1] - o[1]) - (a[1] - o[1]) * (p[0] - o[0]) > 0)
                    break;
                k--;
            }
            h[2 * k] = p[0];
            h[2 * k + 1] = p[1];
            k++;
        }
    }
    return k - 1;
}

/* A sector (quadrant q >= 0) or circle (q < 0) of radius r at (x, y). */
static size_t shape(double *p, double x, double y, double r, int q)
{
    size_t n = 0;
    int steps = q < 0 ? 36 : 9;
    if (q >= 0 || r <= 0) {
        p[2 * n] = x;
        p[2 * n + 1] = y;
        n++;
    }
    if (r <= 0)
        return n;
    for (int k = 0; k <= steps - (q < 0); k++) {
        double b = (q < 0 ? 0 : q * M_PI / 2) + k * (q < 0 ? 2 * M_PI : M_PI / 2) / steps;
        p[2 * n] = x + r * cos(b);
        p[2 * n + 1] = y + r * sin(b);
        n++;
    }
    return n;
}

static GEOSGeometry *geos_poly(GEOSContextHandle_t g, const double *p, size_t n)
{
    double *c = malloc((n + 1) * 2 * sizeof(double));
    memcpy(c, p, n * 2 * sizeof(double));
    c[2 * n] = p[0];
    c[2 * n + 1] = p[1];
    GEOSCoordSequence *cs = GEOSCoordSeq_copyFromBuffer_r(g, c, n + 1, 0, 0);
    free(c);
    return GEOSGeom_createLinearRing_r(g, cs);
}

static void test_chains_against_geos(void)
{
    GEOSContextHandle_t g = GEOS_init_r();
    swx_cu *u = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_cu_new(&u), 0);
    int traced = 0, chains = 300, bad = 0;
    for (int c = 0; c < chains; c++) {
        swx_cu_reset(u);
        size_t n = 2 + (size_t)(rnd() * 40), npoly = 0;
        int nq = c % 3 == 0 ? 1 : 4;
        double x[64], y[64], r[64][4];
        x[0] = rnd() * 0.1;
        y[0] = rnd() * 0.1;
        double heading = rnd() * 2 * M_PI, turn = (rnd() - 0.5) * 0.8;
        for (size_t i = 0; i < n; i++) {
            if (i) {
                heading += turn + (rnd() - 0.5) * 0.3;
                double step = 0.005 + rnd() * 0.02;
                x[i] = x[i - 1] + step * cos(heading);
                y[i] = y[i - 1] + step * sin(heading);
            }
            for (int q = 0; q < 4; q++)
                r[i][q] = rnd() < 0.15 ? 0 : 0.005 + rnd() * 0.03;
        }
        GEOSGeometry *polys[256];
        for (int qi = 0; qi < nq; qi++)
            for (size_t i = 0; i + 1 < n; i++) {
                double pts[2 * 80], h[2 * 84];
                size_t m = shape(pts, x[i], y[i], r[i][qi], nq == 1 ? -1 : qi);
                m += shape(pts + 2 * m, x[i + 1], y[i + 1], r[i + 1][qi], nq == 1 ? -1 : qi);
                size_t nh = hull(pts, m, h);
                if (nh < 3)
                    continue;
                CU_ASSERT_EQUAL(swx_cu_add(u, h, nh), 0);
                polys[npoly++] = GEOSGeom_createPolygon_r(g, geos_poly(g, h, nh), NULL, 0);
            }
        const size_t *pr, *rl;
        const double *xy;
        size_t np;
        int rc = swx_cu_union(u, &np, &pr, &rl, &xy);
        CU_ASSERT(rc == 0 || rc == 1);
        GEOSGeometry *coll =
            GEOSGeom_createCollection_r(g, GEOS_GEOMETRYCOLLECTION, polys, (unsigned)npoly);
        GEOSGeometry *want = GEOSUnaryUnion_r(g, coll);
        if (rc == 0) {
            traced++;
            GEOSGeometry *got[256];
            size_t k = 0;
            for (size_t i = 0; i < np; i++) {
                GEOSGeometry *holes[64];
                GEOSGeometry *shell = geos_poly(g, xy, rl[k]);
                xy += 2 * rl[k++];
                for (size_t h = 1; h < pr[i]; h++) {
                    holes[h - 1] = geos_poly(g, xy, rl[k]);
                    xy += 2 * rl[k++];
                }
                got[i] = GEOSGeom_createPolygon_r(g, shell, holes, (unsigned)pr[i] - 1);
            }
            GEOSGeometry *mp = GEOSGeom_createCollection_r(g, GEOS_MULTIPOLYGON, got, (unsigned)np);
            char valid = GEOSisValid_r(g, mp);
            GEOSGeometry *diff = GEOSSymDifference_r(g, mp, want);
            double a_diff = 0, a_want = 0;
            GEOSArea_r(g, diff, &a_diff);
            GEOSArea_r(g, want, &a_want);
            if (valid != 1 || !(a_diff <= 1e-9 * a_want)) {
                bad++;
                char *why = GEOSisValidReason_r(g, mp);
                fprintf(stderr, "chain %d: %s, difference %.3g of %.3g, %zu polygons\n", c, why,
                        a_diff, a_want, np);
                GEOSFree_r(g, why);
            }
            GEOSGeom_destroy_r(g, diff);
            GEOSGeom_destroy_r(g, mp);
        }
        GEOSGeom_destroy_r(g, want);
        GEOSGeom_destroy_r(g, coll);
    }
    CU_ASSERT_EQUAL(bad, 0);
    /* Handing back is for the rare touching case, not the common one. */
    fprintf(stderr, "%d of %d random chains traced\n", traced, chains);
    CU_ASSERT(traced >= chains * 95 / 100);
    swx_cu_free(u);
    GEOS_finish_r(g);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("convex_union", NULL, NULL);
    CU_add_test(s, "unions worked out by hand", test_by_hand);
    CU_add_test(s, "random chains of link hulls equal GEOS's union", test_chains_against_geos);
    return cu_run();
}

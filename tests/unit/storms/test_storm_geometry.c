/* test_storm_geometry.c: the geometry of storm features (storm_geometry.c):
 * points, lines, antimeridian cuts, counter-clockwise radii rings that reach
 * the radius, counts. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/storm.h"
#include "seawx/storm_geojson.h"
#include "storm_feature.h"
#include "storm_priv.h"

#include <CUnit/CUnit.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static swx_storm_list edge, nulls;

static int load(const char *rel, swx_storm_list *l)
{
    return swx_storm_read_file(cu_fixture_path(rel), swx_storm_list_add, l);
}

static int setup(void)
{
    return load("storms/edge.json", &edge) || load("storms/nulls.json", &nulls);
}

static int teardown(void)
{
    swx_storm_list_clear(&edge);
    swx_storm_list_clear(&nulls);
    return 0;
}

/* What the features of one storm look like, gathered by a callback. */
struct seen {
    size_t count[SWX_SK_COUNT];
    size_t multi[SWX_SK_COUNT];
    size_t bad_ring, bad_coord, one_point_line, empty;
    size_t nonfinite_value;
    double max_ring_area;
};

static double ring_area(const double *xy, size_t n)
{
    double a = 0;
    for (size_t i = 0; i + 1 < n; i++)
        a += xy[2 * i] * xy[2 * i + 3] - xy[2 * i + 2] * xy[2 * i + 1];
    return a / 2;
}

static int observe(void *ud, const swx_storm_feature *f)
{
    struct seen *s = ud;
    s->count[f->kind]++;
    if (f->geom == SWX_GEOM_MULTILINESTRING || f->geom == SWX_GEOM_MULTIPOLYGON)
        s->multi[f->kind]++;
    const double *xy = f->xy;
    for (size_t p = 0; p < f->nparts; p++) {
        size_t n = f->part_len[p];
        if (n == 0)
            s->empty++;
        if ((f->geom == SWX_GEOM_LINESTRING || f->geom == SWX_GEOM_MULTILINESTRING) && n < 2)
            s->one_point_line++;
        for (size_t i = 0; i < n; i++) {
            double x = xy[2 * i], y = xy[2 * i + 1];
            /* in range, and no more than 6 decimals */
            if (!isfinite(x) || !isfinite(y) || x < -180 || x > 180 || y < -90 || y > 90 ||
                fabs(x * 1e6 - nearbyint(x * 1e6)) > 1e-6 ||
                fabs(y * 1e6 - nearbyint(y * 1e6)) > 1e-6)
                s->bad_coord++;
            if (i && xy[2 * i] == xy[2 * i - 2] && xy[2 * i + 1] == xy[2 * i - 1])
                s->bad_coord++; /* repeated position */
        }
        if (f->geom == SWX_GEOM_POLYGON || f->geom == SWX_GEOM_MULTIPOLYGON) {
            double a = ring_area(xy, n);
            if (n < 4 || xy[0] != xy[2 * n - 2] || xy[1] != xy[2 * n - 1] || !(a > 0))
                s->bad_ring++;
            if (a > s->max_ring_area)
                s->max_ring_area = a;
        }
        xy += 2 * n;
    }
    const swx_storm_field *tab;
    size_t nf = swx_storm_fields(&tab, f->kind);
    for (size_t i = 0; i < nf; i++) {
        swx_storm_value v;
        swx_storm_feature_value(&v, f, i);
        if (!v.null && tab[i].type == SWX_SF_REAL && !isfinite(v.d))
            s->nonfinite_value++;
    }
    return 0;
}

static void features_of(const swx_storm *st, struct seen *s)
{
    swx_storm_geo *g = NULL;
    memset(s, 0, sizeof *s);
    CU_ASSERT_EQUAL_FATAL(swx_storm_geo_new(&g), 0);
    CU_ASSERT_EQUAL(swx_storm_features(g, st, SWX_SK_ALL, observe, s), 0);
    swx_storm_geo_free(g);
    for (int k = 0; k < SWX_SK_COUNT; k++)
        CU_ASSERT_EQUAL(s->count[k], swx_storm_feature_count(st, k));
    CU_ASSERT_EQUAL(s->bad_ring, 0);
    CU_ASSERT_EQUAL(s->bad_coord, 0);
    CU_ASSERT_EQUAL(s->one_point_line, 0);
    CU_ASSERT_EQUAL(s->empty, 0);
    CU_ASSERT_EQUAL(s->nonfinite_value, 0);
}

static void test_hurricane(void)
{
    struct seen s;
    features_of(edge.items[0], &s);
    CU_ASSERT_EQUAL(s.count[SWX_SK_STORM], 1);
    CU_ASSERT_EQUAL(s.count[SWX_SK_TRACK_POINT], 12);
    CU_ASSERT_EQUAL(s.count[SWX_SK_FORECAST_POINT], 8);
    CU_ASSERT_EQUAL(s.count[SWX_SK_FORECAST_LINE], 1);
    CU_ASSERT_TRUE(s.count[SWX_SK_WIND_RADII] > 20);
    CU_ASSERT_EQUAL(s.multi[SWX_SK_STORM] + s.multi[SWX_SK_WIND_RADII], 0);
}

static void test_antimeridian(void)
{
    struct seen s;
    features_of(edge.items[1], &s); /* TAKARA: east across 180 */
    CU_ASSERT_EQUAL(s.multi[SWX_SK_STORM], 1);
    CU_ASSERT_TRUE(s.multi[SWX_SK_WIND_RADII] >= 1);
    features_of(edge.items[4], &s); /* VAIANA: west across 180 */
    CU_ASSERT_EQUAL(s.multi[SWX_SK_STORM], 1);
    CU_ASSERT_EQUAL(s.multi[SWX_SK_FORECAST_LINE], 0);
}

/* The cut line meets the meridian at the same latitude on both sides. */
static int check_cut(void *ud, const swx_storm_feature *f)
{
    int *ok = ud;
    if (f->kind != SWX_SK_STORM)
        return 0;
    *ok = f->geom == SWX_GEOM_MULTILINESTRING && f->nparts == 2;
    if (!*ok)
        return 0;
    size_t n0 = f->part_len[0];
    const double *end0 = f->xy + 2 * (n0 - 1), *start1 = f->xy + 2 * n0;
    *ok = end0[0] == 180 && start1[0] == -180 && end0[1] == start1[1] &&
          end0[1] > f->xy[2 * n0 - 3] && end0[1] < start1[3];
    return 0;
}

static void test_cut_point(void)
{
    swx_storm_geo *g = NULL;
    int ok = 0;
    CU_ASSERT_EQUAL_FATAL(swx_storm_geo_new(&g), 0);
    CU_ASSERT_EQUAL(swx_storm_features(g, edge.items[1], 1u << SWX_SK_STORM, check_cut, &ok), 0);
    CU_ASSERT_TRUE(ok);
    swx_storm_geo_free(g);
}

static void test_inactive_and_single(void)
{
    struct seen s;
    features_of(edge.items[2], &s); /* OTILDA: no forecast */
    CU_ASSERT_EQUAL(s.count[SWX_SK_FORECAST_POINT], 0);
    CU_ASSERT_EQUAL(s.count[SWX_SK_FORECAST_LINE], 0);
    CU_ASSERT_EQUAL(s.count[SWX_SK_TRACK_POINT], 20);
    features_of(edge.items[3], &s); /* the unnamed depression: one position */
    CU_ASSERT_EQUAL(s.count[SWX_SK_STORM], 1);
    CU_ASSERT_EQUAL(s.count[SWX_SK_WIND_RADII], 0);
    CU_ASSERT_EQUAL(s.count[SWX_SK_FORECAST_LINE], 0);
    features_of(nulls.items[0], &s); /* radii all zero: no polygon */
    CU_ASSERT_EQUAL(s.count[SWX_SK_WIND_RADII], 0);
}

/* Radii: the 34 kt polygon of a position with ne = 100 NM reaches about
 * 100 NM (1.667 degrees of latitude) north of the centre. */
static int radii_extent(void *ud, const swx_storm_feature *f)
{
    double *out = ud;
    if (f->kind != SWX_SK_WIND_RADII || f->threshold != SWX_STORM_R34 || out[0] != 0)
        return 0;
    double maxy = -90;
    for (size_t i = 0; i < f->part_len[0]; i++)
        if (f->xy[2 * i + 1] > maxy)
            maxy = f->xy[2 * i + 1];
    out[0] = maxy - f->pos->lat;
    out[1] = f->pos->radii[SWX_STORM_R34].r[0];
    out[2] = f->pos->radii[SWX_STORM_R34].r[3];
    return 0;
}

static void test_radii_size(void)
{
    double got[3] = {0};
    swx_storm_geo *g = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_geo_new(&g), 0);
    CU_ASSERT_EQUAL(
        swx_storm_features(g, edge.items[0], 1u << SWX_SK_WIND_RADII, radii_extent, got), 0);
    swx_storm_geo_free(g);
    /* North is reached at bearing 0 (ne arc start) and 360 (nw arc end). */
    double want = fmax(got[1], got[2]) * 1852.0 / 6371008.8 * 180 / M_PI;
    CU_ASSERT_DOUBLE_EQUAL(got[0], want, 1e-4);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("storm_geometry", setup, teardown);
    CU_add_test(s, "hurricane: every kind, counts match", test_hurricane);
    CU_add_test(s, "tracks and radii across 180 are cut", test_antimeridian);
    CU_add_test(s, "the cut meets the meridian on both sides", test_cut_point);
    CU_add_test(s, "inactive, single-position and zero-radii storms", test_inactive_and_single);
    CU_add_test(s, "radii polygons reach the radius", test_radii_size);
    return cu_run();
}

/* test_storm_feature.c: the rows of the storm kinds (lib/storms/storm_feature.c)
 * that the writer, the driver, the .qlr and the packages read. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/storm_geojson.h"
#include "storm_feature.h"

#include <stdio.h>
#include <string.h>

static void test_rows(void)
{
    unsigned drawn = 0;
    int per_storm = 0;
    CU_ASSERT_PTR_NULL(swx_storm_kind_get(-1));
    CU_ASSERT_PTR_NULL(swx_storm_kind_get(SWX_SK_COUNT));
    for (int k = 0; k < SWX_SK_COUNT; k++) {
        const swx_storm_kind_info *r = swx_storm_kind_get(k);
        const swx_storm_kind_row *row = swx_storm_kind_row_of(k);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT(r->name && r->layer && r->file && r->qgis_temporal);
        char file[64];
        snprintf(file, sizeof file, "%s.geojson", r->layer);
        CU_ASSERT_STRING_EQUAL(r->file, file);
        CU_ASSERT_STRING_EQUAL(swx_storm_kind_layer(k), r->layer);
        CU_ASSERT_PTR_NOT_NULL(strstr(r->qgis_temporal, "<temporal "));
        /* The QGIS names follow the shape. */
        static const char *const geom[] = {"Point", "Line", "Polygon"};
        static const char *const wkb[] = {"MultiPoint", "MultiLineString", "MultiPolygon"};
        CU_ASSERT_STRING_EQUAL(r->qgis_geometry, geom[r->shape]);
        CU_ASSERT_STRING_EQUAL(r->qgis_wkb, wkb[r->shape]);
        /* Counted in the CLI's summary unless counted as storms. */
        CU_ASSERT((r->summary == NULL) == (r->per_storm != 0));
        per_storm += r->per_storm;
        CU_ASSERT(r->drawn >= 0 && r->drawn < SWX_SK_COUNT);
        drawn |= 1u << r->drawn;
        CU_ASSERT_EQUAL(swx_storm_kind_drawn(r->drawn), k);
        unsigned m = 0;
        CU_ASSERT(swx_storm_kinds_parse(&m, r->name) == 0 && m == 1u << k);
        CU_ASSERT(swx_storm_kinds_parse(&m, r->layer) == 0 && m == 1u << k);
        const swx_storm_field *f;
        CU_ASSERT(swx_storm_fields(&f, k) == row->nfields && f == row->fields);
        CU_ASSERT(row->nfields > 0 && row->nfields <= SWX_STORM_MAX_FIELDS);
        CU_ASSERT(row->build && row->count);
    }
    CU_ASSERT_EQUAL(drawn, SWX_SK_ALL); /* each place in the drawing order once */
    CU_ASSERT_EQUAL(per_storm, 1);
    CU_ASSERT_EQUAL(swx_storm_kind_drawn(SWX_SK_COUNT), -1);
    /* Points over lines over polygons. */
    for (int i = 1; i < SWX_SK_COUNT; i++)
        CU_ASSERT(swx_storm_kind_get(swx_storm_kind_drawn(i - 1))->shape <=
                  swx_storm_kind_get(swx_storm_kind_drawn(i))->shape);
}

static void test_default_and_parse(void)
{
    unsigned d = swx_storm_kinds_default();
    CU_ASSERT_EQUAL(d, (1u << SWX_SK_STORM) | (1u << SWX_SK_TRACK_POINT) |
                           (1u << SWX_SK_FORECAST_POINT) | (1u << SWX_SK_FORECAST_LINE) |
                           (1u << SWX_SK_WIND_RADII));
    unsigned m = 0;
    CU_ASSERT_EQUAL(swx_storm_kinds_parse(&m, "cones,bogus"), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(),
                           "bad kinds 'cones,bogus': a comma-separated list of storm, "
                           "track_point, forecast_point, forecast_line, wind_radii, cone, "
                           "danger_area, wind_swath");
    CU_ASSERT(swx_storm_kinds_parse(&m, "Storms,WIND_SWATH") == 0 &&
              m == ((1u << SWX_SK_STORM) | (1u << SWX_SK_WIND_SWATH)));
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("storm_feature", NULL, NULL);
    CU_add_test(s, "a row per kind, complete", test_rows);
    CU_add_test(s, "default kinds, names parsed", test_default_and_parse);
    return cu_run();
}

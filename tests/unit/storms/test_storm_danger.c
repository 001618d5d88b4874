/* test_storm_danger.c: the danger settings and a storm's state at a moment
 * (lib/storms/danger_settings.c, storm_timeline.c, plane_merge.c): the cone
 * table read and interpolated as tabled by hand here, --cone-radii and
 * --danger-errors refused with one line and no change, states interpolated
 * along a storm built here, and the danger polygons merged in one plane
 * equal to those GEOS merges. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/storm_danger.h"
#include "storm_danger_int.h"
#include "storm_priv.h"

#include <math.h>
#include <string.h>

static void test_defaults(void)
{
    swx_storm_danger *d = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_danger_new(&d), 0);
    /* NHC 2023 at the tabled leads, linear between, 0 at 0, held after 120 h. */
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "NA", 2024, 12), 26, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "NA", 2024, 120), 205, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "NA", 2024, 84), (99 + 145) / 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "NA", 2024, 6), 13, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "NA", 2024, 0), 0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "NA", 2024, 200), 205, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "EP", 2024, 72), 86, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "CP", 2024, 96), 110, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "WP", 2024, 96), 145, 1e-9);
    /* 1-2-3: 100 nm a day, on beyond 72 h. */
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_danger_error(d, 36), 150, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_danger_error(d, 96), 400, 1e-9);
    CU_ASSERT_EQUAL(swx_cone_leads()[7], 120);
    swx_storm_danger_free(d);
}

static void test_own_tables(void)
{
    swx_storm_danger *d = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_danger_new(&d), 0);
    CU_ASSERT_EQUAL(swx_storm_danger_set_cone(d, "wp:10,20,30,40,50,60,70,80;"
                                                 "WP/2030:1,2,3,4,5,6,7,8;"
                                                 " * : 5,5,5,5,5,5,5,5"),
                    0);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "WP", 2024, 24), 20, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "WP", 2031, 24), 2, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "NA", 2024, 24), 5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "EP", 2024, 24), 5, 1e-9);
    CU_ASSERT_EQUAL(swx_storm_danger_set_errors(d, "50, 100,150"), 0);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_danger_error(d, 96), 200, 1e-9);
    swx_storm_danger_free(d);
}

/* Each bad text: SWX_EINVAL, one line with `want` in it, nothing changed. */
static void refused(const char *text, const char *want)
{
    swx_storm_danger *d = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_danger_new(&d), 0);
    CU_ASSERT_EQUAL(swx_storm_danger_set_cone(d, text), SWX_EINVAL);
    const char *msg = swx_error_last();
    if (!strstr(msg, want))
        fprintf(stderr, "'%s': '%s' lacks '%s'\n", text, msg, want);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
    CU_ASSERT_PTR_NULL(strchr(msg, '\n'));
    CU_ASSERT_EQUAL(strncmp(msg, "cone-radii", 10), 0);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_cone_radius(d, "NA", 2024, 24), 39, 1e-9);
    swx_storm_danger_free(d);
}

static void test_refused(void)
{
    refused("NA:1,2,3", "3 values, not 8");
    refused("NA:1,2,3,4,5,6,7,8,9", "more than 8 values");
    refused("XX:1,2,3,4,5,6,7,8", "unknown basin 'XX'");
    refused("NA:-1,2,3,4,5,6,7,8", "negative radius");
    refused("NA:1,2,3,4,5,6,7,x", "'x' is not a number");
    refused("NA:1,2,3,4,5,6,7,9000", "more than 3000 nm");
    refused("NA:8,7,6,5,4,3,2,1", "must not shrink");
    refused("NA/20x:1,2,3,4,5,6,7,8", "not a year");
    refused("NA 1,2,3,4,5,6,7,8", "no ':'");
    refused("NA:1,2,3,4,5,6,7,8;EP:1,2,3,4,5,6,7", "entry 2");
    refused("NA:1,2,3,4,5,6,7,8;NA:1,2,3,4,5,6,7,8", "the same basin and season");
    refused("", "empty");
    swx_storm_danger *d = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_danger_new(&d), 0);
    CU_ASSERT_EQUAL(swx_storm_danger_set_errors(d, "100,200"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_storm_danger_set_errors(d, "300,200,100"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_storm_danger_set_errors(d, "-1,200,300"), SWX_EINVAL);
    CU_ASSERT_DOUBLE_EQUAL(swx_storm_danger_error(d, 24), 100, 1e-9);
    swx_storm_danger_free(d);
}

/* A storm moving north along 140 W one degree every 6 h, two observed fixes
 * and two forecast ones (12 and 24 h), 34-kt radii 60 nm ne, 0 elsewhere. */
static swx_storm *storm_track(double lon0, double dlon, double r_sw)
{
    swx_storm *s = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_new_empty(&s), 0);
    s->atcf_id = swx_storm_str(s, "EP012024", 8);
    s->basin = swx_storm_str(s, "EP", 2);
    s->season = 2024;
    for (int i = 0; i < 4; i++) {
        swx_storm_pos *p;
        CU_ASSERT_EQUAL_FATAL(swx_storm_add_pos(&p, s, i >= 2), 0);
        p->lon = lon0 + dlon * i;
        if (p->lon >= 180)
            p->lon -= 360;
        p->lat = i < 2 ? 10 + i : 11 + 2 * (i - 1);
        p->radii[0].present = 1;
        p->radii[0].r[0] = 60;
        p->radii[0].r[1] = p->radii[0].r[3] = 0;
        p->radii[0].r[2] = r_sw;
        if (i < 2) {
            p->time = 1700000000 + i * 6 * 3600;
        } else {
            p->forecast_hour = 12 * (i - 1);
            p->forecast_time = 1700000000 + 6 * 3600 + p->forecast_hour * 3600;
        }
    }
    CU_ASSERT_EQUAL_FATAL(swx_storm_finish(s), 0);
    return s;
}

static swx_storm *storm_north(void)
{
    return storm_track(-140, 0, 0);
}

static void test_state(void)
{
    swx_storm *s = storm_north();
    swx_storm_state st;
    int64_t first, last;
    CU_ASSERT_EQUAL(swx_storm_span(&first, &last, s), 1);
    CU_ASSERT_EQUAL(first, 1700000000);
    CU_ASSERT_EQUAL(last, 1700000000 + 30 * 3600);
    CU_ASSERT_EQUAL(swx_storm_state_at(&st, NULL, s, first - 1), 0);
    /* Half way between the observed fixes: 10.5 N, no forecast yet. */
    CU_ASSERT_EQUAL(swx_storm_state_at(&st, NULL, s, first + 3 * 3600), 1);
    CU_ASSERT_DOUBLE_EQUAL(st.lat, 10.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(st.lon, -140, 1e-9);
    CU_ASSERT_EQUAL(st.forecast, 0);
    CU_ASSERT_DOUBLE_EQUAL(st.danger_nm, 0, 1e-9);
    /* 18 h into the forecast: lead 18, cone (EP) 31.5 nm, danger 150 + 60. */
    CU_ASSERT_EQUAL(swx_storm_state_at(&st, NULL, s, first + 24 * 3600), 1);
    CU_ASSERT_DOUBLE_EQUAL(st.lat, 14, 1e-9);
    CU_ASSERT_EQUAL(st.forecast, 1);
    CU_ASSERT_DOUBLE_EQUAL(st.lead_h, 18, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(st.cone_nm, (25 + 38) / 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(st.danger_nm, 75 + 60, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(st.r[0][0], 60, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(st.r[0][1], 0, 1e-9);
    swx_storm_free(s);
}

/* The same moving east across 180 from 179.5 E, 40 nm sw as well. */
static swx_storm *storm_east(void)
{
    return storm_track(179.5, 0.4, 40);
}

/* Area (square degrees) of the polygons built, holes taken off. */
static double built_area(const swx_danger_ws *w, size_t *npolys)
{
    size_t nparts;
    const size_t *part_len, *poly_rings;
    const double *xy;
    swx_danger_geometry(w, &nparts, &part_len, &xy, npolys, &poly_rings);
    double area = 0;
    for (size_t k = 0; k < nparts; xy += 2 * part_len[k], k++)
        for (size_t i = 0; i + 1 < part_len[k]; i++)
            area += (xy[2 * i] * xy[2 * i + 3] - xy[2 * i + 2] * xy[2 * i + 1]) / 2;
    return area;
}

static void test_plane_merge(void)
{
    swx_danger_ws *fast = NULL, *geos = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_danger_ws_new(&fast), 0);
    CU_ASSERT_EQUAL_FATAL(swx_danger_ws_new(&geos), 0);
    swx_danger_ws_geos_only(geos, 1);
    swx_storm *storms[2] = {storm_north(), storm_east()};
    static const int kinds[3] = {SWX_SK_CONE, SWX_SK_DANGER_AREA, SWX_SK_WIND_SWATH};
    int compared = 0;
    for (int si = 0; si < 2; si++)
        for (int ki = 0; ki < 3; ki++)
            for (int fc = 0; fc < 2; fc++) {
                swx_danger_info info;
                size_t na, nb;
                CU_ASSERT_EQUAL(swx_danger_build(fast, NULL, storms[si], kinds[ki], fc, 0, &info),
                                0);
                double a = built_area(fast, &na);
                CU_ASSERT_EQUAL(swx_danger_build(geos, NULL, storms[si], kinds[ki], fc, 0, &info),
                                0);
                double b = built_area(geos, &nb);
                CU_ASSERT_EQUAL(na, nb);
                /* the same but for GEOS's runs of links, 1 % of a radius */
                CU_ASSERT(fabs(a - b) <= 0.01 * b);
                if (na && si == 1) /* two polygons, one each side of 180 */
                    CU_ASSERT_EQUAL(na, 2);
                compared += na > 0;
            }
    CU_ASSERT(compared >= 6);
    CU_ASSERT_EQUAL(swx_danger_ws_fallbacks(fast), 0);
    swx_storm_free(storms[0]);
    swx_storm_free(storms[1]);
    swx_danger_ws_free(fast);
    swx_danger_ws_free(geos);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("storm_danger", NULL, NULL);
    CU_add_test(s, "NHC 2023 cone radii, 1-2-3 errors", test_defaults);
    CU_add_test(s, "own cone tables by basin and season", test_own_tables);
    CU_add_test(s, "bad tables refused, nothing changed", test_refused);
    CU_add_test(s, "a storm's state at a moment", test_state);
    CU_add_test(s, "danger polygons merged in one plane as GEOS merges them", test_plane_merge);
    return cu_run();
}

/* test_gribscan.c: lib/grib: the GRIB2 section walker on messages ecCodes
 * writes, cut short and damaged; the variables table; one field cut to a
 * voyage's grid and read back with ecCodes. */
#include "cu_support.h"

#include "area.h"
#include "grib_priv.h"
#include "gribscan.h"
#include "seawx/error.h"

#include <eccodes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A 10 m u-wind field of 2024-10-01 00 UTC + 6 h on a 1 degree grid from
 * 50N 10W to 40N 10E, value = lon + lat / 100; ecCodes writes it. */
static uint8_t *make_message(size_t *len, long edition)
{
    codes_handle *h =
        codes_grib_handle_new_from_samples(NULL, edition == 1 ? "GRIB1" : "regular_ll_sfc_grib2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    if (edition == 2) {
        CU_ASSERT_EQUAL(codes_set_long(h, "discipline", 0), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "parameterCategory", 2), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "parameterNumber", 2), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "typeOfFirstFixedSurface", 103), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "scaleFactorOfFirstFixedSurface", 0), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "scaledValueOfFirstFixedSurface", 10), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "dataDate", 20241001), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "dataTime", 0), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "forecastTime", 6), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "Ni", 21), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "Nj", 11), 0);
        CU_ASSERT_EQUAL(codes_set_double(h, "latitudeOfFirstGridPointInDegrees", 50), 0);
        CU_ASSERT_EQUAL(codes_set_double(h, "longitudeOfFirstGridPointInDegrees", 350), 0);
        CU_ASSERT_EQUAL(codes_set_double(h, "latitudeOfLastGridPointInDegrees", 40), 0);
        CU_ASSERT_EQUAL(codes_set_double(h, "longitudeOfLastGridPointInDegrees", 10), 0);
        CU_ASSERT_EQUAL(codes_set_double(h, "iDirectionIncrementInDegrees", 1), 0);
        CU_ASSERT_EQUAL(codes_set_double(h, "jDirectionIncrementInDegrees", 1), 0);
        double v[21 * 11];
        for (int j = 0; j < 11; j++)
            for (int i = 0; i < 21; i++)
                v[j * 21 + i] = (i - 10) + (50 - j) / 100.0;
        CU_ASSERT_EQUAL(codes_set_long(h, "decimalScaleFactor", 2), 0);
        CU_ASSERT_EQUAL(codes_set_double_array(h, "values", v, 21 * 11), 0);
    }
    const void *m;
    codes_get_message(h, &m, len);
    uint8_t *out = malloc(*len);
    memcpy(out, m, *len);
    codes_handle_delete(h);
    return out;
}

static void test_head(void)
{
    size_t len;
    uint8_t *m = make_message(&len, 2);
    swx_grib_head h;
    uint64_t need = 0;
    CU_ASSERT_EQUAL(swx_grib_head_read(&h, &need, m, len, "t"), 0);
    CU_ASSERT_EQUAL(h.length, len);
    CU_ASSERT_EQUAL(h.discipline, 0);
    CU_ASSERT_EQUAL(h.category, 2);
    CU_ASSERT_EQUAL(h.number, 2);
    CU_ASSERT_EQUAL(h.surface, 103);
    CU_ASSERT_DOUBLE_EQUAL(h.level, 10, 1e-9);
    CU_ASSERT_EQUAL(h.reftime, 1727740800); /* 2024-10-01T00:00:00Z */
    CU_ASSERT_EQUAL(h.forecast, 6 * 3600);
    CU_ASSERT_EQUAL(h.grid_template, 0);
    CU_ASSERT_EQUAL(h.ni, 21);
    CU_ASSERT_EQUAL(h.nj, 11);
    CU_ASSERT_DOUBLE_EQUAL(h.lat1, 50, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(h.lon1, 350, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(h.di, 1, 1e-9);
    CU_ASSERT_TRUE(swx_grib_message_whole(m, len));
    /* Every prefix asks for more than it has, never more than the message,
     * until the head is whole. */
    size_t first_ok = 0;
    for (size_t n = 0; n <= len && !first_ok; n++) {
        int rc = swx_grib_head_read(&h, &need, m, n, "t");
        if (rc == 0) {
            first_ok = n;
        } else {
            CU_ASSERT_EQUAL_FATAL(rc, 1);
            CU_ASSERT_TRUE(need > n);
            CU_ASSERT_TRUE(need <= len);
        }
    }
    CU_ASSERT_TRUE(first_ok > 16 && first_ok < len);
    /* Damaged: the last byte, a section length, the edition. */
    m[len - 1] = '6';
    CU_ASSERT_FALSE(swx_grib_message_whole(m, len));
    m[len - 1] = '7';
    uint8_t save = m[16 + 3];
    m[16 + 3] = 0xff; /* section 1 longer than the message */
    CU_ASSERT_EQUAL(swx_grib_head_read(&h, &need, m, len, "t"), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "overruns"));
    m[16 + 3] = save;
    CU_ASSERT_EQUAL(swx_grib_head_read(&h, &need, (const uint8_t *)"HTTP/1.1 200 OK\r\n", 17, "f"),
                    SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "not a GRIB file"));
    free(m);
    uint8_t *g1 = make_message(&len, 1);
    CU_ASSERT_EQUAL(swx_grib_head_read(&h, &need, g1, len, "old.grb"), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "edition 1"));
    free(g1);
}

static void test_vars(void)
{
    const gparam *p[GRIB_MAX_PARAMS];
    size_t n;
    CU_ASSERT_EQUAL(swx__grib_params(p, &n, "prmsl,wind"), 0);
    CU_ASSERT_EQUAL(n, 3); /* in the table's order: u, v, pressure */
    CU_ASSERT_EQUAL(p[0]->q, SWX_GQ_WIND_U);
    CU_ASSERT_EQUAL(p[1]->q, SWX_GQ_WIND_V);
    CU_ASSERT_EQUAL(p[2]->q, SWX_GQ_PRMSL);
    CU_ASSERT_EQUAL(swx__grib_params(p, &n, "waves"), 0);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_STRING_EQUAL(p[0]->bundle, "maritime");
    CU_ASSERT_EQUAL(swx_grib_vars_check("wind,snow"), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "unknown variable 'snow'"));
    CU_ASSERT_EQUAL(swx_grib_vars_check("wind,wind"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_grib_vars_check("wind,"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_grib_vars_check(""), SWX_EINVAL);
    swx_grib_cut c;
    CU_ASSERT_EQUAL(swx_grib_cut_parse(&c, "route"), 0);
    CU_ASSERT_EQUAL(c, SWX_GRIB_CUT_ROUTE);
    CU_ASSERT_EQUAL(swx_grib_cut_parse(&c, "corridor"), SWX_EINVAL);
}

/* Reads every value of a message back with ecCodes (missing: NAN). */
static size_t read_back(double *v, size_t cap, const uint8_t *m, size_t len, long *ni, long *nj)
{
    codes_handle *h = codes_handle_new_from_message(NULL, m, len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    codes_set_double(h, "missingValue", 1e30);
    codes_get_long(h, "Ni", ni);
    codes_get_long(h, "Nj", nj);
    size_t n = cap;
    CU_ASSERT_EQUAL(codes_get_double_array(h, "values", v, &n), 0);
    for (size_t i = 0; i < n; i++)
        if (v[i] > 1e29)
            v[i] = NAN;
    codes_handle_delete(h);
    return n;
}

static void test_cut(void)
{
    size_t len;
    uint8_t *m = make_message(&len, 2);
    const gparam *p[GRIB_MAX_PARAMS];
    size_t n;
    CU_ASSERT_EQUAL(swx__grib_params(p, &n, "wind"), 0);
    /* a 2 degree grid from 48N 8W to 44N 8E, 9 x 3 nodes, across the meridian */
    ggrid g = {.lon0 = -8, .lat0 = 48, .step = 2, .ni = 9, .nj = 3};
    uint8_t *out = NULL;
    size_t olen = 0, ocap = 0;
    CU_ASSERT_EQUAL_FATAL(
        swx__grib_cut(&out, &olen, &ocap, m, len, &g, NULL, p[0], 2, NULL, NULL, "t"), 0);
    double v[64];
    long ni, nj;
    CU_ASSERT_EQUAL(read_back(v, 64, out, olen, &ni, &nj), 27);
    CU_ASSERT_EQUAL(ni, 9);
    CU_ASSERT_EQUAL(nj, 3);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 9; i++) /* the source's value, to the 0.1 written */
            CU_ASSERT_DOUBLE_EQUAL(v[j * 9 + i], (-8 + 2 * i) + (48 - 2 * j) / 100.0, 0.05 + 1e-9);
    /* With a route: 0E from 49N to 41N, 60 nm buffer: the nodes 8 degrees
     * away are missing, those on the route kept. */
    swx_area *a = NULL;
    const double lon[2] = {0, 0}, lat[2] = {49, 41};
    CU_ASSERT_EQUAL_FATAL(swx_area_from_waypoints(&a, lon, lat, 2, 60 * 1852.0), 0);
    olen = 0;
    CU_ASSERT_EQUAL_FATAL(
        swx__grib_cut(&out, &olen, &ocap, m, len, &g, a, p[0], 2, NULL, NULL, "t"), 0);
    CU_ASSERT_EQUAL(read_back(v, 64, out, olen, &ni, &nj), 27);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 9; i++) /* kept: 2W, 0 and 2E, within a step of the route */
            CU_ASSERT_EQUAL(isnan(v[j * 9 + i]), i < 3 || i > 5);
    CU_ASSERT_EQUAL(swx__grib_kept(&g, a), 3 * 3); /* 2W, 0, 2E: within a step */
    swx_area_free(a);
    free(out);
    free(m);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("gribscan", NULL, NULL);
    CU_add_test(s, "heads of messages ecCodes wrote, cut short and damaged", test_head);
    CU_add_test(s, "variables by sailors' names, cuts", test_vars);
    CU_add_test(s, "a field cut to a grid and to a route's area", test_cut);
    return cu_run();
}

/* test_grib_field.c: lib/grib/grib_field.c, the forecast fields the route
 * search samples. ecCodes writes GRIB1 and GRIB2 files of fields linear in
 * latitude, longitude and time, where bilinear interpolation in space and
 * linear in time are exact: every sample must equal the test's own formula
 * (north-to-south and south-to-north scanning, a grid across 180, two grids
 * in one file, GRIB1's codes); outside the times the search is told so,
 * outside the grids the field is missing; a file with no wind names what it
 * holds; damaged files are refused in one line. */
#include "cu_support.h"

#include "grib_field.h"
#include "seawx/error.h"

#include <eccodes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KN (3600.0 / 1852.0)
#define T0 1727740800 /* 2024-10-01T00:00:00Z, the files' reference time */

typedef struct grid {
    double lat_first, lon_first, dlat, dlon; /* dlat < 0: north to south */
    long ni, nj;
} grid;

/* The test's fields, in m/s (metres for waves), at an unwrapped longitude x. */
static double field(int which, double lat, double x, double hour)
{
    switch (which) {
    case 0:
        return 3 + 0.05 * x + 0.25 * lat + 0.1 * hour; /* wind u */
    case 1:
        return -2 + 0.02 * x - 0.1 * lat - 0.05 * hour; /* wind v */
    case 2:
        return 1 + 0.01 * x + 0.02 * lat; /* waves */
    case 3:
        return 0.4 - 0.01 * lat + 0.02 * hour; /* current u */
    case 4:
        return 9 + 0.03 * x - 0.2 * lat + 0.15 * hour; /* gust */
    default:
        return -0.3 + 0.015 * x + 0.01 * lat - 0.01 * hour; /* current v */
    }
}

static void set_grid(codes_handle *h, const grid *g)
{
    double lat_last = g->lat_first + g->dlat * (double)(g->nj - 1);
    double lon_last = g->lon_first + g->dlon * (double)(g->ni - 1);
    CU_ASSERT_EQUAL(codes_set_long(h, "Ni", g->ni), 0);
    CU_ASSERT_EQUAL(codes_set_long(h, "Nj", g->nj), 0);
    CU_ASSERT_EQUAL(codes_set_long(h, "jScansPositively", g->dlat > 0), 0);
    CU_ASSERT_EQUAL(codes_set_double(h, "latitudeOfFirstGridPointInDegrees", g->lat_first), 0);
    CU_ASSERT_EQUAL(
        codes_set_double(h, "longitudeOfFirstGridPointInDegrees", fmod(g->lon_first + 360, 360)),
        0);
    CU_ASSERT_EQUAL(codes_set_double(h, "latitudeOfLastGridPointInDegrees", lat_last), 0);
    CU_ASSERT_EQUAL(
        codes_set_double(h, "longitudeOfLastGridPointInDegrees", fmod(lon_last + 360, 360)), 0);
    CU_ASSERT_EQUAL(codes_set_double(h, "iDirectionIncrementInDegrees", g->dlon), 0);
    CU_ASSERT_EQUAL(codes_set_double(h, "jDirectionIncrementInDegrees", fabs(g->dlat)), 0);
}

/* One message of field `which` at hour `hour` onto f. edition 1 or 2. */
static void put(FILE *f, int edition, int which, int hour, const grid *g)
{
    codes_handle *h = codes_grib_handle_new_from_samples(NULL, edition == 1 ? "GRIB1" : "GRIB2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_EQUAL(codes_set_long(h, "dataDate", 20241001), 0);
    CU_ASSERT_EQUAL(codes_set_long(h, "dataTime", 0), 0);
    if (edition == 2) {
        /* current v at depth below sea level 0, as `seawx grib --vars
         * currents` and the stand-in write it */
        static const long code[6][4] = {{0, 2, 2, 103}, {0, 2, 3, 103},  {10, 0, 3, 1},
                                        {10, 1, 2, 1},  {0, 2, 22, 103}, {10, 1, 3, 160}};
        CU_ASSERT_EQUAL(codes_set_long(h, "gridDefinitionTemplateNumber", 0), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "productDefinitionTemplateNumber", 0), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "discipline", code[which][0]), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "parameterCategory", code[which][1]), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "parameterNumber", code[which][2]), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "typeOfFirstFixedSurface", code[which][3]), 0);
        if (code[which][3] == 103 || code[which][3] == 160) {
            CU_ASSERT_EQUAL(codes_set_long(h, "scaleFactorOfFirstFixedSurface", 0), 0);
            CU_ASSERT_EQUAL(
                codes_set_long(h, "scaledValueOfFirstFixedSurface", code[which][3] == 103 ? 10 : 0),
                0);
        }
        CU_ASSERT_EQUAL(codes_set_long(h, "indicatorOfUnitOfTimeRange", 1), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "forecastTime", hour), 0);
    } else {
        static const long param[6] = {33, 34, 100, 49, 180, 50};
        CU_ASSERT_EQUAL(codes_set_long(h, "table2Version", 3), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "centre", 7), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "indicatorOfParameter", param[which]), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "indicatorOfTypeOfLevel", which < 2 ? 105 : 1), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "level", which < 2 ? 10 : 0), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "unitOfTimeRange", 1), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "P1", hour), 0);
        CU_ASSERT_EQUAL(codes_set_long(h, "timeRangeIndicator", 0), 0);
    }
    set_grid(h, g);
    CU_ASSERT_EQUAL(codes_set_long(h, "bitsPerValue", 24), 0);
    size_t n = (size_t)(g->ni * g->nj);
    double *v = malloc(n * sizeof *v);
    for (long j = 0; j < g->nj; j++)
        for (long i = 0; i < g->ni; i++)
            v[j * g->ni + i] = field(which, g->lat_first + g->dlat * (double)j,
                                     g->lon_first + g->dlon * (double)i, hour);
    CU_ASSERT_EQUAL(codes_set_double_array(h, "values", v, n), 0);
    free(v);
    const void *m;
    size_t len;
    CU_ASSERT_EQUAL_FATAL(codes_get_message(h, &m, &len), 0);
    CU_ASSERT_EQUAL(fwrite(m, 1, len, f), len);
    codes_handle_delete(h);
}

static char *tmp_path(void)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/test_grib_field.%ld.grb", (long)getpid());
    return path;
}

/* A file of wind (and waves, currents when more) at hours 0, 6, 12 on g. */
static const char *write_file(int edition, const grid *g, int more)
{
    const char *path = tmp_path();
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (int hour = 0; hour <= 12; hour += 6)
        for (int which = 0; which < (more ? 4 : 2); which++)
            put(f, edition, which, hour, g);
    fclose(f);
    return path;
}

/* Random points of the grid's inside at random times: the field's formula,
 * in knots. x0: the grid's first unwrapped longitude. */
static void check_samples(const swx_gfield *f, const grid *g, int more)
{
    double lat_lo = fmin(g->lat_first, g->lat_first + g->dlat * (double)(g->nj - 1));
    double lat_span = fabs(g->dlat) * (double)(g->nj - 1), lon_span = g->dlon * (double)(g->ni - 1);
    srand(7);
    int bad = 0;
    for (int k = 0; k < 500; k++) {
        double lat = lat_lo + lat_span * (rand() / (double)RAND_MAX);
        double x = g->lon_first + lon_span * (rand() / (double)RAND_MAX);
        double lon = x > 180 ? x - 360 : x;
        double hour = 12.0 * (rand() / (double)RAND_MAX);
        int64_t t = T0 + (int64_t)llround(hour * 3600);
        hour = (double)(t - T0) / 3600.0;
        swx_gfield_met m;
        CU_ASSERT_EQUAL_FATAL(swx__gfield_sample(f, lat, lon, t, &m), 0);
        bad += fabs(m.wind_u_kn - field(0, lat, x, hour) * KN) > 1e-4;
        bad += fabs(m.wind_v_kn - field(1, lat, x, hour) * KN) > 1e-4;
        if (more) {
            bad += fabs(m.wave_m - field(2, lat, x, hour)) > 1e-4;
            bad += fabs(m.cur_u_kn - field(3, lat, x, hour) * KN) > 1e-4;
        } else {
            bad += !isnan(m.wave_m) + !isnan(m.cur_u_kn) + !isnan(m.gust_kn);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_grib2_north_to_south(void)
{
    grid g = {20, -40, -0.5, 0.25, 81, 41}; /* 20N to 0N, 40W to 20W */
    const char *path = write_file(2, &g, 1);
    swx_gfield *f = NULL;
    CU_ASSERT_EQUAL_FATAL(swx__gfield_open(&f, path, 2, -38, 18, -22), 0);
    CU_ASSERT_EQUAL(swx__gfield_first(f), T0);
    CU_ASSERT_EQUAL(swx__gfield_last(f), T0 + 12 * 3600);
    CU_ASSERT_EQUAL(swx__gfield_has(f), 0x1Bu); /* wind u, v, waves, current u; no gust, v */
    grid inner = {18, -38, -0.5, 0.25, 65, 33};
    check_samples(f, &inner, 1);
    swx_gfield_met m;
    CU_ASSERT_EQUAL(swx__gfield_sample(f, 10, -30, T0 - 1, &m), SWX_GFIELD_OUTSIDE);
    CU_ASSERT_EQUAL(swx__gfield_sample(f, 10, -30, T0 + 12 * 3600 + 1, &m), SWX_GFIELD_OUTSIDE);
    /* outside the area read: missing, not a wrong value */
    CU_ASSERT_EQUAL(swx__gfield_sample(f, 10, 10, T0, &m), 0);
    CU_ASSERT(isnan(m.wind_u_kn));
    swx__gfield_free(f);
    unlink(path);
}

static void test_grib2_across_180(void)
{
    grid g = {-30, 170, 1, 0.5, 41, 21}; /* 30S to 10S, 170E to 170W, south to north */
    const char *path = write_file(2, &g, 0);
    swx_gfield *f = NULL;
    CU_ASSERT_EQUAL_FATAL(swx__gfield_open(&f, path, -30, 170, -10, -170), 0);
    check_samples(f, &g, 0);
    swx__gfield_free(f);
    unlink(path);
}

static void test_grib1(void)
{
    grid g = {50, -10, -1, 1, 21, 11};
    const char *path = write_file(1, &g, 1);
    swx_gfield *f = NULL;
    CU_ASSERT_EQUAL_FATAL(swx__gfield_open(&f, path, 40, -10, 50, 10), 0);
    check_samples(f, &g, 1);
    swx__gfield_free(f);
    unlink(path);
}

/* Each time its own grid (a voyage GRIB's window cut): time 0 on one box,
 * time 6 on another; between them, where both hold the point, linear. */
static void test_two_grids(void)
{
    grid a = {10, -40, -0.5, 0.5, 21, 21}, b = {8, -36, -0.25, 0.25, 41, 41};
    const char *path = tmp_path();
    FILE *fp = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    put(fp, 2, 0, 0, &a);
    put(fp, 2, 1, 0, &a);
    put(fp, 2, 0, 6, &b);
    put(fp, 2, 1, 6, &b);
    fclose(fp);
    swx_gfield *f = NULL;
    CU_ASSERT_EQUAL_FATAL(swx__gfield_open(&f, path, 0, -40, 10, -20), 0);
    swx_gfield_met m;
    CU_ASSERT_EQUAL(swx__gfield_sample(f, 5.3, -33.7, T0 + 3 * 3600, &m), 0);
    CU_ASSERT_DOUBLE_EQUAL(m.wind_u_kn, field(0, 5.3, -33.7, 3) * KN, 1e-4);
    CU_ASSERT_DOUBLE_EQUAL(m.wind_v_kn, field(1, 5.3, -33.7, 3) * KN, 1e-4);
    /* only in the first grid: missing at the later time, so missing between */
    CU_ASSERT_EQUAL(swx__gfield_sample(f, 9.5, -39.5, T0 + 3 * 3600, &m), 0);
    CU_ASSERT(isnan(m.wind_u_kn));
    swx__gfield_free(f);
    unlink(path);
}

/* The gust and the current's v component (at depth 0, as the stand-in's
 * maritime files and `seawx grib --vars currents` write it), m/s to knots. */
static void test_gust_current_v(void)
{
    grid g = {-10, 20, 0.5, 0.5, 41, 31}; /* 10S to 5N, 20E to 40E */
    const char *path = tmp_path();
    FILE *fp = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    static const int which[] = {0, 1, 3, 4, 5};
    for (int hour = 0; hour <= 12; hour += 6)
        for (size_t k = 0; k < sizeof which / sizeof which[0]; k++)
            put(fp, 2, which[k], hour, &g);
    fclose(fp);
    swx_gfield *f = NULL;
    CU_ASSERT_EQUAL_FATAL(swx__gfield_open(&f, path, -10, 20, 5, 40), 0);
    CU_ASSERT_EQUAL(swx__gfield_has(f), 0x37u); /* all but waves */
    srand(11);
    int bad = 0;
    for (int k = 0; k < 300; k++) {
        double lat = -10 + 15 * (rand() / (double)RAND_MAX);
        double lon = 20 + 20 * (rand() / (double)RAND_MAX);
        int64_t t = T0 + rand() % (12 * 3600 + 1);
        double hour = (double)(t - T0) / 3600.0;
        swx_gfield_met m;
        CU_ASSERT_EQUAL_FATAL(swx__gfield_sample(f, lat, lon, t, &m), 0);
        bad += fabs(m.gust_kn - field(4, lat, lon, hour) * KN) > 1e-6 * fabs(m.gust_kn) + 1e-4;
        bad += fabs(m.cur_u_kn - field(3, lat, lon, hour) * KN) > 1e-4;
        bad += fabs(m.cur_v_kn - field(5, lat, lon, hour) * KN) > 1e-4;
        bad += !isnan(m.wave_m);
    }
    CU_ASSERT_EQUAL(bad, 0);
    swx__gfield_free(f);
    unlink(path);
}

static void test_refused(void)
{
    grid g = {20, -40, -0.5, 0.5, 41, 21};
    const char *path = tmp_path();
    FILE *fp = fopen(path, "wb");
    put(fp, 2, 2, 0, &g); /* waves only */
    fclose(fp);
    swx_gfield *f = NULL;
    CU_ASSERT_EQUAL(swx__gfield_open(&f, path, 0, -40, 20, -20), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "holds no 10 m wind"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "swh"));

    write_file(2, &g, 0);
    fp = fopen(path, "r+b");
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    fclose(fp);
    CU_ASSERT_EQUAL(truncate(path, len - 100), 0); /* the last message cut short */
    CU_ASSERT(swx__gfield_open(&f, path, 0, -40, 20, -20) < 0);
    CU_ASSERT_PTR_NULL(f);
    CU_ASSERT_PTR_NULL(strchr(swx_error_last(), '\n'));

    fp = fopen(path, "wb");
    fputs("this is not GRIB at all\n", fp);
    fclose(fp);
    CU_ASSERT_EQUAL(swx__gfield_open(&f, path, 0, -40, 20, -20), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "not a GRIB file"));
    unlink(path);
    CU_ASSERT_EQUAL(swx__gfield_open(&f, path, 0, -40, 20, -20), SWX_ENOTFOUND);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("grib_field", NULL, NULL);
    CU_add_test(s, "GRIB2 north to south: wind, waves, current", test_grib2_north_to_south);
    CU_add_test(s, "GRIB2 across 180", test_grib2_across_180);
    CU_add_test(s, "GRIB1", test_grib1);
    CU_add_test(s, "two grids in one file", test_two_grids);
    CU_add_test(s, "gust and current v, knots", test_gust_current_v);
    CU_add_test(s, "refused: no wind, cut short, not GRIB, missing", test_refused);
    return cu_run();
}

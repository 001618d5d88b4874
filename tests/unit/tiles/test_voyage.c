/* test_voyage.c: voyages (lib/tiles/voyage.c) against computations written
 * here differently: leg lengths with the haversine formula, points along a
 * leg with the navigator's destination formula (initial bearing and
 * distance), the windows of the valid times from their definition, and tiles
 * from the Web Mercator formulas. */
#include "cu_support.h"

#include "area.h"
#include "seawx/error.h"
#include "seawx/voyage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R2D (180.0 / M_PI)
#define D2R (M_PI / 180.0)
#define R SWX_EARTH_RADIUS_M
#define KN (1852.0 / 3600.0)
#define HOUR 3600

static double haversine(double lon1, double lat1, double lon2, double lat2)
{
    double dlat = (lat2 - lat1) * D2R, dlon = (lon2 - lon1) * D2R;
    double h = sin(dlat / 2) * sin(dlat / 2) +
               cos(lat1 * D2R) * cos(lat2 * D2R) * sin(dlon / 2) * sin(dlon / 2);
    return 2 * R * asin(sqrt(h));
}

/* The point at distance d from (lon1, lat1) towards (lon2, lat2). */
static void toward(double *lon, double *lat, double lon1, double lat1, double lon2, double lat2,
                   double d)
{
    double p1 = lat1 * D2R, p2 = lat2 * D2R, dl = (lon2 - lon1) * D2R;
    double brg = atan2(sin(dl) * cos(p2), cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl));
    double dr = d / R;
    double p = asin(sin(p1) * cos(dr) + cos(p1) * sin(dr) * cos(brg));
    double l = lon1 * D2R + atan2(sin(brg) * sin(dr) * cos(p1), cos(dr) - sin(p1) * sin(p));
    *lat = p * R2D;
    *lon = fmod(l * R2D + 540.0, 360.0) - 180.0;
}

static void tile_of(uint32_t *x, uint32_t *y, int z, double lon, double lat)
{
    double n = ldexp(1, z);
    double fx = (lon + 180) / 360 * n;
    double fy = (1 - log(tan(M_PI / 4 + lat * D2R / 2)) / M_PI) / 2 * n;
    *x = (uint32_t)floor(fx) % (uint32_t)n;
    *y = (uint32_t)floor(fy);
}

static swx_voyage *voyage(const char *text)
{
    swx_voyage *v = NULL;
    int rc = swx_voyage_from_route(&v, text, strlen(text));
    if (rc)
        fprintf(stderr, "voyage: %s\n", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    return v;
}

/* Lengths and points, across the antimeridian too. */
static void test_geometry(void)
{
    const double lon[] = {160, 175, -170, -160}, lat[] = {-20, -15, -12, -5};
    swx_voyage *v = voyage("-20,160\n-15,175\n-12,190\n-5,-160\n");
    if (!v)
        return;
    double cum[4] = {0};
    for (int k = 1; k < 4; k++)
        cum[k] = cum[k - 1] + haversine(lon[k - 1], lat[k - 1], lon[k], lat[k]);
    CU_ASSERT_DOUBLE_EQUAL(swx_voyage_length(v), cum[3], 1e-3);
    for (int k = 0; k < 3; k++)
        for (double f = 0.05; f < 1; f += 0.15) {
            double d = f * (cum[k + 1] - cum[k]), x, y, ex, ey;
            swx_voyage_point(&x, &y, v, cum[k] + d);
            toward(&ex, &ey, lon[k], lat[k], lon[k + 1], lat[k + 1], d);
            CU_ASSERT_DOUBLE_EQUAL(y, ey, 1e-7);
            CU_ASSERT_DOUBLE_EQUAL(fmod(x - ex + 540.0, 360.0) - 180.0, 0, 1e-7);
        }
    double x, y;
    swx_voyage_point(&x, &y, v, -5);
    CU_ASSERT(x == 160 && y == -20);
    swx_voyage_point(&x, &y, v, 1e12);
    CU_ASSERT(x == -160 && y == -5);
    swx_voyage_free(v);
}

static void test_speed(void)
{
    double a, b;
    CU_ASSERT(swx_speed_parse(&a, &b, "7") == 0 && a == 7 && b == 7);
    CU_ASSERT(swx_speed_parse(&a, &b, "6-8") == 0 && a == 6 && b == 8);
    CU_ASSERT(swx_speed_parse(&a, &b, "5.5-5.5") == 0 && a == 5.5 && b == 5.5);
    const char *bad[] = {"0", "-1", "8-6", "abc", "6-", "-6", "6-8-9", "", "0-3", "101", "7kn"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(swx_speed_parse(&a, &b, bad[i]), SWX_EINVAL);
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "speed"));
    }
    swx_voyage *v = voyage("0,0\n0,1\n");
    if (!v)
        return;
    CU_ASSERT_EQUAL(swx_voyage_set_speed(v, 0, 0, 5), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_voyage_set_speed(v, 0, 6, 5), SWX_EINVAL);
    int64_t d;
    double arr;
    CU_ASSERT_EQUAL(swx_voyage_span(&d, &arr, v), SWX_EINVAL); /* no speed yet */
    swx_voyage_free(v);
    v = voyage("lat,lon,time\n0,0,2026-01-01T00:00:00Z\n0,1,2026-01-01T10:00:00Z\n");
    if (!v)
        return;
    CU_ASSERT(swx_voyage_timed(v));
    CU_ASSERT_EQUAL(swx_voyage_set_speed(v, 0, 6, 8), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "waypoint times"));
    swx_voyage_free(v);
    /* A voyage follows one line. */
    swx_voyage *w = NULL;
    const char *ml = "{\"type\":\"MultiLineString\",\"coordinates\":[[[1,2],[3,4]],[[5,6]]]}";
    CU_ASSERT_EQUAL(swx_voyage_from_route(&w, ml, strlen(ml)), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(w);
}

/* The stretches of a speed band, from the definition of the windows. */
/* The one way every command reads a voyage: a route with waypoint times
 * takes no departure and speed, one without needs them. */
static void test_open(void)
{
    const char *untimed = "lat,lon\n0,0\n0,1\n";
    const char *timed = "lat,lon,time\n0,0,2026-01-01T00:00:00Z\n0,1,2026-01-01T10:00:00Z\n";
    swx_voyage_sailing sail = {.given = 1, .depart = 1000, .min_kn = 6, .max_kn = 8};
    swx_voyage *v = (swx_voyage *)1;
    CU_ASSERT_EQUAL(swx_voyage_open(&v, untimed, strlen(untimed), NULL), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(v);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(swx_error_last(), "the route has no waypoint times: give a departure and a speed"));
    CU_ASSERT_EQUAL(swx_voyage_open(&v, timed, strlen(timed), &sail), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(v);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "the route gives waypoint times; a departure"));
    CU_ASSERT_EQUAL_FATAL(swx_voyage_open(&v, timed, strlen(timed), NULL), 0);
    CU_ASSERT(swx_voyage_timed(v));
    swx_voyage_free(v);
    CU_ASSERT_EQUAL_FATAL(swx_voyage_open(&v, untimed, strlen(untimed), &sail), 0);
    double lo, hi;
    swx_voyage_speed(&lo, &hi, v);
    CU_ASSERT_DOUBLE_EQUAL(lo, 6, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(hi, 8, 1e-9);
    int64_t d;
    double arr;
    CU_ASSERT_EQUAL(swx_voyage_span(&d, &arr, v), 0);
    CU_ASSERT_EQUAL(d, 1000);
    swx_voyage_free(v);
    sail.min_kn = 0;
    CU_ASSERT_EQUAL(swx_voyage_open(&v, untimed, strlen(untimed), &sail), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(v);
}

static void test_band_stretches(void)
{
    swx_voyage *v = voyage("0,-10\n0,10\n"); /* along the equator, 20 degrees */
    if (!v)
        return;
    double L = swx_voyage_length(v);
    CU_ASSERT_DOUBLE_EQUAL(L, 20 * D2R * R, 1e-3);
    int64_t dep = cu_time("2026-06-01T00:00:00Z");
    CU_ASSERT_EQUAL_FATAL(swx_voyage_set_speed(v, dep, 6, 8), 0);
    int64_t d;
    double arrival;
    CU_ASSERT_EQUAL(swx_voyage_span(&d, &arrival, v), 0);
    CU_ASSERT_EQUAL(d, dep);
    CU_ASSERT_DOUBLE_EQUAL(arrival, dep + L / (6 * KN), 1e-3);
    /* Every 6 hours from a day before departure to long after arrival. */
    int64_t t[120];
    size_t n = 0;
    for (int64_t x = dep - 24 * HOUR; x < (int64_t)arrival + 48 * HOUR; x += 6 * HOUR)
        t[n++] = x;
    CU_ASSERT_FATAL(n < 120);
    int skipped = 0;
    for (size_t i = 0; i < n; i++) {
        double from, to;
        int rc = swx_voyage_stretch(&from, &to, v, t, n, i);
        double w0 = i ? (t[i - 1] + t[i]) / 2.0 : -1e300;
        double w1 = i + 1 < n ? (t[i] + t[i + 1]) / 2.0 : 1e300;
        if (w0 >= arrival) {
            CU_ASSERT_EQUAL(rc, 0);
            skipped++;
            continue;
        }
        CU_ASSERT_EQUAL(rc, 1);
        double ef = fmin(fmax(6 * KN * (w0 - dep), 0), L);
        double et = fmin(fmax(8 * KN * (w1 - dep), 0), L);
        CU_ASSERT_DOUBLE_EQUAL(from, ef, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(to, et, 1e-6);
        if (w1 <= dep) /* before departure: the departure point */
            CU_ASSERT(from == 0 && to == 0);
    }
    CU_ASSERT(skipped > 0);
    /* The one valid time covers the whole voyage. */
    double from, to;
    CU_ASSERT_EQUAL(swx_voyage_stretch(&from, &to, v, t, 1, 0), 1);
    CU_ASSERT(from == 0 && to == L);
    CU_ASSERT_EQUAL(swx_voyage_stretch(&from, &to, v, (int64_t[]){5, 5}, 2, 0), SWX_EINVAL);
    swx_voyage_free(v);
}

/* Waypoint times: constant speed on each leg. */
static void test_timed_stretches(void)
{
    swx_voyage *v = voyage("{\"type\":\"Feature\",\"properties\":{\"times\":["
                           "\"2026-01-01T00:00:00Z\",\"2026-01-01T10:00:00Z\","
                           "\"2026-01-02T10:00:00Z\"]},\"geometry\":{\"type\":\"LineString\","
                           "\"coordinates\":[[0,0],[1,0],[1,2]]}}");
    if (!v)
        return;
    double l1 = haversine(0, 0, 1, 0), l2 = haversine(1, 0, 1, 2);
    int64_t t0 = cu_time("2026-01-01T00:00:00Z");
    int64_t t[] = {t0 - 6 * HOUR, t0, t0 + 6 * HOUR, t0 + 12 * HOUR, t0 + 34 * HOUR,
                   t0 + 40 * HOUR};
    double from, to;
    /* t0 - 6 h: window ends at t0 - 3 h, before departure. */
    CU_ASSERT_EQUAL(swx_voyage_stretch(&from, &to, v, t, 6, 0), 1);
    CU_ASSERT(from == 0 && to == 0);
    /* t0: from before departure to t0 + 3 h, 3/10 of the first leg. */
    CU_ASSERT_EQUAL(swx_voyage_stretch(&from, &to, v, t, 6, 1), 1);
    CU_ASSERT_DOUBLE_EQUAL(from, 0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(to, 0.3 * l1, 1e-3);
    /* t0 + 6 h: 3 h to 9 h. */
    CU_ASSERT_EQUAL(swx_voyage_stretch(&from, &to, v, t, 6, 2), 1);
    CU_ASSERT_DOUBLE_EQUAL(from, 0.3 * l1, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(to, 0.9 * l1, 1e-3);
    /* t0 + 12 h: 9 h to 23 h, across the second waypoint (13/24 of leg 2). */
    CU_ASSERT_EQUAL(swx_voyage_stretch(&from, &to, v, t, 6, 3), 1);
    CU_ASSERT_DOUBLE_EQUAL(from, 0.9 * l1, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(to, l1 + 13.0 / 24 * l2, 1e-3);
    /* t0 + 34 h: 23 h to 37 h, the end of the route. */
    CU_ASSERT_EQUAL(swx_voyage_stretch(&from, &to, v, t, 6, 4), 1);
    CU_ASSERT_DOUBLE_EQUAL(to, l1 + l2, 1e-3);
    /* t0 + 40 h: its window starts at 37 h, after arrival at 34 h. */
    CU_ASSERT_EQUAL(swx_voyage_stretch(&from, &to, v, t, 6, 5), 0);
    swx_area *a = NULL;
    CU_ASSERT_EQUAL(swx_voyage_area(&a, v, t, 6, 5, 1000), 0);
    CU_ASSERT_PTR_NULL(a);
    swx_voyage_free(v);
}

/* Every tile holding a position the ship can reach in a window is in that
 * time's area, and tiles far along the route are not; across 180. */
static void test_areas(void)
{
    const double lon[] = {165, 172, 179, -174, -168}, lat[] = {40, 42, 43.5, 44, 45};
    swx_voyage *v = voyage("lat,lon\n40,165\n42,172\n43.5,179\n44,-174\n45,-168\n");
    if (!v)
        return;
    double cum[5] = {0};
    for (int k = 1; k < 5; k++)
        cum[k] = cum[k - 1] + haversine(lon[k - 1], lat[k - 1], lon[k], lat[k]);
    int64_t dep = cu_time("2026-02-01T00:00:00Z");
    CU_ASSERT_EQUAL_FATAL(swx_voyage_set_speed(v, dep, 10, 14), 0);
    int64_t t[16];
    for (int i = 0; i < 16; i++)
        t[i] = dep + i * 12 * HOUR;
    double buffer = 30 * SWX_NM_M;
    unsigned seed = 12;
    int checked = 0, far = 0;
    for (int i = 0; i < 16; i++) {
        swx_area *a = NULL;
        CU_ASSERT_EQUAL_FATAL(swx_voyage_area(&a, v, t, 16, (size_t)i, buffer), 0);
        if (!a)
            continue;
        double w0 = i ? (t[i - 1] + t[i]) / 2.0 : (double)dep - 6 * HOUR;
        double w1 = i < 15 ? (t[i] + t[i + 1]) / 2.0 : (double)t[15] + 6 * HOUR;
        for (int k = 0; k < 40; k++) {
            double tau = w0 + (w1 - w0) * rand_r(&seed) / RAND_MAX;
            double lo = fmin(fmax(10 * KN * (tau - dep), 0), cum[4]);
            double hi = fmin(fmax(14 * KN * (tau - dep), 0), cum[4]);
            double s = lo + (hi - lo) * rand_r(&seed) / RAND_MAX;
            int leg_i = 0;
            while (leg_i < 3 && s > cum[leg_i + 1])
                leg_i++;
            double x, y;
            toward(&x, &y, lon[leg_i], lat[leg_i], lon[leg_i + 1], lat[leg_i + 1], s - cum[leg_i]);
            for (int z = 3; z <= 9; z++) {
                uint32_t tx, ty;
                tile_of(&tx, &ty, z, x, y);
                CU_ASSERT_EQUAL(swx_area_has_tile(a, z, tx, ty), 1);
                checked++;
            }
        }
        /* Tiles well beyond the window's reach (buffer + 2 tile sides at
         * zoom 9, about 80 km each) are not in the area. */
        double reach = fmin(fmax(14 * KN * (w1 - dep), 0), cum[4]) + buffer + 200e3;
        if (reach < cum[4]) {
            int leg_i = 0;
            while (leg_i < 3 && reach > cum[leg_i + 1])
                leg_i++;
            double x, y;
            uint32_t tx, ty;
            toward(&x, &y, lon[leg_i], lat[leg_i], lon[leg_i + 1], lat[leg_i + 1],
                   reach - cum[leg_i]);
            tile_of(&tx, &ty, 9, x, y);
            CU_ASSERT_EQUAL(swx_area_has_tile(a, 9, tx, ty), 0);
            far++;
        }
        swx_area_free(a);
    }
    CU_ASSERT(checked > 1000);
    CU_ASSERT(far > 2);
    swx_voyage_free(v);
}

static void test_refused(void)
{
    swx_voyage *v = NULL;
    const char *big = "0,0\n0,179.5\n";
    CU_ASSERT_EQUAL(swx_voyage_from_route(&v, big, strlen(big)), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "179 degrees"));
    const char *bad = "lat,lon,time\n0,0,2026-01-01T00:00:00Z\n0,1,2025-01-01T00:00:00Z\n";
    CU_ASSERT_EQUAL(swx_voyage_from_route(&v, bad, strlen(bad)), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "must increase"));
    CU_ASSERT_PTR_NULL(v);
    /* One waypoint: a point, covered until departure, then skipped. */
    v = voyage("10,20\n");
    if (!v)
        return;
    CU_ASSERT_EQUAL(swx_voyage_set_speed(v, 1000, 5, 5), 0);
    int64_t t[] = {0, 2000};
    double from, to;
    CU_ASSERT_EQUAL(swx_voyage_stretch(&from, &to, v, t, 2, 0), 1);
    CU_ASSERT(from == 0 && to == 0);
    CU_ASSERT_EQUAL(swx_voyage_stretch(&from, &to, v, t, 2, 1), 0);
    swx_voyage_free(v);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("voyage", NULL, NULL);
    CU_add_test(s, "lengths and points against haversine, across 180", test_geometry);
    CU_add_test(s, "speeds", test_speed);
    CU_add_test(s, "a voyage opened from a route, a departure and a speed", test_open);
    CU_add_test(s, "speed band stretches", test_band_stretches);
    CU_add_test(s, "waypoint time stretches", test_timed_stretches);
    CU_add_test(s, "areas hold every reachable position, across 180", test_areas);
    CU_add_test(s, "refused routes, one waypoint", test_refused);
    return cu_run();
}

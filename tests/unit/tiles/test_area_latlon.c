/* test_area_latlon.c: route areas for latitude/longitude grids, which reach
 * the poles (lib/tiles/area.c, route.c; the voyage GRIB's), against
 * computations written here differently: the great circle densely sampled by
 * spherical interpolation, the buffer's edge by the navigator's destination
 * formula (a position, a bearing and a distance), and Web Mercator's limit
 * from its definition (atan(sinh(pi))). */
#include "cu_support.h"

#include "area.h"
#include "seawx/error.h"
#include "seawx/tiles.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define D2R (M_PI / 180.0)
#define R2D (180.0 / M_PI)
#define NM 1852.0

/* The position at angular distance dr (radians) from (lon1, lat1) on the
 * initial bearing brg (radians). */
static void destination(double *lon, double *lat, double lon1, double lat1, double brg, double dr)
{
    double p1 = lat1 * D2R;
    double p = asin(sin(p1) * cos(dr) + cos(p1) * sin(dr) * cos(brg));
    double l = lon1 * D2R + atan2(sin(brg) * sin(dr) * cos(p1), cos(dr) - sin(p1) * sin(p));
    *lat = p * R2D;
    *lon = fmod(l * R2D + 540.0, 360.0) - 180.0;
}

/* Position k of n along the great circle from (lon0, lat0) to (lon1, lat1). */
static void slerp(double *lon, double *lat, double lon0, double lat0, double lon1, double lat1,
                  int k, int n)
{
    double a[3] = {cos(lat0 * D2R) * cos(lon0 * D2R), cos(lat0 * D2R) * sin(lon0 * D2R),
                   sin(lat0 * D2R)};
    double b[3] = {cos(lat1 * D2R) * cos(lon1 * D2R), cos(lat1 * D2R) * sin(lon1 * D2R),
                   sin(lat1 * D2R)};
    double w = acos(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]), t = (double)k / n;
    double p[3];
    for (int i = 0; i < 3; i++)
        p[i] = w < 1e-12 ? a[i] : (sin((1 - t) * w) * a[i] + sin(t * w) * b[i]) / sin(w);
    *lat = asin(p[2]) * R2D;
    *lon = atan2(p[1], p[0]) * R2D;
}

/* Whether lon lies in west..east (degrees, west > east across 180). */
static int lon_within(double lon, double west, double east, double tol)
{
    if (west <= east)
        return lon >= west - tol && lon <= east + tol;
    return lon >= west - tol || lon <= east + tol;
}

/* Checks the lat/lon bounds of the area of the route (lon, lat, n
 * waypoints) buffered by buffer_nm against the route sampled densely and
 * the buffer's edge around each sample: every such position lies within the
 * bounds, and the north and south bounds are the samples' extremes (to
 * 0.01 degree), clamped to the poles. */
static void check_bounds(const swx_area *a, const double *lon, const double *lat, size_t n,
                         double buffer_nm)
{
    double w, s, e, nn;
    swx__area_bounds_latlon(&w, &s, &e, &nn, a);
    double dr = buffer_nm * NM / SWX_EARTH_RADIUS_M, hi = -90, lo = 90;
    size_t outside = 0;
    for (size_t i = 0; i + 1 < n || (n == 1 && i == 0); i++) {
        size_t j = n == 1 ? 0 : i + 1;
        for (int k = 0; k <= 400; k++) {
            double plon, plat;
            slerp(&plon, &plat, lon[i], lat[i], lon[j], lat[j], k, 400);
            /* a pole within the buffer */
            hi = 90 - plat <= dr * R2D ? 90 : hi;
            lo = plat + 90 <= dr * R2D ? -90 : lo;
            for (int bdeg = 0; bdeg < 360; bdeg += 2) {
                double qlon, qlat;
                destination(&qlon, &qlat, plon, plat, bdeg * D2R, dr);
                hi = qlat > hi ? qlat : hi;
                lo = qlat < lo ? qlat : lo;
                if (!lon_within(qlon, w, e, 1e-6) || qlat > nn + 1e-9 || qlat < s - 1e-9)
                    outside++;
            }
        }
    }
    CU_ASSERT_EQUAL(outside, 0);
    CU_ASSERT(nn >= hi - 1e-9 && nn <= hi + 0.01);
    CU_ASSERT(s <= lo + 1e-9 && s >= lo - 0.01);
    if (outside || !(nn >= hi - 1e-9 && nn <= hi + 0.01) || !(s <= lo + 1e-9 && s >= lo - 0.01))
        fprintf(stderr, "  bounds %g %g %g %g; route %g..%g; %zu outside\n", w, s, e, nn, lo, hi,
                outside);
}

static void test_north(void)
{
    /* about 125 nm along 86 N: its great circle rises above 86 */
    const double lon[] = {-20, 10}, lat[] = {86, 86};
    swx_area *a = NULL;
    CU_ASSERT_EQUAL(swx_area_from_waypoints(&a, lon, lat, 2, 50 * NM), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(a);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "Web Mercator's latitudes"));
    CU_ASSERT_EQUAL_FATAL(swx__area_from_waypoints_latlon(&a, lon, lat, 2, 50 * NM), 0);
    check_bounds(a, lon, lat, 2, 50);
    /* the grid cells of the route's middle and of far away */
    CU_ASSERT_EQUAL(swx_area_meets_rect(a, -5.25, 86, -4.75, 86.5), 1);
    CU_ASSERT_EQUAL(swx_area_meets_rect(a, 99.75, 86, 100.25, 86.5), 0);
    /* no tile: Web Mercator's bounds are empty */
    double w, s, e, n;
    swx_area_bounds(&w, &s, &e, &n, a);
    CU_ASSERT(s == n);
    CU_ASSERT_EQUAL(swx_area_has_tile(a, 0, 0, 0), 0);
    swx_area_free(a);
}

static void test_pole(void)
{
    /* a route touching 89.9 N, and a point there */
    const double lon[] = {-30, 0}, lat[] = {88, 89.9};
    swx_area *a = NULL;
    CU_ASSERT_EQUAL(swx_area_from_waypoints(&a, lon, lat, 2, 50 * NM), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(a);
    CU_ASSERT_EQUAL_FATAL(swx__area_from_waypoints_latlon(&a, lon, lat, 2, 50 * NM), 0);
    double w, s, e, n;
    swx__area_bounds_latlon(&w, &s, &e, &n, a);
    CU_ASSERT(n == 90 && w == -180 && e == 180);
    check_bounds(a, lon, lat, 2, 50);
    /* across the pole from the route: 0.1 + 0.4 degrees (30 nm) away, and
     * 0.1 + 1.0 (66 nm) */
    CU_ASSERT_EQUAL(swx_area_meets_rect(a, 179.75, 89.4, 180.25, 89.6), 1);
    CU_ASSERT_EQUAL(swx_area_meets_rect(a, 179.75, 88.8, 180.25, 89.0), 0);
    swx_area_free(a);
    /* the south pole, a point */
    const double plon[] = {-150}, plat[] = {-89.95};
    CU_ASSERT_EQUAL_FATAL(swx__area_from_waypoints_latlon(&a, plon, plat, 1, 10 * NM), 0);
    swx__area_bounds_latlon(&w, &s, &e, &n, a);
    CU_ASSERT(s == -90 && w == -180 && e == 180);
    check_bounds(a, plon, plat, 1, 10);
    swx_area_free(a);
}

static void test_near_pole(void)
{
    /* a buffer short of the pole, where it is wide: at 89 N, 30 nm (about
     * 0.5 degree) reaches asin(sin(0.5) / cos(89)), about 30 degrees of
     * longitude either side */
    const double lon[] = {40}, lat[] = {89};
    swx_area *a = NULL;
    CU_ASSERT_EQUAL_FATAL(swx__area_from_waypoints_latlon(&a, lon, lat, 1, 30 * NM), 0);
    double w, s, e, n;
    swx__area_bounds_latlon(&w, &s, &e, &n, a);
    CU_ASSERT(n < 90 && e - w < 360 && e - w >= 59.9);
    check_bounds(a, lon, lat, 1, 30);
    swx_area_free(a);
    /* 82 N: the whole buffer below the pole, the tiles' bounds stop at Web
     * Mercator's limit, the grid's do not */
    const double lon2[] = {0, 20}, lat2[] = {82, 82.5};
    CU_ASSERT_EQUAL_FATAL(swx__area_from_waypoints_latlon(&a, lon2, lat2, 2, 180 * NM), 0);
    check_bounds(a, lon2, lat2, 2, 180);
    swx_area_bounds(&w, &s, &e, &n, a);
    CU_ASSERT_DOUBLE_EQUAL(n, atan(sinh(M_PI)) * R2D, 1e-9);
    swx__area_bounds_latlon(&w, &s, &e, &n, a);
    CU_ASSERT(n > 85.4);
    swx_area_free(a);
    CU_ASSERT_EQUAL_FATAL(swx_area_from_waypoints(&a, lon2, lat2, 2, 180 * NM), 0);
    swx_area_bounds(&w, &s, &e, &n, a);
    CU_ASSERT_DOUBLE_EQUAL(n, atan(sinh(M_PI)) * R2D, 1e-9);
    swx_area_free(a);
}

static void test_refused(void)
{
    /* a latitude beyond the pole stays an error */
    const double lon[] = {0, 10}, lat[] = {89, 90.5};
    swx_area *a = NULL;
    CU_ASSERT_EQUAL(swx__area_from_waypoints_latlon(&a, lon, lat, 2, 10 * NM), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(a);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "not a longitude, latitude pair"));
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("area_latlon", NULL, NULL);
    CU_add_test(s, "a route at 86 N: its rows, no tile", test_north);
    CU_add_test(s, "a route touching a pole: every longitude", test_pole);
    CU_add_test(s, "near a pole, and Web Mercator's bounds as before", test_near_pole);
    CU_add_test(s, "latitudes beyond the poles refused", test_refused);
    return cu_run();
}

/* test_route_storms.c: the storms as the route search's no-go areas
 * (lib/sail/route_storms.c) on a storm that stays at 20 N 50 W with 34 kt
 * radii of 120, 90, 60 and 30 nm (ne, se, sw, nw): places due north and due
 * south of its centre at distances along the meridian (exact on the sphere)
 * inside and outside each radius and the 1 nm pad; the 1-2-3 danger area
 * (100 nm of track error at 24 h plus the largest radius) once forecast; a
 * leg whose ends are clear but whose middle crosses the storm; a leg after
 * the storm's last forecast; the storm named at a place. */
#define _GNU_SOURCE
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/route_storms.h"
#include "seawx/storm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T0 1728345600LL /* 2024-10-08T00:00:00Z: the last observed fix */
#define LAT 20.0
#define LON (-50.0)
/* nm in a degree of the sphere of seawx/sphere.h */
#define DEG_NM (6371008.8 * M_PI / 180.0 / 1852.0)

static const char *STORM_JSON =
    "[{\"atcf_id\":\"AL992024\",\"storm_name\":\"TESTA\",\"basin\":\"NA\",\"season\":2024,"
    "\"observed_track\":["
    "{\"lat\":20,\"lon\":-50,\"time\":\"2024-10-07T12:00:00Z\",\"wind_extent_radii\":{\"34kts\":"
    "{\"ne\":120,\"se\":90,\"sw\":60,\"nw\":30}}},"
    "{\"lat\":20,\"lon\":-50,\"time\":\"2024-10-08T00:00:00Z\",\"wind_extent_radii\":{\"34kts\":"
    "{\"ne\":120,\"se\":90,\"sw\":60,\"nw\":30}}}],"
    "\"forecast_track\":["
    "{\"lat\":20,\"lon\":-50,\"forecast_time\":\"2024-10-09T00:00:00Z\",\"forecast_hour\":24,"
    "\"wind_extent_radii\":{\"34kts\":{\"ne\":120,\"se\":90,\"sw\":60,\"nw\":30}}},"
    "{\"lat\":20,\"lon\":-50,\"forecast_time\":\"2024-10-10T00:00:00Z\",\"forecast_hour\":48,"
    "\"wind_extent_radii\":{\"34kts\":{\"ne\":120,\"se\":90,\"sw\":60,\"nw\":30}}}]}]";

static swx_storm_list storms;
static swx_routing_storms *nogo;

static int setup(void)
{
    char path[] = "/tmp/seawx-test-storms-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, STORM_JSON, strlen(STORM_JSON)) != (ssize_t)strlen(STORM_JSON))
        return 1;
    close(fd);
    int rc = swx_storm_read_file(path, swx_storm_list_add, &storms);
    unlink(path);
    if (rc || storms.count != 1)
        return 1;
    return swx_routing_storms_new(&nogo, (const swx_storm *const *)storms.items, storms.count, NULL,
                                  T0 - 12 * 3600, T0 + 72 * 3600, 0) != 0;
}

static int teardown(void)
{
    swx_routing_storms_free(nogo);
    swx_storm_list_clear(&storms);
    return 0;
}

/* The place nm north (negative: south) of the centre, at t: blocked? */
static int blocked(double nm, int64_t t)
{
    return swx_routing_storms_leg(nogo, LAT + nm / DEG_NM, LON, t, LAT + nm / DEG_NM, LON, t) ==
           SWX_ROUTING_STORM;
}

static void test_quadrants(void)
{
    int64_t t = T0 - 6 * 3600; /* observed: the radii by quadrant, no danger area */
    CU_ASSERT_EQUAL(swx_routing_storms_count(nogo), 1);
    CU_ASSERT_TRUE(blocked(100, t));   /* north: the ne quadrant, 120 nm */
    CU_ASSERT_TRUE(blocked(120.5, t)); /* within the 1 nm pad */
    CU_ASSERT_FALSE(blocked(121.5, t));
    CU_ASSERT_FALSE(blocked(-70, t)); /* south: the sw quadrant, 60 nm */
    CU_ASSERT_TRUE(blocked(-60.5, t));
    CU_ASSERT_FALSE(blocked(-61.5, t));
    CU_ASSERT_TRUE(blocked(0, t)); /* the centre */
}

static void test_danger(void)
{
    int64_t t = T0 + 24 * 3600; /* lead 24 h: 100 nm + the largest radius, 120 */
    CU_ASSERT_TRUE(blocked(-200, t));
    CU_ASSERT_TRUE(blocked(-220.5, t));
    CU_ASSERT_FALSE(blocked(-221.5, t));
    t = T0 + 12 * 3600; /* lead 12 h: 50 + 120 */
    CU_ASSERT_TRUE(blocked(-170.5, t));
    CU_ASSERT_FALSE(blocked(-171.5, t));
}

static void test_legs(void)
{
    /* from 3 degrees south to 3 degrees north in an hour, observed time:
     * both ends clear, the middle through the centre */
    int64_t t = T0 - 6 * 3600;
    CU_ASSERT_FALSE(blocked(-3 * DEG_NM, t));
    CU_ASSERT_FALSE(blocked(3 * DEG_NM, t + 3600));
    CU_ASSERT_EQUAL(swx_routing_storms_leg(nogo, LAT - 3, LON, t, LAT + 3, LON, t + 3600),
                    SWX_ROUTING_STORM);
    /* a leg passing 2 degrees west, outside every radius and the danger area */
    CU_ASSERT_EQUAL(swx_routing_storms_leg(nogo, LAT - 3, LON - 2, t, LAT + 3, LON - 2, t + 3600),
                    0);
    /* after the last forecast fix nothing is known of the storm */
    t = T0 + 49 * 3600;
    CU_ASSERT_EQUAL(swx_routing_storms_leg(nogo, LAT - 3, LON, t, LAT + 3, LON, t + 3600), 0);
    CU_ASSERT_EQUAL(swx_routing_storms_until(nogo), T0 + 48 * 3600);
}

static void test_named(void)
{
    swx_routing_storm_near n;
    CU_ASSERT_TRUE(swx_routing_storms_at(nogo, LAT + 100 / DEG_NM, LON, T0 - 6 * 3600, &n));
    CU_ASSERT_STRING_EQUAL(n.title, "TESTA");
    CU_ASSERT_STRING_EQUAL(n.atcf_id, "AL992024");
    CU_ASSERT_DOUBLE_EQUAL(n.centre_nm, 100, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(n.clear_nm, -20, 0.01); /* 20 nm inside the 120 nm radius */
    CU_ASSERT_TRUE(n.inside_r34);
    CU_ASSERT_FALSE(swx_routing_storms_at(nogo, LAT, LON, T0 + 60 * 3600, &n));
}

static void test_errors(void)
{
    swx_routing_storms *s = NULL;
    CU_ASSERT_EQUAL(swx_routing_storms_new(&s, NULL, 0, NULL, T0, T0 - 1, 0), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_routing_storms_new(&s, NULL, 0, NULL, T0, T0 + 3600, -1), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_routing_storms_new(&s, NULL, 0, NULL, T0, T0 + 3600, 0), 0);
    CU_ASSERT_EQUAL(swx_routing_storms_count(s), 0);
    CU_ASSERT_EQUAL(swx_routing_storms_leg(s, 0, 0, T0, 1, 1, T0 + 60), 0);
    swx_routing_storms_free(s);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("route_storms", setup, teardown);
    CU_add_test(s, "the radii by quadrant and the pad", test_quadrants);
    CU_add_test(s, "the 1-2-3 danger area once forecast", test_danger);
    CU_add_test(s, "legs through, past and after the storm", test_legs);
    CU_add_test(s, "the storm named at a place", test_named);
    CU_add_test(s, "bad options", test_errors);
    return cu_run();
}

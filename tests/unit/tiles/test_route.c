/* test_route.c: route files with and without waypoint times (lib/tiles/route.c):
 * what is read, every refusal naming its cause, and route areas that do not
 * change with the times a file gives. */
#include "cu_support.h"

#include "route.h"
#include "seawx/error.h"
#include "seawx/tiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static swx_route *read_ok(const char *text)
{
    swx_route *r = NULL;
    int rc = swx_route_read(&r, text, strlen(text));
    if (rc)
        fprintf(stderr, "route: %s\n", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    return r;
}

/* Reading text fails with SWX_EINVAL and a line holding want. */
static void read_bad(const char *text, const char *want)
{
    swx_route *r = NULL;
    int rc = swx_route_read(&r, text, strlen(text));
    CU_ASSERT_EQUAL(rc, SWX_EINVAL);
    CU_ASSERT_PTR_NULL(r);
    if (!strstr(swx_error_last(), want))
        fprintf(stderr, "expected '%s' in '%s'\n", want, swx_error_last());
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), want));
}

static void test_csv_times(void)
{
    swx_route *r = read_ok("# a passage\nname,eta,lat,lon\nA,2026-01-01T00:00:00Z,50.5,-1\n"
                           "B, 2026-01-01T06:00Z ,51,2\n\nC,2026-01-02T00:00:00Z,52,179.5\n");
    if (!r)
        return;
    CU_ASSERT_EQUAL(r->n, 3);
    CU_ASSERT_EQUAL(r->nlines, 1);
    CU_ASSERT(r->csv);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->t);
    CU_ASSERT_EQUAL(r->t[0], cu_time("2026-01-01T00:00:00Z"));
    CU_ASSERT_EQUAL(r->t[1], cu_time("2026-01-01T06:00:00Z"));
    CU_ASSERT_EQUAL(r->t[2], cu_time("2026-01-02T00:00:00Z"));
    CU_ASSERT_DOUBLE_EQUAL(r->lat[1], 51, 0);
    CU_ASSERT_DOUBLE_EQUAL(r->lon[2], 179.5, 0);
    swx_route_free(r);

    r = read_ok("latitude;longitude;TIME\n10;20;2026-03-01T00:00:00Z\n");
    CU_ASSERT(r && r->t && r->n == 1);
    swx_route_free(r);
    /* Without a time column, no times. */
    r = read_ok("lat,lon\n1,2\n3,4\n");
    CU_ASSERT(r && !r->t && r->n == 2);
    swx_route_free(r);
    r = read_ok("1,2\n3,4\n");
    CU_ASSERT(r && !r->t && r->n == 2 && r->lat[1] == 3 && r->lon[1] == 4);
    swx_route_free(r);

    read_bad("lat,lon,time\n1,2,2026-01-01T00:00:00Z\n3,4,\n", "line 3: no time");
    read_bad("lat,lon,time\n1,2,2026-01-01T00:00:00Z\n3,4\n", "line 3: no time");
    read_bad("lat,lon,time\n1,2,2026-01-01T06:00:00Z\n3,4,2026-01-01T06:00:00Z\n",
             "line 3: time 2026-01-01T06:00:00Z is not after the one before");
    read_bad("lat,lon,time\n1,2,2026-01-01T06:00:00Z\n3,4,2026-01-01T05:00:00Z\n",
             "waypoint times must increase");
    read_bad("lat,lon,eta\n1,2,tomorrow\n", "line 2: 'tomorrow' is not an ISO 8601 instant");
    read_bad("lat,lon\n1,2\n95,3\n", "line 3");
    read_bad("  \n", "route file: empty");
    read_bad("lat,lon\n", "no waypoints");
}

static void test_geojson_times(void)
{
    const char *feature =
        "{\"type\":\"Feature\",\"properties\":{\"times\":[\"2026-01-01T00:00:00Z\","
        "\"2026-01-01T12:00:00Z\",\"2026-01-02T00:00:00Z\"]},\"geometry\":{"
        "\"type\":\"LineString\",\"coordinates\":[[170,10],[179,11],[-172,12]]}}";
    swx_route *r = read_ok(feature);
    if (!r)
        return;
    CU_ASSERT(!r->csv && r->n == 3 && r->nlines == 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->t);
    CU_ASSERT_EQUAL(r->t[1], cu_time("2026-01-01T12:00:00Z"));
    CU_ASSERT_DOUBLE_EQUAL(r->lon[2], -172, 0);
    swx_route_free(r);

    char fc[2048];
    snprintf(fc, sizeof fc, "{\"type\":\"FeatureCollection\",\"features\":[%s]}", feature);
    r = read_ok(fc);
    CU_ASSERT(r && r->t && r->n == 3);
    swx_route_free(r);

    r = read_ok("{\"type\":\"LineString\",\"coordinates\":[[1,2],[3,4]]}");
    CU_ASSERT(r && !r->t && r->n == 2);
    swx_route_free(r);
    r = read_ok("{\"type\":\"MultiLineString\",\"coordinates\":[[[1,2],[3,4]],[[5,6]]]}");
    CU_ASSERT(r && !r->t && r->n == 3 && r->nlines == 2 && r->start[1] == 2);
    swx_route_free(r);

    read_bad("{\"type\":\"Feature\",\"properties\":{\"times\":[\"2026-01-01T00:00:00Z\"]},"
             "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[1,2],[3,4]]}}",
             "1 times for 2 positions");
    read_bad("{\"type\":\"Feature\",\"properties\":{\"times\":[\"2026-01-01T00:00:00Z\",3]},"
             "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[1,2],[3,4]]}}",
             "time 2 of the LineString is not an ISO 8601 instant");
    read_bad("{\"type\":\"Feature\",\"properties\":{\"times\":[\"2026-01-01T01:00:00Z\","
             "\"2026-01-01T00:00:00Z\"]},"
             "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[1,2],[3,4]]}}",
             "waypoint times must increase");
    read_bad("{\"type\":\"Feature\",\"properties\":{\"times\":\"2026\"},"
             "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[1,2],[3,4]]}}",
             "\"times\" is not an array");
    char two[4096];
    snprintf(two, sizeof two,
             "{\"type\":\"FeatureCollection\",\"features\":[%s,{\"type\":\"Feature\","
             "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[1,2],[3,4]]}}]}",
             feature);
    read_bad(two, "times go with a route of one LineString");
    /* The line with times after one without. */
    snprintf(two, sizeof two,
             "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\","
             "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[1,2],[3,4]]}},%s]}",
             feature);
    read_bad(two, "times go with a route of one LineString");
    read_bad("{\"type\":\"Feature\",\"properties\":{\"times\":[\"2026-01-01T00:00:00Z\"]},"
             "\"geometry\":{\"type\":\"MultiLineString\",\"coordinates\":[[[1,2]]]}}",
             "not a MultiLineString");
    read_bad("{\"type\":\"Polygon\",\"coordinates\":[]}", "expected LineString or MultiLineString");
    read_bad("{\"type\":\"LineString\",\"coordinates\":[]}", "a LineString without positions");
    read_bad("{\"type\":\"LineString\",\"coordinates\":[[1,91]]}", "is not a longitude, latitude");
    read_bad("{nope", "route file");
}

static uint64_t count(swx_area *a, int z)
{
    uint64_t n = 0;
    CU_ASSERT_EQUAL(swx_area_count(&n, a, z), 0);
    return n;
}

/* Times do not change a route's area, and CSV and GeoJSON give the same one. */
static void test_area_unchanged(void)
{
    const char *csv = "lat,lon,time\n10,170,2026-01-01T00:00:00Z\n11,179,2026-01-01T12:00:00Z\n"
                      "12,-172,2026-01-02T00:00:00Z\n";
    const char *plain = "10,170\n11,179\n12,-172\n";
    const char *gj = "{\"type\":\"Feature\",\"properties\":{\"times\":[\"2026-01-01T00:00:00Z\","
                     "\"2026-01-01T12:00:00Z\",\"2026-01-02T00:00:00Z\"]},\"geometry\":{"
                     "\"type\":\"LineString\",\"coordinates\":[[170,10],[179,11],[-172,12]]}}";
    swx_area *a = NULL, *b = NULL, *c = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_area_from_route(&a, csv, strlen(csv), 50 * SWX_NM_M), 0);
    CU_ASSERT_EQUAL_FATAL(swx_area_from_route(&b, plain, strlen(plain), 50 * SWX_NM_M), 0);
    CU_ASSERT_EQUAL_FATAL(swx_area_from_route(&c, gj, strlen(gj), 50 * SWX_NM_M), 0);
    for (int z = 2; z <= 8; z += 3) {
        uint64_t n = count(a, z);
        CU_ASSERT(n > 0);
        CU_ASSERT_EQUAL(n, count(b, z));
        CU_ASSERT_EQUAL(n, count(c, z));
    }
    double w, s, e, n;
    swx_area_bounds(&w, &s, &e, &n, c);
    CU_ASSERT(w > e); /* across 180 */
    swx_area_free(a);
    swx_area_free(b);
    swx_area_free(c);
}

/* A binary file read as a route: the line quotes printable ASCII only, other
 * bytes escaped, so no raw byte reaches a terminal or a log. */
static void test_binary_quoted(void)
{
    read_bad("\x89PNG\x1b[2J\x80\xff,\x01\x7f\xc3\xa9\n", "is not a latitude, longitude pair");
    const unsigned char *e = (const unsigned char *)swx_error_last();
    /* Printable ASCII but for the one well-formed UTF-8 character (e-acute),
     * kept as it is: a name in another script stays readable. */
    int printable = 1;
    for (; *e; e++)
        printable &= (*e >= 0x20 && *e <= 0x7e) || (e[0] == 0xc3 && e[1] == 0xa9 && e++);
    CU_ASSERT_TRUE(printable);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(swx_error_last(), "'\\x89PNG\\x1b[2J\\x80\\xff,\\x01\\x7f\xc3\xa9'"));
}

/* A lone lead byte, an overlong form, a surrogate and a C1 control are
 * escaped; two-, three- and four-byte characters are kept. */
static void test_utf8_kept(void)
{
    read_bad("\xc3\xa5lesund\xc3 \xc0\xaf \xed\xa0\x80 \xc2\x85 \xe6\xb8\xaf \xf0\x9f\x8c\x8a,1\n",
             "is not a latitude, longitude pair");
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "'\xc3\xa5lesund\\xc3 \\xc0\\xaf "
                                                    "\\xed\\xa0\\x80 \\xc2\\x85 \xe6\xb8\xaf "
                                                    "\xf0\x9f\x8c\x8a,1'"));
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("route", NULL, NULL);
    CU_add_test(s, "CSV with times", test_csv_times);
    CU_add_test(s, "GeoJSON with times", test_geojson_times);
    CU_add_test(s, "areas do not change with times", test_area_unchanged);
    CU_add_test(s, "a binary file is quoted in printable ASCII", test_binary_quoted);
    CU_add_test(s, "well-formed UTF-8 is kept, the rest escaped", test_utf8_kept);
    return cu_run();
}

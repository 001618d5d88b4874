/* test_params.c: the checks of user-given parameter values (lib/util/params.c):
 * ranges, forms, lists, limits, and error lines that name the parameter and
 * what it accepts. */
#include "cu_support.h"

#include "params.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <CUnit/CUnit.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* rc must be SWX_EINVAL and the error line hold each NULL-terminated string. */
static void fails(int rc, ...)
{
    CU_ASSERT_EQUAL(rc, SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_error_last_code(), SWX_EINVAL);
    va_list ap;
    va_start(ap, rc);
    for (const char *want; (want = va_arg(ap, const char *)) != NULL;) {
        if (!strstr(swx_error_last(), want))
            fprintf(stderr, "\n  error line '%s' lacks '%s'\n", swx_error_last(), want);
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), want));
    }
    va_end(ap);
}

/* A string of n copies of c (caller frees). */
static char *repeat(char c, size_t n)
{
    char *s = malloc(n + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

static void test_number(void)
{
    double v = -1;
    CU_ASSERT_EQUAL(swx_param_number(&v, "scale", "2.5", 0, 10), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 2.5, 0);
    CU_ASSERT_EQUAL(swx_param_number(&v, "scale", "-1e1", -10, 10), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, -10, 0);
    /* The bounds are inclusive. */
    CU_ASSERT_EQUAL(swx_param_number(&v, "scale", "10", 0, 10), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 10, 0);
    CU_ASSERT_EQUAL(swx_param_number(&v, "scale", "0", 0, 10), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 0, 0);

    v = 7;
    fails(swx_param_number(&v, "scale", "10.001", 0, 10), "scale must be a number from 0 to 10",
          "not '10.001'", NULL);
    CU_ASSERT_DOUBLE_EQUAL(v, 7, 0); /* untouched on failure */
    fails(swx_param_number(&v, "scale", "-0.5", 0, 10), "scale", "not '-0.5'", NULL);
    fails(swx_param_number(&v, "scale", "", 0, 10), "scale must be a number", "not ''", NULL);
    fails(swx_param_number(&v, "scale", NULL, 0, 10), "scale must be a number", "not ''", NULL);
    fails(swx_param_number(&v, "scale", "3x", 0, 10), "not '3x'", NULL);
    fails(swx_param_number(&v, "scale", "3 ", 0, 10), "not '3 '", NULL);
    fails(swx_param_number(&v, "scale", "abc", 0, 10), "not 'abc'", NULL);
    fails(swx_param_number(&v, "scale", " 3", 0, 10), "not ' 3'", NULL);
    fails(swx_param_number(&v, "scale", "0x3", 0, 10), "not '0x3'", NULL);
    fails(swx_param_number(&v, "scale", "0x1p1", 0, 10), "not '0x1p1'", NULL);
    /* Not finite, even when the range is the whole line. */
    fails(swx_param_number(&v, "scale", "nan", -1e308, 1e308), "not 'nan'", NULL);
    fails(swx_param_number(&v, "scale", "inf", -1e308, 1e308), "not 'inf'", NULL);
    fails(swx_param_number(&v, "scale", "1e999", -1e308, 1e308), "not '1e999'", NULL);
    CU_ASSERT_DOUBLE_EQUAL(v, 7, 0);
    /* The echo of the bad value is cut at 40 characters. */
    char *longs = repeat('9', 300);
    fails(swx_param_number(&v, "scale", longs, 0, 1), "scale must be a number", NULL);
    CU_ASSERT(strlen(swx_error_last()) < 120);
    free(longs);
}

static void test_int(void)
{
    long v = -1;
    CU_ASSERT_EQUAL(swx_param_int(&v, "days", "16", 1, 16), 0);
    CU_ASSERT_EQUAL(v, 16);
    CU_ASSERT_EQUAL(swx_param_int(&v, "days", "1", 1, 16), 0);
    CU_ASSERT_EQUAL(v, 1);
    CU_ASSERT_EQUAL(swx_param_int(&v, "offset", "-3", -5, 5), 0);
    CU_ASSERT_EQUAL(v, -3);

    v = 99;
    fails(swx_param_int(&v, "days", "17", 1, 16), "days must be a whole number from 1 to 16",
          "not '17'", NULL);
    fails(swx_param_int(&v, "days", "0", 1, 16), "not '0'", NULL);
    fails(swx_param_int(&v, "days", " 7", 1, 16), "not ' 7'", NULL);
    fails(swx_param_int(&v, "days", "\t7", 1, 16), "days must be a whole number", NULL);
    fails(swx_param_int(&v, "days", "2.5", 1, 16), "whole number", "not '2.5'", NULL);
    fails(swx_param_int(&v, "days", "1e1", 1, 16), "not '1e1'", NULL);
    fails(swx_param_int(&v, "days", "", 1, 16), "not ''", NULL);
    fails(swx_param_int(&v, "days", NULL, 1, 16), "days must be a whole number", NULL);
    fails(swx_param_int(&v, "days", "seven", 1, 16), "not 'seven'", NULL);
    /* Overflow of a long is refused, not wrapped or clamped into range. */
    fails(swx_param_int(&v, "n", "99999999999999999999999", 0, 2147483647L), "n must be", NULL);
    fails(swx_param_int(&v, "n", "-99999999999999999999999", -2147483647L, 0), "n must be", NULL);
    CU_ASSERT_EQUAL(v, 99);
}

static void test_lat_lon(void)
{
    double v = 0;
    CU_ASSERT_EQUAL(swx_param_lat(&v, "-90"), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, -90, 0);
    CU_ASSERT_EQUAL(swx_param_lat(&v, "59.91"), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 59.91, 0);
    CU_ASSERT_EQUAL(swx_param_lon(&v, "180"), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 180, 0);
    CU_ASSERT_EQUAL(swx_param_lon(&v, "-180"), 0);

    fails(swx_param_lat(&v, "90.5"), "lat must be a number from -90 to 90", "not '90.5'", NULL);
    fails(swx_param_lon(&v, "181"), "lon must be a number from -180 to 180", "not '181'", NULL);
    fails(swx_param_lat(&v, "north"), "lat", NULL);
    fails(swx_param_lat(&v, NULL), "lat is required: a latitude from -90 to 90", NULL);
    fails(swx_param_lon(&v, NULL), "lon is required: a longitude from -180 to 180", NULL);
    fails(swx_param_lon(&v, ""), "lon must be a number", NULL);
}

static void test_time(void)
{
    int64_t t = 0;
    CU_ASSERT_EQUAL(swx_param_time(&t, "start", "2024-10-01"), 0);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-01T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_param_time(&t, "start", "2024-10-01T06:30:00+02:00"), 0);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-01T04:30:00Z"));
    CU_ASSERT_EQUAL(swx_param_time(&t, "start", "2024-10-01T06"), 0);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-01T06:00:00Z"));

    fails(swx_param_time(&t, "start", "yesterday"), "start must be an ISO 8601 time", "YYYY-MM-DD",
          "not 'yesterday'", NULL);
    fails(swx_param_time(&t, "end", "2024-13-01"), "end must be an ISO 8601 time",
          "not '2024-13-01'", NULL);
    fails(swx_param_time(&t, "end", " 2024-10-01"), "end", NULL);
    fails(swx_param_time(&t, "end", ""), "end must be an ISO 8601 time", "not ''", NULL);
    fails(swx_param_time(&t, "end", NULL), "end must be an ISO 8601 time", "not ''", NULL);
}

static void test_time_or_range(void)
{
    int64_t a = 0, b = 0;
    CU_ASSERT_EQUAL(swx_param_time_or_range(&a, &b, "time", "2024-10-01T06:00:00Z"), 0);
    CU_ASSERT_EQUAL(a, cu_time("2024-10-01T06:00:00Z"));
    CU_ASSERT_EQUAL(b, a);
    CU_ASSERT_EQUAL(swx_param_time_or_range(&a, &b, "time", "2024-10-01/2024-10-03T12:00:00Z"), 0);
    CU_ASSERT_EQUAL(a, cu_time("2024-10-01T00:00:00Z"));
    CU_ASSERT_EQUAL(b, cu_time("2024-10-03T12:00:00Z"));

    fails(swx_param_time_or_range(&a, &b, "time", "2024-10-03/2024-10-01"),
          "time: the end of the range '2024-10-03/2024-10-01' is not after its start", NULL);
    fails(swx_param_time_or_range(&a, &b, "time", "2024-10-01/2024-10-01"),
          "is not after its start", NULL);
    fails(swx_param_time_or_range(&a, &b, "time", "2024-10-01/"),
          "time must be an ISO 8601 time or a range START/END", "not '2024-10-01/'", NULL);
    fails(swx_param_time_or_range(&a, &b, "time", "/2024-10-01"), "START/END", NULL);
    fails(swx_param_time_or_range(&a, &b, "time", "2024-10-01/2024-10-02/2024-10-03"), "START/END",
          NULL);
    fails(swx_param_time_or_range(&a, &b, "time", "soon"), "time must be an ISO 8601 time",
          "not 'soon'", NULL);
    fails(swx_param_time_or_range(&a, &b, "time", NULL), "time must be an ISO 8601 time", NULL);
}

static void test_order(void)
{
    CU_ASSERT_EQUAL(swx_param_order("start", cu_time("2024-10-01"), "end", cu_time("2024-10-02")),
                    0);
    CU_ASSERT_EQUAL(swx_param_order("start", 0, "end", 1), 0);
    fails(swx_param_order("start", cu_time("2024-10-02"), "end", cu_time("2024-10-01")),
          "end (2024-10-01T00:00:00Z) must be after start (2024-10-02T00:00:00Z)", NULL);
    fails(swx_param_order("from", 5, "to", 5), "to (1970-01-01T00:00:05Z) must be after from",
          NULL);
}

static void test_units(void)
{
    CU_ASSERT_EQUAL(swx_param_units("units", "si"), 0);
    CU_ASSERT_EQUAL(swx_param_units("units", "us"), 0);
    fails(swx_param_units("units", "SI"), "units must be si or us, not 'SI'", NULL);
    fails(swx_param_units("units", "metric"), "not 'metric'", NULL);
    fails(swx_param_units("units", ""), "units must be si or us, not ''", NULL);
    fails(swx_param_units("units", NULL), "units must be si or us", NULL);
}

static void test_bundles(void)
{
    CU_ASSERT_EQUAL(swx_param_bundles("bundles", "basic"), 0);
    CU_ASSERT_EQUAL(swx_param_bundles("bundles", "basic,maritime,agricultural,aviation,solar,wind"),
                    0);
    CU_ASSERT_EQUAL(swx_param_bundles("bundles", "wind,basic"), 0);

    const char *list = "basic, maritime, agricultural, aviation, solar, wind";
    fails(swx_param_bundles("bundles", "basic,snow"), "bundles must be a comma list of", list,
          "not 'basic,snow'", NULL);
    fails(swx_param_bundles("bundles", "basic,basic"), "(no repeats)", NULL);
    fails(swx_param_bundles("bundles", "basic,,wind"), "not 'basic,,wind'", NULL);
    fails(swx_param_bundles("bundles", "basic,"), "not 'basic,'", NULL);
    fails(swx_param_bundles("bundles", ",basic"), "not ',basic'", NULL);
    fails(swx_param_bundles("bundles", "Basic"), "not 'Basic'", NULL);
    fails(swx_param_bundles("bundles", "basic "), "not 'basic '", NULL);
    /* A prefix or an extension of a bundle's name is not that bundle. */
    fails(swx_param_bundles("bundles", "bas"), "not 'bas'", NULL);
    fails(swx_param_bundles("bundles", "basics"), "not 'basics'", NULL);
    fails(swx_param_bundles("bundles", ""), "bundles must be a comma list of", list, NULL);
    fails(swx_param_bundles("bundles", NULL), "bundles must be a comma list of", NULL);
    char *longs = repeat('a', 2000);
    fails(swx_param_bundles("bundles", longs), "bundles must be a comma list of", NULL);
    free(longs);
}

static void test_regions(void)
{
    CU_ASSERT_EQUAL(swx_param_regions("regions", "global"), 0);
    CU_ASSERT_EQUAL(swx_param_regions("regions", "north_sea,baltic-sea,R2"), 0);

    fails(swx_param_regions("regions", "north sea"), "regions: 'north sea' is not a valid region",
          "letters, digits, '_' and '-'", NULL);
    fails(swx_param_regions("regions", "a,b;c"), "regions: 'b;c' is not a valid region", NULL);
    fails(swx_param_regions("regions", "a,,b"), "regions: '' is not a valid region", NULL);
    fails(swx_param_regions("regions", "a,"), "regions: '' is not a valid region", NULL);
    fails(swx_param_regions("regions", "baltic,north,baltic"), "regions names 'baltic' twice",
          NULL);
    fails(swx_param_regions("regions", ""), "regions must name at least one region", NULL);
    fails(swx_param_regions("regions", NULL), "regions must name at least one region", NULL);

    /* One region: at most 64 characters. */
    char *r64 = repeat('r', 64), *r65 = repeat('r', 65);
    CU_ASSERT_EQUAL(swx_param_regions("regions", r64), 0);
    fails(swx_param_regions("regions", r65), "is not a valid region", NULL);
    /* The echo of a long item is cut at 60 characters. */
    CU_ASSERT_PTR_NULL(strstr(swx_error_last(), r64));
    free(r64);
    free(r65);

    /* The whole list: at most 1024 characters. */
    char list[1100];
    size_t at = 0;
    for (int i = 0; at < 1020; i++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%sr%03d", i ? "," : "", i);
    CU_ASSERT(strlen(list) <= 1024);
    CU_ASSERT_EQUAL(swx_param_regions("regions", list), 0);
    snprintf(list + at, sizeof list - at, ",r999");
    CU_ASSERT(strlen(list) > 1024);
    fails(swx_param_regions("regions", list), "regions is longer than 1024 characters", NULL);
}

static void test_tz(void)
{
    CU_ASSERT_EQUAL(swx_param_tz("tz", "UTC"), 0);
    CU_ASSERT_EQUAL(swx_param_tz("tz", "Europe/Oslo"), 0);
    CU_ASSERT_EQUAL(swx_param_tz("tz", "America/Argentina/Buenos_Aires"), 0);
    CU_ASSERT_EQUAL(swx_param_tz("tz", "Etc/GMT+5"), 0);
    CU_ASSERT_EQUAL(swx_param_tz("tz", "Etc/GMT-14"), 0);

    const char *form = "tz must be a time zone identifier such as UTC or Europe/Oslo";
    fails(swx_param_tz("tz", "/etc/passwd"), form, "not '/etc/passwd'", NULL);
    fails(swx_param_tz("tz", "Europe/../../etc"), form, NULL);
    fails(swx_param_tz("tz", "Europe/Oslo time"), form, NULL);
    fails(swx_param_tz("tz", "Europe\\Oslo"), form, NULL);
    fails(swx_param_tz("tz", "Europe/Oslo;rm"), form, NULL);
    fails(swx_param_tz("tz", ""), form, "not ''", NULL);
    fails(swx_param_tz("tz", NULL), form, NULL);
    char *t64 = repeat('A', 64), *t65 = repeat('A', 65);
    CU_ASSERT_EQUAL(swx_param_tz("tz", t64), 0);
    fails(swx_param_tz("tz", t65), form, NULL);
    free(t64);
    free(t65);
}

static void test_file_id(void)
{
    CU_ASSERT_EQUAL(swx_param_file_id("file", "soil_20241001.nc"), 0);
    CU_ASSERT_EQUAL(swx_param_file_id("file", "gfs.t00z+f003-v2.grib2"), 0);
    CU_ASSERT_EQUAL(swx_param_file_id("file", "...a"), 0);

    const char *form = "file must be a file name from the listing";
    fails(swx_param_file_id("file", "../secret"), form, "not '../secret'", NULL);
    fails(swx_param_file_id("file", "dir/file.nc"), form, NULL);
    fails(swx_param_file_id("file", "dir\\file.nc"), form, NULL);
    fails(swx_param_file_id("file", ".."), form, NULL);
    fails(swx_param_file_id("file", "."), form, NULL);
    fails(swx_param_file_id("file", "a b.nc"), form, NULL);
    fails(swx_param_file_id("file", "a\nb"), form, NULL);
    fails(swx_param_file_id("file", "caf\xc3\xa9.nc"), form, NULL);
    fails(swx_param_file_id("file", ""), form, "not ''", NULL);
    fails(swx_param_file_id("file", NULL), form, NULL);
    char *f255 = repeat('f', 255), *f256 = repeat('f', 256);
    CU_ASSERT_EQUAL(swx_param_file_id("file", f255), 0);
    fails(swx_param_file_id("file", f256), form, "at most 255 characters", NULL);
    free(f255);
    free(f256);
}

static void test_uuid(void)
{
    CU_ASSERT_EQUAL(swx_param_uuid("job", "3f2a9c1e-8b7d-4e6f-a1b2-c3d4e5f60718"), 0);
    CU_ASSERT_EQUAL(swx_param_uuid("job", "DEADBEEF"), 0);

    const char *form = "job must be a job uuid (8 to 64 hexadecimal digits and '-')";
    fails(swx_param_uuid("job", "deadbee"), form, "not 'deadbee'", NULL);
    fails(swx_param_uuid("job", "3f2a9c1g-8b7d"), form, NULL);
    fails(swx_param_uuid("job", "3f2a9c1e/../x"), form, NULL);
    fails(swx_param_uuid("job", ""), form, NULL);
    fails(swx_param_uuid("job", NULL), form, NULL);
    char *u64 = repeat('a', 64), *u65 = repeat('a', 65);
    CU_ASSERT_EQUAL(swx_param_uuid("job", u64), 0);
    fails(swx_param_uuid("job", u65), form, NULL);
    free(u64);
    free(u65);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("params", NULL, NULL);
    CU_add_test(s, "number: range, form, not finite", test_number);
    CU_add_test(s, "whole number: range, form, overflow", test_int);
    CU_add_test(s, "latitude and longitude", test_lat_lon);
    CU_add_test(s, "ISO 8601 time", test_time);
    CU_add_test(s, "time or range", test_time_or_range);
    CU_add_test(s, "end after start", test_order);
    CU_add_test(s, "units", test_units);
    CU_add_test(s, "forecast bundles", test_bundles);
    CU_add_test(s, "regions: form, repeats, limits", test_regions);
    CU_add_test(s, "time zones", test_tz);
    CU_add_test(s, "file names from a listing", test_file_id);
    CU_add_test(s, "job ids", test_uuid);
    return cu_run();
}

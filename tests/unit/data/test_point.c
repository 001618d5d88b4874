/* test_point.c: point queries are checked before sending, and every answer
 * shape of lib/data/point.c is read into typed rows (fixtures in points/). */
#include "cu_support.h"

#include "point_answer.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/point.h"
#include "seawx/table.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

static swx_table *parse_fixture(const swx_point_query *q, const char *name)
{
    size_t len;
    char *body = cu_fixture(name, &len);
    swx_table *t = NULL;
    int rc = swx_point_parse(&t, q, body, len);
    free(body);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc)
        fprintf(stderr, "%s: %s\n", name, swx_error_last());
    return t;
}

static long col(const swx_table *t, const char *name)
{
    return swx_table_find_column(t, name);
}

static int64_t iso(const char *s)
{
    int64_t t = 0;
    swx_iso8601_parse(&t, s);
    return t;
}

/* The check refuses, with a line naming the parameter and its range. */
static void refused(const swx_point_query *q, const char *needle)
{
    swx_error_clear();
    CU_ASSERT_EQUAL(swx_point_check(q), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), needle));
    if (!strstr(swx_error_last(), needle))
        fprintf(stderr, "expected '%s' in: %s\n", needle, swx_error_last());
}

static void test_check(void)
{
    swx_point_query q = {.kind = SWX_POINT_TIDES, .lat = "59.9", .lon = "10.7"};
    /* Without a start the service begins at its now, past the archive's end
     * (2025-12-31) from 2026 on: refused before sending. */
    refused(&q, "without a start, tides begin now");
    q.start = "2024-01-15T00:00:00Z";
    CU_ASSERT_EQUAL(swx_point_check(&q), 0);
    q.start = NULL;
    q.lat = "91";
    refused(&q, "lat must be a number from -90 to 90");
    q.lat = "abc";
    refused(&q, "lat must be a number from -90 to 90, not 'abc'");
    q.lat = NULL;
    refused(&q, "lat is required");
    q.lat = "0";
    q.lon = "-180.5";
    refused(&q, "lon must be a number from -180 to 180");
    q.lon = "180";
    q.hours = "241";
    refused(&q, "forecast_hours) must be a whole number from 1 to 240");
    q.hours = "240";
    q.start = "2024-01-15T00:00:00Z";
    CU_ASSERT_EQUAL(swx_point_check(&q), 0);
    q.start = "1989-12-31T23:00:00Z";
    refused(&q, "outside the tide archive, which covers 1990-01-01 to 2025-12-31");
    q.start = "2025-12-31T00:00:00Z"; /* 240 hours run past the archive */
    refused(&q, "tide archive");
    q.hours = "24";
    CU_ASSERT_EQUAL(swx_point_check(&q), 0);
    q.start = "2024-02-30";
    refused(&q, "start must be an ISO 8601 time");
    q.start = "2024-02-01";
    q.units = "metric";
    refused(&q, "units must be si or us");
    q.units = "us";
    q.tz = "UTC";
    refused(&q, "tz is not a parameter of tides");
    q.tz = NULL;
    CU_ASSERT_EQUAL(swx_point_check(&q), 0);

    swx_point_query e = {.kind = SWX_POINT_TIDE_EXTREMA, .lat = "1", .lon = "2"};
    refused(&e, "tide-extrema queries need start");
    e.start = "2024-01-05";
    e.end = "2024-01-01";
    refused(&e, "end (2024-01-01T00:00:00Z) must be after start");
    e.end = "2026-01-02";
    refused(&e, "tide archive");
    e.end = "2024-01-07";
    CU_ASSERT_EQUAL(swx_point_check(&e), 0);

    swx_point_query f = {.kind = SWX_POINT_FORECAST, .lat = "1", .lon = "2"};
    refused(&f, "forecast queries need bundles");
    f.bundles = "basic,nautical";
    refused(&f, "bundles must be a comma list of basic, maritime");
    f.bundles = "basic,basic";
    refused(&f, "bundles");
    f.bundles = "basic,maritime,wind";
    CU_ASSERT_EQUAL(swx_point_check(&f), 0);
    f.kind = SWX_POINT_FORECAST_LATEST;
    f.units = "si";
    refused(&f, "units is not a parameter of forecast-latest");

    swx_point_query w = {.kind = SWX_POINT_WEATHER, .lat = "1", .lon = "2"};
    w.fields = "{data{values{air_temperature,wind_speed}}";
    refused(&w, "fields: malformed field mask");
    w.fields = "{data{values{air_temperature,wind_speed}}}";
    w.time = "2024-01-02T00:00:00Z/2024-01-01T00:00:00Z";
    refused(&w, "is not after its start");
    w.time = "2024-01-01T00:00:00Z/2024-01-02T00:00:00Z";
    w.tz = "Europe/Oslo";
    CU_ASSERT_EQUAL(swx_point_check(&w), 0);
    w.tz = "../etc";
    refused(&w, "tz must be a time zone identifier");

    swx_point_query s = {.kind = SWX_POINT_SOIL_HISTORY, .lat = "1", .lon = "2"};
    s.start = "2024-01-01";
    refused(&s, "soil-history queries need end");
}

static void test_weather(void)
{
    swx_point_query q = {.kind = SWX_POINT_WEATHER, .lat = "59.9", .lon = "10.7"};
    swx_table *t = parse_fixture(&q, "points/weather.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(swx_table_rows(t), 3);
    CU_ASSERT_STRING_EQUAL(swx_table_meta(t, "unit_system"), "us");
    long tc = col(t, "observation_time"), at = col(t, "air_temperature");
    CU_ASSERT_TRUE(tc >= 0 && at >= 0);
    /* Z, +00:00 and no offset all read as UTC. */
    CU_ASSERT_EQUAL(swx_table_get_time(t, 0, (size_t)tc), iso("2024-01-15T16:00:00Z"));
    CU_ASSERT_EQUAL(swx_table_get_time(t, 1, (size_t)tc), iso("2024-01-15T17:00:00Z"));
    CU_ASSERT_EQUAL(swx_table_get_time(t, 2, (size_t)tc), iso("2024-01-15T18:00:00Z"));
    CU_ASSERT_TRUE(swx_table_is_null(t, 1, (size_t)at));
    CU_ASSERT_DOUBLE_EQUAL(swx_table_get_real(t, 0, (size_t)at), 28.4, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_table_get_real(t, 0, (size_t)col(t, "lat")), 59.91, 1e-9);
    size_t la, lo;
    CU_ASSERT_TRUE(swx_table_point_columns(&la, &lo, t));
    swx_table_free(t);

    /* A masked answer: only the named values, the query's place, no time column. */
    t = parse_fixture(&q, "points/weather_masked.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(swx_table_columns(t), 4);
    CU_ASSERT_EQUAL(col(t, "observation_time"), -1);
    CU_ASSERT_EQUAL(col(t, "relative_humidity"), -1);
    CU_ASSERT_DOUBLE_EQUAL(swx_table_get_real(t, 0, (size_t)col(t, "lon")), 10.7, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_table_get_real(t, 0, (size_t)col(t, "wind_speed")), 5.6, 1e-9);
    swx_table_free(t);
}

static void test_tides(void)
{
    swx_point_query q = {.kind = SWX_POINT_TIDES, .lat = "-33.86", .lon = "151.21"};
    swx_table *t = parse_fixture(&q, "points/tides.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(swx_table_rows(t), 2);
    CU_ASSERT_STRING_EQUAL(swx_table_meta(t, "height_unit"), "m");
    CU_ASSERT_EQUAL(swx_table_get_time(t, 1, (size_t)col(t, "valid_time")),
                    iso("2024-03-01T01:00:00Z"));
    CU_ASSERT_DOUBLE_EQUAL(swx_table_get_real(t, 1, (size_t)col(t, "tide_height")), -0.125, 1e-9);
    swx_table_free(t);

    swx_point_query e = {.kind = SWX_POINT_TIDE_EXTREMA,
                         .lat = "1",
                         .lon = "2",
                         .start = "2024-03-01",
                         .end = "2024-03-02"};
    t = parse_fixture(&e, "points/extrema.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(swx_table_rows(t), 2);
    CU_ASSERT_STRING_EQUAL(swx_table_meta(t, "height_unit"), "ft");
    CU_ASSERT_STRING_EQUAL(swx_table_meta(t, "message"), "heights relative to MSL");
    CU_ASSERT_EQUAL(swx_table_column_type(t, (size_t)col(t, "date")), SWX_COL_DATE);
    CU_ASSERT_EQUAL(swx_table_get_time(t, 1, (size_t)col(t, "date")), iso("2024-03-02"));
    CU_ASSERT_DOUBLE_EQUAL(swx_table_get_real(t, 1, (size_t)col(t, "low_tide_height")), -2.4, 1e-9);
    CU_ASSERT_EQUAL(swx_table_get_time(t, 0, (size_t)col(t, "high_time")),
                    iso("2024-03-01T05:10:00Z"));
    swx_table_free(t);
}

static void test_soil_forecast(void)
{
    swx_point_query q = {.kind = SWX_POINT_SOIL, .lat = "52.5", .lon = "13.4"};
    swx_table *t = parse_fixture(&q, "points/soil.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(swx_table_column_name(t, 3), "soil_moisture_0_10cm");
    CU_ASSERT_DOUBLE_EQUAL(swx_table_get_real(t, 0, (size_t)col(t, "soil_temperature_0_10cm")),
                           276.4, 1e-9);
    swx_table_free(t);

    swx_point_query h = {.kind = SWX_POINT_SOIL_HISTORY,
                         .lat = "52.5",
                         .lon = "13.4",
                         .start = "2024-01-01",
                         .end = "2024-01-03"};
    t = parse_fixture(&h, "points/soil_history.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(swx_table_rows(t), 2);
    /* History records carry no location: the query's place is used. */
    CU_ASSERT_DOUBLE_EQUAL(swx_table_get_real(t, 1, (size_t)col(t, "lat")), 52.5, 1e-9);
    swx_table_free(t);

    swx_point_query f = {.kind = SWX_POINT_FORECAST, .lat = "1.29", .lon = "103.85"};
    f.bundles = "basic";
    t = parse_fixture(&f, "points/forecast.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(swx_table_meta(t, "forecast"), "sof-d");
    CU_ASSERT_EQUAL(swx_table_get_time(t, 0, (size_t)col(t, "issuance_time")),
                    iso("2024-01-15T00:00:00Z"));
    CU_ASSERT_DOUBLE_EQUAL(swx_table_get_real(t, 0, (size_t)col(t, "eastward_wind")), -3.4, 1e-9);
    swx_table_free(t);
}

static void test_bad_answers(void)
{
    swx_point_query q = {.kind = SWX_POINT_WEATHER, .lat = "1", .lon = "2"};
    size_t len;
    swx_table *t = NULL;
    char *body = cu_fixture("points/no_data.json", &len);
    CU_ASSERT_EQUAL(swx_point_parse(&t, &q, body, len), SWX_ESERVICE);
    CU_ASSERT_PTR_NULL(t);
    free(body);
    body = cu_fixture("points/truncated.json", &len);
    CU_ASSERT_EQUAL(swx_point_parse(&t, &q, body, len), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "ends too early"));
    CU_ASSERT_PTR_NULL(t);
    free(body);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("point", NULL, NULL);
    CU_add_test(s, "parameters checked before sending", test_check);
    CU_add_test(s, "current weather, offsets, masks", test_weather);
    CU_add_test(s, "tides and extrema", test_tides);
    CU_add_test(s, "soil moisture and forecast", test_soil_forecast);
    CU_add_test(s, "unusable answers", test_bad_answers);
    return cu_run();
}

/* test_wms_time.c: WMS time dimension values (lib/wms/wms_time.c). */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/wms_time.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static swx_timedim *parse_ok(const char *text, const char *def)
{
    swx_timedim *d = NULL;
    int rc = swx_timedim_parse(&d, text, strlen(text), def);
    if (rc)
        fprintf(stderr, "unexpected failure: %s\n", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    return d;
}

/* Parses text expecting failure with code; the error line must contain want. */
static void parse_fails(const char *text, int code, const char *want)
{
    swx_timedim *d = (swx_timedim *)1;
    int rc = swx_timedim_parse(&d, text, strlen(text), NULL);
    CU_ASSERT_EQUAL(rc, code);
    CU_ASSERT_PTR_NULL(d);
    if (!strstr(swx_error_last(), want))
        fprintf(stderr, "error line '%s' lacks '%s'\n", swx_error_last(), want);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), want));
}

static void test_instants_sorted_distinct(void)
{
    swx_timedim *d =
        parse_ok("\n  2024-10-01T03:00:00Z ,\t2024-10-01T00:00:00Z,2024-10-01T01:00:00Z,"
                 "2024-10-01T00:00:00Z, 2024-10-01T01:00:00+00:00,\r\n"
                 "2024-10-01T02:00:00 ,",
                 NULL);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 4);
    CU_ASSERT_EQUAL(swx_timedim_get(d, 0), cu_time("2024-10-01T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 1), cu_time("2024-10-01T01:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 2), cu_time("2024-10-01T02:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 3), cu_time("2024-10-01T03:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 4), INT64_MIN);
    CU_ASSERT_EQUAL(swx_timedim_first(d), cu_time("2024-10-01T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_last(d), cu_time("2024-10-01T03:00:00Z"));
    swx_timedim_free(d);
}

static void test_single_instant(void)
{
    swx_timedim *d = parse_ok("2024-10-01T06:00:00Z", NULL);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 1);
    CU_ASSERT_EQUAL(swx_timedim_first(d), swx_timedim_last(d));
    CU_ASSERT_EQUAL(swx_timedim_default(d), cu_time("2024-10-01T06:00:00Z"));
    CU_ASSERT_TRUE(swx_timedim_contains(d, cu_time("2024-10-01T06:00:00Z")));
    CU_ASSERT_FALSE(swx_timedim_contains(d, cu_time("2024-10-01T06:00:01Z")));
    swx_timedim_free(d);
}

static void test_interval_basic(void)
{
    swx_timedim *d = parse_ok("2024-10-01T00:00:00Z/2024-10-01T12:00:00Z/PT3H", NULL);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 5);
    CU_ASSERT_EQUAL(swx_timedim_get(d, 2), cu_time("2024-10-01T06:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_last(d), cu_time("2024-10-01T12:00:00Z"));
    swx_timedim_free(d);

    /* The end is not on a step: the last value is the last step before it. */
    d = parse_ok(" 2024-10-01T00:00:00Z / 2024-10-01T10:00:00Z / PT3H ", NULL);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 4);
    CU_ASSERT_EQUAL(swx_timedim_last(d), cu_time("2024-10-01T09:00:00Z"));
    swx_timedim_free(d);

    /* start == end is one instant. */
    d = parse_ok("2024-10-01T00:00:00Z/2024-10-01T00:00:00Z/PT1H", NULL);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 1);
    swx_timedim_free(d);

    /* Weeks, and days with hours. */
    d = parse_ok("2024-01-01T00:00:00Z/2024-03-01T00:00:00Z/P1W,"
                 "2024-06-01T00:00:00Z/2024-06-03T00:00:00Z/P1DT12H",
                 NULL);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 9 + 2);
    CU_ASSERT_EQUAL(swx_timedim_get(d, 8), cu_time("2024-02-26T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 10), cu_time("2024-06-02T12:00:00Z"));
    swx_timedim_free(d);

    /* Before 1970. */
    d = parse_ok("1960-01-01T00:00:00Z/1960-01-02T00:00:00Z/PT6H", NULL);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 5);
    CU_ASSERT_TRUE(swx_timedim_contains(d, cu_time("1960-01-01T18:00:00Z")));
    CU_ASSERT_FALSE(swx_timedim_contains(d, cu_time("1960-01-01T19:00:00Z")));
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(d, cu_time("1960-01-01T19:00:00Z")), 4);
    swx_timedim_free(d);
}

/* The service's 15-day run, written as intervals, plus instants. */
static const char *const FORECAST = "2024-10-01T00:00:00Z/2024-10-03T00:00:00Z/PT1H,"
                                    "2024-10-03T03:00:00Z/2024-10-06T00:00:00Z/PT3H,"
                                    "2024-10-06T06:00:00Z/2024-10-16T00:00:00Z/PT6H,"
                                    "2024-10-02T00:00:00Z,"
                                    "2024-10-16T12:00:00Z";

static void test_interval_values_at_indices(void)
{
    swx_timedim *d = parse_ok(FORECAST, NULL);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 49 + 24 + 40 + 1);
    CU_ASSERT_EQUAL(swx_timedim_get(d, 0), cu_time("2024-10-01T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 24), cu_time("2024-10-02T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 48), cu_time("2024-10-03T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 49), cu_time("2024-10-03T03:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 72), cu_time("2024-10-06T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 73), cu_time("2024-10-06T06:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 112), cu_time("2024-10-16T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 113), cu_time("2024-10-16T12:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_last(d), cu_time("2024-10-16T12:00:00Z"));
    for (size_t i = 1; i < swx_timedim_count(d); i++)
        CU_ASSERT_TRUE(swx_timedim_get(d, i) > swx_timedim_get(d, i - 1));
    swx_timedim_free(d);
}

static void test_contains_and_lower_bound(void)
{
    swx_timedim *d = parse_ok(FORECAST, NULL);
    CU_ASSERT_FATAL(d != NULL);
    size_t n = swx_timedim_count(d);
    CU_ASSERT_TRUE(swx_timedim_contains(d, cu_time("2024-10-01T17:00:00Z")));
    CU_ASSERT_TRUE(swx_timedim_contains(d, cu_time("2024-10-04T09:00:00Z")));
    CU_ASSERT_FALSE(swx_timedim_contains(d, cu_time("2024-10-04T10:00:00Z")));
    CU_ASSERT_FALSE(swx_timedim_contains(d, cu_time("2024-10-01T17:30:00Z")));
    CU_ASSERT_FALSE(swx_timedim_contains(d, cu_time("2024-09-30T23:00:00Z")));
    CU_ASSERT_FALSE(swx_timedim_contains(d, cu_time("2024-10-16T06:00:00Z")));
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(d, cu_time("2000-01-01T00:00:00Z")), 0);
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(d, cu_time("2024-10-01T00:00:00Z")), 0);
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(d, cu_time("2024-10-01T00:00:01Z")), 1);
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(d, cu_time("2024-10-03T01:00:00Z")), 49);
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(d, cu_time("2024-10-03T03:00:00Z")), 49);
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(d, cu_time("2024-10-03T04:00:00Z")), 50);
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(d, cu_time("2024-10-16T12:00:00Z")), n - 1);
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(d, cu_time("2024-10-16T12:00:01Z")), n);
    /* lower_bound agrees with a linear scan everywhere on a 30-minute grid. */
    for (int64_t t = cu_time("2024-09-30T22:00:00Z"); t <= cu_time("2024-10-17T00:00:00Z");
         t += 1800) {
        size_t want = 0;
        while (want < n && swx_timedim_get(d, want) < t)
            want++;
        CU_ASSERT_EQUAL(swx_timedim_lower_bound(d, t), want);
        CU_ASSERT_EQUAL(swx_timedim_contains(d, t), want < n && swx_timedim_get(d, want) == t);
    }
    swx_timedim_free(d);
}

static void test_nearest(void)
{
    swx_timedim *d = parse_ok(FORECAST, NULL);
    CU_ASSERT_FATAL(d != NULL);
    int64_t out[8];
    /* 2024-10-03T01:00 lies between 00:00 (1 h before) and 03:00 (2 h after). */
    size_t n = swx_timedim_nearest(d, cu_time("2024-10-03T01:00:00Z"), out, 4);
    CU_ASSERT_EQUAL(n, 4);
    CU_ASSERT_EQUAL(out[0], cu_time("2024-10-03T00:00:00Z"));
    CU_ASSERT_EQUAL(out[1], cu_time("2024-10-02T23:00:00Z")); /* tie at 2 h: the earlier first */
    CU_ASSERT_EQUAL(out[2], cu_time("2024-10-03T03:00:00Z"));
    CU_ASSERT_EQUAL(out[3], cu_time("2024-10-02T22:00:00Z"));
    /* An exact value comes first. */
    n = swx_timedim_nearest(d, cu_time("2024-10-06T06:00:00Z"), out, 3);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_EQUAL(out[0], cu_time("2024-10-06T06:00:00Z"));
    CU_ASSERT_EQUAL(out[1], cu_time("2024-10-06T00:00:00Z"));
    CU_ASSERT_EQUAL(out[2], cu_time("2024-10-06T12:00:00Z"));
    /* Before the first and after the last. */
    n = swx_timedim_nearest(d, cu_time("2020-01-01T00:00:00Z"), out, 2);
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_EQUAL(out[0], cu_time("2024-10-01T00:00:00Z"));
    CU_ASSERT_EQUAL(out[1], cu_time("2024-10-01T01:00:00Z"));
    n = swx_timedim_nearest(d, cu_time("2030-01-01T00:00:00Z"), out, 1);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_EQUAL(out[0], cu_time("2024-10-16T12:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_nearest(d, 0, out, 0), 0);
    swx_timedim_free(d);

    /* max beyond the count gives every value, nearest first. */
    d = parse_ok("2024-10-01T00:00:00Z,2024-10-01T06:00:00Z,2024-10-01T09:00:00Z", NULL);
    CU_ASSERT_FATAL(d != NULL);
    n = swx_timedim_nearest(d, cu_time("2024-10-01T05:00:00Z"), out, 8);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_EQUAL(out[0], cu_time("2024-10-01T06:00:00Z"));
    CU_ASSERT_EQUAL(out[1], cu_time("2024-10-01T09:00:00Z"));
    CU_ASSERT_EQUAL(out[2], cu_time("2024-10-01T00:00:00Z"));
    swx_timedim_free(d);
}

static void test_huge_interval_is_cheap(void)
{
    swx_timedim *d = parse_ok("1990-01-01T00:00:00Z/2100-01-01T00:00:00Z/PT1M", "current");
    CU_ASSERT_FATAL(d != NULL);
    size_t minutes =
        (size_t)(swx_days_from_civil(2100, 1, 1) - swx_days_from_civil(1990, 1, 1)) * 1440;
    CU_ASSERT_EQUAL(swx_timedim_count(d), minutes + 1);
    CU_ASSERT_EQUAL(swx_timedim_get(d, minutes), cu_time("2100-01-01T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 60 * 24), cu_time("1990-01-02T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_default(d), cu_time("2100-01-01T00:00:00Z"));
    CU_ASSERT_TRUE(swx_timedim_contains(d, cu_time("2024-10-01T12:34:00Z")));
    CU_ASSERT_FALSE(swx_timedim_contains(d, cu_time("2024-10-01T12:34:30Z")));
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(d, cu_time("1990-01-01T01:00:30Z")), 61);
    int64_t out[3];
    CU_ASSERT_EQUAL(swx_timedim_nearest(d, cu_time("2024-10-01T12:34:20Z"), out, 3), 3);
    CU_ASSERT_EQUAL(out[0], cu_time("2024-10-01T12:34:00Z"));
    CU_ASSERT_EQUAL(out[1], cu_time("2024-10-01T12:35:00Z"));
    CU_ASSERT_EQUAL(out[2], cu_time("2024-10-01T12:33:00Z"));
    swx_timedim_free(d);
}

static void test_overlaps_count_once(void)
{
    /* Same period and phase: merged into one run. */
    swx_timedim *d = parse_ok("2024-10-01T00:00:00Z/2024-10-01T12:00:00Z/PT1H,"
                              "2024-10-01T06:00:00Z/2024-10-01T18:00:00Z/PT1H,"
                              "2024-10-01T18:00:00Z,2024-10-01T03:00:00Z",
                              NULL);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 19);
    CU_ASSERT_EQUAL(swx_timedim_get(d, 18), cu_time("2024-10-01T18:00:00Z"));
    swx_timedim_free(d);

    /* Instants that continue an interval. */
    d = parse_ok("2024-10-01T00:00:00Z,2024-10-01T01:00:00Z,2024-10-01T02:00:00Z,"
                 "2024-10-01T03:00:00Z/2024-10-01T06:00:00Z/PT1H,2024-10-01T07:00:00Z",
                 NULL);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 8);
    for (size_t i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(swx_timedim_get(d, i), cu_time("2024-10-01T00:00:00Z") + (int64_t)i * 3600);
    swx_timedim_free(d);

    /* Different periods, an instant off the step, a duplicate. */
    d = parse_ok("2024-10-01T00:00:00Z/2024-10-01T12:00:00Z/PT3H,"
                 "2024-10-01T06:00:00Z/2024-10-01T10:00:00Z/PT2H,"
                 "2024-10-01T07:30:00Z,2024-10-01T09:00:00Z",
                 NULL);
    CU_ASSERT_FATAL(d != NULL);
    static const char *const want[] = {"2024-10-01T00:00:00Z", "2024-10-01T03:00:00Z",
                                       "2024-10-01T06:00:00Z", "2024-10-01T07:30:00Z",
                                       "2024-10-01T08:00:00Z", "2024-10-01T09:00:00Z",
                                       "2024-10-01T10:00:00Z", "2024-10-01T12:00:00Z"};
    CU_ASSERT_EQUAL(swx_timedim_count(d), 8);
    for (size_t i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(swx_timedim_get(d, i), cu_time(want[i]));
    CU_ASSERT_TRUE(swx_timedim_contains(d, cu_time("2024-10-01T07:30:00Z")));
    CU_ASSERT_FALSE(swx_timedim_contains(d, cu_time("2024-10-01T04:00:00Z")));
    swx_timedim_free(d);

    /* An instant between the steps of an interval. */
    d = parse_ok("2024-10-01T00:00:00Z/2024-10-01T12:00:00Z/PT3H,2024-10-01T04:00:00Z", NULL);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 6);
    CU_ASSERT_EQUAL(swx_timedim_get(d, 2), cu_time("2024-10-01T04:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(d, 3), cu_time("2024-10-01T06:00:00Z"));
    swx_timedim_free(d);
}

static void test_overlap_too_big_to_expand(void)
{
    parse_fails("1990-01-01T00:00:00Z/2100-01-01T00:00:00Z/PT1M,2000-01-01T00:00:30Z", SWX_ETOOBIG,
                "would expand to more than");
}

static void test_defaults(void)
{
    const char *v = "2024-10-01T00:00:00Z/2024-10-01T12:00:00Z/PT3H";
    struct {
        const char *attr;
        const char *want;
    } cases[] = {
        {NULL, "2024-10-01T00:00:00Z"},
        {"", "2024-10-01T00:00:00Z"},
        {"current", "2024-10-01T12:00:00Z"},
        {" CURRENT ", "2024-10-01T12:00:00Z"},
        {"2024-10-01T06:00:00Z", "2024-10-01T06:00:00Z"},
        {"2024-10-01T06:00:00+00:00", "2024-10-01T06:00:00Z"},
        {"2024-10-01T09:00:00", "2024-10-01T09:00:00Z"},
        {" 2024-10-01T09:00:00.000Z\n", "2024-10-01T09:00:00Z"},
        {"2024-10-01T07:00:00Z", "2024-10-01T00:00:00Z"}, /* not a value */
        {"2030-01-01T00:00:00Z", "2024-10-01T00:00:00Z"}, /* outside */
        {"yesterday", "2024-10-01T00:00:00Z"},
        {"2024-10-01T00:00:00Z/2024-10-01T12:00:00Z/PT3H", "2024-10-01T00:00:00Z"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        swx_timedim *d = parse_ok(v, cases[i].attr);
        CU_ASSERT_FATAL(d != NULL);
        if (swx_timedim_default(d) != cu_time(cases[i].want))
            fprintf(stderr, "default '%s' not read as %s\n", cases[i].attr ? cases[i].attr : "NULL",
                    cases[i].want);
        CU_ASSERT_EQUAL(swx_timedim_default(d), cu_time(cases[i].want));
        swx_timedim_free(d);
    }
}

static void test_errors(void)
{
    parse_fails("2024-10-01T00:00:00Z/2024-10-02T00:00:00Z", SWX_EPARSE, "has no period");
    parse_fails("2024-10-01T00:00:00Z/2024-10-02T00:00:00Z", SWX_EPARSE,
                "'2024-10-01T00:00:00Z/2024-10-02T00:00:00Z'");
    parse_fails("2024-01-01T00:00:00Z/2024-12-01T00:00:00Z/P1M", SWX_EPARSE, "years or months");
    parse_fails("2024-01-01T00:00:00Z/2030-01-01T00:00:00Z/P1Y", SWX_EPARSE, "years or months");
    parse_fails("2024-10-01T00:00:00Z/2024-10-02T00:00:00Z/1H", SWX_EPARSE, "'1H'");
    parse_fails("2024-10-02T00:00:00Z/2024-10-01T00:00:00Z/PT1H", SWX_EPARSE,
                "ends before it starts");
    parse_fails("2024-10-01T00:00:00Z/2024-10-02T00:00:00Z/PT1H/PT2H", SWX_EPARSE,
                "more than three parts");
    parse_fails("2024-10-01T00:00:00Z,2024-13-01T00:00:00Z", SWX_EPARSE, "'2024-13-01T00:00:00Z'");
    parse_fails("2024-10-01T00:00:00Z, now", SWX_EPARSE, "'now'");
    parse_fails("", SWX_EPARSE, "lists no values");
    parse_fails(" , ,\n", SWX_EPARSE, "lists no values");

    swx_timedim *d = NULL;
    CU_ASSERT_EQUAL(swx_timedim_parse(NULL, "x", 1, NULL), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_timedim_parse(&d, NULL, 3, NULL), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(d);
}

static void test_limits(void)
{
    /* More items than allowed. */
    const char *item = "2024-10-01T00:00:00Z,";
    size_t n = 100001, len = strlen(item);
    char *text = malloc(n * len + 1);
    CU_ASSERT_FATAL(text != NULL);
    for (size_t i = 0; i < n; i++)
        memcpy(text + i * len, item, len);
    text[n * len] = '\0';
    swx_timedim *d = NULL;
    CU_ASSERT_EQUAL(swx_timedim_parse(&d, text, n * len, NULL), SWX_ETOOBIG);
    CU_ASSERT_PTR_NULL(d);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "more than 100000 items"));
    /* Up to the limit is fine, and the duplicates count once. */
    CU_ASSERT_EQUAL(swx_timedim_parse(&d, text, (n - 1) * len, NULL), 0);
    CU_ASSERT_EQUAL(swx_timedim_count(d), 1);
    swx_timedim_free(d);
    free(text);

    /* More text than allowed. */
    size_t big = 4u * 1024u * 1024u + 1;
    text = malloc(big);
    CU_ASSERT_FATAL(text != NULL);
    memset(text, ' ', big);
    memcpy(text, "2024-10-01T00:00:00Z", 20);
    d = NULL;
    CU_ASSERT_EQUAL(swx_timedim_parse(&d, text, big, NULL), SWX_ETOOBIG);
    CU_ASSERT_PTR_NULL(d);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "bytes long"));
    free(text);
}

static void test_null_safety(void)
{
    int64_t out[1];
    CU_ASSERT_EQUAL(swx_timedim_count(NULL), 0);
    CU_ASSERT_EQUAL(swx_timedim_get(NULL, 0), INT64_MIN);
    CU_ASSERT_FALSE(swx_timedim_contains(NULL, 0));
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(NULL, 0), 0);
    CU_ASSERT_EQUAL(swx_timedim_nearest(NULL, 0, out, 1), 0);
    swx_timedim_free(NULL);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("wms_time", NULL, NULL);
    CU_add_test(s, "instants are sorted and distinct", test_instants_sorted_distinct);
    CU_add_test(s, "a single instant", test_single_instant);
    CU_add_test(s, "intervals start/end/period", test_interval_basic);
    CU_add_test(s, "interval values at indices", test_interval_values_at_indices);
    CU_add_test(s, "contains and lower_bound", test_contains_and_lower_bound);
    CU_add_test(s, "nearest", test_nearest);
    CU_add_test(s, "a century by the minute is cheap", test_huge_interval_is_cheap);
    CU_add_test(s, "overlapping values count once", test_overlaps_count_once);
    CU_add_test(s, "overlaps too big to expand are refused", test_overlap_too_big_to_expand);
    CU_add_test(s, "default attribute", test_defaults);
    CU_add_test(s, "errors quote the bad item", test_errors);
    CU_add_test(s, "item and size limits", test_limits);
    CU_add_test(s, "NULL is harmless", test_null_safety);
    return cu_run();
}

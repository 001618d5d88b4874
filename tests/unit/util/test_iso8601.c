/* test_iso8601.c: instants in the three forms the service writes, durations. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <CUnit/CUnit.h>
#include <string.h>

static int64_t parse(const char *s)
{
    int64_t t = -1;
    CU_ASSERT_EQUAL(swx_iso8601_parse(&t, s), 0);
    return t;
}

static void test_three_forms(void)
{
    int64_t want = 1727740800; /* 2024-10-01T00:00:00Z */
    CU_ASSERT_EQUAL(parse("2024-10-01T00:00:00Z"), want);
    CU_ASSERT_EQUAL(parse("2024-10-01T00:00:00+00:00"), want);
    CU_ASSERT_EQUAL(parse("2024-10-01T00:00:00"), want);
    CU_ASSERT_EQUAL(parse("2024-10-01T00:00:00.000Z"), want);
    CU_ASSERT_EQUAL(parse("2024-10-01"), want);
    CU_ASSERT_EQUAL(parse("2024-10-01T02:00:00+02:00"), want);
    CU_ASSERT_EQUAL(parse("2024-09-30T22:00:00-0200"), want);
    CU_ASSERT_EQUAL(parse("2024-10-01T00:00Z"), want);
    CU_ASSERT_EQUAL(parse("1970-01-01T00:00:00Z"), 0);
    CU_ASSERT_EQUAL(parse("2000-02-29T12:00:00Z"), 951825600);
}

static void test_bad(void)
{
    const char *bad[] = {"",
                         "2024-13-01T00:00:00Z",
                         "2024-02-30T00:00:00Z",
                         "2023-02-29",
                         "2024-10-01T25:00:00Z",
                         "2024-10-01T00:60:00Z",
                         "2024-10-01 00:00:00Z",
                         "2024-10-01T00:00:00Zjunk",
                         " 2024-10-01T00:00:00Z",
                         "24-10-01",
                         "2024-10-01T00:00:00+25:00",
                         NULL};
    for (int i = 0; bad[i]; i++) {
        int64_t t;
        CU_ASSERT_EQUAL(swx_iso8601_parse(&t, bad[i]), SWX_EINVAL);
    }
    int64_t t;
    swx_iso8601_parse(&t, "2024-13-01");
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "'2024-13-01' is not an ISO 8601 time"));
}

static void test_format(void)
{
    char s[SWX_ISO8601_LEN];
    swx_iso8601_format(s, 1727740800 + 3600 * 5 + 61);
    CU_ASSERT_STRING_EQUAL(s, "2024-10-01T05:01:01Z");
    swx_iso8601_format(s, -1);
    CU_ASSERT_STRING_EQUAL(s, "1969-12-31T23:59:59Z");
    /* Round trip over several years of hours. */
    for (int64_t x = 631152000; x < 1900000000; x += 3600 * 997) {
        swx_iso8601_format(s, x);
        CU_ASSERT_EQUAL(parse(s), x);
    }
}

static void test_durations(void)
{
    int64_t d;
    CU_ASSERT_EQUAL(swx_iso8601_duration_parse_n(&d, "PT1H", 4), 0);
    CU_ASSERT_EQUAL(d, 3600);
    CU_ASSERT_EQUAL(swx_iso8601_duration_parse_n(&d, "P1DT12H", 7), 0);
    CU_ASSERT_EQUAL(d, 129600);
    CU_ASSERT_EQUAL(swx_iso8601_duration_parse_n(&d, "PT30M", 5), 0);
    CU_ASSERT_EQUAL(d, 1800);
    CU_ASSERT_EQUAL(swx_iso8601_duration_parse_n(&d, "P2W", 3), 0);
    CU_ASSERT_EQUAL(d, 14 * 86400);
    CU_ASSERT_EQUAL(swx_iso8601_duration_parse_n(&d, "PT90S", 5), 0);
    CU_ASSERT_EQUAL(d, 90);
    CU_ASSERT_EQUAL(swx_iso8601_duration_parse_n(&d, "P1M", 3), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "months"));
    CU_ASSERT_EQUAL(swx_iso8601_duration_parse_n(&d, "P1Y", 3), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_iso8601_duration_parse_n(&d, "PT", 2), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_iso8601_duration_parse_n(&d, "PT0H", 4), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_iso8601_duration_parse_n(&d, "1H", 2), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_iso8601_duration_parse_n(&d, "PT1H1D", 6), SWX_EINVAL);
}

static void test_civil(void)
{
    CU_ASSERT_EQUAL(swx_days_from_civil(1970, 1, 1), 0);
    CU_ASSERT_EQUAL(swx_days_from_civil(2024, 10, 1), 19997);
    int y, mo, d, h, mi, s;
    swx_civil_from_time(&y, &mo, &d, &h, &mi, &s, 19997LL * 86400 + 3661);
    CU_ASSERT(y == 2024 && mo == 10 && d == 1 && h == 1 && mi == 1 && s == 1);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("iso8601", NULL, NULL);
    CU_add_test(s, "three forms", test_three_forms);
    CU_add_test(s, "bad instants", test_bad);
    CU_add_test(s, "format", test_format);
    CU_add_test(s, "durations", test_durations);
    CU_add_test(s, "civil", test_civil);
    return cu_run();
}

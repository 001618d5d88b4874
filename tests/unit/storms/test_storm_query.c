/* test_storm_query.c: storm queries (storm_query.c): filters read from text,
 * checked, and written as the request of a page. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/http.h"
#include "seawx/storm.h"
#include "storm_priv.h"
#include "http_core.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_query(void)
{
    swx_storm_query q;
    swx_storm_query_init(&q);
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), 0);
    q.status = "closed";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "closed"));
    swx_storm_query_init(&q);
    q.category = "H5";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    swx_storm_query_init(&q);
    q.region = "XY";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    q.region = "gm";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), 0);
    swx_storm_query_init(&q);
    q.period = "2024-06-01";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    q.period = "2024-06-01T00:00:00Z/2024-05-01T00:00:00Z";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    q.period = "2024-06-01T00:00:00Z/2024-11-30T23:59:59+00:00";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), 0);
    swx_storm_query_init(&q);
    q.limit = 101;
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    q.limit = 100;
    q.offset = -1;
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    swx_storm_query_init(&q);
    q.id = "AL2024";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    swx_storm_query_init(&q);
    q.data_filter = "observed";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    swx_storm_query_init(&q);
    q.intensity = 400;
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);

    /* The request carries every given filter, limit and offset. */
    swx_storm_query_init(&q);
    q.status = "all";
    q.region = "NA";
    q.intensity = 64;
    q.limit = 10;
    swx_request req;
    swx_query *qs = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_request(&req, &qs, &q, 0, 20), 0);
    CU_ASSERT_STRING_EQUAL(req.path, "/storm/json");
    swx_client_opts o = {0};
    swx_client *c = NULL;
    o.base_url = "http://127.0.0.1:9";
    o.api_key = "secret";
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    char *url = swx_request_display_url(c, &req);
    CU_ASSERT_PTR_NOT_NULL_FATAL(url);
    CU_ASSERT_PTR_NOT_NULL(strstr(url, "status=all"));
    CU_ASSERT_PTR_NOT_NULL(strstr(url, "region=NA"));
    CU_ASSERT_PTR_NOT_NULL(strstr(url, "intensity=64"));
    CU_ASSERT_PTR_NOT_NULL(strstr(url, "limit=10"));
    CU_ASSERT_PTR_NOT_NULL(strstr(url, "offset=20"));
    CU_ASSERT_PTR_NULL(strstr(url, "secret"));
    free(url);
    swx_query_free(qs);
    CU_ASSERT_EQUAL(swx_storm_request(&req, &qs, &q, 1, 0), 0);
    CU_ASSERT_STRING_EQUAL(req.path, "/storm/kmz");
    swx_query_free(qs);
    swx_client_free(c);
}

/* The one reading of filters from text that the CLI and the plugin share. */
static void test_query_set(void)
{
    swx_storm_query q;
    const char *const *keys = swx_storm_query_keys();
    size_t n = 0;
    while (keys[n])
        n++;
    CU_ASSERT_EQUAL(n, 11);
    CU_ASSERT_STRING_EQUAL(keys[0], "status");
    CU_ASSERT_STRING_EQUAL(keys[n - 1], "max_storms");

    swx_storm_query_init(&q);
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "status", "all"), 0);
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "REGION", "NA"), 0);
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "data-filter", "forecast"), 0);
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "intensity", "64.5"), 0);
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "limit", "25"), 0);
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "offset", "50"), 0);
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "max-storms", "7"), 0);
    CU_ASSERT_STRING_EQUAL(q.status, "all");
    CU_ASSERT_STRING_EQUAL(q.region, "NA");
    CU_ASSERT_STRING_EQUAL(q.data_filter, "forecast");
    CU_ASSERT_DOUBLE_EQUAL(q.intensity, 64.5, 1e-12);
    CU_ASSERT_EQUAL(q.limit, 25);
    CU_ASSERT_EQUAL(q.offset, 50);
    CU_ASSERT_EQUAL(q.max_storms, 7);
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), 0);

    /* Bad numbers: the line starts with the key as the caller spelled it. */
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "limit", "101"), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(),
                           "limit must be a whole number from 1 to 100, not '101'");
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "limit", "5x"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "intensity", "-5"), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "intensity must be a wind speed in knots, not '-5'");
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "intensity", ""), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "max_storms", "abc"), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(swx_error_last(), "max_storms must be a whole number of storms, not 'abc'"));
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "max-storms", "-1"), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "max-storms must be"));
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "offset", "1000000001"), SWX_EINVAL);
    /* A failed set leaves the filter as it was. */
    CU_ASSERT_EQUAL(q.limit, 25);
    CU_ASSERT_EQUAL(q.max_storms, 7);
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "colour", "red"), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "'colour' is not a storm filter"));
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "status", NULL), SWX_EINVAL);

    /* Strings are taken as given and checked together. */
    CU_ASSERT_EQUAL(swx_storm_query_set(&q, "status", "bogus"), 0);
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "unknown status 'bogus'"));
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("storm_query", NULL, NULL);
    CU_add_test(s, "queries checked and written", test_query);
    CU_add_test(s, "filters read from text, one reading for every front end", test_query_set);
    return cu_run();
}

/* test_vessels.c: vessel pages with enhanced data, flattened into typed
 * columns (fixtures in vessels/), and paging against seawx-sim. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/http.h"
#include "seawx/iso8601.h"
#include "seawx/vessels.h"
#include "vessels_int.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#define KEY "vessels-test-key"

static cu_sim sim;

static long col(const swx_table *t, const char *name)
{
    long c = swx_table_find_column(t, name);
    CU_ASSERT_TRUE(c >= 0);
    return c;
}

static void test_pages(void)
{
    swx_table *t = NULL;
    char *next = NULL;
    long long total;
    size_t len;
    CU_ASSERT_EQUAL_FATAL(swx_vessels_table_new(&t, NULL), 0);
    CU_ASSERT_EQUAL(swx_table_columns(t), 4 + 35);
    char *body = cu_fixture("vessels/page1.json", &len);
    CU_ASSERT_EQUAL(swx_vessels_parse_page(&next, &total, t, body, len), 0);
    free(body);
    CU_ASSERT_STRING_EQUAL(next, "opaque-cursor-2");
    CU_ASSERT_EQUAL(total, 3);
    free(next);
    body = cu_fixture("vessels/page2.json", &len);
    CU_ASSERT_EQUAL(swx_vessels_parse_page(&next, &total, t, body, len), 0);
    free(body);
    CU_ASSERT_PTR_NULL(next);
    CU_ASSERT_EQUAL_FATAL(swx_table_rows(t), 3);

    /* Every category of the first vessel, typed. */
    CU_ASSERT_EQUAL(swx_table_get_int(t, 0, (size_t)col(t, "capacity_dwt")), 45000);
    CU_ASSERT_TRUE(swx_table_is_null(t, 0, (size_t)col(t, "capacity_displacement")));
    CU_ASSERT_DOUBLE_EQUAL(swx_table_get_real(t, 0, (size_t)col(t, "capacity_tpcmi")), 48.2, 1e-9);
    CU_ASSERT_STRING_EQUAL(swx_table_get_string(t, 0, (size_t)col(t, "history_ship_builder")),
                           "Ulstein");
    int64_t nd;
    swx_iso8601_parse(&nd, "2010-04-30T22:00:00Z");
    CU_ASSERT_EQUAL(swx_table_get_time(t, 0, (size_t)col(t, "history_name_date")), nd);
    CU_ASSERT_STRING_EQUAL(
        swx_table_get_string(t, 0, (size_t)col(t, "vessel_and_trading_type_trading_status")),
        "Active");
    CU_ASSERT_EQUAL(swx_table_get_int(t, 0, (size_t)col(t, "propulsions_main_engines")), 1);
    CU_ASSERT_TRUE(swx_table_is_null(t, 0, (size_t)col(t, "propulsions_propeller_type")));
    CU_ASSERT_TRUE(swx_table_get_bool(t, 0, (size_t)col(t, "registration_ice_classed")));
    CU_ASSERT_EQUAL(swx_table_get_int(t, 0, (size_t)col(t, "design_coated")), 1);
    CU_ASSERT_DOUBLE_EQUAL(swx_table_get_real(t, 0, (size_t)col(t, "dimensions_loa")), 183.1, 1e-9);
    CU_ASSERT_EQUAL(swx_table_get_int(t, 0, (size_t)col(t, "mmsi")), 257000001);

    /* _embedded null: every EVD column null; a numeric id reads as text. */
    CU_ASSERT_STRING_EQUAL(swx_table_get_string(t, 1, (size_t)col(t, "id")), "2");
    for (size_t c = 4; c < swx_table_columns(t); c++)
        CU_ASSERT_TRUE(swx_table_is_null(t, 1, c));

    /* A lower tier: extended fields are absent and null, not errors; a value of
     * the wrong type is null; an integer sent as text is read. */
    CU_ASSERT_EQUAL(swx_table_get_int(t, 2, (size_t)col(t, "capacity_dwt")), 12000);
    CU_ASSERT_TRUE(swx_table_is_null(t, 2, (size_t)col(t, "capacity_net_tonnage")));
    CU_ASSERT_TRUE(swx_table_is_null(t, 2, (size_t)col(t, "history_ship_builder")));
    CU_ASSERT_TRUE(swx_table_is_null(t, 2, (size_t)col(t, "registration_ice_classed")));
    swx_table_free(t);

    CU_ASSERT_EQUAL_FATAL(swx_vessels_table_new(&t, "capacity"), 0);
    body = cu_fixture("vessels/no_data.json", &len);
    CU_ASSERT_EQUAL(swx_vessels_parse_page(&next, &total, t, body, len), SWX_ESERVICE);
    free(body);
    swx_table_free(t);
}

static void test_check(void)
{
    swx_vessels_query q = {0};
    CU_ASSERT_EQUAL(swx_vessels_check(&q), 0);
    q.categories = "capacity,dimensions";
    CU_ASSERT_EQUAL(swx_vessels_check(&q), 0);
    q.categories = "capacity,engines";
    CU_ASSERT_EQUAL(swx_vessels_check(&q), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "categories must be a comma list"));
    q.categories = NULL;
    q.limit = "0";
    CU_ASSERT_EQUAL(swx_vessels_check(&q), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "limit must be a whole number from 1 to 1000"));
    q.limit = NULL;
    const char *f[] = {"embed=x", NULL};
    q.filters = f;
    CU_ASSERT_EQUAL(swx_vessels_check(&q), SWX_EINVAL);
}

static swx_client *client(void)
{
    swx_client_opts o = {0};
    swx_client *c = NULL;
    o.base_url = sim.base_url;
    o.vessels_url = sim.base_url;
    o.api_key = KEY;
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    return c;
}

static int pages_seen;

static int on_page(void *ud, int pages, size_t rows, long long total)
{
    (void)ud;
    (void)rows;
    (void)total;
    pages_seen = pages;
    return 0;
}

static void test_sim_paging(void)
{
    swx_client *c = client();
    swx_vessels_query q = {0};
    swx_table *t = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_vessels_get(&t, c, &q, on_page, NULL), 0);
    CU_ASSERT_EQUAL(pages_seen, 3);
    CU_ASSERT_EQUAL(swx_table_rows(t), 7);
    CU_ASSERT_STRING_EQUAL(swx_table_meta(t, "total"), "7");
    CU_ASSERT_STRING_EQUAL(swx_table_meta(t, "pages"), "3");
    CU_ASSERT_STRING_EQUAL(swx_table_get_string(t, 6, (size_t)col(t, "name")), "NORTHWIND 7");
    swx_table_free(t);
    q.max_pages = "2";
    q.limit = "2";
    q.categories = "history";
    CU_ASSERT_EQUAL_FATAL(swx_vessels_get(&t, c, &q, NULL, NULL), 0);
    CU_ASSERT_EQUAL(swx_table_rows(t), 4);
    CU_ASSERT_EQUAL(swx_table_columns(t), 4 + 6);
    swx_table_free(t);
    swx_client_free(c);
}

int main(void)
{
    const char *args[] = {"--key", KEY, NULL};
    if (cu_sim_start(&sim, args))
        return 1;
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("vessels", NULL, NULL);
    CU_add_test(s, "pages flattened", test_pages);
    CU_add_test(s, "query checked", test_check);
    CU_add_test(s, "paging against seawx-sim", test_sim_paging);
    int rc = cu_run();
    cu_sim_stop(&sim);
    return rc;
}

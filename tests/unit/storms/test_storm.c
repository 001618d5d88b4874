/* test_storm.c: the storm model (storm.c): category order and codes, ATCF ids. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/http.h"
#include "seawx/storm.h"
#include "storm_priv.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_categories(void)
{
    static const char *const order[] = {"XX", "DS",  "IN",  "PT",  "LO",  "SS", "TD",
                                        "TS", "TC1", "TC2", "TC3", "TC4", "TC5"};
    for (int i = 0; i < 13; i++) {
        CU_ASSERT_EQUAL(swx_storm_category_rank(order[i]), i);
        CU_ASSERT_STRING_EQUAL(swx_storm_category_code(i), order[i]);
    }
    CU_ASSERT_EQUAL(swx_storm_category_rank("tc3"), 10);
    CU_ASSERT_EQUAL(swx_storm_category_rank("H1"), -1);
    CU_ASSERT_EQUAL(swx_storm_category_rank(NULL), -1);
    CU_ASSERT_EQUAL(swx_storm_category_rank(""), -1);
    CU_ASSERT_EQUAL(swx_storm_category_rank("T"), -1);
    CU_ASSERT_EQUAL(swx_storm_category_rank("TC12"), -1);
    CU_ASSERT_EQUAL(swx_storm_category_rank("tC5"), 12);
    CU_ASSERT_EQUAL(swx_storm_category_rank("xx"), 0);
    CU_ASSERT_PTR_NULL(swx_storm_category_code(13));
    CU_ASSERT_TRUE(swx_storm_category_rank("TC1") > swx_storm_category_rank("TS"));
    CU_ASSERT_TRUE(swx_storm_basin_known("WP"));
    CU_ASSERT_TRUE(swx_storm_subbasin_known("GM"));
    CU_ASSERT_FALSE(swx_storm_basin_known("GM"));
}

static void test_atcf(void)
{
    char basin[3];
    int num = 0, year = 0;
    CU_ASSERT_EQUAL(swx_storm_atcf_parse(basin, &num, &year, "AL022024"), 0);
    CU_ASSERT_STRING_EQUAL(basin, "AL");
    CU_ASSERT_EQUAL(num, 2);
    CU_ASSERT_EQUAL(year, 2024);
    CU_ASSERT_EQUAL(swx_storm_atcf_parse(basin, &num, &year, "wp311990"), 0);
    CU_ASSERT_STRING_EQUAL(basin, "WP");
    CU_ASSERT_EQUAL(num, 31);
    CU_ASSERT_EQUAL(swx_storm_atcf_parse(basin, &num, &year, "AL2024"), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "AL2024"));
    CU_ASSERT_EQUAL(swx_storm_atcf_parse(basin, &num, &year, "A1022024"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_storm_atcf_parse(basin, &num, &year, "AL02202X"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_storm_atcf_parse(basin, &num, &year, NULL), SWX_EINVAL);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("storm", NULL, NULL);
    CU_add_test(s, "category order and codes", test_categories);
    CU_add_test(s, "ATCF ids", test_atcf);
    return cu_run();
}

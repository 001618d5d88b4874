/* test_xfields.c: X-Fields masks are checked, and select what they name. */
#include "cu_support.h"

#include "seawx/error.h"
#include "xfields.h"

#include <CUnit/CUnit.h>
#include <string.h>

static void test_check(void)
{
    CU_ASSERT_EQUAL(swx_xfields_check("{data{values{air_temperature,wind_speed}}}"), 0);
    CU_ASSERT_EQUAL(swx_xfields_check("{data{times,values{air_temperature}}}"), 0);
    CU_ASSERT_EQUAL(swx_xfields_check(" { meta , data { * } } "), 0);
    const char *bad[] = {"",     "data",  "{}",      "{data", "{data{}}", "{a,,b}",
                         "{a}}", "{a b}", "{a{b}c}", "{a;b}", "[a]",      "{data{values{x}}}x",
                         NULL};
    for (int i = 0; bad[i]; i++) {
        CU_ASSERT_EQUAL(swx_xfields_check(bad[i]), SWX_EINVAL);
        CU_ASSERT_EQUAL(strncmp(swx_error_last(), "fields: ", 8),
                        0); /* the query's key, as GDAL users write it */
    }
    char deep[200] = "";
    for (int i = 0; i < 20; i++)
        strcat(deep, "{a");
    for (int i = 0; i < 20; i++)
        strcat(deep, "}");
    CU_ASSERT_EQUAL(swx_xfields_check(deep), SWX_EINVAL);
    char longs[SWX_XFIELDS_MAX_LEN + 10];
    memset(longs, 'a', sizeof longs);
    longs[0] = '{';
    longs[sizeof longs - 2] = '}';
    longs[sizeof longs - 1] = '\0';
    CU_ASSERT_EQUAL(swx_xfields_check(longs), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "longer than"));
}

static void test_selects(void)
{
    const char *m = "{data{times,values{air_temperature}}}";
    const char *p1[] = {"data", "values", "air_temperature"};
    const char *p2[] = {"data", "values", "wind_speed"};
    const char *p3[] = {"data", "times", "observation_time"};
    const char *p4[] = {"meta"};
    const char *p5[] = {"data"};
    CU_ASSERT_TRUE(swx_xfields_selects(m, p1, 3));
    CU_ASSERT_FALSE(swx_xfields_selects(m, p2, 3));
    CU_ASSERT_TRUE(swx_xfields_selects(m, p3, 3)); /* times without braces keeps all below */
    CU_ASSERT_FALSE(swx_xfields_selects(m, p4, 1));
    CU_ASSERT_TRUE(swx_xfields_selects(m, p5, 1));
    CU_ASSERT_TRUE(swx_xfields_selects("{*}", p4, 1));
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("xfields", NULL, NULL);
    CU_add_test(s, "masks checked", test_check);
    CU_add_test(s, "paths selected", test_selects);
    return cu_run();
}

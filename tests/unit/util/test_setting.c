/* test_setting.c: lib/util/setting.c, the words the library's messages use
 * for the settings they point to; and a message that uses them. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/setting.h"
#include "seawx/table.h"

#include <string.h>

static void test_words(void)
{
    swx_setting_names(NULL);
    /* The library's own words: there for every setting, and no front end's flag. */
    for (int s = 0; s < SWX_SET_COUNT; s++) {
        const char *w = swx_setting_name((swx_setting)s);
        CU_ASSERT_PTR_NOT_NULL_FATAL(w);
        CU_ASSERT(*w != '\0');
        CU_ASSERT_PTR_NULL(strstr(w, "--"));
    }
    CU_ASSERT_STRING_EQUAL(swx_setting_name((swx_setting)SWX_SET_COUNT), "?");
    CU_ASSERT_STRING_EQUAL(swx_setting_name((swx_setting)-1), "?");
    /* A front end's words, where it has one; the library's elsewhere. */
    const char *names[SWX_SET_COUNT] = {0};
    names[SWX_SET_INSECURE] = "--insecure";
    swx_setting_names(names);
    CU_ASSERT_STRING_EQUAL(swx_setting_name(SWX_SET_INSECURE), "--insecure");
    CU_ASSERT_STRING_EQUAL(swx_setting_name(SWX_SET_CA_BUNDLE), "SEAWX_CA_BUNDLE");
    swx_setting_names(NULL);
    CU_ASSERT_PTR_NULL(strstr(swx_setting_name(SWX_SET_INSECURE), "--"));
}

/* A library message names what its reader can type. */
static void test_message(void)
{
    swx_table_format f;
    swx_setting_names(NULL);
    CU_ASSERT_EQUAL(swx_table_format_parse(&f, "xml"), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "the output format must be one of"));
    const char *names[SWX_SET_COUNT] = {0};
    names[SWX_SET_TABLE_FORMAT] = "--format";
    swx_setting_names(names);
    CU_ASSERT_EQUAL(swx_table_format_parse(&f, "xml"), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(),
                           "--format must be one of json, csv, geojson, table, not 'xml'");
    swx_setting_names(NULL);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("setting", NULL, NULL);
    CU_add_test(s, "the library's words and a front end's", test_words);
    CU_add_test(s, "a message names the front end's word", test_message);
    return cu_run();
}

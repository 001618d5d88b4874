/* test_jsonfmt.c: lib/util/jsonfmt.c, the JSON text of strings and numbers. */
#include "cu_support.h"

#include "jsonfmt.h"

#include <stdlib.h>
#include <string.h>

static void check_escape(const char *in, size_t n, const char *want)
{
    char out[SWX_JSON_ESC_MAX * 64 + 1];
    size_t k = swx_json_escape(out, in, n);
    CU_ASSERT_FATAL(k < sizeof out);
    out[k] = '\0';
    CU_ASSERT_STRING_EQUAL(out, want);
}

static void test_escape(void)
{
    check_escape("plain", 5, "plain");
    check_escape("a\"b\\c", 5, "a\\\"b\\\\c");
    check_escape("\n\r\t", 3, "\\n\\r\\t");
    check_escape("\x01\x1f\x7f", 3, "\\u0001\\u001f\\u007f");
    check_escape("a\0b", 3, "a\\u0000b");          /* a length, not a C string */
    check_escape("caf\xc3\xa9", 5, "caf\xc3\xa9"); /* UTF-8 copied */
    /* The worst case fills exactly SWX_JSON_ESC_MAX bytes per input byte. */
    char ctl[64], out[SWX_JSON_ESC_MAX * 64];
    memset(ctl, 1, sizeof ctl);
    CU_ASSERT_EQUAL(swx_json_escape(out, ctl, sizeof ctl), sizeof out);
}

static void check_num(double v, const char *want)
{
    char out[SWX_DOUBLE_TEXT_MAX];
    size_t n = swx_double_shortest(out, v);
    CU_ASSERT_STRING_EQUAL(out, want);
    CU_ASSERT_EQUAL(n, strlen(want));
    CU_ASSERT_EQUAL(strtod(out, NULL), v);
}

static void test_shortest(void)
{
    check_num(0.1, "0.1");
    check_num(1.0 / 3.0, "0.3333333333333333");
    check_num(0.1 + 0.2, "0.30000000000000004");
    check_num(-2.5, "-2.5");
    check_num(1e300, "1e+300");
    check_num(-1.7976931348623157e308, "-1.7976931348623157e+308");
    check_num(4.9406564584124654e-324, "4.94065645841247e-324");
    check_num(123456789012345678.0, "1.2345678901234568e+17");
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("jsonfmt", NULL, NULL);
    CU_add_test(s, "string escapes", test_escape);
    CU_add_test(s, "shortest double that reads back", test_shortest);
    return cu_run();
}

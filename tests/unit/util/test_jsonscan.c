/* test_jsonscan.c: the pull parser of lib/util/jsonscan.c: walking values, string
 * escapes, numbers read exactly as strtod reads them, the strict grammar,
 * the depth bound, and errors that stick and say where. */
#include "cu_support.h"

#include "jsonscan.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static swx_jsonscan js;

static void scan(const char *text)
{
    swx_jsonscan_reset(&js, text, strlen(text));
}

static int key_is(const swx_jsonscan_str *k, const char *want)
{
    return k->n == strlen(want) && memcmp(k->s, want, k->n) == 0;
}

/* The error of the text read as one value, or NULL when it reads. */
static const char *error_of(const char *text, size_t *at)
{
    scan(text);
    if (swx_jsonscan_skip(&js) == 0 && swx_jsonscan_end(&js) == 0)
        return NULL;
    return swx_jsonscan_error(&js, at);
}

static void test_walk(void)
{
    swx_jsonscan_str k, s;
    swx_jsonscan_num n;
    int b;
    scan(" { \"a\" : [ 1 , -2.5e1 , true , null ] ,\n\t\"b\":{}, \"c\":\"x\", \"d\":[] } ");
    CU_ASSERT_EQUAL_FATAL(swx_jsonscan_peek(&js), SWX_JSONSCAN_OBJECT);
    CU_ASSERT_EQUAL_FATAL(swx_jsonscan_enter(&js), 0);
    CU_ASSERT_EQUAL_FATAL(swx_jsonscan_member(&js, &k), 1);
    CU_ASSERT_TRUE(key_is(&k, "a"));
    CU_ASSERT_EQUAL_FATAL(swx_jsonscan_enter(&js), 0);
    CU_ASSERT_EQUAL(swx_jsonscan_element(&js), 1);
    CU_ASSERT_EQUAL(swx_jsonscan_peek(&js), SWX_JSONSCAN_NUMBER);
    CU_ASSERT_EQUAL(swx_jsonscan_number(&js, &n), 0);
    CU_ASSERT_TRUE(n.is_int && n.i == 1 && n.d == 1.0);
    CU_ASSERT_EQUAL(swx_jsonscan_element(&js), 1);
    CU_ASSERT_EQUAL(swx_jsonscan_number(&js, &n), 0);
    CU_ASSERT_TRUE(!n.is_int && n.d == -25.0);
    CU_ASSERT_EQUAL(swx_jsonscan_element(&js), 1);
    CU_ASSERT_EQUAL(swx_jsonscan_peek(&js), SWX_JSONSCAN_BOOL);
    CU_ASSERT_EQUAL(swx_jsonscan_bool(&js, &b), 0);
    CU_ASSERT_EQUAL(b, 1);
    CU_ASSERT_EQUAL(swx_jsonscan_element(&js), 1);
    CU_ASSERT_EQUAL(swx_jsonscan_peek(&js), SWX_JSONSCAN_NULL);
    CU_ASSERT_EQUAL(swx_jsonscan_null(&js), 0);
    CU_ASSERT_EQUAL(swx_jsonscan_element(&js), 0);
    CU_ASSERT_EQUAL(swx_jsonscan_member(&js, &k), 1);
    CU_ASSERT_TRUE(key_is(&k, "b"));
    CU_ASSERT_EQUAL(swx_jsonscan_skip(&js), 0);
    CU_ASSERT_EQUAL(swx_jsonscan_member(&js, &k), 1);
    CU_ASSERT_TRUE(key_is(&k, "c"));
    CU_ASSERT_EQUAL(swx_jsonscan_string(&js, &s), 0);
    CU_ASSERT_TRUE(key_is(&s, "x"));
    CU_ASSERT_EQUAL(swx_jsonscan_member(&js, &k), 1);
    CU_ASSERT_EQUAL(swx_jsonscan_skip(&js), 0);
    CU_ASSERT_EQUAL(swx_jsonscan_member(&js, &k), 0);
    CU_ASSERT_EQUAL(swx_jsonscan_end(&js), 0);
    CU_ASSERT_PTR_NULL(swx_jsonscan_error(&js, NULL));
}

static void test_strings(void)
{
    swx_jsonscan_str s;
    /* Every escape; U+00E9, U+20AC, U+1F600 (a pair); lone surrogates become U+FFFD. */
    scan(
        "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\u20AC\\ud83d\\ude00|\\ud800x|\\udc00|\\u0000z\"");
    CU_ASSERT_EQUAL_FATAL(swx_jsonscan_string(&js, &s), 0);
    static const char want[] = "a\"b\\c/d\b\f\n\r\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|"
                               "\xef\xbf\xbdx|\xef\xbf\xbd|\0z";
    CU_ASSERT_EQUAL(s.n, sizeof want - 1);
    CU_ASSERT_TRUE(s.n == sizeof want - 1 && memcmp(s.s, want, s.n) == 0);
    /* A high surrogate followed by an escape that is not a low one. */
    scan("\"\\ud800\\u0041\"");
    CU_ASSERT_EQUAL_FATAL(swx_jsonscan_string(&js, &s), 0);
    CU_ASSERT_TRUE(s.n == 4 && memcmp(s.s,
                                      "\xef\xbf\xbd"
                                      "A",
                                      4) == 0);
    /* Without escapes the string is the text itself; raw control bytes pass. */
    static const char raw[] = "\"tab\there\"";
    scan(raw);
    CU_ASSERT_EQUAL(swx_jsonscan_string(&js, &s), 0);
    CU_ASSERT_PTR_EQUAL(s.s, js.base + 1);
    CU_ASSERT_EQUAL(s.n, 8);
    /* Long strings cross the 8-byte steps of the quote search at every offset. */
    for (size_t len = 0; len < 40; len++) {
        char text[64];
        memset(text, 'x', sizeof text);
        text[0] = '"';
        text[len + 1] = '"';
        swx_jsonscan_reset(&js, text, len + 2);
        CU_ASSERT_EQUAL(swx_jsonscan_string(&js, &s), 0);
        CU_ASSERT_EQUAL(s.n, len);
        CU_ASSERT_EQUAL(swx_jsonscan_end(&js), 0);
    }
    size_t at;
    CU_ASSERT_PTR_NOT_NULL(strstr(error_of("\"a\\x\"", &at), "bad escape"));
    CU_ASSERT_EQUAL(at, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(error_of("\"\\u12G4\"", &at), "four hex digits"));
    CU_ASSERT_PTR_NOT_NULL(strstr(error_of("\"abc", &at), "end of a string"));
    CU_ASSERT_EQUAL(at, 4);
    CU_ASSERT_PTR_NOT_NULL(error_of("\"abc\\", &at));
}

/* Numbers come out as strtod reads them, through the fast path and beyond it. */
static void test_numbers(void)
{
    static const char *const texts[] = {"0",
                                        "0.0",
                                        "0.1",
                                        "-0.0",
                                        "12.345678",
                                        "1e22",
                                        "1e23",
                                        "9007199254740993",
                                        "9007199254740993.0",
                                        "123456789012345678",
                                        "1.7976931348623157e308",
                                        "5e-324",
                                        "2.5e-7",
                                        "1E2",
                                        "1e+2",
                                        "0.000000000000000000000000001",
                                        "179.99999949999999",
                                        "-89.123456789012345678901234567890",
                                        "1e999",
                                        "4.9e-325",
                                        "100000000000000000000000.5"};
    swx_jsonscan_num n;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        scan(texts[i]);
        CU_ASSERT_EQUAL(swx_jsonscan_number(&js, &n), 0);
        double want = strtod(texts[i], NULL);
        if (memcmp(&n.d, &want, sizeof want) != 0)
            fprintf(stderr, "\n%s read as %.17g, strtod %.17g\n", texts[i], n.d, want);
        CU_ASSERT_TRUE(memcmp(&n.d, &want, sizeof want) == 0);
    }
    /* Random decimals of every length and exponent. */
    srand(7);
    for (int i = 0; i < 200000; i++) {
        char text[64];
        int digits = 1 + rand() % 19, point = rand() % (digits + 1), exp = rand() % 50 - 25;
        int has_exp = rand() & 1;
        size_t k = 0;
        if ((point == 0 || point == digits) && !has_exp && digits > 18)
            continue; /* an integer past int64: saturated, as json-c does (below) */
        if (rand() & 1)
            text[k++] = '-';
        for (int d = 0; d < digits; d++) {
            if (d == point && d > 0)
                text[k++] = '.';
            text[k++] = (char)((d == 0 ? '1' : '0') + rand() % (d == 0 ? 9 : 10));
        }
        if (has_exp)
            k += (size_t)snprintf(text + k, sizeof text - k, "e%d", exp);
        text[k] = '\0';
        scan(text);
        if (swx_jsonscan_number(&js, &n) != 0 || swx_jsonscan_end(&js) != 0) {
            CU_FAIL("a generated number did not read");
            break;
        }
        double want = strtod(text, NULL);
        if (memcmp(&n.d, &want, sizeof want) != 0) {
            fprintf(stderr, "\n%s read as %.17g, strtod %.17g\n", text, n.d, want);
            CU_FAIL("a number read differently from strtod");
            break;
        }
    }
    /* Integers, saturated as json-c saturates them; -0 is the integer 0. */
    scan("-0");
    CU_ASSERT_EQUAL(swx_jsonscan_number(&js, &n), 0);
    CU_ASSERT_TRUE(n.is_int && n.i == 0 && n.d == 0 && !signbit(n.d));
    scan("-9223372036854775808");
    CU_ASSERT_EQUAL(swx_jsonscan_number(&js, &n), 0);
    CU_ASSERT_TRUE(n.is_int && n.i == INT64_MIN);
    scan("99999999999999999999");
    CU_ASSERT_EQUAL(swx_jsonscan_number(&js, &n), 0);
    CU_ASSERT_TRUE(n.is_int && n.i == INT64_MAX && n.d == 18446744073709551615.0);
    scan("-99999999999999999999");
    CU_ASSERT_EQUAL(swx_jsonscan_number(&js, &n), 0);
    CU_ASSERT_TRUE(n.is_int && n.i == INT64_MIN);
    scan("123456789012345678");
    CU_ASSERT_EQUAL(swx_jsonscan_number(&js, &n), 0);
    CU_ASSERT_TRUE(n.is_int && n.i == 123456789012345678LL);
    size_t at;
    CU_ASSERT_PTR_NOT_NULL(strstr(error_of("01", &at), "leading zero"));
    CU_ASSERT_PTR_NOT_NULL(strstr(error_of("1.", &at), "a digit after '.'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(error_of("-", &at), "a digit"));
    CU_ASSERT_PTR_NOT_NULL(strstr(error_of("1e+", &at), "exponent"));
    CU_ASSERT_PTR_NOT_NULL(error_of(".5", &at));
    CU_ASSERT_PTR_NOT_NULL(error_of("+1", &at));
}

/* What json-c took in its lenient mode is refused, with the place. */
static void test_strict(void)
{
    size_t at;
    const char *e;
    CU_ASSERT_PTR_NULL(error_of("[1,{\"a\":[]}]", &at));
    e = error_of("[1,2,]", &at);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(e, "a value expected, found ']'");
    CU_ASSERT_EQUAL(at, 5);
    e = error_of("{\"a\":1,}", &at);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(e, "a member name expected, found '}'");
    CU_ASSERT_EQUAL(at, 7);
    CU_ASSERT_PTR_NOT_NULL(error_of("{'a':1}", &at));
    CU_ASSERT_PTR_NOT_NULL(error_of("[1 /* c */]", &at));
    CU_ASSERT_PTR_NOT_NULL(error_of("[NaN]", &at));
    CU_ASSERT_PTR_NOT_NULL(error_of("[TRUE]", &at));
    CU_ASSERT_PTR_NOT_NULL(error_of("[tru]", &at));
    CU_ASSERT_PTR_NOT_NULL(error_of("{\"a\" 1}", &at));
    CU_ASSERT_PTR_NOT_NULL(error_of("{\"a\":1 \"b\":2}", &at));
    CU_ASSERT_PTR_NOT_NULL(error_of("[1] 2", &at));
    e = error_of("[1,\x01]", &at);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(e, "a value expected, found byte 0x01");
    e = error_of("{\"a\":", &at);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(e, "a value expected, found the end of the text");
    CU_ASSERT_EQUAL(at, 5);
    CU_ASSERT_PTR_NOT_NULL(error_of("", &at));
    CU_ASSERT_PTR_NOT_NULL(error_of("]", &at));
}

static void test_depth(void)
{
    char text[2 * SWX_JSONSCAN_DEPTH + 3];
    size_t at;
    for (int deep = SWX_JSONSCAN_DEPTH; deep <= SWX_JSONSCAN_DEPTH + 1; deep++) {
        memset(text, '[', (size_t)deep);
        memset(text + deep, ']', (size_t)deep);
        text[2 * deep] = '\0';
        const char *e = error_of(text, &at);
        if (deep == SWX_JSONSCAN_DEPTH) {
            CU_ASSERT_PTR_NULL(e);
        } else {
            CU_ASSERT_PTR_NOT_NULL_FATAL(e);
            CU_ASSERT_PTR_NOT_NULL(strstr(e, "nested more than 64"));
            CU_ASSERT_EQUAL(at, SWX_JSONSCAN_DEPTH);
        }
    }
}

/* The first error stays; nothing reads after it. */
static void test_sticky(void)
{
    swx_jsonscan_str k;
    swx_jsonscan_num n;
    size_t at;
    scan("{\"a\" 1, \"b\":2}");
    CU_ASSERT_EQUAL(swx_jsonscan_enter(&js), 0);
    CU_ASSERT_EQUAL(swx_jsonscan_member(&js, &k), -1);
    CU_ASSERT_EQUAL(swx_jsonscan_member(&js, &k), -1);
    CU_ASSERT_EQUAL(swx_jsonscan_peek(&js), SWX_JSONSCAN_ERROR);
    CU_ASSERT_EQUAL(swx_jsonscan_number(&js, &n), -1);
    CU_ASSERT_EQUAL(swx_jsonscan_skip(&js), -1);
    CU_ASSERT_EQUAL(swx_jsonscan_end(&js), -1);
    CU_ASSERT_STRING_EQUAL(swx_jsonscan_error(&js, &at), "':' expected, found '1'");
    CU_ASSERT_EQUAL(at, 5);
    /* A reset starts afresh. */
    scan("[]");
    CU_ASSERT_PTR_NULL(swx_jsonscan_error(&js, NULL));
    CU_ASSERT_EQUAL(swx_jsonscan_skip(&js), 0);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("jsonscan", NULL, NULL);
    CU_add_test(s, "walking an object", test_walk);
    CU_add_test(s, "strings and escapes", test_strings);
    CU_add_test(s, "numbers as strtod reads them", test_numbers);
    CU_add_test(s, "strict grammar, errors with their place", test_strict);
    CU_add_test(s, "depth bound", test_depth);
    CU_add_test(s, "errors stick", test_sticky);
    int rc = cu_run();
    swx_jsonscan_release(&js);
    return rc;
}

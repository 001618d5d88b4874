/* test_number.c: lib/util/number.c, decimal numbers only. */
#include "cu_support.h"

#include "seawx/number.h"

#include <math.h>
#include <string.h>

static void test_decimal(void)
{
    static const struct {
        const char *text;
        double want;
        size_t len; /* characters read */
    } ok[] = {
        {"0", 0, 1},          {"20kn", 20, 2},   {"-3.5", -3.5, 4},   {"+.5m", 0.5, 3},
        {"5.", 5, 2},         {"1e3x", 1000, 3}, {"2.5E-1", 0.25, 6}, {"5e", 5, 1},
        {"5e+kn", 5, 1},      {"0x20kn", 0, 1},  {"007", 7, 3},       {"1,2", 1, 1},
        {"12.5 kn", 12.5, 4},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        double v = -99;
        const char *end = NULL;
        CU_ASSERT_EQUAL_FATAL(swx_number_scan(&v, ok[i].text, &end), 0);
        CU_ASSERT_DOUBLE_EQUAL(v, ok[i].want, 1e-12);
        CU_ASSERT_EQUAL((size_t)(end - ok[i].text), ok[i].len);
    }
}

static void test_refused(void)
{
    /* what strtod takes and a user never means; and no number at all */
    static const char *const bad[] = {"inf", "infinity", "nan", "-inf", "x1", " 5",
                                      ".",   "-",        "+",   "e5",   "",   "1e999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v = 42;
        const char *end = NULL;
        CU_ASSERT_EQUAL(swx_number_scan(&v, bad[i], &end), -1);
        CU_ASSERT_PTR_EQUAL(end, bad[i]);
        CU_ASSERT_EQUAL(v, 42);
    }
    double v = 42;
    CU_ASSERT_EQUAL(swx_number_scan(&v, NULL, NULL), -1);
    /* a whole text: the number and nothing else */
    CU_ASSERT_EQUAL(swx_number_parse(&v, "12.25"), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 12.25, 0);
    CU_ASSERT_EQUAL(swx_number_parse(&v, "0x20"), -1);
    CU_ASSERT_EQUAL(swx_number_parse(&v, "12kn"), -1);
    CU_ASSERT_EQUAL(swx_number_parse(&v, "1e-400"), 0); /* underflow: as near zero as it gets */
    CU_ASSERT_TRUE(fabs(v) < 1e-300);
    char longer[80];
    memset(longer, '1', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    CU_ASSERT_EQUAL(swx_number_parse(&v, longer), -1); /* past the 64 characters read */
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("number", NULL, NULL);
    CU_add_test(s, "decimal numbers and where they end", test_decimal);
    CU_add_test(s, "hexadecimal, infinities, NaN and no number refused", test_refused);
    return cu_run();
}

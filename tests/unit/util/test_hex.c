/* test_hex.c: lib/util/hex.c, bytes as hexadecimal digits. */
#include "cu_support.h"

#include "hex.h"

#include <string.h>

static void test_hex(void)
{
    char two[3] = "";
    swx_hex_byte(two, 0xaf, 0);
    CU_ASSERT_STRING_EQUAL(two, "af");
    swx_hex_byte(two, 0x0b, 1);
    CU_ASSERT_STRING_EQUAL(two, "0B");
    const unsigned char bytes[] = {0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff};
    char out[2 * sizeof bytes + 1];
    memset(out, 'Z', sizeof out);
    swx_hex_encode(out, bytes, sizeof bytes);
    CU_ASSERT_STRING_EQUAL(out, "00017f80feff");
    swx_hex_encode(out, bytes, 0);
    CU_ASSERT_STRING_EQUAL(out, "");
    CU_ASSERT_EQUAL(swx_hex_value('0'), 0);
    CU_ASSERT_EQUAL(swx_hex_value('9'), 9);
    CU_ASSERT_EQUAL(swx_hex_value('a'), 10);
    CU_ASSERT_EQUAL(swx_hex_value('F'), 15);
    CU_ASSERT_EQUAL(swx_hex_value('g'), -1);
    CU_ASSERT_EQUAL(swx_hex_value('\0'), -1);
    char pct[4] = "";
    swx_hex_percent(pct, ' ');
    CU_ASSERT_STRING_EQUAL(pct, "%20");
    swx_hex_percent(pct, 0xe9);
    CU_ASSERT_STRING_EQUAL(pct, "%E9");
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("hex", NULL, NULL);
    CU_add_test(s, "digits, lower and upper case, percent escapes", test_hex);
    return cu_run();
}

/* test_sha256.c: SHA-256 against the FIPS 180-4 examples and sha256sum. */
#include "cu_support.h"

#include "sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex_of(const char *msg, size_t len, char hex[SWX_SHA256_HEX_LEN])
{
    uint8_t d[SWX_SHA256_LEN];
    swx_sha256(d, hex, msg, len);
}

static void test_vectors(void)
{
    char hex[SWX_SHA256_HEX_LEN];
    hex_of("", 0, hex);
    CU_ASSERT_STRING_EQUAL(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hex_of("abc", 3, hex);
    CU_ASSERT_STRING_EQUAL(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    hex_of(m, strlen(m), hex);
    CU_ASSERT_STRING_EQUAL(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_million_a_incremental(void)
{
    /* One million 'a' fed in pieces of awkward sizes. */
    swx_sha256_ctx s;
    uint8_t d[SWX_SHA256_LEN];
    char buf[1000];
    memset(buf, 'a', sizeof buf);
    swx_sha256_init(&s);
    size_t left = 1000000, step = 1;
    while (left) {
        size_t n = step < left ? step : left;
        swx_sha256_update(&s, buf, n);
        left -= n;
        step = step % 991 + 7; /* at most 997, within buf */
    }
    swx_sha256_final(d, &s);
    static const uint8_t want[SWX_SHA256_LEN] = {0xcd, 0xc7, 0x6e, 0x5c, 0x99, 0x14, 0xfb, 0x92,
                                                 0x81, 0xa1, 0xc7, 0xe2, 0x84, 0xd7, 0x3e, 0x67,
                                                 0xf1, 0x80, 0x9a, 0x48, 0xa4, 0x97, 0x20, 0x0e,
                                                 0x04, 0x6d, 0x39, 0xcc, 0xc7, 0x11, 0x2c, 0xd0};
    CU_ASSERT_EQUAL(memcmp(d, want, sizeof want), 0);
}

/* Every length from 0 to 200 (all padding cases) against the fixture made by
 * sha256sum over the bytes i % 251. */
static void test_lengths(void)
{
    size_t n;
    char *want = cu_fixture("seed/sha256_lengths.txt", &n);
    char *line = want;
    uint8_t msg[200];
    for (int i = 0; i < 200; i++)
        msg[i] = (uint8_t)(i % 251);
    int bad = 0;
    for (int len = 0; len <= 200; len++) {
        char hex[SWX_SHA256_HEX_LEN];
        uint8_t d[SWX_SHA256_LEN];
        swx_sha256(d, hex, msg, (size_t)len);
        if (strncmp(line, hex, 64) != 0) {
            fprintf(stderr, "length %d: %.64s != %s\n", len, line, hex);
            bad++;
        }
        char *nl = strchr(line, '\n');
        if (!nl)
            break;
        line = nl + 1;
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(want);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("sha256", NULL, NULL);
    CU_add_test(s, "FIPS 180-4 vectors", test_vectors);
    CU_add_test(s, "a million a, in pieces", test_million_a_incremental);
    CU_add_test(s, "every padding case", test_lengths);
    return cu_run();
}

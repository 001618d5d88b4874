/* test_readfile.c: swx_read_file (lib/util/readfile.c): an empty file, a file
 * exactly at the limit and one byte over, a file that grows the buffer
 * several times, a missing file, each with the documented code and line. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/readfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/seawx-test-readfile.XXXXXX";

static void write_bytes(const char *path, size_t n)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (size_t i = 0; i < n; i++)
        fputc('a' + (int)(i % 26), f);
    fclose(f);
}

static void test_sizes(void)
{
    char path[256], *text = NULL;
    size_t len = 99;
    snprintf(path, sizeof path, "%s/empty", dir);
    write_bytes(path, 0);
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, path, 10), 0);
    CU_ASSERT_PTR_NOT_NULL(text);
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_STRING_EQUAL(text, "");
    free(text);

    snprintf(path, sizeof path, "%s/ten", dir);
    write_bytes(path, 10);
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, path, 10), 0);
    CU_ASSERT_EQUAL(len, 10);
    CU_ASSERT_STRING_EQUAL(text, "abcdefghij");
    free(text);
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, path, 9), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "ten is larger than 9 bytes"));

    /* 300,000 bytes: the buffer grows from 64 KiB; at a 1 MiB limit, whole;
     * at exactly its size, whole; one byte less, too large. */
    snprintf(path, sizeof path, "%s/big", dir);
    write_bytes(path, 300000);
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, path, 1u << 20), 0);
    CU_ASSERT_EQUAL(len, 300000);
    CU_ASSERT_EQUAL(text[299999], 'a' + 299999 % 26);
    CU_ASSERT_EQUAL(text[300000], '\0');
    free(text);
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, path, 300000), 0);
    CU_ASSERT_EQUAL(len, 300000);
    free(text);
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, path, 299999), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(text);
    write_bytes(path, (2u << 20) + 1);
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, path, 2u << 20), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "big is larger than 2 MiB"));
}

static void test_missing(void)
{
    char path[256], *text = (char *)"x";
    size_t len = 5;
    snprintf(path, sizeof path, "%s/none", dir);
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, path, 100), SWX_EIO);
    CU_ASSERT_PTR_NULL(text);
    CU_ASSERT_EQUAL(len, 0);
    const char *msg = swx_error_last();
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "cannot read "));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "none: No such file or directory"));
    CU_ASSERT_PTR_NULL(strchr(msg, '\n'));
    /* A folder: opened, but not read. */
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, dir, 100), SWX_EIO);
    CU_ASSERT_PTR_NULL(text);
    /* A device that never ends (--route /dev/zero): stopped at the limit. */
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, "/dev/zero", 1u << 20), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "/dev/zero is larger than 1 MiB"));
    /* An empty device reads as an empty file. */
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, "/dev/null", 100), 0);
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_PTR_NOT_NULL(text);
    CU_ASSERT_STRING_EQUAL(text ? text : "?", "");
    free(text);
}

/* A UTF-8 byte order mark at the start is dropped; elsewhere it is kept. */
static void test_bom(void)
{
    char path[256], *text = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/bom.csv", dir);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("\xef\xbb\xbflat,lon\n1,2\xef\xbb\xbf\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(swx_read_file(&text, &len, path, 100), 0);
    CU_ASSERT_EQUAL(len, 15);
    CU_ASSERT_STRING_EQUAL(text, "lat,lon\n1,2\xef\xbb\xbf\n");
    free(text);
    unlink(path);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("readfile", NULL, NULL);
    CU_add_test(s, "empty, at the limit, over it, grown", test_sizes);
    CU_add_test(s, "a missing file, a folder, devices", test_missing);
    CU_add_test(s, "a byte order mark", test_bom);
    int rc = cu_run();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}

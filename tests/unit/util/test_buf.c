/* test_buf.c: lib/util/buf.c's growing buffer and the ", "-separated lists that
 * error messages build (swx_list_append). */
#include "cu_support.h"

#include "buf.h"
#include "seawx/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void test_buffer_limit(void)
{
    swx_buf b;
    swx_buf_init(&b, 8);
    CU_ASSERT_EQUAL(swx_buf_puts(&b, "abcd"), 0);
    CU_ASSERT_EQUAL(swx_buf_printf(&b, "%d", 123), 0);
    CU_ASSERT_NOT_EQUAL(swx_buf_puts(&b, "xyz"), 0); /* 10 bytes > the limit of 8 */
    size_t n = 0;
    char *s = swx_buf_take(&n, &b);
    CU_ASSERT_FATAL(s != NULL);
    CU_ASSERT_EQUAL(n, 7);
    CU_ASSERT_STRING_EQUAL(s, "abcd123");
    free(s);
    swx_buf_free(&b);
}

static void test_list(void)
{
    char list[32];
    size_t at = 0;
    list[0] = '\0';
    swx_list_append(list, sizeof list, &at, "basic");
    CU_ASSERT_STRING_EQUAL(list, "basic");
    swx_list_append(list, sizeof list, &at, "maritime");
    CU_ASSERT_STRING_EQUAL(list, "basic, maritime");
    CU_ASSERT_EQUAL(at, strlen(list));
}

/* A list longer than its buffer is cut with "...", and nothing is written
 * past the end, however many items follow. */
static void test_list_cut(void)
{
    char mem[16 + 8];
    memset(mem, 'Z', sizeof mem);
    char *list = mem;
    size_t at = 0;
    list[0] = '\0';
    for (int i = 0; i < 50; i++)
        swx_list_append(list, 16, &at, "abcdef");
    CU_ASSERT_EQUAL(strlen(list), 15);
    CU_ASSERT_STRING_EQUAL(list, "abcdef, abcd...");
    int intact = 1;
    for (size_t i = 16; i < sizeof mem; i++)
        intact &= mem[i] == 'Z';
    CU_ASSERT(intact);
    /* Exactly full: no cut mark needed. */
    char ex[8];
    at = 0;
    ex[0] = '\0';
    swx_list_append(ex, sizeof ex, &at, "abcdefg");
    CU_ASSERT_STRING_EQUAL(ex, "abcdefg");
    swx_list_append(ex, sizeof ex, &at, "h");
    CU_ASSERT_STRING_EQUAL(ex, "abcdefg");
}

static void test_array_reserve(void)
{
    size_t cap = 0;
    int *v = NULL;
    /* Enough room: the array comes back as it is. */
    int *p = swx_array_reserve(v, &cap, 0, sizeof *v, 4);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(cap, 0);
    /* From first, doubling until need fits; the items are kept. */
    v = swx_array_reserve(v, &cap, 1, sizeof *v, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(cap, 4);
    for (int i = 0; i < 4; i++)
        v[i] = i * 7;
    v = swx_array_reserve(v, &cap, 9, sizeof *v, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(cap, 16);
    CU_ASSERT(v[0] == 0 && v[3] == 21);
    p = swx_array_reserve(v, &cap, 16, sizeof *v, 4);
    CU_ASSERT_PTR_EQUAL(p, v);
    CU_ASSERT_EQUAL(cap, 16);
    /* A size that would overflow: refused, the array and capacity unchanged. */
    swx_error_clear();
    p = swx_array_reserve(v, &cap, SIZE_MAX / 2, sizeof *v, 4);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(cap, 16);
    CU_ASSERT_EQUAL(swx_error_last_code(), SWX_ENOMEM);
    CU_ASSERT(v[3] == 21);
    free(v);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("buf", NULL, NULL);
    CU_add_test(s, "growing buffer with a limit", test_buffer_limit);
    CU_add_test(s, "lists for messages", test_list);
    CU_add_test(s, "lists cut short, never overrun", test_list_cut);
    CU_add_test(s, "arrays grown by doubling, overflow refused", test_array_reserve);
    return cu_run();
}

/* test_arena.c: lib/util/arena.c, the region allocator. */
#include "cu_support.h"

#include "arena.h"

#include <stdint.h>
#include <string.h>

static void test_alloc_aligned(void)
{
    swx_arena a;
    swx_arena_init(&a, 1024, 0);
    char *s = swx_arena_strndup(&a, "abc", 3); /* packed: leaves used unaligned */
    CU_ASSERT_FATAL(s != NULL);
    CU_ASSERT_STRING_EQUAL(s, "abc");
    for (size_t n = 1; n < 200; n += 7) {
        void *p = swx_arena_alloc(&a, n);
        CU_ASSERT_FATAL(p != NULL);
        CU_ASSERT_EQUAL((uintptr_t)p % _Alignof(max_align_t), 0);
        memset(p, 0xab, n);
    }
    CU_ASSERT_STRING_EQUAL(s, "abc"); /* earlier data stays put */
    swx_arena_free(&a);
    CU_ASSERT_PTR_NULL(a.head);
    CU_ASSERT_EQUAL(a.total, 0);
}

/* Strings are packed byte after byte in one chunk; a big one gets a block of
 * its own and the chunk being filled stays first. */
static void test_strings_and_big_blocks(void)
{
    swx_arena a;
    swx_arena_init(&a, 256, 0);
    char *x = swx_arena_strndup(&a, "hello world", 5);
    char *y = swx_arena_strndup(&a, "abc", 3);
    CU_ASSERT_FATAL(x && y);
    CU_ASSERT_STRING_EQUAL(x, "hello");
    CU_ASSERT_PTR_EQUAL(y, x + 6);
    char big[1000];
    memset(big, 'b', sizeof big);
    char *z = swx_arena_strndup(&a, big, sizeof big);
    CU_ASSERT_FATAL(z != NULL);
    CU_ASSERT_EQUAL(strlen(z), sizeof big);
    char *w = swx_arena_strndup(&a, "w", 1);
    CU_ASSERT_PTR_EQUAL(w, y + 4); /* still the first chunk */
    CU_ASSERT_PTR_NULL(swx_arena_strndup(&a, NULL, 0));
    CU_ASSERT_EQUAL(a.total, 256 + 1001);
    swx_arena_free(&a);
}

static void test_limit(void)
{
    swx_arena a;
    swx_arena_init(&a, 100, 250);
    /* 16 bytes (aligned already): six to a chunk of 100. */
    size_t got = 0;
    while (got < 100 && swx_arena_alloc(&a, 16))
        got++;
    CU_ASSERT(got >= 6 && got < 100);            /* two chunks, not a third */
    CU_ASSERT_PTR_NULL(swx_arena_alloc(&a, 90)); /* a block of its own passes 250 */
    CU_ASSERT_PTR_NULL(swx_arena_alloc(&a, SIZE_MAX - 4));
    CU_ASSERT_PTR_NULL(swx_arena_strndup(&a, "x", SIZE_MAX));
    CU_ASSERT_EQUAL(a.total, 200);
    swx_arena_free(&a);
    /* Usable again after free. */
    CU_ASSERT_PTR_NOT_NULL(swx_arena_alloc(&a, 10));
    swx_arena_free(&a);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("arena", NULL, NULL);
    CU_add_test(s, "allocations are aligned and stay put", test_alloc_aligned);
    CU_add_test(s, "strings packed, big blocks apart", test_strings_and_big_blocks);
    CU_add_test(s, "a limit on the bytes taken", test_limit);
    return cu_run();
}

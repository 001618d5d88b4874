/* test_storm_reader.c: the streaming reader of an array of storms
 * (storm_reader.c): the same storms in any chunks, what it holds at once. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/http.h"
#include "seawx/storm.h"
#include "storm_priv.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reader gives the same storms whatever the chunks the bytes arrive in. */
static void test_reader_chunks(void)
{
    size_t len;
    char *text = cu_fixture("storms/edge.json", &len);
    size_t sizes[] = {1, 2, 7, 64, 1000, 4096};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        swx_storm_list l = {0};
        swx_storm_reader *r = NULL;
        CU_ASSERT_EQUAL_FATAL(swx_storm_reader_new(&r, swx_storm_list_add, &l), 0);
        int rc = 0;
        /* Each chunk in a buffer of its own, gone after the call, as a
         * network chunk is: nothing may point into an earlier one. */
        for (size_t at = 0; at < len && !rc; at += sizes[k]) {
            size_t n = len - at < sizes[k] ? len - at : sizes[k];
            char *chunk = malloc(n);
            CU_ASSERT_PTR_NOT_NULL_FATAL(chunk);
            memcpy(chunk, text + at, n);
            rc = swx_storm_reader_feed(r, chunk, n);
            memset(chunk, '#', n);
            free(chunk);
        }
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(swx_storm_reader_finish(r), 0);
        CU_ASSERT_EQUAL(l.count, 5);
        if (l.count == 5) {
            CU_ASSERT_STRING_EQUAL(l.items[4]->atcf_id, "SP052024");
            CU_ASSERT_EQUAL(l.items[1]->nforecast, 7);
        }
        swx_storm_reader_free(r);
        swx_storm_list_clear(&l);
    }
    free(text);
}

/* Fed in small chunks the reader holds about one storm; fed whole, the whole
 * document; reset, it reads a new document with the buffers it has. */
static void test_reader_held(void)
{
    size_t len;
    char *text = cu_fixture("storms/edge.json", &len);
    swx_storm_list l = {0};
    swx_storm_reader *r = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_reader_new(&r, swx_storm_list_add, &l), 0);
    CU_ASSERT_EQUAL(swx_storm_reader_feed(r, text, len), 0);
    CU_ASSERT_EQUAL(swx_storm_reader_finish(r), 0);
    CU_ASSERT_EQUAL(swx_storm_reader_held_max(r), len);
    swx_storm_reader_free(r);
    swx_storm_list_clear(&l);

    /* The largest storm of the document, as the service sends it. */
    size_t largest = 0, start = 0;
    int depth = 0, in_str = 0;
    for (size_t i = 0; i < len; i++) {
        if (in_str) {
            if (text[i] == '\\')
                i++;
            else if (text[i] == '"')
                in_str = 0;
        } else if (text[i] == '"') {
            in_str = 1;
        } else if (text[i] == '{' || text[i] == '[') {
            if (depth++ == 1)
                start = i;
        } else if ((text[i] == '}' || text[i] == ']') && --depth == 1 && i + 1 - start > largest) {
            largest = i + 1 - start;
        }
    }
    CU_ASSERT_TRUE(largest > 0 && largest < len);
    CU_ASSERT_EQUAL_FATAL(swx_storm_reader_new(&r, swx_storm_list_add, &l), 0);
    for (int pass = 0; pass < 2; pass++) {
        int rc = 0;
        for (size_t at = 0; at < len && !rc; at += 64)
            rc = swx_storm_reader_feed(r, text + at, len - at < 64 ? len - at : 64);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(swx_storm_reader_finish(r), 0);
        CU_ASSERT_EQUAL(swx_storm_reader_count(r), 5);
        CU_ASSERT_TRUE(swx_storm_reader_held_max(r) <= largest + 64);
        swx_storm_reader_reset(r);
    }
    CU_ASSERT_EQUAL(l.count, 10);
    swx_storm_reader_free(r);
    swx_storm_list_clear(&l);
    free(text);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("storm_reader", NULL, NULL);
    CU_add_test(s, "reader: same storms in any chunks", test_reader_chunks);
    CU_add_test(s, "reader: holds one storm, not the document", test_reader_held);
    return cu_run();
}

/* test_jsonw.c: the streaming JSON writer, read back by json-c. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/jsonw.h"

#include <CUnit/CUnit.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *write_sample(int pretty)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    swx_jsonw *w = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_jsonw_new(&w, f, pretty), 0);
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "name");
    swx_jsonw_string(w, "sof-d/20241001/00/t2m:K \"q\" \\ \n\t\x01");
    swx_jsonw_key(w, "n");
    swx_jsonw_int(w, -42);
    swx_jsonw_key(w, "x");
    swx_jsonw_number(w, 12.3456789, 6);
    swx_jsonw_key(w, "y");
    swx_jsonw_number(w, 0.1, -1);
    swx_jsonw_key(w, "nan");
    swx_jsonw_number(w, NAN, 6);
    swx_jsonw_key(w, "list");
    swx_jsonw_array_begin(w);
    swx_jsonw_bool(w, 1);
    swx_jsonw_null(w);
    swx_jsonw_string(w, NULL);
    swx_jsonw_time(w, 1727740800);
    swx_jsonw_array_begin(w);
    swx_jsonw_array_end(w);
    swx_jsonw_array_end(w);
    swx_jsonw_object_end(w);
    CU_ASSERT_EQUAL(swx_jsonw_finish(w), 0);
    fclose(f);
    return text;
}

static void check(const char *text)
{
    json_object *o = json_tokener_parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    json_object *v;
    CU_ASSERT_TRUE(json_object_object_get_ex(o, "name", &v));
    CU_ASSERT_STRING_EQUAL(json_object_get_string(v), "sof-d/20241001/00/t2m:K \"q\" \\ \n\t\x01");
    json_object_object_get_ex(o, "n", &v);
    CU_ASSERT_EQUAL(json_object_get_int(v), -42);
    json_object_object_get_ex(o, "x", &v);
    CU_ASSERT_DOUBLE_EQUAL(json_object_get_double(v), 12.345679, 1e-9);
    json_object_object_get_ex(o, "y", &v);
    CU_ASSERT_EQUAL(json_object_get_double(v), 0.1);
    json_object_object_get_ex(o, "nan", &v);
    CU_ASSERT_TRUE(json_object_is_type(v, json_type_null));
    json_object_object_get_ex(o, "list", &v);
    CU_ASSERT_EQUAL(json_object_array_length(v), 5);
    CU_ASSERT_STRING_EQUAL(json_object_get_string(json_object_array_get_idx(v, 3)),
                           "2024-10-01T00:00:00Z");
    json_object_put(o);
}

static void test_compact(void)
{
    char *t = write_sample(0);
    check(t);
    CU_ASSERT_PTR_NULL(strchr(t, '\n'));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"x\":12.345679,"));
    free(t);
}

static void test_pretty(void)
{
    char *t = write_sample(2);
    check(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\n  \"n\": -42,"));
    free(t);
}

static void test_misuse(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    swx_jsonw *w = NULL;
    swx_jsonw_new(&w, f, 0);
    swx_jsonw_object_begin(w);
    swx_jsonw_int(w, 1); /* a value without a key */
    swx_jsonw_object_end(w);
    CU_ASSERT_EQUAL(swx_jsonw_finish(w), SWX_EINVAL);
    swx_jsonw_new(&w, f, 0);
    swx_jsonw_array_begin(w);
    CU_ASSERT_EQUAL(swx_jsonw_finish(w), SWX_EINVAL); /* left open */
    fclose(f);
    free(text);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("jsonw", NULL, NULL);
    CU_add_test(s, "compact", test_compact);
    CU_add_test(s, "pretty", test_pretty);
    CU_add_test(s, "misuse", test_misuse);
    return cu_run();
}

/* test_jsonr.c: reading the service's JSON answers (lib/util/jsonr.c): parsing
 * with a length and a depth bound, errors that name what failed, and the typed
 * member readers on missing members and members of the wrong type. Documents
 * are in tests/fixtures/jsonr/. */
#include "cu_support.h"

#include "jsonr.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <CUnit/CUnit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_object *doc; /* answer.json, parsed once by the suite */
static json_object *meta;

static int suite_init(void)
{
    size_t len = 0;
    char *body = cu_fixture("jsonr/answer.json", &len);
    int rc = swx_jsonr_parse(&doc, body, len, "the answer");
    free(body);
    if (rc) {
        fprintf(stderr, "answer.json: %s\n", swx_error_last());
        return 1;
    }
    meta = swx_jsonr_path(doc, "meta", NULL);
    return meta ? 0 : 1;
}

static int suite_clean(void)
{
    json_object_put(doc);
    return 0;
}

/* Parses a fixture of tests/fixtures/jsonr/ expecting failure with code and an
 * error line holding want. */
static void parse_fails(const char *fixture, int code, const char *want)
{
    char path[128];
    size_t len = 0;
    snprintf(path, sizeof path, "jsonr/%s", fixture);
    char *body = cu_fixture(path, &len);
    json_object *o = (json_object *)1;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, body, len, "the job answer"), code);
    CU_ASSERT_PTR_NULL(o);
    if (!strstr(swx_error_last(), want))
        fprintf(stderr, "\n  %s: error line '%s' lacks '%s'\n", fixture, swx_error_last(), want);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), want));
    free(body);
}

static void test_parse_ok(void)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(meta);
    CU_ASSERT(json_object_is_type(doc, json_type_object));

    /* Blanks after the document are allowed. */
    size_t len = 0;
    char *body = cu_fixture("jsonr/trailing_blanks.json", &len);
    json_object *o = NULL;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, body, len, "x"), 0);
    CU_ASSERT_PTR_NOT_NULL(swx_jsonr_path(o, "a", NULL));
    json_object_put(o);
    free(body);

    /* The length rules, not a NUL: the body need not be a C string. */
    const char buf[] = {'[', '1', ',', '2', ']', 'x', 'y'};
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, buf, 5, "x"), 0);
    CU_ASSERT_EQUAL(json_object_array_length(o), 2);
    json_object_put(o);
}

static void test_parse_scalars(void)
{
    /* A document may be a single value; a number or literal that ends with the
     * body is complete. */
    json_object *o = NULL;
    int64_t i = 0;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, "12", 2, "x"), 0);
    CU_ASSERT(swx_jsonr_int(&i, o) == 1 && i == 12);
    json_object_put(o);
    o = NULL;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, "true", 4, "x"), 0);
    CU_ASSERT(o && json_object_is_type(o, json_type_boolean));
    json_object_put(o);
    o = NULL;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, "\"a\"", 3, "x"), 0);
    CU_ASSERT(o && strcmp(swx_jsonr_str(o), "a") == 0);
    json_object_put(o);
    /* Only the first len bytes count: "12" of "123" is 12. */
    o = NULL;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, "123", 2, "x"), 0);
    CU_ASSERT(swx_jsonr_int(&i, o) == 1 && i == 12);
    json_object_put(o);
    /* A literal cut short is still incomplete. */
    o = (json_object *)1;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, "tru", 3, "the answer"), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(o);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "the answer is not valid JSON: it ends too early");
}

static void test_parse_errors(void)
{
    parse_fails("truncated.json", SWX_EPARSE,
                "the job answer is not valid JSON: it ends too early");
    parse_fails("two_documents.json", SWX_EPARSE,
                "the job answer is not valid JSON: text after the document");
    parse_fails("nul_after.json", SWX_EPARSE,
                "the job answer is not valid JSON: text after the document");
    parse_fails("bad_literal.json", SWX_EPARSE, "the job answer is not valid JSON: ");
    CU_ASSERT_EQUAL(swx_error_last_code(), SWX_EPARSE);

    json_object *o = (json_object *)1;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, "", 0, "the page"), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(o);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "the page is not valid JSON: it ends too early");
    o = (json_object *)1;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, "   ", 3, "the page"), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(o);
    o = (json_object *)1;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, "<html>", 6, "the page"), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(o);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "the page is not valid JSON: "));
}

/* A document of depth levels of arrays: [[[...]]]. */
static char *nested(int depth, size_t *len)
{
    char *s = malloc(2 * (size_t)depth + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    memset(s, '[', (size_t)depth);
    memset(s + depth, ']', (size_t)depth);
    s[2 * depth] = '\0';
    *len = 2 * (size_t)depth;
    return s;
}

static void test_depth(void)
{
    size_t len;
    json_object *o = NULL;
    char *s = nested(SWX_JSONR_DEPTH, &len);
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, s, len, "x"), 0);
    json_object_put(o);
    free(s);

    s = nested(SWX_JSONR_DEPTH + 1, &len);
    o = (json_object *)1;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, s, len, "the storm page"), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(o);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "the storm page is not valid JSON: nesting"));
    free(s);

    /* Far deeper than the bound: refused the same way, without recursion. */
    s = nested(100000, &len);
    o = (json_object *)1;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, s, len, "x"), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(o);
    free(s);
}

static void test_path(void)
{
    CU_ASSERT_PTR_EQUAL(swx_jsonr_path(doc, NULL), doc);
    CU_ASSERT_STRING_EQUAL(swx_jsonr_str(swx_jsonr_path(doc, "meta", "model", "id", NULL)),
                           "sof-d");
    CU_ASSERT_PTR_NOT_NULL(swx_jsonr_path(doc, "meta", "empty", NULL));
    /* Missing members, at any step. */
    CU_ASSERT_PTR_NULL(swx_jsonr_path(doc, "nope", NULL));
    CU_ASSERT_PTR_NULL(swx_jsonr_path(doc, "meta", "model", "nope", NULL));
    CU_ASSERT_PTR_NULL(swx_jsonr_path(doc, "nope", "model", "id", NULL));
    CU_ASSERT_PTR_NULL(swx_jsonr_path(doc, "meta", "empty", "x", NULL));
    /* Through something that is not an object. */
    CU_ASSERT_PTR_NULL(swx_jsonr_path(doc, "meta", "name", "x", NULL));
    CU_ASSERT_PTR_NULL(swx_jsonr_path(doc, "meta", "list", "0", NULL));
    CU_ASSERT_PTR_NULL(swx_jsonr_path(doc, "meta", "count", "x", NULL));
    /* A member that is null reads as missing. */
    CU_ASSERT_PTR_NULL(swx_jsonr_path(doc, "meta", "nothing", NULL));
    CU_ASSERT_PTR_NULL(swx_jsonr_path(doc, "meta", "nothing", "x", NULL));
    CU_ASSERT_PTR_NULL(swx_jsonr_path(NULL, "meta", NULL));
    CU_ASSERT_PTR_NULL(swx_jsonr_path(NULL, NULL));
}

static json_object *m(const char *key)
{
    return swx_jsonr_path(meta, key, NULL);
}

static void test_str(void)
{
    CU_ASSERT_STRING_EQUAL(swx_jsonr_str(m("name")), "point");
    CU_ASSERT_STRING_EQUAL(swx_jsonr_str(m("text_number")), "42");
    CU_ASSERT_PTR_NULL(swx_jsonr_str(m("count")));
    CU_ASSERT_PTR_NULL(swx_jsonr_str(m("flag")));
    CU_ASSERT_PTR_NULL(swx_jsonr_str(m("list")));
    CU_ASSERT_PTR_NULL(swx_jsonr_str(m("empty")));
    CU_ASSERT_PTR_NULL(swx_jsonr_str(m("nothing")));
    CU_ASSERT_PTR_NULL(swx_jsonr_str(m("missing")));
    CU_ASSERT_PTR_NULL(swx_jsonr_str(NULL));
}

static void test_num(void)
{
    double v = -1;
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("half")), 1);
    CU_ASSERT_DOUBLE_EQUAL(v, 2.5, 0);
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("count")), 1); /* an integer is a number */
    CU_ASSERT_DOUBLE_EQUAL(v, 42, 0);
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("exp")), 1);
    CU_ASSERT_DOUBLE_EQUAL(v, 1500, 0);
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("negative")), 1);
    CU_ASSERT_DOUBLE_EQUAL(v, -12, 0);
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("huge_double")), 1);
    CU_ASSERT_DOUBLE_EQUAL(v, 1e300, 0);

    v = 7;
    /* Not finite: json-c reads NaN and Infinity, they are not numbers here. */
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("not_a_number")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("infinite")), 0);
    /* Wrong types and missing members. */
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("text_number")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("flag")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("list")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("nothing")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, m("missing")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_num(&v, NULL), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 7, 0); /* untouched */
}

static void test_int(void)
{
    int64_t v = -1;
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("count")), 1);
    CU_ASSERT_EQUAL(v, 42);
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("negative")), 1);
    CU_ASSERT_EQUAL(v, -12);
    /* Above 2^53: read exactly, not through a double. */
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("big")), 1);
    CU_ASSERT_EQUAL(v, INT64_C(9007199254740993));
    /* A double holding a whole number. */
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("whole_double")), 1);
    CU_ASSERT_EQUAL(v, 3);
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("exp")), 1);
    CU_ASSERT_EQUAL(v, 1500);

    v = 7;
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("half")), 0);
    /* A whole double too large for an exact integer. */
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("huge_double")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("not_a_number")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("infinite")), 0);
    /* An integer beyond int64 is not clamped into it. */
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("beyond_int64")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("text_number")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("flag")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("nothing")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, m("missing")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_int(&v, NULL), 0);
    CU_ASSERT_EQUAL(v, 7);
}

static void test_time(void)
{
    int64_t t = -1;
    CU_ASSERT_EQUAL(swx_jsonr_time(&t, swx_jsonr_path(meta, "model", "run", NULL)), 1);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-01T06:00:00Z"));
    CU_ASSERT_EQUAL(swx_jsonr_time(&t, m("generated")), 1);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-01T08:15:30Z"));

    t = 7;
    CU_ASSERT_EQUAL(swx_jsonr_time(&t, m("bad_time")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_time(&t, m("name")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_time(&t, m("count")), 0); /* a number is not a time */
    CU_ASSERT_EQUAL(swx_jsonr_time(&t, m("nothing")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_time(&t, m("missing")), 0);
    CU_ASSERT_EQUAL(swx_jsonr_time(&t, NULL), 0);
}

/* A byte order mark before the document is skipped; a key named twice in one
 * object is refused with the key named; the same key in two objects is fine. */
static void test_bom_and_duplicates(void)
{
    size_t len = 0;
    json_object *o = NULL;
    char *body = cu_fixture("jsonr/bom.json", &len);
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, body, len, "the file"), 0);
    int64_t a = 0;
    CU_ASSERT_TRUE(swx_jsonr_int(&a, swx_jsonr_path(o, "a", NULL)) && a == 1);
    json_object_put(o);
    free(body);
    parse_fails("dup_key.json", SWX_EPARSE, "the key 'k' appears twice in one object");
    body = cu_fixture("jsonr/same_key_apart.json", &len);
    o = NULL;
    CU_ASSERT_EQUAL(swx_jsonr_parse(&o, body, len, "the file"), 0);
    json_object_put(o);
    free(body);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("jsonr", suite_init, suite_clean);
    CU_add_test(s, "parse: documents, blanks after, length not NUL", test_parse_ok);
    CU_add_test(s, "parse: a single value as the document", test_parse_scalars);
    CU_add_test(s, "parse: errors name what failed", test_parse_errors);
    CU_add_test(s, "parse: depth bound", test_depth);
    CU_add_test(s, "path: missing members and non-objects", test_path);
    CU_add_test(s, "str", test_str);
    CU_add_test(s, "num: finite numbers only", test_num);
    CU_add_test(s, "int: exact, whole doubles, out of range", test_int);
    CU_add_test(s, "time", test_time);
    CU_add_test(s, "parse: byte order mark, duplicate keys", test_bom_and_duplicates);
    return cu_run();
}

/* test_connstr.c: SEAWX: connection strings parse, format and round-trip. */
#include "cu_support.h"

#include "seawx/connstr.h"
#include "seawx/error.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

static void test_parse(void)
{
    swx_connstr *cs = NULL;
    CU_ASSERT_EQUAL_FATAL(
        swx_connstr_parse(
            &cs, "SEAWX:bundle=basic,layer=sof-d/20241001/00/t2m:K,TIME=2024-10-01T06:00:00Z"),
        0);
    CU_ASSERT_PTR_NULL(swx_connstr_kind(cs));
    CU_ASSERT_EQUAL(swx_connstr_count(cs), 3);
    CU_ASSERT_STRING_EQUAL(swx_connstr_get(cs, "bundle"), "basic");
    CU_ASSERT_STRING_EQUAL(swx_connstr_get(cs, "LAYER"), "sof-d/20241001/00/t2m:K");
    CU_ASSERT_STRING_EQUAL(swx_connstr_key(cs, 2), "time");
    CU_ASSERT_STRING_EQUAL(swx_connstr_value(cs, 2), "2024-10-01T06:00:00Z");
    swx_connstr_free(cs);

    CU_ASSERT_EQUAL_FATAL(swx_connstr_parse(&cs, "seawx:storms,status=all,name=Helene"), 0);
    CU_ASSERT_STRING_EQUAL(swx_connstr_kind(cs), "storms");
    CU_ASSERT_STRING_EQUAL(swx_connstr_get(cs, "name"), "Helene");
    swx_connstr_free(cs);

    CU_ASSERT_EQUAL_FATAL(swx_connstr_parse(&cs, "SEAWX:"), 0);
    CU_ASSERT_EQUAL(swx_connstr_count(cs), 0);
    swx_connstr_free(cs);
}

static void test_round_trip(void)
{
    const char *values[] = {"sof-d.maritime/20241001/06/swh:m",
                            "a,b,c",
                            "100%",
                            "wind:m s-1/vector",
                            "quote\"d",
                            "x=y",
                            "https://host:8443/base/path?x=1",
                            "ünïcode",
                            NULL};
    for (int i = 0; values[i]; i++) {
        swx_connstr *cs = NULL, *back = NULL;
        CU_ASSERT_EQUAL_FATAL(swx_connstr_new(&cs), 0);
        CU_ASSERT_EQUAL(swx_connstr_set(cs, "bundle", "basic"), 0);
        CU_ASSERT_EQUAL(swx_connstr_set(cs, "layer", values[i]), 0);
        char *s = swx_connstr_format(cs);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_EQUAL(strncmp(s, "SEAWX:bundle=basic,layer=", 25), 0);
        CU_ASSERT_EQUAL_FATAL(swx_connstr_parse(&back, s), 0);
        CU_ASSERT_STRING_EQUAL(swx_connstr_get(back, "layer"), values[i]);
        CU_ASSERT_EQUAL(swx_connstr_count(back), 2);
        free(s);
        swx_connstr_free(cs);
        swx_connstr_free(back);
    }
    /* Readable where no escape is needed. */
    swx_connstr *cs = NULL;
    swx_connstr_parse(&cs, "SEAWX:bundle=maritime,layer=sof-d.maritime/20241001/06/swh:m");
    char *s = swx_connstr_format(cs);
    CU_ASSERT_STRING_EQUAL(s, "SEAWX:bundle=maritime,layer=sof-d.maritime/20241001/06/swh:m");
    free(s);
    swx_connstr_free(cs);
}

static void test_set_replace_remove(void)
{
    swx_connstr *cs = NULL;
    swx_connstr_parse(&cs, "SEAWX:storms,a=1,b=2");
    CU_ASSERT_EQUAL(swx_connstr_set(cs, "A", "3"), 0);
    CU_ASSERT_STRING_EQUAL(swx_connstr_get(cs, "a"), "3");
    CU_ASSERT_EQUAL(swx_connstr_set(cs, "a", NULL), 0);
    CU_ASSERT_PTR_NULL(swx_connstr_get(cs, "a"));
    char *s = swx_connstr_format(cs);
    CU_ASSERT_STRING_EQUAL(s, "SEAWX:storms,b=2");
    free(s);
    swx_connstr_free(cs);
}

static void test_refused(void)
{
    const char *bad[] = {"SEAWX:bundle=basic,key=abc",
                         "SEAWX:service-api-key=abc",
                         "SEAWX:API_KEY=abc",
                         "SEAWX:bundle=basic,,layer=x",
                         "SEAWX:bundle=basic,",
                         "SEAWX:bundle=a,bundle=b",
                         "SEAWX:bundle=basic,oops",
                         "SEAWX:b@d=1",
                         "SEAWX:layer=%zz",
                         "SEAWX:layer=%00",
                         "SEAWX:layer=%4",
                         NULL};
    for (int i = 0; bad[i]; i++) {
        swx_connstr *cs = NULL;
        CU_ASSERT_NOT_EQUAL(swx_connstr_parse(&cs, bad[i]), 0);
        CU_ASSERT_PTR_NULL(cs);
        CU_ASSERT_PTR_NULL(strstr(swx_error_last(), "abc"));
    }
    swx_connstr *cs = NULL;
    swx_connstr_parse(&cs, "SEAWX:bundle=basic,key=abc");
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "SEAWX_API_KEY"));
    swx_connstr_new(&cs);
    CU_ASSERT_NOT_EQUAL(swx_connstr_set(cs, "key", "abc"), 0);
    swx_connstr_free(cs);
    char longs[SWX_CONNSTR_MAX_LEN + 20];
    memset(longs, 'a', sizeof longs - 1);
    longs[sizeof longs - 1] = '\0';
    memcpy(longs, "SEAWX:layer=", 12);
    CU_ASSERT_EQUAL(swx_connstr_parse(&cs, longs), SWX_ETOOBIG);
}

/* Escaping can triple a value's length: what would not parse again is not
 * formatted (found by fuzz_connstr's round-trip check). */
static void test_format_within_limit(void)
{
    char *in = malloc(SWX_CONNSTR_MAX_LEN + 1);
    strcpy(in, "SEAWX:a=");
    memset(in + 8, '\f', 3000);
    in[3008] = '\0';
    swx_connstr *cs = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_connstr_parse(&cs, in), 0);
    CU_ASSERT_PTR_NULL(swx_connstr_format(cs)); /* 9,008 characters once escaped */
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "longer than 8192"));
    in[8 + 2700] = '\0'; /* 8,108 escaped: still within */
    swx_connstr_free(cs);
    cs = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_connstr_parse(&cs, in), 0);
    char *f = swx_connstr_format(cs);
    swx_connstr *back = NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(swx_connstr_parse(&back, f), 0);
    CU_ASSERT_STRING_EQUAL(swx_connstr_value(back, 0), swx_connstr_value(cs, 0));
    free(f);
    swx_connstr_free(back);
    swx_connstr_free(cs);
    free(in);
}

/* Values read as their description says, with one message naming the option. */
static void test_opt_read(void)
{
    const swx_opt num = {"timeout", SWX_OPT_INT, 1, 86400, "120", NULL, NULL, NULL, NULL};
    const swx_opt real = {"res", SWX_OPT_REAL, 0, 0, NULL, NULL, NULL, NULL, "a positive size"};
    const swx_opt flag = {"cache", SWX_OPT_BOOL, 0, 0, "YES", NULL, NULL, NULL, NULL};
    const swx_opt text = {"style", SWX_OPT_STRING, 0, 0, NULL, NULL, NULL, NULL, NULL};
    long n = -7;
    double d = -7;
    CU_ASSERT_EQUAL(swx_opt_read(&n, NULL, &num, "60"), 0);
    CU_ASSERT_EQUAL(n, 60);
    CU_ASSERT_EQUAL(swx_opt_read(&n, NULL, &num, "86400"), 0);
    CU_ASSERT_EQUAL(n, 86400);
    const char *bad_num[] = {"0", "86401", "abc", "12abc", "", "1e3", "99999999999999999999", NULL};
    for (int i = 0; bad_num[i]; i++) {
        n = -7;
        CU_ASSERT_EQUAL(swx_opt_read(&n, NULL, &num, bad_num[i]), SWX_EINVAL);
        CU_ASSERT_EQUAL(n, -7);
    }
    swx_opt_read(&n, NULL, &num, "abc");
    CU_ASSERT_STRING_EQUAL(swx_error_last(),
                           "timeout must be a whole number from 1 to 86400, not 'abc'");
    CU_ASSERT_EQUAL(swx_opt_read(NULL, &d, &real, "0.5"), 0);
    CU_ASSERT_DOUBLE_EQUAL(d, 0.5, 0);
    const char *bad_real[] = {"0", "-1", "nan", "inf", "1x", "", NULL};
    for (int i = 0; bad_real[i]; i++)
        CU_ASSERT_EQUAL(swx_opt_read(NULL, &d, &real, bad_real[i]), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "res must be a positive size, not ''");
    const char *yes[] = {"yes", "YES", "true", "On", "1", NULL},
               *no[] = {"no", "False", "OFF", "0", NULL};
    for (int i = 0; yes[i]; i++) {
        n = -1;
        CU_ASSERT_EQUAL(swx_opt_read(&n, NULL, &flag, yes[i]), 0);
        CU_ASSERT_EQUAL(n, 1);
    }
    for (int i = 0; no[i]; i++) {
        n = -1;
        CU_ASSERT_EQUAL(swx_opt_read(&n, NULL, &flag, no[i]), 0);
        CU_ASSERT_EQUAL(n, 0);
    }
    CU_ASSERT_EQUAL(swx_opt_read(&n, NULL, &flag, "maybe"), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "cache must be yes or no, not 'maybe'");
    CU_ASSERT_EQUAL(swx_opt_read(NULL, NULL, &text, "anything, at all"), 0);

    const swx_opt list[] = {num, real, flag};
    CU_ASSERT_PTR_EQUAL(swx_opt_find(list, 3, "RES"), &list[1]);
    CU_ASSERT_PTR_NULL(swx_opt_find(list, 3, "colour"));
    CU_ASSERT_PTR_NULL(swx_opt_find(list, 3, NULL));
}

/* url, timeout and retries, taken from any kind's connection string. */
static void test_service_opts(void)
{
    size_t n = 0;
    const swx_opt *opts = swx_service_opt_list(&n);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_PTR_NOT_NULL(swx_opt_find(opts, n, "timeout"));
    CU_ASSERT_PTR_NOT_NULL(swx_opt_find(opts, n, "retries"));
    CU_ASSERT_PTR_NOT_NULL(swx_opt_find(opts, n, "url"));

    swx_connstr *cs = NULL;
    swx_service_opts o;
    CU_ASSERT_EQUAL_FATAL(swx_connstr_parse(&cs, "SEAWX:storms,status=all"), 0);
    CU_ASSERT_EQUAL(swx_service_opts_parse(&o, cs), 0);
    CU_ASSERT_PTR_NULL(o.url);
    CU_ASSERT_EQUAL(o.timeout_s, 0);
    CU_ASSERT_EQUAL(o.retries, -1);
    swx_connstr_free(cs);

    CU_ASSERT_EQUAL_FATAL(
        swx_connstr_parse(&cs, "SEAWX:tides,url=http://127.0.0.1:9,timeout=30,retries=0"), 0);
    CU_ASSERT_EQUAL(swx_service_opts_parse(&o, cs), 0);
    CU_ASSERT_STRING_EQUAL(o.url, "http://127.0.0.1:9");
    CU_ASSERT_EQUAL(o.timeout_s, 30);
    CU_ASSERT_EQUAL(o.retries, 0);
    swx_connstr_free(cs);

    CU_ASSERT_EQUAL_FATAL(swx_connstr_parse(&cs, "SEAWX:storms,retries=-5"), 0);
    CU_ASSERT_EQUAL(swx_service_opts_parse(&o, cs), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(),
                           "retries must be a whole number from 0 to 100, not '-5'");
    swx_connstr_free(cs);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("connstr", NULL, NULL);
    CU_add_test(s, "parse", test_parse);
    CU_add_test(s, "round trip", test_round_trip);
    CU_add_test(s, "set, replace, remove", test_set_replace_remove);
    CU_add_test(s, "refused", test_refused);
    CU_add_test(s, "formatting stays within the parse limit", test_format_within_limit);
    CU_add_test(s, "option values read by their description", test_opt_read);
    CU_add_test(s, "the service's options", test_service_opts);
    return cu_run();
}

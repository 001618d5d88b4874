/* test_map_opts.c: the options of a map (lib/wms/map_opts.c): one description
 * each, every item of a connection string read once, with one message for an
 * unknown key or a bad value. */
#include "cu_support.h"

#include "seawx/connstr.h"
#include "seawx/error.h"
#include "seawx/wms.h"
#include "seawx/wms_map.h"

#include <string.h>

/* Parses s and reads it into o; the connection string is kept in *cs. */
static int parse(swx_connstr **cs, swx_map_opts *o, const char *s)
{
    *cs = NULL;
    if (swx_connstr_parse(cs, s) != 0)
        return -100;
    return swx_map_opts_parse(o, *cs);
}

static void test_list(void)
{
    size_t n = 0;
    const swx_opt *opts = swx_map_opt_list(&n);
    const char *keys[] = {
        "bundle",  "layer", "variable", "run", "runs",      "time",  "style",
        "crs",     "width", "height",   "res", "blocksize", "cache", "max_connections",
        "wms_auth"};
    CU_ASSERT_EQUAL_FATAL(n, sizeof keys / sizeof *keys);
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_STRING_EQUAL(opts[i].key, keys[i]);
        CU_ASSERT(opts[i].type != SWX_OPT_CHOICE || opts[i].choices);
        CU_ASSERT(opts[i].type != SWX_OPT_INT || opts[i].min <= opts[i].max);
    }
    /* The bundles offered are the ones the WMS endpoint knows, in its order. */
    const swx_opt *b = swx_opt_find(opts, n, "bundle");
    size_t k = 0;
    for (; b->choices[k]; k++)
        CU_ASSERT_STRING_EQUAL(b->choices[k], swx_wms_bundle(k));
    CU_ASSERT_EQUAL(k, swx_wms_bundle_count());
    CU_ASSERT_EQUAL(k, 12);
    CU_ASSERT_STRING_EQUAL(swx_opt_find(opts, n, "blocksize")->def, "256");
    CU_ASSERT_STRING_EQUAL(swx_opt_find(opts, n, "max_connections")->def, "32");
    CU_ASSERT_STRING_EQUAL(swx_opt_find(opts, n, "wms_auth")->config, "SEAWX_WMS_AUTH");
}

static void test_read(void)
{
    swx_connstr *cs = NULL;
    swx_map_opts o;
    CU_ASSERT_EQUAL_FATAL(parse(&cs, &o, "SEAWX:"), 0);
    CU_ASSERT_PTR_NULL(o.bundle);
    CU_ASSERT_EQUAL(o.width, 0);
    CU_ASSERT_EQUAL(o.block_size, 0);
    CU_ASSERT_EQUAL(o.use_cache, 1);
    CU_ASSERT_EQUAL(o.max_connections, 32);
    CU_ASSERT_PTR_NULL(o.cache);
    CU_ASSERT_EQUAL(o.service.retries, -1);
    swx_connstr_free(cs);

    CU_ASSERT_EQUAL_FATAL(
        parse(&cs, &o,
              "SEAWX:bundle=maritime,variable=swh:m,run=2024-10-01T00:00:00Z,time=2024-10-01T06:"
              "00:00Z,style=default,crs=EPSG:3857,width=800,height=400,res=0.5,blocksize=512,"
              "cache=off,max_connections=4,wms_auth=query,url=http://127.0.0.1:9,timeout=9,"
              "retries=2"),
        0);
    CU_ASSERT_STRING_EQUAL(o.bundle, "maritime");
    CU_ASSERT_STRING_EQUAL(o.variable, "swh:m");
    CU_ASSERT_STRING_EQUAL(o.run, "2024-10-01T00:00:00Z");
    CU_ASSERT_STRING_EQUAL(o.time, "2024-10-01T06:00:00Z");
    CU_ASSERT_STRING_EQUAL(o.style, "default");
    CU_ASSERT_STRING_EQUAL(o.crs, "EPSG:3857");
    CU_ASSERT_EQUAL(o.width, 800);
    CU_ASSERT_EQUAL(o.height, 400);
    CU_ASSERT_DOUBLE_EQUAL(o.res, 0.5, 0);
    CU_ASSERT_EQUAL(o.block_size, 512);
    CU_ASSERT_EQUAL(o.use_cache, 0);
    CU_ASSERT_EQUAL(o.max_connections, 4);
    CU_ASSERT_STRING_EQUAL(o.wms_auth, "query");
    CU_ASSERT_STRING_EQUAL(o.service.url, "http://127.0.0.1:9");
    CU_ASSERT_EQUAL(o.service.timeout_s, 9);
    CU_ASSERT_EQUAL(o.service.retries, 2);
    swx_connstr_free(cs);

    /* An empty value is the default. */
    CU_ASSERT_EQUAL_FATAL(parse(&cs, &o, "SEAWX:bundle=basic,width=,cache="), 0);
    CU_ASSERT_EQUAL(o.width, 0);
    CU_ASSERT_EQUAL(o.use_cache, 1);
    swx_connstr_free(cs);
}

static void test_refused(void)
{
    static const struct {
        const char *in, *msg;
    } bad[] = {
        {"SEAWX:bundle=basic,colour=red",
         "unknown option 'colour'; options are bundle, layer, variable, run, runs, time, style, "
         "crs, "
         "width, height, res, blocksize, cache, max_connections, wms_auth, timeout, retries, url"},
        {"SEAWX:bundle=basic,timeout=abc",
         "timeout must be a whole number from 1 to 86400, not 'abc'"},
        {"SEAWX:bundle=basic,max_connections=0",
         "max_connections must be a whole number from 1 to 256, not '0'"},
        {"SEAWX:bundle=basic,width=12abc",
         "width must be a whole number from 1 to 1073741824, not '12abc'"},
        {"SEAWX:bundle=basic,height=-3",
         "height must be a whole number from 1 to 1073741824, not '-3'"},
        {"SEAWX:bundle=basic,res=nan", "res must be a positive pixel size in CRS units, not 'nan'"},
        {"SEAWX:bundle=basic,cache=maybe", "cache must be yes or no, not 'maybe'"},
        {"SEAWX:bundle=basic,retries=-5", "retries must be a whole number from 0 to 100, not '-5'"},
        {"SEAWX:bundle=basic,blocksize=x", "blocksize must be a whole number from 1 to "
                                           "1073741824, not 'x'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        swx_connstr *cs = NULL;
        swx_map_opts o;
        CU_ASSERT_EQUAL(parse(&cs, &o, bad[i].in), SWX_EINVAL);
        CU_ASSERT_STRING_EQUAL(swx_error_last(), bad[i].msg);
        swx_connstr_free(cs);
    }
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("map_opts", NULL, NULL);
    CU_add_test(s, "one description per option", test_list);
    CU_add_test(s, "values read into the map's options", test_read);
    CU_add_test(s, "unknown keys and bad values refused with one line", test_refused);
    return cu_run();
}

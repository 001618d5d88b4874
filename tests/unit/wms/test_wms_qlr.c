/* test_wms_qlr.c: the QGIS layer definition of a run (lib/wms/wms_qlr.c),
 * from the layers of tests/fixtures/caps/qlr.xml. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/wms_caps.h"
#include "seawx/wms_qlr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static swx_caps *caps;

static int setup(void)
{
    size_t len = 0;
    char *xml = cu_fixture("caps/qlr.xml", &len);
    int rc = xml ? swx_caps_parse(&caps, xml, len) : -1;
    free(xml);
    return rc;
}

static int teardown(void)
{
    swx_caps_free(caps);
    return 0;
}

/* The document for o, malloc'd (written to a temporary file, read back). */
static char *write_doc(const swx_qlr_opts *o, int *rc)
{
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    *rc = swx_qlr_write(f, o);
    long n = ftell(f);
    char *buf = malloc(n > 0 ? (size_t)n + 1 : 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    rewind(f);
    size_t got = n > 0 ? fread(buf, 1, (size_t)n, f) : 0;
    buf[got] = '\0';
    fclose(f);
    return buf;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* Where what first is in s, or -1. */
static long offset(const char *s, const char *what)
{
    const char *p = strstr(s, what);
    return p ? (long)(p - s) : -1;
}

static void check_range(const swx_layer *l, size_t i, const char *start, const char *end)
{
    int64_t a = 0, b = 0;
    CU_ASSERT_EQUAL(swx_qlr_range(&a, &b, l, i), 0);
    CU_ASSERT_EQUAL(a, cu_time(start));
    CU_ASSERT_EQUAL(b, cu_time(end));
}

static void test_ranges(void)
{
    const swx_layer *l = swx_caps_find(caps, "sof-d/20241001/00/gust:m s-1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    /* The first from its time; the others a second in from both ends. */
    check_range(l, 0, "2024-10-01T00:00:00Z", "2024-10-01T00:59:59Z");
    check_range(l, 1, "2024-10-01T01:00:01Z", "2024-10-01T01:59:59Z");
    check_range(l, 2, "2024-10-01T02:00:01Z", "2024-10-01T04:59:59Z");
    check_range(l, 3, "2024-10-01T05:00:01Z", "2024-10-01T07:59:59Z");
    /* The last as long as the step before it. */
    check_range(l, 4, "2024-10-01T08:00:01Z", "2024-10-01T10:59:59Z");
    int64_t a, b;
    CU_ASSERT_EQUAL(swx_qlr_range(&a, &b, l, 5), SWX_EINVAL);
    /* A lone time: an hour. */
    const swx_layer *sst = swx_caps_find(caps, "sof-d/20241001/00/sst:K");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sst);
    check_range(sst, 0, "2024-10-01T06:30:00Z", "2024-10-01T07:29:59Z");
}

static void test_document(void)
{
    swx_qlr_opts o = SWX_QLR_OPTS_INIT;
    o.bundle = "basic";
    o.layer = swx_caps_find(caps, "sof-d/20241001/00/gust:m s-1");
    o.legend = "/tmp/legends/gust & co.png";
    int rc;
    char *doc = write_doc(&o, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    /* One group, named after the variable and the run, escaped. */
    CU_ASSERT_EQUAL(count(doc, "<layer-tree-group "), 2);
    /* Unticked, its layers ticked: nothing drawn until the user ticks it. */
    CU_ASSERT_EQUAL(count(doc, "<layer-tree-group checked=\"Qt::Unchecked\""), 1);
    CU_ASSERT_EQUAL(count(doc, "<layer-tree-layer checked=\"Qt::Checked\" name=\"gust "), 5);
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "name=\"gust (Wind gust &amp; &quot;squalls&quot; "
                                       "&lt;10 m&gt;), run 2024-10-01 00Z\""));
    /* One layer per valid time, in time order, named after the variable and
     * the time first, the title after. */
    CU_ASSERT_EQUAL(count(doc, "<layer-tree-layer "), 5);
    CU_ASSERT_EQUAL(count(doc, "<maplayer type=\"raster\""), 5);
    long at0 = offset(doc, "name=\"gust 2024-10-01 00Z (Wind gust &amp;");
    long at5 = offset(doc, "name=\"gust 2024-10-01 05Z (");
    long at8 = offset(doc, "name=\"gust 2024-10-01 08Z (");
    CU_ASSERT(at0 >= 0 && at0 < at5 && at5 < at8);
    /* The plugin's connection string of each time: the unit's space escaped,
     * the run and time as instants, no key. */
    CU_ASSERT_PTR_NOT_NULL(
        strstr(doc, "<datasource>SEAWX:bundle=basic,variable=gust:m%20s-1,run=2024-10-01T00:00:00Z,"
                    "time=2024-10-01T05:00:00Z</datasource>"));
    CU_ASSERT_EQUAL(count(doc, "source=\"SEAWX:bundle=basic,variable=gust:m%20s-1,"), 5);
    CU_ASSERT_PTR_NULL(strstr(doc, "key="));
    CU_ASSERT_EQUAL(count(doc, "<provider>gdal</provider>"), 5);
    CU_ASSERT_EQUAL(count(doc, "providerKey=\"gdal\""), 5);
    /* Fixed ranges. */
    CU_ASSERT_EQUAL(count(doc, "<temporal enabled=\"1\" mode=\"0\""), 5);
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "<fixedRange><start>2024-10-01T02:00:01Z</start>"
                                       "<end>2024-10-01T04:59:59Z</end></fixedRange>"));
    /* The legend on every layer; only the first open in the panel. */
    CU_ASSERT_EQUAL(count(doc, "legendPlaceholderImage=\"/tmp/legends/gust &amp; co.png\""), 5);
    CU_ASSERT_EQUAL(count(doc, "expanded=\"1\" providerKey=\"gdal\""), 1);
    /* Ids tie the tree to the layers. */
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "id=\"seawx_gust_20241001T050000Z\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "<id>seawx_gust_20241001T050000Z</id>"));
    free(doc);
}

static void test_options(void)
{
    swx_qlr_opts o = SWX_QLR_OPTS_INIT;
    o.bundle = "basic";
    o.layer = swx_caps_find(caps, "sof-d/20241001/00/sst:K");
    o.style = "temp,cold";
    o.crs = "EPSG:3857";
    o.url = "http://127.0.0.1:9/base?a=1&b=2";
    int rc;
    char *doc = write_doc(&o, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "<datasource>SEAWX:bundle=basic,variable=sst:K,"
                                       "run=2024-10-01T00:00:00Z,time=2024-10-01T06:30:00Z,"
                                       "style=temp%2Ccold,crs=EPSG:3857,"
                                       "url=http://127.0.0.1:9/base?a=1&amp;b=2</datasource>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "<authid>EPSG:3857</authid>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "name=\"sst 2024-10-01 06:30Z (Sea surface temperature)\""));
    CU_ASSERT_PTR_NULL(strstr(doc, "legendPlaceholderImage"));
    free(doc);

    /* Web Mercator under its old name is still EPSG:3857 for QGIS. */
    o.crs = "EPSG:900913";
    doc = write_doc(&o, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, ",crs=EPSG:900913,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "<authid>EPSG:3857</authid>"));
    free(doc);

    /* A name outside the service's pattern is selected by its full name. */
    o = (swx_qlr_opts)SWX_QLR_OPTS_INIT;
    o.bundle = "basic";
    o.layer = swx_caps_find(caps, "outlook");
    doc = write_doc(&o, &rc);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(doc, "source=\"SEAWX:bundle=basic,layer=outlook,time=2024-10-04T00:00:00Z\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "<layer-tree-group checked=\"Qt::Unchecked\" "
                                       "name=\"outlook\" expanded=\"1\">"));
    free(doc);
}

static void test_refused(void)
{
    swx_qlr_opts o = SWX_QLR_OPTS_INIT;
    int rc;
    char *doc = write_doc(&o, &rc);
    CU_ASSERT_EQUAL(rc, SWX_EINVAL);
    free(doc);
    o.bundle = "basic";
    o.layer = swx_caps_find(caps, "sof-d/20241001/00/lsm");
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.layer);
    doc = write_doc(&o, &rc);
    CU_ASSERT_EQUAL(rc, SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "no valid times"));
    CU_ASSERT(doc == NULL || doc[0] == '\0');
    free(doc);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("wms_qlr", setup, teardown);
    CU_add_test(s, "temporal ranges", test_ranges);
    CU_add_test(s, "the document", test_document);
    CU_add_test(s, "style, CRS, address, names", test_options);
    CU_add_test(s, "refused", test_refused);
    return cu_run();
}

/* test_wms_caps.c: WMS capabilities documents (lib/wms/wms_caps.c), from the
 * fixtures in tests/fixtures/caps/. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/wms_caps.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static swx_caps *load(const char *fixture)
{
    char path[256];
    size_t len = 0;
    snprintf(path, sizeof path, "caps/%s", fixture);
    char *xml = cu_fixture(path, &len);
    swx_caps *caps = NULL;
    int rc = swx_caps_parse(&caps, xml, len);
    if (rc)
        fprintf(stderr, "%s: %s\n", fixture, swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    free(xml);
    return caps;
}

/* Parses a fixture expecting failure with code and an error line containing
 * each of the NULL-terminated strings. */
static void load_fails(const char *fixture, int code, ...)
{
    char path[256];
    size_t len = 0;
    snprintf(path, sizeof path, "caps/%s", fixture);
    char *xml = cu_fixture(path, &len);
    swx_caps *caps = (swx_caps *)1;
    int rc = swx_caps_parse(&caps, xml, len);
    CU_ASSERT_EQUAL(rc, code);
    CU_ASSERT_PTR_NULL(caps);
    va_list ap;
    va_start(ap, code);
    for (const char *want; (want = va_arg(ap, const char *)) != NULL;) {
        if (!strstr(swx_error_last(), want))
            fprintf(stderr, "%s: error line '%s' lacks '%s'\n", fixture, swx_error_last(), want);
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), want));
    }
    va_end(ap);
    free(xml);
}

static const swx_layer *find(const swx_caps *caps, const char *name)
{
    const swx_layer *l = swx_caps_find(caps, name);
    if (!l)
        fprintf(stderr, "no layer '%s'\n", name);
    return l;
}

/* ---- the service's nested shape --------------------------------------------- */

static void test_nested_service(void)
{
    swx_caps *caps = load("nested.xml");
    CU_ASSERT_FATAL(caps != NULL);
    CU_ASSERT_STRING_EQUAL(swx_caps_version(caps), "1.3.0");
    CU_ASSERT_STRING_EQUAL(swx_caps_title(caps), "Weather Map Layers - sof-d basic");
    CU_ASSERT_EQUAL(swx_caps_max_width(caps), 4096);
    CU_ASSERT_EQUAL(swx_caps_max_height(caps), 2048);
    CU_ASSERT_EQUAL(swx_caps_format_count(caps), 2);
    CU_ASSERT_STRING_EQUAL(swx_caps_format(caps, 0), "image/png");
    CU_ASSERT_STRING_EQUAL(swx_caps_format(caps, 1), "image/jpeg");
    CU_ASSERT_PTR_NULL(swx_caps_format(caps, 2));
    swx_caps_free(caps);
}

static void test_nested_layers(void)
{
    swx_caps *caps = load("nested.xml");
    CU_ASSERT_FATAL(caps != NULL);
    /* Only the leaves: no node of the tree above them has a Name. */
    static const char *const names[] = {
        "sof-d/20241001/00/t2m:K",     "sof-d/20241001/00/t2m:F", "sof-d/20241001/00/r",
        "sof-d/20241001/00/10u:m s-1", "sof-d/20241001/06/t2m:K", "sof-d/20241001/06/r",
        "sof-d/20241001/06/10u:m s-1", "sof-d/20241002/00/t2m:K", "sof-d/20241002/00/r",
        "sof-d/20241002/00/tcc:%"};
    CU_ASSERT_EQUAL_FATAL(swx_caps_layer_count(caps), 10);
    for (size_t i = 0; i < 10; i++) {
        CU_ASSERT_STRING_EQUAL(swx_layer_name(swx_caps_layer(caps, i)), names[i]);
        CU_ASSERT_PTR_EQUAL(swx_caps_find(caps, names[i]), swx_caps_layer(caps, i));
    }
    CU_ASSERT_PTR_NULL(swx_caps_layer(caps, 10));
    CU_ASSERT_PTR_NULL(swx_caps_find(caps, "sof-d/20241001/00/t2m"));
    CU_ASSERT_PTR_NULL(swx_caps_find(caps, "20241001"));

    const swx_layer *l = find(caps, "sof-d/20241001/00/t2m:K");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_STRING_EQUAL(swx_layer_title(l), "2 metre temperature (K)");
    CU_ASSERT_STRING_EQUAL(swx_layer_abstract(l), "Air temperature 2 m above ground.");
    CU_ASSERT_STRING_EQUAL(swx_layer_product(l), "sof-d");
    CU_ASSERT_STRING_EQUAL(swx_layer_variable(l), "t2m");
    CU_ASSERT_STRING_EQUAL(swx_layer_unit(l), "K");
    CU_ASSERT_STRING_EQUAL(swx_layer_run_date(l), "20241001");
    CU_ASSERT_STRING_EQUAL(swx_layer_run_hour(l), "00");
    int64_t run = 0;
    CU_ASSERT_EQUAL(swx_layer_run_time(&run, l), 0);
    CU_ASSERT_EQUAL(run, cu_time("2024-10-01T00:00:00Z"));

    /* Unitless, and a unit with a space in it. */
    l = find(caps, "sof-d/20241001/06/r");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_STRING_EQUAL(swx_layer_variable(l), "r");
    CU_ASSERT_PTR_NULL(swx_layer_unit(l));
    CU_ASSERT_STRING_EQUAL(swx_layer_run_hour(l), "06");
    CU_ASSERT_EQUAL(swx_layer_run_time(&run, l), 0);
    CU_ASSERT_EQUAL(run, cu_time("2024-10-01T06:00:00Z"));
    l = find(caps, "sof-d/20241001/00/10u:m s-1");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_STRING_EQUAL(swx_layer_variable(l), "10u");
    CU_ASSERT_STRING_EQUAL(swx_layer_unit(l), "m s-1");
    l = find(caps, "sof-d/20241002/00/tcc:%");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_STRING_EQUAL(swx_layer_unit(l), "%");
    CU_ASSERT_PTR_NULL(swx_layer_abstract(l));

    CU_ASSERT_EQUAL_FATAL(swx_caps_variable_count(caps), 4);
    CU_ASSERT_STRING_EQUAL(swx_caps_variable(caps, 0), "t2m");
    CU_ASSERT_STRING_EQUAL(swx_caps_variable(caps, 1), "r");
    CU_ASSERT_STRING_EQUAL(swx_caps_variable(caps, 2), "10u");
    CU_ASSERT_STRING_EQUAL(swx_caps_variable(caps, 3), "tcc");
    CU_ASSERT_PTR_NULL(swx_caps_variable(caps, 4));
    swx_caps_free(caps);
}

static void test_nested_inheritance(void)
{
    swx_caps *caps = load("nested.xml");
    CU_ASSERT_FATAL(caps != NULL);
    const swx_layer *l = find(caps, "sof-d/20241002/00/r");
    CU_ASSERT_FATAL(l != NULL);
    /* CRSs of the root plus the product node's extra one; its EPSG:4326 repeats. */
    CU_ASSERT_EQUAL_FATAL(swx_layer_crs_count(l), 4);
    CU_ASSERT_STRING_EQUAL(swx_layer_crs(l, 0), "CRS:84");
    CU_ASSERT_STRING_EQUAL(swx_layer_crs(l, 1), "EPSG:4326");
    CU_ASSERT_STRING_EQUAL(swx_layer_crs(l, 2), "EPSG:3857");
    CU_ASSERT_STRING_EQUAL(swx_layer_crs(l, 3), "EPSG:3395");
    CU_ASSERT_PTR_NULL(swx_layer_crs(l, 4));
    CU_ASSERT_TRUE(swx_layer_has_crs(l, "epsg:3395"));
    CU_ASSERT_TRUE(swx_layer_has_crs(l, "EPSG:3857"));
    CU_ASSERT_FALSE(swx_layer_has_crs(l, "EPSG:32662"));

    /* Bounding boxes come from the root only. */
    CU_ASSERT_EQUAL_FATAL(swx_layer_bbox_count(l), 3);
    const swx_bbox *b = swx_layer_bbox(l, 1);
    CU_ASSERT_STRING_EQUAL(b->crs, "EPSG:4326");
    CU_ASSERT_DOUBLE_EQUAL(b->minx, -90, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(b->miny, -180, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(b->maxx, 90, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(b->maxy, 180, 1e-9);
    b = swx_layer_bbox(l, 2);
    CU_ASSERT_STRING_EQUAL(b->crs, "EPSG:3857");
    CU_ASSERT_DOUBLE_EQUAL(b->minx, -20037508.34, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(b->maxy, 20048966.1, 1e-6);
    CU_ASSERT_PTR_NULL(swx_layer_bbox(l, 3));
    double w = 0, s = 0, e = 0, n = 0;
    CU_ASSERT_EQUAL(swx_layer_geo_bbox(&w, &s, &e, &n, l), 0);
    CU_ASSERT_DOUBLE_EQUAL(w, -180, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s, -90, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(e, 180, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(n, 90, 1e-9);
    swx_caps_free(caps);
}

static void test_nested_dimensions(void)
{
    swx_caps *caps = load("nested.xml");
    CU_ASSERT_FATAL(caps != NULL);
    const swx_layer *l = find(caps, "sof-d/20241001/00/t2m:K");
    CU_ASSERT_FATAL(l != NULL);
    const swx_timedim *t = swx_layer_time(l);
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(t), 10);
    CU_ASSERT_EQUAL(swx_timedim_first(t), cu_time("2024-10-01T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_last(t), cu_time("2024-10-01T17:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(t, 6), cu_time("2024-10-01T08:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_default(t), cu_time("2024-10-01T00:00:00Z"));
    const swx_timedim *rt = swx_layer_reference_time(l);
    CU_ASSERT_FATAL(rt != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(rt), 1);
    CU_ASSERT_EQUAL(swx_timedim_default(rt), cu_time("2024-10-01T00:00:00Z"));

    /* default="current" is the last value; "+00:00" is read as UTC. */
    l = find(caps, "sof-d/20241001/06/t2m:K");
    CU_ASSERT_FATAL(l != NULL && swx_layer_time(l) != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(swx_layer_time(l)), 6);
    CU_ASSERT_EQUAL(swx_timedim_default(swx_layer_time(l)), cu_time("2024-10-01T11:00:00Z"));
    l = find(caps, "sof-d/20241002/00/t2m:K");
    CU_ASSERT_FATAL(l != NULL && swx_layer_time(l) != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(swx_layer_time(l)), 4);
    CU_ASSERT_EQUAL(swx_timedim_default(swx_layer_time(l)), cu_time("2024-10-02T01:00:00Z"));

    /* A leaf without any Dimension. */
    l = find(caps, "sof-d/20241002/00/tcc:%");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_PTR_NULL(swx_layer_time(l));
    CU_ASSERT_PTR_NULL(swx_layer_reference_time(l));
    int64_t run = 0;
    CU_ASSERT_EQUAL(swx_layer_run_time(&run, l), 0); /* from the name */
    CU_ASSERT_EQUAL(run, cu_time("2024-10-02T00:00:00Z"));
    swx_caps_free(caps);
}

static void test_nested_styles(void)
{
    swx_caps *caps = load("nested.xml");
    CU_ASSERT_FATAL(caps != NULL);
    const swx_layer *l = find(caps, "sof-d/20241001/00/t2m:K");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_EQUAL_FATAL(swx_layer_style_count(l), 2);
    const swx_style *st = swx_layer_style(l, 0);
    CU_ASSERT_STRING_EQUAL(st->name, "t2m:K/nearest");
    CU_ASSERT_STRING_EQUAL(st->title, "Temperature, nearest");
    CU_ASSERT_STRING_EQUAL(st->legend_url,
                           "https://api.example.com/ows/wms?service=WMS&request=GetLegendGraphic"
                           "&layer=sof-d/20241001/00/t2m:K&style=t2m:K/nearest");
    st = swx_layer_style(l, 1);
    CU_ASSERT_STRING_EQUAL(st->name, "t2m:K/nearestcontour");
    CU_ASSERT_PTR_NULL(st->legend_url);
    CU_ASSERT_PTR_NULL(swx_layer_style(l, 2));
    /* The style base is not always the variable: take it from the document. */
    l = find(caps, "sof-d/20241001/00/t2m:F");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_EQUAL_FATAL(swx_layer_style_count(l), 1);
    CU_ASSERT_STRING_EQUAL(swx_layer_style(l, 0)->name, "temp:F/nearest");
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_layer_style(l, 0)->legend_url, "style=temp:F/nearest"));
    /* Leaves do not share each other's styles. */
    l = find(caps, "sof-d/20241002/00/tcc:%");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_EQUAL_FATAL(swx_layer_style_count(l), 1);
    CU_ASSERT_STRING_EQUAL(swx_layer_style(l, 0)->name, "tcc:%/nearest");
    CU_ASSERT_PTR_NULL(swx_layer_style(l, 0)->title);
    swx_caps_free(caps);
}

static void test_nested_runs_and_latest(void)
{
    swx_caps *caps = load("nested.xml");
    CU_ASSERT_FATAL(caps != NULL);
    const swx_layer *out[8];

    /* All units of t2m, newest run first; equal runs in document order. */
    size_t n = swx_caps_runs(caps, "t2m", NULL, out, 8);
    CU_ASSERT_EQUAL_FATAL(n, 4);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[0]), "sof-d/20241002/00/t2m:K");
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[1]), "sof-d/20241001/06/t2m:K");
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[2]), "sof-d/20241001/00/t2m:K");
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[3]), "sof-d/20241001/00/t2m:F");
    /* One unit; a short out array still gets the total. */
    CU_ASSERT_EQUAL(swx_caps_runs(caps, "t2m", "K", out, 2), 3);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[0]), "sof-d/20241002/00/t2m:K");
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[1]), "sof-d/20241001/06/t2m:K");
    CU_ASSERT_EQUAL(swx_caps_runs(caps, "t2m", "F", out, 8), 1);
    CU_ASSERT_EQUAL(swx_caps_runs(caps, "t2m", "", out, 8), 0);
    CU_ASSERT_EQUAL(swx_caps_runs(caps, "r", "", out, 8), 3);
    CU_ASSERT_EQUAL(swx_caps_runs(caps, "r", "K", out, 8), 0);
    CU_ASSERT_EQUAL(swx_caps_runs(caps, "t2m", NULL, NULL, 0), 4);
    CU_ASSERT_EQUAL(swx_caps_runs(caps, "sst", NULL, out, 8), 0);

    /* The 00 run of 2024-10-02 is still being produced (4 times against 10 of
     * the previous 00 run): the latest complete t2m run is 2024-10-01 06,
     * complete although shorter than the 00 run, as only 06 runs compare. */
    const swx_layer *l = find(caps, "sof-d/20241002/00/t2m:K");
    CU_ASSERT_FALSE(swx_caps_run_is_complete(caps, l));
    CU_ASSERT_TRUE(swx_caps_run_is_complete(caps, find(caps, "sof-d/20241001/06/t2m:K")));
    CU_ASSERT_TRUE(swx_caps_run_is_complete(caps, find(caps, "sof-d/20241001/00/t2m:K")));
    const swx_layer *latest = NULL;
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "t2m", "K"), 0);
    CU_ASSERT_FATAL(latest != NULL);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(latest), "sof-d/20241001/06/t2m:K");
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "t2m", NULL), 0);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(latest), "sof-d/20241001/06/t2m:K");
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "t2m", "F"), 0);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(latest), "sof-d/20241001/00/t2m:F");
    /* r of 2024-10-02 00 lists as many times as the run before: complete. */
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "r", ""), 0);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(latest), "sof-d/20241002/00/r");
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "10u", "m s-1"), 0);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(latest), "sof-d/20241001/06/10u:m s-1");
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "tcc", NULL), 0);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(latest), "sof-d/20241002/00/tcc:%");

    /* Unknown variable or unit: the error names what exists. */
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "sst", NULL), SWX_ENOTFOUND);
    CU_ASSERT_PTR_NULL(latest);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "'sst'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "variables: t2m, r, 10u, tcc"));
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "t2m", "C"), SWX_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "unit 'C'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "units: K, F"));
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "t2m", ""), SWX_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "without a unit"));
    swx_caps_free(caps);
}

static void test_nested_maritime(void)
{
    swx_caps *caps = load("nested_maritime.xml"); /* written with a wms: prefix */
    CU_ASSERT_FATAL(caps != NULL);
    CU_ASSERT_STRING_EQUAL(swx_caps_title(caps), "Weather Map Layers - sof-d maritime");
    CU_ASSERT_EQUAL(swx_caps_layer_count(caps), 5);
    const swx_layer *l = find(caps, "sof-d.maritime/20241001/00/wvdir:degree");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_STRING_EQUAL(swx_layer_product(l), "sof-d.maritime");
    CU_ASSERT_STRING_EQUAL(swx_layer_variable(l), "wvdir");
    CU_ASSERT_STRING_EQUAL(swx_layer_unit(l), "degree");
    CU_ASSERT_EQUAL(swx_layer_crs_count(l), 2);
    CU_ASSERT_EQUAL(swx_timedim_count(swx_layer_time(l)), 4);
    CU_ASSERT_EQUAL(swx_timedim_get(swx_layer_time(l), 3), cu_time("2024-10-01T09:00:00Z"));
    double w, s, e, n;
    CU_ASSERT_EQUAL(swx_layer_geo_bbox(&w, &s, &e, &n, l), 0);
    CU_ASSERT_DOUBLE_EQUAL(s, -78.5, 1e-9);
    CU_ASSERT_EQUAL(swx_caps_variable_count(caps), 4);
    const swx_layer *latest = NULL;
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "swh", "m"), 0);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(latest), "sof-d.maritime/20241001/12/swh:m");
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "mwp", "s"), 0);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(latest), "sof-d.maritime/20241001/00/mwp:s");
    swx_caps_free(caps);
}

/* ---- the flat form and other servers ---------------------------------------- */

static void test_flat(void)
{
    swx_caps *caps = load("flat.xml");
    CU_ASSERT_FATAL(caps != NULL);
    CU_ASSERT_EQUAL_FATAL(swx_caps_layer_count(caps), 5);
    CU_ASSERT_EQUAL(swx_caps_format_count(caps), 2);
    CU_ASSERT_STRING_EQUAL(swx_caps_format(caps, 1), "image/webp");
    const swx_layer *l = swx_caps_layer(caps, 0);
    CU_ASSERT_STRING_EQUAL(swx_layer_product(l), "sof-d");
    CU_ASSERT_EQUAL(swx_layer_crs_count(l), 2);
    CU_ASSERT_EQUAL(swx_layer_bbox_count(l), 1);
    CU_ASSERT_EQUAL(swx_layer_style_count(l), 0);
    CU_ASSERT_EQUAL(swx_timedim_count(swx_layer_time(l)), 10);

    const swx_layer *out[8];
    CU_ASSERT_EQUAL_FATAL(swx_caps_runs(caps, "t2m", "K", out, 8), 4);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[0]), "sof-d/20241002/12/t2m:K");
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[1]), "sof-d/20241002/00/t2m:K");
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[2]), "sof-d/20241001/12/t2m:K");
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[3]), "sof-d/20241001/00/t2m:K");
    /* The 12 run of 2024-10-02 lists 3 times against 10: still being produced. */
    CU_ASSERT_FALSE(swx_caps_run_is_complete(caps, out[0]));
    const swx_layer *latest = NULL;
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "t2m", "K"), 0);
    CU_ASSERT_PTR_EQUAL(latest, out[1]);
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "pmsl", "Pa"), 0);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(latest), "sof-d/20241002/00/pmsl:Pa");
    swx_caps_free(caps);
}

static void test_flat_other_server(void)
{
    swx_caps *caps = load("flat_other.xml");
    CU_ASSERT_FATAL(caps != NULL);
    /* A parent with a Name is a layer too; a nameless, childless one is not. */
    static const char *const names[] = {"temperature",
                                        "wind_speed",
                                        "ocean",
                                        "ocean/sst",
                                        "sof-d/20241345/00/t2m:K",
                                        "sof-d/20241001/24/t2m:K",
                                        "salinity"};
    CU_ASSERT_EQUAL_FATAL(swx_caps_layer_count(caps), 7);
    for (size_t i = 0; i < 7; i++)
        CU_ASSERT_STRING_EQUAL(swx_layer_name(swx_caps_layer(caps, i)), names[i]);
    CU_ASSERT_EQUAL(swx_caps_variable_count(caps), 7);

    /* Names off the pattern: the variable is the whole name, the run comes from
     * reference_time (its default). */
    const swx_layer *l = find(caps, "temperature");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_STRING_EQUAL(swx_layer_variable(l), "temperature");
    CU_ASSERT_PTR_NULL(swx_layer_product(l));
    CU_ASSERT_PTR_NULL(swx_layer_unit(l));
    CU_ASSERT_PTR_NULL(swx_layer_run_date(l));
    CU_ASSERT_PTR_NULL(swx_layer_run_hour(l));
    int64_t run = 0;
    CU_ASSERT_EQUAL(swx_layer_run_time(&run, l), 0);
    CU_ASSERT_EQUAL(run, cu_time("2024-09-30T12:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_count(swx_layer_reference_time(l)), 3);
    /* time inherited from the root. */
    const swx_timedim *t = swx_layer_time(l);
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(t), 5);
    CU_ASSERT_EQUAL(swx_timedim_get(t, 3), cu_time("2024-10-01T18:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_default(t), cu_time("2024-10-01T12:00:00Z"));
    /* CRS: "epsg:4326" repeats "EPSG:4326" and is dropped. */
    CU_ASSERT_EQUAL(swx_layer_crs_count(l), 2);
    /* Styles: the root's, then its own; its own "default" does not replace the
     * inherited one. */
    CU_ASSERT_EQUAL_FATAL(swx_layer_style_count(l), 2);
    CU_ASSERT_STRING_EQUAL(swx_layer_style(l, 0)->name, "default");
    CU_ASSERT_STRING_EQUAL(swx_layer_style(l, 0)->title, "Server default");
    CU_ASSERT_STRING_EQUAL(swx_layer_style(l, 1)->name, "boxfill/rainbow");
    /* A key a server echoed into a legend URL is removed, user info too. */
    CU_ASSERT_STRING_EQUAL(swx_layer_style(l, 0)->legend_url,
                           "https://ocean.example.org/wms?REQUEST=GetLegendGraphic"
                           "&LAYER=temperature#legend");
    CU_ASSERT_STRING_EQUAL(swx_layer_style(l, 1)->legend_url,
                           "https://ocean.example.org/wms?REQUEST=GetLegendGraphic"
                           "&LAYER=temperature");

    /* wind_speed replaces time, the EPSG:4326 box and the geographic box, adds
     * EPSG:3857 to the CRSs and a box for it; reference_time default="current". */
    l = find(caps, "wind_speed");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(swx_layer_time(l)), 2);
    CU_ASSERT_EQUAL(swx_timedim_last(swx_layer_time(l)), cu_time("2024-10-01T03:00:00Z"));
    CU_ASSERT_EQUAL(swx_layer_run_time(&run, l), 0);
    CU_ASSERT_EQUAL(run, cu_time("2024-10-01T06:00:00Z"));
    CU_ASSERT_EQUAL_FATAL(swx_layer_crs_count(l), 3);
    CU_ASSERT_STRING_EQUAL(swx_layer_crs(l, 2), "EPSG:3857");
    CU_ASSERT_EQUAL_FATAL(swx_layer_bbox_count(l), 3);
    CU_ASSERT_STRING_EQUAL(swx_layer_bbox(l, 0)->crs, "CRS:84");
    CU_ASSERT_DOUBLE_EQUAL(swx_layer_bbox(l, 0)->miny, -80, 1e-9);
    CU_ASSERT_STRING_EQUAL(swx_layer_bbox(l, 1)->crs, "EPSG:4326");
    CU_ASSERT_DOUBLE_EQUAL(swx_layer_bbox(l, 1)->minx, 35, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_layer_bbox(l, 1)->maxy, 30.25, 1e-9);
    CU_ASSERT_STRING_EQUAL(swx_layer_bbox(l, 2)->crs, "EPSG:3857");
    double w, s, e, n;
    CU_ASSERT_EQUAL(swx_layer_geo_bbox(&w, &s, &e, &n, l), 0);
    CU_ASSERT_DOUBLE_EQUAL(w, -10.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(e, 30.25, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s, 35, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(n, 70, 1e-9);
    CU_ASSERT_EQUAL(swx_layer_style_count(l), 1);

    /* Names that look like the pattern but carry month 13 or hour 24. */
    l = find(caps, "sof-d/20241345/00/t2m:K");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_PTR_NULL(swx_layer_product(l));
    CU_ASSERT_STRING_EQUAL(swx_layer_variable(l), "sof-d/20241345/00/t2m:K");
    CU_ASSERT_EQUAL(swx_layer_run_time(&run, l), SWX_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "sof-d/20241345/00/t2m:K"));
    l = find(caps, "sof-d/20241001/24/t2m:K");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_PTR_NULL(swx_layer_run_hour(l));

    /* Blanks around a Name are not part of it. */
    l = find(caps, "salinity");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_PTR_NULL(swx_layer_title(l));
    CU_ASSERT_EQUAL(swx_caps_max_width(caps), 0);
    swx_caps_free(caps);
}

static void test_wms111(void)
{
    swx_caps *caps = load("wms111.xml");
    CU_ASSERT_FATAL(caps != NULL);
    CU_ASSERT_STRING_EQUAL(swx_caps_version(caps), "1.1.1");
    CU_ASSERT_STRING_EQUAL(swx_caps_title(caps), "Legacy forecast WMS");
    CU_ASSERT_EQUAL(swx_caps_format_count(caps), 2);
    CU_ASSERT_EQUAL_FATAL(swx_caps_layer_count(caps), 2);
    const swx_layer *l = find(caps, "sof-d/20241001/00/t2m:K");
    CU_ASSERT_FATAL(l != NULL);
    /* SRS lists separated by blanks. */
    CU_ASSERT_EQUAL_FATAL(swx_layer_crs_count(l), 3);
    CU_ASSERT_STRING_EQUAL(swx_layer_crs(l, 0), "EPSG:4326");
    CU_ASSERT_STRING_EQUAL(swx_layer_crs(l, 1), "EPSG:3857");
    CU_ASSERT_STRING_EQUAL(swx_layer_crs(l, 2), "EPSG:900913");
    double w, s, e, n;
    CU_ASSERT_EQUAL(swx_layer_geo_bbox(&w, &s, &e, &n, l), 0);
    CU_ASSERT_DOUBLE_EQUAL(w, -180, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s, -85.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(n, 85.5, 1e-9);
    CU_ASSERT_EQUAL_FATAL(swx_layer_bbox_count(l), 1);
    CU_ASSERT_STRING_EQUAL(swx_layer_bbox(l, 0)->crs, "EPSG:4326");
    CU_ASSERT_DOUBLE_EQUAL(swx_layer_bbox(l, 0)->minx, -180, 1e-9);
    /* Dimension declared on the root, values in the leaf's Extent. */
    const swx_timedim *t = swx_layer_time(l);
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(t), 5);
    CU_ASSERT_EQUAL(swx_timedim_get(t, 4), cu_time("2024-10-01T12:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_default(t), cu_time("2024-10-01T03:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_count(swx_layer_reference_time(l)), 1);
    CU_ASSERT_EQUAL_FATAL(swx_layer_style_count(l), 1);
    CU_ASSERT_STRING_EQUAL(swx_layer_style(l, 0)->legend_url,
                           "http://legacy.example.com/legend/t2m.png");

    /* Times without an offset; a default that is no ISO instant means the first. */
    l = find(caps, "sof-d/20241001/00/gust:m s-1");
    CU_ASSERT_FATAL(l != NULL);
    CU_ASSERT_STRING_EQUAL(swx_layer_unit(l), "m s-1");
    CU_ASSERT_EQUAL(swx_layer_crs_count(l), 4);
    CU_ASSERT_TRUE(swx_layer_has_crs(l, "EPSG:3395"));
    t = swx_layer_time(l);
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(t), 3);
    CU_ASSERT_EQUAL(swx_timedim_get(t, 1), cu_time("2024-10-01T06:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_default(t), cu_time("2024-10-01T00:00:00Z"));
    CU_ASSERT_PTR_NULL(swx_layer_reference_time(l));
    swx_caps_free(caps);
}

static void test_interval_fixture(void)
{
    swx_caps *caps = load("interval.xml");
    CU_ASSERT_FATAL(caps != NULL);
    const swx_timedim *t = swx_layer_time(find(caps, "sof-d/20241001/00/t2m:K"));
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(t), 114);
    CU_ASSERT_EQUAL(swx_timedim_get(t, 48), cu_time("2024-10-03T00:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(t, 49), cu_time("2024-10-03T03:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(t, 73), cu_time("2024-10-06T06:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_get(t, 113), cu_time("2024-10-16T12:00:00Z"));
    CU_ASSERT_EQUAL(swx_timedim_default(t), cu_time("2024-10-03T03:00:00Z"));
    CU_ASSERT_TRUE(swx_timedim_contains(t, cu_time("2024-10-10T18:00:00Z")));
    CU_ASSERT_FALSE(swx_timedim_contains(t, cu_time("2024-10-10T19:00:00Z")));
    CU_ASSERT_EQUAL(swx_timedim_lower_bound(t, cu_time("2024-10-10T19:00:00Z")),
                    swx_timedim_lower_bound(t, cu_time("2024-10-11T00:00:00Z")));
    int64_t near[2];
    CU_ASSERT_EQUAL(swx_timedim_nearest(t, cu_time("2024-10-10T19:00:00Z"), near, 2), 2);
    CU_ASSERT_EQUAL(near[0], cu_time("2024-10-10T18:00:00Z"));
    CU_ASSERT_EQUAL(near[1], cu_time("2024-10-11T00:00:00Z"));

    t = swx_layer_time(find(caps, "archive"));
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(t), 57854881);
    CU_ASSERT_EQUAL(swx_timedim_default(t), cu_time("2100-01-01T00:00:00Z"));
    t = swx_layer_time(find(caps, "overlap"));
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(t), 8);
    CU_ASSERT_EQUAL(swx_timedim_get(t, 3), cu_time("2024-10-01T07:30:00Z"));
    t = swx_layer_time(find(caps, "weekly"));
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT_EQUAL(swx_timedim_count(t), 11);
    swx_caps_free(caps);
}

/* ---- refused documents -------------------------------------------------------- */

static void test_malformed(void)
{
    load_fails("malformed.xml", SWX_EPARSE,
               "malformed capabilities: line 67: ", "Premature end of data", NULL);
}

static int passwd_leaked(const char *line)
{
    /* The first bytes of the file the document asks for must appear nowhere. */
    char head[16] = "";
    FILE *f = fopen("/etc/passwd", "r");
    if (f) {
        size_t n = fread(head, 1, sizeof head - 1, f);
        head[n] = '\0';
        fclose(f);
        char *colon = strchr(head, ':');
        if (colon)
            colon[1] = '\0'; /* "root:" */
    }
    return head[0] && strstr(line, head) != NULL;
}

static void test_xxe_refused(void)
{
    load_fails("xxe.xml", SWX_EPARSE, "malformed capabilities: entity declarations are not allowed",
               "line 3", "'xxe'", NULL);
    CU_ASSERT_FALSE(passwd_leaked(swx_error_last()));
    load_fails("xxe_param.xml", SWX_EPARSE, "entity declarations are not allowed", "'secret'",
               NULL);
    CU_ASSERT_FALSE(passwd_leaked(swx_error_last()));
}

static void test_external_dtd_not_loaded(void)
{
    /* A DOCTYPE naming an external DTD is allowed, and the DTD never read. */
    swx_caps *caps = load("xxe_dtd.xml");
    CU_ASSERT_FATAL(caps != NULL);
    CU_ASSERT_EQUAL(swx_caps_layer_count(caps), 1);
    CU_ASSERT_STRING_EQUAL(swx_caps_title(caps), "External DTD");
    swx_caps_free(caps);
}

static void test_bomb_refused(void)
{
    /* Stopped at the first declaration (line 3, 'lol'), before any expansion. */
    load_fails("bomb.xml", SWX_EPARSE, "entity declarations are not allowed", "line 3", "'lol'",
               NULL);
}

static void test_no_layers(void)
{
    load_fails("no_layers.xml", SWX_ENOTFOUND, "no layers", "subscription", NULL);
}

static void test_not_wms(void)
{
    load_fails("not_wms.xml", SWX_ESERVICE, "exception instead of capabilities",
               "InvalidParameterValue: Unknown bundle 'maritme'", NULL);
    load_fails("service_exception.xml", SWX_ESERVICE,
               "InvalidFormat: Parameter 'bundle' is required", NULL);
    load_fails("not_wms.html", SWX_ESERVICE, "HTML page", "\"502 Bad Gateway\"", NULL);
    load_fails("not_caps.xml", SWX_ESERVICE, "not a WMS capabilities document",
               "<FeatureCollection>", NULL);
}

static void test_bad_values(void)
{
    load_fails("bad_time.xml", SWX_EPARSE,
               "malformed capabilities: line 10: ", "layer 'sof-d/20241001/00/t2m:K'",
               "dimension 'time'", "has no period", NULL);
    load_fails("bad_bbox.xml", SWX_EPARSE,
               "malformed capabilities: line 9: ", "maxx 'ninety' is not a number", NULL);
}

static void test_limits_and_arguments(void)
{
    swx_caps *caps = (swx_caps *)1;
    CU_ASSERT_EQUAL(swx_caps_parse(&caps, "", 0), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(caps);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "empty"));
    CU_ASSERT_EQUAL(swx_caps_parse(NULL, "<a/>", 4), SWX_EINVAL);
    /* Refused on its size alone: the bytes are never read. */
    size_t big = (size_t)SWX_CAPS_MAX_BYTES + 1;
    char *xml = malloc(big);
    CU_ASSERT_FATAL(xml != NULL);
    memcpy(xml, "<?xml", 5);
    caps = (swx_caps *)1;
    CU_ASSERT_EQUAL(swx_caps_parse(&caps, xml, big), SWX_ETOOBIG);
    CU_ASSERT_PTR_NULL(caps);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "more than the limit"));
    free(xml);

    swx_caps_free(NULL);
    CU_ASSERT_EQUAL(swx_caps_layer_count(NULL), 0);
    CU_ASSERT_PTR_NULL(swx_caps_find(NULL, "x"));
    CU_ASSERT_PTR_NULL(swx_layer_name(NULL));
    CU_ASSERT_EQUAL(swx_layer_crs_count(NULL), 0);
    CU_ASSERT_FALSE(swx_caps_run_is_complete(NULL, NULL));
}

/* ---- a big document ----------------------------------------------------------- */

/* Builds the service's shape in memory: 4 dates x 4 hours x nvars leaves, each
 * with 60 hourly times, except the newest 18 run, which lists 20. */
static char *big_document(size_t nvars, size_t *len)
{
    size_t cap = 8u * 1024u * 1024u, n = 0; /* ample for 60 variables */
    char *s = malloc(cap);
    if (!s)
        return NULL;
#define PUT(...) (n += n < cap ? (size_t)snprintf(s + n, cap - n, __VA_ARGS__) : 0)
    PUT("<?xml version=\"1.0\"?>\n<WMS_Capabilities version=\"1.3.0\" "
        "xmlns=\"http://www.opengis.net/wms\"><Service><Title>big</Title></Service>"
        "<Capability><Layer><Title>root</Title><CRS>EPSG:4326</CRS><CRS>EPSG:3857</CRS>"
        "<Layer><Title>sof-d</Title>\n");
    for (int day = 1; day <= 4; day++) {
        PUT("<Layer><Title>202410%02d</Title>\n", day);
        for (int hour = 0; hour < 24; hour += 6) {
            PUT("<Layer><Title>%02d</Title>\n", hour);
            for (size_t v = 0; v < nvars; v++) {
                int filling = day == 4 && hour == 18;
                PUT("<Layer><Name>sof-d/202410%02d/%02d/v%zu:K</Name><Title>v%zu</Title>"
                    "<Dimension name=\"time\" units=\"ISO8601\">",
                    day, hour, v, v);
                for (int k = 0; k < (filling ? 20 : 60); k++) {
                    int64_t t =
                        swx_days_from_civil(2024, 10, (unsigned)day) * 86400 + (hour + k) * 3600;
                    char iso[SWX_ISO8601_LEN];
                    swx_iso8601_format(iso, t);
                    PUT("%s%s", k ? "," : "", iso);
                }
                PUT("</Dimension><Style><Name>v%zu/nearest</Name></Style></Layer>\n", v);
            }
            PUT("</Layer>\n");
        }
        PUT("</Layer>\n");
    }
    PUT("</Layer></Layer></Capability></WMS_Capabilities>\n");
#undef PUT
    if (n >= cap) {
        free(s);
        return NULL;
    }
    *len = n;
    return s;
}

static void test_big_document(void)
{
    size_t len = 0, nvars = 60;
    char *xml = big_document(nvars, &len);
    CU_ASSERT_FATAL(xml != NULL);
    CU_ASSERT_TRUE(len > 1000000);
    swx_caps *caps = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_caps_parse(&caps, xml, len), 0);
    CU_ASSERT_EQUAL(swx_caps_layer_count(caps), 16 * nvars);
    CU_ASSERT_EQUAL(swx_caps_variable_count(caps), nvars);
    CU_ASSERT_STRING_EQUAL(swx_caps_variable(caps, 37), "v37");
    const swx_layer *out[16];
    CU_ASSERT_EQUAL(swx_caps_runs(caps, "v59", "K", out, 16), 16);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[0]), "sof-d/20241004/18/v59:K");
    CU_ASSERT_STRING_EQUAL(swx_layer_name(out[15]), "sof-d/20241001/00/v59:K");
    const swx_layer *latest = NULL;
    CU_ASSERT_EQUAL(swx_caps_latest(&latest, caps, "v59", "K"), 0);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(latest), "sof-d/20241004/12/v59:K");
    CU_ASSERT_EQUAL(swx_timedim_count(swx_layer_time(latest)), 60);
    CU_ASSERT_PTR_NOT_NULL(swx_caps_find(caps, "sof-d/20241002/06/v0:K"));
    swx_caps_free(caps);
    free(xml);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("wms_caps.nested", NULL, NULL);
    CU_add_test(s, "service metadata", test_nested_service);
    CU_add_test(s, "leaves, names, variables", test_nested_layers);
    CU_add_test(s, "inherited CRS and bounding boxes", test_nested_inheritance);
    CU_add_test(s, "dimensions", test_nested_dimensions);
    CU_add_test(s, "styles and legend URLs", test_nested_styles);
    CU_add_test(s, "runs and the latest complete run", test_nested_runs_and_latest);
    CU_add_test(s, "maritime bundle, prefixed namespace", test_nested_maritime);
    s = CU_add_suite("wms_caps.other", NULL, NULL);
    CU_add_test(s, "flat form", test_flat);
    CU_add_test(s, "a generic server", test_flat_other_server);
    CU_add_test(s, "WMS 1.1.1", test_wms111);
    CU_add_test(s, "interval times", test_interval_fixture);
    CU_add_test(s, "a big document", test_big_document);
    s = CU_add_suite("wms_caps.refused", NULL, NULL);
    CU_add_test(s, "truncated document", test_malformed);
    CU_add_test(s, "external entities", test_xxe_refused);
    CU_add_test(s, "external DTD is not loaded", test_external_dtd_not_loaded);
    CU_add_test(s, "entity bomb", test_bomb_refused);
    CU_add_test(s, "no layers", test_no_layers);
    CU_add_test(s, "not a capabilities document", test_not_wms);
    CU_add_test(s, "bad values", test_bad_values);
    CU_add_test(s, "limits and arguments", test_limits_and_arguments);
    return cu_run();
}

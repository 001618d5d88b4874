/* test_wms.c: the WMS endpoint (lib/wms/wms.c): the bundle list and its check,
 * the GetCapabilities and GetMap requests as built (parameters, axis order,
 * numbers that read back exactly), and fetching capabilities from seawx-sim on
 * loopback, where its access log shows what reached the service and that the
 * key travelled in the header, never in the URL. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/http.h"
#include "jsonfmt.h"
#include "wms_request.h"
#include "seawx/wms.h"
#include "seawx/wms_caps.h"
#include "http_core.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KEY "WMS-TEST-KEY-51b0e7"

static const char *const all_bundles[] = {
    "basic",  "precipitation", "maritime",  "maritime-wave", "maritime-wave-ext", "maritime-atmos",
    "clouds", "thunderstorm",  "upper-air", "agricultural",  "wind-energy",       "solar-energy",
};

static cu_sim sim;
static char access_log[128];

static swx_client *client_at(const char *base_url, const char *auth)
{
    return cu_client(base_url, KEY, auth);
}

/* The request's URL as the client shows it (caller frees). */
static char *url_of(const swx_request *req)
{
    swx_client *c = client_at("http://127.0.0.1:9", NULL);
    char *u = swx_request_display_url(c, req);
    swx_client_free(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    return u;
}

static void has(const char *text, const char *want)
{
    if (!strstr(text, want))
        fprintf(stderr, "\n  '%s' lacks '%s'\n", text, want);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
}

static void lacks(const char *text, const char *unwanted)
{
    if (strstr(text, unwanted))
        fprintf(stderr, "\n  '%s' has '%s'\n", text, unwanted);
    CU_ASSERT_PTR_NULL(strstr(text, unwanted));
}

/* ---- bundles ---- */

static void test_bundle_list(void)
{
    size_t n = sizeof all_bundles / sizeof all_bundles[0];
    CU_ASSERT_EQUAL(swx_wms_bundle_count(), n);
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_STRING_EQUAL(swx_wms_bundle(i), all_bundles[i]);
        CU_ASSERT_EQUAL(swx_wms_bundle_check(all_bundles[i]), 0);
    }
    CU_ASSERT_PTR_NULL(swx_wms_bundle(n));
    CU_ASSERT_PTR_NULL(swx_wms_bundle((size_t)-1));
}

static void test_bundle_check(void)
{
    const char *bad[] = {"Basic", "basic ", "", "maritime-", "wind", "solar", "basic,maritime"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        swx_error_clear();
        CU_ASSERT_EQUAL(swx_wms_bundle_check(bad[i]), SWX_EINVAL);
        char want[64];
        snprintf(want, sizeof want, "unknown bundle '%s': valid bundles are ", bad[i]);
        has(swx_error_last(), want);
        /* The message names every valid bundle. */
        for (size_t k = 0; k < sizeof all_bundles / sizeof all_bundles[0]; k++)
            has(swx_error_last(), all_bundles[k]);
    }
    CU_ASSERT_EQUAL(swx_wms_bundle_check(NULL), SWX_EINVAL);
    has(swx_error_last(), "unknown bundle '': valid bundles are basic");
    /* A very long name is cut in the message. */
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CU_ASSERT_EQUAL(swx_wms_bundle_check(longname), SWX_EINVAL);
    lacks(swx_error_last(), longname + 100);
}

/* ---- GetCapabilities ---- */

static void test_caps_request(void)
{
    swx_request req;
    swx_query *q = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_wms_caps_request(&req, &q, "maritime-wave"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_EQUAL(req.service, SWX_SERVICE_MAIN);
    CU_ASSERT_STRING_EQUAL(req.path, SWX_WMS_PATH);
    CU_ASSERT_STRING_EQUAL(req.path, "/ows/wms");
    CU_ASSERT_PTR_EQUAL(req.query, q);
    CU_ASSERT_EQUAL(req.wms, 1);
    CU_ASSERT_STRING_EQUAL(req.accept, SWX_WMS_CAPS_TYPES);
    CU_ASSERT_EQUAL(req.max_body, SWX_CAPS_MAX_BYTES);
    CU_ASSERT_PTR_NULL(req.headers);
    char *u = url_of(&req);
    CU_ASSERT_STRING_EQUAL(u, "http://127.0.0.1:9/ows/wms?service=WMS&request=GetCapabilities"
                              "&version=1.3.0&product=sof-d&bundle=maritime-wave");
    free(u);
    swx_query_free(q);

    q = (swx_query *)1;
    CU_ASSERT_EQUAL(swx_wms_caps_request(&req, &q, "weather"), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(q);
    has(swx_error_last(), "unknown bundle 'weather'");
}

/* ---- GetMap ---- */

static swx_getmap getmap_4326(void)
{
    swx_getmap g = {0};
    g.bundle = "basic";
    g.layer = "sof-d/20241001/06/t2m:K";
    g.time = "2024-10-01T09:00:00Z";
    g.style = "temp:K/nearest";
    g.crs = "EPSG:4326";
    g.minx = -180;
    g.miny = -90;
    g.maxx = 0;
    g.maxy = 90;
    g.width = 256;
    g.height = 128;
    g.transparent = 1;
    return g;
}

static char *getmap_url(const swx_getmap *g)
{
    swx_request req;
    swx_query *q = NULL;
    int rc = swx_wms_getmap_request(&req, &q, g);
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(req.service, SWX_SERVICE_MAIN);
    CU_ASSERT_STRING_EQUAL(req.path, "/ows/wms");
    CU_ASSERT_EQUAL(req.wms, 1);
    CU_ASSERT_STRING_EQUAL(req.accept, "image/png");
    CU_ASSERT_EQUAL(req.max_body, 0);
    char *u = url_of(&req);
    swx_query_free(q);
    return u;
}

static void test_getmap_request(void)
{
    swx_getmap g = getmap_4326();
    char *u = getmap_url(&g);
    CU_ASSERT_STRING_EQUAL(u, "http://127.0.0.1:9/ows/wms?service=WMS&request=GetMap&version=1.3.0"
                              "&product=sof-d&bundle=basic&layers=sof-d/20241001/06/t2m:K"
                              "&styles=temp:K/nearest&crs=EPSG:4326&bbox=-90,-180,90,0"
                              "&width=256&height=128&format=image/png&transparent=TRUE"
                              "&time=2024-10-01T09:00:00Z");
    free(u);

    /* No style and no time: an empty styles= (the layer's default) and no time=. */
    g.style = NULL;
    g.time = NULL;
    g.transparent = 0;
    u = getmap_url(&g);
    has(u, "&styles=&crs=");
    has(u, "&transparent=FALSE");
    lacks(u, "time=");
    free(u);
}

static void test_getmap_axis_order(void)
{
    swx_getmap g = getmap_4326();
    g.minx = 10;
    g.miny = 50;
    g.maxx = 20;
    g.maxy = 60;
    char *u = getmap_url(&g);
    has(u, "&bbox=50,10,60,20&"); /* EPSG:4326 in 1.3.0: latitude first */
    free(u);
    g.crs = "epsg:4326";
    u = getmap_url(&g);
    has(u, "&bbox=50,10,60,20&");
    free(u);
    g.crs = "CRS:84";
    u = getmap_url(&g);
    has(u, "&crs=CRS:84&bbox=10,50,20,60&"); /* CRS:84: longitude first */
    free(u);
    g.crs = "EPSG:3857";
    g.minx = -20037508.342789244;
    g.miny = 0;
    g.maxx = 0;
    g.maxy = 20037508.342789244;
    u = getmap_url(&g);
    has(u, "&crs=EPSG:3857&bbox=-20037508.342789244,0,0,20037508.342789244&");
    free(u);
}

static void test_getmap_numbers(void)
{
    /* Every edge reads back as the same double. */
    swx_getmap g = getmap_4326();
    g.crs = "CRS:84";
    g.minx = 0.1;
    g.miny = 1.0 / 3;
    g.maxx = 0.1 + 0.2;
    g.maxy = 2.0 / 3;
    char *u = getmap_url(&g);
    const char *b = strstr(u, "bbox=");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    double v[4];
    CU_ASSERT_EQUAL(sscanf(b, "bbox=%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3]), 4);
    CU_ASSERT(v[0] == g.minx && v[1] == g.miny && v[2] == g.maxx && v[3] == g.maxy);
    has(u, "bbox=0.1,"); /* the shortest form, not 0.10000000000000001 */
    free(u);

    /* GetMap numbers come from util's shortest-double formatter. */
    char s[SWX_DOUBLE_TEXT_MAX];
    swx_double_shortest(s, 0.1);
    CU_ASSERT_STRING_EQUAL(s, "0.1");
    swx_double_shortest(s, -180);
    CU_ASSERT_STRING_EQUAL(s, "-180");
    swx_double_shortest(s, 0.1 + 0.2);
    CU_ASSERT_STRING_EQUAL(s, "0.30000000000000004");
    swx_double_shortest(s, 20037508.342789244);
    CU_ASSERT_STRING_EQUAL(s, "20037508.342789244");
    const double hard[] = {
        1.0 / 3, M_PI, -1e-300, 1.7976931348623157e308, 5e-324, 2.5e-5, 123456789012345678.0};
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++) {
        swx_double_shortest(s, hard[i]);
        CU_ASSERT(strtod(s, NULL) == hard[i]);
        CU_ASSERT(strlen(s) <= 24);
    }
}

static void getmap_refused(const swx_getmap *g, int code, const char *want)
{
    swx_request req;
    swx_query *q = (swx_query *)1;
    CU_ASSERT_EQUAL(swx_wms_getmap_request(&req, &q, g), code);
    CU_ASSERT_PTR_NULL(q);
    has(swx_error_last(), want);
}

static void test_getmap_invalid(void)
{
    const char *need = "invalid GetMap request: layer, CRS, a positive size and a non-empty bbox "
                       "are needed";
    swx_getmap g = getmap_4326();
    g.bundle = "nope";
    getmap_refused(&g, SWX_EINVAL, "unknown bundle 'nope': valid bundles are basic");
    g = getmap_4326();
    g.layer = NULL;
    getmap_refused(&g, SWX_EINVAL, need);
    g = getmap_4326();
    g.crs = NULL;
    getmap_refused(&g, SWX_EINVAL, need);
    g = getmap_4326();
    g.width = 0;
    getmap_refused(&g, SWX_EINVAL, need);
    g = getmap_4326();
    g.height = -256;
    getmap_refused(&g, SWX_EINVAL, need);
    g = getmap_4326();
    g.maxx = g.minx;
    getmap_refused(&g, SWX_EINVAL, need);
    g = getmap_4326();
    g.miny = 90;
    g.maxy = -90;
    getmap_refused(&g, SWX_EINVAL, need);
    g = getmap_4326();
    g.minx = NAN;
    getmap_refused(&g, SWX_EINVAL, need);
    g = getmap_4326();
    g.maxy = NAN;
    getmap_refused(&g, SWX_EINVAL, need);
    /* Infinite edges would be written as "inf", which no server reads. */
    g = getmap_4326();
    g.minx = -INFINITY;
    getmap_refused(&g, SWX_EINVAL, need);
    g = getmap_4326();
    g.maxy = INFINITY;
    getmap_refused(&g, SWX_EINVAL, need);
}

/* ---- against seawx-sim ---- */

/* The access log's lines (caller frees). */
static char *read_log(void)
{
    FILE *f = fopen(access_log, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char *buf = calloc(1, 1 << 20);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The log line of the last request whose target holds want, copied into line. */
static int last_line_once(const char *want, char *line, size_t size)
{
    char *log = read_log();
    int found = 0;
    for (char *p = log; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        if (strstr(p, want)) {
            snprintf(line, size, "%s", p);
            found = 1;
        }
        p = nl ? nl + 1 : p + strlen(p);
    }
    free(log);
    return found;
}

/* As last_line_once, waiting up to 5 s: the sim writes a request's line once
 * it has answered, so the line may come a moment after the answer. */
static int last_line_with(const char *want, char *line, size_t size)
{
    for (int i = 0; i < 250; i++) {
        if (last_line_once(want, line, size))
            return 1;
        struct timespec ts = {0, 20 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static void test_get_caps_header_auth(void)
{
    swx_client *c = client_at(sim.base_url, "header");
    swx_caps *caps = NULL;
    int rc = swx_wms_get_caps(&caps, c, "maritime");
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(swx_caps_version(caps), "1.3.0");
    CU_ASSERT(swx_caps_layer_count(caps) > 0);
    swx_caps_free(caps);
    swx_client_free(c);

    char line[1024];
    CU_ASSERT_FATAL(last_line_with("request=GetCapabilities", line, sizeof line));
    has(line, "GET ");
    has(line, " /ows/wms?service=WMS&request=GetCapabilities&version=1.3.0&product=sof-d"
              "&bundle=maritime 200 ");
    has(line, "auth=header");
    lacks(line, KEY);
    lacks(line, "service-api-key");
}

static void test_getmap_header_auth(void)
{
    swx_client *c = client_at(sim.base_url, "header");
    swx_getmap g = getmap_4326();
    g.width = 64;
    g.height = 32;
    swx_request req;
    swx_query *q = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_wms_getmap_request(&req, &q, &g), 0);
    swx_response *r = NULL;
    int rc = swx_http_get(&r, c, &req);
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(r && r->len > 8 && memcmp(r->body, "\x89PNG", 4) == 0);
    swx_response_free(r);
    swx_query_free(q);
    swx_client_free(c);

    char line[1024];
    CU_ASSERT_FATAL(last_line_with("request=GetMap", line, sizeof line));
    has(line, " /ows/wms?service=WMS&request=GetMap&version=1.3.0&product=sof-d&bundle=basic"
              "&layers=sof-d/20241001/06/t2m:K&styles=temp:K/nearest&crs=EPSG:4326"
              "&bbox=-90,-180,90,0&width=64&height=32&format=image/png&transparent=TRUE"
              "&time=2024-10-01T09:00:00Z 200 ");
    has(line, " 200 ");
    has(line, "auth=header");
    lacks(line, KEY);
    lacks(line, "service-api-key");
}

static void test_get_caps_query_auth(void)
{
    /* The other mode, for contrast: there the key is a query parameter (the sim
     * logs it redacted), and the error line still never shows it. */
    swx_client *c = client_at(sim.base_url, "query");
    swx_caps *caps = NULL;
    CU_ASSERT_EQUAL(swx_wms_get_caps(&caps, c, "clouds"), 0);
    swx_caps_free(caps);
    char line[1024];
    CU_ASSERT_FATAL(last_line_with("bundle=clouds", line, sizeof line));
    has(line, "service-api-key=REDACTED");
    has(line, "auth=query");
    swx_client_free(c);
}

static void test_get_caps_errors(void)
{
    swx_client *c = client_at(sim.base_url, NULL);
    swx_caps *caps = (swx_caps *)1;
    /* Refused before anything is sent. */
    CU_ASSERT_EQUAL(swx_wms_get_caps(&caps, c, "weather"), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(caps);
    has(swx_error_last(), "unknown bundle 'weather'");
    /* A bundle outside the subscription. */
    caps = (swx_caps *)1;
    CU_ASSERT_EQUAL(swx_wms_get_caps(&caps, c, "thunderstorm"), SWX_EFORBIDDEN);
    CU_ASSERT_PTR_NULL(caps);
    has(swx_error_last(), "bundle=thunderstorm");
    lacks(swx_error_last(), KEY);
    /* Once the later request is logged, the unknown bundle is known never to
     * have reached the service. */
    char line[1024];
    CU_ASSERT(last_line_with("bundle=thunderstorm", line, sizeof line));
    has(line, " 403 ");
    CU_ASSERT_FALSE(last_line_once("bundle=weather", line, sizeof line));
    swx_client_free(c);
}

static void test_get_caps_doc(void)
{
    swx_client *c = client_at(sim.base_url, NULL);
    swx_caps *caps = NULL, *again = NULL;
    char *xml = (char *)1;
    size_t len = 0;
    /* The document as received parses to the same capabilities. */
    CU_ASSERT_EQUAL_FATAL(swx_wms_get_caps_doc(&caps, &xml, &len, c, "basic"), 0);
    CU_ASSERT(len > 100 && xml[len] == '\0' && strstr(xml, "<WMS_Capabilities"));
    CU_ASSERT_EQUAL_FATAL(swx_caps_parse(&again, xml, len), 0);
    CU_ASSERT_EQUAL(swx_caps_layer_count(again), swx_caps_layer_count(caps));
    swx_caps_free(again);
    swx_caps_free(caps);
    free(xml);
    /* A failure hands over nothing. */
    xml = (char *)1;
    CU_ASSERT_EQUAL(swx_wms_get_caps_doc(&caps, &xml, &len, c, "thunderstorm"), SWX_EFORBIDDEN);
    CU_ASSERT_PTR_NULL(caps);
    CU_ASSERT_PTR_NULL(xml);
    swx_client_free(c);
}

static void test_get_legend(void)
{
    swx_client *c = client_at(sim.base_url, "header");
    swx_caps *caps = NULL;
    void *png = (void *)1;
    size_t len = 1;
    int w = 0, h = 0;
    CU_ASSERT_EQUAL_FATAL(swx_wms_get_caps(&caps, c, "basic"), 0);
    const char *layer = swx_layer_name(swx_caps_layer(caps, 0));
    const char *style = swx_layer_style(swx_caps_layer(caps, 0), 0)->name;
    /* The service's size, then one asked for. */
    int rc = swx_wms_get_legend(&png, &len, &w, &h, c, "basic", layer, style, 0, 0);
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT(len > 8 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
    CU_ASSERT(w == 256 && h == 40); /* the stand-in's, its LegendURL's size */
    free(png);
    CU_ASSERT_EQUAL(swx_wms_get_legend(&png, &len, &w, &h, c, "basic", layer, NULL, 100, 10), 0);
    CU_ASSERT(w == 100 && h == 10);
    free(png);
    char line[1024];
    /* The sim logs a request once answered: wait for the second one's line. */
    CU_ASSERT_FATAL(last_line_with("&width=100&height=10", line, sizeof line));
    has(line, "request=GetLegendGraphic&version=1.3.0&product=sof-d&bundle=basic&layer=");
    has(line, "&format=image/png&width=100&height=10 200 ");
    lacks(line, KEY);
    /* Refused before anything is sent, and by the service. */
    png = (void *)1;
    CU_ASSERT_EQUAL(swx_wms_get_legend(&png, &len, NULL, NULL, c, "basic", layer, NULL, 2000, 0),
                    SWX_EINVAL);
    CU_ASSERT_PTR_NULL(png);
    has(swx_error_last(), "1 to 1024 pixels");
    CU_ASSERT_EQUAL(swx_wms_get_legend(&png, &len, NULL, NULL, c, "basic", "", NULL, 0, 0),
                    SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_wms_get_legend(&png, &len, NULL, NULL, c, "weather", layer, NULL, 0, 0),
                    SWX_EINVAL);
    rc = swx_wms_get_legend(&png, &len, NULL, NULL, c, "basic", "sof-d/19990101/00/t2m:K", NULL, 0,
                            0);
    CU_ASSERT(rc != 0);
    CU_ASSERT_PTR_NULL(png);
    lacks(swx_error_last(), KEY);
    swx_caps_free(caps);
    swx_client_free(c);
}

static void test_get_caps_many(void)
{
    swx_client *c = client_at(sim.base_url, NULL);
    const char *names[] = {"basic", "thunderstorm", "weather", "wind-energy"};
    swx_caps *out[4];
    int rc[4];
    char *errors[4];
    int r = swx_wms_get_caps_many(out, rc, errors, c, names, 4, 2);
    /* The first failure in the list's order is the bundle check of "weather",
     * made as requests are produced; 403 comes later, from the network. */
    CU_ASSERT(r == SWX_EINVAL || r == SWX_EFORBIDDEN);
    CU_ASSERT_EQUAL(rc[0], 0);
    CU_ASSERT_PTR_NOT_NULL(out[0]);
    CU_ASSERT_PTR_NULL(errors[0]);
    CU_ASSERT_EQUAL(rc[1], SWX_EFORBIDDEN);
    CU_ASSERT_PTR_NULL(out[1]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(errors[1]);
    has(errors[1], "bundle=thunderstorm");
    CU_ASSERT_EQUAL(rc[2], SWX_EINVAL);
    CU_ASSERT_PTR_NULL(out[2]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(errors[2]);
    has(errors[2], "unknown bundle 'weather'");
    CU_ASSERT_EQUAL(rc[3], 0);
    CU_ASSERT_PTR_NOT_NULL(out[3]);
    CU_ASSERT_PTR_NULL(errors[3]);
    for (int i = 0; i < 4; i++) {
        swx_caps_free(out[i]);
        free(errors[i]);
    }

    /* Without an errors array, and all good: 0. */
    const char *good[] = {"basic", "maritime"};
    CU_ASSERT_EQUAL(swx_wms_get_caps_many(out, rc, NULL, c, good, 2, 0), 0);
    CU_ASSERT(rc[0] == 0 && rc[1] == 0 && out[0] && out[1]);
    swx_caps_free(out[0]);
    swx_caps_free(out[1]);
    swx_client_free(c);
}

int main(void)
{
    char dir[] = "/tmp/seawx-test-wms-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    snprintf(access_log, sizeof access_log, "%s/access.log", dir);
    const char *args[] = {"--key",
                          KEY,
                          "--access-log",
                          access_log,
                          "--now",
                          "2024-10-01T12:00:00Z",
                          "--deny-bundle",
                          "thunderstorm",
                          NULL};
    if (cu_sim_start(&sim, args))
        return 1;
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("wms", NULL, NULL);
    CU_add_test(s, "bundle list", test_bundle_list);
    CU_add_test(s, "bundle check names the valid ones", test_bundle_check);
    CU_add_test(s, "GetCapabilities request", test_caps_request);
    CU_add_test(s, "GetMap request", test_getmap_request);
    CU_add_test(s, "GetMap axis order", test_getmap_axis_order);
    CU_add_test(s, "GetMap numbers read back exactly", test_getmap_numbers);
    CU_add_test(s, "GetMap refused", test_getmap_invalid);
    CU_add_test(s, "capabilities with header auth: no key in the URL", test_get_caps_header_auth);
    CU_add_test(s, "GetMap with header auth: no key in the URL", test_getmap_header_auth);
    CU_add_test(s, "capabilities with query auth", test_get_caps_query_auth);
    CU_add_test(s, "capabilities errors", test_get_caps_errors);
    CU_add_test(s, "capabilities of many bundles", test_get_caps_many);
    CU_add_test(s, "capabilities with the document as received", test_get_caps_doc);
    CU_add_test(s, "legend graphics", test_get_legend);
    int rc = cu_run();
    cu_sim_stop(&sim);
    remove(access_log);
    rmdir(dir);
    return rc;
}

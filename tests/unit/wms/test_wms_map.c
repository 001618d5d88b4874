/* test_wms_map.c: a WMS layer as a block grid (lib/wms/wms_map.c), through
 * swx_map_open and the public functions only: what a user asks for resolved
 * against capabilities (tests/fixtures/wms_map/, tests/fixtures/caps/), with
 * errors that name what is valid; the grid's size, overview levels and
 * geotransform; each block's GetMap; and blocks read from seawx-sim on
 * loopback, through the disk cache, with cancellation and failures. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/http.h"
#include "seawx/iso8601.h"
#include "wms_request.h"
#include "seawx/wms.h"
#include "seawx/wms_caps.h"
#include "seawx/diskcache.h"
#include "seawx/wms_map.h"
#include "http_core.h"

#include <CUnit/CUnit.h>
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define KEY "MAP-TEST-KEY-0c94d2"
#define MERC_MAX 20037508.342789244

static cu_sim sim;

static swx_caps *load(const char *fixture)
{
    size_t len = 0;
    char *xml = cu_fixture(fixture, &len);
    swx_caps *caps = NULL;
    int rc = swx_caps_parse(&caps, xml, len);
    if (rc)
        fprintf(stderr, "%s: %s\n", fixture, swx_error_last());
    free(xml);
    CU_ASSERT_PTR_NOT_NULL_FATAL(caps);
    return caps;
}

/* The model's 0.25 degree grid, whose block edges are round numbers: most
 * tests ask for it; the default grid's own tests clear it. */
#define MODEL_RES 0.25

static swx_map_opts opts_layer(const char *layer)
{
    swx_map_opts o = {0};
    o.bundle = "basic";
    o.layer = layer;
    o.res = MODEL_RES;
    return o;
}

/* Opens a map of fixture with o; fails the test if it does not open. */
static swx_map *open_ok(const char *fixture, const swx_map_opts *o)
{
    swx_map *m = NULL;
    int rc = swx_map_open(&m, load(fixture), o);
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return m;
}

static swx_map *open_map(const swx_map_opts *o)
{
    return open_ok("wms_map/map.xml", o);
}

/* Opening fixture with o must fail with code and an error line holding each
 * of the NULL-terminated strings. */
static void open_fails(const char *fixture, const swx_map_opts *o, int code, ...)
{
    swx_map *m = (swx_map *)1;
    CU_ASSERT_EQUAL(swx_map_open(&m, load(fixture), o), code);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_EQUAL(swx_error_last_code(), code);
    va_list ap;
    va_start(ap, code);
    for (const char *want; (want = va_arg(ap, const char *)) != NULL;) {
        if (!strstr(swx_error_last(), want))
            fprintf(stderr, "\n  error line '%s' lacks '%s'\n", swx_error_last(), want);
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), want));
    }
    va_end(ap);
}

static void assert_gt(const swx_map *m, double x0, double dx, double y0, double dy)
{
    double gt[6];
    swx_map_geotransform(gt, m);
    CU_ASSERT_DOUBLE_EQUAL(gt[0], x0, 1e-9 * fabs(x0) + 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(gt[1], dx, 1e-9 * fabs(dx));
    CU_ASSERT_EQUAL(gt[2], 0);
    CU_ASSERT_DOUBLE_EQUAL(gt[3], y0, 1e-9 * fabs(y0) + 1e-12);
    CU_ASSERT_EQUAL(gt[4], 0);
    CU_ASSERT_DOUBLE_EQUAL(gt[5], dy, 1e-9 * fabs(dy));
}

static void assert_size(const swx_map *m, int w, int h)
{
    if (swx_map_width(m) != w || swx_map_height(m) != h)
        fprintf(stderr, "\n  size %d x %d, expected %d x %d\n", swx_map_width(m), swx_map_height(m),
                w, h);
    CU_ASSERT_EQUAL(swx_map_width(m), w);
    CU_ASSERT_EQUAL(swx_map_height(m), h);
}

/* ---- the grid ---- */

static void test_default_grid_4326(void)
{
    /* 1/128 degree: a 32nd of the model's grid, which is level 5 exactly. */
    swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
    o.res = 0;
    swx_map *m = open_map(&o);
    assert_size(m, 46080, 23040);
    CU_ASSERT_EQUAL(swx_map_epsg(m), 4326);
    CU_ASSERT_STRING_EQUAL(swx_map_crs(m), "EPSG:4326");
    CU_ASSERT_STRING_EQUAL(swx_map_bundle(m), "basic");
    CU_ASSERT_STRING_EQUAL(swx_layer_name(swx_map_layer(m)), "sof-d/20241001/00/t2m:K");
    CU_ASSERT_EQUAL(swx_map_block_size(m), 256);
    assert_gt(m, -180, 1.0 / 128, 90, -1.0 / 128);
    /* Overviews down to 360 x 180; a world view reads a few dozen blocks. */
    CU_ASSERT_EQUAL(swx_map_level_count(m), 8);
    int w = -1, h = -1;
    swx_map_level_size(&w, &h, m, 5);
    CU_ASSERT(w == 1440 && h == 720);
    swx_map_level_size(&w, &h, m, 7);
    CU_ASSERT(w == 360 && h == 180);
    swx_map_free(m);

    /* The model's grid, asked for. */
    o.res = MODEL_RES;
    m = open_map(&o);
    assert_size(m, 1440, 720);
    assert_gt(m, -180, 0.25, 90, -0.25);
    swx_map_free(m);
}

static void test_default_grid_3857(void)
{
    /* The Web Mercator square at 1/128 degree of the equator. */
    swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
    o.crs = "EPSG:3857";
    o.res = 0;
    swx_map *m = open_map(&o);
    assert_size(m, 46080, 46080);
    CU_ASSERT_EQUAL(swx_map_epsg(m), 3857);
    CU_ASSERT_STRING_EQUAL(swx_map_crs(m), "EPSG:3857");
    assert_gt(m, -MERC_MAX, 2 * MERC_MAX / 46080, MERC_MAX, -2 * MERC_MAX / 46080);
    int w = -1, h = -1;
    swx_map_level_size(&w, &h, m, 5);
    CU_ASSERT(w == 1440 && h == 1440);
    swx_map_free(m);

    /* The same from a server that calls it EPSG:900913. */
    o = opts_layer("google");
    o.crs = "EPSG:3857";
    o.res = 0;
    m = open_map(&o);
    assert_size(m, 46080, 46080);
    CU_ASSERT_EQUAL(swx_map_epsg(m), 3857);
    CU_ASSERT_STRING_EQUAL(swx_map_crs(m), "EPSG:900913");
    swx_map_free(m);
}

static void test_size_from_width_or_height(void)
{
    /* One side given: the other keeps square pixels. */
    swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
    o.width = 1000;
    swx_map *m = open_map(&o);
    assert_size(m, 1000, 500);
    double gt[6];
    swx_map_geotransform(gt, m);
    CU_ASSERT_DOUBLE_EQUAL(gt[1], -gt[5], 1e-12);
    swx_map_free(m);

    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.height = 101;
    m = open_map(&o);
    assert_size(m, 202, 101);
    swx_map_free(m);

    o = opts_layer("europe"); /* 40 x 35 degrees */
    o.width = 400;
    m = open_map(&o);
    assert_size(m, 400, 350);
    swx_map_free(m);
    o = opts_layer("europe");
    o.height = 7;
    m = open_map(&o);
    assert_size(m, 8, 7);
    swx_map_free(m);

    /* Both given: taken as they are, pixels need not be square. */
    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.width = 300;
    o.height = 300;
    o.res = 5; /* a size given wins over a resolution */
    m = open_map(&o);
    assert_size(m, 300, 300);
    assert_gt(m, -180, 1.2, 90, -0.6);
    swx_map_free(m);

    /* Never below one pixel. */
    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.width = 1;
    m = open_map(&o);
    assert_size(m, 1, 1);
    swx_map_free(m);
}

static void test_size_from_res(void)
{
    swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
    o.res = 1;
    swx_map *m = open_map(&o);
    assert_size(m, 360, 180);
    assert_gt(m, -180, 1, 90, -1);
    swx_map_free(m);

    o.res = 0.1;
    m = open_map(&o);
    assert_size(m, 3600, 1800);
    swx_map_free(m);

    o = opts_layer("europe");
    m = open_map(&o);
    assert_size(m, 160, 140); /* the model's 0.25 degree over 40 x 35 degrees */
    assert_gt(m, -10, 0.25, 70, -0.25);
    swx_map_free(m);
    o.res = 0;
    m = open_map(&o);
    assert_size(m, 5120, 4480); /* the default 1/128 degree over it */
    assert_gt(m, -10, 1.0 / 128, 70, -1.0 / 128);
    swx_map_free(m);

    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.crs = "EPSG:3857";
    o.res = 2 * MERC_MAX / 100;
    m = open_map(&o);
    assert_size(m, 100, 100);
    swx_map_free(m);
}

static void test_size_limits(void)
{
    /* 2^20 pixels on a side is the most. */
    swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
    o.width = SWX_MAP_MAX_SIDE;
    swx_map *m = open_map(&o);
    assert_size(m, SWX_MAP_MAX_SIDE, SWX_MAP_MAX_SIDE / 2);
    swx_map_free(m);

    o.width = SWX_MAP_MAX_SIDE + 1;
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "1048577 x 524289 pixels",
               "over the limit of 1048576 on a side", NULL);
    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.height = SWX_MAP_MAX_SIDE; /* the width would be twice that */
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "over the limit of 1048576", NULL);
    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.res = 0.0001;
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "3600000 x 1800000 pixels",
               "over the limit of 1048576 on a side; ask for a coarser resolution", NULL);

    const char *positive = "size and resolution must be positive";
    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.width = -1;
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, positive, NULL);
    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.height = -5;
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, positive, NULL);
    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.res = -0.25;
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, positive, NULL);
}

static void test_levels(void)
{
    /* Level k: ceil(size / 2^k), down to about 256 pixels on the longer side. */
    swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
    swx_map *m = open_map(&o);
    CU_ASSERT_EQUAL(swx_map_level_count(m), 3);
    int w = -1, h = -1;
    swx_map_level_size(&w, &h, m, 0);
    CU_ASSERT(w == 1440 && h == 720);
    swx_map_level_size(&w, &h, m, 1);
    CU_ASSERT(w == 720 && h == 360);
    swx_map_level_size(&w, &h, m, 2);
    CU_ASSERT(w == 360 && h == 180);
    swx_map_level_size(&w, &h, m, 3);
    CU_ASSERT(w == 0 && h == 0);
    w = h = -1;
    swx_map_level_size(&w, &h, m, -1);
    CU_ASSERT(w == 0 && h == 0);
    swx_map_free(m);

    /* Odd sizes round up. */
    o.width = 1001;
    o.height = 301;
    m = open_map(&o);
    CU_ASSERT_EQUAL(swx_map_level_count(m), 2);
    swx_map_level_size(&w, &h, m, 1);
    CU_ASSERT(w == 501 && h == 151);
    swx_map_free(m);

    /* A level is kept while its longer side is at least 256. */
    o.width = 512;
    o.height = 10;
    m = open_map(&o);
    CU_ASSERT_EQUAL(swx_map_level_count(m), 2);
    swx_map_level_size(&w, &h, m, 1);
    CU_ASSERT(w == 256 && h == 5);
    swx_map_free(m);
    o.width = 510;
    m = open_map(&o);
    CU_ASSERT_EQUAL(swx_map_level_count(m), 1);
    swx_map_free(m);

    /* Small rasters have level 0 only; the largest have one level per halving. */
    o = opts_layer("europe");
    m = open_map(&o);
    CU_ASSERT_EQUAL(swx_map_level_count(m), 1);
    swx_map_free(m);
    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.width = SWX_MAP_MAX_SIDE;
    m = open_map(&o);
    CU_ASSERT_EQUAL(swx_map_level_count(m), 13); /* 2^20 down to 2^8 */
    swx_map_level_size(&w, &h, m, 12);
    CU_ASSERT(w == 256 && h == 128);
    swx_map_free(m);
}

static void test_extent(void)
{
    /* No geographic extent: the EPSG:4326 BoundingBox, latitude first in 1.3.0. */
    swx_map_opts o = opts_layer("boxed");
    swx_map *m = open_map(&o);
    assert_size(m, 960, 480);
    assert_gt(m, -120, 0.25, 60, -0.25);
    swx_map_free(m);

    /* EPSG:3857 takes the layer's own BoundingBox in that CRS. */
    o = opts_layer("merc_box");
    o.crs = "EPSG:3857";
    o.width = 400;
    m = open_map(&o);
    assert_size(m, 400, 700);
    assert_gt(m, -1000000, 10000, 11000000, -10000);
    swx_map_free(m);

    /* WMS 1.1.1: LatLonBoundingBox. */
    o = opts_layer("sof-d/20241001/00/t2m:K");
    m = open_ok("caps/wms111.xml", &o);
    assert_size(m, 1440, 684);
    assert_gt(m, -180, 0.25, 85.5, -0.25);
    CU_ASSERT_STRING_EQUAL(swx_map_crs(m), "EPSG:4326");
    swx_map_free(m);
}

/* ---- blocks ---- */

static void getmap_of(const swx_map *m, int level, int bx, int by, swx_getmap *g)
{
    int rc = swx_map_block_getmap(g, m, level, bx, by);
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
}

static void assert_bbox(const swx_getmap *g, double minx, double miny, double maxx, double maxy)
{
    CU_ASSERT_DOUBLE_EQUAL(g->minx, minx, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(g->miny, miny, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(g->maxx, maxx, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(g->maxy, maxy, 1e-9);
}

static void test_block_getmap(void)
{
    swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
    o.style = "t2m:K/contour";
    o.time = "2024-10-01T03:00:00Z";
    swx_map *m = open_map(&o);
    swx_getmap g;
    getmap_of(m, 0, 0, 0, &g);
    CU_ASSERT_STRING_EQUAL(g.bundle, "basic");
    CU_ASSERT_STRING_EQUAL(g.layer, "sof-d/20241001/00/t2m:K");
    CU_ASSERT_STRING_EQUAL(g.style, "t2m:K/contour");
    CU_ASSERT_STRING_EQUAL(g.time, "2024-10-01T03:00:00Z");
    CU_ASSERT_STRING_EQUAL(g.crs, "EPSG:4326");
    CU_ASSERT_EQUAL(g.transparent, 1);
    CU_ASSERT(g.width == 256 && g.height == 256);
    assert_bbox(&g, -180, 26, -116, 90);

    /* Edge blocks at their true size: 1440 = 5 x 256 + 160, 720 = 2 x 256 + 208. */
    getmap_of(m, 0, 5, 0, &g);
    CU_ASSERT(g.width == 160 && g.height == 256);
    assert_bbox(&g, 140, 26, 180, 90);
    CU_ASSERT_EQUAL(g.maxx, 180); /* the edge is the extent's, exactly */
    getmap_of(m, 0, 0, 2, &g);
    CU_ASSERT(g.width == 256 && g.height == 208);
    assert_bbox(&g, -180, -90, -116, -38);
    CU_ASSERT_EQUAL(g.miny, -90);
    getmap_of(m, 0, 5, 2, &g);
    CU_ASSERT(g.width == 160 && g.height == 208);
    assert_bbox(&g, 140, -90, 180, -38);

    /* Blocks tile the level: widths add up and neighbours share edges. */
    int sum = 0;
    double prev = -180;
    for (int bx = 0; bx < 6; bx++) {
        getmap_of(m, 0, bx, 1, &g);
        CU_ASSERT_DOUBLE_EQUAL(g.minx, prev, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL((g.maxx - g.minx) / g.width, 0.25, 1e-12);
        prev = g.maxx;
        sum += g.width;
    }
    CU_ASSERT_EQUAL(sum, 1440);

    /* An overview level: 720 x 360 at 0.5 degree. */
    getmap_of(m, 1, 2, 1, &g);
    CU_ASSERT(g.width == 208 && g.height == 104);
    assert_bbox(&g, 76, -90, 180, -38);

    /* Outside the grid. */
    CU_ASSERT_EQUAL(swx_map_block_getmap(&g, m, 0, 6, 0), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "block 6,0 is outside level 0"));
    CU_ASSERT_EQUAL(swx_map_block_getmap(&g, m, 0, 0, 3), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_map_block_getmap(&g, m, 0, -1, 0), SWX_EINVAL);
    /* Indexes whose pixel offset overflows an int (it once wrapped to block 0). */
    CU_ASSERT_EQUAL(swx_map_block_getmap(&g, m, 0, 16777216, 0), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_map_block_getmap(&g, m, 0, 0, 16777216), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_map_block_getmap(&g, m, 1, 3, 0), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_map_block_getmap(&g, m, 3, 0, 0), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "no overview level 3"));
    CU_ASSERT_EQUAL(swx_map_block_getmap(&g, m, -1, 0, 0), SWX_EINVAL);
    swx_map_free(m);

    /* 512-pixel blocks. */
    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.block_size = 512;
    m = open_map(&o);
    CU_ASSERT_EQUAL(swx_map_block_size(m), 512);
    getmap_of(m, 0, 2, 1, &g);
    CU_ASSERT(g.width == 416 && g.height == 208);
    assert_bbox(&g, 76, -90, 180, -38);
    swx_map_free(m);
}

/* The bbox= parameter of the GetMap of a block, as sent. */
static void block_bbox_param(const swx_map *m, int bx, int by, char *out, size_t size)
{
    swx_getmap g;
    getmap_of(m, 0, bx, by, &g);
    swx_request req;
    swx_query *q = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_wms_getmap_request(&req, &q, &g), 0);
    swx_client_opts co = {0};
    co.base_url = "http://127.0.0.1:9";
    swx_client *c = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &co), 0);
    char *u = swx_request_display_url(c, &req);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    const char *b = strstr(u, "bbox=");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    snprintf(out, size, "%.*s", (int)strcspn(b, "&"), b);
    free(u);
    swx_client_free(c);
    swx_query_free(q);
}

static void test_block_axis_order(void)
{
    char bbox[128];
    /* EPSG:4326 in WMS 1.3.0: latitude first. */
    swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
    swx_map *m = open_map(&o);
    block_bbox_param(m, 0, 0, bbox, sizeof bbox);
    CU_ASSERT_STRING_EQUAL(bbox, "bbox=26,-180,90,-116");
    block_bbox_param(m, 5, 2, bbox, sizeof bbox);
    CU_ASSERT_STRING_EQUAL(bbox, "bbox=-90,140,-38,180");
    swx_map_free(m);

    /* CRS:84: longitude first. */
    o = opts_layer("europe");
    m = open_map(&o);
    CU_ASSERT_STRING_EQUAL(swx_map_crs(m), "CRS:84");
    block_bbox_param(m, 0, 0, bbox, sizeof bbox);
    CU_ASSERT_STRING_EQUAL(bbox, "bbox=-10,35,30,70");
    swx_map_free(m);

    /* EPSG:3857: easting first. */
    o = opts_layer("merc_box");
    o.crs = "EPSG:3857";
    o.width = 400;
    m = open_map(&o);
    block_bbox_param(m, 1, 2, bbox, sizeof bbox);
    CU_ASSERT_STRING_EQUAL(bbox, "bbox=1560000,4000000,3000000,5880000");
    swx_map_free(m);
}

/* ---- what the user asked for, resolved ---- */

static void test_open_checks(void)
{
    swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
    o.bundle = "weather";
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "unknown bundle 'weather'",
               "valid bundles are basic", NULL);
    o.bundle = NULL;
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "unknown bundle", NULL);
    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.block_size = 384;
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "block size 384 is not 256 or 512", NULL);
    o.block_size = 512;
    open_fails("wms_map/small_max.xml", &o, SWX_EINVAL,
               "block size 512 is over the service's limit of 400 x 300", NULL);
    o.block_size = 256;
    swx_map *m = open_ok("wms_map/small_max.xml", &o);
    swx_map_free(m);
}

static void test_resolve_layer(void)
{
    swx_map_opts o = opts_layer("sof-d/20241001/09/t2m:K");
    open_fails("wms_map/map.xml", &o, SWX_ENOTFOUND, "'sof-d/20241001/09/t2m:K'", "bundle basic",
               "t2m, tcc, europe, google, boxed, merc_box, world_mercator", NULL);

    o = opts_layer(NULL);
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "name a layer", "or a variable",
               "of bundle basic", NULL);
    o = opts_layer("");
    o.variable = "";
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "bundle basic", NULL);

    /* A variable alone: the newest complete run. */
    o = opts_layer(NULL);
    o.variable = "t2m:K";
    swx_map *m = open_map(&o);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(swx_map_layer(m)), "sof-d/20241001/06/t2m:K");
    swx_map_free(m);
    o.run = "latest";
    m = open_map(&o);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(swx_map_layer(m)), "sof-d/20241001/06/t2m:K");
    swx_map_free(m);
    o.run = "LATEST";
    m = open_map(&o);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(swx_map_layer(m)), "sof-d/20241001/06/t2m:K");
    swx_map_free(m);
    o.variable = "tcc";
    o.run = NULL;
    m = open_map(&o);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(swx_map_layer(m)), "sof-d/20241001/06/tcc:%");
    swx_map_free(m);

    /* A run, as YYYYMMDDHH or as an ISO 8601 instant in any of its forms. */
    const char *runs00[] = {"2024100100", "2024-10-01T00:00:00Z", "2024-10-01T00:00Z",
                            "2024-10-01T00:00:00+00:00", "2024-10-01"};
    o.variable = "t2m:K";
    for (size_t i = 0; i < sizeof runs00 / sizeof runs00[0]; i++) {
        o.run = runs00[i];
        m = open_map(&o);
        CU_ASSERT_STRING_EQUAL(swx_layer_name(swx_map_layer(m)), "sof-d/20241001/00/t2m:K");
        swx_map_free(m);
    }
    o.run = "2024-10-01T08:00:00+02:00";
    m = open_map(&o);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(swx_map_layer(m)), "sof-d/20241001/06/t2m:K");
    swx_map_free(m);

    /* Errors name the runs and the variables there are. */
    o.run = "2024100112";
    open_fails("wms_map/map.xml", &o, SWX_ENOTFOUND, "no run 2024100112 of t2m:K in bundle basic",
               "2024-10-01T06, 2024-10-01T00", NULL);
    o.run = "yesterday";
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "run 'yesterday'", "latest", "YYYYMMDDHH", NULL);
    o.run = NULL;
    o.variable = "snow";
    open_fails("wms_map/map.xml", &o, SWX_ENOTFOUND, "'snow'", "bundle basic", "t2m, tcc, europe",
               NULL);
    o.variable = "t2m:F";
    open_fails("wms_map/map.xml", &o, SWX_ENOTFOUND, "'t2m:F'", "t2m", NULL);
}

static void test_resolve_time(void)
{
    swx_map_opts o = opts_layer("sof-d/20241001/06/t2m:K");
    swx_map *m = open_map(&o);
    CU_ASSERT_EQUAL(swx_map_time(m), cu_time("2024-10-01T09:00:00Z")); /* the dimension's default */
    swx_getmap g;
    getmap_of(m, 0, 0, 0, &g);
    CU_ASSERT_STRING_EQUAL(g.time, "2024-10-01T09:00:00Z");
    swx_map_free(m);

    o.time = "2024-10-01T12:00:00+00:00";
    m = open_map(&o);
    CU_ASSERT_EQUAL(swx_map_time(m), cu_time("2024-10-01T12:00:00Z"));
    getmap_of(m, 0, 0, 0, &g);
    CU_ASSERT_STRING_EQUAL(g.time, "2024-10-01T12:00:00Z"); /* always written with Z */
    swx_map_free(m);

    o.time = "2024-10-01T10:00:00Z";
    open_fails("wms_map/map.xml", &o, SWX_ENOTFOUND,
               "time 2024-10-01T10:00:00Z is not a valid time of layer sof-d/20241001/06/t2m:K",
               "nearest: ", "2024-10-01T09:00:00Z", "3 valid times",
               "from 2024-10-01T06:00:00Z to 2024-10-01T12:00:00Z", NULL);
    o.time = "noon";
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "noon", NULL);

    /* A layer without a time dimension. */
    o = opts_layer("sof-d/20241001/06/tcc:%");
    m = open_map(&o);
    CU_ASSERT_EQUAL(swx_map_time(m), INT64_MIN);
    getmap_of(m, 0, 0, 0, &g);
    CU_ASSERT_PTR_NULL(g.time);
    swx_map_free(m);
    o.time = "2024-10-01T06:00:00Z";
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "sof-d/20241001/06/tcc:%",
               "has no time dimension", NULL);
}

static void test_resolve_style(void)
{
    swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
    swx_map *m = open_map(&o);
    CU_ASSERT_STRING_EQUAL(swx_map_style(m), "t2m:K/nearest"); /* the first */
    swx_map_free(m);
    o.style = "t2m:K/contour";
    m = open_map(&o);
    CU_ASSERT_STRING_EQUAL(swx_map_style(m), "t2m:K/contour");
    swx_map_free(m);
    o.style = "t2m:K/Contour";
    open_fails("wms_map/map.xml", &o, SWX_ENOTFOUND, "'t2m:K/Contour'", "sof-d/20241001/00/t2m:K",
               "t2m:K/nearest, t2m:K/contour", NULL);

    o = opts_layer("sof-d/20241001/06/tcc:%");
    m = open_map(&o);
    CU_ASSERT_STRING_EQUAL(swx_map_style(m), "");
    swx_getmap g;
    getmap_of(m, 0, 0, 0, &g);
    CU_ASSERT_STRING_EQUAL(g.style, "");
    swx_map_free(m);
    o.style = "default";
    open_fails("wms_map/map.xml", &o, SWX_ENOTFOUND, "'default'", "(none)", NULL);
}

static void test_resolve_crs(void)
{
    /* Spellings of the two supported CRSs. */
    const char *geo[] = {"EPSG:4326", "epsg:4326", "4326", "CRS:84", "OGC:CRS84"};
    for (size_t i = 0; i < sizeof geo / sizeof geo[0]; i++) {
        swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
        o.crs = geo[i];
        swx_map *m = open_map(&o);
        CU_ASSERT_EQUAL(swx_map_epsg(m), 4326);
        CU_ASSERT_STRING_EQUAL(swx_map_crs(m), "EPSG:4326"); /* as advertised */
        swx_map_free(m);
    }
    const char *merc[] = {"EPSG:3857", "3857", "EPSG:900913"};
    for (size_t i = 0; i < sizeof merc / sizeof merc[0]; i++) {
        swx_map_opts o = opts_layer("sof-d/20241001/00/t2m:K");
        o.crs = merc[i];
        o.res = 0;
        swx_map *m = open_map(&o);
        CU_ASSERT_EQUAL(swx_map_epsg(m), 3857);
        CU_ASSERT_STRING_EQUAL(swx_map_crs(m), "EPSG:3857");
        swx_map_free(m);
    }
    /* A layer that offers CRS:84 only is asked for in CRS:84. */
    swx_map_opts o = opts_layer("europe");
    o.crs = "EPSG:4326";
    swx_map *m = open_map(&o);
    CU_ASSERT_EQUAL(swx_map_epsg(m), 4326);
    CU_ASSERT_STRING_EQUAL(swx_map_crs(m), "CRS:84");
    swx_map_free(m);

    o.crs = "EPSG:3857";
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "layer europe does not advertise EPSG:3857",
               "it offers CRS:84", NULL);
    o = opts_layer("merc_box");
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "does not advertise EPSG:4326",
               "it offers EPSG:3857", NULL);
    o = opts_layer("sof-d/20241001/00/t2m:K");
    o.crs = "EPSG:3395";
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "'EPSG:3395' is not supported",
               "EPSG:4326 or EPSG:3857", NULL);
    o = opts_layer("world_mercator");
    open_fails("wms_map/map.xml", &o, SWX_EINVAL, "does not advertise EPSG:4326",
               "it offers EPSG:3395", NULL);
}

/* ---- reading blocks from seawx-sim ---- */

typedef struct got {
    int n;
    int w[8], h[8], bx[8], by[8];
    uint64_t sum; /* of every pixel byte, to compare two reads */
    int stop_rc;  /* returned from the callback when set */
} got;

static int on_block(void *ud, int level, int bx, int by, const uint8_t *rgba, int w, int h)
{
    got *g = ud;
    (void)level;
    if (g->n < 8) {
        g->w[g->n] = w;
        g->h[g->n] = h;
        g->bx[g->n] = bx;
        g->by[g->n] = by;
    }
    g->n++;
    for (size_t i = 0; i < (size_t)w * h * 4; i++)
        g->sum += rgba[i];
    return g->stop_rc;
}

static swx_client *sim_client(void)
{
    return cu_client(sim.base_url, KEY, NULL);
}

/* A map of the sim's t2m:K at 600 x 300: level 0 is 3 x 2 blocks, the last
 * column 88 wide and the last row 44 high; level 1 is 300 x 150. */
static swx_map *sim_map(swx_client *c, const char *bundle, swx_diskcache *cache)
{
    swx_caps *caps = NULL;
    int rc = swx_wms_get_caps(&caps, c, "basic");
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    swx_map_opts o = {0};
    o.bundle = bundle;
    o.variable = "t2m:K";
    o.width = 600;
    o.cache = cache;
    swx_map *m = NULL;
    rc = swx_map_open(&m, caps, &o);
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return m;
}

static void test_read_blocks(void)
{
    swx_client *c = sim_client();
    swx_map *m = sim_map(c, "basic", NULL);
    const int bxy[] = {0, 1, 2, 1};
    got g = {0};
    swx_fetch_stats st = {0};
    int rc = swx_map_read_blocks(&st, m, c, 0, bxy, 2, 2, NULL, on_block, &g);
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(g.n, 2);
    for (int i = 0; i < 2; i++) {
        /* Each block at its true size, whichever arrived first. */
        CU_ASSERT_EQUAL(g.by[i], 1);
        CU_ASSERT_EQUAL(g.w[i], g.bx[i] == 0 ? 256 : 88);
        CU_ASSERT_EQUAL(g.h[i], 44);
    }
    CU_ASSERT(g.bx[0] + g.bx[1] == 2);
    CU_ASSERT_EQUAL(st.requests, 2);
    CU_ASSERT_EQUAL(st.completed, 2);
    CU_ASSERT(g.sum > 0);

    /* An overview level: 300 x 150, its second block 44 wide. */
    CU_ASSERT_EQUAL(swx_map_level_count(m), 2);
    got g1 = {0};
    const int one[] = {1, 0};
    CU_ASSERT_EQUAL(swx_map_read_blocks(NULL, m, c, 1, one, 1, 0, NULL, on_block, &g1), 0);
    CU_ASSERT_EQUAL(g1.n, 1);
    CU_ASSERT(g1.w[0] == 44 && g1.h[0] == 150);

    /* A block outside the level stops the read before anything is sent. */
    const int outside[] = {3, 0};
    got g2 = {0};
    st = (swx_fetch_stats){0};
    CU_ASSERT_EQUAL(swx_map_read_blocks(&st, m, c, 0, outside, 1, 0, NULL, on_block, &g2),
                    SWX_EINVAL);
    CU_ASSERT_EQUAL(g2.n, 0);
    CU_ASSERT_EQUAL(st.requests, 0);

    /* No blocks: nothing to do. */
    CU_ASSERT_EQUAL(swx_map_read_blocks(NULL, m, c, 0, bxy, 0, 0, NULL, on_block, &g2), 0);
    CU_ASSERT_EQUAL(g2.n, 0);
    swx_map_free(m);
    swx_client_free(c);
}

static void test_read_blocks_stop(void)
{
    swx_client *c = sim_client();
    swx_map *m = sim_map(c, "basic", NULL);
    const int bxy[] = {0, 0, 1, 0};

    /* The callback stops the read with its own code. */
    got g = {0};
    g.stop_rc = -42;
    CU_ASSERT_EQUAL(swx_map_read_blocks(NULL, m, c, 0, bxy, 2, 1, NULL, on_block, &g), -42);
    CU_ASSERT_EQUAL(g.n, 1);

    /* Cancelled. */
    volatile sig_atomic_t cancel = 1;
    got g2 = {0};
    CU_ASSERT_EQUAL(swx_map_read_blocks(NULL, m, c, 0, bxy, 2, 2, &cancel, on_block, &g2),
                    SWX_ECANCEL);
    CU_ASSERT_EQUAL(g2.n, 0);
    swx_map_free(m);

    /* A block the service refuses: its message is the error line, without the key. */
    m = sim_map(c, "thunderstorm", NULL);
    got g3 = {0};
    CU_ASSERT_EQUAL(swx_map_read_blocks(NULL, m, c, 0, bxy, 2, 2, NULL, on_block, &g3),
                    SWX_EFORBIDDEN);
    CU_ASSERT_EQUAL(g3.n, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "403"));
    CU_ASSERT_PTR_NULL(strstr(swx_error_last(), KEY));
    swx_map_free(m);
    swx_client_free(c);
}

static void test_read_blocks_cache(void)
{
    char dir[] = "/tmp/seawx-test-map-cache-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    swx_client *c = sim_client();
    const int bxy[] = {0, 0, 1, 0};
    swx_diskcache *cache = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_diskcache_open(&cache, dir, 0), 0);

    swx_map *m = sim_map(c, "basic", cache);
    got first = {0};
    swx_fetch_stats st = {0};
    CU_ASSERT_EQUAL(swx_map_read_blocks(&st, m, c, 0, bxy, 2, 2, NULL, on_block, &first), 0);
    CU_ASSERT_EQUAL(first.n, 2);
    CU_ASSERT_EQUAL(st.requests, 2);
    swx_map_free(m);

    /* A second map of the same layer reads both blocks from the cache. */
    m = sim_map(c, "basic", cache);
    got again = {0};
    st = (swx_fetch_stats){0};
    CU_ASSERT_EQUAL(swx_map_read_blocks(&st, m, c, 0, bxy, 2, 2, NULL, on_block, &again), 0);
    CU_ASSERT_EQUAL(again.n, 2);
    CU_ASSERT_EQUAL(st.requests, 0);
    CU_ASSERT_EQUAL(again.sum, first.sum);

    /* The callback's stop is honoured for cached blocks too. */
    got stop = {0};
    stop.stop_rc = -7;
    CU_ASSERT_EQUAL(swx_map_read_blocks(NULL, m, c, 0, bxy, 2, 2, NULL, on_block, &stop), -7);
    CU_ASSERT_EQUAL(stop.n, 1);
    swx_map_free(m);

    /* Damaged entries (cut short by a full disk or a crash, or overwritten
     * with junk) are never served: each is fetched again and replaced. */
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "n=0; for f in $(find '%s' -name '*.swx' | sort); do n=$((n + 1)); "
             "if [ $n -eq 1 ]; then truncate -s -200 \"$f\"; "
             "else dd if=/dev/urandom of=\"$f\" bs=1 count=64 seek=200 conv=notrunc "
             "2>/dev/null; fi; done; test $n -eq 2",
             dir);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    m = sim_map(c, "basic", cache);
    got repaired = {0};
    st = (swx_fetch_stats){0};
    CU_ASSERT_EQUAL(swx_map_read_blocks(&st, m, c, 0, bxy, 2, 2, NULL, on_block, &repaired), 0);
    CU_ASSERT_EQUAL(repaired.n, 2);
    CU_ASSERT_EQUAL(st.requests, 2);
    CU_ASSERT_EQUAL(repaired.sum, first.sum);
    swx_map_free(m);
    m = sim_map(c, "basic", cache);
    got after = {0};
    st = (swx_fetch_stats){0};
    CU_ASSERT_EQUAL(swx_map_read_blocks(&st, m, c, 0, bxy, 2, 2, NULL, on_block, &after), 0);
    CU_ASSERT_EQUAL(st.requests, 0);
    CU_ASSERT_EQUAL(after.sum, first.sum);
    swx_map_free(m);
    swx_diskcache_free(cache);
    swx_client_free(c);

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

/* ---- reading a window in strips ---- */

/* A server on loopback that answers every request with 200, image/png and
 * bytes that are no PNG; one thread, until the test closes its socket. */
typedef struct junk_server {
    int fd, port;
    pthread_t th;
} junk_server;

static void *junk_serve(void *arg)
{
    junk_server *js = arg;
    static const char reply[] = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n"
                                "Content-Length: 16\r\nConnection: close\r\n\r\n"
                                "not a png image!";
    for (;;) {
        int cfd = accept(js->fd, NULL, NULL);
        if (cfd < 0)
            return NULL;
        char req[4096];
        size_t have = 0;
        ssize_t k;
        /* The request's head, then the answer. */
        while (have < sizeof req - 1 && (k = read(cfd, req + have, sizeof req - 1 - have)) > 0) {
            have += (size_t)k;
            req[have] = '\0';
            if (strstr(req, "\r\n\r\n"))
                break;
        }
        if (write(cfd, reply, sizeof reply - 1) < 0) {
            /* the client went away: nothing to do */
        }
        close(cfd);
    }
}

static int junk_start(junk_server *js)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    js->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (js->fd < 0 || bind(js->fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        listen(js->fd, 64) != 0 || getsockname(js->fd, (struct sockaddr *)&a, &len) != 0)
        return -1;
    js->port = ntohs(a.sin_port);
    return pthread_create(&js->th, NULL, junk_serve, js) == 0 ? 0 : -1;
}

static void junk_stop(junk_server *js)
{
    shutdown(js->fd, SHUT_RDWR);
    close(js->fd);
    pthread_join(js->th, NULL);
}

/* The sim's 600 x 300 level 0 read whole as one GetMap and as strips (each
 * decoded beside the fetch, into its place): the same pixels, one GetMap per
 * strip; again through the disk cache without a GetMap; cancelled; and with
 * answers that are no PNG, one line naming where they came from. */
static void test_read_window(void)
{
    swx_client *c = sim_client();
    swx_map *m = sim_map(c, "basic", NULL);
    const size_t n = (size_t)600 * 300 * 4;
    uint8_t *whole = malloc(n), *strips = malloc(n), *cached = malloc(n);
    CU_ASSERT_FATAL(whole && strips && cached);
    memset(strips, 0x5a, n);
    swx_fetch_stats st = {0};
    CU_ASSERT_EQUAL_FATAL(
        swx_map_read_window(&st, m, c, 0, 0, 0, 600, 300, 600, 300, 1, 8, NULL, whole), 0);
    CU_ASSERT_EQUAL(st.requests, 1);
    st = (swx_fetch_stats){0};
    int rc = swx_map_read_window(&st, m, c, 0, 0, 0, 600, 300, 600, 300, 6, 8, NULL, strips);
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL(st.requests, 6);
    CU_ASSERT_EQUAL(memcmp(whole, strips, n), 0);
    swx_map_free(m);

    char dir[] = "/tmp/seawx-test-window-cache-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    swx_diskcache *cache = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_diskcache_open(&cache, dir, 0), 0);
    m = sim_map(c, "basic", cache);
    st = (swx_fetch_stats){0};
    CU_ASSERT_EQUAL(swx_map_read_window(&st, m, c, 0, 0, 0, 600, 300, 600, 300, 6, 8, NULL, cached),
                    0);
    CU_ASSERT_EQUAL(st.requests, 6);
    memset(cached, 0, n);
    st = (swx_fetch_stats){0};
    CU_ASSERT_EQUAL(swx_map_read_window(&st, m, c, 0, 0, 0, 600, 300, 600, 300, 6, 8, NULL, cached),
                    0);
    CU_ASSERT_EQUAL(st.requests, 0);
    CU_ASSERT_EQUAL(memcmp(whole, cached, n), 0);
    swx_map_free(m);
    swx_diskcache_free(cache);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);

    m = sim_map(c, "basic", NULL);
    volatile sig_atomic_t cancel = 1;
    CU_ASSERT_EQUAL(
        swx_map_read_window(NULL, m, c, 0, 0, 0, 600, 300, 600, 300, 6, 8, &cancel, strips),
        SWX_ECANCEL);

    junk_server js;
    CU_ASSERT_EQUAL_FATAL(junk_start(&js), 0);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", js.port);
    swx_client *junk = cu_client(url, KEY, NULL);
    for (int pieces = 1; pieces <= 6; pieces += 5) {
        rc = swx_map_read_window(NULL, m, junk, 0, 0, 0, 600, 300, 600, 300, pieces, 8, NULL,
                                 strips);
        CU_ASSERT_EQUAL(rc, SWX_EPARSE);
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "bad image from http://127.0.0.1:"));
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "not a PNG image"));
        CU_ASSERT_PTR_NULL(strstr(swx_error_last(), KEY));
    }
    swx_client_free(junk);
    junk_stop(&js);
    swx_map_free(m);
    swx_client_free(c);
    free(whole);
    free(strips);
    free(cached);
}

int main(void)
{
    const char *args[] = {"--key",        KEY, "--now", "2024-10-01T12:00:00Z", "--deny-bundle",
                          "thunderstorm", NULL};
    if (cu_sim_start(&sim, args))
        return 1;
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("wms_map", NULL, NULL);
    CU_add_test(s, "default grid in EPSG:4326: 46080 x 23040", test_default_grid_4326);
    CU_add_test(s, "default grid in EPSG:3857: 46080 x 46080", test_default_grid_3857);
    CU_add_test(s, "width or height keeps square pixels", test_size_from_width_or_height);
    CU_add_test(s, "size from a resolution", test_size_from_res);
    CU_add_test(s, "size limits", test_size_limits);
    CU_add_test(s, "overview levels", test_levels);
    CU_add_test(s, "extent from the capabilities", test_extent);
    CU_add_test(s, "block GetMaps: edges at their true size", test_block_getmap);
    CU_add_test(s, "block GetMaps: axis order", test_block_axis_order);
    CU_add_test(s, "bundle and block size checks", test_open_checks);
    CU_add_test(s, "layer, variable and run", test_resolve_layer);
    CU_add_test(s, "time", test_resolve_time);
    CU_add_test(s, "style", test_resolve_style);
    CU_add_test(s, "CRS", test_resolve_crs);
    CU_add_test(s, "read blocks from the service", test_read_blocks);
    CU_add_test(s, "read blocks: stop, cancel, refusal", test_read_blocks_stop);
    CU_add_test(s, "read blocks through the disk cache", test_read_blocks_cache);
    CU_add_test(s, "read a window in strips", test_read_window);
    int rc = cu_run();
    cu_sim_stop(&sim);
    return rc;
}

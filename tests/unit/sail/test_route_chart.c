/* test_route_chart.c: the router's chart (lib/sail/route_chart.c,
 * lib/chart/chart_route.c) and the storm's area it draws
 * (swx_routing_storms_shape in lib/sail/route_storms.c).
 *
 * - The storm's area at a moment: a storm moving north along a meridian
 *   (its centre at a moment between two fixes is then exactly the linear
 *   latitude), its 34 kt radii linear in time, its 1-2-3 danger radius once
 *   forecast (the default errors: 100 nm at 24 h, plus the largest radius);
 *   an unknown storm and a moment past the forecast give nothing.
 * - The chart, drawn from a route made here that crosses 180 near Fiji,
 *   an island square astride 180, isochrones and a storm: read back with
 *   libpng, the projection from its tEXt chunk; the start, the end, the
 *   island, the storm's 34 kt area and a leg have their colours at the
 *   pixels this test places; the map is continuous across 180.
 * - Refusals: no route, bad sizes.
 * SEAWX_KEEP_TEST_DIR=1 keeps the chart as /tmp/seawx-test-route-chart.png. */
#include "cu_support.h"

#include "route_chart.h"
#include "seawx/error.h"
#include "seawx/route_chart.h"
#include "seawx/route_storms.h"
#include "seawx/storm.h"

#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T0 1728345600LL /* 2024-10-08T00:00:00Z: the last observed fix */
#define R_NM (6371008.8 / 1852.0)

/* The chart's colours, written here again so that the test checks the
 * drawing rather than copying it. */
#define START 0x2e7d32u
#define END 0x111111u
#define LAND 0xe3d6b4u
#define SEA 0xeef4f9u
#define STORM 0xc2185bu
#define BIN_10_15 0x43a047u
#define BIN_15_20 0xfdd835u

static const char *STORM_JSON =
    "[{\"atcf_id\":\"WP992024\",\"storm_name\":\"MOVER\",\"basin\":\"WP\",\"season\":2024,"
    "\"observed_track\":["
    "{\"lat\":10,\"lon\":-40,\"time\":\"2024-10-08T00:00:00Z\",\"wind_extent_radii\":{\"34kts\":"
    "{\"ne\":100,\"se\":80,\"sw\":60,\"nw\":40}}}],"
    "\"forecast_track\":["
    "{\"lat\":12,\"lon\":-40,\"forecast_time\":\"2024-10-09T00:00:00Z\",\"forecast_hour\":24,"
    "\"wind_extent_radii\":{\"34kts\":{\"ne\":120,\"se\":100,\"sw\":80,\"nw\":60}}}]}]";

static void test_shape(void)
{
    char path[] = "/tmp/seawx-test-chart-storm-XXXXXX";
    swx_storm_list storms = {0};
    swx_routing_storms *nogo = NULL;
    swx_routing_storm_shape sh;
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, STORM_JSON, strlen(STORM_JSON)) == (ssize_t)strlen(STORM_JSON));
    close(fd);
    CU_ASSERT_FATAL(swx_storm_read_file(path, swx_storm_list_add, &storms) == 0);
    unlink(path);
    CU_ASSERT_FATAL(swx_routing_storms_new(&nogo, (const swx_storm *const *)storms.items,
                                           storms.count, NULL, T0, T0 + 48 * 3600, 5) == 0);
    /* 6 h in: a quarter of the way */
    CU_ASSERT_EQUAL(swx_routing_storms_shape(nogo, "WP992024", T0 + 6 * 3600, &sh), 1);
    CU_ASSERT_DOUBLE_EQUAL(sh.lat, 10.5, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(sh.lon, -40, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(sh.r34_nm[0], 105, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(sh.r34_nm[1], 85, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(sh.r34_nm[2], 65, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(sh.r34_nm[3], 45, 1e-6);
    /* track error 100 nm x 6 / 24, plus the largest radius */
    CU_ASSERT_DOUBLE_EQUAL(sh.danger_nm, 25 + 105, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(sh.margin_nm, 5 + SWX_ROUTING_STORM_PAD_NM, 1e-9);
    /* the nearest minute: 6 h and 20 s is 6 h */
    CU_ASSERT_EQUAL(swx_routing_storms_shape(nogo, "WP992024", T0 + 6 * 3600 + 20, &sh), 1);
    CU_ASSERT_DOUBLE_EQUAL(sh.lat, 10.5, 1e-6);
    CU_ASSERT_EQUAL(swx_routing_storms_shape(nogo, "WP992024", T0 + 24 * 3600, &sh), 1);
    CU_ASSERT_DOUBLE_EQUAL(sh.lat, 12, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(sh.danger_nm, 100 + 120, 1e-6);
    CU_ASSERT_EQUAL(swx_routing_storms_shape(nogo, "WP992024", T0 + 30 * 3600, &sh), 0);
    CU_ASSERT_EQUAL(swx_routing_storms_shape(nogo, "AL012024", T0 + 6 * 3600, &sh), 0);
    CU_ASSERT_EQUAL(swx_routing_storms_shape(nogo, NULL, T0, &sh), 0);
    CU_ASSERT_EQUAL(swx_routing_storms_shape(NULL, "WP992024", T0, &sh), 0);
    swx_routing_storms_free(nogo);
    swx_storm_list_clear(&storms);
}

/* ---- the chart ---- */

typedef struct membuf {
    unsigned char *p;
    size_t n, cap;
} membuf;

static int mem_write(void *closure, const unsigned char *data, unsigned len)
{
    membuf *m = closure;
    if (m->n + len > m->cap) {
        size_t cap = (m->n + len) * 2;
        unsigned char *p = realloc(m->p, cap);
        if (!p)
            return -1;
        m->p = p;
        m->cap = cap;
    }
    memcpy(m->p + m->n, data, len);
    m->n += len;
    return 0;
}

typedef struct proj {
    double w, e, s, n, x0, y0, x1, y1;
} proj;

/* The tEXt chunk "seawx:map" of the PNG in m into *pj: 0, or -1. */
static int read_proj(proj *pj, const membuf *m)
{
    size_t pos = 8;
    while (pos + 12 <= m->n) {
        const unsigned char *c = m->p + pos;
        size_t len = (size_t)c[0] << 24 | (size_t)c[1] << 16 | (size_t)c[2] << 8 | c[3];
        if (pos + 12 + len > m->n)
            return -1;
        if (!memcmp(c + 4, "tEXt", 4) && len > 10 && !memcmp(c + 8, "seawx:map", 10)) {
            char text[512];
            if (len - 10 >= sizeof text)
                return -1;
            memcpy(text, c + 18, len - 10);
            text[len - 10] = 0;
            return sscanf(text,
                          "equirectangular west=%lf east=%lf south=%lf north=%lf x0=%lf y0=%lf "
                          "x1=%lf y1=%lf",
                          &pj->w, &pj->e, &pj->s, &pj->n, &pj->x0, &pj->y0, &pj->x1, &pj->y1) == 8
                       ? 0
                       : -1;
        }
        pos += 12 + len;
    }
    return -1;
}

static void to_px(const proj *pj, double lat, double lon, int *x, int *y)
{
    lon = pj->w + fmod(fmod(lon - pj->w, 360) + 360, 360);
    *x = (int)floor(pj->x0 + (lon - pj->w) / (pj->e - pj->w) * (pj->x1 - pj->x0));
    *y = (int)floor(pj->y0 + (pj->n - lat) / (pj->n - pj->s) * (pj->y1 - pj->y0));
}

typedef struct image {
    int w, h;
    unsigned char *px;
} image;

static int decode(image *im, const membuf *m)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&pi, m->p, m->n))
        return -1;
    pi.format = PNG_FORMAT_RGB;
    im->w = (int)pi.width;
    im->h = (int)pi.height;
    im->px = malloc(PNG_IMAGE_SIZE(pi));
    if (!im->px || !png_image_finish_read(&pi, NULL, im->px, 0, NULL)) {
        png_image_free(&pi);
        return -1;
    }
    return 0;
}

/* The share of the 3x3 pixels round (x, y) within tol of colour c. */
static double share(const image *im, int x, int y, unsigned c, int tol)
{
    int hit = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int xx = x + dx, yy = y + dy;
            if (xx < 0 || yy < 0 || xx >= im->w || yy >= im->h)
                continue;
            const unsigned char *p = im->px + 3 * ((size_t)yy * (size_t)im->w + (size_t)xx);
            hit += abs(p[0] - (int)(c >> 16 & 255)) <= tol &&
                   abs(p[1] - (int)(c >> 8 & 255)) <= tol && abs(p[2] - (int)(c & 255)) <= tol;
        }
    return hit / 9.0;
}

/* c at alpha a over under, rounded. */
static unsigned over(unsigned under, unsigned c, double a)
{
    unsigned out = 0;
    for (int sh = 16; sh >= 0; sh -= 8)
        out |= (unsigned)lround((under >> sh & 255) * (1 - a) + (c >> sh & 255) * a) << sh;
    return out;
}

/* A route from 17.0 S 178.5 E to 17.4 S 177.0 W, five legs, winds 8, 12,
 * 17, 17, 22 kn; a square island 17.9 S to 17.7 S, 179.8 E to 180.2 E (its
 * longitudes continuous, as swx_land_ring gives them); a storm centred at
 * 16.0 S 179.0 W; two isochrones given in -180..180. */
static void test_draw_across_180(void)
{
    static const double lat[6] = {-17.0, -17.1, -17.2, -17.3, -17.35, -17.4};
    static const double lon[6] = {178.5, 179.5, -179.6, -178.9, -178.0, -177.0};
    static const double tws[6] = {8, 12, 17, 17, 22, 22};
    swx_routing_point pts[6];
    memset(pts, 0, sizeof pts);
    for (int i = 0; i < 6; i++) {
        pts[i].time = T0 + (int64_t)i * 6 * 3600;
        pts[i].lat = lat[i];
        pts[i].lon = lon[i];
        pts[i].tws_kn = tws[i];
    }
    static const double island[10] = {179.8, -17.9, 180.2, -17.9, 180.2,
                                      -17.7, 179.8, -17.7, 179.8, -17.9};
    swx_route_chart_line ring = {island, 5};
    static const double iso0[6] = {-16.5, 179.0, -17.0, 179.2, -17.5, 179.0};
    static const double iso1[6] = {-16.5, -179.8, -17.0, -179.7, -17.5, -179.8};
    const double *iso[2] = {iso0, iso1};
    size_t iso_n[2] = {3, 3};
    swx_route_chart c = {.pts = pts,
                         .npts = 6,
                         .distance_nm = 300,
                         .hours = 30,
                         .iso = iso,
                         .iso_n = iso_n,
                         .niso = 2,
                         .rings = &ring,
                         .nrings = 1,
                         .has_land = 1,
                         .has_storm = 1};
    c.near.title = "TESTB";
    c.near.time = T0 + 12 * 3600;
    c.near.centre_nm = 70;
    c.near.clear_nm = 10;
    c.storm = (swx_routing_storm_shape){-16.0, -179.0, {40, 40, 40, 40}, 50, 1};
    membuf m = {0};
    const char *why = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_chart_route_draw(&c, SEAWX_VERSION, 900, 700, mem_write, &m, &why),
                          0);
    const char *keep = getenv("SEAWX_KEEP_TEST_DIR");
    if (keep && !strcmp(keep, "1")) { /* to look at it */
        FILE *f = fopen("/tmp/seawx-test-route-chart.png", "wb");
        if (f) {
            fwrite(m.p, 1, m.n, f);
            fclose(f);
            fprintf(stderr, "\nchart kept in /tmp/seawx-test-route-chart.png\n");
        }
    }
    proj pj;
    image im = {0};
    CU_ASSERT_FATAL(read_proj(&pj, &m) == 0);
    CU_ASSERT_FATAL(decode(&im, &m) == 0);
    CU_ASSERT_EQUAL(im.w, 900);
    CU_ASSERT_EQUAL(im.h, 700);
    /* continuous across 180, the route and the storm inside the frame */
    CU_ASSERT_TRUE(pj.w < 178.5 && pj.e > 183.0 && pj.e - pj.w < 30);
    CU_ASSERT_TRUE(pj.s < -17.9 && pj.n > -16.0 + 40 / 60.0);
    double k = cos((pj.n + pj.s) / 2 * M_PI / 180);
    CU_ASSERT_DOUBLE_EQUAL((pj.e - pj.w) * k / (pj.n - pj.s), (pj.x1 - pj.x0) / (pj.y1 - pj.y0),
                           1e-6);
    int x, y;
    to_px(&pj, lat[0], lon[0], &x, &y);
    CU_ASSERT_TRUE(share(&im, x, y, START, 6) >= 0.9);
    to_px(&pj, lat[5], lon[5], &x, &y);
    CU_ASSERT_TRUE(share(&im, x, y, END, 6) >= 0.9);
    to_px(&pj, -17.8, -180.0, &x, &y); /* the island's middle, on 180 */
    CU_ASSERT_TRUE(share(&im, x, y, LAND, 4) >= 0.9);
    to_px(&pj, -17.8, 179.85, &x, &y); /* its west, given east of 180 as the rest */
    CU_ASSERT_TRUE(share(&im, x, y, LAND, 4) >= 0.9);
    /* 20 nm north-east of the storm's centre: both of its fills over the sea */
    double d = 20 / R_NM, b = M_PI / 4, p1 = -16.0 * M_PI / 180;
    double p2 = asin(sin(p1) * cos(d) + cos(p1) * sin(d) * cos(b));
    double l2 = -179.0 + atan2(sin(b) * sin(d) * cos(p1), cos(d) - sin(p1) * sin(p2)) * 180 / M_PI;
    to_px(&pj, p2 * 180 / M_PI, l2, &x, &y);
    CU_ASSERT_TRUE(share(&im, x, y, over(over(SEA, STORM, 0.22), STORM, 0.45), 4) >= 0.6);
    /* the leg across 180 leaves at 12 kn (green), the next at 17 kn (yellow) */
    to_px(&pj, (lat[1] + lat[2]) / 2, (179.5 + 180.4) / 2, &x, &y);
    CU_ASSERT_TRUE(share(&im, x, y, BIN_10_15, 6) >= 0.3);
    to_px(&pj, (lat[2] + lat[3]) / 2, (180.4 + 181.1) / 2, &x, &y);
    CU_ASSERT_TRUE(share(&im, x, y, BIN_15_20, 6) >= 0.3);
    free(im.px);
    free(m.p);
}

static void test_refusals(void)
{
    CU_ASSERT_EQUAL(swx_routing_chart_png(NULL, NULL, NULL, NULL, 0, "/tmp/x.png", 1200, 900),
                    SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "no route"));
    CU_ASSERT_EQUAL(swx_routing_chart_png(NULL, NULL, NULL, NULL, 0, "/tmp/x.png", 100, 900),
                    SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "320 to 8000"));
    CU_ASSERT_EQUAL(swx_routing_chart_png(NULL, NULL, NULL, NULL, 0, "", 1200, 900), SWX_EINVAL);
    membuf m = {0};
    const char *why = NULL;
    swx_route_chart c = {0};
    CU_ASSERT_EQUAL(swx_chart_route_draw(&c, "0.0.0-other", 900, 700, mem_write, &m, &why),
                    SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(why);
    CU_ASSERT_EQUAL(m.n, 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("route_chart", NULL, NULL);
    CU_add_test(s, "a storm's area at a moment", test_shape);
    CU_add_test(s, "the chart across 180, read back", test_draw_across_180);
    CU_add_test(s, "refusals", test_refusals);
    return cu_run();
}

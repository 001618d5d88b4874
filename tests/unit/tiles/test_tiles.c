/* test_tiles.c: tile math and area enumeration (lib/tiles/tile.c, area.c, area_read.c), against
 * independent computations written here differently: closed-form tile ranges
 * for boxes, and for routes a brute force over densely sampled legs and tile
 * edges with the haversine formula. */
#include "cu_support.h"

#include "area.h"
#include "seawx/error.h"
#include "seawx/tiles.h"
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define D2R (M_PI / 180.0)

static void test_math(void)
{
    double w, s, e, n;
    swx_tile_bounds_deg(&w, &s, &e, &n, 0, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(w, -180, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(e, 180, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(n, SWX_MERC_MAX_LAT, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s, -SWX_MERC_MAX_LAT, 1e-9);
    swx_tile_bounds_deg(&w, &s, &e, &n, 1, 1, 0);
    CU_ASSERT(w == 0 && s == 0 && e == 180);
    double x0, y0, x1, y1;
    swx_tile_bounds_merc(&x0, &y0, &x1, &y1, 1, 0, 1);
    CU_ASSERT(x0 == -SWX_MERC_HALF && x1 == 0 && y0 == -SWX_MERC_HALF && y1 == 0);
    swx_tile_bounds_merc(&x0, &y0, &x1, &y1, 3, 5, 2);
    CU_ASSERT_DOUBLE_EQUAL(x0, -SWX_MERC_HALF + 5 * SWX_MERC_HALF / 4, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(y1, SWX_MERC_HALF - 2 * SWX_MERC_HALF / 4, 1e-6);
    /* Mercator y of the latitude of a row edge gives back the row. */
    for (int z = 0; z < 20; z += 3)
        for (double y = 0; y <= (1 << z); y += (1 << z) / 8.0 + 0.5) {
            double fx, fy;
            swx_tile_of_deg(&fx, &fy, z, 12.5, swx_tile_row_lat(z, y));
            CU_ASSERT_DOUBLE_EQUAL(fy, y, 1e-6);
        }
    CU_ASSERT_EQUAL(swx_tile_tms_row(0, 0), 0);
    CU_ASSERT_EQUAL(swx_tile_tms_row(3, 0), 7);
    CU_ASSERT_EQUAL(swx_tile_tms_row(3, 6), 1);
}

/* Independent count of a box's tiles: columns and rows from the fractional tile
 * coordinates of its corners; a box edge on a tile edge does not take the
 * neighbour. */
static uint64_t box_count(int z, double w, double s, double e, double n)
{
    double fx0, fy0, fx1, fy1;
    swx_tile_of_deg(&fx0, &fy0, z, w, n);
    swx_tile_of_deg(&fx1, &fy1, z, e, s);
    uint64_t rows = (uint64_t)(ceil(fy1) - floor(fy0));
    uint64_t cols;
    if (e > w) {
        cols = (uint64_t)(ceil(fx1) - floor(fx0));
    } else {
        double full = ldexp(1, z);
        cols = (uint64_t)(full - floor(fx0)) + (uint64_t)ceil(fx1);
        if (cols > (uint64_t)full)
            cols = (uint64_t)full;
    }
    return rows * cols;
}

/* Everything the iterator yields, checked against has_tile and count. */
static uint64_t iterate(const swx_area *a, int z, int meta, int check_each)
{
    swx_tile_iter *it = NULL;
    CU_ASSERT_FATAL(swx_tile_iter_new(&it, a, z, meta) == 0);
    swx_tile_block b;
    uint64_t total = 0;
    int bad = 0, rc;
    while ((rc = swx_tile_iter_next(&b, it)) == 1) {
        int n = b.n;
        if (n != (meta < (1 << z) ? meta : (1 << z)) || b.x0 % (uint32_t)n || b.y0 % (uint32_t)n)
            bad++;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int in = (b.mask >> (j * n + i)) & 1;
                total += (uint64_t)in;
                if (check_each &&
                    in != swx_area_has_tile(a, z, b.x0 + (uint32_t)i, b.y0 + (uint32_t)j))
                    bad++;
            }
    }
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL(bad, 0);
    swx_tile_iter_free(it);
    uint64_t c = 0;
    CU_ASSERT_EQUAL(swx_area_count(&c, a, z), 0);
    CU_ASSERT_EQUAL(c, total);
    return total;
}

static void test_bbox(void)
{
    const double boxes[][4] = {
        {-10, 40, 5, 55},           {0, 0, 90, 45},         {-180, -85, 180, 85},
        {12.3, -33.3, 12.4, -33.2}, {170, -20, -170, 10}, /* across 180 */
        {179.9, 60, -179.9, 61},    {-179.5, -5, 179.5, 5}, {100, -50, 99, 50},
    };
    for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; i++) {
        const double *b = boxes[i];
        swx_area *a = NULL;
        CU_ASSERT_FATAL(swx_area_from_bbox(&a, b[0], b[1], b[2], b[3]) == 0);
        for (int z = 0; z <= 9; z++) {
            uint64_t want = box_count(z, b[0], b[1], b[2], b[3]);
            uint64_t got = iterate(a, z, 1, z <= 5);
            if (got != want)
                fprintf(stderr, "box %zu zoom %d: %llu tiles, expected %llu\n", i, z,
                        (unsigned long long)got, (unsigned long long)want);
            CU_ASSERT_EQUAL(got, want);
            CU_ASSERT_EQUAL(iterate(a, z, 4, 0), want);
            CU_ASSERT_EQUAL(iterate(a, z, 8, 0), want);
        }
        uint64_t c;
        CU_ASSERT_EQUAL(swx_area_count(&c, a, 16), 0);
        CU_ASSERT_EQUAL(c, box_count(16, b[0], b[1], b[2], b[3]));
        swx_area_free(a);
    }
    /* The edges of a box on tile edges take no neighbour. */
    swx_area *a = NULL;
    CU_ASSERT_FATAL(swx_area_from_bbox(&a, 0, 0, 90, 45) == 0);
    CU_ASSERT_EQUAL(swx_area_has_tile(a, 2, 2, 1), 1);
    CU_ASSERT_EQUAL(swx_area_has_tile(a, 2, 1, 1), 0);
    CU_ASSERT_EQUAL(swx_area_has_tile(a, 2, 2, 2), 0);
    CU_ASSERT_EQUAL(swx_area_has_tile(a, 2, 3, 1), 0);
    double w, s, e, n;
    swx_area_bounds(&w, &s, &e, &n, a);
    CU_ASSERT(w == 0 && s == 0 && e == 90 && n == 45);
    swx_area_free(a);
}

static void test_bbox_text(void)
{
    swx_area *a = NULL;
    CU_ASSERT_EQUAL(swx_area_from_bbox_text(&a, "170,-20,-170,10"), 0);
    swx_area_free(a);
    const char *bad[] = {"",         "1,2,3",      "1,2,3,4,5", "a,b,c,d",
                         "0,10,5,5", "0,-91,5,5",  "0,0,181,5", "5,0,5,10",
                         "1,2,3,4x", "0,86,10,89", NULL};
    for (int i = 0; bad[i]; i++) {
        a = (swx_area *)1;
        CU_ASSERT_EQUAL(swx_area_from_bbox_text(&a, bad[i]), SWX_EINVAL);
        CU_ASSERT_PTR_NULL(a);
    }
}

static swx_area *poly(const char *json)
{
    swx_area *a = NULL;
    int rc = swx_area_from_geojson_polygons(&a, json, strlen(json));
    if (rc)
        fprintf(stderr, "polygon: %s\n", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    return a;
}

/* Two areas that must hold the same tiles at zooms 0 to zmax. */
static void same_tiles(const swx_area *a, const swx_area *b, int zmax)
{
    for (int z = 0; z <= zmax; z++) {
        int bad = 0;
        uint32_t n = 1u << z;
        for (uint32_t y = 0; y < n; y++)
            for (uint32_t x = 0; x < n; x++)
                bad += swx_area_has_tile(a, z, x, y) != swx_area_has_tile(b, z, x, y);
        if (bad)
            fprintf(stderr, "zoom %d: %d tiles differ\n", z, bad);
        CU_ASSERT_EQUAL(bad, 0);
        uint64_t ca, cb;
        swx_area_count(&ca, a, z);
        swx_area_count(&cb, b, z);
        CU_ASSERT_EQUAL(ca, cb);
    }
}

static void test_polygons(void)
{
    swx_area *box = NULL, *p;
    /* A rectangle is its bbox. */
    CU_ASSERT_FATAL(swx_area_from_bbox(&box, -10, 40, 5, 55) == 0);
    p = poly("{\"type\":\"Polygon\",\"coordinates\":[[[-10,40],[5,40],[5,55],[-10,55],[-10,40]]]}");
    CU_ASSERT_FATAL(p != NULL);
    same_tiles(box, p, 7);
    CU_ASSERT_EQUAL(iterate(p, 10, 8, 0), iterate(box, 10, 1, 0));
    swx_area_free(p);
    swx_area_free(box);

    /* Across the antimeridian, written either way, is the crossing bbox. */
    CU_ASSERT_FATAL(swx_area_from_bbox(&box, 170, -20, -170, 10) == 0);
    p = poly("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\","
             "\"coordinates\":[[[170,-20],[-170,-20],[-170,10],[170,10],[170,-20]]]}}");
    CU_ASSERT_FATAL(p != NULL);
    same_tiles(box, p, 7);
    double w, s, e, n;
    swx_area_bounds(&w, &s, &e, &n, p);
    CU_ASSERT(w == 170 && e == -170 && s == -20 && n == 10);
    swx_area_free(p);
    p = poly("{\"type\":\"Polygon\",\"coordinates\":[[[170,-20],[190,-20],[190,10],[170,10]]]}");
    CU_ASSERT_FATAL(p != NULL);
    same_tiles(box, p, 6);
    swx_area_free(p);
    swx_area_free(box);

    /* A hole: tiles wholly inside it are left out, tiles across its edge are kept. */
    p = poly("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":"
             "{\"type\":\"MultiPolygon\",\"coordinates\":[[[[0,0],[90,0],[90,66.5],[0,66.5],[0,0]],"
             "[[10,10],[80,10],[80,60],[10,60],[10,10]]]]}}]}");
    CU_ASSERT_FATAL(p != NULL);
    CU_ASSERT_EQUAL(swx_area_has_tile(p, 4, 9, 6), 0); /* 22.5-45 E, 0-21.9 N: in the hole */
    CU_ASSERT_EQUAL(swx_area_has_tile(p, 4, 8, 7), 1); /* 0-22.5 E, 0-21.9 N: on the rim */
    CU_ASSERT_EQUAL(swx_area_has_tile(p, 4, 12, 6), 0);
    iterate(p, 6, 1, 1);
    iterate(p, 6, 8, 0);
    swx_area_free(p);

    /* A triangle against point sampling of tile interiors. */
    p = poly("{\"type\":\"Polygon\",\"coordinates\":[[[-30,-10],[40,5],[-5,50],[-30,-10]]]}");
    CU_ASSERT_FATAL(p != NULL);
    int z = 5, bad = 0;
    for (uint32_t y = 0; y < 32; y++)
        for (uint32_t x = 0; x < 32; x++) {
            double tw, ts, te, tn;
            swx_tile_bounds_deg(&tw, &ts, &te, &tn, z, x, y);
            int hit = 0;
            for (int j = 1; j < 40 && !hit; j++)
                for (int i = 1; i < 40 && !hit; i++) {
                    double px = tw + (te - tw) * i / 40, py = ts + (tn - ts) * j / 40;
                    /* inside the triangle by the signs of three cross products */
                    double ax = -30, ay = -10, bx = 40, by = 5, cx = -5, cy = 50;
                    double d1 = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
                    double d2 = (cx - bx) * (py - by) - (cy - by) * (px - bx);
                    double d3 = (ax - cx) * (py - cy) - (ay - cy) * (px - cx);
                    hit = (d1 > 0 && d2 > 0 && d3 > 0) || (d1 < 0 && d2 < 0 && d3 < 0);
                }
            /* Sampling can miss a sliver; it can never find a tile the area lacks. */
            if (hit && !swx_area_has_tile(p, z, x, y))
                bad++;
        }
    CU_ASSERT_EQUAL(bad, 0);
    iterate(p, 8, 2, 0);
    swx_area_free(p);

    const char *bad_docs[] = {
        "",
        "{",
        "[]",
        "{\"type\":\"Point\",\"coordinates\":[1,2]}",
        "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,1]]]}",
        "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[10,0],[10,\"x\"],[0,0]]]}",
        "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[10,0],[10,95],[0,0]]]}",
        "{\"type\":\"Polygon\",\"coordinates\":[[[0,80],[120,80],[-120,80],[0,80]]]}", /* round the
                                                                                          pole */
        "{\"type\":\"Polygon\",\"coordinates\":[]} x",
        NULL};
    for (int i = 0; bad_docs[i]; i++) {
        swx_area *q = (swx_area *)1;
        int rc = swx_area_from_geojson_polygons(&q, bad_docs[i], strlen(bad_docs[i]));
        CU_ASSERT(rc < 0);
        CU_ASSERT_PTR_NULL(q);
        CU_ASSERT(strstr(swx_error_last(), "area") != NULL);
    }
}

/* ---- routes against a brute force ---- */

static double hav(double lon1, double lat1, double lon2, double lat2)
{
    double dl = (lon2 - lon1) * D2R, dp = (lat2 - lat1) * D2R;
    double h =
        sin(dp / 2) * sin(dp / 2) + cos(lat1 * D2R) * cos(lat2 * D2R) * sin(dl / 2) * sin(dl / 2);
    return 2 * asin(sqrt(h > 1 ? 1 : h));
}

typedef struct sample {
    double lon, lat;
} sample;

/* Points every step radians along each great-circle leg (slerp). */
static sample *densify(const double *lon, const double *lat, size_t n, double step, size_t *ns)
{
    size_t cap = 1024, k = 0;
    sample *out = malloc(cap * sizeof *out);
    if (n == 1) {
        out[k].lon = lon[0];
        out[k++].lat = lat[0];
    }
    for (size_t i = 0; i + 1 < n; i++) {
        double a[3], b[3];
        a[0] = cos(lat[i] * D2R) * cos(lon[i] * D2R);
        a[1] = cos(lat[i] * D2R) * sin(lon[i] * D2R);
        a[2] = sin(lat[i] * D2R);
        b[0] = cos(lat[i + 1] * D2R) * cos(lon[i + 1] * D2R);
        b[1] = cos(lat[i + 1] * D2R) * sin(lon[i + 1] * D2R);
        b[2] = sin(lat[i + 1] * D2R);
        double len = hav(lon[i], lat[i], lon[i + 1], lat[i + 1]);
        int m = (int)(len / step) + 1;
        for (int j = 0; j <= m; j++) {
            double t = (double)j / m, s0 = sin((1 - t) * len) / sin(len),
                   s1 = sin(t * len) / sin(len);
            double p[3] = {s0 * a[0] + s1 * b[0], s0 * a[1] + s1 * b[1], s0 * a[2] + s1 * b[2]};
            if (k == cap)
                out = realloc(out, (cap *= 2) * sizeof *out);
            out[k].lon = atan2(p[1], p[0]) / D2R;
            out[k].lat = asin(p[2]) / D2R;
            k++;
        }
    }
    *ns = k;
    return out;
}

/* Distance from a point to a tile with the aviation formulary's cross-track
 * distance to the nearest meridian edge (0 when inside). */
static double point_tile(double lon, double lat, double w, double s, double e, double n)
{
    double span = e - w;
    double dl = fmod(lon - w + 720, 360);
    if (dl <= span) {
        if (lat > n)
            return (lat - n) * D2R;
        if (lat < s)
            return (s - lat) * D2R;
        return 0;
    }
    double best = 10;
    double edges[2] = {w, e};
    for (int k = 0; k < 2; k++) {
        double d = fmod(lon - edges[k] + 540, 360) - 180; /* (-180, 180] */
        double c = 10;
        if (fabs(d) < 90) {
            double latc = atan(tan(lat * D2R) / cos(d * D2R)) / D2R;
            if (latc >= s && latc <= n)
                c = asin(fabs(cos(lat * D2R) * sin(d * D2R)));
        }
        double c1 = hav(lon, lat, edges[k], s), c2 = hav(lon, lat, edges[k], n);
        c = c1 < c ? c1 : c;
        c = c2 < c ? c2 : c;
        best = c < best ? c : best;
    }
    return best;
}

static void route_vs_brute(const double *lon, const double *lat, size_t n, double buffer_nm,
                           int zmax)
{
    swx_area *a = NULL;
    CU_ASSERT_FATAL(swx_area_from_waypoints(&a, lon, lat, n, buffer_nm * SWX_NM_M) == 0);
    double d = buffer_nm * SWX_NM_M / SWX_EARTH_RADIUS_M;
    size_t ns;
    sample *sm = densify(lon, lat, n, 0.5 / 6371.0, &ns); /* every 0.5 km */
    /* Sampling errs by a metre or two; tiles within tol of the buffer's edge
     * are not judged. */
    double tol = 30.0 / SWX_EARTH_RADIUS_M;
    for (int z = 0; z <= zmax; z++) {
        uint32_t nt = 1u << z;
        double *best = malloc((size_t)nt * nt * sizeof *best);
        for (size_t i = 0; i < (size_t)nt * nt; i++)
            best[i] = 10;
        /* Each sample updates the tiles of a window around it wide enough to
         * hold every tile within the buffer. */
        for (size_t i = 0; i < ns; i++) {
            double dd = d / D2R + 0.01;
            double la0 = sm[i].lat - dd, la1 = sm[i].lat + dd;
            double fx, fy0, fy1;
            swx_tile_of_deg(&fx, &fy0, z, 0, la1);
            swx_tile_of_deg(&fx, &fy1, z, 0, la0);
            double maxlat = fabs(la0) > fabs(la1) ? fabs(la0) : fabs(la1);
            double dlon = maxlat >= 89 ? 180 : dd / cos(maxlat * D2R);
            if (dlon > 180)
                dlon = 180;
            double tw = 360.0 / nt;
            long c0 = (long)floor((sm[i].lon - dlon + 180) / tw) - 1;
            long c1 = (long)floor((sm[i].lon + dlon + 180) / tw) + 1;
            if (c1 - c0 + 1 > (long)nt) {
                c0 = 0;
                c1 = (long)nt - 1;
            }
            long r0 = (long)floor(fy0) - 1, r1 = (long)floor(fy1) + 1;
            for (long r = r0 < 0 ? 0 : r0; r <= r1 && r < (long)nt; r++)
                for (long c = c0; c <= c1; c++) {
                    uint32_t x = (uint32_t)(((c % (long)nt) + (long)nt) % (long)nt);
                    double w, s, e, no;
                    swx_tile_bounds_deg(&w, &s, &e, &no, z, x, (uint32_t)r);
                    double v = point_tile(sm[i].lon, sm[i].lat, w, s, e, no);
                    size_t k = (size_t)r * nt + x;
                    if (v < best[k])
                        best[k] = v;
                }
        }
        int wrong = 0, unsure = 0;
        for (uint32_t y = 0; y < nt; y++)
            for (uint32_t x = 0; x < nt; x++) {
                double b = best[(size_t)y * nt + x];
                int want = b <= d;
                if (fabs(b - d) < tol) {
                    unsure++;
                    continue;
                }
                if (want != swx_area_has_tile(a, z, x, y)) {
                    wrong++;
                    fprintf(stderr, "zoom %d tile %u,%u: brute force %d (%.3f km vs %.3f)\n", z, x,
                            y, want, b * 6371.0088, d * 6371.0088);
                }
            }
        free(best);
        CU_ASSERT_EQUAL(wrong, 0);
        CU_ASSERT(unsure <= 2);
        iterate(a, z, 1, z <= 6);
        iterate(a, z, 4, 0);
    }
    free(sm);
    swx_area_free(a);
}

static void test_route_antimeridian(void)
{
    /* Across 180 in the North Pacific, as a great circle bends poleward. */
    double lon[] = {165.0, 178.5, -175.0, -160.0};
    double lat[] = {40.0, 47.0, 48.5, 50.0};
    route_vs_brute(lon, lat, 4, 50, 6);
}

static void test_route_varied(void)
{
    /* A long great circle (Yokohama - Los Angeles) with a small buffer. */
    double lon[] = {139.6, -118.3};
    double lat[] = {35.4, 33.7};
    route_vs_brute(lon, lat, 2, 20, 5);
    /* A meridian leg and a single point. */
    double lon2[] = {10.0, 10.0, 12.0};
    double lat2[] = {-30.0, 30.0, 30.0};
    route_vs_brute(lon2, lat2, 3, 100, 6);
    double lon3[] = {-45.0}, lat3[] = {60.0};
    route_vs_brute(lon3, lat3, 1, 200, 6);
}

static swx_area *route_text(const char *t, double buffer_nm)
{
    swx_area *a = NULL;
    int rc = swx_area_from_route(&a, t, strlen(t), buffer_nm * SWX_NM_M);
    if (rc)
        fprintf(stderr, "route: %s\n", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    return a;
}

static void test_route_formats(void)
{
    double lon[] = {165.0, 178.5, -175.0}, lat[] = {40.0, 47.0, 48.5};
    swx_area *ref = NULL;
    CU_ASSERT_FATAL(swx_area_from_waypoints(&ref, lon, lat, 3, 50 * SWX_NM_M) == 0);
    swx_area *g = route_text("{\"type\":\"LineString\",\"coordinates\":[[165,40],[178.5,47],"
                             "[-175,48.5]]}",
                             50);
    swx_area *g2 = route_text("{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\","
                              "\"coordinates\":[[165,40],[178.5,47],[185,48.5]]}}",
                              50);
    swx_area *c1 = route_text("# waypoints\n40,165\n47,178.5\n\n48.5,-175\n", 50);
    swx_area *c2 = route_text("name;Longitude;Latitude\nA;165;40\nB;178.5;47\nC;-175;48.5\n", 50);
    CU_ASSERT_FATAL(g && g2 && c1 && c2);
    same_tiles(ref, g, 6);
    same_tiles(ref, g2, 6);
    same_tiles(ref, c1, 6);
    same_tiles(ref, c2, 6);
    double w, s, e, n;
    swx_area_bounds(&w, &s, &e, &n, ref);
    CU_ASSERT(w > 160 && w < 165 && e > -175 && e < -170 && s < 40 && n > 48.5);
    swx_area_free(ref);
    swx_area_free(g);
    swx_area_free(g2);
    swx_area_free(c1);
    swx_area_free(c2);

    const char *bad[] = {"",
                         "40,165\n47\n",
                         "95,10\n",
                         "lat,lon\nx,y\n",
                         "foo,bar\n1,2\n",
                         "{\"type\":\"Polygon\",\"coordinates\":[]}",
                         "{\"type\":\"LineString\",\"coordinates\":[[0,0],[180,0]]}",
                         NULL};
    for (int i = 0; bad[i]; i++) {
        swx_area *a = (swx_area *)1;
        CU_ASSERT(swx_area_from_route(&a, bad[i], strlen(bad[i]), 1000) < 0);
        CU_ASSERT_PTR_NULL(a);
    }
    swx_area *a = NULL;
    CU_ASSERT_EQUAL(swx_area_from_route(&a, "1,2\n", 4, -5), SWX_EINVAL);
}

static void test_zoom_list(void)
{
    uint32_t z;
    CU_ASSERT_EQUAL(swx_zoom_list_parse(&z, "5"), 0);
    CU_ASSERT_EQUAL(z, 1u << 5);
    CU_ASSERT_EQUAL(swx_zoom_list_parse(&z, "3-9"), 0);
    CU_ASSERT_EQUAL(z, 0x3f8u);
    CU_ASSERT_EQUAL(swx_zoom_list_parse(&z, "0,2,4-5"), 0);
    CU_ASSERT_EQUAL(z, 0x35u);
    const char *bad[] = {"", "-1", "9-3", "3-", "a", "1,,2", "25", "3-30", "1 2", NULL};
    for (int i = 0; bad[i]; i++)
        CU_ASSERT_EQUAL(swx_zoom_list_parse(&z, bad[i]), SWX_EINVAL);
}

/* Clipping: each pixel of a tile belongs to the area as the tile of the same
 * rectangle two to the power log2(ts) zooms deeper does (swx_area_has_tile,
 * which enumerates from the zoom-0 tile rather than walking the tile's
 * pixels), and the kind of answer matches the pixels. */
static int clip_agrees(const swx_area *a, int z, uint32_t x, uint32_t y, int ts, int *kind)
{
    int shift = ts == 512 ? 9 : 8, bad = 0;
    size_t n = (size_t)ts * (size_t)ts, kept = 0;
    uint8_t *keep = malloc(n);
    if (!keep)
        return -1;
    *kind = swx_area_tile_pixels(keep, a, z, x, y, ts);
    if (*kind == SWX_CLIP_ALL)
        memset(keep, 1, n);
    else if (*kind == SWX_CLIP_NONE)
        memset(keep, 0, n);
    /* Every 16th row and column whole, and the last ones: short under valgrind. */
    for (int r = 0; r < ts; r++)
        for (int c = 0; c < ts; c++) {
            if (r % 16 && c % 16 && r != ts - 1 && c != ts - 1) {
                kept += keep[(size_t)r * (size_t)ts + (size_t)c];
                continue;
            }
            int want = swx_area_has_tile(a, z + shift, (x << shift) + (uint32_t)c,
                                         (y << shift) + (uint32_t)r);
            int got = keep[(size_t)r * (size_t)ts + (size_t)c];
            kept += (size_t)got;
            if (want != got && bad++ < 3)
                fprintf(stderr, "tile %d/%u/%u pixel %d,%d: %d, not %d\n", z, x, y, c, r, got,
                        want);
        }
    if (*kind == SWX_CLIP_SOME && (kept == 0 || kept == n))
        bad++;
    free(keep);
    return bad;
}

static void test_clip(void)
{
    swx_area *a = NULL;
    int kind;
    /* A box: 10 W..10 E, 45..60 N. Zoom 5 tile 15/10 spans 11.25 W..0, so its
     * first 28 columns (west of 10 W) are cut. */
    CU_ASSERT_FATAL(swx_area_from_bbox(&a, -10, 45, 10, 60) == 0);
    CU_ASSERT_EQUAL(clip_agrees(a, 5, 15, 10, 256, &kind), 0);
    CU_ASSERT_EQUAL(kind, SWX_CLIP_SOME);
    CU_ASSERT_EQUAL(clip_agrees(a, 2, 1, 1, 256, &kind), 0);
    CU_ASSERT_EQUAL(kind, SWX_CLIP_SOME);
    CU_ASSERT_EQUAL(clip_agrees(a, 3, 3, 2, 512, &kind), 0);
    CU_ASSERT_EQUAL(clip_agrees(a, 9, 250, 170, 256, &kind), 0); /* 4.2-4.9 E, 52-52.5 N */
    CU_ASSERT_EQUAL(kind, SWX_CLIP_ALL);
    CU_ASSERT_EQUAL(clip_agrees(a, 5, 20, 10, 256, &kind), 0); /* 45 E: outside */
    CU_ASSERT_EQUAL(kind, SWX_CLIP_NONE);
    uint8_t keep[256 * 256];
    CU_ASSERT_EQUAL(swx_area_tile_pixels(keep, a, 5, 15, 10, 256), SWX_CLIP_SOME);
    CU_ASSERT_EQUAL(keep[128 * 256 + 27], 0); /* 10.02-10.06 W */
    CU_ASSERT_EQUAL(keep[128 * 256 + 28], 1); /* 10.02 W-9.98 W: meets the box */
    CU_ASSERT_EQUAL(swx_area_tile_pixels(keep, a, 5, 15, 10, 100), SWX_EINVAL);
    swx_area_free(a);
    /* A box across 180. */
    CU_ASSERT_FATAL(swx_area_from_bbox(&a, 170, -20, -170, 0) == 0);
    CU_ASSERT_EQUAL(clip_agrees(a, 4, 15, 8, 256, &kind), 0);
    CU_ASSERT_EQUAL(kind, SWX_CLIP_SOME);
    CU_ASSERT_EQUAL(clip_agrees(a, 4, 0, 8, 256, &kind), 0);
    CU_ASSERT_EQUAL(kind, SWX_CLIP_SOME);
    swx_area_free(a);
    /* A polygon whose edges are straight in degrees, curved in the tiles. */
    static const char poly[] =
        "{\"type\":\"Polygon\",\"coordinates\":[[[-20,40],[10,38],[15,60],[-5,62],[-20,40]]]}";
    CU_ASSERT_FATAL(swx_area_from_geojson_polygons(&a, poly, strlen(poly)) == 0);
    CU_ASSERT_EQUAL(clip_agrees(a, 4, 7, 5, 256, &kind), 0);
    CU_ASSERT_EQUAL(kind, SWX_CLIP_SOME);
    CU_ASSERT_EQUAL(clip_agrees(a, 6, 31, 22, 256, &kind), 0);
    swx_area_free(a);
    /* A route buffered by 60 nm: whole squares of pixels are taken at once
     * where the buffer holds them, which the tile test never does. */
    double lon[] = {-5, -10, -12}, lat[] = {50, 45, 40};
    CU_ASSERT_FATAL(swx_area_from_waypoints(&a, lon, lat, 3, 60 * SWX_NM_M) == 0);
    CU_ASSERT_EQUAL(clip_agrees(a, 5, 15, 10, 256, &kind), 0);
    CU_ASSERT_EQUAL(kind, SWX_CLIP_SOME);
    CU_ASSERT_EQUAL(clip_agrees(a, 7, 60, 43, 256, &kind), 0);
    swx_area_free(a);
}

/* A 100,000-tile area enumerates without growing memory with the tile count. */
static void test_large(void)
{
    swx_area *a = NULL;
    CU_ASSERT_FATAL(swx_area_from_bbox(&a, -30, 20, 40, 65) == 0);
    uint64_t c;
    CU_ASSERT_EQUAL(swx_area_count(&c, a, 14), 0);
    CU_ASSERT_EQUAL(c, box_count(14, -30, 20, 40, 65));
    CU_ASSERT_EQUAL(iterate(a, 11, 8, 0), box_count(11, -30, 20, 40, 65));
    swx_area_free(a);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("tiles", NULL, NULL);
    CU_add_test(s, "tile math", test_math);
    CU_add_test(s, "bbox counts equal the closed form", test_bbox);
    CU_add_test(s, "bbox text", test_bbox_text);
    CU_add_test(s, "polygons", test_polygons);
    CU_add_test(s, "route across 180 against brute force", test_route_antimeridian);
    CU_add_test(s, "routes: long, meridian, point", test_route_varied);
    CU_add_test(s, "route files: GeoJSON and CSV", test_route_formats);
    CU_add_test(s, "zoom lists", test_zoom_list);
    CU_add_test(s, "large areas", test_large);
    CU_add_test(s, "clipping a tile's pixels", test_clip);
    return cu_run();
}

/* test_land.c: land for the router (lib/sail/land.c, land_bins.c,
 * land_read.c) against GSHHG's full resolution file as Debian's
 * gmt-gshhg-full installs it: places known to be land or sea from the map
 * (Tenerife, the Solent, the Bahamas, the Aegean, the Azores, Tahiti, Tonga,
 * Fiji across 180); a leg across Tenerife blocked and one south of it
 * clear; the margin against a leg laid 2 nm south of Tenerife's southernmost
 * shore point (a distance along a meridian, so exactly 2 nm); islands'
 * areas and the world's land from the rings by this test's own spherical
 * area; every ring closed
 * and valid for GEOS; answers the same from several threads; a missing file
 * names the package, a netCDF file that is not a GSHHG coastline is refused
 * in one line with nothing printed. */
#define _GNU_SOURCE
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/land.h"

#include <fcntl.h>
#include <geos_c.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GSHHG_F "/usr/share/gmt-gshhg/binned_GSHHS_f.nc"
#define R_KM 6371.0088 /* mean Earth radius */

static swx_land *open_box(double s, double w, double n, double e, double margin)
{
    swx_land_opts o = {
        .resolution = 'f', .south = s, .west = w, .north = n, .east = e, .margin_nm = margin};
    swx_land *l = NULL;
    int rc = swx_land_open(&l, &o);
    if (rc)
        fprintf(stderr, "swx_land_open: %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    return l;
}

typedef struct place {
    const char *name;
    double lat, lon;
    int land;
} place;

static void check_places(swx_land *l, const place *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int got = swx_land_at(l, p[i].lat, p[i].lon);
        if (got != p[i].land)
            fprintf(stderr, "%s (%.3f, %.3f): %d, expected %d\n", p[i].name, p[i].lat, p[i].lon,
                    got, p[i].land);
        CU_ASSERT_EQUAL(got, p[i].land);
    }
}

static void test_places(void)
{
    static const place canaries[] = {
        {"Tenerife, Teide", 28.27, -16.64, 1},
        {"5 nm south of Punta de la Rasca", 27.92, -16.69, 0},
        {"between Tenerife and Gran Canaria", 28.2, -16.0, 0},
        {"Gran Canaria", 27.95, -15.6, 1},
    };
    swx_land *l = open_box(27.5, -17.5, 29, -15.2, 0);
    check_places(l, canaries, sizeof canaries / sizeof canaries[0]);
    swx_land_free(l);

    static const place solent[] = {
        {"Isle of Wight, Newport", 50.67, -1.30, 1},
        {"the Solent off Lee", 50.79, -1.20, 0},
        {"Southampton", 50.92, -1.40, 1},
        {"south of St Catherine's Point", 50.50, -1.30, 0},
    };
    l = open_box(50.4, -1.8, 51.0, -0.9, 0);
    check_places(l, solent, sizeof solent / sizeof solent[0]);
    swx_land_free(l);

    static const place bahamas[] = {
        {"Grand Bahama", 26.65, -78.40, 1},
        {"Northwest Providence Channel", 26.20, -78.50, 0},
        {"New Providence", 25.03, -77.40, 1},
        {"Tongue of the Ocean", 24.30, -77.40, 0},
    };
    l = open_box(24, -79, 27, -77, 0);
    check_places(l, bahamas, sizeof bahamas / sizeof bahamas[0]);
    swx_land_free(l);

    static const place aegean[] = {
        {"Naxos", 37.05, 25.48, 1},
        {"Paros", 37.07, 25.18, 1},
        {"between Paros and Naxos", 37.07, 25.31, 0},
        {"south of Ios", 36.55, 25.30, 0},
    };
    l = open_box(36.4, 24.9, 37.3, 25.8, 0);
    check_places(l, aegean, sizeof aegean / sizeof aegean[0]);
    swx_land_free(l);

    static const place azores[] = {
        {"Sao Miguel", 37.78, -25.50, 1},
        {"south of Sao Miguel", 37.60, -25.50, 0},
    };
    l = open_box(37.4, -26, 38, -25, 0);
    check_places(l, azores, sizeof azores / sizeof azores[0]);
    swx_land_free(l);

    /* a lake is land here (seawx/land.h), and so is an island in it */
    static const place garda[] = {
        {"Lake Garda", 45.65, 10.68, 1},
        {"Isola del Garda", 45.598, 10.588, 1},
        {"Adriatic off Venice", 45.30, 12.60, 0},
    };
    l = open_box(45.2, 10.4, 46.0, 12.8, 0);
    check_places(l, garda, sizeof garda / sizeof garda[0]);
    swx_land_free(l);
}

/* An area across 180: Tahiti to Tonga and Fiji, whose Taveuni lies on 180. */
static void test_dateline(void)
{
    static const place pacific[] = {
        {"Tahiti", -17.65, -149.43, 1},    {"north of Tahiti", -17.35, -149.45, 0},
        {"Tongatapu", -21.17, -175.20, 1}, {"north of Tongatapu", -20.85, -175.20, 0},
        {"Taveuni", -16.85, -179.95, 1},   {"Taveuni, east of 180 written", -16.85, 180.05, 1},
        {"Viti Levu", -17.80, 178.05, 1},  {"Koro Sea", -17.50, 179.50, 0},
    };
    swx_land *l = open_box(-22, 175, -15, -149, 0);
    check_places(l, pacific, sizeof pacific / sizeof pacific[0]);
    CU_ASSERT_EQUAL(swx_land_leg_clear(l, -15.5, 179.5, -15.5, -179.5), 1);
    CU_ASSERT_EQUAL(swx_land_leg_clear(l, -16.85, 179.7, -16.85, -179.7), 0); /* Taveuni */
    CU_ASSERT_EQUAL(swx_land_at(l, -17.5, 170), 1);                           /* outside the area */
    swx_land_free(l);
}

static void test_legs(void)
{
    swx_land *l = open_box(27.5, -17.5, 29, -15.2, 0);
    /* across Tenerife west to east at 28.27 N, and south of it at 27.85 N */
    CU_ASSERT_EQUAL(swx_land_leg_clear(l, 28.27, -17.05, 28.27, -16.20), 0);
    CU_ASSERT_EQUAL(swx_land_leg_clear(l, 27.85, -17.05, 27.85, -16.20), 1);
    CU_ASSERT_EQUAL(swx_land_leg_clear(l, 28.27, -16.20, 28.27, -17.05), 0);
    /* a leg starting on land */
    CU_ASSERT_EQUAL(swx_land_leg_clear(l, 28.27, -16.64, 27.85, -16.64), 0);
    swx_land_free(l);
}

/* The southernmost shore point of the rings in a box (lat, lon). */
static void southernmost(const swx_land *l, double s, double w, double n, double e, double *lat,
                         double *lon)
{
    *lat = 90;
    for (size_t i = 0; i < swx_land_rings(l); i++) {
        size_t np;
        const double *xy = swx_land_ring(l, i, &np, NULL);
        for (size_t k = 0; k < np; k++)
            if (xy[2 * k] >= w && xy[2 * k] <= e && xy[2 * k + 1] >= s && xy[2 * k + 1] <= n &&
                xy[2 * k + 1] < *lat) {
                *lat = xy[2 * k + 1];
                *lon = xy[2 * k];
            }
    }
}

static void test_margin(void)
{
    double tip_lat = 90, tip_lon = 0;
    swx_land *l = open_box(27.5, -17.0, 28.8, -16.0, 0);
    southernmost(l, 27.8, -16.95, 28.7, -16.1, &tip_lat, &tip_lon);
    swx_land_free(l);
    CU_ASSERT(tip_lat > 27.95 && tip_lat < 28.05); /* Punta de la Rasca, about 28.00 N */
    /* a leg along the parallel 2 nm (2') south of it, 6' either side */
    double y = tip_lat - 2.0 / 60, x0 = tip_lon - 0.1, x1 = tip_lon + 0.1;
    static const struct {
        double margin;
        int clear;
    } cases[] = {{0, 1}, {1, 1}, {1.9, 1}, {2.1, 0}, {3, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        l = open_box(27.5, -17.0, 28.8, -16.0, cases[i].margin);
        CU_ASSERT_EQUAL(swx_land_leg_clear(l, y, x0, y, x1), cases[i].clear);
        /* the point 2 nm off is within a margin of 2.1, not 1.9 */
        CU_ASSERT_EQUAL(swx_land_at(l, y, tip_lon), !cases[i].clear);
        swx_land_free(l);
    }
}

/* The area of a ring on the sphere, km^2 (edges as rhumb segments, the
 * usual formula: R^2 / 2 * sum (lon2 - lon1)(2 + sin lat1 + sin lat2)). */
static double ring_area_km2(const double *xy, size_t n)
{
    double sum = 0, d = M_PI / 180;
    for (size_t k = 0; k + 1 < n; k++)
        sum +=
            (xy[2 * k + 2] - xy[2 * k]) * d * (2 + sin(xy[2 * k + 1] * d) + sin(xy[2 * k + 3] * d));
    return fabs(sum) * R_KM * R_KM / 2;
}

/* The rings that lie wholly in the box: an island cut at bins' edges. */
static double island_area(const swx_land *l, double s, double w, double n, double e)
{
    double total = 0;
    for (size_t i = 0; i < swx_land_rings(l); i++) {
        size_t np;
        int inside = 1;
        const double *xy = swx_land_ring(l, i, &np, NULL);
        for (size_t k = 0; k < np && inside; k++)
            inside = xy[2 * k] >= w && xy[2 * k] <= e && xy[2 * k + 1] >= s && xy[2 * k + 1] <= n;
        if (inside)
            total += ring_area_km2(xy, np);
    }
    return total;
}

static void test_areas(void)
{
    swx_land *l = open_box(50.4, -1.8, 51.0, -0.9, 0);
    double wight = island_area(l, 50.56, -1.60, 50.78, -1.06);
    swx_land_free(l);
    fprintf(stderr, "Isle of Wight: %.1f km2\n", wight);
    CU_ASSERT(fabs(wight - 380) < 0.04 * 380);

    l = open_box(27.5, -17.0, 28.8, -16.0, 0);
    double tenerife = island_area(l, 27.9, -16.96, 28.7, -16.1);
    swx_land_free(l);
    fprintf(stderr, "Tenerife: %.1f km2\n", tenerife);
    CU_ASSERT(fabs(tenerife - 2034) < 0.03 * 2034);
}

/* The whole world from the crude file: its land (lakes in it) against the
 * Earth's 148.94 million km2 of land, inland water included (the CIA World
 * Factbook: 510.072 total, 361.132 of it ocean). */
static void test_world_area(void)
{
    swx_land_opts o = {.resolution = 'c', .south = -90, .west = -180, .north = 90, .east = 180};
    swx_land *l = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_land_open(&l, &o), 0);
    double total = island_area(l, -90, -180, 90, 180) / 1e6;
    swx_land_free(l);
    fprintf(stderr, "the world's land, crude: %.2f million km2\n", total);
    CU_ASSERT(fabs(total - 148.94) < 0.02 * 148.94);
}

static void test_rings_valid(void)
{
    swx_land *l = open_box(36.4, 24.9, 37.3, 25.8, 1); /* the Cyclades: many small islands */
    GEOSContextHandle_t h = GEOS_init_r();
    size_t invalid = 0, open_rings = 0, n = swx_land_rings(l);
    CU_ASSERT(n > 20);
    for (size_t i = 0; i < n; i++) {
        size_t np;
        int level;
        const double *xy = swx_land_ring(l, i, &np, &level);
        CU_ASSERT_EQUAL(level, 1);
        if (np < 4 || xy[0] != xy[2 * np - 2] || xy[1] != xy[2 * np - 1]) {
            open_rings++;
            continue;
        }
        GEOSCoordSequence *cs = GEOSCoordSeq_create_r(h, (unsigned)np, 2);
        for (size_t k = 0; k < np; k++)
            GEOSCoordSeq_setXY_r(h, cs, (unsigned)k, xy[2 * k], xy[2 * k + 1]);
        GEOSGeometry *shell = GEOSGeom_createLinearRing_r(h, cs);
        GEOSGeometry *poly = GEOSGeom_createPolygon_r(h, shell, NULL, 0);
        if (GEOSisValid_r(h, poly) != 1) {
            char *why = GEOSisValidReason_r(h, poly);
            fprintf(stderr, "ring %zu: %s\n", i, why);
            GEOSFree_r(h, why);
            invalid++;
        }
        GEOSGeom_destroy_r(h, poly);
    }
    CU_ASSERT_EQUAL(open_rings, 0);
    CU_ASSERT_EQUAL(invalid, 0);
    GEOS_finish_r(h);
    CU_ASSERT(swx_land_ring(l, n, NULL, NULL) == NULL);
    swx_land_free(l);
}

/* Many legs, one answer each, asked from four threads at once. */
#define NLEGS 20000
static double legs[NLEGS][4];
static int answers[NLEGS];

typedef struct worker {
    const swx_land *l;
    int mismatches;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < NLEGS; i++)
            w->mismatches += swx_land_leg_clear(w->l, legs[i][0], legs[i][1], legs[i][2],
                                                legs[i][3]) != answers[i];
    return NULL;
}

static void test_threads(void)
{
    swx_land *l = open_box(36.4, 24.9, 37.3, 25.8, 1);
    unsigned seed = 7;
    int clear = 0;
    for (int i = 0; i < NLEGS; i++) {
        double lat = 36.5 + 0.7 * rand_r(&seed) / RAND_MAX,
               lon = 25 + 0.7 * rand_r(&seed) / RAND_MAX;
        double h = 2 * M_PI * rand_r(&seed) / RAND_MAX,
               len = (2 + 10.0 * rand_r(&seed) / RAND_MAX) / 60;
        legs[i][0] = lat;
        legs[i][1] = lon;
        legs[i][2] = lat + len * cos(h);
        legs[i][3] = lon + len * sin(h) / cos(lat * M_PI / 180);
        answers[i] = swx_land_leg_clear(l, legs[i][0], legs[i][1], legs[i][2], legs[i][3]);
        clear += answers[i];
    }
    CU_ASSERT(clear > NLEGS / 10 && clear < NLEGS * 9 / 10); /* both answers are asked */
    pthread_t t[4];
    worker w[4];
    for (int k = 0; k < 4; k++) {
        w[k] = (worker){l, 0};
        CU_ASSERT_EQUAL_FATAL(pthread_create(&t[k], NULL, work, &w[k]), 0);
    }
    for (int k = 0; k < 4; k++) {
        pthread_join(t[k], NULL);
        CU_ASSERT_EQUAL(w[k].mismatches, 0);
    }
    swx_land_free(l);
}

/* Runs swx_land_open with stderr going to a file; returns its code and
 * whether anything was written there. */
static int open_quietly(const swx_land_opts *o, swx_land **l, int *printed)
{
    char tmpl[] = "/tmp/test_land_err_XXXXXX";
    int fd = mkstemp(tmpl), saved = dup(2);
    fflush(stderr);
    dup2(fd, 2);
    int rc = swx_land_open(l, o);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    struct stat st;
    fstat(fd, &st);
    *printed = st.st_size > 0;
    close(fd);
    unlink(tmpl);
    return rc;
}

static void test_errors(void)
{
    swx_land *l = (swx_land *)1;
    int printed;
    swx_land_opts o = {
        .path = "/nonexistent/binned_GSHHS_f.nc", .south = 10, .west = 0, .north = 11, .east = 1};
    CU_ASSERT_EQUAL(open_quietly(&o, &l, &printed), SWX_ENOTFOUND);
    CU_ASSERT_PTR_NULL(l);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "gmt-gshhg-full"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "/nonexistent/binned_GSHHS_f.nc"));

    /* netCDF, but GSHHG's rivers; then a file that is no netCDF at all */
    o.path = "/usr/share/gmt-gshhg/binned_river_c.nc";
    CU_ASSERT_EQUAL(open_quietly(&o, &l, &printed), SWX_EPARSE);
    CU_ASSERT_PTR_NULL(l);
    CU_ASSERT_FALSE(printed);
    CU_ASSERT_PTR_NULL(strchr(swx_error_last(), '\n'));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "not a GSHHG"));

    char tmpl[] = "/tmp/test_land_bad_XXXXXX";
    int fd = mkstemp(tmpl);
    static const char junk[] = "\x89HDF\r\n\x1a\n this is not a coastline";
    CU_ASSERT_EQUAL(write(fd, junk, sizeof junk), (ssize_t)sizeof junk);
    close(fd);
    o.path = tmpl;
    CU_ASSERT_EQUAL(open_quietly(&o, &l, &printed), SWX_EPARSE);
    CU_ASSERT_FALSE(printed);
    CU_ASSERT_PTR_NULL(strchr(swx_error_last(), '\n'));
    unlink(tmpl);

    /* a folder holding the file; bad options */
    o.path = "/usr/share/gmt-gshhg";
    o.resolution = 'c';
    CU_ASSERT_EQUAL(swx_land_open(&l, &o), 0);
    swx_land_free(l);
    o.resolution = 'x';
    CU_ASSERT_EQUAL(swx_land_open(&l, &o), SWX_EINVAL);
    o.resolution = 'c';
    o.margin_nm = -1;
    CU_ASSERT_EQUAL(swx_land_open(&l, &o), SWX_EINVAL);
    o.margin_nm = 0;
    o.north = 5;
    CU_ASSERT_EQUAL(swx_land_open(&l, &o), SWX_EINVAL);
    swx_land_free(NULL);
}

int main(void)
{
    if (access(GSHHG_F, R_OK) != 0) {
        fprintf(stderr, "%s is missing: install gmt-gshhg-full (scripts/install-deps.sh)\n",
                GSHHG_F);
        return 1;
    }
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("land", NULL, NULL);
    CU_add_test(s, "places known to be land or sea", test_places);
    CU_add_test(s, "an area across 180", test_dateline);
    CU_add_test(s, "legs across and around an island", test_legs);
    CU_add_test(s, "the margin, 2 nm off Tenerife", test_margin);
    CU_add_test(s, "islands' areas from the rings", test_areas);
    CU_add_test(s, "the world's land from the crude file", test_world_area);
    CU_add_test(s, "rings closed and valid for GEOS", test_rings_valid);
    CU_add_test(s, "the same answers from four threads", test_threads);
    CU_add_test(s, "missing, foreign and bad files, bad options", test_errors);
    return cu_run();
}

/* test_package_quote.c: the quote of a voyage package's layer
 * (lib/voyage/package_quote.c) against seawx-sim on a fixed clock, its
 * access log counting the GetMaps: files, tiles and GetMaps as the plan
 * counts them (one GetMap a tile), bytes per tile measured at each of the
 * layer's zooms and at no other, the estimate made of them as
 * seawx/package.h says, within a quarter of what a build then writes; the
 * sample asks a few GetMaps at each zoom and no more; a stop ends the quote
 * with SWX_ECANCEL, its counts made. */
#define _GNU_SOURCE
#include "cu_support.h"

#include "package_int.h"
#include "seawx/error.h"
#include "seawx/package.h"
#include "seawx/voyage.h"
#include "seawx/wms.h"
#include "seawx/wms_caps.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KEY "package-quote-key"
#define NOW "2026-03-02T11:00:00Z"
#define DEPART "2026-03-02T13:00:00Z"
#define ROUTE "lat,lon\n36,-14\n35,-15\n"
/* An MBTiles file's fixed cost, as the quote counts it (package_priv.h). */
#define FILE_BYTES 28672.0
#define SAMPLES 8

static cu_voyage_bench vb;

static swx_client *client(void)
{
    return cu_client(vb.sim.base_url, KEY, NULL);
}

static int setup(void)
{
    return cu_voyage_bench_start(&vb, "quote", KEY, NOW, ROUTE, DEPART, 10);
}

static int teardown(void)
{
    return cu_voyage_bench_stop(&vb);
}

/* GetMaps in the access log, once it holds at least `want`. */
static long getmaps(long want)
{
    return cu_log_count(vb.access_log, "request=GetMap&", want);
}

/* swh at zooms 3-4 and sst at zoom 2 (or the layers given), at path. */
static swx_package_layer layers[2];
static swx_package *package(const char *path, const char *a, const char *b)
{
    CU_ASSERT_EQUAL_FATAL(swx_package_layer_parse(&layers[0], a), 0);
    if (b)
        CU_ASSERT_EQUAL_FATAL(swx_package_layer_parse(&layers[1], b), 0);
    swx_package_opts o = {.bundle = "maritime",
                          .path = path,
                          .voyage = vb.voyage,
                          .buffer_m = 10 * 1852.0,
                          .layers = layers,
                          .nlayers = b ? 2 : 1,
                          .tile_size = 256,
                          .now = cu_time(NOW)};
    swx_package *p = NULL;
    int rc = swx_package_new(&p, vb.caps, &o);
    if (rc)
        fprintf(stderr, "\n  package: %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return p;
}

/* The quote of layer i checked against its plan; returns it. */
static swx_package_quote quote_checked(swx_package *p, size_t i, uint32_t zooms)
{
    swx_package_quote q;
    swx_client *c = client();
    long before = getmaps(0);
    int rc = swx_package_quote_layer(&q, p, c, i, NULL);
    swx_client_free(c);
    if (rc)
        fprintf(stderr, "\n  quote: %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    size_t first;
    const swx_seed_plan *sp = swx_package_plan(p, i, &first);
    size_t nf = swx_package_file_count(p, i);
    int nz = 0;
    uint64_t tiles = 0;
    double bytes = FILE_BYTES * (double)nf;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
        if (!(zooms & (1u << z))) {
            CU_ASSERT_EQUAL(q.tile_bytes[z], 0);
            continue;
        }
        nz++;
        /* A tile of a smooth field with its SQLite pages: tens of bytes at
         * the least, not hundreds of kilobytes. */
        CU_ASSERT(q.tile_bytes[z] >= 40 && q.tile_bytes[z] < 200000);
        for (size_t f = 0; f < nf; f++) {
            uint64_t t = swx_seed_plan_tiles(sp, first + f, z);
            tiles += t;
            bytes += q.tile_bytes[z] * (double)t;
        }
    }
    CU_ASSERT_EQUAL(q.files, nf);
    CU_ASSERT_EQUAL(q.tiles, tiles);
    CU_ASSERT_EQUAL(q.requests, tiles); /* one GetMap a tile */
    CU_ASSERT_DOUBLE_EQUAL(q.bytes, bytes, 1e-6 * bytes);
    /* The sample: a tile or two of each zoom at each of 8 points. */
    long asked = getmaps(before + SAMPLES * nz) - before;
    CU_ASSERT(asked >= SAMPLES * nz && asked <= 2 * SAMPLES * nz);
    return q;
}

/* Bytes of the files of one layer (name prefix) in a package's folder. */
static double layer_bytes(const char *folder, const char *prefix, size_t *n)
{
    DIR *d = opendir(folder);
    double b = 0;
    *n = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    for (struct dirent *e; (e = readdir(d));) {
        char p[512];
        struct stat st;
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", folder, e->d_name);
        if (stat(p, &st) == 0) {
            b += (double)st.st_size;
            (*n)++;
        }
    }
    closedir(d);
    return b;
}

static void test_quote_and_build(void)
{
    char path[128], folder[128];
    snprintf(path, sizeof path, "%s/pkg", vb.dir);
    snprintf(folder, sizeof folder, "%s/.pkg.v1", vb.dir);
    swx_package *p = package(path, "swh:zoom=3-4:format=png", "sst:zoom=2:format=png");
    CU_ASSERT(swx_package_file_count(p, 0) >= 9);
    swx_package_quote swh = quote_checked(p, 0, (1u << 3) | (1u << 4));
    swx_package_quote sst = quote_checked(p, 1, 1u << 2);
    /* At least a tile of each zoom for each file. */
    CU_ASSERT(swh.tiles >= 2 * swx_package_file_count(p, 0));
    CU_ASSERT(sst.tiles >= swx_package_file_count(p, 1));

    /* The package then built: each layer's files within a quarter of its
     * estimate. */
    swx_client *c = client();
    swx_package_run_opts o = {.in_flight = 4};
    swx_package_result res;
    int rc = swx_package_build(&res, p, c, &o);
    swx_client_free(c);
    if (rc)
        fprintf(stderr, "\n  build: %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    size_t n = 0;
    double got = layer_bytes(folder, "swh-", &n);
    CU_ASSERT_EQUAL(n, swh.files);
    CU_ASSERT(fabs(got - swh.bytes) <= 0.25 * got);
    if (fabs(got - swh.bytes) > 0.25 * got)
        fprintf(stderr, "\n  swh: %.0f bytes, quoted %.0f\n", got, swh.bytes);
    got = layer_bytes(folder, "sst-", &n);
    CU_ASSERT_EQUAL(n, sst.files);
    CU_ASSERT(fabs(got - sst.bytes) <= 0.25 * got);
    if (fabs(got - sst.bytes) > 0.25 * got)
        fprintf(stderr, "\n  sst: %.0f bytes, quoted %.0f\n", got, sst.bytes);
    CU_ASSERT_EQUAL(res.tiles, swh.tiles + sst.tiles);
    swx_package_free(p);
}

/* Zoom 0 alone: one tile a file, whatever the stretch. */
static void test_one_tile_a_file(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/z0", vb.dir);
    swx_package *p = package(path, "swh:zoom=0:format=png", NULL);
    swx_package_quote q = quote_checked(p, 0, 1u);
    CU_ASSERT_EQUAL(q.tiles, q.files);
    CU_ASSERT_DOUBLE_EQUAL(q.bytes, (FILE_BYTES + q.tile_bytes[0]) * (double)q.files, 1e-6);
    swx_package_free(p);
}

static int stop_now(void *ud)
{
    (void)ud;
    return 1;
}

static void test_stopped(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/stopped", vb.dir);
    swx_package *p = package(path, "swh:zoom=3-4:format=png", NULL);
    swx_client *c = client();
    swx_package_quote q;
    long before = getmaps(0);
    /* Asked to stop: at most the first sample's first zoom was asked. */
    swx_package_run_opts o = {.stop = stop_now};
    CU_ASSERT_EQUAL(swx_package_quote_layer(&q, p, c, 0, &o), SWX_ECANCEL);
    CU_ASSERT(getmaps(before) - before <= 2);
    /* Counting alone needs nothing of the service: those are in the quote
     * even when it stops. */
    CU_ASSERT_EQUAL(q.files, swx_package_file_count(p, 0));
    CU_ASSERT(q.tiles > 0);
    /* The cancel flag alone (as a second Ctrl-C sets it) stops it too: no
     * quote made of samples that were never fetched. */
    volatile sig_atomic_t cancel = 1;
    swx_package_run_opts oc = {.cancel = &cancel};
    before = getmaps(0);
    CU_ASSERT_EQUAL(swx_package_quote_layer(&q, p, c, 0, &oc), SWX_ECANCEL);
    CU_ASSERT(getmaps(before) - before <= 2);
    swx_client_free(c);
    swx_package_free(p);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("package_quote", setup, teardown);
    CU_add_test(s, "two layers quoted, then built within a quarter", test_quote_and_build);
    CU_add_test(s, "zoom 0: one tile a file", test_one_tile_a_file);
    CU_add_test(s, "stopped", test_stopped);
    return cu_run();
}

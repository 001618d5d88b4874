/* test_seed.c: the seeding engine (lib/tiles/seed*.c) against seawx-sim: what
 * it checks before any request, the plan (layer, runs, times, warping, tile
 * and request counts against the tile math), and runs into MBTiles files
 * (counts, callbacks, resuming, stopping, failed tiles, permanent errors). */
#include "cu_support.h"

#include "tile.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/seed.h"
#include "seawx/wms.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KEY "seed-key-51f0"

static cu_sim sim, faulty;
static swx_caps *basic, *upper;
static char dir[64];

/* Under valgrind on a busy machine a transfer can stand still for minutes
 * while the seeder's callbacks (webp encoding at a fiftieth of its speed)
 * hold the loop: the whole-transfer timeout is stretched there, so that a
 * slow machine is not taken for a failing service. */
static swx_client *client_for(const cu_sim *s, const char *key)
{
    swx_client_opts o = {0};
    o.base_url = s->base_url;
    o.api_key = key;
    o.max_retries = -1;
    swx_client *c = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    return c;
}

static swx_area *bbox(const char *text)
{
    swx_area *a = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_area_from_bbox_text(&a, text), 0);
    return a;
}

static swx_seed_opts opts(const swx_area *a, uint32_t zooms)
{
    swx_seed_opts o = {0};
    o.bundle = "basic";
    o.variable = "t2m:K";
    o.area = a;
    o.zooms = zooms;
    return o;
}

static const char *path(const char *name)
{
    static char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

/* Rows of the tiles view of an MBTiles file; -1 when it cannot be read. */
static long tiles_in(const char *file)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    long n = -1;
    if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT count(*) FROM tiles", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* ---- before any request ---- */

static void test_opts_check(void)
{
    swx_area *a = bbox("-10,40,5,55");
    swx_seed_opts o = opts(a, 1u << 3);
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), 0);
    o.tile_size = 300;
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "tile size must be 256 or 512");
    /* One rule, in the words of the front end that asks it. */
    swx_seed_names cli = {.tile_size = "--tile-size", .quality = "--quality", .format = "--format"};
    CU_ASSERT_EQUAL(swx_seed_opts_check_named(&o, &cli), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "--tile-size must be 256 or 512");
    o.tile_size = 256;
    o.quality = 80;
    CU_ASSERT_EQUAL(swx_seed_opts_check_named(&o, &cli), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "--quality goes with --format webp or jpeg, not png");
    o.quality = 0;
    o.tile_size = 300;
    o.tile_size = 512;
    o.metatile = 3;
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL);
    o.metatile = 8;
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), 0); /* 8 x 512 = 4096: the largest image */
    o = opts(a, 0);
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL);
    o = opts(a, 1u << 25);
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL);
    o = opts(a, 1u << 3);
    o.layer = "sof-d/20241001/00/t2m:K";
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL); /* layer and variable */
    o.variable = NULL;
    o.run = "latest";
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL); /* a layer names its run */
    o = opts(a, 1u << 3);
    o.run = "2024";
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "run '2024'"));
    o.run = "2024-10-01T00:00:00Z";
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), 0);
    o.run = "2024100100";
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), 0);
    o.times = "notatime";
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL);
    o.times = "all";
    o.bundle = "nope";
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL);
    o.bundle = "basic";
    o.area = NULL;
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL);
    swx_area_free(a);
}

/* ---- the plan ---- */

static void test_plan_counts(void)
{
    swx_area *a = bbox("-10,40,5,55");
    swx_seed_opts o = opts(a, 0x3f); /* zooms 0-5 */
    o.metatile = 2;
    swx_seed_plan *p = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&p, basic, &o), 0);
    uint64_t sum = 0;
    for (int z = 0; z <= 5; z++) {
        uint64_t n = 0, blocks = 0, r = 0;
        CU_ASSERT_EQUAL(swx_area_count(&n, a, z), 0);
        CU_ASSERT_EQUAL(swx_seed_plan_tiles(p, 0, z), n);
        sum += n;
        swx_tile_iter *it = NULL;
        swx_tile_block b;
        CU_ASSERT_EQUAL_FATAL(swx_tile_iter_new(&it, a, z, 2), 0);
        while (swx_tile_iter_next(&b, it) == 1)
            blocks++;
        swx_tile_iter_free(it);
        CU_ASSERT_EQUAL(swx_seed_plan_requests(&r, p, 0, z), 0);
        CU_ASSERT_EQUAL(r, blocks);
        CU_ASSERT(r <= n);
    }
    CU_ASSERT_EQUAL(sum, 19); /* the integration test's figure for this box */
    CU_ASSERT_EQUAL(swx_seed_plan_tiles(p, 0, -1), sum);
    CU_ASSERT_EQUAL(swx_seed_plan_tiles(p, 0, 9), 0); /* a zoom not asked for */
    uint64_t r = 1;
    CU_ASSERT_EQUAL(swx_seed_plan_requests(&r, p, 0, 9), 0);
    CU_ASSERT_EQUAL(r, 0);
    /* The default: the layer's default time, one file, no warping. */
    CU_ASSERT_EQUAL(swx_seed_plan_time_count(p), 1);
    CU_ASSERT_EQUAL(swx_seed_plan_file_count(p), 1);
    CU_ASSERT_EQUAL(swx_seed_plan_time(p, 0),
                    swx_timedim_default(swx_layer_time(swx_seed_plan_layer(p))));
    CU_ASSERT_EQUAL(swx_seed_plan_time(p, 1), INT64_MIN);
    CU_ASSERT_FALSE(swx_seed_plan_warped(p));
    CU_ASSERT_PTR_NOT_NULL_FATAL(swx_seed_plan_run(p));
    CU_ASSERT_EQUAL(strlen(swx_seed_plan_run(p)), 10);
    swx_seed_plan_free(p);
    swx_area_free(a);
}

static void test_plan_runs_and_times(void)
{
    swx_area *a = bbox("0,40,5,50");
    swx_seed_opts o = opts(a, 1u << 2);
    swx_seed_plan *latest = NULL, *iso = NULL, *hh = NULL, *all = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&latest, basic, &o), 0);
    /* The run of the newest complete layer, as an instant and as YYYYMMDDHH. */
    int64_t t;
    CU_ASSERT_EQUAL_FATAL(swx_layer_run_time(&t, swx_seed_plan_layer(latest)), 0);
    char s[SWX_ISO8601_LEN];
    swx_iso8601_format(s, t);
    o.run = s;
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&iso, basic, &o), 0);
    o.run = swx_seed_plan_run(latest);
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&hh, basic, &o), 0);
    CU_ASSERT_PTR_EQUAL(swx_seed_plan_layer(iso), swx_seed_plan_layer(latest));
    CU_ASSERT_PTR_EQUAL(swx_seed_plan_layer(hh), swx_seed_plan_layer(latest));
    /* Every valid time: one file each. */
    o.run = NULL;
    o.times = "all";
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&all, basic, &o), 0);
    const swx_timedim *td = swx_layer_time(swx_seed_plan_layer(all));
    CU_ASSERT(swx_timedim_count(td) > 1);
    CU_ASSERT_EQUAL(swx_seed_plan_file_count(all), swx_timedim_count(td));
    CU_ASSERT_EQUAL(swx_seed_plan_time(all, 1), swx_timedim_get(td, 1));
    /* A run and a time the layer does not have: what is valid is named. */
    swx_seed_plan *bad = NULL;
    o.times = NULL;
    o.run = "1999010100";
    CU_ASSERT_EQUAL(swx_seed_plan_new(&bad, basic, &o), SWX_ENOTFOUND);
    CU_ASSERT_PTR_NULL(bad);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "no run 1999010100 of t2m:K in bundle basic"));
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "runs are 20"));
    o.run = NULL;
    o.times = "1999-01-01T00:00:00Z";
    CU_ASSERT_EQUAL(swx_seed_plan_new(&bad, basic, &o), SWX_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "nearest: "));
    o.times = NULL;
    o.style = "nope";
    CU_ASSERT_EQUAL(swx_seed_plan_new(&bad, basic, &o), SWX_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "styles are "));
    o.style = NULL;
    o.variable = "nope";
    CU_ASSERT_EQUAL(swx_seed_plan_new(&bad, basic, &o), SWX_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "its variables are "));
    CU_ASSERT_PTR_NULL(strstr(swx_error_last(), "gdalinfo")); /* no front end's words */
    swx_seed_plan_free(latest);
    swx_seed_plan_free(iso);
    swx_seed_plan_free(hh);
    swx_seed_plan_free(all);
    swx_area_free(a);
}

static void test_plan_warped(void)
{
    swx_area *a = bbox("-10,40,20,60");
    swx_seed_opts o = opts(a, 1u << 3);
    o.bundle = "upper-air";
    o.variable = "t850:K";
    swx_seed_plan *p = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&p, upper, &o), 0);
    CU_ASSERT_TRUE(swx_seed_plan_warped(p)); /* upper-air offers no EPSG:3857 */
    swx_seed_plan_free(p);
    swx_area_free(a);
}

/* ---- runs ---- */

typedef struct seen {
    int progress_calls, failed_calls, failed_tiles, stop_after;
    uint64_t last_done;
    int monotonic;
    char why[256];
} seen;

static void on_progress(void *ud, const swx_seed_counts *c)
{
    seen *s = ud;
    if (c->done < s->last_done)
        s->monotonic = 0;
    s->last_done = c->done;
    s->progress_calls++;
}

static void on_failed(void *ud, int z, uint32_t x, uint32_t y, int n, const char *why)
{
    seen *s = ud;
    s->failed_calls++;
    s->failed_tiles += n;
    snprintf(s->why, sizeof s->why, "%s", why);
}

static int on_stop(void *ud)
{
    seen *s = ud;
    return s->stop_after >= 0 && s->progress_calls >= s->stop_after;
}

static swx_seed_run_opts run_opts(seen *s)
{
    swx_seed_run_opts ro = {0};
    ro.in_flight = 8;
    ro.stop = on_stop;
    ro.progress = on_progress;
    ro.failed = on_failed;
    ro.ud = s;
    memset(s, 0, sizeof *s);
    s->monotonic = 1;
    s->stop_after = -1;
    return ro;
}

static void test_run_and_resume(void)
{
    swx_client *c = client_for(&sim, KEY);
    swx_area *a = bbox("-10,40,5,55");
    for (int metatile = 1; metatile <= 2; metatile++) {
        swx_seed_opts o = opts(a, 0x3f);
        o.metatile = metatile;
        swx_seed_plan *p = NULL;
        swx_seed *sd = NULL;
        seen s;
        swx_seed_run_opts ro = run_opts(&s);
        CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&p, basic, &o), 0);
        CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
        const char *f = path(metatile == 1 ? "m1.mbtiles" : "m2.mbtiles");
        swx_seed_file_result r;
        CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, f), 0);
        CU_ASSERT_EQUAL(r.tiles, 19);
        CU_ASSERT_EQUAL(r.stored, 19);
        CU_ASSERT_EQUAL(r.present, 0);
        CU_ASSERT_EQUAL(r.failed, 0);
        CU_ASSERT_TRUE(r.complete);
        CU_ASSERT(r.images >= 1 && r.images <= 19);
        CU_ASSERT_EQUAL(tiles_in(f), 19);
        swx_seed_counts k;
        swx_seed_get_counts(&k, sd);
        CU_ASSERT_EQUAL(k.total, 19);
        CU_ASSERT_EQUAL(k.done, 19);
        CU_ASSERT_EQUAL(k.run_done, 19);
        /* One GetMap per tile, fewer with metatiles. */
        if (metatile == 1) {
            CU_ASSERT_EQUAL(k.requests, 19);
        } else {
            CU_ASSERT(k.requests < 19);
        }
        swx_fetch_stats st;
        swx_seed_get_stats(&st, sd);
        CU_ASSERT_EQUAL((uint64_t)st.requests, k.requests);
        CU_ASSERT(s.progress_calls > 0);
        CU_ASSERT_TRUE(s.monotonic);
        CU_ASSERT_EQUAL(s.last_done, 19);
        CU_ASSERT_EQUAL(s.failed_calls, 0);
        swx_seed_free(sd);
        /* The same plan into the same file: everything is there already. */
        sd = NULL;
        ro = run_opts(&s);
        CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
        CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, f), 0);
        CU_ASSERT_EQUAL(r.present, 19);
        CU_ASSERT_EQUAL(r.stored, 0);
        CU_ASSERT_TRUE(r.complete);
        swx_seed_get_counts(&k, sd);
        CU_ASSERT_EQUAL(k.requests, 0);
        CU_ASSERT_EQUAL(k.run_done, 0);
        /* A file number the plan does not have. */
        CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 1, f), SWX_EINVAL);
        swx_seed_free(sd);
        swx_seed_plan_free(p);
    }
    swx_area_free(a);
    swx_client_free(c);
}

/* A metadata value of an MBTiles file ("" when missing), and the first bytes
 * of one of its images. */
static void meta_and_magic(const char *file, const char *name, char *value, size_t vcap,
                           uint8_t *magic, size_t mcap)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    value[0] = '\0';
    memset(magic, 0, mcap);
    if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        goto done;
    if (sqlite3_prepare_v2(db, "SELECT value FROM metadata WHERE name = ?", -1, &st, NULL) ==
        SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
            snprintf(value, vcap, "%s", (const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT tile_data FROM tiles LIMIT 1", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        size_t n = (size_t)sqlite3_column_bytes(st, 0);
        memcpy(magic, sqlite3_column_blob(st, 0), n < mcap ? n : mcap);
    }
done:
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void test_run_formats(void)
{
    swx_client *c = client_for(&sim, KEY);
    swx_area *a = bbox("-10,40,5,55");
    struct {
        swx_tile_format f;
        int q;
        const char *meta;
        const char *magic;
    } cases[] = {{SWX_FORMAT_PNG8, 0, "png", "\x89PNG"},
                 {SWX_FORMAT_WEBP, 0, "webp", "RIFF"},
                 {SWX_FORMAT_WEBP, 70, "webp", "RIFF"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int metatile = 1; metatile <= 2; metatile++) {
            swx_seed_opts o = opts(a, 0x3f);
            o.metatile = metatile;
            o.format = cases[k].f;
            o.quality = cases[k].q;
            swx_seed_plan *p = NULL;
            swx_seed *sd = NULL;
            seen s;
            swx_seed_run_opts ro = run_opts(&s);
            CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&p, basic, &o), 0);
            CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
            char name[64];
            snprintf(name, sizeof name, "f%zu-m%d.mbtiles", k, metatile);
            char f[128];
            snprintf(f, sizeof f, "%s", path(name));
            swx_seed_file_result r;
            CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, f), 0);
            CU_ASSERT_EQUAL(r.stored, 19);
            CU_ASSERT_EQUAL(r.failed, 0);
            if (r.failed)
                fprintf(stderr, "  %llu tiles failed: %s\n", (unsigned long long)r.failed, s.why);
            CU_ASSERT_TRUE(r.complete);
            CU_ASSERT_EQUAL(tiles_in(f), 19);
            swx_seed_counts kc;
            swx_seed_get_counts(&kc, sd);
            CU_ASSERT(kc.bytes_received > 0 && kc.bytes_stored > 0);
            swx_seed_free(sd);
            char v[64];
            uint8_t magic[8];
            meta_and_magic(f, "format", v, sizeof v, magic, sizeof magic);
            CU_ASSERT_STRING_EQUAL(v, cases[k].meta);
            CU_ASSERT(memcmp(magic, cases[k].magic, 4) == 0);
            /* The same encoding continues the file; another is refused. */
            sd = NULL;
            ro = run_opts(&s);
            CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
            CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, f), 0);
            CU_ASSERT_EQUAL(r.present, 19);
            swx_seed_free(sd);
            swx_seed_plan_free(p);
            o.format = cases[k].f == SWX_FORMAT_PNG8 ? SWX_FORMAT_WEBP : SWX_FORMAT_PNG8;
            o.quality = 0;
            CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&p, basic, &o), 0);
            sd = NULL;
            ro = run_opts(&s);
            CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
            CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, f), SWX_EINVAL);
            CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "encoding"));
            swx_seed_get_counts(&kc, sd);
            CU_ASSERT_EQUAL(kc.requests, 0);
            swx_seed_free(sd);
            swx_seed_plan_free(p);
        }
    /* A file of the service's PNG is never continued as png8, nor png8 as png. */
    swx_seed_opts o = opts(a, 0x3f);
    o.format = SWX_FORMAT_PNG8;
    swx_seed_plan *p = NULL;
    swx_seed *sd = NULL;
    seen s;
    swx_seed_run_opts ro = run_opts(&s);
    swx_seed_file_result r;
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&p, basic, &o), 0);
    CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
    CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, path("m1.mbtiles")), SWX_EINVAL);
    swx_seed_free(sd);
    swx_seed_plan_free(p);
    o.format = SWX_FORMAT_PNG;
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&p, basic, &o), 0);
    sd = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
    CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, path("f0-m1.mbtiles")), SWX_EINVAL);
    swx_seed_free(sd);
    swx_seed_plan_free(p);
    /* Qualities only where they apply. */
    o.format = SWX_FORMAT_PNG8;
    o.quality = 80;
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL);
    o.format = SWX_FORMAT_WEBP;
    o.quality = 101;
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL);
    swx_area_free(a);
    swx_client_free(c);
}

static void test_run_stopped(void)
{
    swx_client *c = client_for(&sim, KEY);
    swx_area *a = bbox("-10,40,5,55");
    swx_seed_opts o = opts(a, 0x3f);
    swx_seed_plan *p = NULL;
    swx_seed *sd = NULL;
    seen s;
    swx_seed_run_opts ro = run_opts(&s);
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&p, basic, &o), 0);
    /* Stopped before the first request: nothing sent, no file left. */
    s.stop_after = 0;
    CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
    swx_seed_file_result r;
    CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, path("stopped.mbtiles")), 0);
    CU_ASSERT_FALSE(r.complete);
    swx_seed_counts k;
    swx_seed_get_counts(&k, sd);
    CU_ASSERT_EQUAL(k.requests, 0);
    CU_ASSERT_NOT_EQUAL(access(path("stopped.mbtiles"), F_OK), 0);
    swx_seed_free(sd);
    /* Stopped after some tiles: those under way are stored, the file is
     * valid, and another seed finishes it. */
    sd = NULL;
    ro = run_opts(&s);
    s.stop_after = 2;
    ro.in_flight = 1;
    CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
    CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, path("half.mbtiles")), 0);
    CU_ASSERT_FALSE(r.complete);
    long half = tiles_in(path("half.mbtiles"));
    CU_ASSERT(half >= 2 && half < 19);
    CU_ASSERT_EQUAL((long)r.stored, half);
    swx_seed_free(sd);
    sd = NULL;
    ro = run_opts(&s);
    CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
    CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, path("half.mbtiles")), 0);
    CU_ASSERT_TRUE(r.complete);
    CU_ASSERT_EQUAL((long)r.present, half);
    CU_ASSERT_EQUAL(r.stored + r.present, 19);
    CU_ASSERT_EQUAL(tiles_in(path("half.mbtiles")), 19);
    swx_seed_free(sd);
    swx_seed_plan_free(p);
    swx_area_free(a);
    swx_client_free(c);
}

static void test_run_failures(void)
{
    /* Every GetMap answers 503 and the client does not retry: each tile is
     * reported failed once, the seed itself goes on and ends. */
    swx_client *c = client_for(&faulty, KEY);
    swx_caps *caps = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_wms_get_caps(&caps, c, "basic"), 0);
    swx_area *a = bbox("-10,40,5,55");
    swx_seed_opts o = opts(a, 0x0f); /* zooms 0-3 */
    swx_seed_plan *p = NULL;
    swx_seed *sd = NULL;
    seen s;
    swx_seed_run_opts ro = run_opts(&s);
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&p, caps, &o), 0);
    uint64_t n = swx_seed_plan_tiles(p, 0, -1);
    CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
    swx_seed_file_result r;
    CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, path("failed.mbtiles")), 0);
    CU_ASSERT_EQUAL(r.failed, n);
    CU_ASSERT_EQUAL(r.stored, 0);
    CU_ASSERT_FALSE(r.complete);
    CU_ASSERT_EQUAL((uint64_t)s.failed_tiles, n);
    CU_ASSERT_EQUAL((uint64_t)s.failed_calls, n);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.why, "503"));
    swx_seed_free(sd);
    swx_seed_plan_free(p);
    swx_caps_free(caps);
    swx_area_free(a);
    swx_client_free(c);
}

static void test_run_permanent_error(void)
{
    /* A rejected key stops the seed at its first answer; the file it created
     * holds nothing and is removed; the seed stays stopped. */
    swx_client *c = client_for(&sim, "wrong-key");
    swx_area *a = bbox("-10,40,5,55");
    swx_seed_opts o = opts(a, 0x3f);
    swx_seed_plan *p = NULL;
    swx_seed *sd = NULL;
    seen s;
    swx_seed_run_opts ro = run_opts(&s);
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&p, basic, &o), 0);
    CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
    swx_seed_file_result r;
    CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, path("denied.mbtiles")), SWX_EAUTH);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "401"));
    CU_ASSERT_PTR_NULL(strstr(swx_error_last(), "wrong-key"));
    CU_ASSERT_NOT_EQUAL(access(path("denied.mbtiles"), F_OK), 0);
    CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 0, path("denied.mbtiles")), SWX_EAUTH);
    swx_seed_free(sd);
    /* Bad run options are refused. */
    ro.in_flight = 1000;
    sd = NULL;
    CU_ASSERT_EQUAL(swx_seed_new(&sd, c, p, &ro), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(sd);
    swx_seed_plan_free(p);
    swx_area_free(a);
    swx_client_free(c);
}

/* ---- voyages ---- */

/* A voyage's plan: each file has the area of its valid time's stretch, the
 * times after arrival are left out, and a seeded file holds exactly its
 * area's tiles. */
static void test_voyage_plan(void)
{
    swx_area *a = bbox("-10,40,5,55");
    swx_seed_opts o = opts(a, 0x1f8); /* zooms 3-8 */
    o.times = "all";
    swx_seed_plan *all = NULL, *p = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&all, basic, &o), 0);
    size_t n = swx_seed_plan_time_count(all);
    CU_ASSERT_FATAL(n >= 4);
    int64_t *t = malloc(n * sizeof *t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (size_t i = 0; i < n; i++)
        t[i] = swx_seed_plan_time(all, i);
    const char *route = "lat,lon\n45,-8\n46,-4\n47,0\n";
    swx_voyage *v = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_voyage_from_route(&v, route, strlen(route)), 0);
    /* Arriving, at the latest, before valid time k, the first reachable at
     * 20 knots or less. */
    double len = swx_voyage_length(v), kn = 0;
    for (size_t k = 2; k + 1 < n && !(kn > 0 && kn <= 20); k++)
        kn = len / ((double)(t[k] - t[0]) * 0.9) / SWX_KNOT_MPS;
    CU_ASSERT_FATAL(kn > 0 && kn <= 20);
    CU_ASSERT_EQUAL_FATAL(swx_voyage_set_speed(v, t[0], kn, kn * 1.5), 0);
    o.voyage = v;
    o.area = NULL;
    o.buffer_m = 20 * SWX_NM_M;
    CU_ASSERT_EQUAL_FATAL(swx_seed_plan_new(&p, basic, &o), 0);
    size_t kept = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        swx_area *va = NULL;
        CU_ASSERT_EQUAL_FATAL(swx_voyage_area(&va, v, t, n, i, o.buffer_m), 0);
        if (!va)
            continue;
        CU_ASSERT_EQUAL(swx_seed_plan_time(p, kept), t[i]);
        for (int z = 3; z <= 8; z++) {
            uint64_t c = 0;
            CU_ASSERT_EQUAL(swx_area_count(&c, va, z), 0);
            CU_ASSERT_EQUAL(swx_seed_plan_tiles(p, kept, z), c);
            total += c;
        }
        swx_area_free(va);
        kept++;
    }
    CU_ASSERT(kept >= 2 && kept < n); /* the last times are after arrival */
    CU_ASSERT_EQUAL(swx_seed_plan_file_count(p), kept);
    CU_ASSERT_EQUAL(swx_seed_plan_time_count(p), kept);
    CU_ASSERT_EQUAL(swx_seed_plan_total(p), total);
    CU_ASSERT(swx_seed_plan_tiles(p, 0, -1) < swx_seed_plan_tiles(all, 0, -1));
    CU_ASSERT_EQUAL(swx_seed_plan_tiles(p, kept, -1), 0);

    /* The second file, seeded: exactly its plan's tiles. */
    swx_client *c = client_for(&sim, KEY);
    swx_seed *sd = NULL;
    seen s;
    swx_seed_run_opts ro = run_opts(&s);
    CU_ASSERT_EQUAL_FATAL(swx_seed_new(&sd, c, p, &ro), 0);
    swx_seed_counts k;
    swx_seed_get_counts(&k, sd);
    CU_ASSERT_EQUAL(k.total, total);
    swx_seed_file_result r;
    CU_ASSERT_EQUAL(swx_seed_file(&r, sd, 1, path("voyage.mbtiles")), 0);
    CU_ASSERT(r.complete);
    CU_ASSERT_EQUAL(r.tiles, swx_seed_plan_tiles(p, 1, -1));
    CU_ASSERT_EQUAL((uint64_t)tiles_in(path("voyage.mbtiles")), swx_seed_plan_tiles(p, 1, -1));
    swx_seed_free(sd);
    swx_client_free(c);
    swx_seed_plan_free(p);
    p = NULL;

    /* A voyage after the last valid time is not found. */
    CU_ASSERT_EQUAL(swx_voyage_set_speed(v, t[n - 1] + 3600, kn, kn), 0);
    CU_ASSERT_EQUAL(swx_seed_plan_new(&p, basic, &o), SWX_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "is outside the valid times of layer"));
    CU_ASSERT_PTR_NULL(p);
    o.buffer_m = -1;
    CU_ASSERT_EQUAL(swx_seed_opts_check(&o), SWX_EINVAL);
    swx_voyage_free(v);
    swx_seed_plan_free(all);
    swx_area_free(a);
    free(t);
}

int main(void)
{
    const char *args[] = {"--key", KEY, NULL};
    const char *fault_args[] = {"--key", KEY, "--p5xx", "1", "--faults-on", "getmap", NULL};
    snprintf(dir, sizeof dir, "/tmp/seawx-test-seed.XXXXXX");
    if (!mkdtemp(dir) || cu_sim_start(&sim, args))
        return 1;
    if (cu_sim_start(&faulty, fault_args)) {
        cu_sim_stop(&sim);
        return 1;
    }
    swx_client_opts co = {0};
    co.base_url = sim.base_url;
    co.api_key = KEY;
    swx_client *c = NULL;
    if (swx_client_new(&c, &co) || swx_wms_get_caps(&basic, c, "basic") ||
        swx_wms_get_caps(&upper, c, "upper-air")) {
        fprintf(stderr, "test_seed: capabilities: %s\n", swx_error_last());
        cu_sim_stop(&faulty);
        cu_sim_stop(&sim);
        return 1;
    }
    swx_client_free(c);
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("seed", NULL, NULL);
    CU_add_test(s, "options checked before any request", test_opts_check);
    CU_add_test(s, "plan: tiles and requests per zoom", test_plan_counts);
    CU_add_test(s, "plan: runs in both forms, times, what is valid", test_plan_runs_and_times);
    CU_add_test(s, "plan: a layer without EPSG:3857 is warped", test_plan_warped);
    CU_add_test(s, "run: counts, callbacks, resume", test_run_and_resume);
    CU_add_test(s, "run: png8 and webp, metatiles, one encoding per file", test_run_formats);
    CU_add_test(s, "run: stopped, then finished", test_run_stopped);
    CU_add_test(s, "run: failed tiles reported, the seed goes on", test_run_failures);
    CU_add_test(s, "run: a permanent error stops the seed", test_run_permanent_error);
    CU_add_test(s, "voyage: one area per valid time, late times left out", test_voyage_plan);
    int rc = cu_run();
    swx_caps_free(basic);
    swx_caps_free(upper);
    cu_sim_stop(&faulty);
    cu_sim_stop(&sim);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}

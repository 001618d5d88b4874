/* test_package_build.c: building a voyage package (lib/voyage/package_build.c)
 * against seawx-sim on a fixed clock, its access log counting the GetMaps:
 * a first build holds one MBTiles file per valid time with the tiles its
 * plan counts (read back with SQLite), the route, manifest and project, its
 * size the sum of its files, behind a link to its version folder; building
 * again copies every file and asks nothing, keeps the version before and
 * removes older ones; a budget cuts the package to a prefix of its times and
 * is never exceeded; a stopped build leaves PATH as it was and the next one
 * continues it; a rejected key and a path in the way leave nothing behind. */
#define _GNU_SOURCE
#include "cu_support.h"

#include "package_int.h"
#include "seawx/error.h"
#include "seawx/package.h"
#include "seawx/voyage.h"
#include "seawx/wms.h"
#include "seawx/wms_caps.h"

#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KEY "package-build-key"
#define NOW "2026-03-02T11:00:00Z"
#define DEPART "2026-03-02T13:00:00Z"
/* About 77 nm south-west off Portugal: under 8 hours at 10 kn. */
#define ROUTE "lat,lon\n36,-14\n35,-15\n"

static cu_voyage_bench vb;

static swx_client *client(const char *key)
{
    return cu_client(vb.sim.base_url, key, NULL);
}

static int setup(void)
{
    return cu_voyage_bench_start(&vb, "package", KEY, NOW, ROUTE, DEPART, 10);
}

static int teardown(void)
{
    return cu_voyage_bench_stop(&vb);
}

static const char *in_dir(const char *name)
{
    static char p[4][160];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", vb.dir, name);
    return p[k];
}

/* GetMaps in the access log, once it holds at least `want`. */
static long getmaps(long want)
{
    return cu_log_count(vb.access_log, "request=GetMap&", want);
}

/* A package of swh at zooms 3-4 at path. */
static swx_package_layer swh;
static swx_package *package(const char *path, uint64_t budget)
{
    CU_ASSERT_EQUAL_FATAL(swx_package_layer_parse(&swh, "swh:zoom=3-4:format=png"), 0);
    swx_package_opts o = {.bundle = "maritime",
                          .path = path,
                          .voyage = vb.voyage,
                          .buffer_m = 10 * 1852.0,
                          .layers = &swh,
                          .nlayers = 1,
                          .tile_size = 256,
                          .budget = budget,
                          .now = cu_time(NOW),
                          /* the project's land is test_qgis_package's */
                          .gshhg = "/nonexistent/gshhg"};
    swx_package *p = NULL;
    int rc = swx_package_new(&p, vb.caps, &o);
    if (rc)
        fprintf(stderr, "\n  package: %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return p;
}

/* Tiles file f of p's layer 0 has at zooms 3 and 4, by its plan. */
static uint64_t plan_tiles(const swx_package *p, size_t f)
{
    size_t first;
    const swx_seed_plan *sp = swx_package_plan(p, 0, &first);
    return swx_seed_plan_tiles(sp, first + f, 3) + swx_seed_plan_tiles(sp, first + f, 4);
}

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

/* The name of file f: swh-YYYYMMDDTHHMMSSZ.mbtiles. */
static void file_name(char *out, size_t n, const swx_package *p, size_t f)
{
    char iso[32];
    int64_t t = swx_package_file_time(p, 0, f);
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(iso, sizeof iso, "%Y%m%dT%H%M%SZ", &tm);
    snprintf(out, n, "swh-%s.mbtiles", iso);
}

/* Regular files in folder and their bytes. */
static size_t folder_files(const char *folder, uint64_t *bytes)
{
    DIR *d = opendir(folder);
    size_t n = 0;
    *bytes = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        char p[512];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", folder, e->d_name);
        if (lstat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            n++;
            *bytes += (uint64_t)st.st_size;
        }
    }
    closedir(d);
    return n;
}

static int is_link_to(const char *path, const char *target)
{
    char got[256];
    ssize_t n = readlink(path, got, sizeof got - 1);
    if (n < 0)
        return 0;
    got[n] = '\0';
    if (strcmp(got, target))
        fprintf(stderr, "\n  %s -> %s, not %s\n", path, got, target);
    return strcmp(got, target) == 0;
}

typedef struct seen {
    uint64_t total, done, calls, regressed;
    uint64_t fetched;
    uint64_t stop_after; /* stop once this many tiles are stored; 0: never */
} seen;

static void on_progress(void *ud, const swx_package_progress *pr)
{
    seen *s = ud;
    if (s->calls && (pr->done < s->done || pr->total != s->total))
        s->regressed++;
    s->total = pr->total;
    s->done = pr->done;
    s->fetched = pr->fetched;
    s->calls++;
}

static int stop_when(void *ud)
{
    seen *s = ud;
    return s->stop_after && s->fetched >= s->stop_after;
}

/* GetMaps the builds of this program started: the stand-in logs a request
 * after it answered it, so a count of its log taken right after a build may
 * miss the last ones; a count that waits for these sees them all. */
static long sent;

static int build(swx_package_result *res, swx_package *p, const char *key, seen *s)
{
    swx_client *c = client(key);
    swx_package_run_opts o = {.in_flight = 2, .progress = on_progress, .stop = stop_when, .ud = s};
    int rc = swx_package_build(res, p, c, &o);
    sent += (long)res->requests;
    swx_client_free(c);
    return rc;
}

static void test_first_build(void)
{
    const char *path = in_dir("voyage");
    swx_package *p = package(path, 0);
    size_t nf = swx_package_file_count(p, 0);
    /* 13:00 to 21:00: 77 nm at 10 kn arrive at 20:44, in 21:00's window. */
    CU_ASSERT(nf >= 9);
    uint64_t want_tiles = 0;
    for (size_t f = 0; f < nf; f++)
        want_tiles += plan_tiles(p, f);
    long before = getmaps(0);
    swx_package_result res;
    seen s = {0};
    int rc = build(&res, p, KEY, &s);
    if (rc)
        fprintf(stderr, "\n  build: %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(res.version, 1);
    CU_ASSERT_EQUAL(res.files, nf);
    CU_ASSERT_EQUAL(res.tiles, want_tiles);
    CU_ASSERT_EQUAL(res.fetched, want_tiles);
    CU_ASSERT_EQUAL(res.failed, 0);
    CU_ASSERT_EQUAL(res.copied, 0);
    CU_ASSERT_EQUAL(res.shared, 0);
    CU_ASSERT_EQUAL(res.cut, 0);
    CU_ASSERT_EQUAL(res.interrupted, 0);
    CU_ASSERT_EQUAL(res.complete_times, nf);
    /* One GetMap a tile, and the service saw each. */
    CU_ASSERT_EQUAL(res.requests, want_tiles);
    CU_ASSERT_EQUAL(getmaps(before + (long)want_tiles) - before, (long)want_tiles);
    /* Progress counted up to every tile, never back. */
    CU_ASSERT(s.calls > 0);
    CU_ASSERT_EQUAL(s.regressed, 0);
    CU_ASSERT_EQUAL(s.total, want_tiles);
    CU_ASSERT_EQUAL(s.done, want_tiles);

    /* PATH is a link to the version folder, which holds every file. */
    CU_ASSERT(is_link_to(path, ".voyage.v1"));
    const char *v1 = in_dir(".voyage.v1");
    for (size_t f = 0; f < nf; f++) {
        char name[64], fp[256];
        file_name(name, sizeof name, p, f);
        snprintf(fp, sizeof fp, "%s/%s", v1, name);
        long got = tiles_in(fp);
        if (got != (long)plan_tiles(p, f))
            fprintf(stderr, "\n  %s: %ld tiles, not %llu\n", name, got,
                    (unsigned long long)plan_tiles(p, f));
        CU_ASSERT_EQUAL(got, (long)plan_tiles(p, f));
    }
    const char *own[] = {"route.geojson", "manifest.json", "project.qgs"};
    for (size_t i = 0; i < 3; i++) {
        char fp[256];
        snprintf(fp, sizeof fp, "%s/%s", v1, own[i]);
        CU_ASSERT_EQUAL(access(fp, R_OK), 0);
    }
    /* Its size is the sum of its files, and there are no others. */
    uint64_t bytes = 0;
    CU_ASSERT_EQUAL(folder_files(v1, &bytes), nf + 3);
    CU_ASSERT_EQUAL(res.bytes, bytes);
    /* No folder of the build left beside it. */
    CU_ASSERT_NOT_EQUAL(access(in_dir(".voyage.v1.part"), F_OK), 0);
    CU_ASSERT_NOT_EQUAL(access(in_dir(".voyage.lock"), F_OK), 0);
    swx_package_free(p);
}

static void test_build_again(void)
{
    const char *path = in_dir("voyage");
    swx_package *p = package(path, 0);
    size_t nf = swx_package_file_count(p, 0);
    long before = getmaps(0);
    swx_package_result res;
    seen s = {0};
    CU_ASSERT_EQUAL_FATAL(build(&res, p, KEY, &s), 0);
    CU_ASSERT_EQUAL(res.version, 2);
    CU_ASSERT_EQUAL(res.copied, nf);
    CU_ASSERT_EQUAL(res.files, nf);
    CU_ASSERT_EQUAL(res.fetched, 0);
    CU_ASSERT_EQUAL(res.requests, 0);
    CU_ASSERT(is_link_to(path, ".voyage.v2"));
    CU_ASSERT_EQUAL(access(in_dir(".voyage.v1"), F_OK), 0); /* kept for its readers */
    /* The third keeps the second and removes the first. */
    CU_ASSERT_EQUAL_FATAL(build(&res, p, KEY, &s), 0);
    CU_ASSERT_EQUAL(res.version, 3);
    CU_ASSERT_EQUAL(res.requests, 0);
    CU_ASSERT(is_link_to(path, ".voyage.v3"));
    CU_ASSERT_EQUAL(access(in_dir(".voyage.v2"), F_OK), 0);
    CU_ASSERT_NOT_EQUAL(access(in_dir(".voyage.v1"), F_OK), 0);
    CU_ASSERT_EQUAL(getmaps(before) - before, 0);
    swx_package_free(p);
}

static void test_budget(void)
{
    /* Half of what the whole package takes. */
    swx_package *whole = package(in_dir("voyage"), 0);
    swx_package_result res;
    seen s = {0};
    CU_ASSERT_EQUAL_FATAL(build(&res, whole, KEY, &s), 0);
    uint64_t full = res.bytes;
    size_t nf = swx_package_file_count(whole, 0);
    swx_package_free(whole);

    const char *path = in_dir("budget");
    swx_package *p = package(path, full / 2);
    s = (seen){0};
    int rc = build(&res, p, KEY, &s);
    if (rc)
        fprintf(stderr, "\n  budget: %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(res.cut, 1);
    CU_ASSERT(res.bytes <= full / 2);
    CU_ASSERT(res.complete_times >= 1);
    CU_ASSERT(res.complete_times < nf);
    CU_ASSERT(res.files <= nf);
    CU_ASSERT(res.tiles < s.total);
    char want[128];
    snprintf(want, sizeof want, "the budget of %llu bytes stopped the package before swh",
             (unsigned long long)(full / 2));
    CU_ASSERT_PTR_NOT_NULL(strstr(res.cut_line, want));
    /* What the package holds: every valid time complete up to the cut. */
    uint64_t bytes = 0;
    CU_ASSERT_EQUAL(folder_files(in_dir(".budget.v1"), &bytes), res.files + 3);
    CU_ASSERT_EQUAL(res.bytes, bytes);
    for (size_t f = 0; f < res.complete_times; f++) {
        char name[64], fp[256];
        file_name(name, sizeof name, p, f);
        snprintf(fp, sizeof fp, "%s/%s", in_dir(".budget.v1"), name);
        CU_ASSERT_EQUAL(tiles_in(fp), (long)plan_tiles(p, f));
    }
    swx_package_free(p);
}

static void test_stop_and_continue(void)
{
    const char *path = in_dir("stopped");
    swx_package *p = package(path, 0);
    swx_package_result res;
    seen s = {.stop_after = 3};
    CU_ASSERT_EQUAL(build(&res, p, KEY, &s), SWX_ECANCEL);
    CU_ASSERT_EQUAL(res.interrupted, 1);
    CU_ASSERT(res.requests >= 3);
    uint64_t stored = s.fetched;
    CU_ASSERT(stored >= 3);
    struct stat st;
    CU_ASSERT_NOT_EQUAL(lstat(path, &st), 0); /* no package yet */
    CU_ASSERT_EQUAL(access(in_dir(".stopped.v1.part/resume.json"), R_OK), 0);
    /* The next build continues: it fetches at most what was missing, and
     * less than every tile. */
    s = (seen){0};
    CU_ASSERT_EQUAL_FATAL(build(&res, p, KEY, &s), 0);
    CU_ASSERT(is_link_to(path, ".stopped.v1"));
    CU_ASSERT(res.fetched < res.tiles);
    CU_ASSERT(res.fetched + stored >= res.tiles);
    CU_ASSERT_EQUAL(res.files, swx_package_file_count(p, 0));
    CU_ASSERT_EQUAL(res.failed, 0);
    CU_ASSERT_NOT_EQUAL(access(in_dir(".stopped.v1.part"), F_OK), 0);
    swx_package_free(p);
}

static void test_refused(void)
{
    /* A rejected key: nothing left behind. */
    const char *path = in_dir("denied");
    swx_package *p = package(path, 0);
    swx_package_result res;
    seen s = {0};
    CU_ASSERT_EQUAL(build(&res, p, "wrong-key", &s), SWX_EAUTH);
    struct stat st;
    CU_ASSERT_NOT_EQUAL(lstat(path, &st), 0);
    CU_ASSERT_NOT_EQUAL(access(in_dir(".denied.v1.part"), F_OK), 0);
    CU_ASSERT_NOT_EQUAL(access(in_dir(".denied.v1"), F_OK), 0);
    swx_package_free(p);

    /* A file in the way: refused before any GetMap, and left as it was. */
    path = in_dir("in_the_way");
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("charts\n", f);
    fclose(f);
    p = package(path, 0);
    long before = getmaps(sent); /* every earlier GetMap in the log first */
    CU_ASSERT_EQUAL(build(&res, p, KEY, &s), SWX_EINVAL);
    CU_ASSERT_EQUAL(res.requests, 0);
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT(S_ISREG(st.st_mode) && st.st_size == 7);
    CU_ASSERT_EQUAL(getmaps(before) - before, 0);
    swx_package_free(p);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("package_build", setup, teardown);
    CU_add_test(s, "a first build: files, tiles, GetMaps, size, link", test_first_build);
    CU_add_test(s, "built again: copied, nothing asked, versions kept and removed",
                test_build_again);
    CU_add_test(s, "a budget cuts to a prefix of the times, never over", test_budget);
    CU_add_test(s, "stopped, PATH as it was; continued", test_stop_and_continue);
    CU_add_test(s, "a rejected key and a path in the way leave nothing", test_refused);
    return cu_run();
}

/* test_shard.c: the partition of a seed into shards (lib/tiles/shard.c) and
 * the merge of shard files (lib/tiles/merge.c).
 *
 * Partition: for bboxes (one across 180), a polygon and a route across 180,
 * metatiles 1, 2, 4 and 8 and N in {1, 2, 3, 7, 16}: every block belongs to
 * exactly one shard (disjoint, and the union is the area's blocks), the
 * shards' tiles add up to the area's, N = 1 is the whole area, and the
 * largest shard is within 10 % of the mean. Merge: states, refusals, and the
 * merged file against files built by hand. */
#include "cu_support.h"

#include "area.h"
#include "mbtiles.h"
#include "shard.h"
#include "tile.h"

#include "seawx/error.h"
#include "seawx/shard.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static void test_parse(void)
{
    int k, n;
    CU_ASSERT_EQUAL(swx_shard_parse(&k, &n, "3/8"), 0);
    CU_ASSERT(k == 3 && n == 8);
    CU_ASSERT_EQUAL(swx_shard_parse(&k, &n, "1/1"), 0);
    const char *bad[] = {"",     "3",    "0/4",     "5/4",  "3/0", "a/4",
                         "3/4x", "-1/4", "3/10001", "3//4", NULL};
    for (int i = 0; bad[i]; i++) {
        CU_ASSERT_EQUAL(swx_shard_parse(&k, &n, bad[i]), SWX_EINVAL);
        CU_ASSERT(k == 0 && n == 0);
    }
    CU_ASSERT_PTR_NOT_NULL(strstr((swx_shard_parse(&k, &n, "x"), swx_error_last()), "K/N"));
}

/* Checks the partition of area a at zooms, metatile mt, into n shards: the
 * whole partition (swx_shard_bounds) and, against it, the parts that shards
 * 1, n / 2 + 1 and n compute alone (swx_shard_part_new). */
static void check_partition(const swx_area *a, uint32_t zooms, int mt, int n, const char *what)
{
    uint64_t lo[17], tiles[16], counted[16] = {0};
    uint64_t area_tiles = 0, shard_tiles = 0, blocks = 0, bad = 0, largest = 0;
    int deep = 0, ks[3] = {1, n / 2 + 1, n};
    swx_shard_part *parts[3] = {NULL, NULL, NULL};
    CU_ASSERT_EQUAL_FATAL(swx_shard_bounds(lo, tiles, NULL, &deep, a, zooms, mt, 0, n), 0);
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL_FATAL(swx_shard_part_new(&parts[i], a, zooms, mt, ks[i], n), 0);
    for (int i = 0; i < n; i++)
        CU_ASSERT(lo[i] <= lo[i + 1]); /* ranges in order: disjoint */
    CU_ASSERT_EQUAL(lo[n], UINT64_MAX);
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
        if (!(zooms & (1u << z)))
            continue;
        uint64_t c = 0;
        CU_ASSERT_EQUAL(swx_area_count(&c, a, z), 0);
        area_tiles += c;
        swx_tile_iter *it = NULL;
        swx_tile_block b;
        CU_ASSERT_EQUAL_FATAL(swx_tile_iter_new(&it, a, z, mt), 0);
        while (swx_tile_iter_next(&b, it) == 1) {
            int sh = swx_shard_of(lo, n, deep, mt, b.z, b.x0, b.y0);
            blocks++;
            if (sh < 0 || sh >= n) {
                bad++;
                continue;
            }
            for (int i = 0; i < 3; i++)
                if (swx_shard_part_has(parts[i], b.z, b.x0, b.y0) != (sh == ks[i] - 1))
                    bad++;
            counted[sh] += (uint64_t)__builtin_popcountll(b.mask);
        }
        swx_tile_iter_free(it);
    }
    for (int k = 0; k < n; k++) {
        shard_tiles += counted[k];
        CU_ASSERT_EQUAL(counted[k], tiles[k]);
        largest = tiles[k] > largest ? tiles[k] : largest;
    }
    for (int i = 0; i < 3; i++) {
        uint64_t per_zoom = 0;
        for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
            per_zoom += parts[i]->per_zoom[z];
        CU_ASSERT_EQUAL(parts[i]->tiles, tiles[ks[i] - 1]);
        CU_ASSERT_EQUAL(per_zoom, parts[i]->tiles);
        swx_shard_part_free(parts[i]);
    }
    double mean = (double)area_tiles / n;
    if (bad || shard_tiles != area_tiles || (double)largest > 1.10 * mean)
        printf("\n  %s, metatile %d, %d shards: %llu blocks, %llu misplaced, %llu of %llu tiles, "
               "largest %.3f of the mean",
               what, mt, n, (unsigned long long)blocks, (unsigned long long)bad,
               (unsigned long long)shard_tiles, (unsigned long long)area_tiles, largest / mean);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(shard_tiles, area_tiles);
    CU_ASSERT((double)largest <= 1.10 * mean);
    if (n == 1) /* one shard is the whole seed */
        CU_ASSERT_EQUAL(tiles[0], area_tiles);
}

/* Every metatile and shard count. */
static void check_all(const swx_area *a, uint32_t zooms, const char *what)
{
    static const int ns[] = {1, 2, 3, 7, 16};
    for (int mt = 1; mt <= 8; mt *= 2)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            check_partition(a, zooms, mt, ns[i], what);
}

static void test_bboxes(void)
{
    swx_area *a = NULL;
    uint32_t z;
    CU_ASSERT_EQUAL_FATAL(swx_zoom_list_parse(&z, "2-9"), 0);
    CU_ASSERT_EQUAL_FATAL(swx_area_from_bbox_text(&a, "-30,30,30,65"), 0);
    check_all(a, z, "bbox -30,30,30,65");
    swx_area_free(a);
    CU_ASSERT_EQUAL_FATAL(swx_area_from_bbox_text(&a, "150,-40,-150,20"), 0);
    check_all(a, z, "bbox across 180");
    swx_area_free(a);
    /* A few tiles only: more shards than blocks leaves some empty, none shared. */
    CU_ASSERT_EQUAL_FATAL(swx_area_from_bbox_text(&a, "0,0,10,10"), 0);
    for (int k = 1; k <= 16; k++) {
        swx_shard_part *p = NULL;
        CU_ASSERT_EQUAL_FATAL(swx_shard_part_new(&p, a, 1u << 3, 8, k, 16), 0);
        CU_ASSERT(p->tiles <= 1);
        swx_shard_part_free(p);
    }
    swx_area_free(a);
}

static void test_polygon(void)
{
    size_t len;
    char *text = cu_fixture("seed/area_north_sea.geojson", &len);
    swx_area *a = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_area_from_geojson_polygons(&a, text, len), 0);
    uint32_t z;
    CU_ASSERT_EQUAL_FATAL(swx_zoom_list_parse(&z, "4-12"), 0);
    check_all(a, z, "North Sea polygon");
    swx_area_free(a);
    free(text);
}

static void test_route(void)
{
    size_t len;
    char *text = cu_fixture("seed/route_180.csv", &len);
    swx_area *a = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_area_from_route(&a, text, len, 150 * SWX_NM_M), 0);
    uint32_t z;
    CU_ASSERT_EQUAL_FATAL(swx_zoom_list_parse(&z, "3-11"), 0);
    check_all(a, z, "route across 180, 150 nm");
    swx_area_free(a);
    free(text);
}

/* Neighbours stay together: at the deepest zoom, each shard's tiles of a
 * square area form few runs of touching tiles (a round robin would scatter
 * them: one run per tile). */
static void test_locality(void)
{
    swx_area *a = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_area_from_bbox_text(&a, "-30,30,30,65"), 0);
    swx_shard_part *p = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_shard_part_new(&p, a, 1u << 8, 1, 2, 4), 0);
    swx_tile_iter *it = NULL;
    swx_tile_block b;
    uint64_t mine = 0, touching = 0;
    CU_ASSERT_EQUAL_FATAL(swx_tile_iter_new(&it, a, 8, 1), 0);
    while (swx_tile_iter_next(&b, it) == 1) {
        if (!swx_shard_part_has(p, 8, b.x0, b.y0))
            continue;
        mine++;
        /* a tile with an east or south neighbour of the same shard */
        if (swx_area_has_tile(a, 8, b.x0 + 1, b.y0) && swx_shard_part_has(p, 8, b.x0 + 1, b.y0))
            touching++;
        else if (swx_area_has_tile(a, 8, b.x0, b.y0 + 1) &&
                 swx_shard_part_has(p, 8, b.x0, b.y0 + 1))
            touching++;
    }
    swx_tile_iter_free(it);
    CU_ASSERT(mine > 0);
    CU_ASSERT(touching >= mine * 9 / 10);
    swx_shard_part_free(p);
    swx_area_free(a);
}

/* ---- merge ---- */

static const char *path(const char *name)
{
    static char p[32][160]; /* a test uses fewer names than this */
    static int i;
    i = (i + 1) % 32;
    snprintf(p[i], sizeof p[i], "%s/%s", dir, name);
    return p[i];
}

/* A shard file: shard "k/n" of request req, tiles (z, x, y, image text),
 * complete or not. */
typedef struct tile_spec {
    int z;
    uint32_t x, y;
    const char *img;
} tile_spec;

static void make_shard(const char *file, const char *shard, const char *req, const tile_spec *tiles,
                       int complete)
{
    swx_mbtiles_kv meta[] = {{"name", "t2m 2026"},     {"format", "png"},
                             {"layer", "sof-d/t2m:K"}, {"time", "2026-01-01T00:00:00Z"},
                             {"shard", shard},         {"partition", SWX_SHARD_PARTITION},
                             {"request", req}};
    swx_mbtiles *m = NULL;
    unlink(file);
    CU_ASSERT_EQUAL_FATAL(swx_mbtiles_open(&m, NULL, file, meta, shard ? 7 : 4, NULL, 0), 0);
    for (int i = 0; tiles && tiles[i].img; i++)
        CU_ASSERT_EQUAL(swx_mbtiles_put(m, tiles[i].z, tiles[i].x, tiles[i].y, tiles[i].img,
                                        strlen(tiles[i].img)),
                        0);
    if (complete)
        CU_ASSERT_EQUAL(swx_mbtiles_meta_set(m, "shard_complete", "1"), 0);
    CU_ASSERT_EQUAL(swx_mbtiles_close(m), 0);
}

static long long query(const char *file, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    long long v = -1;
    if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static void test_merge(void)
{
    static const tile_spec s1[] = {{3, 1, 1, "sea"}, {3, 2, 1, "land"}, {0}};
    static const tile_spec s2[] = {{3, 1, 2, "sea"}, {3, 2, 2, "ice"}, {0}};
    static const tile_spec s3[] = {{4, 0, 0, "sea"}, {0}};
    const char *out = path("merged.mbtiles");
    make_shard(path("a.mbtiles"), "1/3", "r1", s1, 1);
    make_shard(path("b.mbtiles"), "2/3", "r1", s2, 0);
    const char *files[] = {path("a.mbtiles"), path("b.mbtiles"), path("absent.mbtiles")};
    swx_merge *m = NULL;

    /* Shard 2 incomplete, shard 3 missing: named, nothing written. */
    CU_ASSERT_EQUAL_FATAL(swx_merge_open(&m, files, 3, 0), 0);
    CU_ASSERT_EQUAL(swx_merge_shard_count(m), 3);
    const char *where = NULL;
    CU_ASSERT_EQUAL(swx_merge_state(m, 1, &where), SWX_SHARD_OK);
    CU_ASSERT_STRING_EQUAL(where, files[0]);
    CU_ASSERT_EQUAL(swx_merge_state(m, 2, NULL), SWX_SHARD_INCOMPLETE);
    CU_ASSERT_EQUAL(swx_merge_state(m, 3, &where), SWX_SHARD_MISSING);
    CU_ASSERT_PTR_NULL(where);
    CU_ASSERT_EQUAL(swx_merge_bad_count(m), 2);
    CU_ASSERT_EQUAL(swx_merge_write(NULL, NULL, m, out), SWX_EINVAL);
    CU_ASSERT_NOT_EQUAL(access(out, F_OK), 0);
    swx_merge_free(m);

    /* A shard of another request must run again too. */
    make_shard(path("b.mbtiles"), "2/3", "r1", s2, 1);
    make_shard(path("c.mbtiles"), "3/3", "r0", s3, 1);
    const char *all[] = {path("a.mbtiles"), path("b.mbtiles"), path("c.mbtiles")};
    CU_ASSERT_EQUAL_FATAL(swx_merge_open(&m, all, 3, 3), 0);
    CU_ASSERT_EQUAL(swx_merge_state(m, 3, NULL), SWX_SHARD_OTHER);
    CU_ASSERT_EQUAL(swx_merge_bad_count(m), 1);
    swx_merge_free(m);

    /* All there: one file, each image once, no shard rows. */
    make_shard(path("c.mbtiles"), "3/3", "r1", s3, 1);
    CU_ASSERT_EQUAL_FATAL(swx_merge_open(&m, all, 3, 0), 0);
    CU_ASSERT_EQUAL(swx_merge_bad_count(m), 0);
    long long tiles = 0, images = 0;
    CU_ASSERT_EQUAL(swx_merge_write(&tiles, &images, m, out), 0);
    CU_ASSERT_EQUAL(tiles, 5);
    CU_ASSERT_EQUAL(images, 3);
    swx_merge_free(m);
    CU_ASSERT_EQUAL(query(out, "SELECT count(*) FROM tiles"), 5);
    CU_ASSERT_EQUAL(query(out, "SELECT count(*) FROM images"), 3);
    CU_ASSERT_EQUAL(query(out, "SELECT count(*) FROM metadata WHERE name IN ('shard', 'partition',"
                               " 'request', 'shard_complete')"),
                    0);
    CU_ASSERT_EQUAL(query(out, "SELECT count(*) FROM metadata WHERE name = 'layer' AND value = "
                               "'sof-d/t2m:K'"),
                    1);
    CU_ASSERT_EQUAL(query(out, "SELECT count(*) FROM tiles WHERE zoom_level = 3 AND tile_column = "
                               "2 AND tile_row = 5 AND tile_data = CAST('ice' AS BLOB)"),
                    1);
    CU_ASSERT_EQUAL(query(out, "PRAGMA application_id"), SWX_MBTILES_APPLICATION_ID);

    /* Merging again replaces the file. */
    CU_ASSERT_EQUAL_FATAL(swx_merge_open(&m, all, 3, 0), 0);
    CU_ASSERT_EQUAL(swx_merge_write(&tiles, &images, m, out), 0);
    CU_ASSERT_EQUAL(tiles, 5);
    swx_merge_free(m);

    /* Refusals: a count that disagrees, one shard twice, not a shard file,
     * a tile in two shards (the old merged file stays, no temporary left). */
    CU_ASSERT_EQUAL(swx_merge_open(&m, all, 3, 4), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "not of 4"));
    const char *twice[] = {path("a.mbtiles"), path("a.mbtiles")};
    CU_ASSERT_EQUAL(swx_merge_open(&m, twice, 2, 0), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "both hold shard 1/3"));
    make_shard(path("plain.mbtiles"), NULL, NULL, s1, 0);
    const char *plain[] = {path("plain.mbtiles")};
    CU_ASSERT_EQUAL(swx_merge_open(&m, plain, 1, 0), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "not a shard's file"));
    const char *none[] = {path("absent.mbtiles")};
    CU_ASSERT_EQUAL(swx_merge_open(&m, none, 1, 0), SWX_EINVAL);
    static const tile_spec overlap[] = {{3, 1, 1, "other"}, {0}};
    make_shard(path("c.mbtiles"), "3/3", "r1", overlap, 1);
    CU_ASSERT_EQUAL_FATAL(swx_merge_open(&m, all, 3, 0), 0);
    CU_ASSERT_EQUAL(swx_merge_write(NULL, NULL, m, out), SWX_EIO);
    swx_merge_free(m);
    CU_ASSERT_EQUAL(query(out, "SELECT count(*) FROM tiles"), 5);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls %s | grep -c tmp >/dev/null", dir);
    CU_ASSERT_NOT_EQUAL(system(cmd), 0);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/seawx-shard.XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("shard", NULL, NULL);
    CU_add_test(s, "K/N", test_parse);
    CU_add_test(s, "partition of bboxes (one across 180)", test_bboxes);
    CU_add_test(s, "partition of a polygon", test_polygon);
    CU_add_test(s, "partition of a route across 180", test_route);
    CU_add_test(s, "neighbours stay together", test_locality);
    CU_add_test(s, "merge", test_merge);
    int rc = cu_run();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}

/*
 * mbtiles.c: the MBTiles writer on SQLite.
 *
 * Schema (created when missing; an existing file must have it):
 *   metadata (name TEXT PRIMARY KEY, value TEXT)
 *   images   (tile_id TEXT PRIMARY KEY, tile_data BLOB NOT NULL)
 *   map      (zoom_level, tile_column, tile_row, tile_id; PRIMARY KEY the three)
 *   VIEW tiles (zoom_level, tile_column, tile_row, tile_data)
 * Invariant after every commit: each map row's tile_id names an images row
 * (both are written in the same transaction, images first).
 */
#include "mbtiles.h"

#include "seawx/atomicfile.h"
#include "seawx/error.h"
#include "seawx/jsonw.h"
#include "seawx/mbtiles.h"
#include "sha256.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define MBTILES_DEFAULT_BATCH 256
/* A transaction is also committed at the first put this long after it began,
 * so that a slow service's tiles do not wait minutes for a full batch (and a
 * kill loses at most about this much fetching, not a whole batch). */
#define MBTILES_COMMIT_MS 500

struct swx_mbtiles {
    sqlite3 *db;
    char *path;
    sqlite3_stmt *has, *put_image, *put_map;
    int in_tx;
    int pending; /* tiles put in the open transaction */
    int batch;
    int64_t tx_ms; /* when the open transaction began (monotonic ms) */
};

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *const SCHEMA =
    "CREATE TABLE IF NOT EXISTS metadata (name TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE IF NOT EXISTS images (tile_id TEXT PRIMARY KEY, tile_data BLOB NOT NULL);"
    "CREATE TABLE IF NOT EXISTS map (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL,"
    " tile_row INTEGER NOT NULL, tile_id TEXT NOT NULL,"
    " PRIMARY KEY (zoom_level, tile_column, tile_row));"
    "CREATE VIEW IF NOT EXISTS tiles AS SELECT map.zoom_level AS zoom_level,"
    " map.tile_column AS tile_column, map.tile_row AS tile_row, images.tile_data AS tile_data"
    " FROM map JOIN images ON images.tile_id = map.tile_id;";

static int db_fail(swx_mbtiles *m, const char *what)
{
    return swx_error_set(SWX_EIO, "MBTiles file %s: %s: %s", m->path, what,
                         m->db ? sqlite3_errmsg(m->db) : "cannot open");
}

static int exec(swx_mbtiles *m, const char *sql, const char *what)
{
    char *err = NULL;
    if (sqlite3_exec(m->db, sql, NULL, NULL, &err) != SQLITE_OK) {
        int rc = swx_error_set(SWX_EIO, "MBTiles file %s: %s: %s", m->path, what,
                               err ? err : sqlite3_errmsg(m->db));
        sqlite3_free(err);
        return rc;
    }
    return 0;
}

/* The value of one metadata row, or NULL; caller frees. */
static char *meta_get(swx_mbtiles *m, const char *name)
{
    sqlite3_stmt *st = NULL;
    char *v = NULL;
    if (sqlite3_prepare_v2(m->db, "SELECT value FROM metadata WHERE name = ?", -1, &st, NULL) ==
        SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
            v = strdup((const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    return v;
}

static int check_existing(swx_mbtiles *m, const swx_mbtiles_kv *meta, size_t n,
                          const char *const *identity)
{
    sqlite3_stmt *st = NULL;
    int tables = 0;
    if (sqlite3_prepare_v2(m->db,
                           "SELECT count(*) FROM sqlite_master WHERE name IN "
                           "('metadata','images','map','tiles')",
                           -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return swx_error_set(SWX_EINVAL,
                             "%s exists and is not an MBTiles file (%s); choose another output",
                             m->path, sqlite3_errmsg(m->db));
    }
    if (sqlite3_step(st) == SQLITE_ROW)
        tables = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (tables == 0)
        return 0; /* an empty database: take it */
    if (tables != 4)
        return swx_error_set(SWX_EINVAL,
                             "%s exists but is not an MBTiles file of the images/map layout "
                             "seawx writes; choose another output",
                             m->path);
    for (size_t i = 0; identity && identity[i]; i++) {
        const char *want = NULL;
        for (size_t k = 0; k < n; k++)
            if (strcmp(meta[k].name, identity[i]) == 0)
                want = meta[k].value;
        char *have = meta_get(m, identity[i]);
        int same = (!want && !have) || (want && have && strcmp(want, have) == 0);
        if (!same) {
            int rc =
                swx_error_set(SWX_EINVAL,
                              "%s already holds %s '%s', not '%s'; remove it or choose "
                              "another output name",
                              m->path, identity[i], have ? have : "(none)", want ? want : "(none)");
            free(have);
            return rc;
        }
        free(have);
    }
    return 0;
}

int swx_mbtiles_open(swx_mbtiles **out, int *created, const char *path, const swx_mbtiles_kv *meta,
                     size_t n, const char *const *identity, int batch)
{
    struct stat sb;
    char *real = NULL;
    int rc = 0, existed = 0;
    *out = NULL;
    if (created)
        *created = 0;
    swx_mbtiles *m = calloc(1, sizeof *m);
    if (!m || !(m->path = strdup(path))) {
        free(m);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    m->batch = batch > 0 ? batch : MBTILES_DEFAULT_BATCH;
    /* A regular file or none (a link: the file it names); never a device. */
    if ((rc = swx_atomicfile_target(&real, NULL, path, 0, NULL, 0)))
        goto done;
    existed = stat(real, &sb) == 0;
    if (sqlite3_open_v2(real, &m->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        rc = db_fail(m, "cannot open it for writing");
        goto done;
    }
    if (created)
        *created = !existed;
    sqlite3_busy_timeout(m->db, 5000);
    sqlite3_extended_result_codes(m->db, 1);
    /* Reading the schema tells at once whether an existing file is a database. */
    if (existed && (rc = check_existing(m, meta, n, identity)))
        goto done;
    /* DELETE also takes a file an earlier version left in WAL mode back. */
    if ((rc = exec(m, "PRAGMA journal_mode=DELETE; PRAGMA synchronous=NORMAL;",
                   "cannot set the rollback journal")))
        goto done;
    if ((rc = exec(m, "BEGIN IMMEDIATE", "cannot start a transaction")))
        goto done;
    m->in_tx = 1;
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA application_id=%d;", SWX_MBTILES_APPLICATION_ID);
    if ((rc = exec(m, SCHEMA, "cannot create the tables")) ||
        (rc = exec(m, pragma, "cannot set the application id")))
        goto done;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(m->db, "INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)", -1,
                           &st, NULL) != SQLITE_OK) {
        rc = db_fail(m, "cannot write metadata");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if (!meta[i].value)
            continue;
        sqlite3_bind_text(st, 1, meta[i].name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, meta[i].value, -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_DONE) {
            sqlite3_finalize(st);
            rc = db_fail(m, "cannot write metadata");
            goto done;
        }
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    if ((rc = exec(m, "COMMIT", "cannot commit")))
        goto done;
    m->in_tx = 0;
    if (sqlite3_prepare_v2(m->db,
                           "SELECT 1 FROM map WHERE zoom_level = ? AND tile_column = ? AND "
                           "tile_row = ?",
                           -1, &m->has, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(m->db, "INSERT OR IGNORE INTO images (tile_id, tile_data) VALUES (?, ?)",
                           -1, &m->put_image, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(m->db,
                           "INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, "
                           "tile_id) VALUES (?, ?, ?, ?)",
                           -1, &m->put_map, NULL) != SQLITE_OK) {
        rc = db_fail(m, "cannot prepare statements");
        goto done;
    }
done:
    free(real);
    if (rc) {
        if (m->in_tx)
            sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
        m->in_tx = 0;
        swx_mbtiles_close(m);
        return rc;
    }
    *out = m;
    return 0;
}

int swx_mbtiles_has(swx_mbtiles *m, int z, uint32_t x, uint32_t y)
{
    uint32_t row = (uint32_t)((1ull << z) - 1 - y);
    sqlite3_bind_int(m->has, 1, z);
    sqlite3_bind_int64(m->has, 2, x);
    sqlite3_bind_int64(m->has, 3, row);
    int r = sqlite3_step(m->has);
    sqlite3_reset(m->has);
    if (r == SQLITE_ROW)
        return 1;
    if (r == SQLITE_DONE)
        return 0;
    return db_fail(m, "cannot look a tile up");
}

int swx_mbtiles_commit(swx_mbtiles *m)
{
    if (!m->in_tx)
        return 0;
    m->in_tx = 0;
    m->pending = 0;
    return exec(m, "COMMIT", "cannot commit tiles");
}

int swx_mbtiles_put(swx_mbtiles *m, int z, uint32_t x, uint32_t y, const void *data, size_t len)
{
    if (z < 0 || z > 30 || x >= (1ull << z) || y >= (1ull << z) || !data || !len)
        return swx_error_set(SWX_EINVAL, "tile %d/%u/%u is not a valid tile", z, x, y);
    uint8_t digest[SWX_SHA256_LEN];
    char id[SWX_SHA256_HEX_LEN];
    swx_sha256(digest, id, data, len);
    int rc;
    if (!m->in_tx) {
        if ((rc = exec(m, "BEGIN IMMEDIATE", "cannot start a transaction")))
            return rc;
        m->in_tx = 1;
        m->tx_ms = mono_ms();
    }
    sqlite3_bind_text(m->put_image, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_blob64(m->put_image, 2, data, len, SQLITE_STATIC);
    int r = sqlite3_step(m->put_image);
    sqlite3_reset(m->put_image);
    sqlite3_clear_bindings(m->put_image);
    if (r != SQLITE_DONE)
        return db_fail(m, "cannot store a tile image");
    sqlite3_bind_int(m->put_map, 1, z);
    sqlite3_bind_int64(m->put_map, 2, x);
    sqlite3_bind_int64(m->put_map, 3, (int64_t)((1ull << z) - 1 - y));
    sqlite3_bind_text(m->put_map, 4, id, -1, SQLITE_TRANSIENT);
    r = sqlite3_step(m->put_map);
    sqlite3_reset(m->put_map);
    if (r != SQLITE_DONE)
        return db_fail(m, "cannot store a tile");
    if (++m->pending >= m->batch || mono_ms() - m->tx_ms >= MBTILES_COMMIT_MS)
        return swx_mbtiles_commit(m);
    return 0;
}

int swx_mbtiles_meta_set(swx_mbtiles *m, const char *name, const char *value)
{
    sqlite3_stmt *st = NULL;
    int rc = swx_mbtiles_commit(m);
    if (rc)
        return rc;
    if (sqlite3_prepare_v2(m->db, "INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)", -1,
                           &st, NULL) != SQLITE_OK) {
        rc = db_fail(m, "cannot write metadata");
        goto done;
    }
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE)
        rc = db_fail(m, "cannot write metadata");
done:
    sqlite3_finalize(st);
    return rc;
}

int swx_mbtiles_counts(int64_t *tiles, int64_t *images, swx_mbtiles *m)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(m->db,
                           "SELECT (SELECT count(*) FROM map), (SELECT count(*) FROM images)", -1,
                           &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        rc = db_fail(m, "cannot count tiles");
    } else {
        if (tiles)
            *tiles = sqlite3_column_int64(st, 0);
        if (images)
            *images = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return rc;
}

int swx_mbtiles_tile_bytes(const char *path, int z, void (*fn)(void *ud, double bytes), void *ud)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int rc = 0, step;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "SELECT length(images.tile_data) FROM map JOIN images "
                           "ON images.tile_id = map.tile_id WHERE map.zoom_level = ?",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_bind_int(st, 1, z) != SQLITE_OK) {
        rc = swx_error_set(SWX_EIO, "%s: cannot read its tiles: %s", path,
                           db ? sqlite3_errmsg(db) : "out of memory");
        goto done;
    }
    while ((step = sqlite3_step(st)) == SQLITE_ROW)
        fn(ud, (double)sqlite3_column_int64(st, 0));
    if (step != SQLITE_DONE)
        rc = swx_error_set(SWX_EIO, "%s: cannot read its tiles: %s", path, sqlite3_errmsg(db));
done:
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}

int swx_mbtiles_close(swx_mbtiles *m)
{
    int rc = 0;
    if (!m)
        return 0;
    if (m->db) {
        if (m->in_tx)
            rc = swx_mbtiles_commit(m);
        sqlite3_finalize(m->has);
        sqlite3_finalize(m->put_image);
        sqlite3_finalize(m->put_map);
        if (sqlite3_close(m->db) != SQLITE_OK && !rc)
            rc = swx_error_set(SWX_EIO, "MBTiles file %s: cannot close it", m->path);
    }
    free(m->path);
    free(m);
    return rc;
}

/* ---- TileJSON ---- */

/* The rows a TileJSON is made of, each at most MBTILES_META_MAX bytes. */
#define MBTILES_META_MAX 4096
enum { TJ_NAME, TJ_DESC, TJ_ATTR, TJ_BOUNDS, TJ_CENTER, TJ_MINZ, TJ_MAXZ, TJ_FORMAT, TJ_TSZ, TJ_N };
static const char *const tj_rows[TJ_N] = {"name",    "description", "attribution",
                                          "bounds",  "center",      "minzoom",
                                          "maxzoom", "format",      "tile_size"};

/* "a,b,c[,d]" into n finite numbers; 0 or -1. */
static int parse_numbers(double *v, int n, const char *text)
{
    const char *p = text;
    for (int i = 0; i < n; i++) {
        char *end;
        v[i] = strtod(p, &end);
        if (end == p || !isfinite(v[i]))
            return -1;
        while (*end == ' ')
            end++;
        if (i + 1 < n && *end++ != ',')
            return -1;
        p = end;
    }
    return *p ? -1 : 0;
}

int swx_mbtiles_tilejson(FILE *f, const char *path, const char *url)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    swx_jsonw *w = NULL;
    char *val[TJ_N] = {0};
    double b[4], c[3];
    int rc = 0, have_center = 0;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        rc = swx_error_set(SWX_EIO, "%s: cannot open it (%s)", path,
                           db ? sqlite3_errmsg(db) : "out of memory");
        goto done;
    }
    if (sqlite3_prepare_v2(db, "SELECT name, value FROM metadata", -1, &st, NULL) != SQLITE_OK) {
        rc = swx_error_set(SWX_EINVAL, "%s: not an MBTiles file (%s)", path, sqlite3_errmsg(db));
        goto done;
    }
    int r;
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        const char *value = (const char *)sqlite3_column_text(st, 1);
        for (int i = 0; name && value && i < TJ_N; i++) {
            if (strcmp(name, tj_rows[i]) != 0 || val[i])
                continue;
            if (strlen(value) > MBTILES_META_MAX) {
                rc = swx_error_set(SWX_EINVAL, "%s: metadata row %s is longer than %d bytes", path,
                                   name, MBTILES_META_MAX);
                goto done;
            }
            if (!(val[i] = strdup(value))) {
                rc = swx_error_set(SWX_ENOMEM, "out of memory");
                goto done;
            }
        }
    }
    if (r != SQLITE_DONE) {
        rc =
            swx_error_set(SWX_EINVAL, "%s: cannot read its metadata: %s", path, sqlite3_errmsg(db));
        goto done;
    }
    char *end = NULL;
    long minz = val[TJ_MINZ] ? strtol(val[TJ_MINZ], &end, 10) : -1;
    int minz_ok = val[TJ_MINZ] && end != val[TJ_MINZ] && !*end && minz >= 0 && minz <= 30;
    long maxz = val[TJ_MAXZ] ? strtol(val[TJ_MAXZ], &end, 10) : -1;
    int maxz_ok = val[TJ_MAXZ] && end != val[TJ_MAXZ] && !*end && maxz >= minz && maxz <= 30;
    long tsz = val[TJ_TSZ] ? strtol(val[TJ_TSZ], &end, 10) : 256;
    if (!val[TJ_BOUNDS] || parse_numbers(b, 4, val[TJ_BOUNDS]) || !minz_ok || !maxz_ok ||
        (val[TJ_TSZ] && (*end || (tsz != 256 && tsz != 512)))) {
        rc = swx_error_set(SWX_EINVAL,
                           "%s: its metadata lacks valid bounds, minzoom, maxzoom or "
                           "tile_size rows",
                           path);
        goto done;
    }
    have_center = val[TJ_CENTER] && parse_numbers(c, 3, val[TJ_CENTER]) == 0;
    if ((rc = swx_jsonw_new(&w, f, 2)))
        goto done;
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "tilejson");
    swx_jsonw_string(w, "3.0.0");
    swx_jsonw_key(w, "tiles");
    swx_jsonw_array_begin(w);
    swx_jsonw_string(w, url);
    swx_jsonw_array_end(w);
    const int text_rows[] = {TJ_NAME, TJ_DESC, TJ_ATTR, TJ_FORMAT};
    const char *const text_keys[] = {"name", "description", "attribution", "format"};
    for (int i = 0; i < 4; i++)
        if (val[text_rows[i]]) {
            swx_jsonw_key(w, text_keys[i]);
            swx_jsonw_string(w, val[text_rows[i]]);
        }
    swx_jsonw_key(w, "scheme");
    swx_jsonw_string(w, "xyz");
    swx_jsonw_key(w, "tileSize");
    swx_jsonw_int(w, tsz);
    swx_jsonw_key(w, "minzoom");
    swx_jsonw_int(w, minz);
    swx_jsonw_key(w, "maxzoom");
    swx_jsonw_int(w, maxz);
    swx_jsonw_key(w, "bounds");
    swx_jsonw_array_begin(w);
    for (int i = 0; i < 4; i++)
        swx_jsonw_number(w, b[i], 6);
    swx_jsonw_array_end(w);
    if (have_center) {
        swx_jsonw_key(w, "center");
        swx_jsonw_array_begin(w);
        swx_jsonw_number(w, c[0], 6);
        swx_jsonw_number(w, c[1], 6);
        swx_jsonw_int(w, (int64_t)c[2]);
        swx_jsonw_array_end(w);
    }
    swx_jsonw_object_end(w);
    rc = swx_jsonw_finish(w);
    w = NULL;
done:
    swx_jsonw_free(w);
    sqlite3_finalize(st);
    sqlite3_close(db);
    for (int i = 0; i < TJ_N; i++)
        free(val[i]);
    return rc;
}

/*
 * merge.c: the shards of a seed checked and merged into the file an unsharded
 * seed would have written (seawx/shard.h).
 *
 * The merged file is built as a temporary beside the target ("PATH.PID.merge.tmp"):
 * the metadata of a shard less its shard rows (swx_mbtiles_open() makes the
 * schema), then each shard attached in turn and copied in one transaction:
 * its images with INSERT OR IGNORE (an image in several shards is stored
 * once), its map rows with INSERT (a tile in two shards would be a broken
 * partition: refused). The temporary is renamed over the target once whole.
 *
 * What is copied is checked first, when the shards are read: a complete
 * shard's images must hash to their keys (tile_id is the SHA-256 of the
 * bytes, mbtiles.h), each map row must name an image, and the database must
 * read to its end; a shard that fails is damaged and must run again. A
 * damaged file is told from a file of another kind by SQLite's own verdict
 * (corrupt, not a database) or by being empty: a database without a shard
 * row is not a shard's file.
 */
#include "seawx/setting.h"
#include "seawx/shard.h"

#include "mbtiles.h"
#include "buf.h"
#include "seawx/atomicfile.h"
#include "seawx/error.h"
#include "sha256.h"
#include "shard.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Metadata rows of a shard file that the merged file does not carry. */
static const char *const SHARD_ROWS[] = {"shard", "partition", "request", "shard_complete", NULL};

#define MERGE_MAX_META 64 /* metadata rows copied into the merged file */

typedef struct shard_file {
    char *path;
    swx_shard_state state;
    char *request, *partition;
} shard_file;

struct swx_merge {
    int n;
    shard_file *shards; /* n, shard k at k - 1 */
    int ref;            /* a shard of the request the others are compared with (0-based) */
    char **lost;        /* files too damaged to tell their shard, nlost of them */
    size_t nlost, lost_cap;
    volatile sig_atomic_t *cancel; /* swx_merge_set_cancel */
};

void swx_merge_set_cancel(swx_merge *m, volatile sig_atomic_t *cancel)
{
    m->cancel = cancel;
}

/* SQLite's progress handler: a non-zero return interrupts the statement. */
static int merge_cancelled(void *ud)
{
    const swx_merge *m = ud;
    return m->cancel && *m->cancel;
}

/* Whether an SQLite result means the file itself is damaged (cut short,
 * overwritten) rather than of another kind. */
static int damage_code(int r)
{
    r &= 0xff;
    return r == SQLITE_CORRUPT || r == SQLITE_NOTADB || r == SQLITE_IOERR;
}

/* The value of one metadata row into *v (NULL when there is no such row):
 * 0, or the SQLite result that stopped the read. */
static int meta_get(sqlite3 *db, const char *name, char **v)
{
    sqlite3_stmt *st = NULL;
    *v = NULL;
    int r = sqlite3_prepare_v2(db, "SELECT value FROM metadata WHERE name = ?", -1, &st, NULL);
    if (r == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        r = sqlite3_step(st);
        if (r == SQLITE_ROW) {
            const char *t = (const char *)sqlite3_column_text(st, 0);
            r = t && !(*v = strdup(t)) ? SQLITE_NOMEM : SQLITE_OK;
        } else if (r == SQLITE_DONE) {
            r = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return r;
}

/* 1 when the tiles of a shard read whole: every image hashes to its key,
 * every map row names an image, both tables read to their end; else 0. */
static int shard_whole(sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    int whole = 1, r;
    if (sqlite3_prepare_v2(db, "SELECT tile_id, tile_data FROM images", -1, &st, NULL) != SQLITE_OK)
        return 0;
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(st, 0);
        const void *data = sqlite3_column_blob(st, 1);
        int len = sqlite3_column_bytes(st, 1);
        uint8_t digest[SWX_SHA256_LEN];
        char hex[SWX_SHA256_HEX_LEN];
        if (!id || !data || len <= 0) {
            whole = 0;
            break;
        }
        swx_sha256(digest, hex, data, (size_t)len);
        if (strcmp(hex, id) != 0) {
            whole = 0;
            break;
        }
    }
    if (whole && r != SQLITE_DONE)
        whole = 0;
    sqlite3_finalize(st);
    st = NULL;
    if (whole &&
        (sqlite3_prepare_v2(db,
                            "SELECT count(*) FROM map WHERE tile_id NOT IN (SELECT tile_id FROM "
                            "images)",
                            -1, &st, NULL) != SQLITE_OK ||
         sqlite3_step(st) != SQLITE_ROW || sqlite3_column_int64(st, 0) != 0))
        whole = 0;
    sqlite3_finalize(st);
    return whole;
}

/* A file that cannot tell its shard: kept to be named. */
static int add_lost(swx_merge *m, const char *path)
{
    char **l = swx_array_reserve(m->lost, &m->lost_cap, m->nlost + 1, sizeof *l, 4);
    if (!l)
        return SWX_ENOMEM;
    m->lost = l;
    if (!(l[m->nlost] = strdup(path)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    m->nlost++;
    return 0;
}

/* Opens a file for reading its rows. Read-write when it can, without
 * creating: a shard killed in the middle of a batch leaves a journal that only
 * a writer can roll back; read-only on a read-only mount. */
static int open_db(sqlite3 **db, const char *path)
{
    if (sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        sqlite3_close(*db);
        *db = NULL;
        if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
            sqlite3_busy_timeout(*db, 5000);
            return 0;
        }
        int rc = swx_error_set(SWX_EIO, "cannot open %s: %s", path,
                               *db ? sqlite3_errmsg(*db) : "out of memory");
        sqlite3_close(*db);
        *db = NULL;
        return rc;
    }
    sqlite3_busy_timeout(*db, 5000);
    return 0;
}

/* Reads one shard file into m (the shard count set from it when m->n is 0). */
static int read_shard(swx_merge *m, const char *path)
{
    sqlite3 *db = NULL;
    char *shard = NULL, *complete = NULL, *request = NULL, *partition = NULL;
    int k = 0, n = 0, rc, r;
    struct stat sb;
    if (stat(path, &sb) == 0 && sb.st_size == 0)
        return add_lost(m, path); /* cut to nothing: a shard's file is never empty */
    if ((rc = open_db(&db, path)))
        return rc;
    if ((r = meta_get(db, "shard", &shard)) != SQLITE_OK && damage_code(r)) {
        rc = add_lost(m, path);
        goto done;
    }
    if (!shard) {
        rc = swx_error_set(SWX_EINVAL,
                           "%s is not a shard's file (no 'shard' metadata row); give the files "
                           "written by %s",
                           path, swx_setting_name(SWX_SET_SEED_SHARD));
        goto done;
    }
    if ((rc = swx_shard_parse(&k, &n, shard))) {
        swx_error_prefix(rc, "%s", path);
        goto done;
    }
    if (!m->n) {
        m->shards = calloc((size_t)n, sizeof *m->shards);
        if (!m->shards) {
            rc = swx_error_set(SWX_ENOMEM, "out of memory");
            goto done;
        }
        for (int i = 0; i < n; i++)
            m->shards[i].state = SWX_SHARD_MISSING;
        m->n = n;
    }
    if (n != m->n) {
        rc = swx_error_set(SWX_EINVAL,
                           "%s is shard %d of %d, not of %d: these files are not one "
                           "seed",
                           path, k, n, m->n);
        goto done;
    }
    shard_file *f = &m->shards[k - 1];
    if (f->path) {
        rc = swx_error_set(SWX_EINVAL, "%s and %s both hold shard %d/%d; give each shard once",
                           f->path, path, k, n);
        goto done;
    }
    int read_ok = meta_get(db, "shard_complete", &complete) == SQLITE_OK &&
                  meta_get(db, "request", &request) == SQLITE_OK &&
                  meta_get(db, "partition", &partition) == SQLITE_OK;
    if (!(f->path = strdup(path))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    f->request = request;
    f->partition = partition;
    request = partition = NULL;
    f->state = complete && strcmp(complete, "1") == 0 ? SWX_SHARD_OK : SWX_SHARD_INCOMPLETE;
    /* What the merge will copy is checked now, before anything is written. */
    if (!read_ok || (f->state == SWX_SHARD_OK && !shard_whole(db)))
        f->state = SWX_SHARD_DAMAGED;
done:
    free(shard);
    free(complete);
    free(request);
    free(partition);
    sqlite3_close(db);
    return rc;
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int swx_merge_open(swx_merge **out, const char *const *paths, size_t n, int shards)
{
    swx_merge *m = NULL;
    int rc = 0;
    *out = NULL;
    if (shards < 0 || shards > SWX_SHARD_MAX)
        return swx_error_set(SWX_EINVAL, "shard count %d is not within 1 to %d", shards,
                             SWX_SHARD_MAX);
    m = calloc(1, sizeof *m);
    if (!m)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if (shards) {
        m->shards = calloc((size_t)shards, sizeof *m->shards);
        if (!m->shards) {
            rc = swx_error_set(SWX_ENOMEM, "out of memory");
            goto done;
        }
        for (int i = 0; i < shards; i++)
            m->shards[i].state = SWX_SHARD_MISSING;
        m->n = shards;
    }
    for (size_t i = 0; i < n; i++) {
        struct stat sb;
        if (stat(paths[i], &sb) != 0 && errno == ENOENT)
            continue; /* a shard not (yet) published */
        if ((rc = read_shard(m, paths[i])))
            goto done;
    }
    if (!m->n && m->nlost) {
        rc = swx_error_set(SWX_EINVAL,
                           "%s is damaged and no other file tells the shard count: give "
                           "%s, or run its shard again",
                           m->lost[0], swx_setting_name(SWX_SET_SHARDS));
        goto done;
    }
    if (!m->n) {
        rc = swx_error_set(SWX_EINVAL,
                           "none of the %zu shard files given exists, and no shard "
                           "count was given",
                           n);
        goto done;
    }
    /* One file too damaged to tell its shard, and one shard without a file:
     * that file is that shard's. */
    int missing = 0, where = -1;
    for (int i = 0; i < m->n; i++)
        if (m->shards[i].state == SWX_SHARD_MISSING) {
            missing++;
            where = i;
        }
    if (m->nlost == 1 && missing == 1) {
        m->shards[where].path = m->lost[0];
        m->shards[where].state = SWX_SHARD_DAMAGED;
        m->lost[0] = NULL;
        m->nlost = 0;
    }
    /* The request most shards hold (the first such) is the seed's; shards of
     * another request or partition must run again. */
    int best = 0;
    m->ref = -1;
    for (int i = 0; i < m->n; i++) {
        if (!m->shards[i].path || m->shards[i].state == SWX_SHARD_DAMAGED)
            continue;
        int votes = 0;
        for (int j = 0; j < m->n; j++)
            if (m->shards[j].path && m->shards[j].state != SWX_SHARD_DAMAGED &&
                same(m->shards[i].request, m->shards[j].request) &&
                same(m->shards[i].partition, m->shards[j].partition))
                votes++;
        if (votes > best) {
            best = votes;
            m->ref = i;
        }
    }
    for (int i = 0; m->ref >= 0 && i < m->n; i++) {
        shard_file *f = &m->shards[i], *r = &m->shards[m->ref];
        if (f->path && f->state != SWX_SHARD_DAMAGED &&
            (!same(f->request, r->request) || !same(f->partition, r->partition)))
            f->state = SWX_SHARD_OTHER;
    }
done:
    if (rc) {
        swx_merge_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

void swx_merge_free(swx_merge *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nlost; i++)
        free(m->lost[i]);
    free(m->lost);
    for (int i = 0; i < m->n; i++) {
        free(m->shards[i].path);
        free(m->shards[i].request);
        free(m->shards[i].partition);
    }
    free(m->shards);
    free(m);
}

int swx_merge_shard_count(const swx_merge *m)
{
    return m->n;
}

swx_shard_state swx_merge_state(const swx_merge *m, int k, const char **path)
{
    if (path)
        *path = NULL;
    if (k < 1 || k > m->n)
        return SWX_SHARD_MISSING;
    if (path)
        *path = m->shards[k - 1].path;
    return m->shards[k - 1].state;
}

const char *swx_merge_damaged_file(const swx_merge *m, size_t i)
{
    return i < m->nlost ? m->lost[i] : NULL;
}

int swx_merge_bad_count(const swx_merge *m)
{
    int bad = 0;
    for (int i = 0; i < m->n; i++)
        bad += m->shards[i].state != SWX_SHARD_OK;
    /* A file that cannot tell its shard leaves that shard missing; given
     * besides N complete shards, it still stops the merge. */
    return bad ? bad : (int)m->nlost;
}

static int is_shard_row(const char *name)
{
    for (int i = 0; SHARD_ROWS[i]; i++)
        if (strcmp(SHARD_ROWS[i], name) == 0)
            return 1;
    return 0;
}

static int exec(sqlite3 *db, const char *sql, const char *path, const char *what)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        int rc = swx_error_set(SWX_EIO, "merging into %s: %s: %s", path, what,
                               err ? err : sqlite3_errmsg(db));
        sqlite3_free(err);
        return rc;
    }
    return 0;
}

/* The metadata of the shard file at path without its shard rows (names and
 * values malloc'd, *n of them). */
static int read_meta(swx_mbtiles_kv *kv, size_t *n, const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int rc = open_db(&db, path), r;
    *n = 0;
    if (rc)
        return rc;
    if (sqlite3_prepare_v2(db, "SELECT name, value FROM metadata ORDER BY name", -1, &st, NULL) !=
        SQLITE_OK) {
        rc = swx_error_set(SWX_EIO, "cannot read the metadata of %s: %s", path, sqlite3_errmsg(db));
        goto done;
    }
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        const char *value = (const char *)sqlite3_column_text(st, 1);
        if (!name || !value || is_shard_row(name))
            continue;
        if (*n >= MERGE_MAX_META) {
            rc = swx_error_set(SWX_ETOOBIG, "%s has more than %d metadata rows", path,
                               MERGE_MAX_META);
            goto done;
        }
        kv[*n].name = strdup(name);
        kv[*n].value = strdup(value);
        (*n)++;
        if (!kv[*n - 1].name || !kv[*n - 1].value) {
            rc = swx_error_set(SWX_ENOMEM, "out of memory");
            goto done;
        }
    }
    if (r != SQLITE_DONE)
        rc = swx_error_set(SWX_EIO, "cannot read the metadata of %s: %s", path, sqlite3_errmsg(db));
done:
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}

/* Copies the tiles of one shard into the open merged file db. */
static int copy_shard(sqlite3 *db, const char *target, const char *shard, int k)
{
    sqlite3_stmt *st = NULL;
    int rc;
    if (sqlite3_prepare_v2(db, "ATTACH DATABASE ? AS shard", -1, &st, NULL) != SQLITE_OK) {
        rc = swx_error_set(SWX_EIO, "merging into %s: %s", target, sqlite3_errmsg(db));
        sqlite3_finalize(st);
        return rc;
    }
    sqlite3_bind_text(st, 1, shard, -1, SQLITE_STATIC);
    int r = sqlite3_step(st);
    sqlite3_finalize(st);
    if (r != SQLITE_DONE)
        return swx_error_set(SWX_EIO, "cannot open shard %d (%s): %s", k, shard,
                             sqlite3_errmsg(db));
    rc = exec(db,
              "BEGIN;"
              "INSERT OR IGNORE INTO main.images (tile_id, tile_data)"
              " SELECT tile_id, tile_data FROM shard.images;"
              "INSERT INTO main.map (zoom_level, tile_column, tile_row, tile_id)"
              " SELECT zoom_level, tile_column, tile_row, tile_id FROM shard.map;"
              "COMMIT;",
              target, "copying a shard's tiles (a tile in two shards?)");
    if (rc)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    int drc = exec(db, "DETACH DATABASE shard", target, "detaching a shard");
    return rc ? rc : drc;
}

int swx_merge_write(long long *tiles, long long *images, swx_merge *m, const char *path)
{
    swx_mbtiles_kv kv[MERGE_MAX_META];
    size_t nkv = 0;
    swx_mbtiles *mb = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char *tmp = NULL, *real = NULL;
    const char **inputs = NULL;
    int rc = 0;
    if (tiles)
        *tiles = 0;
    if (images)
        *images = 0;
    int bad = swx_merge_bad_count(m);
    if (bad)
        return swx_error_set(SWX_EINVAL,
                             "%d of %d shards are missing, incomplete or of another "
                             "seed; nothing merged",
                             bad, m->n);
    /* A regular file or none (a link: its file), and none of the shards. */
    if (!(inputs = malloc((size_t)m->n * sizeof *inputs)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (int i = 0; i < m->n; i++)
        inputs[i] = m->shards[i].path;
    rc = swx_atomicfile_target(&real, NULL, path, 0, inputs, (size_t)m->n);
    free(inputs);
    if (rc)
        return rc;
    size_t len = strlen(real) + 64;
    if (!(tmp = malloc(len))) {
        free(real);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    snprintf(tmp, len, "%s.%ld.merge.tmp", real, (long)getpid());
    unlink(tmp);
    if ((rc = read_meta(kv, &nkv, m->shards[0].path)) ||
        (rc = swx_mbtiles_open(&mb, NULL, tmp, kv, nkv, NULL, 0)) || (rc = swx_mbtiles_close(mb)))
        goto done;
    if (sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        rc = swx_error_set(SWX_EIO, "cannot open %s: %s", tmp,
                           db ? sqlite3_errmsg(db) : "out of memory");
        goto done;
    }
    if ((rc = exec(db, "PRAGMA synchronous=FULL", path, "setting up")))
        goto done;
    if (m->cancel)
        sqlite3_progress_handler(db, 10000, merge_cancelled, m);
    for (int i = 0; i < m->n && !rc; i++)
        rc = copy_shard(db, path, m->shards[i].path, i + 1);
    if (merge_cancelled(m))
        rc = swx_error_set(SWX_ECANCEL, "interrupted");
    if (rc)
        goto done;
    if (sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM map), (SELECT count(*) FROM images)",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        rc = swx_error_set(SWX_EIO, "merging into %s: cannot count tiles: %s", path,
                           sqlite3_errmsg(db));
        goto done;
    }
    if (tiles)
        *tiles = sqlite3_column_int64(st, 0);
    if (images)
        *images = sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_close(db) != SQLITE_OK) {
        rc = swx_error_set(SWX_EIO, "merging into %s: cannot close the file", path);
        goto done;
    }
    db = NULL;
    if (rename(tmp, real) != 0) {
        rc = swx_error_set(SWX_EIO, "cannot put the merged file at %s: %s", path, strerror(errno));
        goto done;
    }
done:
    sqlite3_finalize(st);
    sqlite3_close(db);
    if (rc && tmp) {
        unlink(tmp);
        size_t jl = strlen(tmp) + 16;
        char *j = malloc(jl);
        if (j) {
            snprintf(j, jl, "%s-journal", tmp);
            unlink(j);
            free(j);
        }
    }
    for (size_t i = 0; i < nkv; i++) {
        free((char *)kv[i].name);
        free((char *)kv[i].value);
    }
    free(tmp);
    free(real);
    return rc;
}

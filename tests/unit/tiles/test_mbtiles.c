/* test_mbtiles.c: the MBTiles writer (lib/tiles/mbtiles.c): schema, TMS rows,
 * dedupe, metadata, resume, refusal of foreign files, and integrity after
 * SIGKILL at random moments. The file is read back with SQLite directly. */
#include "cu_support.h"

#include "seawx/error.h"
#include "mbtiles.h"

#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[64];

static void path_of(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

static int exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

static int64_t q_int(const char *file, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int64_t v = -1;
    if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* What the next writer does first (the seeder run again, sqlite3): a batch a
 * kill cut short is rolled back from the -journal it left. */
static void recover(const char *file)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK)
        sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
    sqlite3_close(db);
}

static char *q_text(const char *file, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char *v = NULL;
    if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
        sqlite3_column_text(st, 0))
        v = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static const swx_mbtiles_kv META[] = {
    {"name", "t2m"},
    {"format", "png"},
    {"bounds", "-10,40,5,55"},
    {"center", "-2.5,47.5,3"},
    {"minzoom", "0"},
    {"maxzoom", "5"},
    {"type", "overlay"},
    {"version", "1"},
    {"description", "test"},
    {"attribution", "test"},
    {"layer", "sof-d/x/00/t2m:K"},
    {"time", "2024-10-01T00:00:00Z"},
};
static const char *const IDENTITY[] = {"layer", "time", NULL};
#define NMETA (sizeof META / sizeof META[0])

static void no_side_files(const char *p)
{
    char s[128];
    const char *sfx[] = {"-wal", "-shm", "-journal"};
    for (int i = 0; i < 3; i++) {
        snprintf(s, sizeof s, "%s%s", p, sfx[i]);
        CU_ASSERT(!exists(s));
    }
}

static void test_write_read(void)
{
    char p[128];
    path_of(p, sizeof p, "a.mbtiles");
    swx_mbtiles *m = NULL;
    int created = -1;
    CU_ASSERT_FATAL(swx_mbtiles_open(&m, &created, p, META, NMETA, IDENTITY, 3) == 0);
    CU_ASSERT_EQUAL(created, 1);
    /* XYZ row 0 at zoom 3 is TMS row 7. */
    CU_ASSERT_EQUAL(swx_mbtiles_put(m, 3, 1, 0, "AAAA", 4), 0);
    CU_ASSERT_EQUAL(swx_mbtiles_put(m, 3, 2, 0, "AAAA", 4), 0); /* same image */
    CU_ASSERT_EQUAL(swx_mbtiles_put(m, 3, 2, 5, "BBBBB", 5), 0);
    CU_ASSERT_EQUAL(swx_mbtiles_put(m, 0, 0, 0, "CC", 2), 0);
    CU_ASSERT_EQUAL(swx_mbtiles_put(m, 3, 8, 0, "CC", 2), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_mbtiles_has(m, 3, 1, 0), 1);
    CU_ASSERT_EQUAL(swx_mbtiles_has(m, 3, 1, 7), 0);
    int64_t tiles, images;
    CU_ASSERT_EQUAL(swx_mbtiles_counts(&tiles, &images, m), 0);
    CU_ASSERT(tiles == 4 && images == 3);
    /* Putting a tile again replaces it. */
    CU_ASSERT_EQUAL(swx_mbtiles_put(m, 3, 2, 5, "DDD", 3), 0);
    CU_ASSERT_EQUAL(swx_mbtiles_close(m), 0);
    no_side_files(p);

    CU_ASSERT_EQUAL(q_int(p, "PRAGMA application_id"), 0x4d504258);
    char *jm = q_text(p, "PRAGMA journal_mode");
    CU_ASSERT(jm && strcmp(jm, "delete") == 0);
    free(jm);
    CU_ASSERT_EQUAL(q_int(p, "SELECT count(*) FROM tiles"), 4);
    CU_ASSERT_EQUAL(q_int(p, "SELECT count(*) FROM tiles WHERE zoom_level=3 AND tile_column=1 "
                             "AND tile_row=7 AND tile_data=CAST('AAAA' AS BLOB)"),
                    1);
    CU_ASSERT_EQUAL(q_int(p, "SELECT count(*) FROM tiles WHERE zoom_level=3 AND tile_column=2 "
                             "AND tile_row=2 AND tile_data=CAST('DDD' AS BLOB)"),
                    1);
    CU_ASSERT_EQUAL(q_int(p, "SELECT count(DISTINCT tile_id) FROM map"), 3);
    CU_ASSERT_EQUAL(q_int(p, "SELECT count(*) FROM metadata"), (int64_t)NMETA);
    char *t = q_text(p, "SELECT value FROM metadata WHERE name='time'");
    CU_ASSERT(t && strcmp(t, "2024-10-01T00:00:00Z") == 0);
    free(t);
    char *ic = q_text(p, "PRAGMA integrity_check");
    CU_ASSERT(ic && strcmp(ic, "ok") == 0);
    free(ic);

    /* Opening again resumes: tiles stored are seen. */
    CU_ASSERT_FATAL(swx_mbtiles_open(&m, &created, p, META, NMETA, IDENTITY, 0) == 0);
    CU_ASSERT_EQUAL(created, 0);
    CU_ASSERT_EQUAL(swx_mbtiles_has(m, 3, 2, 0), 1);
    CU_ASSERT_EQUAL(swx_mbtiles_has(m, 0, 0, 0), 1);
    CU_ASSERT_EQUAL(swx_mbtiles_close(m), 0);
    no_side_files(p);
}

static void test_refusals(void)
{
    char p[128], q[128];
    path_of(p, sizeof p, "a.mbtiles");
    swx_mbtiles *m = (swx_mbtiles *)1;
    /* Another time into the same file is refused, not mixed. */
    swx_mbtiles_kv other[NMETA];
    memcpy(other, META, sizeof other);
    other[11].value = "2024-10-01T03:00:00Z";
    CU_ASSERT_EQUAL(swx_mbtiles_open(&m, NULL, p, other, NMETA, IDENTITY, 0), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "already holds time"));
    /* Not a database; a database of something else; a folder. */
    path_of(q, sizeof q, "text.mbtiles");
    FILE *f = fopen(q, "w");
    fputs("hello, this is not SQLite at all, not even close to it......", f);
    fclose(f);
    CU_ASSERT_EQUAL(swx_mbtiles_open(&m, NULL, q, META, NMETA, IDENTITY, 0), SWX_EINVAL);
    path_of(q, sizeof q, "other.db");
    sqlite3 *db;
    sqlite3_open(q, &db);
    sqlite3_exec(db, "CREATE TABLE metadata(x); CREATE TABLE foo(y);", NULL, NULL, NULL);
    sqlite3_close(db);
    CU_ASSERT_EQUAL(swx_mbtiles_open(&m, NULL, q, META, NMETA, IDENTITY, 0), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_mbtiles_open(&m, NULL, dir, META, NMETA, IDENTITY, 0), SWX_EIO);
    path_of(q, sizeof q, "no/such/dir.mbtiles");
    CU_ASSERT_EQUAL(swx_mbtiles_open(&m, NULL, q, META, NMETA, IDENTITY, 0), SWX_EIO);
    CU_ASSERT(!exists(q));
}

/* A child writes tiles as fast as it can and is killed at random moments;
 * after each kill the file passes integrity_check, every map row has its image,
 * and the next child continues from where it stood. */
static void test_kill(void)
{
    char p[128];
    path_of(p, sizeof p, "kill.mbtiles");
    srand((unsigned)time(NULL));
    int64_t last = 0;
    for (int round = 0; round < 8; round++) {
        /* The child says when its file is open, so that a loaded machine
         * cannot kill it before it has written anything at all. */
        int ready[2];
        CU_ASSERT_FATAL(pipe(ready) == 0);
        pid_t pid = fork();
        if (pid == 0) {
            close(ready[0]);
            swx_mbtiles *m = NULL;
            if (swx_mbtiles_open(&m, NULL, p, META, NMETA, IDENTITY, 7))
                _exit(3);
            if (write(ready[1], "r", 1) != 1)
                _exit(5);
            close(ready[1]);
            unsigned char img[3000];
            for (uint32_t y = 0; y < 256; y++)
                for (uint32_t x = 0; x < 256; x++) {
                    if (swx_mbtiles_has(m, 8, x, y) == 1)
                        continue;
                    memset(img, (int)((x * 7 + y) % 50), sizeof img);
                    if (swx_mbtiles_put(m, 8, x, y, img, sizeof img))
                        _exit(4);
                }
            swx_mbtiles_close(m);
            _exit(0);
        }
        close(ready[1]);
        char c;
        CU_ASSERT(read(ready[0], &c, 1) == 1);
        close(ready[0]);
        usleep((useconds_t)(20000 + rand() % 60000));
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        CU_ASSERT(WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) == 0));
        recover(p);
        char *ic = q_text(p, "PRAGMA integrity_check");
        CU_ASSERT(ic && strcmp(ic, "ok") == 0);
        free(ic);
        CU_ASSERT_EQUAL(q_int(p, "SELECT count(*) FROM map WHERE tile_id NOT IN "
                                 "(SELECT tile_id FROM images)"),
                        0);
        int64_t n = q_int(p, "SELECT count(*) FROM map");
        CU_ASSERT(n >= last);
        last = n;
    }
    /* Finish the set. */
    swx_mbtiles *m = NULL;
    CU_ASSERT_FATAL(swx_mbtiles_open(&m, NULL, p, META, NMETA, IDENTITY, 0) == 0);
    unsigned char img[3000];
    for (uint32_t y = 0; y < 256; y++)
        for (uint32_t x = 0; x < 256; x++)
            if (swx_mbtiles_has(m, 8, x, y) == 0) {
                memset(img, (int)((x * 7 + y) % 50), sizeof img);
                CU_ASSERT_EQUAL_FATAL(swx_mbtiles_put(m, 8, x, y, img, sizeof img), 0);
            }
    CU_ASSERT_EQUAL(swx_mbtiles_close(m), 0);
    no_side_files(p);
    CU_ASSERT_EQUAL(q_int(p, "SELECT count(*) FROM tiles"), 65536);
    CU_ASSERT_EQUAL(q_int(p, "SELECT count(*) FROM images"), 50);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/seawx-mbt.XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("mbtiles", NULL, NULL);
    CU_add_test(s, "write, TMS rows, dedupe, metadata", test_write_read);
    CU_add_test(s, "refusals", test_refusals);
    CU_add_test(s, "SIGKILL at random moments", test_kill);
    int rc = cu_run();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}

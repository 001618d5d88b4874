/* test_diskcache.c: the on-disk answer cache (lib/net/diskcache.c): entries
 * checked by key, written whole, and kept within a size limit, least recently
 * used first. */
#define _GNU_SOURCE
#include "cu_support.h"

#include "diskcache_io.h"
#include "seawx/diskcache.h"
#include "seawx/error.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[256];

static int setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/seawx-test-diskcache.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Calls fn(folder fd, name, path, ud) for every file in dir's folders. */
static void each_file(void (*fn)(int, const char *, const char *, void *), void *ud)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char sub[600];
        snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name);
        DIR *s = opendir(sub);
        struct dirent *fe;
        while (s && (fe = readdir(s))) {
            char p[900];
            if (fe->d_name[0] == '.')
                continue;
            snprintf(p, sizeof p, "%s/%s", sub, fe->d_name);
            fn(dirfd(s), fe->d_name, p, ud);
        }
        if (s)
            closedir(s);
    }
    if (d)
        closedir(d);
}

struct tally {
    const char *suffix;
    size_t n;
    unsigned long long bytes;
};

static void tally_one(int fd, const char *name, const char *path, void *ud)
{
    struct tally *t = ud;
    size_t l = strlen(name), sl = strlen(t->suffix);
    struct stat st;
    (void)fd;
    if (l > sl && strcmp(name + l - sl, t->suffix) == 0 && stat(path, &st) == 0) {
        t->n++;
        t->bytes += (unsigned long long)st.st_size;
    }
}

/* Files ending in suffix under dir (one level of folders), and their bytes. */
static size_t count_files(const char *suffix, unsigned long long *bytes)
{
    struct tally t = {suffix, 0, 0};
    each_file(tally_one, &t);
    if (bytes)
        *bytes = t.bytes;
    return t.n;
}

static void age_one(int fd, const char *name, const char *path, void *ud)
{
    time_t when = *(const time_t *)ud;
    struct timespec ts[2] = {{when, 0}, {when, 0}};
    (void)path;
    utimensat(fd, name, ts, 0);
}

/* Sets the modification time of every entry to `when`. */
static void age_all(time_t when)
{
    each_file(age_one, &when);
}

/* A handle on the test's folder with a size limit. */
static swx_diskcache *open_cache(uint64_t max)
{
    swx_diskcache *dc = NULL;
    CU_ASSERT_EQUAL(swx_diskcache_open(&dc, dir, max), 0);
    return dc;
}

static void test_round_trip(void)
{
    swx_diskcache *dc = open_cache(0);
    const char *key = "http://127.0.0.1:1/wms?LAYERS=a&BBOX=0,0,1,1";
    CU_ASSERT_EQUAL(swx_diskcache_put(dc, key, "PNGDATA", 7), 0);
    void *data = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL(swx_diskcache_get(&data, &len, dc, key), 0);
    CU_ASSERT(len == 7 && data && memcmp(data, "PNGDATA", 7) == 0);
    free(data);
    /* Another key never gets this answer, even read from the same file. */
    CU_ASSERT_EQUAL(swx_diskcache_get(&data, &len, dc, "http://127.0.0.1:1/wms?LAYERS=b"),
                    SWX_ENOTFOUND);
    CU_ASSERT_PTR_NULL(data);
    CU_ASSERT_EQUAL(count_files(".swx", NULL), 1);
    CU_ASSERT_EQUAL(count_files(".tmp", NULL), 0);
    CU_ASSERT_EQUAL(swx_diskcache_put(dc, key, "x", SWX_DISKCACHE_MAX_ENTRY + 1u), SWX_ETOOBIG);
    swx_diskcache_free(dc);
}

/* What a front end makes of SEAWX_CACHE_MAX_MB: its megabytes, else the
 * default (the plugin does this with the same two calls). */
static uint64_t front_end_limit(void)
{
    uint64_t bytes = 0;
    const char *text = getenv("SEAWX_CACHE_MAX_MB");
    if (text && swx_diskcache_parse_mb(&bytes, text) == 0)
        return bytes;
    return (uint64_t)SWX_DISKCACHE_DEFAULT_MAX_MB << 20;
}

/* The limit a handle opened with max keeps. */
static uint64_t limit_of(uint64_t max)
{
    swx_diskcache *dc = open_cache(max);
    uint64_t got = dc ? swx_diskcache_max(dc) : 12345;
    swx_diskcache_free(dc);
    return got;
}

static void test_limit_settings(void)
{
    /* The environment, as a front end reads it, else 1 GiB. */
    unsetenv("SEAWX_CACHE_MAX_MB");
    CU_ASSERT_EQUAL(limit_of(front_end_limit()), 1024u << 20);
    setenv("SEAWX_CACHE_MAX_MB", "5", 1);
    CU_ASSERT_EQUAL(limit_of(front_end_limit()), 5u << 20);
    setenv("SEAWX_CACHE_MAX_MB", "0", 1);
    CU_ASSERT_EQUAL(limit_of(front_end_limit()), 0);
    setenv("SEAWX_CACHE_MAX_MB", "lots", 1);
    CU_ASSERT_EQUAL(limit_of(front_end_limit()), 1024u << 20);
    setenv("SEAWX_CACHE_MAX_MB", "-3", 1);
    CU_ASSERT_EQUAL(limit_of(front_end_limit()), 1024u << 20);
    /* The handle keeps what it was given: the core reads no environment. */
    setenv("SEAWX_CACHE_MAX_MB", "9", 1);
    CU_ASSERT_EQUAL(limit_of(0), 0); /* 0 means no limit */
    CU_ASSERT_EQUAL(limit_of(5u << 20), 5u << 20);
    CU_ASSERT_EQUAL(limit_of(UINT64_MAX), UINT64_MAX);
    unsetenv("SEAWX_CACHE_MAX_MB");
    /* As text, the way the plugin takes its configuration option. */
    uint64_t bytes = 0;
    CU_ASSERT_EQUAL(swx_diskcache_parse_mb(&bytes, "7"), 0);
    CU_ASSERT_EQUAL(bytes, 7u << 20);
    CU_ASSERT_EQUAL(swx_diskcache_parse_mb(&bytes, "7x"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_diskcache_parse_mb(&bytes, "-1"), SWX_EINVAL);
    CU_ASSERT_EQUAL(bytes, 7u << 20); /* a refused text leaves it */
    CU_ASSERT_EQUAL(swx_diskcache_parse_mb(&bytes, ""), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_diskcache_parse_mb(&bytes, NULL), SWX_EINVAL);
}

static void test_handle(void)
{
    swx_diskcache *dc = (swx_diskcache *)&dc;
    CU_ASSERT_EQUAL(swx_diskcache_open(&dc, NULL, 0), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(dc);
    dc = (swx_diskcache *)&dc;
    CU_ASSERT_EQUAL(swx_diskcache_open(&dc, "", 0), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(dc);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "folder"));
    dc = open_cache(3u << 20);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dc);
    CU_ASSERT_STRING_EQUAL(swx_diskcache_dir(dc), dir);
    CU_ASSERT_EQUAL(swx_diskcache_max(dc), 3u << 20);
    swx_diskcache_free(dc);
    swx_diskcache_free(NULL);
}

static void test_prune_lru(void)
{
    char key[100], body[10000];
    memset(body, 'x', sizeof body);
    swx_diskcache *dc = open_cache(0); /* fill without pruning */
    for (int i = 0; i < 100; i++) {
        snprintf(key, sizeof key, "k%03d", i);
        CU_ASSERT_EQUAL(swx_diskcache_put(dc, key, body, sizeof body), 0);
    }
    unsigned long long bytes = 0;
    CU_ASSERT_EQUAL(count_files(".swx", &bytes), 101); /* with the first test's entry */
    /* Everything old, then ten entries used again. */
    age_all(time(NULL) - 7200);
    for (int i = 0; i < 10; i++) {
        void *d = NULL;
        size_t l = 0;
        snprintf(key, sizeof key, "k%03d", i * 7);
        CU_ASSERT_EQUAL(swx_diskcache_get(&d, &l, dc, key), 0);
        free(d);
    }
    /* An orphaned temporary file, an hour old, goes; a young one stays; a
     * file that is not the cache's is left alone. */
    char p[600];
    snprintf(p, sizeof p, "%s/00", dir);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/00/old.swx.123.tmp", dir);
    close(open(p, O_WRONLY | O_CREAT, 0600));
    struct timespec ts[2] = {{time(NULL) - 4000, 0}, {time(NULL) - 4000, 0}};
    utimensat(AT_FDCWD, p, ts, 0);
    snprintf(p, sizeof p, "%s/00/young.swx.124.tmp", dir);
    close(open(p, O_WRONLY | O_CREAT, 0600));
    snprintf(p, sizeof p, "%s/00/notes.txt", dir);
    close(open(p, O_WRONLY | O_CREAT, 0600));

    uint64_t kept = 0;
    size_t removed = 0;
    uint64_t max = 300000; /* 30 entries' worth */
    CU_ASSERT_EQUAL(swx_diskcache_prune(&kept, &removed, dir, max), 0);
    CU_ASSERT(kept <= max / 4 * 3);
    CU_ASSERT(kept > max / 4 * 3 - 10011); /* no more removed than needed */
    size_t left = count_files(".swx", &bytes);
    CU_ASSERT(left == 22 || left == 23); /* 22 of 10,011 bytes, and the first test's 59? */
    CU_ASSERT_EQUAL(bytes, kept);
    CU_ASSERT_EQUAL(removed, 101 - left + 1); /* and the old temporary file */
    CU_ASSERT_EQUAL(count_files(".tmp", NULL), 1);
    CU_ASSERT_EQUAL(access(p, F_OK), 0);
    /* The ten used most recently are all still there. */
    for (int i = 0; i < 10; i++) {
        void *d = NULL;
        size_t l = 0;
        snprintf(key, sizeof key, "k%03d", i * 7);
        CU_ASSERT_EQUAL(swx_diskcache_get(&d, &l, dc, key), 0);
        free(d);
    }
    /* Under the limit: nothing goes. */
    CU_ASSERT_EQUAL(swx_diskcache_prune(&kept, &removed, dir, max), 0);
    CU_ASSERT_EQUAL(removed, 0);
    swx_diskcache_free(dc);
}

static void test_put_keeps_within_limit(void)
{
    char key[100], body[10000];
    memset(body, 'y', sizeof body);
    uint64_t max = 200000;
    swx_diskcache *dc = open_cache(max);
    for (int i = 0; i < 300; i++) {
        snprintf(key, sizeof key, "put%03d", i);
        CU_ASSERT_EQUAL(swx_diskcache_put(dc, key, body, sizeof body), 0);
    }
    unsigned long long bytes = 0;
    count_files(".swx", &bytes);
    /* Pruning runs every max/16 bytes written: at most that much over. */
    CU_ASSERT(bytes <= max + max / 16 + 20000);
    /* The newest entry is there. */
    void *d = NULL;
    size_t l = 0;
    CU_ASSERT_EQUAL(swx_diskcache_get(&d, &l, dc, "put299"), 0);
    free(d);
    swx_diskcache_free(dc);
}

/* Threads writing and reading the same keys through one handle, and through
 * a second handle on the same folder, the way QGIS reads several datasets at
 * once: every put succeeds, every hit is whole, nothing temporary is left. */
#define NTHREADS 8
#define NKEYS 40

struct worker {
    swx_diskcache *dc;
    int id, put_failures, wrong;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    char key[64], body[3000];
    for (int round = 0; round < 5; round++)
        for (int k = 0; k < NKEYS; k++) {
            snprintf(key, sizeof key, "shared%02d", k);
            memset(body, 'a' + k % 26, sizeof body);
            if (swx_diskcache_put(w->dc, key, body, sizeof body) != 0)
                w->put_failures++;
            void *d = NULL;
            size_t l = 0;
            /* A miss is allowed: another thread's pruning may just have
             * removed the entry. A hit is whole and right. */
            if (swx_diskcache_get(&d, &l, w->dc, key) == 0 &&
                (l != sizeof body || memcmp(d, body, l) != 0))
                w->wrong++;
            free(d);
        }
    return NULL;
}

static void test_threads(void)
{
    /* A limit that prunes now and then while the threads write. */
    swx_diskcache *a = open_cache(60000), *b = open_cache(60000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    size_t tmp_before = count_files(".tmp", NULL); /* the young one of test_prune_lru */
    pthread_t t[NTHREADS];
    struct worker w[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        w[i] = (struct worker){i % 2 ? b : a, i, 0, 0};
        CU_ASSERT_EQUAL(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    int put_failures = 0, wrong = 0;
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        put_failures += w[i].put_failures;
        wrong += w[i].wrong;
    }
    CU_ASSERT_EQUAL(put_failures, 0);
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(count_files(".tmp", NULL), tmp_before);
    swx_diskcache_free(a);
    swx_diskcache_free(b);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("diskcache", setup, teardown);
    CU_add_test(s, "the size limit's settings", test_limit_settings);
    CU_add_test(s, "a handle: folder and limit", test_handle);
    CU_add_test(s, "round trip, checked by key", test_round_trip);
    CU_add_test(s, "pruning: least recently used first, orphans, foreign files", test_prune_lru);
    CU_add_test(s, "writing keeps the folder within the limit", test_put_keeps_within_limit);
    CU_add_test(s, "threads through one handle and two", test_threads);
    return cu_run();
}

/* test_diskcache.c: the on-disk answer cache (lib/net/diskcache.c): entries
 * checked by key, written whole, and kept within a size limit, least recently
 * used first. */
#define _GNU_SOURCE
#include "cu_support.h"

#include "seawx/diskcache.h"
#include "seawx/error.h"

#include <dirent.h>
#include <fcntl.h>
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

static void test_round_trip(void)
{
    swx_diskcache_set_max(0);
    const char *key = "http://127.0.0.1:1/wms?LAYERS=a&BBOX=0,0,1,1";
    CU_ASSERT_EQUAL(swx_diskcache_put(dir, key, "PNGDATA", 7), 0);
    void *data = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL(swx_diskcache_get(dir, key, &data, &len), 0);
    CU_ASSERT(len == 7 && data && memcmp(data, "PNGDATA", 7) == 0);
    free(data);
    /* Another key never gets this answer, even read from the same file. */
    CU_ASSERT_EQUAL(swx_diskcache_get(dir, "http://127.0.0.1:1/wms?LAYERS=b", &data, &len),
                    SWX_ENOTFOUND);
    CU_ASSERT_PTR_NULL(data);
    CU_ASSERT_EQUAL(count_files(".swx", NULL), 1);
    CU_ASSERT_EQUAL(count_files(".tmp", NULL), 0);
    CU_ASSERT_EQUAL(swx_diskcache_put(dir, key, "x", SWX_DISKCACHE_MAX_ENTRY + 1u), SWX_ETOOBIG);
}

static void test_limit_from_environment(void)
{
    /* Before any swx_diskcache_set_max(): the environment, else 1 GiB. */
    unsetenv("SEAWX_CACHE_MAX_MB");
    CU_ASSERT_EQUAL(swx_diskcache_max(), 1024u << 20);
    setenv("SEAWX_CACHE_MAX_MB", "5", 1);
    CU_ASSERT_EQUAL(swx_diskcache_max(), 5u << 20);
    setenv("SEAWX_CACHE_MAX_MB", "0", 1);
    CU_ASSERT_EQUAL(swx_diskcache_max(), 0);
    setenv("SEAWX_CACHE_MAX_MB", "lots", 1);
    CU_ASSERT_EQUAL(swx_diskcache_max(), 1024u << 20);
    setenv("SEAWX_CACHE_MAX_MB", "-3", 1);
    CU_ASSERT_EQUAL(swx_diskcache_max(), 1024u << 20);
    unsetenv("SEAWX_CACHE_MAX_MB");
    /* The program's setting wins. */
    swx_diskcache_set_max(0); /* 0 means no limit */
    CU_ASSERT_EQUAL(swx_diskcache_max(), 0);
    swx_diskcache_set_max(5u << 20);
    CU_ASSERT_EQUAL(swx_diskcache_max(), 5u << 20);
    swx_diskcache_set_max(UINT64_MAX);
    CU_ASSERT_EQUAL(swx_diskcache_max(), UINT64_MAX);
    /* As text, the way the plugin takes its configuration option. */
    CU_ASSERT_EQUAL(swx_diskcache_set_max_mb("7"), 0);
    CU_ASSERT_EQUAL(swx_diskcache_max(), 7u << 20);
    CU_ASSERT_EQUAL(swx_diskcache_set_max_mb("7x"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_diskcache_set_max_mb("-1"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_diskcache_max(), 7u << 20);
}

static void test_prune_lru(void)
{
    char key[100], body[10000];
    memset(body, 'x', sizeof body);
    swx_diskcache_set_max(0); /* fill without pruning */
    for (int i = 0; i < 100; i++) {
        snprintf(key, sizeof key, "k%03d", i);
        CU_ASSERT_EQUAL(swx_diskcache_put(dir, key, body, sizeof body), 0);
    }
    unsigned long long bytes = 0;
    CU_ASSERT_EQUAL(count_files(".swx", &bytes), 101); /* with the first test's entry */
    /* Everything old, then ten entries used again. */
    age_all(time(NULL) - 7200);
    for (int i = 0; i < 10; i++) {
        void *d = NULL;
        size_t l = 0;
        snprintf(key, sizeof key, "k%03d", i * 7);
        CU_ASSERT_EQUAL(swx_diskcache_get(dir, key, &d, &l), 0);
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
    CU_ASSERT_EQUAL(swx_diskcache_prune(dir, max, &kept, &removed), 0);
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
        CU_ASSERT_EQUAL(swx_diskcache_get(dir, key, &d, &l), 0);
        free(d);
    }
    /* Under the limit: nothing goes. */
    CU_ASSERT_EQUAL(swx_diskcache_prune(dir, max, &kept, &removed), 0);
    CU_ASSERT_EQUAL(removed, 0);
}

static void test_put_keeps_within_limit(void)
{
    char key[100], body[10000];
    memset(body, 'y', sizeof body);
    uint64_t max = 200000;
    swx_diskcache_set_max(max);
    for (int i = 0; i < 300; i++) {
        snprintf(key, sizeof key, "put%03d", i);
        CU_ASSERT_EQUAL(swx_diskcache_put(dir, key, body, sizeof body), 0);
    }
    unsigned long long bytes = 0;
    count_files(".swx", &bytes);
    /* Pruning runs every max/16 bytes written: at most that much over. */
    CU_ASSERT(bytes <= max + max / 16 + 20000);
    /* The newest entry is there. */
    void *d = NULL;
    size_t l = 0;
    CU_ASSERT_EQUAL(swx_diskcache_get(dir, "put299", &d, &l), 0);
    free(d);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("diskcache", setup, teardown);
    CU_add_test(s, "the size limit's settings", test_limit_from_environment);
    CU_add_test(s, "round trip, checked by key", test_round_trip);
    CU_add_test(s, "pruning: least recently used first, orphans, foreign files", test_prune_lru);
    CU_add_test(s, "writing keeps the folder within the limit", test_put_keeps_within_limit);
    return cu_run();
}

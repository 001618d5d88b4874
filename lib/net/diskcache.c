/* diskcache.c: answers kept on disk, checked by key on reading. */
#include "seawx/diskcache.h"

#include "buf.h"
#include "diskcache_io.h"
#include "seawx/atomicfile.h"
#include "seawx/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAGIC "SWXC1\n"
#define TMP_MAX_AGE 3600 /* seconds: a temporary file older than this is an orphan */

struct swx_diskcache {
    char *dir;
    uint64_t max; /* bytes; 0: no limit */
    /* Bytes written through this handle since it last pruned; starts over the
     * threshold so that the first write looks at the folder. */
    _Atomic uint64_t written;
    pthread_mutex_t prune_lock; /* one pruning at a time; others skip it */
};

/* Makes temporary names unique among the threads of a process. */

int swx_diskcache_open(swx_diskcache **out, const char *dir, uint64_t max_bytes)
{
    int rc = 0;
    swx_diskcache *dc = NULL;
    *out = NULL;
    if (!dir || !*dir) {
        rc = swx_error_set(SWX_EINVAL, "the disk cache needs a folder");
        goto done;
    }
    if (strlen(dir) > 4000) {
        rc = swx_error_set(SWX_EINVAL, "cache folder name too long");
        goto done;
    }
    dc = calloc(1, sizeof *dc);
    if (!dc || !(dc->dir = strdup(dir))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    dc->max = max_bytes;
    atomic_init(&dc->written, UINT64_MAX / 2);
    if (pthread_mutex_init(&dc->prune_lock, NULL) != 0) {
        rc = swx_error_set(SWX_ENOMEM, "cannot set the disk cache up");
        goto done;
    }
    *out = dc;
    dc = NULL;
done:
    if (dc)
        free(dc->dir);
    free(dc);
    return rc;
}

void swx_diskcache_free(swx_diskcache *dc)
{
    if (!dc)
        return;
    pthread_mutex_destroy(&dc->prune_lock);
    free(dc->dir);
    free(dc);
}

const char *swx_diskcache_dir(const swx_diskcache *dc)
{
    return dc->dir;
}

uint64_t swx_diskcache_max(const swx_diskcache *dc)
{
    return dc->max;
}

/* 64-bit FNV-1a twice with different offsets: spread only, the key decides. */
static void entry_path(const char *dir, const char *key, char *out, size_t n, char *folder,
                       size_t fn)
{
    uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
        a = (a ^ *p) * 0x100000001b3ULL;
        b = (b ^ *p) * 0x100000001b3ULL;
    }
    snprintf(folder, fn, "%s/%02x", dir, (unsigned)(a >> 56));
    snprintf(out, n, "%s/%016llx%016llx.swx", folder, (unsigned long long)a, (unsigned long long)b);
}

static int mkdirs(const char *path)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(tmp, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

int swx_diskcache_get(void **data, size_t *len, swx_diskcache *dc, const char *key)
{
    char path[4200], folder[4150];
    *data = NULL;
    *len = 0;
    entry_path(dc->dir, key, path, sizeof path, folder, sizeof folder);
    FILE *f = fopen(path, "rb");
    if (!f)
        return SWX_ENOTFOUND;
    int rc = SWX_ENOTFOUND;
    char *buf = NULL;
    size_t klen = strlen(key), hlen = strlen(MAGIC) + klen + 1;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size < (off_t)hlen ||
        (size_t)st.st_size > SWX_DISKCACHE_MAX_ENTRY + hlen)
        goto done;
    buf = malloc((size_t)st.st_size + 1);
    if (!buf || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size)
        goto done;
    if (memcmp(buf, MAGIC, strlen(MAGIC)) != 0 || memcmp(buf + strlen(MAGIC), key, klen) != 0 ||
        buf[strlen(MAGIC) + klen] != '\n')
        goto done;
    *len = (size_t)st.st_size - hlen;
    memmove(buf, buf + hlen, *len);
    futimens(fileno(f), NULL); /* used now: the last to go when pruning */
    buf[*len] = '\0';
    *data = buf;
    buf = NULL;
    rc = 0;
done:
    free(buf);
    fclose(f);
    return rc;
}

int swx_diskcache_put(swx_diskcache *dc, const char *key, const void *data, size_t len)
{
    char path[4200], folder[4150];
    if (len > SWX_DISKCACHE_MAX_ENTRY)
        return swx_error_set(SWX_ETOOBIG, "cache entry too large");
    entry_path(dc->dir, key, path, sizeof path, folder, sizeof folder);
    if (mkdirs(folder) != 0)
        return swx_error_set(SWX_EIO, "cannot create cache folder %s: %s", folder, strerror(errno));
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    /* An entry can be fetched again: no fsync, as before. */
    if (swx_atomicfile_open(&af, path, 0600, SWX_ATOMICFILE_NOSYNC) != 0)
        return swx_error_prefix(SWX_EIO, "cache entry");
    int ok = fputs(MAGIC, af.f) >= 0 && fputs(key, af.f) >= 0 && fputc('\n', af.f) != EOF &&
             fwrite(data, 1, len, af.f) == len;
    if (!ok) {
        int e = errno;
        swx_atomicfile_abort(&af);
        return swx_error_set(SWX_EIO, "cannot write cache entry %s: %s", path, strerror(e));
    }
    if (swx_atomicfile_commit(&af) != 0)
        return swx_error_prefix(SWX_EIO, "cache entry");
    uint64_t max = dc->max;
    uint64_t w = atomic_fetch_add(&dc->written, (uint64_t)len + strlen(key)) + len;
    if (max && w >= max / 16 && pthread_mutex_trylock(&dc->prune_lock) == 0) {
        atomic_store(&dc->written, 0);
        swx_diskcache_prune(NULL, NULL, dc->dir, max); /* best effort: the entry is stored */
        pthread_mutex_unlock(&dc->prune_lock);
    }
    return 0;
}

int swx_diskcache_parse_mb(uint64_t *bytes, const char *text)
{
    if (!text || !*text || strspn(text, "0123456789") != strlen(text) || strlen(text) > 12)
        return swx_error_set(SWX_EINVAL,
                             "a cache size must be a whole number of megabytes, "
                             "not '%.40s'",
                             text ? text : "");
    *bytes = (uint64_t)strtoull(text, NULL, 10) * 1048576;
    return 0;
}

typedef struct cache_entry {
    char name[32]; /* the file name within its folder, HASH.swx */
    unsigned char folder;
    time_t used;
    uint64_t size;
} cache_entry;

static int by_use(const void *a, const void *b)
{
    const cache_entry *x = a, *y = b;
    return x->used < y->used ? -1 : x->used > y->used;
}

int swx_diskcache_prune(uint64_t *kept, size_t *removed, const char *dir, uint64_t max_bytes)
{
    cache_entry *e = NULL;
    size_t n = 0, cap = 0, gone = 0;
    uint64_t total = 0;
    time_t now = time(NULL);
    char path[4300];
    int rc = 0;
    for (unsigned f = 0; f < 256; f++) {
        snprintf(path, sizeof path, "%s/%02x", dir, f);
        DIR *d = opendir(path);
        if (!d)
            continue;
        struct dirent *de;
        while ((de = readdir(d))) {
            const char *nm = de->d_name;
            size_t nl = strlen(nm);
            struct stat st;
            if (nm[0] == '.' || fstatat(dirfd(d), nm, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
                !S_ISREG(st.st_mode))
                continue;
            if (nl > 4 && strcmp(nm + nl - 4, ".tmp") == 0) {
                if (now - st.st_mtime > TMP_MAX_AGE && unlinkat(dirfd(d), nm, 0) == 0)
                    gone++;
                continue;
            }
            if (nl != 36 || strcmp(nm + 32, ".swx") != 0)
                continue; /* not ours: left alone */
            cache_entry *ne = swx_array_reserve(e, &cap, n + 1, sizeof *e, 1024);
            if (!ne) {
                closedir(d);
                rc = swx_error_set(SWX_ENOMEM, "out of memory measuring the cache");
                goto done;
            }
            e = ne;
            memcpy(e[n].name, nm, 32);
            e[n].folder = (unsigned char)f;
            e[n].used = st.st_mtime;
            e[n].size = (uint64_t)st.st_size;
            total += e[n].size;
            n++;
        }
        closedir(d);
    }
    if (max_bytes && total > max_bytes) {
        uint64_t goal = max_bytes / 4 * 3;
        qsort(e, n, sizeof *e, by_use);
        for (size_t i = 0; i < n && total > goal; i++) {
            snprintf(path, sizeof path, "%s/%02x/%.32s.swx", dir, e[i].folder, e[i].name);
            if (unlink(path) == 0 || errno == ENOENT) {
                total -= e[i].size;
                gone++;
            }
        }
    }
done:
    free(e);
    if (kept)
        *kept = total;
    if (removed)
        *removed = gone;
    return rc;
}

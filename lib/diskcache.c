/* diskcache.c: answers kept on disk, checked by key on reading. */
#include "seawx/diskcache.h"

#include "seawx/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "SWXC1\n"

char *swx_diskcache_default_dir(const char *sub)
{
    const char *own = getenv("SEAWX_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    char path[4096];
    if (own && *own)
        snprintf(path, sizeof path, "%s/%s", own, sub);
    else if (xdg && *xdg)
        snprintf(path, sizeof path, "%s/seawx/%s", xdg, sub);
    else if (home && *home)
        snprintf(path, sizeof path, "%s/.cache/seawx/%s", home, sub);
    else
        return NULL;
    return strdup(path);
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
    snprintf(out, n, "%s/%016llx%016llx.swx", folder, (unsigned long long)a,
             (unsigned long long)b);
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

int swx_diskcache_get(const char *dir, const char *key, void **data, size_t *len)
{
    char path[4200], folder[4150];
    *data = NULL;
    *len = 0;
    entry_path(dir, key, path, sizeof path, folder, sizeof folder);
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
    buf[*len] = '\0';
    *data = buf;
    buf = NULL;
    rc = 0;
done:
    free(buf);
    fclose(f);
    return rc;
}

int swx_diskcache_put(const char *dir, const char *key, const void *data, size_t len)
{
    char path[4200], folder[4150], tmp[4300];
    if (len > SWX_DISKCACHE_MAX_ENTRY)
        return swx_error_set(SWX_ETOOBIG, "cache entry too large");
    entry_path(dir, key, path, sizeof path, folder, sizeof folder);
    if (mkdirs(folder) != 0)
        return swx_error_set(SWX_EIO, "cannot create cache folder %s: %s", folder,
                             strerror(errno));
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return swx_error_set(SWX_EIO, "cannot write cache entry %s: %s", tmp, strerror(errno));
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        return swx_error_set(SWX_EIO, "cannot write cache entry %s", tmp);
    }
    int ok = fputs(MAGIC, f) >= 0 && fputs(key, f) >= 0 && fputc('\n', f) != EOF &&
             fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return swx_error_set(SWX_EIO, "cannot write cache entry %s: %s", path, strerror(e));
    }
    return 0;
}

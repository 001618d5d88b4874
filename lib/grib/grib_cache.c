/* grib_cache.c: what a voyage GRIB's build keeps in the disk cache: each
 * forecast file's index (its message heads), each message as fetched, and
 * each field's simply packed copy, by file and byte range (file names carry
 * the run, so an entry never goes stale). */
#include "grib_int.h"

#include "diskcache_io.h"
#include "seawx/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file's index (its message heads): "SWXGI1\n", the file's size (8 bytes),
 * then per message its offset (8), the length of its head (8) and the head's
 * bytes; each head is read again by the section walker, so an entry is
 * checked as a fetched answer is. */
#define INDEX_MAGIC "SWXGI1\n"

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static int index_key(char *key, size_t n, const gfile *f)
{
    return snprintf(key, n, "seawx-grib-index 1 %s", f->id) < (int)n ? 0 : -1;
}

int swx__grib_index_put(gjob *j, const gfile *f)
{
    if (!j->o.cache)
        return 0;
    size_t len = sizeof INDEX_MAGIC - 1 + 8;
    for (size_t i = 0; i < f->n; i++)
        len += 16 + f->msgs[i].head_len;
    uint8_t *b = malloc(len), *p = b;
    if (!b)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    memcpy(p, INDEX_MAGIC, sizeof INDEX_MAGIC - 1);
    p += sizeof INDEX_MAGIC - 1;
    put_u64(p, (uint64_t)f->size);
    p += 8;
    for (size_t i = 0; i < f->n; i++) {
        put_u64(p, f->msgs[i].off);
        put_u64(p + 8, f->msgs[i].head_len);
        memcpy(p + 16, f->msgs[i].head, f->msgs[i].head_len);
        p += 16 + f->msgs[i].head_len;
    }
    char key[400];
    int rc = index_key(key, sizeof key, f) ? 0 : swx_diskcache_put(j->o.cache, key, b, len);
    free(b);
    /* A cache that cannot be written costs a second fetch, not the build. */
    if (rc && rc != SWX_ENOMEM) {
        swx_error_clear();
        rc = 0;
    }
    return rc;
}

/* Reads a cached index into f (which holds no messages yet). */
static int index_read(gfile *f, const uint8_t *b, size_t len)
{
    size_t m = sizeof INDEX_MAGIC - 1;
    if (len < m + 8 || memcmp(b, INDEX_MAGIC, m) != 0)
        return swx_error_set(SWX_EPARSE, "a damaged cache entry");
    uint64_t size = get_u64(b + m), next = 0;
    size_t off = m + 8;
    while (off < len) {
        if (len - off < 16)
            return swx_error_set(SWX_EPARSE, "a damaged cache entry");
        uint64_t at = get_u64(b + off), hl = get_u64(b + off + 8);
        off += 16;
        if (hl > len - off || at != next)
            return swx_error_set(SWX_EPARSE, "a damaged cache entry");
        swx_grib_head h;
        uint64_t need;
        int rc = swx_grib_head_read(&h, &need, b + off, (size_t)hl, "a cache entry");
        if (rc != 0)
            return rc < 0 ? rc : swx_error_set(SWX_EPARSE, "a damaged cache entry");
        if ((rc = swx__grib_file_push(f, at, &h, b + off, (size_t)hl)))
            return rc;
        next = at + h.length;
        off += (size_t)hl;
    }
    if (next != size || size > INT64_MAX)
        return swx_error_set(SWX_EPARSE, "a damaged cache entry");
    f->size = (int64_t)size;
    f->next = next;
    f->walked = 1;
    return 0;
}

void swx__grib_index_get(gjob *j, gfile *f)
{
    char key[400];
    void *data = NULL;
    size_t len = 0;
    if (!j->o.cache || index_key(key, sizeof key, f) ||
        swx_diskcache_get(&data, &len, j->o.cache, key) != 0) {
        swx_error_clear();
        return;
    }
    if (index_read(f, data, len) != 0) {
        /* Not used: the file is walked again and the entry replaced. */
        for (size_t i = 0; i < f->n; i++)
            free(f->msgs[i].head);
        f->n = 0;
        f->walked = 0;
        f->next = 0;
        f->size = -1;
        swx_error_clear();
    }
    free(data);
}

/* The key of a field's simply packed copy (grib_cut.c), which the cache
 * keeps beside the message as fetched: a later cut decodes it several times
 * faster than the service's complex packing. */
int swx__grib_field_key(char *key, size_t n, const gfile *f, const gmsg *m)
{
    return snprintf(key, n, "seawx-grib-field 1 %s %llu %llu", f->id, (unsigned long long)m->off,
                    (unsigned long long)m->h.length) < (int)n
               ? 0
               : -1;
}

int swx__grib_msg_key(char *key, size_t n, const gfile *f, const gmsg *m)
{
    return snprintf(key, n, "seawx-grib-message 1 %s %llu %llu", f->id, (unsigned long long)m->off,
                    (unsigned long long)m->h.length) < (int)n
               ? 0
               : -1;
}

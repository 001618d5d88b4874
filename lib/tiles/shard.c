/*
 * shard.c: the "hilbert-v1" partition of a seed's blocks into shards (the
 * scheme is in shard.h) and the parsing of "K/N".
 */
#include "shard.h"

#include "area.h"
#include "buf.h"
#include "seawx/setting.h"
#include "seawx/error.h"
#include "tile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A key holds the curve's position (48 bits at zoom 24) above 5 bits of zoom;
 * while the partition is computed, 7 more bits below hold the block's tiles. */
#define KEY_ZOOM_BITS 5
#define KEY_TILE_BITS 7

int swx_shard_parse(int *k, int *n, const char *text)
{
    char *end = NULL;
    *k = *n = 0;
    if (!text || *text < '0' || *text > '9')
        goto bad;
    long a = strtol(text, &end, 10);
    if (*end != '/' || end[1] < '0' || end[1] > '9')
        goto bad;
    long b = strtol(end + 1, &end, 10);
    if (*end)
        goto bad;
    if (b < 1 || b > SWX_SHARD_MAX)
        return swx_error_set(SWX_EINVAL, "shard count %ld is not within 1 to %d", b, SWX_SHARD_MAX);
    if (a < 1 || a > b)
        return swx_error_set(SWX_EINVAL, "shard %ld of %ld: K must be from 1 to %ld", a, b, b);
    *k = (int)a;
    *n = (int)b;
    return 0;
bad:
    return swx_error_set(SWX_EINVAL, "shard '%.40s' is not K/N (3/8: the third of eight)",
                         text ? text : "");
}

/* The position of cell (x, y) on the Hilbert curve of order `order`. */
static uint64_t hilbert(int order, uint32_t x, uint32_t y)
{
    uint64_t d = 0;
    uint32_t full = order ? (uint32_t)((1ull << order) - 1) : 0;
    for (uint32_t s = order ? 1u << (order - 1) : 0; s > 0; s >>= 1) {
        uint32_t rx = (x & s) ? 1 : 0, ry = (y & s) ? 1 : 0;
        d += (uint64_t)s * s * ((3 * rx) ^ ry);
        if (!ry) {
            if (rx) {
                x = full - x;
                y = full - y;
            }
            uint32_t t = x;
            x = y;
            y = t;
        }
    }
    return d;
}

/* The key of the block of zoom z from (x0, y0), n tiles a side. */
static uint64_t block_key(int deep, int z, uint32_t x0, uint32_t y0, int n)
{
    int up = deep - z;
    uint64_t side = (uint64_t)n << up; /* a power of two */
    uint64_t h = hilbert(deep, x0 << up, y0 << up) & ~(side * side - 1);
    return (h << KEY_ZOOM_BITS) | (uint64_t)z;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int popcount64(uint64_t v)
{
    int c = 0;
    for (; v; v &= v - 1)
        c++;
    return c;
}

int swx_shard_bounds(uint64_t *lo, uint64_t *tiles, uint64_t *per_zoom, int *deep,
                     const swx_area *a, uint32_t zooms, int metatile, int k, int n)
{
    swx_tile_iter *it = NULL;
    uint64_t *keys = NULL;
    size_t nkeys = 0, cap = 0;
    uint64_t total = 0;
    int rc = 0;
    if (n < 1 || n > SWX_SHARD_MAX || k < 0 || k > n)
        return swx_error_set(SWX_EINVAL, "shard %d of %d is not a shard", k, n);
    if (!zooms || (zooms >> (SWX_TILE_MAX_ZOOM + 1)))
        return swx_error_set(SWX_EINVAL, "no zoom levels to shard");
    *deep = 0;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
        if (zooms & (1u << z))
            *deep = z;
    /* Every block of every zoom, with its tiles. */
    for (int z = 0; z <= *deep; z++) {
        if (!(zooms & (1u << z)))
            continue;
        if ((rc = swx_tile_iter_new(&it, a, z, metatile)))
            goto done;
        swx_tile_block b;
        while ((rc = swx_tile_iter_next(&b, it)) == 1) {
            if (nkeys >= SWX_SHARD_MAX_BLOCKS) {
                rc = swx_error_set(SWX_EINVAL,
                                   "the area has more than %u GetMap blocks to share out; use a "
                                   "larger %s or fewer zooms per seed",
                                   SWX_SHARD_MAX_BLOCKS, swx_setting_name(SWX_SET_METATILE));
                goto done;
            }
            uint64_t *grown = swx_array_reserve(keys, &cap, nkeys + 1, sizeof *keys, 4096);
            if (!grown) {
                rc = SWX_ENOMEM;
                goto done;
            }
            keys = grown;
            int w = popcount64(b.mask);
            keys[nkeys++] = (block_key(*deep, b.z, b.x0, b.y0, b.n) << KEY_TILE_BITS) | (uint64_t)w;
            total += (uint64_t)w;
        }
        swx_tile_iter_free(it);
        it = NULL;
        if (rc < 0)
            goto done;
        rc = 0;
    }
    qsort(keys, nkeys, sizeof *keys, cmp_u64);
    /* Cut by tiles: the shard of a block is where its middle falls; shard i
     * (0-based) starts at the first block that falls in it, or, when none
     * does, where the next one starts (an empty range). */
    for (int i = 0; i <= n; i++)
        lo[i] = UINT64_MAX;
    if (tiles)
        memset(tiles, 0, (size_t)n * sizeof *tiles);
    if (per_zoom)
        memset(per_zoom, 0, (SWX_TILE_MAX_ZOOM + 1) * sizeof *per_zoom);
    uint64_t before = 0;
    for (size_t i = 0; i < nkeys; i++) {
        uint64_t w = keys[i] & ((1u << KEY_TILE_BITS) - 1), key = keys[i] >> KEY_TILE_BITS;
        uint64_t sh = (2 * before + w) * (uint64_t)n / (2 * total);
        if (sh > (uint64_t)n - 1)
            sh = (uint64_t)n - 1;
        before += w;
        if (lo[sh] == UINT64_MAX)
            lo[sh] = key;
        if (tiles)
            tiles[sh] += w;
        if (per_zoom && sh + 1 == (uint64_t)k)
            per_zoom[key & ((1u << KEY_ZOOM_BITS) - 1)] += w;
    }
    for (int i = n - 1; i >= 0; i--)
        if (lo[i] == UINT64_MAX)
            lo[i] = lo[i + 1];
done:
    swx_tile_iter_free(it);
    free(keys);
    return rc;
}

int swx_shard_of(const uint64_t *lo, int n, int deep, int metatile, int z, uint32_t x0, uint32_t y0)
{
    if (z > deep)
        return -1;
    uint64_t m = (uint64_t)metatile, dim = 1ull << z;
    uint64_t key = block_key(deep, z, x0, y0, (int)(m < dim ? m : dim));
    /* the last i with lo[i] <= key */
    int a = 0, b = n; /* lo[a] <= key < lo[b] once found */
    if (key < lo[0])
        return -1;
    while (b - a > 1) {
        int mid = a + (b - a) / 2;
        if (lo[mid] <= key)
            a = mid;
        else
            b = mid;
    }
    return a;
}

int swx_shard_part_new(swx_shard_part **out, const swx_area *a, uint32_t zooms, int metatile, int k,
                       int n)
{
    swx_shard_part *p = NULL;
    uint64_t *lo = NULL;
    int rc = 0;
    *out = NULL;
    if (n < 1 || n > SWX_SHARD_MAX || k < 1 || k > n)
        return swx_error_set(SWX_EINVAL, "shard %d of %d is not a shard", k, n);
    p = calloc(1, sizeof *p);
    lo = calloc((size_t)n + 1, sizeof *lo);
    if (!p || !lo) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    p->k = k;
    p->n = n;
    p->metatile = metatile;
    if ((rc = swx_shard_bounds(lo, NULL, p->per_zoom, &p->deep, a, zooms, metatile, k, n)))
        goto done;
    p->lo = lo[k - 1];
    p->hi = lo[k];
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
        p->tiles += p->per_zoom[z];
done:
    free(lo);
    if (rc) {
        swx_shard_part_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

void swx_shard_part_free(swx_shard_part *p)
{
    free(p);
}

int swx_shard_part_has(const swx_shard_part *p, int z, uint32_t x0, uint32_t y0)
{
    if (z > p->deep)
        return 0;
    uint64_t n = (uint64_t)p->metatile, dim = 1ull << z;
    uint64_t key = block_key(p->deep, z, x0, y0, (int)(n < dim ? n : dim));
    return key >= p->lo && key < p->hi;
}

static void hash_doubles(swx_sha256_ctx *c, const double *v, size_t n)
{
    /* Doubles as text, so that the hash does not depend on the byte order. */
    char s[40];
    for (size_t i = 0; i < n; i++) {
        int len = snprintf(s, sizeof s, "%.17g,", v[i]);
        swx_sha256_update(c, s, (size_t)len);
    }
}

void swx_shard_hash_area(swx_sha256_ctx *c, const swx_area *a)
{
    char s[64];
    int len = snprintf(s, sizeof s, "area %d\n", (int)a->kind);
    swx_sha256_update(c, s, (size_t)len);
    double head[] = {a->west,  a->south, a->east, a->north, a->bw,
                     a->bspan, a->bs,    a->bn,   a->buffer};
    hash_doubles(c, head, sizeof head / sizeof head[0]);
    for (size_t i = 0; i < a->nedges; i++)
        hash_doubles(c, &a->edges[i].x0, 4);
    for (size_t i = 0; i < a->nlegs; i++) {
        hash_doubles(c, a->legs[i].a, 3);
        hash_doubles(c, a->legs[i].b, 3);
    }
}

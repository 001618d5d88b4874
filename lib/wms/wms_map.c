/* wms_map.c: a WMS layer at one time as a grid of GetMap blocks. */
#include "wms_request.h"
#include "seawx/wms_map.h"

#include "buf.h"
#include "diskcache_io.h"
#include "http_core.h"
#include "png_codec.h"
#include "pool.h"
#include "seawx/diskcache.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/sphere.h"
#include "seawx/wms_select.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MERC_MAX 20037508.342789244
#define MERC_MAX_LAT 85.0511287798066
#define MAX_LEVELS 24

struct swx_map {
    swx_caps *caps;
    const swx_layer *layer;
    char *bundle;
    char crs[16];
    int epsg;
    const char *style;
    int64_t time;
    char time_s[SWX_ISO8601_LEN];
    double minx, miny, maxx, maxy;
    int w[MAX_LEVELS], h[MAX_LEVELS];
    int levels;
    int bs;
    swx_diskcache *cache; /* borrowed; NULL: none */
};

static double merc_y(double lat)
{
    if (lat > MERC_MAX_LAT)
        lat = MERC_MAX_LAT;
    if (lat < -MERC_MAX_LAT)
        lat = -MERC_MAX_LAT;
    return SWX_MERC_RADIUS_M * log(tan(M_PI / 4 + lat * M_PI / 360));
}

/* The layer, time, style and CRS asked for, with the one grammar of
 * seawx/wms_select.h. */
static int resolve_selection(swx_map *m, const swx_map_opts *o)
{
    const char *crs = NULL;
    int rc;
    if ((rc = swx_select_layer(&m->layer, m->caps, o->bundle, o->layer, o->variable, o->run)) ||
        (rc = swx_select_time(&m->time, m->layer, o->time)) ||
        (rc = swx_select_style(&m->style, m->layer, o->style)) ||
        (rc = swx_select_crs(&crs, &m->epsg, m->layer, o->crs)))
        return rc;
    if (m->time != INT64_MIN)
        swx_iso8601_format(m->time_s, m->time);
    snprintf(m->crs, sizeof m->crs, "%s", crs);
    return 0;
}

static void resolve_extent(swx_map *m)
{
    double w = -180, s = -90, e = 180, n = 90;
    int have_geo = swx_layer_geo_bbox(&w, &s, &e, &n, m->layer) == 0;
    if (m->epsg == 3857) {
        for (size_t i = 0; i < swx_layer_bbox_count(m->layer); i++) {
            const swx_bbox *b = swx_layer_bbox(m->layer, i);
            if (strcasecmp(b->crs, m->crs) == 0) {
                m->minx = b->minx;
                m->miny = b->miny;
                m->maxx = b->maxx;
                m->maxy = b->maxy;
                return;
            }
        }
        m->minx = SWX_MERC_RADIUS_M * w * M_PI / 180;
        m->maxx = SWX_MERC_RADIUS_M * e * M_PI / 180;
        m->miny = merc_y(s);
        m->maxy = merc_y(n);
        return;
    }
    if (!have_geo) {
        for (size_t i = 0; i < swx_layer_bbox_count(m->layer); i++) {
            const swx_bbox *b = swx_layer_bbox(m->layer, i);
            int lat_first = strcasecmp(b->crs, "EPSG:4326") == 0 &&
                            strcmp(swx_caps_version(m->caps), "1.3.0") == 0;
            if (strcasecmp(b->crs, "EPSG:4326") == 0 || strcasecmp(b->crs, "CRS:84") == 0) {
                w = lat_first ? b->miny : b->minx;
                s = lat_first ? b->minx : b->miny;
                e = lat_first ? b->maxy : b->maxx;
                n = lat_first ? b->maxx : b->maxy;
                break;
            }
        }
    }
    m->minx = w;
    m->miny = s;
    m->maxx = e;
    m->maxy = n;
}

static int resolve_size(swx_map *m, const swx_map_opts *o)
{
    double sx = m->maxx - m->minx, sy = m->maxy - m->miny;
    if (!(sx > 0) || !(sy > 0))
        return swx_error_set(SWX_ESERVICE, "layer %s has an empty extent",
                             swx_layer_name(m->layer));
    double res = o->res;
    if (res < 0 || o->width < 0 || o->height < 0)
        return swx_error_set(SWX_EINVAL, "size and resolution must be positive");
    if (res == 0)
        res = m->epsg == 3857 ? SWX_MERC_RADIUS_M * M_PI / 180 * SWX_MAP_DEFAULT_RES_DEG
                              : SWX_MAP_DEFAULT_RES_DEG;
    double w = o->width, h = o->height;
    if (w > 0 && h <= 0)
        h = w * sy / sx;
    else if (h > 0 && w <= 0)
        w = h * sx / sy;
    else if (w <= 0 && h <= 0) {
        w = sx / res;
        h = sy / res;
    }
    w = floor(w + 0.5);
    h = floor(h + 0.5);
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    if (w > SWX_MAP_MAX_SIDE || h > SWX_MAP_MAX_SIDE)
        return swx_error_set(SWX_EINVAL,
                             "a raster of %.0f x %.0f pixels is over the limit of %d "
                             "on a side; ask for a coarser resolution",
                             w, h, SWX_MAP_MAX_SIDE);
    m->w[0] = (int)w;
    m->h[0] = (int)h;
    m->levels = 1;
    while (m->levels < MAX_LEVELS) {
        int k = m->levels;
        int lw = (int)(((int64_t)m->w[0] + (1 << k) - 1) >> k);
        int lh = (int)(((int64_t)m->h[0] + (1 << k) - 1) >> k);
        if ((lw > lh ? lw : lh) < SWX_MAP_MIN_OVERVIEW)
            break;
        m->w[k] = lw;
        m->h[k] = lh;
        m->levels++;
    }
    return 0;
}

int swx_map_open(swx_map **out, swx_caps *caps, const swx_map_opts *o)
{
    int rc;
    *out = NULL;
    swx_map *m = calloc(1, sizeof *m);
    if (!m) {
        swx_caps_free(caps);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    m->caps = caps;
    if ((rc = swx_wms_bundle_check(o->bundle)))
        goto done;
    m->bundle = strdup(o->bundle);
    m->cache = o->cache;
    if (!m->bundle) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    m->bs = o->block_size ? o->block_size : 256;
    if (m->bs != 256 && m->bs != 512) {
        rc = swx_error_set(SWX_EINVAL, "block size %d is not 256 or 512", o->block_size);
        goto done;
    }
    int maxw = swx_caps_max_width(caps), maxh = swx_caps_max_height(caps);
    if ((maxw && m->bs > maxw) || (maxh && m->bs > maxh)) {
        rc = swx_error_set(SWX_EINVAL, "block size %d is over the service's limit of %d x %d",
                           m->bs, maxw, maxh);
        goto done;
    }
    if ((rc = resolve_selection(m, o)))
        goto done;
    resolve_extent(m);
    rc = resolve_size(m, o);
done:
    if (rc) {
        swx_map_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

void swx_map_free(swx_map *m)
{
    if (!m)
        return;
    swx_caps_free(m->caps);
    free(m->bundle);
    free(m);
}

const swx_layer *swx_map_layer(const swx_map *m)
{
    return m->layer;
}

const char *swx_map_bundle(const swx_map *m)
{
    return m->bundle;
}

const char *swx_map_crs(const swx_map *m)
{
    return m->crs;
}

int swx_map_epsg(const swx_map *m)
{
    return m->epsg;
}

const char *swx_map_style(const swx_map *m)
{
    return m->style;
}

int64_t swx_map_time(const swx_map *m)
{
    return m->time;
}

int swx_map_width(const swx_map *m)
{
    return m->w[0];
}

int swx_map_height(const swx_map *m)
{
    return m->h[0];
}

int swx_map_block_size(const swx_map *m)
{
    return m->bs;
}

void swx_map_geotransform(double gt[6], const swx_map *m)
{
    gt[0] = m->minx;
    gt[1] = (m->maxx - m->minx) / m->w[0];
    gt[2] = 0;
    gt[3] = m->maxy;
    gt[4] = 0;
    gt[5] = -(m->maxy - m->miny) / m->h[0];
}

int swx_map_level_count(const swx_map *m)
{
    return m->levels;
}

void swx_map_level_size(int *w, int *h, const swx_map *m, int level)
{
    if (level < 0 || level >= m->levels) {
        *w = *h = 0;
        return;
    }
    *w = m->w[level];
    *h = m->h[level];
}

int swx_map_block_getmap(swx_getmap *g, const swx_map *m, int level, int bx, int by)
{
    if (level < 0 || level >= m->levels)
        return swx_error_set(SWX_EINVAL, "no overview level %d", level);
    int lw = m->w[level], lh = m->h[level];
    /* Checked against the block counts before multiplying, which could overflow. */
    if (bx < 0 || by < 0 || bx >= (lw + m->bs - 1) / m->bs || by >= (lh + m->bs - 1) / m->bs)
        return swx_error_set(SWX_EINVAL, "block %d,%d is outside level %d", bx, by, level);
    int x0 = bx * m->bs, y0 = by * m->bs;
    int x1 = x0 + m->bs < lw ? x0 + m->bs : lw;
    int y1 = y0 + m->bs < lh ? y0 + m->bs : lh;
    double rx = (m->maxx - m->minx) / lw, ry = (m->maxy - m->miny) / lh;
    memset(g, 0, sizeof *g);
    g->bundle = m->bundle;
    g->layer = swx_layer_name(m->layer);
    g->time = m->time == INT64_MIN ? NULL : m->time_s;
    g->style = m->style;
    g->crs = m->crs;
    g->minx = m->minx + x0 * rx;
    g->maxx = x1 == lw ? m->maxx : m->minx + x1 * rx;
    g->maxy = m->maxy - y0 * ry;
    g->miny = y1 == lh ? m->miny : m->maxy - y1 * ry;
    g->width = x1 - x0;
    g->height = y1 - y0;
    g->transparent = 1;
    return 0;
}

/* ---- reading blocks ---- */

typedef struct reader {
    swx_map *m;
    swx_client *c;
    int level;
    const int *bxy;
    size_t n, next;
    swx_query *q;
    swx_map_block_fn cb;
    void *ud;
    int cb_rc;   /* set when the caller's callback stopped the read */
    char **keys; /* with a disk cache: each block's cache key, made once */
} reader;

/* Decodes a block's PNG and hands it on; the size must be the block's. */
static int deliver(reader *r, size_t i, const void *png, size_t len, const char *from)
{
    swx_getmap g;
    uint8_t *rgba = NULL;
    int w, h;
    int rc = swx_map_block_getmap(&g, r->m, r->level, r->bxy[2 * i], r->bxy[2 * i + 1]);
    if (!rc)
        rc = swx_png_decode_rgba(&rgba, &w, &h, png, len, g.width, g.height);
    if (rc)
        return swx_error_prefix(rc, "bad image from %s", from);
    if (w != g.width || h != g.height) {
        free(rgba);
        return swx_error_set(SWX_ESERVICE, "image from %s is %d x %d, not the %d x %d asked for",
                             from, w, h, g.width, g.height);
    }
    rc = r->cb(r->ud, r->level, r->bxy[2 * i], r->bxy[2 * i + 1], rgba, w, h);
    free(rgba);
    if (rc)
        r->cb_rc = rc;
    return rc;
}

static char *cache_key(reader *r, const swx_request *req)
{
    /* The request as displayed carries no key; the service's address is part
     * of it, so two services never share entries. */
    return swx_request_display_url(r->c, req);
}

static int reader_next(void *ud, swx_request *req, void **user)
{
    reader *r = ud;
    while (r->next < r->n) {
        size_t i = r->next++;
        swx_getmap g;
        swx_query_free(r->q);
        r->q = NULL;
        int rc = swx_map_block_getmap(&g, r->m, r->level, r->bxy[2 * i], r->bxy[2 * i + 1]);
        if (!rc)
            rc = swx_wms_getmap_request(req, &r->q, &g);
        if (rc)
            return rc;
        if (r->keys) {
            char *key = r->keys[i] = cache_key(r, req);
            void *data = NULL;
            size_t len = 0;
            if (key && swx_diskcache_get(&data, &len, r->m->cache, key) == 0) {
                rc = deliver(r, i, data, len, "the disk cache");
                free(data);
                if (r->cb_rc)
                    return r->cb_rc;
                if (rc == 0)
                    continue;
                /* A damaged entry is fetched again and replaced. */
            }
        }
        *user = (void *)(uintptr_t)i;
        return 1;
    }
    return 0;
}

static int reader_done(void *ud, void *user, int rc, const swx_response *resp)
{
    reader *r = ud;
    size_t i = (size_t)(uintptr_t)user;
    if (rc)
        return rc;
    rc = deliver(r, i, resp->body, resp->len, resp->url);
    if (rc)
        return rc;
    /* A cache that cannot be written costs speed, not the read. */
    if (r->keys && r->keys[i])
        swx_diskcache_put(r->m->cache, r->keys[i], resp->body, resp->len);
    return 0;
}

int swx_map_read_blocks(swx_fetch_stats *stats, swx_map *m, swx_client *c, int level,
                        const int *bxy, size_t n, int max_in_flight, volatile sig_atomic_t *cancel,
                        swx_map_block_fn cb, void *ud)
{
    reader r = {m, c, level, bxy, n, 0, NULL, cb, ud, 0, NULL};
    swx_fetch_opts o = {max_in_flight > 0 ? max_in_flight : 8, 0, cancel};
    if (m->cache && n && !(r.keys = calloc(n, sizeof *r.keys)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    int rc = swx_fetch_run(stats, c, &o, reader_next, reader_done, &r);
    swx_query_free(r.q);
    for (size_t i = 0; r.keys && i < n; i++)
        free(r.keys[i]);
    free(r.keys);
    return rc;
}

/* ---- reading a window ---- */

typedef struct piece {
    swx_getmap g;
    int ox, oy; /* where it goes in the window's image */
    char *key;  /* with a disk cache: its cache key, made once */
} piece;

/* An answer waiting for a decoder: the piece, its PNG and where it came from
 * (both owned). */
typedef struct wjob {
    swx_pool_item link; /* first: the pool's */
    size_t i;
    char *png;
    size_t len;
    char *from;
} wjob;

#define WDECODERS_MAX 4

typedef struct wreader {
    swx_map *m;
    swx_client *c;
    piece *p;
    size_t n, next;
    uint8_t *out;
    int bw;
    swx_query *q;
    swx_pool *decoders; /* decoding beside the fetch (wdecoders_start), or NULL */
} wreader;

/* Decodes a piece's PNG straight into its place in the window's image. */
static int wdeliver(wreader *r, size_t i, const void *png, size_t len, const char *from)
{
    const piece *p = &r->p[i];
    int rc = swx_png_decode_rgba_into(r->out + ((size_t)p->oy * r->bw + p->ox) * 4,
                                      (size_t)r->bw * 4, p->g.width, p->g.height, png, len);
    if (rc)
        return swx_error_prefix(rc, "bad image from %s", from);
    return 0;
}

/* A decoder's work: an answer decoded into its place (pieces never overlap)
 * and kept in the disk cache once it decoded. The first failure fails the
 * read, and what is queued after it is dropped. */
static int wdecode(void *ctx, swx_pool_item *item)
{
    wreader *r = ctx;
    wjob *j = (wjob *)item;
    int rc = wdeliver(r, j->i, j->png, j->len, j->from);
    if (!rc && r->p[j->i].key)
        swx_diskcache_put(r->m->cache, r->p[j->i].key, j->png, j->len);
    return rc;
}

static void wjob_free(void *ctx, swx_pool_item *item)
{
    (void)ctx;
    wjob *j = (wjob *)item;
    free(j->png);
    free(j->from);
    free(j);
}

/* Starts decoders for a window of n pieces: one per processor, at most
 * WDECODERS_MAX, none for a single piece (it is decoded where it arrives).
 * bench/driver: a 4096 x 2048 copy spends a quarter of its CPU inflating PNGs,
 * all answers arriving within a few milliseconds of each other; decoded one by
 * one in the fetching thread they were the copy's longest step. */
static void wdecoders_start(wreader *r)
{
    static const swx_pool_ops ops = {SWX_POOL_KEEP, wdecode, wjob_free};
    r->decoders = r->n < 2 ? NULL : swx_pool_start(WDECODERS_MAX, &ops, r);
}

/* Hands an answer to the decoders (the body copied: the response is freed
 * when done() returns); a decoder's failure stops the run, its message given
 * when the decoders stop. */
static int wqueue(wreader *r, size_t i, const swx_response *resp)
{
    wjob *j = malloc(sizeof *j);
    char *png = malloc(resp->len ? resp->len : 1);
    char *from = strdup(resp->url ? resp->url : "the service");
    if (!j || !png || !from) {
        free(j);
        free(png);
        free(from);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    memcpy(png, resp->body, resp->len);
    *j = (wjob){.i = i, .png = png, .len = resp->len, .from = from};
    return swx_pool_submit(r->decoders, &j->link);
}

static int wreader_next(void *ud, swx_request *req, void **user)
{
    wreader *r = ud;
    while (r->next < r->n) {
        size_t i = r->next++;
        swx_query_free(r->q);
        r->q = NULL;
        int rc = swx_wms_getmap_request(req, &r->q, &r->p[i].g);
        if (rc)
            return rc;
        if (r->m->cache) {
            /* The request as displayed: no key, and the service's address. */
            char *key = r->p[i].key = swx_request_display_url(r->c, req);
            void *data = NULL;
            size_t len = 0;
            if (key && swx_diskcache_get(&data, &len, r->m->cache, key) == 0) {
                rc = wdeliver(r, i, data, len, "the disk cache");
                free(data);
                if (rc == 0)
                    continue;
                /* A damaged entry is fetched again and replaced. */
            }
        }
        *user = (void *)(uintptr_t)i;
        return 1;
    }
    return 0;
}

static int wreader_done(void *ud, void *user, int rc, const swx_response *resp)
{
    wreader *r = ud;
    size_t i = (size_t)(uintptr_t)user;
    if (rc)
        return rc;
    if (r->decoders)
        return wqueue(r, i, resp);
    if ((rc = wdeliver(r, i, resp->body, resp->len, resp->url)))
        return rc;
    if (r->p[i].key)
        swx_diskcache_put(r->m->cache, r->p[i].key, resp->body, resp->len);
    return 0;
}

int swx_map_read_window(swx_fetch_stats *stats, swx_map *m, swx_client *c, int level, double x0,
                        double y0, double xs, double ys, int bw, int bh, int pieces,
                        int max_in_flight, volatile sig_atomic_t *cancel, uint8_t *rgba)
{
    if (level < 0 || level >= m->levels)
        return swx_error_set(SWX_EINVAL, "no overview level %d", level);
    const int lw = m->w[level], lh = m->h[level];
    /* A window that ends within a millionth of a pixel of the level's edge
     * ends there (floating-point windows of resampling callers). */
    const double eps = 1e-6;
    if (!(x0 >= 0) || !(y0 >= 0) || !(xs > 0) || !(ys > 0) || x0 + xs > lw + eps ||
        y0 + ys > lh + eps || bw <= 0 || bh <= 0)
        return swx_error_set(SWX_EINVAL, "window %g,%g %g x %g is outside level %d", x0, y0, xs, ys,
                             level);
    const double rx = (m->maxx - m->minx) / lw, ry = (m->maxy - m->miny) / lh;
    /* The window's edges as the blocks' (the level's own edges exactly). */
    const double wx0 = m->minx + x0 * rx, wy1 = m->maxy - y0 * ry;
    const double wx1 = x0 + xs >= lw - eps ? m->maxx : m->minx + (x0 + xs) * rx;
    const double wy0 = y0 + ys >= lh - eps ? m->miny : m->maxy - (y0 + ys) * ry;
    /* Strips across, fewer where they would be under 8 rows; columns where
     * the service limits a GetMap's width, rows where it limits the height. */
    int maxw = swx_caps_max_width(m->caps), maxh = swx_caps_max_height(m->caps);
    int ncol = maxw > 0 ? (bw + maxw - 1) / maxw : 1;
    int nrow = pieces > 0 ? pieces : 1;
    if (nrow > (bh + 7) / 8)
        nrow = (bh + 7) / 8;
    if (maxh > 0 && nrow < (bh + maxh - 1) / maxh)
        nrow = (bh + maxh - 1) / maxh;
    size_t n = (size_t)ncol * nrow;
    piece *p = calloc(n, sizeof *p);
    if (!p)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    const double sx = (wx1 - wx0) / bw, sy = (wy1 - wy0) / bh;
    for (int j = 0; j < nrow; j++) {
        int oy0 = (int)((int64_t)bh * j / nrow), oy1 = (int)((int64_t)bh * (j + 1) / nrow);
        for (int i = 0; i < ncol; i++) {
            int ox0 = (int)((int64_t)bw * i / ncol), ox1 = (int)((int64_t)bw * (i + 1) / ncol);
            swx_getmap *g = &p[(size_t)j * ncol + i].g;
            g->bundle = m->bundle;
            g->layer = swx_layer_name(m->layer);
            g->time = m->time == INT64_MIN ? NULL : m->time_s;
            g->style = m->style;
            g->crs = m->crs;
            g->minx = ox0 == 0 ? wx0 : wx0 + ox0 * sx;
            g->maxx = ox1 == bw ? wx1 : wx0 + ox1 * sx;
            g->maxy = oy0 == 0 ? wy1 : wy1 - oy0 * sy;
            g->miny = oy1 == bh ? wy0 : wy1 - oy1 * sy;
            g->width = ox1 - ox0;
            g->height = oy1 - oy0;
            g->transparent = 1;
            p[(size_t)j * ncol + i].ox = ox0;
            p[(size_t)j * ncol + i].oy = oy0;
        }
    }
    wreader r = {.m = m, .c = c, .p = p, .n = n, .out = rgba, .bw = bw};
    swx_fetch_opts o = {max_in_flight > 0 ? max_in_flight : 8, 0, cancel};
    wdecoders_start(&r);
    int rc = swx_fetch_run(stats, c, &o, wreader_next, wreader_done, &r);
    rc = swx_pool_stop(r.decoders, rc); /* the decoders' failure, or the run's */
    swx_query_free(r.q);
    for (size_t i = 0; i < n; i++)
        free(p[i].key);
    free(p);
    return rc;
}

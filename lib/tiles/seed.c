/* seed.c: the seed's jobs and answers (seed_run_int.h): the blocks with
 * tiles still missing as GetMaps (asked again when an answer was unusable,
 * or answered from a share), each answer turned into the tiles to store
 * (checked, or decoded, warped, cut, clipped and encoded) and its tiles
 * stored.
 */
#include "seawx/setting.h"
#include "seawx/seed.h"

#include "area.h"
#include "seed_run_int.h"

#include "diskcache_io.h"
#include "encode.h"
#include "http_core.h"
#include "mbtiles.h"
#include "png_codec.h"
#include "shard.h"
#include "tile.h"
#include "seawx/error.h"
#include "warp.h"
#include "wms_request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 once the front end asked to stop (asked again each time until it does). */
int swx__seed_stopping(swx_seed *s)
{
    if (!s->stopping && s->o.stop && s->o.stop(s->o.ud))
        s->stopping = 1;
    return s->stopping;
}

void swx__seed_notify(swx_seed *s)
{
    if (s->o.progress)
        s->o.progress(s->o.ud, &s->c);
}

void swx__seed_job_free(swx_seed *s, job *j)
{
    if (!j)
        return;
    if (j->prev)
        j->prev->next = j->next;
    else if (s->live == j)
        s->live = j->next;
    if (j->next)
        j->next->prev = j->prev;
    swx_query_free(j->q);
    free(j->share_key);
    free(j);
}

static int popcount64(uint64_t v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* Builds the GetMap of a job. */
static int job_request(swx_seed *s, job *j, swx_request *req)
{
    swx_getmap g = {0};
    g.bundle = s->bundle;
    g.layer = s->layer;
    g.time = s->has_time ? s->time_s : NULL;
    g.style = s->style;
    g.width = j->nx * s->tile_size;
    g.transparent = 1;
    double a, b, c, d;
    if (s->warp) {
        g.crs = "EPSG:4326";
        swx_tile_bounds_deg(&a, &b, &c, &d, j->z, j->x0, j->y0);
        g.minx = a;
        swx_tile_bounds_deg(&a, &b, &c, &d, j->z, j->x0 + (uint32_t)j->nx - 1, j->y0);
        g.maxx = c;
        g.miny = j->south;
        g.maxy = j->north;
        g.height = j->src_h;
    } else {
        g.crs = "EPSG:3857";
        swx_tile_bounds_merc(&a, &b, &c, &d, j->z, j->x0, j->y0 + (uint32_t)j->ny - 1);
        g.minx = a;
        g.miny = b;
        swx_tile_bounds_merc(&a, &b, &c, &d, j->z, j->x0 + (uint32_t)j->nx - 1, j->y0);
        g.maxx = c;
        g.maxy = d;
        g.height = j->ny * s->tile_size;
    }
    swx_query_free(j->q);
    j->q = NULL;
    return swx_wms_getmap_request(req, &j->q, &g);
}

/* The next block with tiles still missing, as a job; 0 when none is left. */
static int next_block(swx_seed *s, job **out)
{
    *out = NULL;
    for (;;) {
        if (!s->it) {
            do
                s->zoom++;
            while (s->zoom <= SWX_TILE_MAX_ZOOM && !(s->zooms & s->only & (1u << s->zoom)));
            if (s->zoom > SWX_TILE_MAX_ZOOM)
                return 0;
            int rc = swx_tile_iter_new(&s->it, s->area, s->zoom, s->metatile);
            if (rc)
                return rc;
        }
        swx_tile_block b;
        int rc = swx_tile_iter_next(&b, s->it);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            swx_tile_iter_free(s->it);
            s->it = NULL;
            continue;
        }
        if (s->part && !swx_shard_part_has(s->part, b.z, b.x0, b.y0))
            continue;
        /* Drop the tiles already stored; keep the rectangle of the rest. */
        int i0 = b.n, i1 = -1, j0 = b.n, j1 = -1;
        uint64_t want = 0;
        for (int jj = 0; jj < b.n; jj++)
            for (int ii = 0; ii < b.n; ii++) {
                if (!((b.mask >> (jj * b.n + ii)) & 1))
                    continue;
                int has = swx_mbtiles_has(s->mb, b.z, b.x0 + (uint32_t)ii, b.y0 + (uint32_t)jj);
                if (has < 0)
                    return has;
                if (has) {
                    s->c.present++;
                    s->c.done++;
                    continue;
                }
                want |= 1ull << (jj * b.n + ii);
                i0 = ii < i0 ? ii : i0;
                i1 = ii > i1 ? ii : i1;
                j0 = jj < j0 ? jj : j0;
                j1 = jj > j1 ? jj : j1;
            }
        if (!want)
            continue;
        job *j = calloc(1, sizeof *j);
        if (!j)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        j->z = b.z;
        j->x0 = b.x0 + (uint32_t)i0;
        j->y0 = b.y0 + (uint32_t)j0;
        j->nx = i1 - i0 + 1;
        j->ny = j1 - j0 + 1;
        for (int jj = j0; jj <= j1; jj++)
            for (int ii = i0; ii <= i1; ii++)
                if ((want >> (jj * b.n + ii)) & 1)
                    j->mask |= 1ull << ((jj - j0) * j->nx + (ii - i0));
        if (s->warp && (rc = swx_warp_4326_plan(&j->south, &j->north, &j->src_h, j->z, j->y0, j->ny,
                                                s->tile_size, SWX_SEED_MAX_IMAGE))) {
            free(j);
            return rc;
        }
        *out = j;
        return 1;
    }
}

/* With a share: 1 when job j's answer was found there and handed on as if
 * the service had sent it, 0 when it must be asked for, or a negative code
 * that stops the run. A job asked again (its answer was unusable) is never
 * answered from the share. */
static int from_share(swx_seed *s, job *j, const swx_request *req)
{
    if (!s->o.share || j->bad_png)
        return 0;
    free(j->share_key);
    if (!(j->share_key = swx_request_display_url(s->client, req)))
        return 0;
    void *data = NULL;
    size_t len = 0;
    if (swx_diskcache_get(&data, &len, s->o.share, j->share_key) != 0)
        return 0;
    swx_response r = {0};
    r.status = 200;
    r.body = data;
    r.len = len;
    r.attempts = 1;
    j->from_share = 1;
    s->c.shared++;
    int rc = swx__seed_fetched(s, j, 0, &r);
    free(data);
    return rc < 0 ? rc : 1;
}

int swx__seed_produce(void *ud, swx_request *req, void **user)
{
    swx_seed *s = ud;
    for (;;) {
        int crc = swx__seed_pool_collect(s, -1);
        if (crc)
            return crc;
        if (swx__seed_stopping(s) || s->stop_rc)
            return 0;
        job *j = s->retry;
        if (j) {
            s->retry = j->next;
            j->next = NULL;
        } else {
            int rc = next_block(s, &j);
            if (rc <= 0)
                return rc;
        }
        j->prev = NULL;
        j->next = s->live;
        if (s->live)
            s->live->prev = j;
        s->live = j;
        int rc = job_request(s, j, req);
        if (rc) {
            swx__seed_job_free(s, j);
            return rc;
        }
        j->from_share = 0;
        if ((rc = from_share(s, j, req)) < 0)
            return rc;
        if (rc == 1)
            continue;
        s->c.requests++;
        *user = j;
        return 1;
    }
}

void swx__seed_job_failed(swx_seed *s, job *j, const char *why)
{
    int n = popcount64(j->mask);
    s->c.failed += (uint64_t)n;
    s->c.done += (uint64_t)n;
    s->c.run_done += (uint64_t)n;
    if (s->o.failed)
        s->o.failed(s->o.ud, j->z, j->x0, j->y0, n, why);
}

/* Stores one tile: the canonical empty tile for a fully transparent one. */
static int store(swx_seed *s, int z, uint32_t x, uint32_t y, const void *png, size_t len, int empty)
{
    if (empty) {
        s->c.empty++;
        if (s->skip_empty)
            return 0;
        if (!s->empty_png)
            return swx_error_set(SWX_EINVAL,
                                 "tile %d/%u/%u is fully transparent and JPEG has no "
                                 "transparency: add %s, or use png8 or webp",
                                 z, x, y, swx_setting_name(SWX_SET_SKIP_EMPTY));
        png = s->empty_png;
        len = s->empty_len;
    }
    int rc = swx_mbtiles_put(s->mb, z, x, y, png, len);
    if (!rc) {
        s->c.stored++;
        s->c.bytes_stored += len;
    }
    return rc;
}

static int all_clear(const uint8_t *px, int w, int h, size_t stride)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (px[stride * (size_t)y + 4 * (size_t)x + 3])
                return 0;
    return 1;
}

void swx__seed_answer_free(answer *a)
{
    if (!a)
        return;
    for (int k = 0; k < a->ntiles; k++)
        if (a->tiles[k].data != a->body)
            free(a->tiles[k].data);
    if (a->owned)
        free(a->body);
    free(a);
}

/* Clears the pixels of tile t (ts x ts, stride bytes per row) that lie
 * outside the area: RGBA all zero, the canonical transparent pixel. */
static int clip_tile(answer *a, uint8_t *t, size_t stride, uint32_t x, uint32_t y, uint8_t *keep)
{
    int ts = a->ts;
    int k = swx_area_tile_pixels(keep, a->clip, a->z, x, y, ts);
    if (k < 0 || k == SWX_CLIP_ALL)
        return k < 0 ? k : 0;
    for (int r = 0; r < ts; r++) {
        uint8_t *row = t + stride * (size_t)r;
        for (int c = 0; c < ts; c++)
            if (k == SWX_CLIP_NONE || !keep[(size_t)r * (size_t)ts + (size_t)c])
                memset(row + 4 * (size_t)c, 0, 4);
    }
    return 0;
}

/* Cuts the wanted tiles from a decoded image (nx * ts by ny * ts), clips and
 * encodes them. Returns 0 or a negative code. */
static int cut_and_encode(answer *a, uint8_t *px)
{
    int ts = a->ts, rc = 0;
    size_t stride = (size_t)a->nx * ts * 4;
    uint8_t *keep = NULL;
    if (a->clip && !(keep = malloc((size_t)ts * (size_t)ts)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (int jj = 0; jj < a->ny && !rc; jj++)
        for (int ii = 0; ii < a->nx && !rc; ii++) {
            if (!((a->mask >> (jj * a->nx + ii)) & 1))
                continue;
            uint8_t *t = px + stride * (size_t)(jj * ts) + (size_t)ii * ts * 4;
            if (a->clip &&
                (rc = clip_tile(a, t, stride, a->x0 + (uint32_t)ii, a->y0 + (uint32_t)jj, keep)))
                break;
            out_tile *o = &a->tiles[a->ntiles++];
            o->i = ii;
            o->j = jj;
            o->empty = all_clear(t, ts, ts, stride);
            if (o->empty)
                continue;
            rc = !(swx_tile_format_get((int)a->format)->props & SWX_TF_REENCODED)
                     ? swx_png_encode_rgba(&o->data, &o->len, t, ts, ts, stride, SEED_PNG_LEVEL)
                     : swx_tile_encode(&o->data, &o->len, t, ts, ts, stride, a->format, a->quality);
        }
    free(keep);
    return rc;
}

/* With clipping, whether a one-tile answer lies wholly in the area (its
 * bytes can be kept): 1, 0, or a negative code. */
static int wholly_inside(answer *a)
{
    if (!a->clip)
        return 1;
    uint8_t *keep = malloc((size_t)a->ts * (size_t)a->ts);
    if (!keep)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    int k = swx_area_tile_pixels(keep, a->clip, a->z, a->x0, a->y0, a->ts);
    free(keep);
    return k < 0 ? k : k == SWX_CLIP_ALL;
}

/* Turns an answer into the tiles to store (on a checker thread, or on the
 * calling thread when there are none): a one-tile png answer is only checked
 * and kept as it is; anything else is decoded, warped if need be, cut and
 * encoded. Sets bad for an unusable image, rc for a local failure. */
void swx__seed_process_answer(answer *a)
{
    int want_w = a->nx * a->ts, want_h = a->warp ? a->src_h : a->ny * a->ts;
    uint8_t *px = NULL;
    int w = 0, h = 0, rc;
    int keep_bytes = a->nx == 1 && a->ny == 1 && !a->warp &&
                     !(swx_tile_format_get((int)a->format)->props & SWX_TF_REENCODED);
    if (keep_bytes && (keep_bytes = wholly_inside(a)) < 0) {
        a->rc = keep_bytes;
        snprintf(a->why, sizeof a->why, "%s", swx_error_last());
        return;
    }
    if (keep_bytes) {
        int empty = 0;
        rc = swx_png_check(&w, &h, &empty, a->body, a->len);
        if (!rc && (w != want_w || h != want_h))
            rc = swx_error_set(SWX_ESERVICE, "a %d x %d image instead of %d x %d", w, h, want_w,
                               want_h);
        if (rc) {
            a->bad = 1;
            snprintf(a->why, sizeof a->why, "%s", swx_error_last());
            return;
        }
        a->tiles[0] = (out_tile){0, 0, empty, a->body, a->len};
        a->ntiles = 1;
        return;
    }
    rc = swx_png_decode_rgba(&px, &w, &h, a->body, a->len, SWX_SEED_MAX_IMAGE, SWX_SEED_MAX_IMAGE);
    if (!rc && (w != want_w || h != want_h))
        rc =
            swx_error_set(SWX_ESERVICE, "a %d x %d image instead of %d x %d", w, h, want_w, want_h);
    if (rc) {
        a->bad = 1;
        snprintf(a->why, sizeof a->why, "%s", swx_error_last());
        free(px);
        return;
    }
    if (a->warp) {
        size_t stride = (size_t)want_w * 4;
        uint8_t *warped = malloc(stride * (size_t)a->ny * a->ts);
        if (!warped) {
            free(px);
            a->rc = swx_error_set(SWX_ENOMEM, "out of memory");
            snprintf(a->why, sizeof a->why, "%s", swx_error_last());
            return;
        }
        swx_warp_4326_rows(warped, px, h, a->south, a->north, stride, a->z, a->y0, a->ny, a->ts);
        free(px);
        px = warped;
    }
    if ((rc = cut_and_encode(a, px))) {
        a->rc = rc;
        snprintf(a->why, sizeof a->why, "%s", swx_error_last());
    }
    free(px);
}

/* A new answer to the response of job j; the body is copied when it goes to
 * a checker thread (copy), else borrowed. NULL when out of memory. */
answer *swx__seed_answer_new(swx_seed *s, job *j, const swx_response *r, int copy)
{
    answer *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    if (copy) {
        a->body = malloc(r->len ? r->len : 1);
        if (!a->body) {
            free(a);
            return NULL;
        }
        memcpy(a->body, r->body, r->len);
        a->owned = 1;
    } else {
        a->body = r->body;
    }
    a->len = r->len;
    a->j = j;
    a->z = j->z;
    a->nx = j->nx;
    a->ny = j->ny;
    a->src_h = j->src_h;
    a->x0 = j->x0;
    a->y0 = j->y0;
    a->mask = j->mask;
    a->south = j->south;
    a->north = j->north;
    a->ts = s->tile_size;
    a->warp = s->warp;
    a->format = s->format;
    a->quality = s->quality;
    a->clip = s->clip ? s->area : NULL;
    return a;
}

/* Stores the tiles of a processed answer: 0, 1 when the image was unusable
 * (retry), or a negative code that must stop the run. */
int swx__seed_store_answer(swx_seed *s, answer *a)
{
    if (a->rc)
        return swx_error_set(a->rc, "tile %d/%u/%u: %s", a->z, a->j->x0, a->y0, a->why);
    if (a->bad)
        return 1;
    /* A usable answer from the service serves the other seeds of the share;
     * one that cannot be written costs them a request, not this seed. */
    if (s->o.share && a->j->share_key && !a->j->from_share)
        swx_diskcache_put(s->o.share, a->j->share_key, a->body, a->len);
    s->c.bytes_received += a->len;
    for (int k = 0; k < a->ntiles; k++) {
        const out_tile *o = &a->tiles[k];
        int rc = store(s, a->z, a->j->x0 + (uint32_t)o->i, a->y0 + (uint32_t)o->j, o->data, o->len,
                       o->empty);
        if (rc)
            return rc;
    }
    return 0;
}

/* What follows a job's answer: t is 0 (stored), 1 (unusable: ask again or
 * count as failed) or a negative code that stops the run. */
int swx__seed_settle(swx_seed *s, job *j, int t, const char *why)
{
    if (t < 0) {
        s->stop_rc = t;
        snprintf(s->stop_line, sizeof s->stop_line, "%s", swx_error_last());
        swx__seed_job_free(s, j);
        return t;
    }
    if (t == 1) {
        if (++j->bad_png <= SEED_BAD_PNG_RETRIES && !swx__seed_stopping(s)) {
            /* Ask again later: off the live list, onto the retry list. */
            if (j->prev)
                j->prev->next = j->next;
            else
                s->live = j->next;
            if (j->next)
                j->next->prev = j->prev;
            j->prev = NULL;
            j->next = s->retry;
            s->retry = j;
            return 0;
        }
        swx__seed_job_failed(s, j, why);
        swx__seed_job_free(s, j);
        return 0;
    }
    s->consecutive_failures = 0;
    int n = popcount64(j->mask);
    s->c.done += (uint64_t)n;
    s->c.run_done += (uint64_t)n;
    swx__seed_job_free(s, j);
    swx__seed_notify(s);
    return 0;
}

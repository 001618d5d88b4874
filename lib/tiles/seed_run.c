/* seed_run.c: a seed of a plan (seawx/seed.h), and each file of the plan
 * seeded in fetch rounds into an MBTiles file with its metadata: what viewers
 * read, and what identifies the file's content for a resume (a shard's
 * request hash among it).
 */
#include "seawx/seed.h"

#include "seed_plan_int.h"
#include "seed_run_int.h"

#include "encode.h"
#include "http_core.h"
#include "mbtiles.h"
#include "pool.h"
#include "shard.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int swx_seed_new(swx_seed **out, swx_client *c, const swx_seed_plan *p, const swx_seed_run_opts *o)
{
    swx_seed *s = NULL;
    uint8_t *clear = NULL;
    int rc = 0;
    *out = NULL;
    int in_flight = o && o->in_flight ? o->in_flight : SEED_DEFAULT_IN_FLIGHT;
    if (in_flight < 1 || in_flight > 256)
        return swx_error_set(SWX_EINVAL, "requests in flight must be from 1 to 256, not %d",
                             in_flight);
    if (o && o->rate < 0)
        return swx_error_set(SWX_EINVAL, "the request rate must not be negative");
    s = calloc(1, sizeof *s);
    if (!s)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if (o)
        s->o = *o;
    s->o.in_flight = in_flight;
    s->plan = p;
    s->client = c;
    s->bundle = p->o.bundle;
    s->layer = swx_layer_name(p->layer);
    s->style = p->style;
    s->zooms = p->o.zooms;
    s->tile_size = p->o.tile_size;
    s->metatile = p->o.metatile;
    s->warp = p->warp;
    s->skip_empty = p->o.skip_empty;
    s->clip = p->o.clip;
    s->format = p->o.format;
    s->quality = p->o.quality;
    s->c.total = swx_seed_plan_total(p);
    /* The canonical fully transparent tile. */
    size_t px = (size_t)s->tile_size * (size_t)s->tile_size * 4;
    clear = calloc(1, px);
    if (!clear) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    /* In the file's format; a format without transparency has none (store()
     * refuses empty tiles). */
    if (swx_tile_format_get((int)s->format)->props & SWX_TF_TRANSPARENCY)
        rc = swx_tile_encode(&s->empty_png, &s->empty_len, clear, s->tile_size, s->tile_size,
                             (size_t)s->tile_size * 4, s->format, s->quality);
    if (rc)
        goto done;
    swx__seed_checkers_start(s);
done:
    free(clear);
    if (rc) {
        swx_seed_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void swx_seed_free(swx_seed *s)
{
    if (!s)
        return;
    swx_pool_stop(s->checkers, SWX_ECANCEL); /* what is queued is dropped */
    free(s->empty_png);
    free(s);
}

void swx_seed_get_counts(swx_seed_counts *out, const swx_seed *s)
{
    *out = s->c;
}

void swx_seed_get_stats(swx_fetch_stats *out, const swx_seed *s)
{
    *out = s->stats;
}

/* MBTiles metadata of one file: what viewers read (name, format, bounds,
 * center, zooms, type) and what identifies the file's content for a resume
 * (layer, time, style, tile size). */
typedef struct file_meta {
    char bounds[128], center[128], minz[16], maxz[16], desc[512], name[300], tsz[16], enc[32],
        scale[32];
    char shard[32], request[SWX_SHA256_HEX_LEN], clip[32];
} file_meta;

/* What a clipped file was clipped to, for its `clip` metadata: "area " and
 * the first 16 hex digits of the area's hash (the one a shard's request hash
 * uses), so that a file clipped to one area is never continued with another
 * (a wider buffer, another bbox) and keeps tiles cut to the first. */
static void clip_id(char out[32], const swx_area *a)
{
    swx_sha256_ctx c;
    uint8_t digest[SWX_SHA256_LEN];
    swx_sha256_init(&c);
    swx_sha256_update(&c, "seawx-clip-v1\n", 14);
    swx_shard_hash_area(&c, a);
    swx_sha256_final(digest, &c);
    memcpy(out, "area ", 5);
    for (int i = 0; i < 8; i++)
        snprintf(out + 5 + 2 * i, 3, "%02x", digest[i]);
}

/* The hash of what defines file `file`'s tiles, for a shard's file (see
 * seawx/shard.h): the same request gives the same hash in every shard. */
static void request_hash(char hex[SWX_SHA256_HEX_LEN], const swx_seed *s, size_t file,
                         const char *enc)
{
    const swx_seed_plan *p = s->plan;
    swx_sha256_ctx c;
    uint8_t digest[SWX_SHA256_LEN];
    char head[2048];
    int len =
        snprintf(head, sizeof head,
                 "seawx-request-v1\nbundle %s\nlayer %s\ntime %s\nstyle %s\ntile_size %d\n"
                 "metatile %d\nencoding %s\nskip_empty %d\nclip %d\nzooms %u\n",
                 s->bundle, s->layer, s->has_time ? s->time_s : "-", s->style ? s->style : "-",
                 s->tile_size, s->metatile, enc, s->skip_empty, s->clip, (unsigned)s->zooms);
    swx_sha256_init(&c);
    swx_sha256_update(&c, head, len < (int)sizeof head ? (size_t)len : sizeof head - 1);
    swx_shard_hash_area(&c, p->files[file].area);
    swx_sha256_final(digest, &c);
    for (int i = 0; i < SWX_SHA256_LEN; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

/* The OGC's standard rendering pixel (0.28 mm), by which a map scale is told
 * from a resolution; and the equator's length on the Web Mercator sphere. */
#define SEED_OGC_PIXEL_M 0.00028
#define SEED_EQUATOR_M (2.0 * SWX_MERC_HALF)

/* A short name viewers show whole: "swh 23 Nov 13:00Z" (Signal K's chart list
 * cuts names near twenty characters); the full one is in `description`.
 * Month names are spelt here, not by the locale. */
static void short_name(char *out, size_t cap, const char *var, int has_time, int64_t t)
{
    static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    char iso[SWX_ISO8601_LEN];
    int y, mo, d, h, mi;
    if (!has_time) {
        snprintf(out, cap, "%s", var);
        return;
    }
    swx_iso8601_format(iso, t);
    if (sscanf(iso, "%d-%d-%dT%d:%d", &y, &mo, &d, &h, &mi) != 5 || mo < 1 || mo > 12) {
        snprintf(out, cap, "%s %s", var, iso);
        return;
    }
    snprintf(out, cap, "%s %d %s %02d:%02dZ", var, d, months[mo - 1], h, mi);
}

int swx_seed_file(swx_seed_file_result *res, swx_seed *s, size_t file, const char *path)
{
    return swx_seed_file_zoom(res, s, file, -1, path);
}

/* The file's bounds, centre and zooms in fm; returns the deepest zoom. */
static int meta_extent(file_meta *fm, const swx_seed *s)
{
    double w, so, e, n;
    swx_area_bounds(&w, &so, &e, &n, s->area);
    /* The centre is the middle of the area going east from its west edge,
     * across 180 when west > east (170.5 to -171.3: 179.6), in [-180, 180). */
    double cx = w <= e ? (w + e) / 2 : w + (e + 360.0 - w) / 2;
    if (cx >= 180.0)
        cx -= 360.0;
    if (w > e) { /* MBTiles bounds cannot cross 180 */
        w = -180;
        e = 180;
    }
    int minz = -1, maxz = 0;
    for (int k = 0; k <= SWX_TILE_MAX_ZOOM; k++)
        if (s->zooms & (1u << k)) {
            if (minz < 0)
                minz = k;
            maxz = k;
        }
    snprintf(fm->bounds, sizeof fm->bounds, "%.6f,%.6f,%.6f,%.6f", w, so, e, n);
    snprintf(fm->center, sizeof fm->center, "%.6f,%.6f,%d", cx, (so + n) / 2, minz);
    snprintf(fm->minz, sizeof fm->minz, "%d", minz);
    snprintf(fm->maxz, sizeof fm->maxz, "%d", maxz);
    return maxz;
}

/* Fetches the file's tiles (s->area, s->only) in rounds until done: answers
 * found unusable after the last request went out are asked again in another
 * round. Every job is freed after. */
static int fetch_rounds(swx_seed *s)
{
    int rc;
    swx_fetch_opts fo = {s->o.in_flight, s->o.rate, s->o.cancel};
    do {
        swx_fetch_stats st = {0};
        rc = swx_fetch_run(&st, s->client, &fo, swx__seed_produce, swx__seed_fetched, s);
        int frc = swx__seed_pool_finish(s);
        if (!rc)
            rc = frc;
        s->stats.requests += st.requests;
        s->stats.retries += st.retries;
        s->stats.completed += st.completed;
        s->stats.failed += st.failed;
        s->stats.bytes += st.bytes;
    } while (!rc && s->retry && !swx__seed_stopping(s) && !s->stop_rc);
    swx_tile_iter_free(s->it);
    s->it = NULL;
    while (s->retry) {
        job *j = s->retry;
        s->retry = j->next;
        swx_query_free(j->q);
        free(j);
    }
    while (s->live)
        swx__seed_job_free(s, s->live);
    return rc;
}

int swx_seed_file_zoom(swx_seed_file_result *res, swx_seed *s, size_t file, int z, const char *path)
{
    const swx_seed_plan *p = s->plan;
    const swx_layer *layer = p->layer;
    file_meta fm;
    int rc = 0;
    memset(res, 0, sizeof *res);
    if (s->stop_rc)
        return swx_error_set(s->stop_rc, "%s", s->stop_line);
    if (file >= swx_seed_plan_file_count(p))
        return swx_error_set(SWX_EINVAL, "file %zu of a plan of %zu", file,
                             swx_seed_plan_file_count(p));
    if (z > SWX_TILE_MAX_ZOOM || (z >= 0 && !(s->zooms & (1u << z))))
        return swx_error_set(SWX_EINVAL, "zoom %d is not one of the plan's", z);
    s->only = z < 0 ? ~0u : 1u << z;
    res->tiles = z < 0 ? p->files[file].tiles : p->files[file].per_zoom[z];
    s->area = p->files[file].area;
    s->part = p->files[file].part;
    if (swx__seed_stopping(s))
        return 0;
    s->time_s[0] = '\0';
    if (file < p->ntimes)
        swx_iso8601_format(s->time_s, p->times[file]);
    s->has_time = s->time_s[0] != 0;

    int maxz = meta_extent(&fm, s);
    const char *title = swx_layer_title(layer);
    short_name(fm.name, sizeof fm.name, swx_layer_variable(layer), s->has_time,
               file < p->ntimes ? p->times[file] : 0);
    /* The scale of the deepest zoom at the equator, for Signal K's chart list
     * (which orders charts by it and shows 1:250000 when there is none). */
    snprintf(fm.scale, sizeof fm.scale, "%.0f",
             SEED_EQUATOR_M / ((double)s->tile_size * (double)(1u << maxz)) / SEED_OGC_PIXEL_M);
    snprintf(fm.desc, sizeof fm.desc, "%s, run %s, valid %s, bundle %s%s%s",
             title ? title : swx_layer_variable(layer), p->run[0] ? p->run : "unknown",
             s->has_time ? s->time_s : "(no time)", s->bundle, s->style ? ", style " : "",
             s->style ? s->style : "");
    snprintf(fm.tsz, sizeof fm.tsz, "%d", s->tile_size);
    /* The encoding row: none for png (files written before encodings existed
     * continue), else the format and its quality. */
    const swx_tile_format_info *fmt = swx_tile_format_get((int)s->format);
    int quality = s->quality ? s->quality : fmt->default_quality;
    if ((fmt->props & SWX_TF_QUALITY) && quality == 0)
        snprintf(fm.enc, sizeof fm.enc, "%s lossless", fmt->name);
    else if (fmt->props & SWX_TF_QUALITY)
        snprintf(fm.enc, sizeof fm.enc, "%s quality %d", fmt->name, quality);
    else
        snprintf(fm.enc, sizeof fm.enc, "%s", fmt->name);
    swx_mbtiles_kv meta[] = {
        {"name", fm.name},
        {"format", swx_tile_format_mbtiles(s->format)},
        {"bounds", fm.bounds},
        {"center", fm.center},
        {"minzoom", fm.minz},
        {"maxzoom", fm.maxz},
        {"type", "overlay"},
        {"scheme", "tms"}, /* OpenCPN reads it; rows are TMS, as MBTiles says */
        {"version", "1"},
        {"description", fm.desc},
        {"scale", fm.scale},
        {"attribution", "Weather, Ocean and Vessel Data Service"},
        {"layer", s->layer},
        {"bundle", s->bundle},
        {"run", p->run[0] ? p->run : NULL},
        {"time", s->has_time ? s->time_s : NULL},
        {"style", s->style},
        {"tile_size", fm.tsz},
        {"encoding", fmt->props & SWX_TF_REENCODED ? fm.enc : NULL},
        {"shard", s->part ? fm.shard : NULL},
        {"partition", s->part ? SWX_SHARD_PARTITION : NULL},
        {"request", s->part ? fm.request : NULL},
        {"clip", s->clip ? fm.clip : NULL},
    };
    static const char *const identity[] = {"layer", "time",      "style",   "tile_size", "encoding",
                                           "shard", "partition", "request", "clip",      NULL};
    if (s->clip)
        clip_id(fm.clip, s->area);
    if (s->part) {
        snprintf(fm.shard, sizeof fm.shard, "%d/%d", s->part->k, s->part->n);
        request_hash(fm.request, s, file, fm.enc);
    }
    int created = 0;
    if ((rc = swx_mbtiles_open(&s->mb, &created, path, meta, sizeof meta / sizeof meta[0], identity,
                               0)))
        return rc;
    s->zoom = -1;
    swx_seed_counts before = s->c;
    rc = fetch_rounds(s);
    if (rc && !s->stop_rc && rc != SWX_ECANCEL) {
        s->stop_rc = rc;
        snprintf(s->stop_line, sizeof s->stop_line, "%s", swx_error_last());
    }
    if (rc == SWX_ECANCEL)
        s->stopping = 1;
    res->present = s->c.present - before.present;
    res->stored = s->c.stored - before.stored;
    res->failed = s->c.failed - before.failed;
    res->empty = s->c.empty - before.empty;
    int64_t tiles_in = 0;
    int crc = swx_mbtiles_counts(&tiles_in, &res->images, s->mb);
    res->complete =
        !crc && !s->stopping && !s->stop_rc && res->failed == 0 &&
        (z < 0 ? (uint64_t)tiles_in + (s->skip_empty ? res->empty : 0) >= p->files[file].tiles
               : res->present + res->stored >= res->tiles);
    /* A shard's file says when it is whole, for the merge (a file run zoom by
     * zoom is judged one zoom at a time, so it never says so). */
    if (res->complete && s->part && z < 0 &&
        (crc = swx_mbtiles_meta_set(s->mb, "shard_complete", "1")))
        res->complete = 0;
    int close_rc = swx_mbtiles_close(s->mb);
    s->mb = NULL;
    if (crc || close_rc) {
        res->complete = 0;
        rc = crc ? crc : close_rc;
        if (!s->stop_rc) {
            s->stop_rc = rc;
            snprintf(s->stop_line, sizeof s->stop_line, "%s", swx_error_last());
        }
    }
    /* A file this seed created and stored nothing in is removed; one whose
     * count failed is left alone: it may hold tiles. */
    if (created && !crc && tiles_in == 0 && (s->stop_rc || s->stopping))
        unlink(path);
    if (s->stop_rc)
        return swx_error_set(s->stop_rc, "%s", s->stop_line);
    return 0;
}

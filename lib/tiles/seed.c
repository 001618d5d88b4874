/* seed.c: the seeding engine (seawx/seed.h): a plan resolved against the
 * capabilities, and a seed that fetches, checks, cuts, warps and stores its
 * tiles into MBTiles files.
 *
 * Threads: the calling thread runs the fetch engine's loop, builds every
 * request and owns the file, the counts and the job lists; checker threads
 * turn each answer into the tiles to store (check it with libpng, which is
 * most of the seeder's CPU with png (docs/benchmarks.md); or decode, warp,
 * cut and encode it) and hand them back.
 */
#include "seawx/seed.h"

#include "area_int.h"
#include "tile.h"

#include "diskcache_int.h"
#include "encode.h"
#include "http_int.h"
#include "mbtiles.h"
#include "png_codec.h"
#include "pool.h"
#include "seed_int.h"
#include "shard.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/voyage.h"
#include "seawx/wms.h"
#include "seawx/wms_select.h"
#include "warp.h"
#include "wms_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Defaults chosen by measurement (bench/seed/run.sh: seawx-sim on loopback, 2 cores):
 * one tile per GetMap needs no decode and re-encode (0.45 ms CPU per tile against
 * 1.8 ms with 4x4 metatiles), and 32 requests in flight gave the best rate on
 * loopback and 91-94 % of 32 / latency with 100 ms of latency. */
#define SEED_DEFAULT_IN_FLIGHT 32
#define SEED_PNG_LEVEL 2          /* tiles cut from a metatile: fast, still small */
#define SEED_BAD_PNG_RETRIES 2    /* a 200 with a broken PNG is asked again this often */
#define SEED_GIVE_UP_FAILURES 200 /* consecutive failed requests with no success: stop */
#define SEED_MAX_CHECKERS 4       /* threads checking answers with libpng */

/* ---- the plan ---- */

/* One file of a plan: its area and tile counts. */
typedef struct plan_file {
    const swx_area *area; /* the plan's area, or own */
    swx_area *own;        /* a voyage's area for this file's valid time */
    swx_shard_part *part; /* a shard: its blocks of the area (NULL: all) */
    int own_part;         /* part is this file's to free */
    uint64_t per_zoom[SWX_TILE_MAX_ZOOM + 1];
    uint64_t tiles; /* of the area, or of the shard's part of it */
} plan_file;

struct swx_seed_plan {
    swx_seed_opts o;
    const swx_layer *layer;
    const char *style; /* as given: NULL sends none, the service's default */
    int64_t *times;
    size_t ntimes;
    int warp;
    char run[16];
    plan_file *files; /* one per file: ntimes, or 1 without times */
    size_t nfiles;
};

/* The library's words for the options in its messages; a front end passes
 * its own (seawx/seed.h). */
static const swx_seed_names lib_names = {
    .layer = "layer",
    .variable = "variable",
    .run = "run",
    .times = "time",
    .tile_size = "tile size",
    .metatile = "metatile",
    .format = "format",
    .quality = "quality",
    .clip = "clip",
};

static const char *name_of(const char *given, const char *lib)
{
    return given ? given : lib;
}

/* 0 in tile_size and metatile: their defaults. */
static int opts_tile_size(const swx_seed_opts *o)
{
    return o->tile_size ? o->tile_size : 256;
}

static int opts_metatile(const swx_seed_opts *o)
{
    return o->metatile ? o->metatile : 1;
}

int swx_tile_size_check(int tile_size, const char *name)
{
    if (tile_size != 256 && tile_size != 512)
        return swx_error_set(SWX_EINVAL, "%s must be 256 or 512",
                             name_of(name, lib_names.tile_size));
    return 0;
}

/* What is asked of the service: a layer or a variable with its run, and its times. */
static int check_layer(const swx_seed_opts *o, const swx_seed_names *n)
{
    int rc = swx_wms_bundle_check(o->bundle);
    if (rc)
        return rc;
    if (!!(o->layer && *o->layer) == !!(o->variable && *o->variable))
        return swx_error_set(SWX_EINVAL, "give either %s NAME or %s VAR", n->layer, n->variable);
    if (o->layer && *o->layer && o->run && *o->run)
        return swx_error_set(SWX_EINVAL, "%s goes with %s; a %s name already names its run", n->run,
                             n->variable, n->layer);
    if (swx_select_run_parse(NULL, o->run))
        return swx_error_prefix(SWX_EINVAL, "%s", n->run);
    if (o->times && *o->times && strcmp(o->times, "all") != 0) {
        swx_timedim *td = NULL;
        if ((rc = swx_timedim_parse(&td, o->times, strlen(o->times), NULL)))
            rc = swx_error_prefix(SWX_EINVAL, "%s", n->times);
        swx_timedim_free(td);
    }
    return rc;
}

/* The tiles: their size, the GetMap's, the encoding. */
static int check_tiles(const swx_seed_opts *o, const swx_seed_names *n)
{
    int ts = opts_tile_size(o), mt = opts_metatile(o), rc;
    if (!o->zooms || (o->zooms >> (SWX_TILE_MAX_ZOOM + 1)))
        return swx_error_set(SWX_EINVAL, "zoom levels must be within 0 to %d", SWX_TILE_MAX_ZOOM);
    if ((rc = swx_tile_size_check(ts, n->tile_size)))
        return rc;
    if (mt != 1 && mt != 2 && mt != 4 && mt != 8)
        return swx_error_set(SWX_EINVAL, "%s must be 1, 2, 4 or 8", n->metatile);
    if (mt * ts > SWX_SEED_MAX_IMAGE)
        return swx_error_set(SWX_EINVAL, "%s %d with %s %d asks for images wider than %d pixels",
                             n->metatile, mt, n->tile_size, ts, SWX_SEED_MAX_IMAGE);
    const swx_tile_format_info *fmt = swx_tile_format_get((int)o->format);
    char list[128];
    if (!fmt)
        return swx_error_set(SWX_EINVAL, "unknown tile format %d", (int)o->format);
    if (o->quality < 0 || o->quality > 100)
        return swx_error_set(SWX_EINVAL, "quality must be from 1 to 100, not %d", o->quality);
    if (o->quality && !(fmt->props & SWX_TF_QUALITY))
        return swx_error_set(SWX_EINVAL, "%s goes with %s %s, not %s", n->quality, n->format,
                             swx_tile_format_names(list, sizeof list, SWX_TF_QUALITY, 0, -1),
                             fmt->name);
    if (o->clip && !(fmt->props & SWX_TF_TRANSPARENCY))
        return swx_error_set(
            SWX_EINVAL,
            "%s makes pixels outside the area transparent and %s has no transparency: use %s %s",
            n->clip, fmt->label, n->format,
            swx_tile_format_names(list, sizeof list, SWX_TF_TRANSPARENCY, 0, -1));
    return 0;
}

int swx_seed_opts_check_named(const swx_seed_opts *o, const swx_seed_names *names)
{
    swx_seed_names n = lib_names;
    int rc;
    if (names) {
        n.layer = name_of(names->layer, n.layer);
        n.variable = name_of(names->variable, n.variable);
        n.run = name_of(names->run, n.run);
        n.times = name_of(names->times, n.times);
        n.tile_size = name_of(names->tile_size, n.tile_size);
        n.metatile = name_of(names->metatile, n.metatile);
        n.format = name_of(names->format, n.format);
        n.quality = name_of(names->quality, n.quality);
        n.clip = name_of(names->clip, n.clip);
    }
    if (!o->bundle)
        return swx_error_set(SWX_EINVAL, "no bundle given");
    if ((rc = check_layer(o, &n)))
        return rc;
    if (!o->area && !o->voyage)
        return swx_error_set(SWX_EINVAL, "no area given");
    if (o->voyage && !(o->buffer_m >= 0 && o->buffer_m <= 2000.0 * SWX_NM_M))
        return swx_error_set(SWX_EINVAL, "the buffer must be from 0 to 2000 nautical miles");
    if ((rc = check_tiles(o, &n)))
        return rc;
    if (o->shard_count || o->shard) {
        if (o->shard_count < 1 || o->shard_count > SWX_SHARD_MAX || o->shard < 1 ||
            o->shard > o->shard_count)
            return swx_error_set(SWX_EINVAL, "shard %d of %d: shards are 1 to N, N at most %d",
                                 o->shard, o->shard_count, SWX_SHARD_MAX);
    }
    return 0;
}

int swx_seed_opts_check(const swx_seed_opts *o)
{
    return swx_seed_opts_check_named(o, NULL);
}

static int count_file(plan_file *f, const swx_seed_opts *o)
{
    uint32_t zooms = o->zooms;
    if (o->shard_count) {
        int rc =
            swx_shard_part_new(&f->part, f->area, zooms, o->metatile, o->shard, o->shard_count);
        if (rc)
            return rc;
        f->own_part = 1;
        memcpy(f->per_zoom, f->part->per_zoom, sizeof f->per_zoom);
        f->tiles = f->part->tiles;
        return 0;
    }
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
        if (zooms & (1u << z)) {
            int rc = swx_area_count(&f->per_zoom[z], f->area, z);
            if (rc)
                return rc;
            f->tiles += f->per_zoom[z];
        }
    return 0;
}

/* Without a voyage, every file has the plan's area: counted once. */
static int static_files(swx_seed_plan *p)
{
    size_t n = p->ntimes ? p->ntimes : 1;
    p->files = calloc(n, sizeof *p->files);
    if (!p->files)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    p->nfiles = n;
    p->files[0].area = p->o.area;
    int rc = count_file(&p->files[0], &p->o);
    for (size_t i = 1; i < n; i++) {
        p->files[i] = p->files[0];
        p->files[i].own_part = 0;
    }
    return rc;
}

/* With a voyage, each valid time has the area of its stretch; the times whose
 * window starts after the latest arrival are left out of the plan. */
static int voyage_files(swx_seed_plan *p)
{
    const swx_voyage *v = p->o.voyage;
    char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN], c[SWX_ISO8601_LEN], d[SWX_ISO8601_LEN];
    int64_t depart;
    double arrival;
    int rc = swx_voyage_span(&depart, &arrival, v);
    if (rc)
        return rc;
    if (!p->ntimes)
        return swx_error_set(SWX_EINVAL, "layer %s has no valid times; a voyage needs them",
                             swx_layer_name(p->layer));
    if ((double)depart > (double)p->times[p->ntimes - 1] || arrival < (double)p->times[0]) {
        swx_iso8601_format(a, depart);
        swx_iso8601_format(b, (int64_t)arrival);
        swx_iso8601_format(c, p->times[0]);
        swx_iso8601_format(d, p->times[p->ntimes - 1]);
        return swx_error_set(SWX_ENOTFOUND,
                             "the voyage (%s to %s) is outside the valid times of layer %s "
                             "(%s to %s)",
                             a, b, swx_layer_name(p->layer), c, d);
    }
    p->files = calloc(p->ntimes, sizeof *p->files);
    if (!p->files)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    size_t kept = 0;
    for (size_t i = 0; i < p->ntimes; i++) {
        plan_file *f = &p->files[kept];
        if ((rc = swx_voyage_area(&f->own, v, p->times, p->ntimes, i, p->o.buffer_m)))
            return rc;
        if (!f->own)
            continue;
        f->area = f->own;
        p->nfiles = kept + 1;
        if ((rc = count_file(f, &p->o)))
            return rc;
        /* Skipped times are a tail (windows only move later), so this
         * never overwrites a time still to be read. */
        p->times[kept++] = p->times[i];
    }
    p->ntimes = kept;
    return 0;
}

int swx_seed_plan_new(swx_seed_plan **out, const swx_caps *caps, const swx_seed_opts *o)
{
    swx_seed_plan *p = NULL;
    const char *style = NULL;
    int rc;
    *out = NULL;
    if ((rc = swx_seed_opts_check(o)))
        return rc;
    p = calloc(1, sizeof *p);
    if (!p)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    p->o = *o;
    p->o.tile_size = opts_tile_size(o);
    p->o.metatile = opts_metatile(o);
    if ((rc = swx_select_layer(&p->layer, caps, o->bundle, o->layer, o->variable, o->run)) ||
        (rc = swx_select_times(&p->times, &p->ntimes, p->layer, o->times)) ||
        (rc = swx_select_style(&style, p->layer, o->style)))
        goto done;
    p->style = o->style && *o->style ? style : NULL;
    /* Web Mercator tiles straight from the service, or warped from EPSG:4326. */
    const char *crs;
    int epsg;
    if (swx_select_crs(&crs, &epsg, p->layer, "EPSG:3857")) {
        if (swx_select_crs(&crs, &epsg, p->layer, "EPSG:4326")) {
            rc = swx_error_set(SWX_ESERVICE, "layer %s offers neither EPSG:3857 nor EPSG:4326",
                               swx_layer_name(p->layer));
            goto done;
        }
        p->warp = 1;
    }
    const char *d = swx_layer_run_date(p->layer), *h = swx_layer_run_hour(p->layer);
    if (d && h)
        snprintf(p->run, sizeof p->run, "%s%s", d, h);
    if ((rc = o->voyage ? voyage_files(p) : static_files(p)))
        goto done;
done:
    if (rc) {
        swx_seed_plan_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

void swx_seed_plan_free(swx_seed_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nfiles; i++) {
        swx_area_free(p->files[i].own);
        if (p->files[i].own_part)
            swx_shard_part_free(p->files[i].part);
    }
    free(p->files);
    free(p->times);
    free(p);
}

const swx_layer *swx_seed_plan_layer(const swx_seed_plan *p)
{
    return p->layer;
}

const char *swx_seed_plan_run(const swx_seed_plan *p)
{
    return p->run[0] ? p->run : NULL;
}

size_t swx_seed_plan_time_count(const swx_seed_plan *p)
{
    return p->ntimes;
}

size_t swx_seed_plan_file_count(const swx_seed_plan *p)
{
    return p->nfiles;
}

int64_t swx_seed_plan_time(const swx_seed_plan *p, size_t file)
{
    return file < p->ntimes ? p->times[file] : INT64_MIN;
}

int swx_seed_plan_warped(const swx_seed_plan *p)
{
    return p->warp;
}

uint64_t swx_seed_plan_tiles(const swx_seed_plan *p, size_t file, int z)
{
    if (file >= p->nfiles)
        return 0;
    if (z < 0)
        return p->files[file].tiles;
    return z <= SWX_TILE_MAX_ZOOM ? p->files[file].per_zoom[z] : 0;
}

uint64_t swx_seed_plan_total(const swx_seed_plan *p)
{
    uint64_t n = 0;
    for (size_t i = 0; i < p->nfiles; i++)
        n += p->files[i].tiles;
    return n;
}

int swx_seed_plan_requests(uint64_t *out, const swx_seed_plan *p, size_t file, int z)
{
    swx_tile_iter *it = NULL;
    swx_tile_block b;
    uint64_t n = 0;
    int rc;
    *out = 0;
    if (file >= p->nfiles || z < 0 || z > SWX_TILE_MAX_ZOOM || !(p->o.zooms & (1u << z)))
        return 0;
    if ((rc = swx_tile_iter_new(&it, p->files[file].area, z, p->o.metatile)))
        return rc;
    const swx_shard_part *part = p->files[file].part;
    while ((rc = swx_tile_iter_next(&b, it)) == 1)
        if (!part || swx_shard_part_has(part, b.z, b.x0, b.y0))
            n++;
    swx_tile_iter_free(it);
    if (rc < 0)
        return rc;
    *out = n;
    return 0;
}

/* ---- the seed ---- */

typedef struct job {
    struct job *prev, *next; /* live jobs, freed after the run whatever happened */
    int z;
    uint32_t x0, y0; /* first tile of the requested rectangle */
    int nx, ny;      /* its size in tiles */
    uint64_t mask;   /* bit (j * nx + i): tile (x0 + i, y0 + j) is wanted */
    int bad_png;     /* answers that were not a valid PNG */
    swx_query *q;
    double south, north; /* warp: the source latitudes */
    int src_h;
    char *share_key; /* with a share: the GetMap's address without the key */
    int from_share;  /* the answer came from the share, not the service */
} job;

/* One tile made from an answer: its bytes (the answer's own when the
 * service's PNG is stored as it is) or fully transparent. */
typedef struct out_tile {
    int i, j; /* within the job's rectangle */
    int empty;
    void *data;
    size_t len;
} out_tile;

/* One answer, handed to a checker thread and back. What the checker needs of
 * the job is copied here: the job itself stays the calling thread's. */
typedef struct answer {
    swx_pool_item link; /* first: the checkers hand answers back as this */
    job *j;
    void *body;
    size_t len;
    int owned; /* body is malloc'd (a copy); else borrowed from the response */
    /* the job and the seed, copied */
    int z, nx, ny, src_h, ts, warp, quality;
    swx_tile_format format;
    uint32_t x0, y0;
    const swx_area *clip; /* NULL: no clipping; else the file's area (read only) */
    uint64_t mask;
    double south, north;
    /* the result */
    int bad; /* 1: not a whole PNG of the size asked for (why says why) */
    int rc;  /* a local failure (memory, an encoder's refusal) that stops the run */
    out_tile tiles[64];
    int ntiles;
    char why[512];
} answer;

struct swx_seed {
    const swx_seed_plan *plan;
    swx_seed_run_opts o;
    /* what */
    swx_client *client;
    const char *bundle, *layer, *style;
    char time_s[SWX_ISO8601_LEN];
    int has_time;
    const swx_area *area;
    const swx_shard_part *part; /* a shard's blocks, or NULL */
    uint32_t zooms;
    uint32_t only; /* the zooms of the file being run: all, or one (swx_seed_file_zoom) */
    int tile_size, metatile, warp, skip_empty, clip;
    swx_tile_format format;
    int quality;
    /* where */
    swx_mbtiles *mb;
    /* enumeration */
    int zoom; /* current zoom, -1 before the first */
    swx_tile_iter *it;
    job *retry; /* jobs to ask again, first */
    job *live;
    /* counts */
    swx_seed_counts c;
    swx_fetch_stats stats;
    int consecutive_failures;
    int stopping; /* the front end asked to stop */
    int stop_rc;  /* a permanent error that stopped the seed */
    char stop_line[1024];
    /* The checkers: answers are checked, and decoded, cut and encoded where
     * need be, on up to SEED_MAX_CHECKERS threads (lib/util/pool.h); this
     * thread takes them back and stores their tiles, so the file, the counts
     * and the job lists stay on one thread. NULL: answers are checked here. */
    swx_pool *checkers;
    int checkers_cap; /* at most this many answers pending */
    /* transparent tile, encoded once */
    void *empty_png;
    size_t empty_len;
};

/* 1 once the front end asked to stop (asked again each time until it does). */
static int stopping(swx_seed *s)
{
    if (!s->stopping && s->o.stop && s->o.stop(s->o.ud))
        s->stopping = 1;
    return s->stopping;
}

static void notify(swx_seed *s)
{
    if (s->o.progress)
        s->o.progress(s->o.ud, &s->c);
}

static void job_free(swx_seed *s, job *j)
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

static int pool_collect(swx_seed *s, int limit);
static int fetched(void *ud, void *user, int rc, const swx_response *r);

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
    int rc = fetched(s, j, 0, &r);
    free(data);
    return rc < 0 ? rc : 1;
}

static int produce(void *ud, swx_request *req, void **user)
{
    swx_seed *s = ud;
    for (;;) {
        int crc = pool_collect(s, -1);
        if (crc)
            return crc;
        if (stopping(s) || s->stop_rc)
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
            job_free(s, j);
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

static int is_permanent(int rc)
{
    return rc == SWX_EAUTH || rc == SWX_EFORBIDDEN || rc == SWX_ENOTFOUND || rc == SWX_EINVAL ||
           rc == SWX_ECONFIG || rc == SWX_EIO || rc == SWX_ENOMEM;
}

static void job_failed(swx_seed *s, job *j, const char *why)
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
                                 "transparency: add --skip-empty, or use png8 or webp",
                                 z, x, y);
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

static void answer_free(answer *a)
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
static void process_answer(answer *a)
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
static answer *answer_new(swx_seed *s, job *j, const swx_response *r, int copy)
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
static int store_answer(swx_seed *s, answer *a)
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
static int settle(swx_seed *s, job *j, int t, const char *why)
{
    if (t < 0) {
        s->stop_rc = t;
        snprintf(s->stop_line, sizeof s->stop_line, "%s", swx_error_last());
        job_free(s, j);
        return t;
    }
    if (t == 1) {
        if (++j->bad_png <= SEED_BAD_PNG_RETRIES && !stopping(s)) {
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
        job_failed(s, j, why);
        job_free(s, j);
        return 0;
    }
    s->consecutive_failures = 0;
    int n = popcount64(j->mask);
    s->c.done += (uint64_t)n;
    s->c.run_done += (uint64_t)n;
    job_free(s, j);
    notify(s);
    return 0;
}

/* ---- the checker threads ---- */

static int checker_run(void *ctx, swx_pool_item *item)
{
    (void)ctx;
    process_answer((answer *)item);
    return 0;
}

static void checker_drop(void *ctx, swx_pool_item *item)
{
    (void)ctx;
    answer_free((answer *)item); /* its job is on the live list, freed with it */
}

/* Starts the checkers, one per core; none on one core. */
static void checkers_start(swx_seed *s)
{
    static const swx_pool_ops ops = {SWX_POOL_GIVE_BACK, checker_run, checker_drop};
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        return;
    s->checkers = swx_pool_start(SEED_MAX_CHECKERS, &ops, NULL);
    s->checkers_cap = 4 * swx_pool_threads(s->checkers);
}

/* Takes the checked answers back and stores them, after waiting until at most
 * limit answers are pending (limit < 0: take what is there, do not wait).
 * Returns 0, or a negative code that stops the run. */
static int pool_collect(swx_seed *s, int limit)
{
    int rc = 0;
    if (!s->checkers)
        return 0;
    for (;;) {
        swx_pool_item *list = swx_pool_take(s->checkers, limit);
        while (list) {
            answer *a = (answer *)list;
            list = list->next;
            if (!rc)
                rc = settle(s, a->j, store_answer(s, a), a->why);
            answer_free(a);
        }
        if (rc || !(limit >= 0 && swx_pool_pending(s->checkers) > limit))
            return rc;
    }
}

/* Hands an answer to the checkers, after making room. Returns 0, or a
 * negative code that stops the run. */
static int pool_submit(swx_seed *s, job *j, const swx_response *r)
{
    int rc = pool_collect(s, s->checkers_cap - 1);
    if (rc)
        return rc;
    answer *a = answer_new(s, j, r, 1);
    if (!a)
        return settle(s, j, swx_error_set(SWX_ENOMEM, "out of memory"), "");
    return swx_pool_submit(s->checkers, &a->link);
}

/* Waits for every pending answer: stored, or dropped once the run has
 * stopped. Returns 0 or the code that stopped it. */
static int pool_finish(swx_seed *s)
{
    int rc = pool_collect(s, 0);
    while (s->checkers && swx_pool_pending(s->checkers) > 0) {
        swx_pool_item *list = swx_pool_take(s->checkers, 0);
        while (list) {
            swx_pool_item *next = list->next;
            answer_free((answer *)list);
            list = next;
        }
    }
    return rc;
}

static int fetched(void *ud, void *user, int rc, const swx_response *r)
{
    swx_seed *s = ud;
    job *j = user;
    char why[1024] = "";
    int crc = pool_collect(s, -1);
    if (crc) {
        job_free(s, j);
        return crc;
    }
    if (rc) {
        if (is_permanent(rc)) {
            s->stop_rc = rc;
            snprintf(s->stop_line, sizeof s->stop_line, "%s", swx_error_last());
            job_free(s, j);
            return rc;
        }
        snprintf(why, sizeof why, "%s", swx_error_last());
        job_failed(s, j, why);
        job_free(s, j);
        if (++s->consecutive_failures >= SEED_GIVE_UP_FAILURES) {
            s->stop_rc = rc;
            snprintf(s->stop_line, sizeof s->stop_line,
                     "giving up after %d failed requests in a row; the last: %.900s",
                     s->consecutive_failures, why);
            return rc;
        }
        notify(s);
        return 0;
    }
    if (s->checkers)
        return pool_submit(s, j, r);
    answer *a = answer_new(s, j, r, 0);
    if (!a)
        return settle(s, j, swx_error_set(SWX_ENOMEM, "out of memory"), "");
    process_answer(a);
    int t = store_answer(s, a);
    snprintf(why, sizeof why, "%s", a->why);
    answer_free(a);
    return settle(s, j, t, why);
}

/* ---- running ---- */

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
    checkers_start(s);
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

const swx_area *swx_seed_plan_area(const swx_seed_plan *p, size_t file)
{
    return p->files[file].area;
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
        rc = swx_fetch_run(&st, s->client, &fo, produce, fetched, s);
        int frc = pool_finish(s);
        if (!rc)
            rc = frc;
        s->stats.requests += st.requests;
        s->stats.retries += st.retries;
        s->stats.completed += st.completed;
        s->stats.failed += st.failed;
        s->stats.bytes += st.bytes;
    } while (!rc && s->retry && !stopping(s) && !s->stop_rc);
    swx_tile_iter_free(s->it);
    s->it = NULL;
    while (s->retry) {
        job *j = s->retry;
        s->retry = j->next;
        swx_query_free(j->q);
        free(j);
    }
    while (s->live)
        job_free(s, s->live);
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
    if (stopping(s))
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

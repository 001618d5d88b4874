/*
 * seawx/seed.h: the seeding engine. A layer's map tiles, fetched with GetMap,
 * checked, cut and stored into MBTiles files, one file per valid time.
 *
 * A plan resolves what to seed against a bundle's capabilities once (the
 * layer, its valid times and style with the grammar of seawx/wms_select.h;
 * EPSG:3857, or EPSG:4326 warped into Web Mercator tiles when the layer does
 * not offer 3857) and counts the tiles. A seed runs a plan into files:
 *
 * - tiles are enumerated zoom by zoom in metatile blocks (seawx/tiles.h); a
 *   block whose tiles are all stored already is skipped, so running the same
 *   plan into the same file again fetches only what is missing;
 * - each GetMap covers the smallest rectangle of tiles of its block that are
 *   still needed, and only the tiles of the area are stored;
 * - every answer is checked (and for a metatile, a warp or a format other
 *   than png decoded, warped, cut and encoded) on checker threads (one per
 *   core, at most four, started with SIGINT and SIGTERM blocked, so a front
 *   end's handlers run on its own thread; on one core, on the calling
 *   thread); the calling thread owns the file and stores what they return;
 * - a fully transparent tile is stored as one canonical empty tile, or left
 *   out (skip_empty);
 * - failures: an answer that is not a whole PNG of the size asked for is
 *   asked again twice, then its tiles count as failed; a request the HTTP
 *   engine gave up on (after its own retries) fails its tiles; a permanent
 *   error (key, access, unknown layer, local file) or 200 failed requests in a
 *   row with no success stop the seed. The file is always committed and left
 *   valid; a file created by the seed that received no tile is removed.
 *
 * The engine prints nothing: it reports through callbacks on the calling
 * thread, and stops when the front end asks (see swx_seed_run_opts).
 */
#ifndef SEAWX_SEED_H
#define SEAWX_SEED_H

#include "seawx/diskcache.h"
#include "seawx/http.h"
#include "seawx/tile_format.h"
#include "seawx/tiles.h"
#include "seawx/visibility.h"
#include "seawx/voyage.h"
#include "seawx/wms_caps.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest GetMap side the engine asks for. */
#define SWX_SEED_MAX_IMAGE 4096

/* What to seed. Strings, the area and the voyage are borrowed for the plan's
 * life.
 *
 * Voyages: with a voyage (seawx/voyage.h, with its departure and speed or
 * waypoint times), each valid time's file gets its own area, the stretch of
 * route the ship can be on in that time's window buffered by buffer_m, and
 * area is not used (may be NULL). Valid times whose window starts after the
 * latest arrival are left out of the plan; a voyage that ends before the
 * first valid time or starts after the last is SWX_ENOTFOUND. */
typedef struct swx_seed_opts {
    const char *bundle;     /* required */
    const char *layer;      /* a leaf's full name; or NULL and variable (and run) */
    const char *variable;   /* "t2m" or "t2m:K" */
    const char *run;        /* NULL or "latest", YYYYMMDDHH or an ISO 8601 instant */
    const char *times;      /* NULL: the layer's default time; "all"; a list or intervals */
    const char *style;      /* NULL: the service's default style (none is sent) */
    const swx_area *area;   /* required */
    uint32_t zooms;         /* bit z set: zoom z (swx_zoom_list_parse) */
    int tile_size;          /* 256 or 512; 0: 256 */
    int metatile;           /* tiles per GetMap side: 1, 2, 4 or 8; 0: 1 */
    int skip_empty;         /* leave fully transparent tiles out */
    swx_tile_format format; /* how tiles are stored; 0: png, the service's bytes */
    int quality;            /* webp: 0 lossless, 1-100 lossy; jpeg: 1-100, 0: 85; else 0 */
    /* Make every pixel outside the file's area fully transparent (the tiles
     * along its edge are decoded, cut and encoded again; those wholly inside
     * keep their bytes), so that viewers that draw whole tiles show the same
     * area as those that clip to `bounds`. Not with jpeg. Part of a file's
     * identity: a clipped file is never continued unclipped. */
    int clip;
    const swx_voyage *voyage; /* NULL: every file has area */
    double buffer_m;          /* with a voyage: metres around its stretches, 0 to 2000 nm */
    /* Shard `shard` (1 to shard_count) of a seed cut into shard_count
     * (seawx/shard.h); 0 and 0: the whole seed. The plan's counts are the
     * shard's own. */
    int shard, shard_count;
} swx_seed_opts;

typedef struct swx_seed_plan swx_seed_plan;

/* Checks what can be checked without the capabilities (sizes, zooms, the
 * grammar of run and times); SWX_EINVAL names the first problem. Every rule
 * of a seed's options is here, once: front ends ask it rather than repeat it
 * (swx_seed_plan_new asks it too). */
SWX_API int swx_seed_opts_check(const swx_seed_opts *o);

/* What a front end calls the options, for its users to read in the messages
 * of swx_seed_opts_check_named ("--tile-size" on a command line,
 * "tile_size" in a file); NULL, or a NULL member: the library's words. */
typedef struct swx_seed_names {
    const char *layer, *variable, *run, *times;
    const char *tile_size, *metatile, *format, *quality, *clip;
} swx_seed_names;

SWX_API int swx_seed_opts_check_named(const swx_seed_opts *o, const swx_seed_names *names);

/* The rule of a tile's size: 256 or 512 pixels. SWX_EINVAL "NAME must be
 * 256 or 512" (NULL name: "tile size"). */
SWX_API int swx_tile_size_check(int tile_size, const char *name);

/* Resolves o against caps, which must outlive the plan. */
SWX_API int swx_seed_plan_new(swx_seed_plan **out, const swx_caps *caps, const swx_seed_opts *o);
SWX_API void swx_seed_plan_free(swx_seed_plan *p);

SWX_API const swx_layer *swx_seed_plan_layer(const swx_seed_plan *p);
/* The run as "YYYYMMDDHH", or NULL when the layer name carries none. */
SWX_API const char *swx_seed_plan_run(const swx_seed_plan *p);
/* The valid times, one file each; a layer without a time dimension has
 * none and still makes one file (time INT64_MIN). With a voyage, the times
 * it needs (those after its arrival are left out). */
SWX_API size_t swx_seed_plan_time_count(const swx_seed_plan *p);
SWX_API size_t swx_seed_plan_file_count(const swx_seed_plan *p);
SWX_API int64_t swx_seed_plan_time(const swx_seed_plan *p, size_t file);
/* 1 when tiles are warped from EPSG:4326. */
SWX_API int swx_seed_plan_warped(const swx_seed_plan *p);
/* Tiles of file `file`'s area at zoom z; z < 0: all its zooms. */
SWX_API uint64_t swx_seed_plan_tiles(const swx_seed_plan *p, size_t file, int z);
/* Tiles of every file. */
SWX_API uint64_t swx_seed_plan_total(const swx_seed_plan *p);
/* GetMaps of zoom z of file `file` when nothing is stored yet (metatile
 * blocks holding tiles of its area). */
SWX_API int swx_seed_plan_requests(uint64_t *out, const swx_seed_plan *p, size_t file, int z);

/* The counts of a seed, over every file run so far. */
typedef struct swx_seed_counts {
    uint64_t total;   /* tiles of every file of the plan */
    uint64_t done;    /* settled: present, stored, empty or failed */
    uint64_t present; /* already in the file */
    uint64_t stored;  /* written by this seed (empty tiles included) */
    uint64_t failed;
    uint64_t empty;          /* fully transparent (stored once, or skipped) */
    uint64_t run_done;       /* settled by this seed (present ones excluded) */
    uint64_t requests;       /* GetMaps started */
    uint64_t bytes_received; /* the images of the answers stored */
    uint64_t bytes_stored;   /* the tiles stored from them (before deduplication) */
    uint64_t shared;         /* GetMaps answered from the share (not sent, not in requests) */
} swx_seed_counts;

/* The result of one file. */
typedef struct swx_seed_file_result {
    uint64_t tiles, present, stored, failed, empty;
    int64_t images; /* distinct images in the file */
    int complete;   /* every tile of the area is in the file */
} swx_seed_file_result;

typedef struct swx_seed_run_opts {
    int in_flight; /* GetMaps under way at once: 1 to 256; 0: 32 */
    double rate;   /* at most this many GetMaps started per second; 0: no limit */
    /* Asked before each new GetMap: non-zero stops new requests, lets those
     * under way finish and be stored, and ends the seed (may be NULL). */
    int (*stop)(void *ud);
    /* Set (by a signal handler, say) to cancel the requests under way too. */
    volatile sig_atomic_t *cancel;
    /* After tiles were settled (often: throttle in the callback). */
    void (*progress)(void *ud, const swx_seed_counts *c);
    /* n tiles from tile (z, x, y) on failed: why is one line. */
    void (*failed)(void *ud, int z, uint32_t x, uint32_t y, int n, const char *why);
    void *ud;
    /* Answers shared between seeds (may be NULL): before a GetMap is sent it
     * is looked up here by its address without the key, and an answer the
     * service sent is put here once it proved usable, so seeds of the same
     * layer, time and style through one share (a fleet's ships, whose blocks
     * sit on the same global tile grid) ask the service once for each block.
     * A share is a disk cache (seawx/diskcache.h): bounded, thread-safe, and
     * open to several processes. */
    swx_diskcache *share;
} swx_seed_run_opts;

typedef struct swx_seed swx_seed;

/* A seed of plan p through client c; both must outlive it. */
SWX_API int swx_seed_new(swx_seed **out, swx_client *c, const swx_seed_plan *p,
                         const swx_seed_run_opts *o);
SWX_API void swx_seed_free(swx_seed *s);

/* Seeds file number `file` of the plan into path (created, or resumed when it
 * holds the same layer, time, style, tile size and encoding: a file begun in
 * one format is never continued in another). Returns 0 when the file
 * was run (res says whether it is complete: stopped, failed tiles), or a
 * negative code that stops the seed, with its line in swx_error_last(). */
SWX_API int swx_seed_file(swx_seed_file_result *res, swx_seed *s, size_t file, const char *path);
/* The same for zoom z of the plan's alone (z < 0: every zoom), so that a
 * front end can order the work by zoom across files (the voyage package:
 * low zooms of early times first). The file's metadata names all the plan's
 * zooms; res counts the tiles of zoom z, and complete says they are all
 * there. */
SWX_API int swx_seed_file_zoom(swx_seed_file_result *res, swx_seed *s, size_t file, int z,
                               const char *path);

/* What a plan will write, measured: sample tiles of the plan, each at one
 * place spread over the file's area, a zoom's places in up to four seeds at
 * valid times spread over the files, fetched and stored by the seed's own
 * code into a temporary file (in TMPDIR, else /tmp; removed) and read back,
 * the mean cost of a zoom's tile multiplied by the plan's tile counts. SWX_SEED_QUOTE_SAMPLES
 * one-tile GetMaps a zoom on average, spent in proportion to each zoom's tiles (two at least a
 * zoom); ro's stop, cancel and ud are honoured (SWX_ECANCEL), the rest of ro is not used. */
#define SWX_SEED_QUOTE_SAMPLES 8
typedef struct swx_seed_quote {
    double bytes;                 /* every file of the plan */
    double bytes_low, bytes_high; /* two standard errors of the samples either way */
    unsigned samples;             /* sample tiles measured */
    uint64_t requests;            /* GetMaps the samples sent, retries included */
    double bytes_fetched;         /* the bodies of their answers */
} swx_seed_quote;

SWX_API int swx_seed_quote_plan(swx_seed_quote *out, swx_client *c, const swx_caps *caps,
                                const swx_seed_plan *p, const swx_seed_run_opts *ro);

SWX_API void swx_seed_get_counts(swx_seed_counts *out, const swx_seed *s);
/* The HTTP engine's figures over every file run so far. */
SWX_API void swx_seed_get_stats(swx_fetch_stats *out, const swx_seed *s);

#ifdef __cplusplus
}
#endif
#endif

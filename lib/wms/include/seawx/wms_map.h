/*
 * seawx/wms_map.h: one WMS layer at one time as a georeferenced raster.
 *
 * A map resolves what a user asked for (bundle, layer or variable and run,
 * time, style, CRS, size) against the capabilities, once, with errors that say
 * what is valid; then it is a grid of blocks, each fetched with one GetMap, at
 * full resolution and at power-of-two overview levels down to about 256 pixels.
 *
 * Grid: the layer's extent in the CRS (EPSG:4326 and CRS:84 in degrees,
 * longitude first; EPSG:3857 in metres), width x height pixels. Level k has
 * ceil(width / 2^k) x ceil(height / 2^k) pixels over the same extent. Block
 * (bx, by) of a level covers pixels [bx*bs, min((bx+1)*bs, w)) and likewise in
 * y; edge blocks are fetched at their true, smaller size so that every pixel
 * centre is exactly where the grid says. The default pixel is 1/128 degree
 * (0.0078125, 870 m at the equator), a 32nd of the model's 0.25 degree grid,
 * which the service renders smoothly at any size: 46080 x 23040 for the globe
 * in EPSG:4326, and 46080 x 46080 for the Web Mercator square. Viewers read
 * the overviews: level 5 is the model's own 0.25 degree grid (1440 x 720), and
 * a world view on a screen reads a few dozen blocks of a coarse level, a
 * zoomed-in view only the blocks it shows. A full-resolution copy of the
 * globe is 16200 GetMaps: copies ask for a size (width=, res=, or -outsize).
 *
 * Fetched blocks are kept in a disk cache (see swx_map_opts.cache): a run's
 * image for one time never changes, so cached blocks stay valid; cache entries
 * are named by a hash of the GetMap request without the key.
 */
#ifndef SEAWX_WMS_MAP_H
#define SEAWX_WMS_MAP_H

#include "seawx/connstr.h"
#include "seawx/diskcache.h"
#include "seawx/http.h"
#include "seawx/visibility.h"
#include "seawx/wms.h"
#include "seawx/wms_caps.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_MAP_DEFAULT_RES_DEG 0.0078125
#define SWX_MAP_MIN_OVERVIEW 256
#define SWX_MAP_MAX_SIDE (1 << 20)

typedef struct swx_map_opts {
    const char *bundle;   /* required */
    const char *layer;    /* a leaf's full name; or NULL and variable */
    const char *variable; /* "t2m" or "t2m:K" */
    const char *run;      /* with variable: NULL or "latest" (newest complete run),
                             "YYYYMMDDHH" or an ISO 8601 instant */
    const char *time;     /* NULL: the time dimension's default */
    const char *style;    /* NULL: the layer's first style */
    const char *crs;      /* NULL: EPSG:4326 when advertised */
    int width, height;    /* 0: from res, else the default grid; one given: the
                             other keeps square pixels */
    double res;           /* pixel size in CRS units; 0: default */
    int block_size;       /* 256 (default) or 512 */
    swx_diskcache *cache; /* NULL: no disk cache; the front end's, outlives the map */
    /* Read by swx_map_opts_parse for the front end; swx_map_open leaves them: */
    int use_cache;            /* cache=: 1 (default) or 0 */
    int all_runs;             /* runs=all: a bundle's listing names every run */
    int max_connections;      /* GetMaps in flight at once: 32 by default */
    const char *wms_auth;     /* NULL: the front end's default */
    swx_service_opts service; /* url, timeout, retries */
} swx_map_opts;

/* The options of a map as connection-string items (and GDAL open options),
 * one description each, in the order front ends list them; then come the
 * service's (swx_service_opt_list). */
SWX_API const swx_opt *swx_map_opt_list(size_t *n);

/* Reads every item of cs into o, which it clears first (o->cache stays NULL:
 * the front end opens the cache when o->use_cache says so). An item that is
 * neither a map option nor a service option, or a value that does not read,
 * is refused with one line ("unknown option 'colour'; options are ...").
 * Strings point into cs. */
SWX_API int swx_map_opts_parse(swx_map_opts *o, const swx_connstr *cs);

typedef struct swx_map swx_map;

/* Resolves opts against caps, which the map takes over (freed with the map,
 * also on failure). */
SWX_API int swx_map_open(swx_map **out, swx_caps *caps, const swx_map_opts *opts);
SWX_API void swx_map_free(swx_map *m);

SWX_API const swx_layer *swx_map_layer(const swx_map *m);
SWX_API const char *swx_map_bundle(const swx_map *m);
SWX_API const char *swx_map_crs(const swx_map *m);   /* as advertised: "EPSG:4326" */
SWX_API int swx_map_epsg(const swx_map *m);          /* 4326 (also for CRS:84) or 3857 */
SWX_API const char *swx_map_style(const swx_map *m); /* "" when the layer has none */
SWX_API int64_t swx_map_time(const swx_map *m);      /* the chosen time; INT64_MIN: none */
SWX_API int swx_map_width(const swx_map *m);
SWX_API int swx_map_height(const swx_map *m);
SWX_API int swx_map_block_size(const swx_map *m);
/* GDAL-style geotransform of level 0 (north up). */
SWX_API void swx_map_geotransform(double gt[6], const swx_map *m);
/* Levels: 0 is full resolution; overviews follow. */
SWX_API int swx_map_level_count(const swx_map *m);
SWX_API void swx_map_level_size(int *w, int *h, const swx_map *m, int level);

/* Receives one decoded block: w x h RGBA pixels, rows top down. Returns 0 to
 * go on, or a negative code to stop the read. */
typedef int (*swx_map_block_fn)(void *ud, int level, int bx, int by, const uint8_t *rgba, int w,
                                int h);

/* Fetches n blocks of one level (bxy holds n (bx, by) pairs) with up to
 * max_in_flight GetMaps at once, from the disk cache where they are, and hands
 * each to cb as it arrives. The first block that fails stops the read: its
 * error line is the service's message. stats (may be NULL) receives the
 * GetMaps sent and how many of them were retries. */
SWX_API int swx_map_read_blocks(swx_fetch_stats *stats, swx_map *m, swx_client *c, int level,
                                const int *bxy, size_t n, int max_in_flight,
                                volatile sig_atomic_t *cancel, swx_map_block_fn cb, void *ud);

/* Fetches a window of a level, [x0, x0 + xs) x [y0, y0 + ys) in that level's
 * pixels (fractions allowed, as GDAL's resampled reads give them), as a
 * bw x bh image that the service renders at that size: the service's GetMap
 * of the window, whatever the level's own resolution. It is asked for in
 * `pieces` horizontal strips (fewer when they would be under 8 rows; more,
 * and columns, where the service limits a GetMap's height or width), up to
 * max_in_flight at once; each strip is kept in the disk cache under its own
 * GetMap, so the same window again is read from there. rgba receives bw x bh
 * RGBA pixels, rows top down. stats as swx_map_read_blocks. */
SWX_API int swx_map_read_window(swx_fetch_stats *stats, swx_map *m, swx_client *c, int level,
                                double x0, double y0, double xs, double ys, int bw, int bh,
                                int pieces, int max_in_flight, volatile sig_atomic_t *cancel,
                                uint8_t *rgba);

#ifdef __cplusplus
}
#endif
#endif

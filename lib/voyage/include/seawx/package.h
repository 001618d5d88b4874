/*
 * seawx/package.h: a voyage package: several layers along one voyage, in one
 * folder a ship can take offline and step through in time.
 *
 * The package at PATH is a symbolic link to a version folder beside it,
 * ".NAME.vN" (N counts the builds), which holds:
 *
 *   VAR-YYYYMMDDTHHMMSSZ.mbtiles  one per layer and valid time (':' in a
 *                                 variable becomes '_'), the area of the
 *                                 voyage's stretch at that time (seawx/voyage.h)
 *   route.geojson                 the route, RFC 7946 (a MultiLineString when
 *                                 it crosses 180), with its times and speeds
 *   manifest.json                 voyage, layers, runs, times, and every file
 *                                 with its tiles, bytes and SHA-256
 *   project.qgs                   a QGIS 3.22 project: one raster layer per
 *                                 file with a fixed temporal range (its valid
 *                                 time until one second before the next),
 *                                 grouped by variable, and the route on top
 * and, when storms are asked for (swx_package_set_storms), fetched anew by
 * every build and written before any tile:
 *   storms.geojson ... wind_swaths.geojson  one file per storm kind, as
 *                                 `seawx storms -o DIR/` writes them
 *                                 (seawx/storm_geojson.h), all eight kinds
 *   storm_risk.json               the voyage's risk report (seawx/risk.h)
 *   storm_risk_segments.geojson   the stretches of route sailed at risk
 * listed in the manifest's "storms" and shown in the project's "Storms"
 * group, below the route and above the rasters.
 *
 * Order of work: with a budget, every (valid time, zoom, layer) in that
 * order, earliest time first, low zooms before high, so a package cut short
 * is usable from departure on; without one, each file's zooms in one step,
 * earliest time first. A budget stops before the package would
 * exceed it: the last step that made it too large is rolled back and the
 * package holds every layer complete for a prefix of the valid times (and
 * the low zooms of the next time that fitted, marked incomplete).
 *
 * Refresh: building again into the same PATH builds a new version folder
 * (from the newest complete run, or the run asked for), leaves out valid
 * times whose window ended before `now`, copies from the current version
 * each file that is complete for the same layer, run, time and voyage (its
 * identity, in the manifest) instead of fetching it, and then swaps the link
 * with rename(2): a reader that resolves PATH sees the old package or the new
 * one, whole. The version before is kept until the next build, so a reader
 * that began on it can finish; older ones are removed. A build that fails
 * removes its folder and leaves PATH as it was; one that is stopped leaves
 * PATH as it was and keeps its folder (".NAME.vN.part", with resume.json
 * naming its files' identities), which the next build continues.
 *
 * Nothing in a package holds the API key.
 */
#ifndef SEAWX_PACKAGE_H
#define SEAWX_PACKAGE_H

#include "seawx/grib.h"
#include "seawx/http.h"
#include "seawx/risk.h"
#include "seawx/seed.h"
#include "seawx/storm.h"
#include "seawx/visibility.h"
#include "seawx/voyage.h"
#include "seawx/wms_caps.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_PACKAGE_MAX_LAYERS 16

/* One layer of a package, as typed: VAR[:style=S][:zoom=Z][:format=F][:quality=Q]
 * ("swh:zoom=3-6:format=png8", "10u:style=wind/barb"). A variable with a
 * unit keeps it ("t2m:K:zoom=3-5": the part after the first ':' that has no
 * '=' is the unit). */
typedef struct swx_package_layer {
    char variable[64];
    char style[160]; /* "": the service's default */
    uint32_t zooms;  /* 0: the package's */
    int format;      /* -1: the package's; else a swx_tile_format */
    int quality;     /* -1: the package's */
} swx_package_layer;

/* SWX_EINVAL names what is wrong with spec. */
SWX_API int swx_package_layer_parse(swx_package_layer *out, const char *spec);

/* A package's tiles are for QGIS 3.22 (GDAL 3.6) and OpenCPN: its formats
 * are those both decode (seawx/tile_format.h), png8 unless a layer says. */
#define SWX_PACKAGE_VIEWERS (SWX_VIEWER_QGIS | SWX_VIEWER_OPENCPN)
#define SWX_PACKAGE_DEFAULT_FORMAT SWX_FORMAT_PNG8

/* A size: "20MB", "1.5MiB", "800kB", "300000" (bytes); decimal k, M, G and
 * binary Ki, Mi, Gi, with or without B. SWX_EINVAL when it is not one. */
SWX_API int swx_size_parse(uint64_t *out, const char *text);

/* What to build. Strings and the voyage are borrowed for the package's life.
 * Every layer's zooms and format are set (no 0 / -1 left). */
typedef struct swx_package_opts {
    const char *bundle;
    const char *run;  /* NULL or "latest": the newest complete run */
    const char *path; /* the package: a symbolic link, made by the build */
    const swx_voyage *voyage;
    double buffer_m;
    const swx_package_layer *layers;
    size_t nlayers;
    int tile_size;   /* 256 or 512 */
    uint64_t budget; /* bytes the package may hold; 0: no limit */
    int64_t now;     /* valid times whose window ended by now are left out */
    /* GSHHG's coastline (a binned_GSHHS_<res>.nc or its folder) for the
     * project's land; NULL: /usr/share/gmt-gshhg (front ends pass
     * $SEAWX_GSHHG) */
    const char *gshhg;
} swx_package_opts;

/* The rules of a package, once for every front end (seawx voyage, fleets,
 * swx_package_new). Errors are SWX_EINVAL and name no option of a front end:
 * where a layer came from is `what` ("--layer", "layers[2]"; NULL: "layer"),
 * put before its variable ("--layer swh: webp cannot be shown ..."). */
/* 1 to SWX_PACKAGE_MAX_LAYERS layers. */
SWX_API int swx_package_layer_count_check(size_t n);
/* A quality goes only with a format that takes one and both viewers show
 * (seawx/tile_format.h: jpeg). */
SWX_API int swx_package_quality_check(int format, int quality);
/* A format a package's viewers (QGIS 3.22, OpenCPN; SWX_PACKAGE_VIEWERS)
 * both show, and its quality as swx_package_quality_check. */
SWX_API int swx_package_layer_check(const swx_package_layer *l, const char *what);
/* Gives l the package's zooms, format and quality where its spec gives none
 * (0 / -1), then checks it. */
SWX_API int swx_package_layer_complete(swx_package_layer *l, uint32_t zooms, int format,
                                       int quality, const char *what);

/* What PATH is now: 0 nothing (a new package), 1 a package; SWX_EINVAL when
 * it exists and is not a package (nothing is touched), SWX_EIO when its
 * folder cannot be written. */
SWX_API int swx_package_path_check(const char *path);

typedef struct swx_package swx_package;

/* Plans every layer against caps (which must outlive the package): its
 * run, style and the voyage's valid times. SWX_ENOTFOUND for an unknown
 * variable, a voyage outside a layer's times, or no time left after now;
 * SWX_EINVAL for a budget that cannot hold even the first valid time at the
 * lowest zoom (counted at the smallest a file can be). */
SWX_API int swx_package_new(swx_package **out, const swx_caps *caps, const swx_package_opts *o);
/* Every rule of o that needs no capabilities (layers, tile size, the rules of
 * each layer); swx_package_new asks it first. */
SWX_API int swx_package_opts_check(const swx_package_opts *o);
SWX_API void swx_package_free(swx_package *p);

SWX_API size_t swx_package_layer_count(const swx_package *p);
SWX_API const swx_layer *swx_package_wms_layer(const swx_package *p, size_t i);
/* The files layer i will have (valid times not yet past). */
SWX_API size_t swx_package_file_count(const swx_package *p, size_t i);
SWX_API int64_t swx_package_file_time(const swx_package *p, size_t i, size_t f);

/* Storms in the package. Pointers are borrowed for the package's life. */
typedef struct swx_package_storms {
    const swx_storm_query *query;          /* the selection fetched (checked) */
    const struct swx_storm_danger *danger; /* cone and danger settings; NULL: the defaults */
    const char *const *qml; /* a QGIS style (.qml text) per swx_storm_kind; NULL: none */
} swx_package_storms;

/* Asks for the storms of s in every build of p (and in its quote). */
SWX_API int swx_package_set_storms(swx_package *p, const swx_package_storms *s);
/* The storm files' size now: they are fetched and written into a temporary
 * folder (under $TMPDIR), measured and removed. */
SWX_API int swx_package_quote_storms(double *bytes, size_t *files, swx_package *p, swx_client *c);
/* After a build with storms: the risk report of the voyage (owned by p, valid
 * until the next build or swx_package_free); NULL without storms. */
SWX_API const swx_risk_report *swx_package_storm_risk(const swx_package *p);

/* A voyage GRIB in the package (seawx/grib.h): voyage.grb2, the forecast
 * data of the voyage for routing software, made by every build from the
 * newest run (its messages from the cache after the first build), written
 * before any tile, counted first against the budget and listed in the
 * manifest ("grib": file, bytes, SHA-256, variables, run, times). */
typedef struct swx_package_grib {
    const char *vars;     /* checked by swx_grib_vars_check */
    double grid_deg;      /* 0: SWX_GRIB_DEFAULT_GRID */
    int step_h;           /* 0: SWX_GRIB_DEFAULT_STEP */
    swx_grib_cut cut;     /* window or route */
    swx_diskcache *cache; /* the messages kept between builds; may be NULL */
} swx_package_grib;
SWX_API int swx_package_set_grib(swx_package *p, const swx_package_grib *g);
/* The GRIB's size (about) and the bytes a build would fetch for it. */
SWX_API int swx_package_quote_grib(double *bytes, double *to_fetch, swx_package *p, swx_client *c);
/* After a build with a GRIB: what it holds; SWX_ENOTFOUND without one. */
SWX_API int swx_package_grib_result(swx_grib_result *out, const swx_package *p);

/* The departure plan of the package's route (seawx/plan.h): the route
 * sailed at the package's speed band from each departure, through point
 * forecasts asked anew by every build (one /forecast/point per sample point,
 * 15 nm apart) and the package's storms (those of swx_package_set_storms,
 * none without), written after the storms and the GRIB, before any tile:
 * plan.json and plan.csv (as `seawx plan --json/--csv` writes them) and
 * plan.png (the chart, by wind); counted against the budget after the GRIB
 * and listed in the manifest ("plan": files, bytes, SHA-256, departures,
 * the counts of each verdict, the options). */
typedef struct swx_package_departure_plan {
    int64_t from, to, step; /* the departures, as swx_plan_departures_parse gives them */
    double max_wind_kn, max_gust_kn, max_wave_m; /* thresholds; 0: none */
} swx_package_departure_plan;
/* SWX_EINVAL for a route with waypoint times ("a plan sails a route without
 * them from each departure"), a voyage without a speed band, departures
 * outside plan.h's rules, or a route past SWX_PLAN_MAX_SAMPLES points. */
SWX_API int swx_package_set_departure_plan(swx_package *p, const swx_package_departure_plan *o);
/* The point forecasts a build asks for the plan (its sample points), and
 * the plan's files' size (about). */
SWX_API int swx_package_quote_departure_plan(size_t *requests, double *bytes, const swx_package *p);

/* The quote of one layer. */
typedef struct swx_package_quote {
    uint64_t tiles;
    uint64_t requests;
    size_t files;
    double bytes;                             /* estimated size of its files */
    double tile_bytes[SWX_TILE_MAX_ZOOM + 1]; /* measured bytes per tile by zoom */
} swx_package_quote;

/* Tiles, GetMaps and an estimated size of layer i. The size is measured:
 * a sample of tiles at each zoom, around eight points along the route at the
 * middle valid time, is fetched and stored in the layer's encoding into a
 * temporary file, and its bytes per tile (SQLite pages included) scale to
 * every file, each plus the fixed cost of an MBTiles file. o (may be NULL)
 * gives the stop and cancel of a build's run options (the rest is not used):
 * asked before each sample's GetMaps, a stop ends the quote with SWX_ECANCEL,
 * its temporary files removed. */
struct swx_package_run_opts;
SWX_API int swx_package_quote_layer(swx_package_quote *out, swx_package *p, swx_client *c, size_t i,
                                    const struct swx_package_run_opts *o);
/* The estimate for the package's other files (route, manifest, project). */
SWX_API double swx_package_quote_extra(const swx_package *p);

/* Progress, reported on the calling thread. */
typedef struct swx_package_progress {
    uint64_t total;   /* tiles of every file */
    uint64_t done;    /* settled */
    uint64_t fetched; /* stored by this build */
    uint64_t bytes;   /* the package's size so far */
    uint64_t requests;
    const char *variable; /* the step under way */
    int64_t time;
    int zoom;
} swx_package_progress;

typedef struct swx_package_run_opts {
    int in_flight; /* GetMaps under way at once; 0: 32 */
    int (*stop)(void *ud);
    volatile sig_atomic_t *cancel;
    void (*progress)(void *ud, const swx_package_progress *pr);
    void (*failed)(void *ud, int z, uint32_t x, uint32_t y, int n, const char *why);
    void *ud;
    /* Answers shared with other packages (may be NULL): see share in
     * swx_seed_run_opts. A fleet builds every ship's package through one. */
    swx_diskcache *share;
} swx_package_run_opts;

/* What a build did. */
typedef struct swx_package_result {
    size_t files;          /* in the package */
    size_t copied;         /* files taken whole from the version before */
    uint64_t tiles;        /* in its files */
    uint64_t fetched;      /* tiles fetched by this build */
    uint64_t failed;       /* tiles that failed (the package is still made) */
    uint64_t requests;     /* GetMaps sent */
    uint64_t shared;       /* GetMaps answered from the share instead */
    uint64_t bytes;        /* the package's size, every file */
    size_t complete_times; /* valid times complete in every layer, from the first */
    size_t storms;         /* storms fetched (with swx_package_set_storms) */
    uint64_t storm_bytes;  /* their files' size, counted first against the budget */
    uint64_t grib_bytes;   /* the voyage GRIB's size, counted next */
    uint64_t plan_bytes;   /* the departure plan's files, counted after the GRIB */
    size_t plan_count[3];  /* its departures by verdict (SWX_PLAN_GO, ...) */
    int cut;               /* the budget stopped the build */
    char cut_line[512];    /* where it fell, for people */
    int interrupted;       /* stop() asked; nothing was changed */
    int version;           /* N of the version folder */
    uint64_t coast_bytes;  /* coast.geojson, the project's land; 0: none */
    char coast_note[256];  /* why there is none ("" when there is) */
} swx_package_result;

/* Builds the package. 0 when a package was put in place (cut by the budget
 * or with failed tiles too: see res); SWX_ECANCEL when stopped (PATH as it
 * was, what was fetched kept for the next build); another negative code
 * with its line otherwise (PATH as it was, nothing left). */
SWX_API int swx_package_build(swx_package_result *res, swx_package *p, swx_client *c,
                              const swx_package_run_opts *o);

#ifdef __cplusplus
}
#endif
#endif

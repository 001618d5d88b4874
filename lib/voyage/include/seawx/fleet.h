/*
 * seawx/fleet.h: a fleet: ships, each with its voyage and layers, whose
 * packages (seawx/package.h) are built in one run that asks the service once
 * for every distinct GetMap.
 *
 * The fleet file is one JSON object (at most SWX_FLEET_MAX_BYTES):
 *
 *   {
 *     "bundle": "maritime",                      required
 *     "run": "latest",                           or YYYYMMDDHH, an ISO 8601 instant
 *     "layers": ["swh:zoom=3-6", "sst"],          the --layer grammar of seawx voyage
 *     "zoom": "3-6", "format": "png8", "quality": 85,
 *     "buffer_nm": 10, "budget": "20MB", "tile_size": 256,
 *     "ships": [
 *       {"name": "aurora", "route": "routes/aurora.csv",
 *        "depart": "2026-03-02T12:00:00Z", "speed": "6-8"},
 *       {"name": "borealis", "route": {"type": "LineString", ...},
 *        "layers": ["swh"], "budget": "5MB", "buffer_nm": 20},
 *       {"name": "castor", "route_csv": "lat,lon,eta\n..."},
 *       {"name": "dorado", "route": "routes/dorado.csv", "routed": true,
 *        "polar": "dorado.pol", "depart": "2026-03-02T12:00:00Z", "speed": 5}
 *     ]
 *   }
 *
 * Everything but "bundle" and "ships" is a default for the ships (the
 * defaults of seawx voyage where the fleet gives none: zooms 3-6, png8,
 * 10 nm, no budget, 256 pixels); a ship may set its own "layers",
 * "buffer_nm" and "budget". A ship's route is a file ("route": a string, a
 * path relative to the fleet file's folder), inline GeoJSON ("route": an
 * object) or inline CSV ("route_csv"), with waypoint times or with "depart"
 * and "speed" (knots: a number, or "MIN-MAX"). A name is 1 to 64 of
 * [A-Za-z0-9._-], not starting with '.', unique in the fleet: the ship's
 * package is DIR/NAME. A ship with "routed": true sails the fastest route
 * from its route's first waypoint to its last through the others (the front
 * end searches it, seawx/route.h, and sets it with swx_fleet_set_voyage):
 * its route has no waypoint times, its "depart" and "speed" (under motor; a
 * band's slow end) or its "polar" (a file, as "route"; motoring at the speed
 * wherever sailing makes less) sail it. Unknown fields are errors (a misspelt field is never
 * ignored). Every error is one line naming the ship (its number from 1 and
 * its name) and the field.
 */
#ifndef SEAWX_FLEET_H
#define SEAWX_FLEET_H

#include "seawx/package.h"
#include "seawx/visibility.h"
#include "seawx/voyage.h"
#include "seawx/wms_caps.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_FLEET_MAX_BYTES (16u * 1024u * 1024u)
#define SWX_FLEET_MAX_SHIPS 10000
#define SWX_FLEET_NAME_MAX 64

/* One ship, resolved: its layers carry their zooms and format (no 0 / -1
 * left), its voyage its departure and speed. */
typedef struct swx_fleet_ship {
    char name[SWX_FLEET_NAME_MAX + 1];
    swx_voyage *voyage; /* the fleet's */
    swx_package_layer layers[SWX_PACKAGE_MAX_LAYERS];
    size_t nlayers;
    double buffer_m;
    uint64_t budget; /* 0: none */
    /* "routed": true: the package follows the fastest route from the route's
     * first waypoint to its last (found by the front end, set with
     * swx_fleet_set_voyage), sailed by this polar ("polar": a file; NULL:
     * under motor at the ship's speed) */
    int routed;
    struct swx_polar *polar;
} swx_fleet_ship;

typedef struct swx_fleet swx_fleet;

/* Parses a fleet file's text; route files are read relative to base_dir
 * (NULL: the current folder). SWX_EINVAL (or SWX_EIO for a route file that
 * cannot be read; SWX_EINVAL too past the ship or size limits) with one line naming the ship
 * and field; *out stays NULL then. */
SWX_API int swx_fleet_parse(swx_fleet **out, const char *text, size_t len, const char *base_dir);
/* The same, of the file at path (its folder is base_dir). */
SWX_API int swx_fleet_read(swx_fleet **out, const char *path);
SWX_API void swx_fleet_free(swx_fleet *f);

SWX_API const char *swx_fleet_bundle(const swx_fleet *f);
/* NULL: the newest complete run. */
SWX_API const char *swx_fleet_run(const swx_fleet *f);
SWX_API int swx_fleet_tile_size(const swx_fleet *f);
SWX_API size_t swx_fleet_ship_count(const swx_fleet *f);
SWX_API const swx_fleet_ship *swx_fleet_ship_at(const swx_fleet *f, size_t i);
/* Ship i's voyage replaced by v (the route found for a routed ship, with
 * its times); f takes v. SWX_EINVAL for no such ship. */
SWX_API int swx_fleet_set_voyage(swx_fleet *f, size_t i, swx_voyage *v);

/* Deals the n ships' packages to `shards` shards: heaviest first (most
 * GetMaps alone; ties: the earlier ship), each to the shard that already
 * asks for most of its GetMaps (ships of one lane together) among those it
 * fits in (at most a tenth over the mean), else to the lightest; ties go to
 * the lighter, then the lower shard. Every shard computes the same deal
 * alone. shard_of[i] is 1 to shards; SWX_EINVAL when shards is not 1 to
 * SWX_SHARD_MAX. */
SWX_API int swx_fleet_deal(int *shard_of, swx_package *const *pkgs, size_t n, int shards);

/* ---- building a fleet ----
 *
 * Every ship's package is DIR/NAME, exactly what swx_package_build makes for
 * that ship alone. Every package asks one GetMap per tile on the global tile
 * grid, so the same tile of the same layer, time, style and tile size is the
 * same request for every ship: the packages are built one after another,
 * earliest departure first (then as in the file), through one share (a disk
 * cache in DIR/.fleet-share, or DIR/.fleet-share.K-of-N for a shard, keyed
 * by the request without the key), so that an answer one ship fetched serves
 * every later ship. The share is removed once every ship's package is
 * complete; a run that was stopped, had failed tiles or failed ships keeps
 * it, so running it again fetches only what is still missing. A ship that
 * fails does not stop the others, unless the key, the configuration or the
 * service failed (SWX_EAUTH, SWX_EFORBIDDEN, SWX_ECONFIG, SWX_ENET,
 * SWX_EHTTP, SWX_ERATE): every other ship would fail the same way. */

/* Checks, before anything is asked of the service, that each ship's package
 * can be built at DIR/NAME (swx_package_path_check) when the folder DIR
 * exists. 0, or the error of the first ship that cannot, naming it. */
SWX_API int swx_fleet_check_folder(const swx_fleet *f, const char *dir);

/* The fleet planned: each ship's package against the capabilities, and the
 * deal of the ships to shards. */
typedef struct swx_fleet_plan swx_fleet_plan;
typedef struct swx_fleet_plan_opts {
    const char *dir;   /* the fleet's folder (NULL: the current one) */
    int64_t now;       /* valid times whose window is over by now are left out */
    const char *gshhg; /* GSHHG for each project's land (seawx/package.h) */
    int shards;        /* deal the ships to this many shards (swx_fleet_deal); 0: none */
    /* a voyage GRIB in every ship's package (NULL: none); through its one
     * cache, a message wanted by several ships is fetched once */
    const swx_package_grib *grib;
} swx_fleet_plan_opts;
/* f and caps must outlive the plan. An error names the ship (its number
 * from 1 and name); *out stays NULL then. */
SWX_API int swx_fleet_plan_new(swx_fleet_plan **out, const swx_fleet *f, const swx_caps *caps,
                               const swx_fleet_plan_opts *o);
SWX_API void swx_fleet_plan_free(swx_fleet_plan *p);
/* Ship i's package (as in the fleet file), and its shard (1 to shards; 0
 * without shards). */
SWX_API const swx_package *swx_fleet_plan_package(const swx_fleet_plan *p, size_t i);
SWX_API int swx_fleet_plan_shard(const swx_fleet_plan *p, size_t i);

/* Progress, on the calling thread: ship k of n (from 1) and its package's. */
typedef struct swx_fleet_progress {
    size_t k, n;
    const char *ship;
    const swx_package_progress *package;
} swx_fleet_progress;

/* One ship's build ended: built (rc 0, res as swx_package_build gives it),
 * failed (rc negative, its line in swx_error_last() naming the ship), or
 * stopped (rc SWX_ECANCEL or res.interrupted). */
typedef struct swx_fleet_ship_result {
    size_t index; /* in the fleet file, from 0 */
    const char *ship;
    size_t k, n;
    int rc;
    swx_package_result res;
} swx_fleet_ship_result;

typedef struct swx_fleet_build_opts {
    int shard;          /* build only the ships of this shard of the plan's; 0: all */
    uint64_t share_max; /* bytes the share may hold on disk; 0: no limit */
    int in_flight;      /* GetMaps under way at once; 0: 32 */
    int (*stop)(void *ud);
    volatile sig_atomic_t *cancel;
    void (*progress)(void *ud, const swx_fleet_progress *pr);
    void (*failed)(void *ud, const swx_fleet_progress *ship, int z, uint32_t x, uint32_t y, int n,
                   const char *why);
    void (*ship_done)(void *ud, const swx_fleet_ship_result *r);
    void *ud;
} swx_fleet_build_opts;

/* What a fleet build did, over the ships it built. */
typedef struct swx_fleet_result {
    size_t ships; /* to build: the shard's, or all */
    size_t built, failed_ships;
    size_t files;
    uint64_t tiles;
    uint64_t requests; /* GetMaps sent */
    uint64_t shared;   /* GetMaps answered from the share */
    uint64_t partial;  /* tiles that failed in built packages */
    int interrupted;
    char share_dir[4200]; /* where the shared answers are kept */
} swx_fleet_result;

/* Builds the packages of shard o->shard (or all) in the plan's folder.
 * 0: all built (res->partial: tiles missing); SWX_ECANCEL: stopped; else
 * the first failed ship's code, or what kept every ship from starting. */
SWX_API int swx_fleet_build(swx_fleet_result *res, swx_fleet_plan *p, swx_client *c,
                            const swx_fleet_build_opts *o);

/* Counting GetMaps across packages: one per tile of a package (metatile 1),
 * and the same GetMap (layer, time, style, tile size, tile) once for them
 * all. */
typedef struct swx_fleet_count swx_fleet_count;
SWX_API int swx_fleet_count_new(swx_fleet_count **out);
SWX_API void swx_fleet_count_free(swx_fleet_count *c);
/* Adds package p's GetMaps: *getmaps gets what p alone asks for, *added
 * those no package added before asked for. SWX_ETOOBIG past 2^26 distinct. */
SWX_API int swx_fleet_count_add(uint64_t *getmaps, uint64_t *added, swx_fleet_count *c,
                                const swx_package *p);

#ifdef __cplusplus
}
#endif
#endif

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
 *       {"name": "castor", "route_csv": "lat,lon,eta\n..."}
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
 * package is DIR/NAME. Unknown fields are errors (a misspelt field is never
 * ignored). Every error is one line naming the ship (its number from 1 and
 * its name) and the field.
 */
#ifndef SEAWX_FLEET_H
#define SEAWX_FLEET_H

#include "seawx/package.h"
#include "seawx/visibility.h"
#include "seawx/voyage.h"

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
} swx_fleet_ship;

typedef struct swx_fleet swx_fleet;

/* Parses a fleet file's text; route files are read relative to base_dir
 * (NULL: the current folder). SWX_EINVAL (or SWX_EIO for a route file that
 * cannot be read, SWX_ETOOBIG past a limit) with one line naming the ship
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

/* Deals the n ships' packages to `shards` shards: heaviest first (most
 * GetMaps alone; ties: the earlier ship), each to the shard that already
 * asks for most of its GetMaps (ships of one lane together) among those it
 * fits in (at most a tenth over the mean), else to the lightest; ties go to
 * the lighter, then the lower shard. Every shard computes the same deal
 * alone. shard_of[i] is 1 to shards. */
SWX_API int swx_fleet_deal(int *shard_of, swx_package *const *pkgs, size_t n, int shards);

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

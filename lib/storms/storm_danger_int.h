/*
 * storm_danger_int.h: what the storms folder shares of the danger products
 * (internal to storms: the feature builder storm_geometry.c, the danger files
 * and tests/unit/storms): the geometry work space and the products built in
 * it, ring orientation, and the steps of the timeline the geometry reuses.
 * The timeline itself, which the floors above read, is storm_timeline.h.
 */
#ifndef SWX_STORM_DANGER_INT_H
#define SWX_STORM_DANGER_INT_H

#include "seawx/storm_danger.h"
#include "seawx/storm_geojson.h"
#include "storm_timeline.h"

#include <stddef.h>
#include <stdint.h>

/* The storm's basin for the cone table: the sub-basin CP first, then the
 * summary's basin, then the ATCF letters. */
const char *swx_storm_cone_basin(const swx_storm *s);
/* The storm's season for the cone table. */
int64_t swx_storm_season(const swx_storm *s);
/* Unit vector of a position, and back. */
void swx_storm_to_vec(double v[3], double lon, double lat);
void swx_storm_from_vec(double *lon, double *lat, const double v[3]);
/* The point a fraction f of the way along the great circle from a to b. */
void swx_storm_gc_interp(double *lon, double *lat, double lon1, double lat1, double lon2,
                         double lat2, double f);

/* Geometry work space of the danger products: one per thread of work. */
typedef struct swx_danger_ws swx_danger_ws;
int swx_danger_ws_new(swx_danger_ws **out);
void swx_danger_ws_free(swx_danger_ws *w);
/* Tests: merge every chain with GEOS (on = 1) instead of in one plane, and
 * how many chains fell back to GEOS because the plane merge gave up. */
void swx_danger_ws_geos_only(swx_danger_ws *w, int on);
size_t swx_danger_ws_fallbacks(const swx_danger_ws *w);

/* What a danger feature tells besides its geometry. */
typedef struct swx_danger_info {
    int64_t start_time, end_time; /* of the chain */
    double max_lead_h;            /* lead of the last fix */
    double max_nm;                /* largest radius of the chain */
} swx_danger_info;

/* Builds the geometry of a cone (SWX_SK_CONE), danger area
 * (SWX_SK_DANGER_AREA) or wind swath (SWX_SK_WIND_SWATH of one track and
 * threshold) into w; read it with swx_danger_geometry (0 polygons: none). */
int swx_danger_build(swx_danger_ws *w, const swx_storm_danger *d, const swx_storm *s, int kind,
                     int forecast, int threshold, swx_danger_info *info);
/* 1 when the storm gives that feature (as swx_danger_build would). */
int swx_danger_exists(const swx_storm *s, int kind, int forecast, int threshold);
/* The polygons built: npolys polygons of poly_rings[i] rings each (the
 * first outer, counter-clockwise; holes clockwise), nparts rings in all. */
void swx_danger_geometry(const swx_danger_ws *w, size_t *nparts, const size_t **part_len,
                         const double **xy, size_t *npolys, const size_t **poly_rings);

/* Reverses a ring of n lon/lat pairs in place, turning it the other way
 * round (the danger products and the storm geometry orient their rings). */
static inline void swx_ring_reverse(double *p, size_t n)
{
    if (n == 0)
        return;
    for (size_t i = 0, j = n - 1; i < j; i++, j--) {
        double tx = p[2 * i], ty = p[2 * i + 1];
        p[2 * i] = p[2 * j];
        p[2 * i + 1] = p[2 * j + 1];
        p[2 * j] = tx;
        p[2 * j + 1] = ty;
    }
}

#endif

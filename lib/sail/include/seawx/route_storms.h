/*
 * seawx/route_storms.h: the storms as no-go areas of the route search
 * (seawx/route.h): at every moment the boat is at sea it stays out of each
 * storm's 34 kt wind radii (by quadrant) and out of its 1-2-3 danger area,
 * both as seawx/storm_danger.h gives them at that moment (the centre moving
 * along the great circle between fixes, every radius changing linearly).
 *
 * A leg is checked at every whole minute it spans and at both its ends (the
 * boat moving at a constant rate along the great circle between them, as
 * the route's points are joined), against a table of each storm's state a
 * minute apart; the areas are grown by SWX_ROUTING_STORM_PAD_NM so that no
 * moment between two minutes checked falls inside (a boat at 30 kn and a
 * storm at 30 kn close 0.5 nm in half a minute). A leg far from every storm
 * is cleared by hour-long bounds without looking at its minutes.
 *
 * Beyond a storm's last forecast position nothing is known of it, and it is
 * no longer an obstacle: seawx route says how far its storms' forecasts run.
 */
#ifndef SEAWX_ROUTE_STORMS_H
#define SEAWX_ROUTE_STORMS_H

#include "seawx/route.h"
#include "seawx/storm.h"
#include "seawx/storm_danger.h"
#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_ROUTING_STORM_PAD_NM 1.0
/* A search lasts at most this long for the storms' tables (minutes a storm). */
#define SWX_ROUTING_STORM_MAX_H 1680

typedef struct swx_routing_storms swx_routing_storms;

/* The storms' areas from t0 to t1 (unix seconds), each grown by margin_nm
 * (and the pad). d NULL: the default danger settings. The storms are read
 * now and not kept; a storm whose timeline never meets [t0, t1] is left
 * out. SWX_EINVAL for t1 < t0 or a span over SWX_ROUTING_STORM_MAX_H. */
SWX_API int swx_routing_storms_new(swx_routing_storms **out, const swx_storm *const *storms,
                                   size_t n, const swx_storm_danger *d, int64_t t0, int64_t t1,
                                   double margin_nm);
SWX_API void swx_routing_storms_free(swx_routing_storms *s);
/* The storms kept (those that meet the span). */
SWX_API size_t swx_routing_storms_count(const swx_routing_storms *s);
/* The last moment any kept storm is forecast (0 with none). */
SWX_API int64_t swx_routing_storms_until(const swx_routing_storms *s);

/* The search's leg test (ctx: the swx_routing_storms): SWX_ROUTING_STORM
 * when the boat is inside a storm's area at some moment of the leg. Safe
 * from several threads at once. */
SWX_API int swx_routing_storms_leg(void *ctx, double lat0, double lon0, int64_t t0, double lat1,
                                   double lon1, int64_t t1);

/* A storm against a place at a moment, or against a route. */
typedef struct swx_routing_storm_near {
    const char *atcf_id, *title; /* the storm's (title: its name, or its id); NULL: none */
    double centre_nm;            /* distance from its centre */
    double clear_nm;             /* how far outside its area itself, margins not counted
                                    (< 0: inside) */
    int64_t time;                /* the moment */
    double lat, lon;             /* the boat's place then */
    int inside_r34;              /* 1: inside the 34 kt radii (else inside the danger area
                                    when clear_nm < 0) */
} swx_routing_storm_near;

/* The storm whose area is nearest the place at t (inside it first). 0 when
 * no kept storm exists at t. The strings live as long as s. */
SWX_API int swx_routing_storms_at(const swx_routing_storms *s, double lat, double lon, int64_t t,
                                  swx_routing_storm_near *out);
/* The storm that comes nearest the route (the least clear_nm, checked every
 * minute of the route): 0 when no kept storm meets the route in time. */
SWX_API int swx_routing_storms_nearest(const swx_routing_storms *s, const swx_routing *r,
                                       swx_routing_storm_near *out);

/* A storm's area at a moment, as the search keeps out of it: its centre,
 * its 34 kt radii by quadrant (a quadrant spans the bearings from the
 * centre 0-90 ne, 90-180 se, 180-270 sw, 270-360 nw) and its 1-2-3 danger
 * radius; the area is, in each quadrant, the larger of the two. margin_nm:
 * what the search adds round it (the storm margin and
 * SWX_ROUTING_STORM_PAD_NM). */
typedef struct swx_routing_storm_shape {
    double lat, lon;
    double r34_nm[4]; /* ne, se, sw, nw; 0: none */
    double danger_nm; /* 0 before the forecast */
    double margin_nm;
} swx_routing_storm_shape;

/* The area of the kept storm atcf_id at t (the minute tabled nearest t):
 * 1, or 0 when no such storm is kept or it is not known at t. */
SWX_API int swx_routing_storms_shape(const swx_routing_storms *s, const char *atcf_id, int64_t t,
                                     swx_routing_storm_shape *out);

#ifdef __cplusplus
}
#endif
#endif

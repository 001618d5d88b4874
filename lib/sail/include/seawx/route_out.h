/*
 * seawx/route_out.h: what `seawx route` writes of a route (seawx/route.h).
 *
 * - GPX 1.1: the route as a <rte> (OpenCPN, qtVlm and chart plotters import
 *   it as a route), one <rtept> a point with its time, a name "R001"... and
 *   a description of the leg that leaves it (course, speed, wind).
 * - GeoJSON (RFC 7946, WGS 84 longitude/latitude): one Point feature a
 *   point of the route with its time and the leg that leaves it (course and
 *   speed over ground, heading and boat speed, the true wind over water and
 *   its angle, gust, waves, current, tacking, motoring). Points only, so
 *   that QGIS opens it as one layer without asking which (the line is the
 *   GPX's route, the figures the JSON summary's).
 * - The isochrones as GeoJSON: one LineString a time, in order of bearing
 *   from the start, with its time and hours from departure (QGIS can
 *   animate them by the "time" field).
 * - A JSON summary: the trip (distance, hours, departure, arrival, and the
 *   hours waited), the maxima met, the hours on each point of sail, the
 *   storm that came nearest (seawx/route_storms.h), the search's figures;
 *   or, when no route was found, the reason.
 *
 * Every writer writes to an open stream and returns 0 or SWX_EIO; the
 * caller makes the file whole or not at all (seawx/atomicfile.h).
 */
#ifndef SEAWX_ROUTE_OUT_H
#define SEAWX_ROUTE_OUT_H

#include "seawx/route.h"
#include "seawx/visibility.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Points of sail by the true wind angle of a leg (over water, to the
 * heading): upwind up to 60°, reaching past 60° to 120°, downwind past
 * 120°; legs under motor count as motoring whatever the angle. */
enum swx_routing_sail { SWX_SAIL_UPWIND, SWX_SAIL_REACHING, SWX_SAIL_DOWNWIND, SWX_SAIL_MOTORING };
#define SWX_SAIL_KINDS 4
SWX_API const char *swx_routing_sail_name(int kind); /* "upwind", ... */

/* The figures of a route, from its points. */
typedef struct swx_routing_summary {
    double hours, distance_nm;
    double max_tws_kn, max_gust_kn, max_wave_m, max_current_kn; /* NAN when never known */
    double sail_hours[SWX_SAIL_KINDS];
    double tacking_hours;
} swx_routing_summary;
SWX_API void swx_routing_summarize(swx_routing_summary *s, const swx_routing *r);

/* What the route was asked with, for the outputs' header. */
typedef struct swx_routing_info {
    const swx_routing_opts *o;
    const char *name;     /* the route's name (GPX <name>); NULL: "seawx route" */
    const char *polar;    /* the polar's file, NULL under motor */
    const char *forecast; /* where the forecast came from: a file, or the service's run */
    double land_margin_nm;
    char land_resolution; /* 0: no land */
    /* The storms: -1 left out; else how many met the voyage's time, with
     * the one that came nearest the route (NULL: none met it) and the
     * departure first asked for (a route that waited leaves later). */
    long storms;
    const struct swx_routing_storm_near *storm_nearest;
    int64_t asked_depart;
} swx_routing_info;

SWX_API int swx_routing_write_gpx(FILE *f, const swx_routing *r, const swx_routing_info *in);
SWX_API int swx_routing_write_geojson(FILE *f, const swx_routing *r, const swx_routing_info *in);
SWX_API int swx_routing_write_isochrones(FILE *f, const swx_routing *r);
/* The route as a timed track: one GeoJSON Feature, a LineString of the
 * route's points with their times in "properties": {"times": [...]}: the
 * route file with waypoint times that seawx grib, voyage, storms and plan
 * read (seawx/voyage.h). */
SWX_API int swx_routing_write_track(FILE *f, const swx_routing *r, const swx_routing_info *in);
SWX_API int swx_routing_write_json(FILE *f, const swx_routing *r, const swx_routing_info *in);

#ifdef __cplusplus
}
#endif
#endif

/*
 * seawx/voyage.h: a voyage: a route sailed from a departure at a speed band,
 * or with a time at each waypoint, and the area each forecast valid time
 * needs along it.
 *
 * The route is one line (seawx/tiles.h gives the formats); its legs are
 * great-circle arcs and distances are measured on the sphere of radius
 * SWX_EARTH_RADIUS_M. With a speed band [vmin, vmax] (knots, 0 < vmin <=
 * vmax) from departure d, the ship has sailed at a moment tau between
 * vmin * (tau - d) and vmax * (tau - d), clamped to [0, L] (L the route's
 * length); it has arrived at the latest at d + L / vmin. With waypoint times
 * t_0 < ... < t_n-1, it sails each leg at a constant speed: at tau it is at
 * one point (the departure before t_0, the last waypoint after t_n-1), and
 * arrives at t_n-1.
 *
 * For valid times T_0 < ... < T_m-1, the window of T_i is the moments nearer
 * to it than to its neighbours, [(T_i-1 + T_i) / 2, (T_i + T_i+1) / 2], open
 * at the first start and the last end, so that every moment of the voyage is
 * in the window of the forecast a viewer shows then. The stretch of T_i runs
 * along the route from the earliest position at the window's start to the
 * latest at its end; buffered, it is T_i's area. A window that ends before
 * departure gives the departure point; one that starts at or after the
 * latest arrival gives nothing (the valid time is skipped).
 */
#ifndef SEAWX_VOYAGE_H
#define SEAWX_VOYAGE_H

#include "seawx/tiles.h"
#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_KNOT_MPS (SWX_NM_M / 3600.0) /* one knot in metres per second */

typedef struct swx_voyage swx_voyage;

/* A voyage along a route file (GeoJSON or CSV, as swx_area_from_route reads;
 * one line), with the waypoint times it may give. */
SWX_API int swx_voyage_from_route(swx_voyage **out, const char *text, size_t len);
SWX_API void swx_voyage_free(swx_voyage *v);

/* 1 when the route gives waypoint times (then no departure and speed). */
SWX_API int swx_voyage_timed(const swx_voyage *v);
/* Sets the departure (seconds since 1970) and the speed band in knots;
 * SWX_EINVAL when the route gives times, or the speeds are not 0 < min <=
 * max (at most 100 knots). */
SWX_API int swx_voyage_set_speed(swx_voyage *v, int64_t depart, double min_kn, double max_kn);
/* Parses "KN" or "MIN-MAX" (knots, decimals allowed): 0 < MIN <= MAX <= 100. */
SWX_API int swx_speed_parse(double *min_kn, double *max_kn, const char *text);

/* How a route without waypoint times is sailed: the departure and the speed
 * band in knots (given 0: none). */
typedef struct swx_voyage_sailing {
    int given;
    int64_t depart;
    double min_kn, max_kn;
} swx_voyage_sailing;
/* The rules every front end follows: a route with waypoint times takes no
 * sailing ("the route gives waypoint times; a departure and a speed go with
 * a route without them"), one without needs it ("the route has no waypoint
 * times: give a departure and a speed"); then swx_voyage_set_speed. s may be
 * NULL (none given). SWX_EINVAL with one of those lines. */
SWX_API int swx_voyage_set_sailing(swx_voyage *v, const swx_voyage_sailing *s);
/* The voyage of a route file's text (swx_voyage_from_route) sailed as s
 * (swx_voyage_set_sailing): the one way every command reads a voyage.
 * *out stays NULL on an error. */
SWX_API int swx_voyage_open(swx_voyage **out, const char *text, size_t len,
                            const swx_voyage_sailing *s);

/* The speed band in knots; 0 and 0 for a voyage with waypoint times or
 * no speed yet. */
SWX_API void swx_voyage_speed(double *min_kn, double *max_kn, const swx_voyage *v);
/* The waypoints: their count, and waypoint i's position and time (INT64_MIN
 * when the route gives none). */
SWX_API size_t swx_voyage_waypoint_count(const swx_voyage *v);
SWX_API void swx_voyage_waypoint(double *lon, double *lat, int64_t *t, const swx_voyage *v,
                                 size_t i);
/* The box of the waypoints in degrees, west, south, east, north, longitudes
 * kept continuous along the route: a route across 180 runs on east of it
 * (east beyond 180), as a map of the voyage draws it. */
SWX_API void swx_voyage_box(double box[4], const swx_voyage *v);

/* The route's length in metres. */
SWX_API double swx_voyage_length(const swx_voyage *v);
/* The departure and the latest arrival (seconds since 1970); SWX_EINVAL
 * when the voyage has neither times nor a speed. */
SWX_API int swx_voyage_span(int64_t *depart, double *arrival, const swx_voyage *v);
/* The point at distance s metres along the route (clamped to [0, L]). */
SWX_API void swx_voyage_point(double *lon, double *lat, const swx_voyage *v, double s);

/* The distance (metres along the route) sailed at moment tau by the ship
 * at the band's lowest speed and at its highest (equal for a timed route);
 * the voyage has its times or its speed. */
SWX_API void swx_voyage_sailed(double *s_slow, double *s_fast, const swx_voyage *v, double tau);

/* The stretch of valid time times[i] of the n given (increasing): *from and
 * *to in metres along the route. Returns 1, 0 when the time is skipped (its
 * window starts at or after the latest arrival), or a negative code. */
SWX_API int swx_voyage_stretch(double *from, double *to, const swx_voyage *v, const int64_t *times,
                               size_t n, size_t i);
/* The area of times[i]: its stretch buffered by buffer_m metres; *out is
 * NULL when the time is skipped. */
SWX_API int swx_voyage_area(swx_area **out, const swx_voyage *v, const int64_t *times, size_t n,
                            size_t i, double buffer_m);

#ifdef __cplusplus
}
#endif
#endif

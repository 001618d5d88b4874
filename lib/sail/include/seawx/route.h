/*
 * seawx/route.h: the time-optimal route through a forecast (`seawx route`).
 *
 * The search is fed by callbacks: the forecast at a place and time
 * (swx_routing_met_fn) and the tests of a leg (swx_routing_leg_fn: land,
 * storms). It works on the sphere of seawx/sphere.h.
 *
 * The boat: with a polar, its speed through water in a direction is that of
 * the convex hull of the polar curve at the wind over water (true wind minus
 * current): a direction closer to the wind (or deeper downwind) than the
 * polar sails well is made good by tacking or gybing (swx_polar_hull_speed
 * in seawx/plan.h). Its velocity over ground is that velocity plus the current.
 * Without a polar, or below motor_below_kn of wind, it motors at motor_kn;
 * with motor_floor, also wherever the polar makes less than motor_kn.
 *
 * The search is an isochrone method with sector pruning (Hagiwara): from
 * each point of an isochrone the boat sails for one time step on each
 * heading of a fan (a multiple of heading_step_deg within SWX_ROUTING_FAN_DEG
 * of the point's bearing from the start, and beyond SWX_ROUTING_FAN_FINE_DEG
 * of it only every third); a leg is integrated with the
 * forecast at both ends (Heun's method, error of second order in the step).
 * Of the points reached, each sector (a band of cross-track distance
 * sector_nm wide along the great circle from the start to the end) keeps
 * the one nearest the end, and only when it is nearer than any point an
 * earlier isochrone kept there (so a blocked or stalled frontier empties and
 * the search ends); points whose distances from the start and to the end
 * add up to more than max_detour times the great circle are dropped. The
 * heading step Δ costs at most 1/cos(Δ/2) - 1 of the
 * time: 0.015 % at 2°, 0.034 % at 3°, 0.095 % at 5°, 0.38 % at 10°.
 * The pruning's error grows as sector_nm² / time step (measured on Bryson
 * and Ho's sheared current, 115 nm: 0.15 % at 1 nm and 1 h, 0.05 % at
 * 0.25 nm and 1 h); halving the time step and the heading step and dividing
 * the sector by 2^1.5 more than halves the error.
 *
 * The time step: time_step_s offshore (0: SWX_ROUTING_OFFSHORE_STEP_S, or
 * shorter (not under 1 h) to make at least SWX_ROUTING_MIN_STEPS steps of the
 * direct trip at top speed, with sectors as narrow as for 1 h: the pruning's error shrinks as the
 * step grows, and Heun's legs stay accurate in a smooth forecast); a quarter of the time the
 * nearest point still needs to the end once that is less than four steps (but not less than
 * SWX_ROUTING_MIN_STEP_S); halved (down to an eighth) after a step where more than a tenth of the
 * legs were blocked. The end is reached exactly: from every point of an isochrone the last leg
 * straight to the end is solved in time; the search stops once no later isochrone can arrive sooner
 * than the best arrival found.
 *
 * What the defaults cost (bench/route: a 2,700 nm crossing, Las Palmas to
 * St Lucia, with a cruising polar through a 0.25 degree 3-hourly forecast, one
 * core): 5.5 to 7 s of CPU and 46 MiB, 4 s with GSHHG's full land; the time
 * 0.02 % over the finest search afforded (3 h, 2 degrees, 0.75 nm sectors:
 * 44 s), 0.03 % with land. One hour everywhere with 2.25 nm sectors took 23 s and
 * was 0.9 % slower: there the pruning lost the best routes.
 *
 * The same inputs give the same route (bit for bit) whatever the number of
 * threads: each thread fills its points' own slots, and the sectors are
 * chosen in one pass in index order.
 */
#ifndef SEAWX_ROUTE_H
#define SEAWX_ROUTE_H

#include "seawx/plan.h"
#include "seawx/visibility.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_ROUTING_FAN_DEG 100.0      /* headings tried either side of a point's outward bearing */
#define SWX_ROUTING_HEADING_STEP_DEG 3 /* heading_step_deg 0: degrees between headings tried */
#define SWX_ROUTING_MIN_STEP_S 120     /* the finest time step */
#define SWX_ROUTING_OFFSHORE_STEP_S 21600 /* time_step_s 0: the step offshore */
#define SWX_ROUTING_MIN_STEPS 24          /* time_step_s 0: steps at least over the direct trip */
#define SWX_ROUTING_FAN_FINE_DEG 45.0     /* beyond this from the centre, every third heading */
#define SWX_ROUTING_MAX_POINTS 4000000 /* points over all isochrones: the search's memory bound */

/* Why a leg is blocked, or why no route was found. */
typedef enum swx_routing_cause {
    SWX_ROUTING_OK = 0,
    SWX_ROUTING_LAND,         /* a leg crosses land */
    SWX_ROUTING_STORM,        /* a leg enters a storm's area */
    SWX_ROUTING_LIMIT,        /* wind, gust or waves past the boat's limits (or no wind) */
    SWX_ROUTING_FORECAST_END, /* the forecast ends before the end is reached */
    SWX_ROUTING_START_ON_LAND,
    SWX_ROUTING_END_UNREACHABLE, /* every way forward is blocked, or the end is on land */
    SWX_ROUTING_TOO_LONG,        /* max_hours passed before the end was reached */
} swx_routing_cause;

/* "land", "storm", "limit", "forecast end", "start on land", "end
 * unreachable", "too long"; "" for SWX_ROUTING_OK. */
SWX_API const char *swx_routing_cause_name(int cause);

/* The forecast at a place and time; NAN where a field is absent. */
typedef struct swx_routing_met {
    double wind_u_kn, wind_v_kn; /* true wind over ground, blowing toward east and north */
    double gust_kn, wave_m;
    double cur_u_kn, cur_v_kn; /* current toward east and north; 0 (or NAN) for none */
} swx_routing_met;

/* 0; SWX_ROUTING_FORECAST_END when t is past the forecast's end (the search
 * stops and says so); or a negative SWX_E* code with its error line set
 * (the search fails with it). Called from several threads at once. */
typedef int (*swx_routing_met_fn)(void *ctx, double lat, double lon, int64_t t,
                                  swx_routing_met *out);
/* 0 when the leg sailed from (lat0, lon0) at t0 to (lat1, lon1) at t1 is
 * clear; else its cause (SWX_ROUTING_LAND, SWX_ROUTING_STORM). A point
 * alone is asked as a leg from it to itself. Called from several threads
 * at once. */
typedef int (*swx_routing_leg_fn)(void *ctx, double lat0, double lon0, int64_t t0, double lat1,
                                  double lon1, int64_t t1);

#define SWX_ROUTING_MAX_LEG_FNS 4

typedef struct swx_routing_opts {
    double from_lat, from_lon, to_lat, to_lon;
    int64_t depart;         /* unix seconds */
    const swx_polar *polar; /* NULL: motor at motor_kn */
    double motor_kn;        /* speed through water under motor */
    double max_tws_kn;      /* limits; 0: none */
    double max_gust_kn, max_wave_m;
    double min_twa_deg;      /* never sail closer to the wind than this (tacks included) */
    double motor_below_kn;   /* motor at motor_kn when the wind is lighter */
    int motor_floor;         /* with a polar: motor at motor_kn wherever sailing makes less
                                (seawx plan's --speed with --polar) */
    double heading_step_deg; /* 0: SWX_ROUTING_HEADING_STEP_DEG */
    int time_step_s;         /* 0: SWX_ROUTING_OFFSHORE_STEP_S offshore, sectors for 1 h */
    double sector_nm;        /* a sector's cross-track width, nm; 0: the smaller of
                                max(1, distance / 300) and 0.3 x top speed x time step
                                (1 h when time_step_s is 0) */
    double max_hours;        /* 0: 720 */
    double max_detour;       /* points whose distance from the start and to the end add
                                up to more than this times the great circle are dropped;
                                0: 2 */
    int threads;             /* 0 or 1: the caller's thread only */
    swx_routing_met_fn met;  /* required */
    void *met_ctx;
    swx_routing_leg_fn leg[SWX_ROUTING_MAX_LEG_FNS]; /* NULL-terminated or full */
    void *leg_ctx[SWX_ROUTING_MAX_LEG_FNS];
    /* The distance still to sail from a place to the end, nm, that the
     * pruning compares (NULL: the great circle). One that measures round
     * land (swx_routing_water_to_end, seawx/route_inputs.h) keeps the routes
     * that must first sail away from the end to get round an island. Called
     * from several threads at once. */
    double (*to_end)(void *ctx, double lat, double lon);
    void *to_end_ctx;
    /* Non-zero stops the search between two isochrones with SWX_ECANCEL
     * (a signal handler's flag); NULL: never. */
    volatile sig_atomic_t *cancel;
} swx_routing_opts;

typedef struct swx_routing swx_routing;

/* One point of the route, with the leg that leaves it (the last point's
 * leg fields are those of the leg that reached it). bsp_kn is the speed made
 * good through water in the heading's direction (tacks or gybes included);
 * tacking is 1 when the polar curve itself does not reach that direction
 * (the hull does). */
typedef struct swx_routing_point {
    int64_t time;
    double lat, lon;
    double cog_deg, sog_kn; /* course and speed over ground */
    double heading_deg, bsp_kn;
    double tws_kn, twa_deg; /* the wind over water, and its angle to the heading */
    double gust_kn, wave_m, cur_u_kn, cur_v_kn;
    int tacking, motoring;
} swx_routing_point;

/* Why no route (cause SWX_ROUTING_OK when there is one). */
typedef struct swx_routing_reason {
    int cause;      /* swx_routing_cause */
    int blocked_by; /* for END_UNREACHABLE: what blocked the leg nearest the end, or 0 */
    double lat, lon;
    int64_t time;
    char message[256]; /* one line */
} swx_routing_reason;

/* Runs the search. 0 and *out (the route, or the reason there is none, with
 * the isochrones reached either way); or a negative code with *out NULL for
 * options that are not a search (start equal to end, no forecast, a step out
 * of range) or a failure of the callbacks or of memory. */
SWX_API int swx_routing_solve(swx_routing **out, const swx_routing_opts *o);
SWX_API void swx_routing_free(swx_routing *r);

/* 1 when a route was found. */
SWX_API int swx_routing_found(const swx_routing *r);
SWX_API const swx_routing_reason *swx_routing_why(const swx_routing *r);
SWX_API size_t swx_routing_npoints(const swx_routing *r);
SWX_API const swx_routing_point *swx_routing_points(const swx_routing *r);
SWX_API double swx_routing_hours(const swx_routing *r);       /* total time */
SWX_API double swx_routing_distance_nm(const swx_routing *r); /* over ground */

/* The isochrones: number, and the i-th's time and points (lat, lon pairs,
 * in order of their sectors, from the left of the great circle start to end
 * to its right). */
SWX_API size_t swx_routing_nisochrones(const swx_routing *r);
SWX_API int64_t swx_routing_isochrone(const swx_routing *r, size_t i, const double **latlon,
                                      size_t *n);

/* A route through waypoints: the routes between consecutive waypoints
 * (each found, each leaving where and when the one before arrived) joined
 * into one, with all their isochrones; the parts are freed (and set NULL)
 * on success. SWX_EINVAL when a part has no route. */
SWX_API int swx_routing_join(swx_routing **out, swx_routing **parts, size_t n);

/* What the search did: legs tried and seconds of wall-clock time. */
SWX_API void swx_routing_stats(const swx_routing *r, uint64_t *expansions, double *seconds);

#ifdef __cplusplus
}
#endif
#endif

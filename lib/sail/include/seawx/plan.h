/*
 * seawx/plan.h: the departure plan: one route sailed from many departures,
 * the forecast the ship meets on each, the storms, and a verdict per
 * departure ("which day do we leave?").
 *
 * The forecast along the route. The route is sampled every spacing_nm
 * nautical miles (the first and last waypoint always included); each sample
 * point has the point forecast for all its valid times, asked once
 * (swx_plan_forecast_fetch: one /forecast/point request per sample point,
 * whatever the number of departures) or read from a voyage GRIB
 * (swx_plan_forecast_from_grib: no request). Between sample points a value is
 * that of the nearest sample point along the route; between valid times it is
 * linear in time (wind as its two components, directions through their unit
 * vectors). Before the first valid time and after the last there is no
 * forecast: a departure whose voyage reaches past the last valid time is
 * computed up to it and flagged (partial).
 *
 * How the ship moves. Without a polar, with a speed band [vmin, vmax] knots:
 * at distance s along the route the ship is there between d + s / vmax (the
 * fast ship) and d + s / vmin (the slow ship). With a polar, the boat's speed
 * at each moment is the polar's at the true wind speed and angle it meets
 * there (swx_polar_speed), never less than the motoring speed (the band's
 * lowest speed, when given); the ship is moved in steps of SWX_PLAN_STEP_S
 * seconds, so early and late are one track (a track that has not arrived 60
 * days after departure, or is becalmed past the forecast's end, has no
 * arrival: NaN, partial). The storms take that ship at its average speed.
 *
 * A track is looked at every SWX_PLAN_STEP_S seconds from departure, each
 * moment standing for the step after it (the last for what is left of the
 * voyage), and once more on arrival (for the maxima): the value met is that
 * of the nearest sample point at that moment. A moment outside the
 * forecast's times counts for nothing and makes the departure partial.
 *
 * Per departure, over the voyage (for a band: the slow ship's track and the
 * fast ship's, the worse of the two for each figure):
 *   arrival (earliest, latest);
 *   maxima of true wind, gust, significant wave height met;
 *   hours with wind above max_wind_kn, gust above max_gust_kn, waves above
 *   max_wave_m, and hours upwind (true wind angle to the course below
 *   upwind_angle_deg, default 50);
 *   storms (seawx/risk.h, for this departure): the storm that matters most
 *   (the most severe measure the ship is inside, then the nearest approach),
 *   its closest approach, and the hours from the first to the last moment
 *   inside its danger area and inside its 34 kt radius. A storm whose
 *   centre never comes within 200 nm plus its reach (danger radius, 34 kt
 *   radii) of the route, at any moment of its timeline, can change no
 *   figure: it is not compared, and not named.
 * The verdict: NO-GO when a threshold given is exceeded (maximum above it, or
 * upwind hours above max_upwind_h) or the ship enters a storm's danger area or
 * 34 kt radius; MARGINAL when a storm's centre comes within 200 nm, a maximum
 * reaches 80 % of its threshold, the upwind hours 80 % of theirs, or the
 * forecast does not cover the whole voyage (partial); GO otherwise. The
 * first rule that holds, in that order, is the reason (docs/plan.md).
 */
#ifndef SEAWX_PLAN_H
#define SEAWX_PLAN_H

#include "seawx/http.h"
#include "seawx/visibility.h"
#include "seawx/voyage.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_PLAN_STEP_S 600         /* the track's time step */
#define SWX_PLAN_MAX_DEPARTURES 500 /* documented limit of departures per plan */

/* ---- polars ---- */

/* A sailing polar: boat speed (knots) by true wind angle (rows, degrees,
 * increasing, 0..180) and true wind speed (columns, knots, increasing), in
 * the common text format OpenCPN's weather routing, Expedition and qtVlm
 * read: a header row "TWA\TWS" (or "twa/tws") followed by the wind speeds,
 * then one row per angle; separated by tabs, semicolons, commas or spaces. */
typedef struct swx_polar swx_polar;
/* SWX_EINVAL with one line (row and column named) for a file that is not a
 * table of increasing angles and speeds with a number in every cell. */
SWX_API int swx_polar_parse(swx_polar **out, const char *text, size_t len);
SWX_API void swx_polar_free(swx_polar *p);
/* Boat speed in knots at true wind speed tws_kn and true wind angle
 * twa_deg (folded into 0..180): bilinear in the table; 0 below the first
 * angle, the last angle's speeds past it; speeds past the last column are
 * those of the last column, and below the first column they go linearly to
 * 0 at 0 kn. NaN for a NaN wind. */
SWX_API double swx_polar_speed(const swx_polar *p, double tws_kn, double twa_deg);

/* What a polar makes good in any direction by tacking or gybing: the convex
 * hull of the polar curve {v(a) (cos a, sin a)} (a the true wind angle, the
 * curve mirrored about the wind, the boat at rest included), built once per
 * row of a grid of wind speeds SWX_POLAR_HULL_TWS_STEP kn apart, up to the
 * polar's last wind speed. A direction the curve reaches less well than two
 * headings either side of it is sailed as a mix of those two (tacks upwind,
 * gybes downwind), and its speed is the hull's radius there. The uniform-
 * wind reachable set after t hours is t times this hull. Angles below
 * min_twa_deg (0: none) are not sailed. Read-only once built: safe to share
 * between threads. */
#define SWX_POLAR_HULL_TWS_STEP 0.25
typedef struct swx_polar_hull swx_polar_hull;
SWX_API int swx_polar_hull_new(swx_polar_hull **out, const swx_polar *p, double min_twa_deg);
SWX_API void swx_polar_hull_free(swx_polar_hull *h);
/* Speed made good (knots) at true wind speed tws_kn along a direction
 * twa_deg off the wind (folded into 0..180): the hull's radius there,
 * linear in the wind speed between rows of the grid. NaN for a NaN wind. */
SWX_API double swx_polar_hull_speed(const swx_polar_hull *h, double tws_kn, double twa_deg);

/* ---- inputs ---- */

/* "FROM/TO/STEP": ISO 8601 times and a step "6h", "90m", "1d" (> 0), FROM <=
 * TO, at most SWX_PLAN_MAX_DEPARTURES departures. */
SWX_API int swx_plan_departures_parse(int64_t *from, int64_t *to, int64_t *step, const char *text);
/* A threshold with its unit: wind and gust "25kn", "12.5m/s", "45km/h";
 * waves "3m", "10ft"; out in knots (speeds) or metres (heights). kind:
 * 's' speed, 'h' height. */
SWX_API int swx_plan_threshold_parse(double *out, const char *text, int kind);

/* ---- the forecast along the route ---- */

/* The variables the plan reads, by index. */
enum {
    SWX_PV_U10 = 0, /* eastward wind, m/s */
    SWX_PV_V10,     /* northward wind, m/s */
    SWX_PV_GUST,    /* gust, m/s */
    SWX_PV_PMSL,    /* pressure at mean sea level, Pa */
    SWX_PV_PRECIP,  /* precipitation since the previous valid time, mm */
    SWX_PV_SWH,     /* significant wave height, m */
    SWX_PV_MWD,     /* mean wave direction (from), degrees */
    SWX_PV_N
};

typedef struct swx_plan_forecast swx_plan_forecast;
SWX_API void swx_plan_forecast_free(swx_plan_forecast *f);

#define SWX_PLAN_DEFAULT_SPACING_NM 15
#define SWX_PLAN_MAX_SAMPLES 2000 /* sample points of one route */

struct swx_plan_opts;

/* How the forecast is fetched (zero: the defaults). */
typedef struct swx_plan_fetch_opts {
    int max_in_flight;             /* requests at once; 0: 4 */
    volatile sig_atomic_t *cancel; /* non-zero stops the fetch (SWX_ECANCEL) */
    /* called after each answer with the points fetched and their number;
     * may be NULL */
    void (*progress)(void *ud, size_t done, size_t total);
    void *ud;
} swx_plan_fetch_opts;

/* The forecast along v's route (its speed and times are not read) for the
 * departures of o (from, to; spacing_nm): one /forecast/point request per
 * sample point, bundles basic,maritime, SI units. The first sample point is
 * asked alone: when every departure (o->from onwards) is at or after the
 * last valid time of its answer, SWX_ENOTFOUND ("the forecast ends at ...:
 * every departure is after it") and nothing more is asked; otherwise the
 * others follow, max_in_flight at once. The valid times are those of the
 * first point's answer; another point's rows at other times are not read,
 * and its times it lacks are missing. A value null or absent in the answer
 * is missing (NaN), never 0. */
SWX_API int swx_plan_forecast_fetch(swx_plan_forecast **out, swx_client *c, const swx_voyage *v,
                                    const struct swx_plan_opts *o, const swx_plan_fetch_opts *fo);
/* The forecast along v's route read from a voyage GRIB (seawx grib; GRIB2
 * or GRIB1, bzip2 or not) at path, no request: at each sample point the
 * value of the grid node nearest to it, for every valid time of the file
 * (NaN where a field is missing at a time, or the node's value is). The
 * file's total precipitation is not read (it is accumulated since the run's
 * start, not since the previous time). SWX_EINVAL for a file without 10 m
 * wind; SWX_EIO or SWX_EPARSE for one that cannot be read. */
SWX_API int swx_plan_forecast_from_grib(swx_plan_forecast **out, const char *path,
                                        const swx_voyage *v, double spacing_nm);
/* The sample points of a route every spacing_nm (0: the default) nautical
 * miles: their number (SWX_EINVAL past SWX_PLAN_MAX_SAMPLES, or a spacing
 * outside 0.5..1000 nm). */
SWX_API int swx_plan_sample_count(size_t *n, const swx_voyage *v, double spacing_nm);
/* 0 when some departure of o (from o->from) is before the forecast's last
 * valid time; SWX_ENOTFOUND with the line "the forecast ends at ...: every
 * departure (from ...) is at or after it" otherwise. */
SWX_API int swx_plan_forecast_covers(const swx_plan_forecast *f, const struct swx_plan_opts *o);
/* The forecast's sample points and valid times. */
SWX_API size_t swx_plan_forecast_samples(const swx_plan_forecast *f);
SWX_API size_t swx_plan_forecast_times(const swx_plan_forecast *f);
SWX_API int64_t swx_plan_forecast_time(const swx_plan_forecast *f, size_t k);
/* Variable var (SWX_PV_*) at sample point j and valid time k; NaN: missing. */
SWX_API double swx_plan_forecast_value(const swx_plan_forecast *f, size_t j, size_t k, int var);

/* ---- the plan ---- */

typedef struct swx_plan_opts {
    int64_t from, to, step; /* departures */
    double min_kn, max_kn;  /* speed band; with a polar: the motoring speed is min_kn */
    const swx_polar *polar; /* NULL: the speed band */
    double spacing_nm;      /* sample spacing; 0: the default (15 nm, a 0.25 degree grid) */
    /* thresholds, 0: not given */
    double max_wind_kn, max_gust_kn, max_wave_m, max_upwind_h;
    double upwind_angle_deg; /* 0: 50 */
} swx_plan_opts;

enum { SWX_PLAN_GO = 0, SWX_PLAN_MARGINAL, SWX_PLAN_NOGO };
/* The reason of a departure marginal for no other cause than being judged on
 * the part of the voyage the forecast covers. */
#define SWX_PLAN_REASON_PARTIAL "the forecast does not cover the whole voyage"
/* "go", "marginal", "no-go". */
SWX_API const char *swx_plan_verdict_name(int verdict);

/* The rules a verdict is decided by, in the order they are tried. */
enum {
    SWX_PLAN_RULE_NONE = 0,
    SWX_PLAN_RULE_STORM,    /* inside a storm's 34 kt winds or danger area; passing near */
    SWX_PLAN_RULE_WIND,     /* wind above, or near, --max-wind */
    SWX_PLAN_RULE_GUST,     /* gusts above, or near, --max-gust */
    SWX_PLAN_RULE_WAVE,     /* waves above, or near, --max-wave */
    SWX_PLAN_RULE_UPWIND,   /* hours upwind above, or near, --max-upwind */
    SWX_PLAN_RULE_BECALMED, /* a polar track that makes no way to the forecast's end */
    SWX_PLAN_RULE_PARTIAL,  /* the forecast ends before the voyage does */
};

typedef struct swx_plan_departure {
    int64_t depart;
    double arrive_early, arrive_late; /* seconds since 1970 */
    int partial;                      /* the voyage reaches past the forecast's last time */
    /* a polar track without motoring speed that made no way from this many
     * nm along the route to the forecast's end (its reason says so); NaN
     * otherwise */
    double becalmed_nm;
    double max_wind_kn, max_gust_kn, max_wave_m;
    double hours_wind, hours_gust, hours_wave, hours_upwind;
    /* the storm that comes nearest (storm_title NULL: none meets the voyage) */
    const char *storm_id, *storm_title;
    double storm_cpa_nm;
    double storm_danger_h, storm_r34_h;
    int verdict;
    const char *reason; /* the first rule that decided the verdict, or NULL for go */
    int rule;           /* that rule: SWX_PLAN_RULE_*; SWX_PLAN_RULE_NONE for go */
} swx_plan_departure;

typedef struct swx_plan swx_plan;
/* The plan of departures o->from, o->from + o->step, ... up to o->to along
 * v's route (a route without waypoint times; its speed is set in turn for
 * each departure, for the storm risk) in the forecast f, against the storms
 * given (n of them, borrowed; NULL and 0: none; d NULL: the default danger
 * settings). SWX_EINVAL for options outside plan.h's rules (no speed band
 * and no polar, a band outside 0 < min <= max <= 100, a route with times). */
struct swx_storm;
struct swx_storm_danger;
SWX_API int swx_plan_compute(swx_plan **out, swx_voyage *v, const swx_plan_forecast *f,
                             const struct swx_storm *const *storms, size_t nstorms,
                             const struct swx_storm_danger *d, const swx_plan_opts *o);
SWX_API void swx_plan_free(swx_plan *p);
/* The departures planned: those of o before the forecast's last valid time
 * (a departure at or after it has no forecast at all). The later ones are
 * left out and counted (swx_plan_left_out); when every one is,
 * swx_plan_compute fails with SWX_ENOTFOUND as swx_plan_forecast_fetch does. */
SWX_API size_t swx_plan_count(const swx_plan *p);
SWX_API size_t swx_plan_left_out(const swx_plan *p);
SWX_API const swx_plan_departure *swx_plan_row(const swx_plan *p, size_t i);
/* The order of the best departures (`seawx plan --best`, the chart's mark):
 * go, then marginal, judged over the whole voyage; then go and marginal
 * judged on the part the forecast covers; no-go last; within each, the
 * lighter strongest wind, then the earlier. Negative when x comes first. */
SWX_API int swx_plan_better(const swx_plan_departure *x, const swx_plan_departure *y);
/* 1 + the index of the best departure (the first in that order), or 0 when
 * every departure is no-go. */
SWX_API size_t swx_plan_best(const swx_plan *p);
/* The chart's grid: departure i by sample point j (distance along the route in
 * nm: swx_plan_sample_nm), the true wind (knots) and the significant wave
 * height (m) the ship meets there (for a band: the worst over the times it
 * can be there); NaN where there is no forecast. */
SWX_API size_t swx_plan_samples(const swx_plan *p);
SWX_API double swx_plan_sample_nm(const swx_plan *p, size_t j);
/* Sample point j's position, and the course there (degrees true: the initial
 * great-circle bearing to the next sample point; the last point's is that
 * from the one before it), the course upwind hours are measured against. */
SWX_API void swx_plan_sample_point(const swx_plan *p, size_t j, double *lon, double *lat,
                                   double *course_deg);
/* The forecast's last valid time (seconds since 1970), INT64_MIN: none. */
SWX_API int64_t swx_plan_forecast_end(const swx_plan *p);
SWX_API double swx_plan_cell_wind_kn(const swx_plan *p, size_t i, size_t j);
SWX_API double swx_plan_cell_wave_m(const swx_plan *p, size_t i, size_t j);
/* 1 when departure i's ship is inside a storm's danger area or 34 kt radius
 * at sample point j. */
SWX_API int swx_plan_cell_storm(const swx_plan *p, size_t i, size_t j);

/* ---- the plan as files ---- */

/* A departure sailed on its own fastest route (`seawx plan --routed`: the
 * route search of seawx/route.h through the plan's waypoints, keeping the
 * plan's wind, gust and wave limits, off land and out of the storms). */
typedef struct swx_plan_routed {
    int found;                                   /* 0: no route (reason says why) */
    int64_t arrive;                              /* seconds since 1970 */
    double hours, distance_nm;                   /* at sea, over ground */
    double max_wind_kn, max_gust_kn, max_wave_m; /* met on the route; NAN: not known */
    char reason[256];                            /* no route: one line; "" otherwise */
} swx_plan_routed;

/* What a plan's JSON says of how it was made besides its figures. */
typedef struct swx_plan_info {
    const swx_plan_opts *o;
    const char *polar; /* the polar's file, or NULL */
    const char *grib;  /* the voyage GRIB read (no request), or NULL: point forecasts */
    int storms;        /* 1: the storms were fetched */
    size_t storms_checked;
    int64_t forecast_first, forecast_last;
    size_t forecast_times;
    /* NULL; or one per departure (by its index, as swx_plan_row): each
     * departure's own route, written beside the fixed route's figures */
    const swx_plan_routed *routed;
} swx_plan_info;
/* The plan as JSON (options, forecast, route and its sample points, every
 * departure with its figures and its column of the chart) and as CSV (one
 * departure a row), the departures in the order of order (indexes of
 * swx_plan_row, swx_plan_count of them); with routed figures (NULL: none),
 * each departure's "routed" object and the CSV's routed_ columns. SWX_EIO
 * when f fails. */
SWX_API int swx_plan_write_json(FILE *f, const swx_plan *p, const size_t *order,
                                const swx_plan_info *in);
SWX_API int swx_plan_write_csv(FILE *f, const swx_plan *p, const size_t *order,
                               const swx_plan_routed *routed);

/* ---- the chart ---- */

/* A PNG chart of the plan (cairo): departures along the x axis, distance
 * along the route on the y axis, cells coloured by wind (what 'w') or waves
 * ('h') with a legend of the colour scale and its unit, storm cells
 * hatched, and a row of verdicts (go green #2e9e44, marginal amber #f0a400,
 * no-go red #d7301f) under the grid. Written atomically to path. width and
 * height: 320 to 8000 pixels; SWX_EINVAL outside, for what not 'w' or 'h', or
 * for a plan without departures or points. */
SWX_API int swx_plan_chart_png(const swx_plan *p, const char *path, int what, int width,
                               int height);

#ifdef __cplusplus
}
#endif
#endif

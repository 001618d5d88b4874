/*
 * seawx/risk.h: a voyage's risk from a storm: how near the ship comes to the
 * storm's centre, and when it is inside the storm's 1-2-3 danger area and
 * inside its 34, 50 and 64 kt wind radii.
 *
 * Ship and storm are compared at the same moments, every SWX_RISK_STEP_S
 * seconds over the time both exist: from the later of departure and the
 * storm's first fix to the earlier of the latest arrival and its last fix
 * (seawx/storm_danger.h gives the storm's timeline and state). With a speed
 * band the ship is taken at both ends of it (always at the lowest speed, and
 * always at the highest): the closest approach is the nearer of the two, and
 * an interval runs from the first moment either ship is inside to the last.
 * Inside the danger area: within its radius of the forecast centre at that
 * moment (the area is a forecast product: it starts at the last observed
 * position). Inside a wind threshold: within the radius of the quadrant
 * (ne, se, sw, nw by the bearing from the centre) the ship is in.
 */
#ifndef SEAWX_RISK_H
#define SEAWX_RISK_H

#include "seawx/storm.h"
#include "seawx/storm_danger.h"
#include "seawx/visibility.h"
#include "seawx/voyage.h"

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_RISK_STEP_S 60

/* The measures of risk, in increasing order of severity. */
enum { SWX_RISK_DANGER = 0, SWX_RISK_R34, SWX_RISK_R50, SWX_RISK_R64, SWX_RISK_NMEASURES };
/* "danger_area", "34kt", "50kt", "64kt". */
SWX_API const char *swx_risk_measure_name(int measure);

/* When the ship is inside one measure. */
typedef struct swx_risk_span {
    int inside;          /* 0: never */
    int64_t first, last; /* the first and last moment inside */
    double s_from, s_to; /* metres along the route: the stretch sailed while inside */
} swx_risk_span;

typedef struct swx_storm_risk {
    int overlap;      /* 0: the storm's timeline and the voyage never meet in time */
    int64_t from, to; /* the moments compared */
    double cpa_nm;    /* closest approach, nautical miles */
    int64_t cpa_time; /* when */
    int cpa_fast;     /* 1: of the ship at the highest speed of the band */
    double cpa_ship_lon, cpa_ship_lat, cpa_storm_lon, cpa_storm_lat;
    swx_risk_span span[SWX_RISK_NMEASURES];
    int worst; /* the most severe measure the ship is inside, -1 for none */
} swx_storm_risk;

/* The risk of one storm for a voyage that has its times or its speed; d NULL:
 * the default cone and danger settings. */
SWX_API int swx_risk_of_storm(swx_storm_risk *out, const swx_voyage *v, const swx_storm *s,
                              const swx_storm_danger *d);

/* The report of a voyage against a selection of storms, as `seawx storms
 * --route` prints it and a voyage package keeps it: the storms are added one
 * by one as they arrive (an swx_storm_fn); those the voyage never meets in
 * time are counted, not kept (at most SWX_RISK_MAX_STORMS are kept). v and d
 * are borrowed (d NULL: the defaults). */
#define SWX_RISK_MAX_STORMS 100000
typedef struct swx_risk_report swx_risk_report;
SWX_API int swx_risk_report_new(swx_risk_report **out, const swx_voyage *v,
                                const swx_storm_danger *d);
SWX_API void swx_risk_report_free(swx_risk_report *r);
/* An swx_storm_fn (ud: the report). */
SWX_API int swx_risk_report_add(void *r, const swx_storm *s);
/* Storms looked at, and those kept (they meet the voyage in time). */
SWX_API size_t swx_risk_report_checked(const swx_risk_report *r);
SWX_API size_t swx_risk_report_count(const swx_risk_report *r);
/* Kept storm i: its risk, ATCF id and title (its name, or its id unnamed). */
SWX_API const swx_storm_risk *swx_risk_report_row(const swx_risk_report *r, size_t i,
                                                  const char **atcf_id, const char **title);
/* The most severe measure any storm reaches (-1: none) and the first storm
 * that reaches it (*row, may be NULL). */
SWX_API int swx_risk_report_worst(const swx_risk_report *r, size_t *row);
/* The report as JSON: {"voyage": {length_nm, depart, arrive_by},
 * "storms_checked", "storms": [{atcf_id, title, compared_from, compared_to,
 * closest_approach: {nm, time, speed, ship, storm}, danger_area, 34kt, 50kt,
 * 64kt: null or {first, last, route_from_nm, route_to_nm}, worst}]}, no
 * newline after it. */
SWX_API int swx_risk_report_json(FILE *f, const swx_risk_report *r);
/* The stretches of route sailed inside each measure, as an RFC 7946
 * FeatureCollection of MultiLineStrings (points every 5 nm, cut at 180). */
SWX_API int swx_risk_report_segments(FILE *f, const swx_risk_report *r);

#ifdef __cplusplus
}
#endif
#endif

/*
 * seawx/storm_danger.h: where not to be: the track forecast cone, the
 * mariners' 1-2-3 danger area, the wind swaths, and a storm's state at any
 * moment (the route risk of seawx/risk.h reads it).
 *
 * A storm's timeline is its observed positions (time) followed by its
 * forecast positions (forecast_time) that lie after the last observed one.
 * Between two fixes the centre moves along the great circle at a constant
 * rate and every radius changes linearly with time.
 *
 * Lead times: the forecast starts at the last observed position (lead 0); a
 * forecast position's lead is its forecast_hour, or its forecast_time less
 * the last observed time when the hour is null.
 *
 * Cone radii (nm) are tabled at SWX_CONE_NLEADS lead times (12, 24, 36, 48,
 * 60, 72, 96 and 120 h) by basin and season; 0 nm at lead 0, linear between
 * tabled leads, the 120 h value beyond. The defaults are the National
 * Hurricane Center's 2023 radii: NA (Atlantic) 26 39 53 67 81 99 145 205 and
 * EP (eastern Pacific, and its central Pacific sub-basin) 25 38 51 63 78 86
 * 110 137. The other basins (WP, NI, SI, SP, SA) have no published radii of
 * this kind: they take the Atlantic values, the larger of the two at every
 * lead but 12 h and 24 h, where they differ by 1 nm. A season uses the table
 * of the newest season at or before it (the oldest table before that).
 *
 * The 1-2-3 danger area: at lead h the forecast position widened by the
 * long-term track error E(h) (100, 200, 300 nm at 24, 48, 72 h by default;
 * 0 at lead 0, linear between, extended beyond 72 h with the last slope) plus
 * the largest 34-kt radius at that moment (0 where the forecast gives none).
 */
#ifndef SEAWX_STORM_DANGER_H
#define SEAWX_STORM_DANGER_H

#include "seawx/storm.h"
#include "seawx/visibility.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { SWX_CONE_NLEADS = 8, SWX_DANGER_NLEADS = 3 };
/* Largest radius or track error accepted, nm (half the Earth's circumference
 * is about 10,800 nm; anything near it is a mistake). */
#define SWX_DANGER_MAX_NM 3000.0
/* Longest --cone-radii text read. */
#define SWX_CONE_RADII_MAX_TEXT 4096

/* The settings of the danger products: cone table and track errors. */
typedef struct swx_storm_danger swx_storm_danger;

/* The defaults described above. */
SWX_API int swx_storm_danger_new(swx_storm_danger **out);
SWX_API void swx_storm_danger_free(swx_storm_danger *d);

/* The tabled lead times of the cone, hours (SWX_CONE_NLEADS values). */
SWX_API const int *swx_cone_leads(void);

/* Replaces cone radii from text: entries separated by ';', each
 * "BASIN[/SEASON]:R12,R24,R36,R48,R60,R72,R96,R120" (nm, decimals allowed,
 * not shrinking with lead time), BASIN one of NA SA EP WP NI SI SP or '*'.
 * A basin named in the text gets exactly its entries as tables (an entry
 * without a season serves every season); the basins not named get the '*'
 * entries when there are some and keep their tables otherwise. SWX_EINVAL
 * with one line starting "cone-radii" naming the first problem (an unknown
 * basin, a wrong number of values, a negative or too large radius); d is
 * unchanged then. */
SWX_API int swx_storm_danger_set_cone(swx_storm_danger *d, const char *text);
/* Replaces the 1-2-3 track errors: "E24,E48,E72" (nm, 0 <= E24 <= E48 <= E72). */
SWX_API int swx_storm_danger_set_errors(swx_storm_danger *d, const char *text);

/* The cone radius (nm) of a basin code ("NA", "EP"...; sub-basin "CP" is
 * the eastern Pacific's; anything else the default) in a season at a lead. */
SWX_API double swx_storm_cone_radius(const swx_storm_danger *d, const char *basin, int64_t season,
                                     double lead_h);
/* The 1-2-3 track error (nm) at a lead. */
SWX_API double swx_storm_danger_error(const swx_storm_danger *d, double lead_h);

struct swx_jsonw;
/* The settings d (NULL: the defaults) as a JSON object into w:
 * {"cone_radii_nm": {"NA": [{"season": 2023, "radii": [26, ...]}], ...},
 *  "danger_errors_nm": [100, 200, 300]} (basins in the order NA SA EP WP NI SI
 * SP, tables by season; radii at the leads of swx_cone_leads()). */
SWX_API void swx_storm_danger_json(struct swx_jsonw *w, const swx_storm_danger *d);

/* A storm at one moment. */
typedef struct swx_storm_state {
    double lon, lat;   /* the centre; lon in [-180, 180) */
    double r[3][4];    /* wind radii (nm) by threshold and quadrant (ne, se, sw, nw); 0: none */
    int forecast;      /* 1 when the moment is after the last observed position */
    double lead_h;     /* hours after the last observed position (< 0 before it) */
    double cone_nm;    /* cone radius; 0 before the forecast */
    double danger_nm;  /* 1-2-3 danger radius; 0 before the forecast */
    double max_r34_nm; /* largest 34-kt radius */
} swx_storm_state;

/* The state at t (seconds since 1970). Returns 1 when t lies within the
 * storm's timeline, 0 when it does not (or the storm has no timed position). */
SWX_API int swx_storm_state_at(swx_storm_state *out, const swx_storm_danger *d, const swx_storm *s,
                               int64_t t);
/* The first and last moment of the timeline; 0 when it has none. */
SWX_API int swx_storm_span(int64_t *first, int64_t *last, const swx_storm *s);

#ifdef __cplusplus
}
#endif
#endif

/*
 * storm_timeline.h: a storm's timeline and its state between two fixes, for
 * the floors above storms (the route risk, sail/risk.c, and the departure
 * plan, sail/plan.c, walk the fixes once for many moments): the storms
 * floor's interface to them, not installed API (seawx/storm_danger.h gives
 * the rules, and swx_storm_state_at for one moment).
 */
#ifndef SWX_STORM_TIMELINE_H
#define SWX_STORM_TIMELINE_H

#include "seawx/storm_danger.h"

#include <stddef.h>
#include <stdint.h>

/* One fix of a storm's timeline (see seawx/storm_danger.h). */
struct swx_fix {
    int64_t t;
    double lon, lat;
    int forecast;
    double lead_h;  /* hours after the last observed fix; NaN when there is none */
    double r[3][4]; /* radii by threshold and quadrant, 0 for none */
    const swx_storm_pos *pos;
};

/* The timeline (malloc'd, *out NULL when empty). */
int swx_storm_timeline(struct swx_fix **out, size_t *n, const swx_storm *s);
/* The state a fraction w of the way from fix a to fix b. */
void swx_storm_state_fill(swx_storm_state *out, const swx_storm_danger *d, const swx_storm *s,
                          const struct swx_fix *a, const struct swx_fix *b, double w);
/* The settings with nothing changed (shared, read-only). */
const swx_storm_danger *swx_storm_danger_default(void);

#endif

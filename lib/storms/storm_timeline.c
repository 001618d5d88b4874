/* storm_timeline.c: a storm's timeline (its observed, then forecast fixes in
 * time order, with their leads and radii) and its state at a moment, along
 * the great circle between two fixes (see storm_timeline.h and
 * seawx/storm_danger.h for the rules). */
#include "storm_timeline.h"

#include "seawx/error.h"
#include "storm_danger_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEG (M_PI / 180.0)

/* A radius of the data in nm: 0 when null, at most SWX_DANGER_MAX_NM. */
static double radius_of(const swx_storm_pos *p, int t, int q)
{
    const swx_storm_radii *r = &p->radii[t];
    if (!(r->present && isfinite(r->r[q]) && r->r[q] > 0))
        return 0;
    return r->r[q] < SWX_DANGER_MAX_NM ? r->r[q] : SWX_DANGER_MAX_NM;
}

/* The storm's basin for the cone table: the sub-basin CP first, then the
 * summary's basin, then the ATCF letters. */
const char *swx_storm_cone_basin(const swx_storm *s)
{
    if (s->subbasin && strcasecmp(s->subbasin, "CP") == 0)
        return "CP";
    if (s->basin)
        return s->basin;
    if (strcmp(s->atcf_basin, "AL") == 0)
        return "NA";
    if (strcmp(s->atcf_basin, "EP") == 0 || strcmp(s->atcf_basin, "CP") == 0)
        return "EP";
    return NULL;
}

int64_t swx_storm_season(const swx_storm *s)
{
    if (s->season != SWX_STORM_NULL)
        return s->season;
    return s->atcf_year ? s->atcf_year : 2023;
}

int swx_storm_timeline(struct swx_fix **out, size_t *n, const swx_storm *s)
{
    size_t cap = s->nobserved + s->nforecast, k = 0;
    struct swx_fix *f = cap ? malloc(cap * sizeof *f) : NULL;
    *out = NULL;
    *n = 0;
    if (cap && !f)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    int64_t last_obs = SWX_STORM_NULL;
    for (size_t i = 0; i < s->nobserved; i++) {
        const swx_storm_pos *p = &s->observed[i];
        if (p->time == SWX_STORM_NULL || (k && p->time <= f[k - 1].t))
            continue;
        f[k] = (struct swx_fix){
            .t = p->time, .lon = p->lon, .lat = p->lat, .forecast = 0, .lead_h = NAN, .pos = p};
        k++;
        last_obs = p->time;
    }
    for (size_t i = 0; i < s->nforecast; i++) {
        const swx_storm_pos *p = &s->forecast[i];
        if (p->forecast_time == SWX_STORM_NULL || (k && p->forecast_time <= f[k - 1].t))
            continue;
        double lead = p->forecast_hour != SWX_STORM_NULL ? (double)p->forecast_hour
                      : last_obs != SWX_STORM_NULL       ? (p->forecast_time - last_obs) / 3600.0
                                                         : 0;
        f[k] = (struct swx_fix){.t = p->forecast_time,
                                .lon = p->lon,
                                .lat = p->lat,
                                .forecast = 1,
                                .lead_h = lead,
                                .pos = p};
        k++;
    }
    /* Observed fixes: lead relative to the last observed one. */
    for (size_t i = 0; i < k; i++)
        if (!f[i].forecast)
            f[i].lead_h = last_obs != SWX_STORM_NULL ? (f[i].t - last_obs) / 3600.0 : NAN;
    for (size_t i = 0; i < k; i++)
        for (int t = 0; t < 3; t++)
            for (int q = 0; q < 4; q++)
                f[i].r[t][q] = radius_of(f[i].pos, t, q);
    *out = f;
    *n = k;
    return 0;
}

int swx_storm_span(int64_t *first, int64_t *last, const swx_storm *s)
{
    struct swx_fix *f;
    size_t n;
    *first = *last = SWX_STORM_NULL;
    if (swx_storm_timeline(&f, &n, s)) {
        swx_error_clear();
        return 0;
    }
    if (n) {
        *first = f[0].t;
        *last = f[n - 1].t;
    }
    free(f);
    return n > 0;
}

/* Unit vector of a position, and back. */
void swx_storm_to_vec(double v[3], double lon, double lat)
{
    double cl = cos(lat * DEG);
    v[0] = cl * cos(lon * DEG);
    v[1] = cl * sin(lon * DEG);
    v[2] = sin(lat * DEG);
}

void swx_storm_from_vec(double *lon, double *lat, const double v[3])
{
    double h = hypot(v[0], v[1]);
    *lat = atan2(v[2], h) / DEG;
    *lon = h > 0 ? atan2(v[1], v[0]) / DEG : 0;
}

/* The point a fraction f of the way along the great circle from a to b. */
void swx_storm_gc_interp(double *lon, double *lat, double lon1, double lat1, double lon2,
                         double lat2, double f)
{
    double a[3], b[3], v[3];
    swx_storm_to_vec(a, lon1, lat1);
    swx_storm_to_vec(b, lon2, lat2);
    double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    if (dot > 1)
        dot = 1;
    if (dot < -1)
        dot = -1;
    double w = acos(dot), sw = sin(w);
    if (sw < 1e-12) {
        *lon = lon1;
        *lat = lat1;
        return;
    }
    double ka = sin((1 - f) * w) / sw, kb = sin(f * w) / sw;
    for (int i = 0; i < 3; i++)
        v[i] = ka * a[i] + kb * b[i];
    swx_storm_from_vec(lon, lat, v);
}

int swx_storm_state_at(swx_storm_state *out, const swx_storm_danger *d, const swx_storm *s,
                       int64_t t)
{
    struct swx_fix *f;
    size_t n;
    memset(out, 0, sizeof *out);
    if (!d)
        d = swx_storm_danger_default();
    if (swx_storm_timeline(&f, &n, s))
        return SWX_ENOMEM;
    int found = 0;
    if (n && t >= f[0].t && t <= f[n - 1].t) {
        size_t i = 0;
        while (i + 1 < n && f[i + 1].t < t)
            i++;
        const struct swx_fix *a = &f[i], *b = i + 1 < n ? &f[i + 1] : &f[i];
        double w = b->t > a->t ? (double)(t - a->t) / (double)(b->t - a->t) : 0;
        swx_storm_state_fill(out, d, s, a, b, w);
        found = 1;
    }
    free(f);
    return found;
}

void swx_storm_state_fill(swx_storm_state *out, const swx_storm_danger *d, const swx_storm *s,
                          const struct swx_fix *a, const struct swx_fix *b, double w)
{
    swx_storm_gc_interp(&out->lon, &out->lat, a->lon, a->lat, b->lon, b->lat, w);
    if (out->lon >= 180)
        out->lon -= 360;
    out->max_r34_nm = 0;
    for (int t = 0; t < 3; t++)
        for (int q = 0; q < 4; q++) {
            out->r[t][q] = a->r[t][q] + (b->r[t][q] - a->r[t][q]) * w;
            if (t == 0 && out->r[t][q] > out->max_r34_nm)
                out->max_r34_nm = out->r[t][q];
        }
    out->lead_h = a->lead_h + (b->lead_h - a->lead_h) * w;
    out->forecast = b->forecast && (w > 0 || a->forecast);
    if (out->forecast && isfinite(out->lead_h)) {
        out->cone_nm =
            swx_storm_cone_radius(d, swx_storm_cone_basin(s), swx_storm_season(s), out->lead_h);
        out->danger_nm = swx_storm_danger_error(d, out->lead_h) + out->max_r34_nm;
    }
}

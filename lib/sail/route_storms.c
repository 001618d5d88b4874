/* route_storms.c: the storms as the route search's no-go areas
 * (seawx/route_storms.h). Each storm is tabled a minute apart over the time
 * the search may need (swx_storm_state_at of lib/storms: centre, 34 kt
 * radii by quadrant, 1-2-3 danger radius), with an hour-long bound in front:
 * the centre at the hour's start and the farthest any part of the area
 * reaches from it within the hour. */
#include "route_priv.h"
#include "seawx/error.h"
#include "seawx/route_storms.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEG (M_PI / 180.0)

typedef struct mstate { /* a storm at one minute */
    double lat, lon;
    double r34[4]; /* ne, se, sw, nw; 0: none */
    double danger; /* 1-2-3 radius; 0 before the forecast */
    double reach;  /* the larger of the two */
    int known;     /* 0: outside the storm's timeline */
} mstate;

typedef struct hbound { /* a storm over one hour */
    double lat, lon;    /* the centre at the hour's first known minute */
    double reach;       /* every part of the area within the hour lies this near it; < 0: none */
} hbound;

typedef struct rstorm {
    char *atcf_id, *title;
    int64_t m0;   /* the table's first minute (unix minutes) */
    size_t nmin;  /* minutes tabled */
    mstate *min;  /* nmin */
    hbound *hour; /* (nmin + 59) / 60 */
    int64_t last; /* the last moment of the storm's timeline */
} rstorm;

struct swx_routing_storms {
    rstorm *s;
    size_t n;
    double grow; /* margin and pad, nm */
    int64_t until;
};

static void storm_free(rstorm *r)
{
    free(r->atcf_id);
    free(r->title);
    free(r->min);
    free(r->hour);
}

void swx_routing_storms_free(swx_routing_storms *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        storm_free(&s->s[i]);
    free(s->s);
    free(s);
}

/* The table and bounds of one storm over minutes m0 .. m0 + nmin - 1. */
static int storm_table(rstorm *r, const swx_storm *st, const swx_storm_danger *d, int64_t m0,
                       size_t nmin)
{
    r->m0 = m0;
    r->nmin = nmin;
    size_t nh = (nmin + 59) / 60;
    if (!(r->min = calloc(nmin, sizeof *r->min)) || !(r->hour = calloc(nh, sizeof *r->hour)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (size_t k = 0; k < nmin; k++) {
        swx_storm_state ss;
        mstate *m = &r->min[k];
        int in = swx_storm_state_at(&ss, d, st, (m0 + (int64_t)k) * 60);
        if (in < 0)
            return in;
        if (!in)
            continue;
        m->known = 1;
        m->lat = ss.lat;
        m->lon = ss.lon;
        m->reach = ss.danger_nm;
        for (int q = 0; q < 4; q++) {
            m->r34[q] = ss.r[0][q] > 0 ? ss.r[0][q] : 0;
            m->reach = fmax(m->reach, m->r34[q]);
        }
        m->danger = ss.danger_nm;
    }
    for (size_t h = 0; h < nh; h++) {
        hbound *b = &r->hour[h];
        b->reach = -1;
        size_t end = (h + 1) * 60 < nmin ? (h + 1) * 60 + 1 : nmin; /* the next hour's first too */
        for (size_t k = h * 60; k < end; k++) {
            const mstate *m = &r->min[k];
            if (!m->known)
                continue;
            if (b->reach < 0) {
                b->lat = m->lat;
                b->lon = m->lon;
                b->reach = 0;
            }
            b->reach = fmax(b->reach, swx__route_dist(b->lat, b->lon, m->lat, m->lon) + m->reach);
        }
    }
    return 0;
}

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

int swx_routing_storms_new(swx_routing_storms **out, const swx_storm *const *storms, size_t n,
                           const swx_storm_danger *d, int64_t t0, int64_t t1, double margin_nm)
{
    *out = NULL;
    if (t1 < t0 || t1 - t0 > (int64_t)SWX_ROUTING_STORM_MAX_H * 3600)
        return swx_error_set(SWX_EINVAL, "the storms are tabled for at most %d h",
                             SWX_ROUTING_STORM_MAX_H);
    if (!(margin_nm >= 0))
        return swx_error_set(SWX_EINVAL, "a storm margin is 0 nm or more");
    swx_routing_storms *s = calloc(1, sizeof *s);
    if (!s || (n && !(s->s = calloc(n, sizeof *s->s)))) {
        free(s);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    s->grow = margin_nm + SWX_ROUTING_STORM_PAD_NM;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        int64_t first, last;
        if (!swx_storm_span(&first, &last, storms[i]) || last < t0 || first > t1)
            continue;
        int64_t a = (first > t0 ? first : t0) / 60, b = ((last < t1 ? last : t1) + 59) / 60;
        rstorm *r = &s->s[s->n++];
        const char *name = storms[i]->storm_name;
        r->last = last;
        if (!(r->atcf_id = dup_or_empty(storms[i]->atcf_id)) ||
            !(r->title = dup_or_empty(name && *name ? name : storms[i]->atcf_id)))
            rc = swx_error_set(SWX_ENOMEM, "out of memory");
        else
            rc = storm_table(r, storms[i], d, a, (size_t)(b - a + 1));
        if (last > s->until)
            s->until = last;
    }
    if (rc) {
        swx_routing_storms_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

size_t swx_routing_storms_count(const swx_routing_storms *s)
{
    return s ? s->n : 0;
}

int64_t swx_routing_storms_until(const swx_routing_storms *s)
{
    return s ? s->until : 0;
}

/* How far outside the storm's area at minute m a place is (< 0: inside;
 * the centre itself is always inside, by the pad), its distance from the
 * centre, and whether inside the 34 kt radii. */
static double clearance(const mstate *m, double grow, double lat, double lon, double *centre,
                        int *in34)
{
    double d = swx__route_dist(m->lat, m->lon, lat, lon);
    int q = 0;
    if (d > 0) {
        q = (int)(fmod(swx__route_bearing(m->lat, m->lon, lat, lon) + 360.0, 360.0) / 90.0);
        q = q > 3 ? 3 : q;
    }
    double r34 = d > 0 ? m->r34[q] : fmax(fmax(m->r34[0], m->r34[1]), fmax(m->r34[2], m->r34[3]));
    *in34 = r34 > 0 && d <= r34 + grow;
    *centre = d;
    return d - (fmax(m->danger, r34) + grow);
}

/* The place a fraction f of the way from 0 to 1 along the great circle. */
static void along(double *lat, double *lon, double lat0, double lon0, double lat1, double lon1,
                  double dist, double brg, double f)
{
    if (f <= 0 || dist <= 0) {
        *lat = lat0;
        *lon = lon0;
        return;
    }
    if (f >= 1) {
        *lat = lat1;
        *lon = lon1;
        return;
    }
    *lat = lat0;
    *lon = lon0;
    swx__route_move(lat, lon, brg, dist * f);
}

/* The minute's state of r at t (seconds): the nearest minute tabled. */
static const mstate *state_at(const rstorm *r, double t)
{
    int64_t m = (int64_t)floor(t / 60.0 + 0.5) - r->m0;
    if (m < 0 || (size_t)m >= r->nmin)
        return NULL;
    return r->min[m].known ? &r->min[m] : NULL;
}

/* The least clearance of the leg against storm r (INFINITY when they never
 * meet), with the moment and place it is met. With stop_inside, returns at
 * the first moment inside; with bounded, hours the bounds clear are not
 * looked at (and their clearance not measured). */
static double leg_clearance(const rstorm *r, double grow, double lat0, double lon0, double t0,
                            double lat1, double lon1, double t1, int stop_inside, int bounded,
                            swx_routing_storm_near *at)
{
    double best = INFINITY;
    double len = swx__route_dist(lat0, lon0, lat1, lon1);
    double brg = len > 0 ? swx__route_bearing(lat0, lon0, lat1, lon1) : 0;
    double span = t1 - t0;
    double speed = span > 0 ? len / (span / 3600.0) : 0; /* kn */
    double ta = fmax(t0, (double)r->m0 * 60);
    double tb = fmin(t1, (double)(r->m0 + (int64_t)r->nmin - 1) * 60);
    if (tb < ta)
        return best;
    /* hour k of the table: its minutes 60 k to 60 k + 60 */
    double base = (double)r->m0 * 60;
    size_t nh = (r->nmin + 59) / 60;
    size_t k0 = (size_t)floor((ta - base) / 3600.0), k1 = (size_t)floor((tb - base) / 3600.0);
    for (size_t k = k0; k <= k1 && k < nh; k++) {
        double wa = fmax(ta, base + 3600.0 * (double)k),
               wb = fmin(tb, base + 3600.0 * (double)(k + 1));
        double lat, lon;
        if (bounded) {
            const hbound *b = &r->hour[k];
            along(&lat, &lon, lat0, lon0, lat1, lon1, len, brg, span > 0 ? (wa - t0) / span : 0);
            double moved = speed * (wb - wa) / 3600.0;
            if (b->reach < 0 || swx__route_dist(b->lat, b->lon, lat, lon) - moved > b->reach + grow)
                continue;
        }
        /* every whole minute of the window, and its ends */
        double first = ceil(wa / 60.0) * 60, last = floor(wb / 60.0) * 60;
        for (double t = wa;;) {
            const mstate *m = state_at(r, t);
            if (m) {
                double c, centre;
                int in34;
                along(&lat, &lon, lat0, lon0, lat1, lon1, len, brg, span > 0 ? (t - t0) / span : 0);
                c = clearance(m, grow, lat, lon, &centre, &in34);
                if (c < best) {
                    best = c;
                    if (at) {
                        at->clear_nm = c;
                        at->centre_nm = centre;
                        at->time = (int64_t)llround(t);
                        at->lat = lat;
                        at->lon = lon;
                        at->inside_r34 = in34;
                    }
                    if (c < 0 && stop_inside)
                        return best;
                }
            }
            if (t >= wb)
                break;
            t = t < first ? first : t + 60;
            if (t > last)
                t = wb;
        }
    }
    return best;
}

int swx_routing_storms_leg(void *ctx, double lat0, double lon0, int64_t t0, double lat1,
                           double lon1, int64_t t1)
{
    const swx_routing_storms *s = ctx;
    for (size_t i = 0; i < s->n; i++)
        if (leg_clearance(&s->s[i], s->grow, lat0, lon0, (double)t0, lat1, lon1, (double)t1, 1, 1,
                          NULL) < 0)
            return SWX_ROUTING_STORM;
    return 0;
}

int swx_routing_storms_at(const swx_routing_storms *s, double lat, double lon, int64_t t,
                          swx_routing_storm_near *out)
{
    int found = 0;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; s && i < s->n; i++) {
        const mstate *m = state_at(&s->s[i], (double)t);
        if (!m)
            continue;
        double centre;
        int in34;
        double c = clearance(m, s->grow, lat, lon, &centre, &in34);
        if (!found || c < out->clear_nm) {
            found = 1;
            *out = (swx_routing_storm_near){
                s->s[i].atcf_id, s->s[i].title, centre, c, t, lat, lon, in34};
        }
    }
    out->clear_nm += found ? s->grow : 0; /* from the area itself */
    return found;
}

int swx_routing_storms_nearest(const swx_routing_storms *s, const swx_routing *r,
                               swx_routing_storm_near *out)
{
    int found = 0;
    memset(out, 0, sizeof *out);
    size_t n = swx_routing_npoints(r);
    const swx_routing_point *p = swx_routing_points(r);
    for (size_t i = 0; s && i < s->n; i++)
        for (size_t k = 0; k + 1 < n; k++) {
            swx_routing_storm_near at;
            double c = leg_clearance(&s->s[i], s->grow, p[k].lat, p[k].lon, (double)p[k].time,
                                     p[k + 1].lat, p[k + 1].lon, (double)p[k + 1].time, 0, 0, &at);
            if (isfinite(c) && (!found || c < out->clear_nm)) {
                found = 1;
                *out = at;
                out->atcf_id = s->s[i].atcf_id;
                out->title = s->s[i].title;
            }
        }
    out->clear_nm += found ? s->grow : 0; /* from the area itself */
    return found;
}

int swx_routing_storms_shape(const swx_routing_storms *s, const char *atcf_id, int64_t t,
                             swx_routing_storm_shape *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; s && atcf_id && i < s->n; i++) {
        if (strcmp(s->s[i].atcf_id, atcf_id) != 0)
            continue;
        const mstate *m = state_at(&s->s[i], (double)t);
        if (!m)
            return 0;
        out->lat = m->lat;
        out->lon = m->lon;
        memcpy(out->r34_nm, m->r34, sizeof out->r34_nm);
        out->danger_nm = m->danger;
        out->margin_nm = s->grow;
        return 1;
    }
    return 0;
}

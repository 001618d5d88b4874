/* route.c: the time-optimal route search (see seawx/route.h): isochrones
 * with sector pruning, legs integrated by Heun's method, the last leg to
 * the end solved in time.
 *
 * One step: every point of the isochrone is expanded on its fan of
 * headings, by the caller's thread and opts->threads - 1 others, each point
 * into its own slots of the candidates (so what a thread does never depends
 * on another); then one pass over the candidates in index order keeps, per
 * sector (a cross-track band along the great circle from the start to the
 * end), the one nearest the end, when nearer than any earlier isochrone
 * reached there. Nearness to the end, not distance from the start: a point
 * that overshoots the end in a strong current must not push out the one
 * that will reach it first. */
#include "route_priv.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/sphere.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_THREADS 64
#define MAX_SECTORS 20000

/* What one step's candidates show beside the kept points. */
typedef struct step_tally {
    size_t legs, blocked, forecast_end;
    double near_blocked; /* nm to the end of the nearest point a leg was blocked from */
    int near_cause;
    double near_lat, near_lon;
    double max_sog;
} step_tally;

/* The search's state. */
typedef struct search {
    const swx_routing_opts *o;
    swx__rboat boat;
    swx_routing *r;
    double dist_se, brg_se; /* start to end */
    double key_se;          /* the pruning's distance from the start to the end */
    double sector_nm;
    int nsect, nhead; /* sectors; headings of the whole circle */
    double head_step, fan;
    double *best_ever;  /* per sector */
    int64_t *chosen;    /* per sector: a candidate index, or -1 */
    swx__rnode *cand;   /* iso_n * slots */
    swx__rnode *arrive; /* iso_n: the last leg from each point straight to the end */
    size_t cand_cap, arrive_cap, slots;
    size_t iso_from, iso_n; /* the isochrone being expanded */
    int64_t t, dt;
    int64_t base; /* the time step offshore */
    int64_t fine; /* the step the sectors are sized for */
    int first;
    /* the best arrival so far */
    double best_t;
    swx__rnode best_end;
    int64_t best_parent;
    /* a failure of a callback: the lowest point's */
    int fail_rc;
    size_t fail_at;
    char fail_msg[256];
    step_tally seen; /* the nearest block so far */
    pthread_mutex_t lock;
} search;

static int legs_clear(const swx_routing_opts *o, double lat0, double lon0, int64_t t0, double lat1,
                      double lon1, int64_t t1)
{
    for (int i = 0; i < SWX_ROUTING_MAX_LEG_FNS && o->leg[i]; i++) {
        int rc = o->leg[i](o->leg_ctx[i], lat0, lon0, t0, lat1, lon1, t1);
        if (rc)
            return rc;
    }
    return 0;
}

static void note_failure(search *s, size_t at, int rc)
{
    pthread_mutex_lock(&s->lock);
    if (!s->fail_rc || at < s->fail_at) {
        s->fail_rc = rc;
        s->fail_at = at;
        snprintf(s->fail_msg, sizeof s->fail_msg, "%s", swx_error_last());
    }
    pthread_mutex_unlock(&s->lock);
}

/* One leg from p on a heading for s->dt: Heun's method, the forecast at
 * both ends. c->cause 0 when reached. */
static int expand_one(search *s, const swx__rnode *p, const swx_routing_met *m0, double heading,
                      swx__rnode *c)
{
    double ve0, vn0, ve1, vn1, dt_h = (double)s->dt / 3600;
    swx_routing_met m1;
    int rc = swx__rboat_velocity(&s->boat, m0, heading, &ve0, &vn0, c);
    if (rc)
        return c->cause = rc, 0;
    double lat = p->lat, lon = p->lon;
    swx__route_move(&lat, &lon, atan2(ve0, vn0) * 180 / M_PI, hypot(ve0, vn0) * dt_h);
    rc = s->o->met(s->o->met_ctx, lat, lon, s->t + s->dt, &m1);
    if (rc)
        return rc < 0 ? rc : (c->cause = rc, 0);
    rc = swx__rboat_velocity(&s->boat, &m1, heading, &ve1, &vn1, NULL);
    if (rc)
        return c->cause = rc, 0;
    double ve = (ve0 + ve1) / 2, vn = (vn0 + vn1) / 2;
    c->lat = p->lat;
    c->lon = p->lon;
    swx__route_move(&c->lat, &c->lon, atan2(ve, vn) * 180 / M_PI, hypot(ve, vn) * dt_h);
    c->cog = fmod(atan2(ve, vn) * 180 / M_PI + 360, 360);
    c->sog = hypot(ve, vn);
    c->t = (double)(s->t + s->dt);
    rc = legs_clear(s->o, p->lat, p->lon, s->t, c->lat, c->lon, s->t + s->dt);
    if (rc)
        return c->cause = rc, 0;
    c->dist = swx__route_dist(s->o->from_lat, s->o->from_lon, c->lat, c->lon);
    c->to_end = swx__route_dist(c->lat, c->lon, s->o->to_lat, s->o->to_lon);
    c->key = s->o->to_end ? s->o->to_end(s->o->to_end_ctx, c->lat, c->lon) : c->to_end;
    /* the sector: the band of cross-track distance from the great circle
     * start to end; what it keeps: the point nearest the end */
    double brg = swx__route_bearing(s->o->from_lat, s->o->from_lon, c->lat, c->lon);
    double d13 = c->dist / SWX__ROUTE_R_NM, da = (brg - s->brg_se) * M_PI / 180;
    double xt = asin(sin(d13) * sin(da)) * SWX__ROUTE_R_NM;
    int q = (int)floor(xt / s->sector_nm) + s->nsect / 2;
    c->sector = q < 0 ? 0 : q >= s->nsect ? s->nsect - 1 : q;
    c->cause = 0;
    return 0;
}

/* The last leg from p (met m0 there) straight to the end, when it takes at
 * most one base step: into a (cause 0), else a->cause -1. */
static int arrive_from(search *s, const swx__rnode *p, const swx_routing_met *m0, swx__rnode *a)
{
    const swx_routing_opts *o = s->o;
    double cap_h = (double)s->base / 3600, s0, s1, h0, h1, ve, vn;
    swx_routing_met m1;
    a->cause = -1;
    if (p->to_end > (s->boat.vmax + hypot(m0->cur_u_kn, m0->cur_v_kn)) * cap_h * 1.5)
        return 0;
    double brg = swx__route_bearing(p->lat, p->lon, o->to_lat, o->to_lon);
    if (swx__rboat_along(&s->boat, m0, brg, &s0, &h0) || !(s0 > 0))
        return 0;
    double tau0 = p->to_end / s0;
    if (tau0 > cap_h * 1.5)
        return 0;
    int rc = o->met(o->met_ctx, o->to_lat, o->to_lon, s->t + (int64_t)ceil(tau0 * 3600), &m1);
    if (rc)
        return rc < 0 ? rc : 0;
    double brg1 = fmod(swx__route_bearing(o->to_lat, o->to_lon, p->lat, p->lon) + 180, 360);
    if (swx__rboat_along(&s->boat, &m1, brg1, &s1, &h1) || !(s1 > 0))
        return 0;
    double tau = p->to_end * (1 / s0 + 1 / s1) / 2;
    if (tau > cap_h)
        return 0;
    int64_t t1 = s->t + (int64_t)ceil(tau * 3600);
    if (legs_clear(o, p->lat, p->lon, s->t, o->to_lat, o->to_lon, t1))
        return 0;
    swx__rboat_velocity(&s->boat, m0, h0, &ve, &vn, a);
    a->lat = o->to_lat;
    a->lon = o->to_lon;
    a->t = (double)s->t + tau * 3600;
    a->cog = brg;
    a->sog = tau > 0 ? p->to_end / tau : 0;
    a->dist = s->dist_se;
    a->to_end = 0;
    a->key = 0;
    a->cause = 0;
    return 0;
}

/* Expands point i of the isochrone into its slots. */
static int expand_point(search *s, size_t i)
{
    const swx__rnode *p = &s->r->nodes[s->iso_from + i];
    swx__rnode *slot = s->cand + i * s->slots;
    swx_routing_met m0;
    for (size_t k = 0; k < s->slots; k++)
        slot[k].cause = -1;
    int rc = s->o->met(s->o->met_ctx, p->lat, p->lon, s->t, &m0);
    if (rc < 0)
        return rc;
    s->arrive[i].cause = -1;
    if (!rc) {
        int e = arrive_from(s, p, &m0, &s->arrive[i]);
        if (e < 0)
            return e;
        s->arrive[i].parent = (int64_t)(s->iso_from + i);
    }
    double out =
        s->first
            ? 0
            : fmod(swx__route_bearing(p->lat, p->lon, s->o->from_lat, s->o->from_lon) + 180, 360);
    int k0 = s->first ? 0 : (int)ceil((out - s->fan) / s->head_step);
    for (size_t k = 0, j = 0; k < s->slots; j++) {
        double h = (k0 + (int)j) * s->head_step;
        if (!s->first && h > out + s->fan)
            break;
        /* beyond SWX_ROUTING_FAN_FINE_DEG of the centre, every third heading */
        if (!s->first && fabs(h - out) > SWX_ROUTING_FAN_FINE_DEG && (k0 + (int)j) % 3)
            continue;
        h = fmod(h + 720, 360);
        swx__rnode *c = &slot[k++];
        c->parent = (int64_t)(s->iso_from + i);
        if (rc) {
            c->cause = rc; /* the forecast ends */
            continue;
        }
        int e = expand_one(s, p, &m0, h, c);
        if (e < 0)
            return e;
    }
    return 0;
}

typedef struct worker {
    search *s;
    size_t from, to;
    pthread_t th;
    int running;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    for (size_t i = w->from; i < w->to; i++) {
        int rc = expand_point(w->s, i);
        if (rc) {
            note_failure(w->s, i, rc);
            break;
        }
    }
    return NULL;
}

/* Expands the whole isochrone on the caller's thread and threads - 1 more. */
static int expand_all(search *s)
{
    int nt = s->o->threads > 1 ? s->o->threads : 1;
    worker w[MAX_THREADS];
    if (nt > MAX_THREADS)
        nt = MAX_THREADS;
    if ((size_t)nt > s->iso_n)
        nt = s->iso_n ? (int)s->iso_n : 1;
    for (int i = 0; i < nt; i++) {
        w[i] = (worker){.s = s, .from = s->iso_n * i / nt, .to = s->iso_n * (i + 1) / nt};
        if (i > 0)
            w[i].running = pthread_create(&w[i].th, NULL, work, &w[i]) == 0;
    }
    work(&w[0]);
    for (int i = 1; i < nt; i++) {
        if (w[i].running)
            pthread_join(w[i].th, NULL);
        else
            work(&w[i]); /* no thread: the caller's does it */
    }
    if (s->fail_rc)
        return swx_error_set(s->fail_rc, "%s", s->fail_msg);
    return 0;
}

/* Room for n more nodes. */
static int nodes_room(swx_routing *r, size_t n)
{
    if (r->nnodes + n <= r->cap)
        return 0;
    if (r->nnodes + n > SWX_ROUTING_MAX_POINTS)
        return swx_error_set(SWX_ETOOBIG,
                             "the route search passed %d points: give a coarser heading step, "
                             "time step or sector",
                             SWX_ROUTING_MAX_POINTS);
    size_t cap = r->cap ? r->cap : 4096;
    while (cap < r->nnodes + n)
        cap *= 2;
    swx__rnode *nn = realloc(r->nodes, cap * sizeof *nn);
    if (!nn)
        return swx_error_set(SWX_ENOMEM, "out of memory in the route search");
    r->nodes = nn;
    r->cap = cap;
    return 0;
}

static int iso_push(swx_routing *r, size_t off, int64_t t)
{
    if (r->niso + 2 > r->iso_cap) {
        size_t cap = r->iso_cap ? 2 * r->iso_cap : 256;
        size_t *o2 = realloc(r->iso_off, cap * sizeof *o2);
        if (o2)
            r->iso_off = o2;
        int64_t *t2 = o2 ? realloc(r->iso_t, cap * sizeof *t2) : NULL;
        if (!t2)
            return swx_error_set(SWX_ENOMEM, "out of memory in the route search");
        r->iso_t = t2;
        r->iso_cap = cap;
    }
    r->iso_off[r->niso] = off;
    r->iso_t[r->niso++] = t;
    r->iso_off[r->niso] = off;
    return 0;
}

/* Keeps per sector the farthest candidate past the sector's best so far,
 * appends them to the nodes as the next isochrone; and the best arrival. */
static int reduce(search *s, step_tally *st)
{
    swx_routing *r = s->r;
    double limit = s->o->max_detour > 0 ? s->o->max_detour : 2.0;
    for (size_t i = 0; i < s->iso_n; i++)
        if (s->arrive[i].cause == 0 && s->arrive[i].t < s->best_t) {
            s->best_t = s->arrive[i].t;
            s->best_end = s->arrive[i];
        }
    for (size_t j = 0; j < s->iso_n * s->slots; j++) {
        const swx__rnode *c = &s->cand[j];
        if (c->cause < 0)
            continue;
        st->legs++;
        if (c->cause > 0) {
            const swx__rnode *p = &r->nodes[c->parent];
            st->blocked++;
            st->forecast_end += c->cause == SWX_ROUTING_FORECAST_END;
            if (c->cause != SWX_ROUTING_FORECAST_END && p->to_end < st->near_blocked) {
                st->near_blocked = p->to_end;
                st->near_cause = c->cause;
                st->near_lat = p->lat;
                st->near_lon = p->lon;
            }
            continue;
        }
        if (c->sog > st->max_sog)
            st->max_sog = c->sog;
        if (c->dist + c->key > limit * s->key_se || c->key >= s->best_ever[c->sector] - 1e-9)
            continue;
        int64_t *k = &s->chosen[c->sector];
        if (*k < 0 || c->key < s->cand[*k].key)
            *k = (int64_t)j;
    }
    size_t n = 0;
    for (int q = 0; q < s->nsect; q++)
        n += s->chosen[q] >= 0;
    int rc = nodes_room(r, n);
    if (rc)
        return rc;
    size_t from = r->nnodes;
    for (int q = 0; q < s->nsect; q++)
        if (s->chosen[q] >= 0) {
            r->nodes[r->nnodes++] = s->cand[s->chosen[q]];
            s->best_ever[q] = s->cand[s->chosen[q]].key;
            s->chosen[q] = -1;
        }
    s->iso_from = from;
    s->iso_n = n;
    return 0;
}

static void set_reason(swx_routing *r, int cause, int blocked_by, double lat, double lon, int64_t t,
                       const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void set_reason(swx_routing *r, int cause, int blocked_by, double lat, double lon, int64_t t,
                       const char *fmt, ...)
{
    va_list ap;
    r->why.cause = cause;
    r->why.blocked_by = blocked_by;
    r->why.lat = lat;
    r->why.lon = lon;
    r->why.time = t;
    va_start(ap, fmt);
    vsnprintf(r->why.message, sizeof r->why.message, fmt, ap);
    va_end(ap);
}

static int check_opts(const swx_routing_opts *o)
{
    if (!o || !o->met)
        return swx_error_set(SWX_EINVAL, "the route search needs a forecast (the met callback)");
    if (!(fabs(o->from_lat) <= 90 && fabs(o->to_lat) <= 90 && fabs(o->from_lon) <= 360 &&
          fabs(o->to_lon) <= 360))
        return swx_error_set(SWX_EINVAL, "the route's start or end is not a latitude, longitude");
    if (swx__route_dist(o->from_lat, o->from_lon, o->to_lat, o->to_lon) < 0.01)
        return swx_error_set(SWX_EINVAL, "the route's start and end are the same point");
    if (!o->polar && !(o->motor_kn > 0 && o->motor_kn <= 100))
        return swx_error_set(SWX_EINVAL, "the route needs a polar or a motor speed of 0 to 100 kn");
    if (o->time_step_s < 0 || o->time_step_s > 6 * 3600 ||
        (o->time_step_s && o->time_step_s < SWX_ROUTING_MIN_STEP_S))
        return swx_error_set(SWX_EINVAL, "the route's time step is not %d s to 6 h",
                             SWX_ROUTING_MIN_STEP_S);
    if (o->heading_step_deg < 0 || o->heading_step_deg > 30)
        return swx_error_set(SWX_EINVAL, "the route's heading step is not 0 to 30 degrees");
    if (o->max_hours < 0 || o->sector_nm < 0 || o->max_detour < 0 ||
        (o->max_detour > 0 && o->max_detour < 1))
        return swx_error_set(SWX_EINVAL, "the route's limits are negative");
    return 0;
}

/* The fastest the boat goes through water, any wind: bounds the search. */
static double boat_vmax(const swx_routing_opts *o)
{
    double v = o->motor_kn > 0 ? o->motor_kn : 0;
    if (o->polar)
        for (int w = 0; w <= 400; w++)
            for (int a = 0; a <= 180; a++)
                v = fmax(v, swx_polar_speed(o->polar, w * 0.5, a));
    return v;
}

static int search_init(search *s, const swx_routing_opts *o, swx_routing *r)
{
    s->o = o;
    s->r = r;
    s->boat.o = o;
    s->boat.vmax = boat_vmax(o);
    if (o->polar) {
        int rc = swx_polar_hull_new(&s->boat.hull, o->polar, o->min_twa_deg);
        if (rc)
            return rc;
    }
    s->dist_se = swx__route_dist(o->from_lat, o->from_lon, o->to_lat, o->to_lon);
    s->key_se = o->to_end ? o->to_end(o->to_end_ctx, o->from_lat, o->from_lon) : s->dist_se;
    s->head_step = o->heading_step_deg > 0 ? o->heading_step_deg : SWX_ROUTING_HEADING_STEP_DEG;
    if (o->time_step_s > 0) {
        s->base = o->time_step_s;
    } else {
        /* at least SWX_ROUTING_MIN_STEPS steps over the direct trip at top
         * speed: a short passage at 6 h steps loses a reach's corner */
        double trip_s = s->dist_se / fmax(s->boat.vmax, 0.1) * 3600 / SWX_ROUTING_MIN_STEPS;
        s->base = (int64_t)fmin(SWX_ROUTING_OFFSHORE_STEP_S, fmax(3600, floor(trip_s / 60) * 60));
    }
    s->fine = o->time_step_s > 0 ? o->time_step_s : 3600;
    s->nhead = (int)floor(360 / s->head_step + 1e-9);
    s->fan = SWX_ROUTING_FAN_DEG;
    /* a sector wider than a third of a step's run loses the best of
     * neighbouring routes (measured on a 2,700 nm crossing) */
    double sec_nm = o->sector_nm > 0 ? o->sector_nm
                                     : fmin(fmax(1.0, s->dist_se / 300),
                                            0.3 * s->boat.vmax * (double)s->fine / 3600);
    s->sector_nm = sec_nm;
    s->brg_se = swx__route_bearing(o->from_lat, o->from_lon, o->to_lat, o->to_lon);
    s->nsect = 2 * (int)ceil(1.2 * s->dist_se / sec_nm);
    s->nsect = s->nsect < 36 ? 36 : s->nsect > MAX_SECTORS ? MAX_SECTORS : s->nsect;
    s->best_t = INFINITY;
    s->seen.near_blocked = INFINITY;
    s->best_ever = calloc((size_t)s->nsect, sizeof *s->best_ever);
    s->chosen = malloc((size_t)s->nsect * sizeof *s->chosen);
    if (!s->best_ever || !s->chosen)
        return swx_error_set(SWX_ENOMEM, "out of memory in the route search");
    for (int q = 0; q < s->nsect; q++) {
        s->chosen[q] = -1;
        s->best_ever[q] = INFINITY;
    }
    return 0;
}

/* Room for the candidates of the isochrone being expanded. */
static int cand_room(search *s)
{
    size_t need = s->iso_n * s->slots;
    if (need > s->cand_cap) {
        free(s->cand);
        s->cand_cap = need + need / 2;
        if (!(s->cand = malloc(s->cand_cap * sizeof *s->cand)))
            return swx_error_set(SWX_ENOMEM, "out of memory in the route search");
    }
    if (s->iso_n > s->arrive_cap) {
        free(s->arrive);
        s->arrive_cap = s->iso_n + s->iso_n / 2;
        if (!(s->arrive = malloc(s->arrive_cap * sizeof *s->arrive)))
            return swx_error_set(SWX_ENOMEM, "out of memory in the route search");
    }
    return 0;
}

/* The next time step: the base one (halved after many blocked legs),
 * finer once the end is near. */
static int64_t next_step(search *s, int64_t base, double max_sog)
{
    double near = INFINITY;
    for (size_t i = 0; i < s->iso_n; i++)
        near = fmin(near, s->r->nodes[s->iso_from + i].to_end);
    double rem_s = near / fmax(max_sog, 0.1) * 3600;
    int64_t dt = base;
    if (rem_s < 4.0 * (double)dt)
        dt = (int64_t)(rem_s / 4);
    return dt < SWX_ROUTING_MIN_STEP_S ? SWX_ROUTING_MIN_STEP_S : dt;
}

/* Why the search stopped without a route, from the last step's tally. */
static void stopped(search *s, const step_tally *st, int too_long)
{
    const swx_routing_opts *o = s->o;
    double hours = (double)(s->t - o->depart) / 3600;
    if (too_long) {
        double near = INFINITY, lat = o->from_lat, lon = o->from_lon;
        for (size_t i = 0; i < s->iso_n; i++) {
            const swx__rnode *p = &s->r->nodes[s->iso_from + i];
            if (p->to_end < near) {
                near = p->to_end;
                lat = p->lat;
                lon = p->lon;
            }
        }
        set_reason(s->r, SWX_ROUTING_TOO_LONG, 0, lat, lon, s->t,
                   "no route within %.0f h: the nearest point reached, %.4f %.4f, is %.1f nm "
                   "from the end",
                   hours, lat, lon, near);
    } else if (st->forecast_end && st->forecast_end * 2 >= st->blocked) {
        int64_t last = s->t - s->dt; /* the last isochrone the forecast covered */
        const swx_routing *r = s->r;
        const swx__rnode *p = &r->nodes[0];
        for (size_t i = r->iso_off[r->niso - 2]; i < r->iso_off[r->niso - 1]; i++)
            if (r->nodes[i].to_end < p->to_end)
                p = &r->nodes[i];
        /* the moment itself: a waypoint leg's search starts at that leg's
         * start, so hours from o->depart would not be the voyage's */
        char at[SWX_ISO8601_LEN];
        swx_iso8601_format(at, last);
        set_reason(s->r, SWX_ROUTING_FORECAST_END, 0, p->lat, p->lon, last,
                   "the forecast ends within %lld min after %s, before the end is reached",
                   (long long)((s->dt + 59) / 60), at);
    } else if (st->near_cause) {
        set_reason(
            s->r, SWX_ROUTING_END_UNREACHABLE, st->near_cause, st->near_lat, st->near_lon, s->t,
            "the end cannot be reached: every way forward is blocked (%s nearest the end, "
            "%.1f nm from it at %.4f %.4f)",
            swx_routing_cause_name(st->near_cause), st->near_blocked, st->near_lat, st->near_lon);
    } else {
        set_reason(s->r, SWX_ROUTING_END_UNREACHABLE, 0, o->from_lat, o->from_lon, s->t,
                   "the end cannot be reached: the boat makes no headway toward it after %.1f h",
                   hours);
    }
}

/* The start and end themselves: on land, in the forecast. 1 when the
 * search cannot start (the reason set), 0, or a negative code. */
static int check_ends(search *s)
{
    const swx_routing_opts *o = s->o;
    swx_routing_met m;
    int rc =
        legs_clear(o, o->from_lat, o->from_lon, o->depart, o->from_lat, o->from_lon, o->depart);
    if (rc) {
        set_reason(s->r, rc == SWX_ROUTING_LAND ? SWX_ROUTING_START_ON_LAND : rc, rc, o->from_lat,
                   o->from_lon, o->depart, "the start, %.4f %.4f, is %s", o->from_lat, o->from_lon,
                   rc == SWX_ROUTING_LAND    ? "on land"
                   : rc == SWX_ROUTING_STORM ? "inside a storm's area at the departure"
                                             : "blocked");
        return 1;
    }
    rc = legs_clear(o, o->to_lat, o->to_lon, o->depart, o->to_lat, o->to_lon, o->depart);
    if (rc == SWX_ROUTING_LAND) {
        set_reason(s->r, SWX_ROUTING_END_UNREACHABLE, rc, o->to_lat, o->to_lon, o->depart,
                   "the end, %.4f %.4f, is on land", o->to_lat, o->to_lon);
        return 1;
    }
    rc = o->met(o->met_ctx, o->from_lat, o->from_lon, o->depart, &m);
    if (rc > 0) {
        set_reason(s->r, SWX_ROUTING_FORECAST_END, 0, o->from_lat, o->from_lon, o->depart,
                   "the departure is past the forecast's end");
        return 1;
    }
    return rc < 0 ? rc : 0;
}

/* The headings of a fan: every one within SWX_ROUTING_FAN_FINE_DEG of its
 * centre, every third beyond (an upper bound). */
static size_t fan_slots(const search *s)
{
    double inner = fmin(SWX_ROUTING_FAN_FINE_DEG, s->fan), st = s->head_step;
    double n = floor(2 * inner / st) + 1 + 2 * (floor((s->fan - inner) / (3 * st)) + 1);
    return (size_t)fmin(s->nhead, n);
}

/* The isochrones, step after step, until the end is reached or the search
 * ends with a reason. */
static int run(search *s)
{
    const swx_routing_opts *o = s->o;
    swx_routing *r = s->r;
    double max_h = o->max_hours > 0 ? o->max_hours : 720;
    int64_t base = s->base, cur = base;
    double max_sog = s->boat.vmax;
    int rc = nodes_room(r, 1);
    if (rc || (rc = iso_push(r, 0, o->depart)))
        return rc;
    r->nodes[r->nnodes++] = (swx__rnode){.lat = o->from_lat,
                                         .lon = o->from_lon,
                                         .to_end = s->dist_se,
                                         .key = s->key_se,
                                         .t = (double)o->depart,
                                         .parent = -1};
    r->iso_off[1] = 1;
    s->iso_from = 0;
    s->iso_n = 1;
    s->t = o->depart;
    s->first = 1;
    for (;;) {
        step_tally st = s->seen;
        if (o->cancel && *o->cancel)
            return swx_error_set(SWX_ECANCEL, "stopped");
        if ((double)(s->t - o->depart) / 3600 >= max_h) {
            stopped(s, &st, 1);
            return 0;
        }
        s->dt = next_step(s, cur, max_sog);
        s->slots = s->first ? (size_t)s->nhead : fan_slots(s);
        if ((rc = cand_room(s)) || (rc = expand_all(s)))
            return rc;
        if ((rc = reduce(s, &st)))
            return rc;
        r->expansions += st.legs;
        s->t += s->dt;
        s->first = 0;
        if ((rc = iso_push(r, s->iso_from, s->t)))
            return rc;
        r->iso_off[r->niso] = s->iso_from + s->iso_n;
        if (st.max_sog > max_sog)
            max_sog = st.max_sog;
        s->seen.near_blocked = st.near_blocked; /* the nearest block over the whole search */
        s->seen.near_cause = st.near_cause;
        s->seen.near_lat = st.near_lat;
        s->seen.near_lon = st.near_lon;
        if (s->best_t <= (double)s->t || (s->iso_n == 0 && isfinite(s->best_t)))
            return 1;
        if (s->iso_n == 0) {
            stopped(s, &st, 0);
            return 0;
        }
        cur = st.blocked * 10 > st.legs ? (cur / 2 < base / 8 ? base / 8 : cur / 2)
                                        : (cur * 2 > base ? base : cur * 2);
    }
}

int swx_routing_solve(swx_routing **out, const swx_routing_opts *o)
{
    search s = {0};
    swx_routing *r = NULL;
    struct timespec a, b;
    int rc;
    *out = NULL;
    if ((rc = check_opts(o)))
        return rc;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pthread_mutex_init(&s.lock, NULL);
    if (!(r = calloc(1, sizeof *r))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory in the route search");
        goto done;
    }
    if ((rc = search_init(&s, o, r)) || (rc = check_ends(&s)) < 0)
        goto done;
    if (rc == 0 && (rc = run(&s)) == 1) {
        if ((rc = nodes_room(r, 1)))
            goto done;
        r->nodes[r->nnodes++] = s.best_end;
        rc = swx__routing_build(r, &s.boat);
    }
    if (rc >= 0)
        rc = swx__routing_isochrones(r);
done:
    clock_gettime(CLOCK_MONOTONIC, &b);
    swx_polar_hull_free(s.boat.hull);
    free(s.best_ever);
    free(s.chosen);
    free(s.cand);
    free(s.arrive);
    pthread_mutex_destroy(&s.lock);
    if (rc < 0) {
        swx_routing_free(r);
        return rc;
    }
    r->seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    *out = r;
    return 0;
}

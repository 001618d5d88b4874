/* plan.c: the departure plan (see seawx/plan.h and docs/plan.md): every
 * departure sailed through the forecast along the route, its figures, its
 * storms and its verdict. */
#define _GNU_SOURCE
#include "plan_result.h"

#include "seawx/error.h"
#include "seawx/risk.h"
#include "storm_timeline.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG (M_PI / 180.0)
#define PLAN_MAX_VOYAGE_S (60 * 86400) /* a polar track gives up after 60 days */
#define PLAN_UPWIND_DEFAULT 50.0
#define PLAN_MARGIN 0.8          /* MARGINAL from 80 % of a threshold */
#define PLAN_STORM_NEAR_NM 200.0 /* MARGINAL: a storm's centre this near */

static const char *const verdict_names[] = {"go", "marginal", "no-go"};

const char *swx_plan_verdict_name(int verdict)
{
    return verdict >= 0 && verdict <= SWX_PLAN_NOGO ? verdict_names[verdict] : NULL;
}

void swx_plan_free(swx_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nstrings; i++)
        free(p->strings[i]);
    free(p->strings);
    free(p->rows);
    free(p->sample_nm);
    free(p->sample_lon);
    free(p->sample_lat);
    free(p->sample_course);
    free(p->wind_kn);
    free(p->wave_m);
    free(p->storm);
    free(p);
}

/* A departure the forecast covers only in part has a verdict on that part:
 * a go or a marginal there may still meet worse beyond, so it comes after
 * every go and marginal judged over the whole voyage; a no-go is one
 * however much is known, so every no-go comes last (those judged whole
 * first). */
static int best_rank(const swx_plan_departure *d)
{
    if (d->verdict == SWX_PLAN_NOGO)
        return 4 + (d->partial != 0);
    return (d->partial ? 2 : 0) + (d->verdict == SWX_PLAN_MARGINAL);
}

int swx_plan_better(const swx_plan_departure *x, const swx_plan_departure *y)
{
    int rx = best_rank(x), ry = best_rank(y);
    if (rx != ry)
        return rx < ry ? -1 : 1;
    double wx = isnan(x->max_wind_kn) ? INFINITY : x->max_wind_kn;
    double wy = isnan(y->max_wind_kn) ? INFINITY : y->max_wind_kn;
    if (wx != wy)
        return wx < wy ? -1 : 1;
    return x->depart < y->depart ? -1 : x->depart > y->depart;
}

size_t swx_plan_best(const swx_plan *p)
{
    return p->best;
}

size_t swx_plan_count(const swx_plan *p)
{
    return p ? p->n : 0;
}

const swx_plan_departure *swx_plan_row(const swx_plan *p, size_t i)
{
    return p && i < p->n ? &p->rows[i] : NULL;
}

size_t swx_plan_left_out(const swx_plan *p)
{
    return p ? p->left_out : 0;
}

size_t swx_plan_samples(const swx_plan *p)
{
    return p ? p->ns : 0;
}

double swx_plan_sample_nm(const swx_plan *p, size_t j)
{
    return p && j < p->ns ? p->sample_nm[j] : NAN;
}

void swx_plan_sample_point(const swx_plan *p, size_t j, double *lon, double *lat,
                           double *course_deg)
{
    int ok = p && j < p->ns;
    if (lon)
        *lon = ok ? p->sample_lon[j] : NAN;
    if (lat)
        *lat = ok ? p->sample_lat[j] : NAN;
    if (course_deg)
        *course_deg = ok ? p->sample_course[j] : NAN;
}

int64_t swx_plan_forecast_end(const swx_plan *p)
{
    return p ? p->forecast_end : INT64_MIN;
}

double swx_plan_cell_wind_kn(const swx_plan *p, size_t i, size_t j)
{
    return p && i < p->n && j < p->ns ? p->wind_kn[i * p->ns + j] : NAN;
}

double swx_plan_cell_wave_m(const swx_plan *p, size_t i, size_t j)
{
    return p && i < p->n && j < p->ns ? p->wave_m[i * p->ns + j] : NAN;
}

int swx_plan_cell_storm(const swx_plan *p, size_t i, size_t j)
{
    return p && i < p->n && j < p->ns ? p->storm[i * p->ns + j] : 0;
}

/* ---- the forecast met ---- */

/* What the ship meets at one place and moment. */
typedef struct met {
    int covered; /* the moment is within the forecast's times */
    double wind_kn, gust_kn, wave_m;
    double from_deg; /* where the wind comes from, NaN in a calm or missing */
} met;

/* Bearing (degrees true, [0, 360)) from a to b: the initial great-circle course. */
static double bearing(double lon1, double lat1, double lon2, double lat2)
{
    double p1 = lat1 * DEG, p2 = lat2 * DEG, dl = (lon2 - lon1) * DEG;
    double y = sin(dl) * cos(p2), x = cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl);
    double t = atan2(y, x) / DEG;
    return t < 0 ? t + 360 : t >= 360 ? t - 360 : t;
}

/* The sample point nearest to nm along the route (the lower one on a tie). */
static size_t nearest_sample(const swx_plan_forecast *f, double nm)
{
    if (f->ns == 1 || nm <= 0)
        return 0;
    size_t j = (size_t)(nm / f->spacing_nm);
    if (j >= f->ns - 1)
        return f->ns - 1;
    return nm - f->nm[j] <= f->nm[j + 1] - nm ? j : j + 1;
}

/* Linear in time between valid times k and k + 1 (weight w of k + 1); NaN
 * when either is missing. */
static double lerp(const swx_plan_forecast *f, size_t j, size_t k, double w, int var)
{
    const float *a = f->value + (j * f->nt + k) * SWX_PV_N;
    if (w == 0)
        return a[var];
    const float *b = a + SWX_PV_N;
    return (1 - w) * a[var] + w * b[var];
}

static void meet(met *m, const swx_plan_forecast *f, size_t j, double t)
{
    m->wind_kn = m->gust_kn = m->wave_m = m->from_deg = NAN;
    m->covered = f->nt > 0 && t >= (double)f->times[0] && t <= (double)f->times[f->nt - 1];
    if (!m->covered)
        return;
    size_t lo = 0, hi = f->nt - 1;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if ((double)f->times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    double w = 0;
    if (f->nt > 1 && t > (double)f->times[lo])
        w = (t - (double)f->times[lo]) / (double)(f->times[lo + 1] - f->times[lo]);
    if (w >= 1) {
        lo++;
        w = 0;
    }
    double u = lerp(f, j, lo, w, SWX_PV_U10), v = lerp(f, j, lo, w, SWX_PV_V10);
    if (!isnan(u) && !isnan(v)) {
        double sp = hypot(u, v);
        m->wind_kn = sp / SWX_KNOT_MPS;
        if (sp > 0) {
            /* the wind blows towards atan2(u, v); it comes from the opposite side */
            double to = atan2(u, v) / DEG;
            m->from_deg = fmod(to + 540.0, 360.0);
        }
    }
    double g = lerp(f, j, lo, w, SWX_PV_GUST);
    m->gust_kn = isnan(g) ? NAN : g / SWX_KNOT_MPS;
    m->wave_m = lerp(f, j, lo, w, SWX_PV_SWH);
}

/* The true wind angle (0..180) between the course and where the wind comes from. */
static double twa(double course, double from)
{
    return fabs(fmod(from - course + 540.0, 360.0) - 180.0);
}

/* The figures of one ship's track. */
typedef struct figures {
    double max_wind, max_gust, max_wave;
    double h_wind, h_gust, h_wave, h_up;
    int partial;
    double becalmed_nm; /* where a polar track stopped making way for good; NaN: never */
} figures;

static void figures_init(figures *g)
{
    g->max_wind = g->max_gust = g->max_wave = NAN;
    g->h_wind = g->h_gust = g->h_wave = g->h_up = 0;
    g->partial = 0;
    g->becalmed_nm = NAN;
}

static double nanmax(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

/* One moment of a track, at nm along the route, standing for weight seconds. */
static void account(figures *g, const swx_plan_forecast *f, const double *course,
                    const swx_plan_opts *o, double up_angle, double nm, double t, double weight,
                    met *m)
{
    size_t j = nearest_sample(f, nm);
    meet(m, f, j, t);
    if (!m->covered) {
        g->partial = 1;
        return;
    }
    double h = weight / 3600.0;
    g->max_wind = nanmax(g->max_wind, m->wind_kn);
    g->max_gust = nanmax(g->max_gust, m->gust_kn);
    g->max_wave = nanmax(g->max_wave, m->wave_m);
    if (o->max_wind_kn > 0 && m->wind_kn > o->max_wind_kn)
        g->h_wind += h;
    if (o->max_gust_kn > 0 && m->gust_kn > o->max_gust_kn)
        g->h_gust += h;
    if (o->max_wave_m > 0 && m->wave_m > o->max_wave_m)
        g->h_wave += h;
    if (!isnan(m->from_deg) && twa(course[j], m->from_deg) < up_angle)
        g->h_up += h;
}

/* A ship at a constant speed (knots) from departure d: its figures. */
static void constant_track(figures *g, const swx_plan_forecast *f, const double *course,
                           const swx_plan_opts *o, double up_angle, double len_nm, double kn,
                           double d)
{
    met m;
    double dur = len_nm / kn * 3600.0;
    figures_init(g);
    for (double el = 0; el < dur; el += SWX_PLAN_STEP_S) {
        double w = dur - el < SWX_PLAN_STEP_S ? dur - el : SWX_PLAN_STEP_S;
        account(g, f, course, o, up_angle, kn * el / 3600.0, d + el, w, &m);
    }
    account(g, f, course, o, up_angle, len_nm, d + dur, 0, &m);
}

/* A ship sailed by its polar from d: its figures, the arrival (NaN: none
 * within PLAN_MAX_VOYAGE_S or the forecast) and the moment it passes each
 * sample point (pass[j], NaN: never). Each leg is made good at the speed of
 * the polar's convex hull along it (swx_polar_hull_speed): closer to the
 * wind than the polar sails, or deeper downwind than it pays, the boat beats
 * on alternating tacks or gybes at the best VMG, and its speed along the
 * track is that VMG; never less than the motoring speed. */
static void polar_track(figures *g, double *arrival, double *pass, const swx_plan_forecast *f,
                        const double *course, const swx_plan_opts *o, const swx_polar_hull *hull,
                        double up_angle, double len_nm, double d)
{
    met m;
    double s = 0, t = d;
    size_t next = 0; /* the next sample point to be passed */
    figures_init(g);
    *arrival = NAN;
    for (size_t j = 0; j < f->ns; j++)
        pass[j] = NAN;
    while (next < f->ns && f->nm[next] <= 0)
        pass[next++] = d;
    if (len_nm <= 0) {
        account(g, f, course, o, up_angle, 0, d, 0, &m);
        *arrival = d;
        return;
    }
    while (t - d < PLAN_MAX_VOYAGE_S) {
        size_t j = nearest_sample(f, s);
        meet(&m, f, j, t);
        double boat = NAN;
        if (!isnan(m.wind_kn) && !isnan(m.from_deg))
            boat = swx_polar_hull_speed(hull, m.wind_kn, twa(course[j], m.from_deg));
        else if (!isnan(m.wind_kn))
            boat = 0; /* a calm */
        double kn = isnan(boat) || boat < o->min_kn ? o->min_kn : boat;
        if (kn <= 0 && !m.covered && t > (double)f->times[f->nt - 1])
            break; /* becalmed past the forecast: no arrival */
        double step = SWX_PLAN_STEP_S, ds = kn * step / 3600.0;
        int arrives = s + ds >= len_nm;
        if (arrives)
            step = (len_nm - s) / kn * 3600.0;
        account(g, f, course, o, up_angle, s, t, step, &m);
        double s2 = arrives ? len_nm : s + ds;
        while (next < f->ns && f->nm[next] <= s2) {
            pass[next] = kn > 0 ? t + (f->nm[next] - s) / kn * 3600.0 : t;
            next++;
        }
        s = s2;
        t += step;
        if (arrives) {
            account(g, f, course, o, up_angle, len_nm, t, 0, &m);
            *arrival = t;
            return;
        }
        /* no way made from here to the forecast's end: becalmed there */
        if (kn > 0)
            g->becalmed_nm = NAN;
        else if (isnan(g->becalmed_nm))
            g->becalmed_nm = s;
    }
    g->partial = 1;
}

/* ---- the plan ---- */

static const char *keep(swx_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *keep(swx_plan *p, const char *fmt, ...)
{
    char *s = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char **grown = realloc(p->strings, (p->nstrings + 1) * sizeof *grown);
    if (!grown) {
        free(s);
        return NULL;
    }
    p->strings = grown;
    p->strings[p->nstrings++] = s;
    return s;
}

/* The decimals (from d, at most d + 2) that print v on its side of lim: a
 * reason never reads "wind 25 kn above 25 kn" for 25.4 against 25. */
static int apart(double v, double lim, int d)
{
    for (; d < 3; d++) {
        double k = pow(10, d);
        if (round(v * k) != round(lim * k))
            break;
    }
    return d;
}

/* The limits a departure is held to, in the order their rules are asked
 * (docs/plan.md): the value met on the route against the plan's limit (0:
 * none), and the words of its reason, "NAME VALUE AFTER SEP LIMIT UNIT"
 * ("wind 26 kn above 25 kn", "30 h upwind, near 32 h"). decimals: the
 * limit's, and the fewest the value is printed with (more when the two would
 * print alike: apart()). */
static const struct plan_limit {
    int rule;
    size_t value, limit; /* offsetof in swx_plan_departure and swx_plan_opts */
    const char *name, *after, *above, *unit;
    int decimals;
} plan_limits[] = {
    {SWX_PLAN_RULE_WIND, offsetof(swx_plan_departure, max_wind_kn),
     offsetof(swx_plan_opts, max_wind_kn), "wind ", " kn", " above ", " kn", 0},
    {SWX_PLAN_RULE_GUST, offsetof(swx_plan_departure, max_gust_kn),
     offsetof(swx_plan_opts, max_gust_kn), "gusts ", " kn", " above ", " kn", 0},
    {SWX_PLAN_RULE_WAVE, offsetof(swx_plan_departure, max_wave_m),
     offsetof(swx_plan_opts, max_wave_m), "waves ", " m", " above ", " m", 1},
    {SWX_PLAN_RULE_UPWIND, offsetof(swx_plan_departure, hours_upwind),
     offsetof(swx_plan_opts, max_upwind_h), "", " h upwind", ", above ", " h", 0},
};
#define PLAN_NLIMITS (sizeof plan_limits / sizeof *plan_limits)

static double member(const void *base, size_t off)
{
    double v;
    memcpy(&v, (const char *)base + off, sizeof v);
    return v;
}

/* The first limit row r passes (margin 0), or comes near (within margin of
 * it, margin < 1); NULL for none. */
static const struct plan_limit *limit_met(const swx_plan_departure *r, const swx_plan_opts *o,
                                          double margin)
{
    for (size_t i = 0; i < PLAN_NLIMITS; i++) {
        const struct plan_limit *l = &plan_limits[i];
        double v = member(r, l->value), lim = member(o, l->limit);
        if (lim > 0 && (margin > 0 ? v >= margin * lim : v > lim))
            return l;
    }
    return NULL;
}

static const char *limit_reason(swx_plan *p, const struct plan_limit *l,
                                const swx_plan_departure *r, const swx_plan_opts *o,
                                const char *sep)
{
    double v = member(r, l->value), lim = member(o, l->limit);
    return keep(p, "%s%.*f%s%s%.*f%s", l->name, apart(v, lim, l->decimals), v, l->after, sep,
                l->decimals, lim, l->unit);
}

/* The verdict of row r (docs/plan.md): storms first, then the limits passed
 * (no go), a storm near, the limits come near, and a voyage the forecast
 * does not cover (marginal). 0, or SWX_ENOMEM. */
static int verdict(swx_plan *p, swx_plan_departure *r, int storm_worst, const swx_plan_opts *o)
{
    const struct plan_limit *l;
    const char *why = NULL;
    int v = SWX_PLAN_MARGINAL, rule = SWX_PLAN_RULE_STORM;
    if (storm_worst >= SWX_RISK_R34) {
        v = SWX_PLAN_NOGO;
        why = keep(p, "inside the 34 kt winds of %s", r->storm_title);
    } else if (storm_worst == SWX_RISK_DANGER) {
        v = SWX_PLAN_NOGO;
        why = keep(p, "inside the danger area of %s", r->storm_title);
    } else if ((l = limit_met(r, o, 0))) {
        v = SWX_PLAN_NOGO;
        rule = l->rule;
        why = limit_reason(p, l, r, o, l->above);
    } else if (r->storm_title && r->storm_cpa_nm < PLAN_STORM_NEAR_NM) {
        why = keep(p, "%s passes within %.0f nm", r->storm_title, r->storm_cpa_nm);
    } else if ((l = limit_met(r, o, PLAN_MARGIN))) {
        rule = l->rule;
        why = limit_reason(p, l, r, o, ", near ");
    } else if (r->partial && !isnan(r->becalmed_nm)) {
        rule = SWX_PLAN_RULE_BECALMED;
        why = keep(p,
                   "becalmed from %.0f nm of %.0f to the forecast's end: the polar makes no "
                   "way in the wind there and no motoring speed was given",
                   r->becalmed_nm, p->length_nm);
    } else if (r->partial) {
        rule = SWX_PLAN_RULE_PARTIAL;
        why = keep(p, "%s", SWX_PLAN_REASON_PARTIAL);
    } else {
        v = SWX_PLAN_GO;
        rule = SWX_PLAN_RULE_NONE;
    }
    r->verdict = v;
    r->reason = why;
    r->rule = rule;
    if (v != SWX_PLAN_GO && !why)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    return 0;
}

/* The wind of a storm's 34, 50 and 64 kt radii (SWX_RISK_R34..R64). */
static double radii_kn(int measure)
{
    return measure == SWX_RISK_R64 ? 64 : measure == SWX_RISK_R50 ? 50 : 34;
}

/* The storms of one departure: the one that matters most (the most severe
 * measure the ship is inside, then the nearest approach) into r, cells
 * marked where the ship is inside any storm's danger area or 34 kt radius.
 * Models under-resolve tropical cyclones: inside a storm's forecast radii
 * the wind met is taken as at least the radii's (docs/plan.md), in each
 * cell's wind (cw) and in the departure's strongest wind and gust. */
static int storms_of(swx_plan *p, swx_plan_departure *r, int *worst, unsigned char *cells,
                     double *cw, const swx_voyage *v, const struct swx_storm *const *storms,
                     size_t nstorms, const swx_storm_danger *d, double half_nm)
{
    int best = -2;
    double best_cpa = INFINITY;
    const swx_storm *pick = NULL;
    swx_storm_risk pr;
    *worst = -1;
    for (size_t k = 0; k < nstorms; k++) {
        swx_storm_risk sr;
        int rc = swx_risk_of_storm(&sr, v, storms[k], d);
        if (rc)
            return rc;
        if (!sr.overlap)
            continue;
        if (sr.worst > best || (sr.worst == best && sr.cpa_nm < best_cpa)) {
            best = sr.worst;
            best_cpa = sr.cpa_nm;
            pick = storms[k];
            pr = sr;
        }
        for (int mi = SWX_RISK_DANGER; mi <= SWX_RISK_R64; mi++) {
            const swx_risk_span *sp = &sr.span[mi];
            if (!sp->inside)
                continue;
            double a = sp->s_from / SWX_NM_M, b = sp->s_to / SWX_NM_M;
            for (size_t j = 0; j < p->ns; j++)
                if (p->sample_nm[j] + half_nm >= a && p->sample_nm[j] - half_nm <= b) {
                    cells[j] |= mi <= SWX_RISK_R34;
                    if (mi >= SWX_RISK_R34 && !(cw[j] >= radii_kn(mi)))
                        cw[j] = radii_kn(mi);
                }
        }
    }
    if (!pick)
        return 0;
    const char *title = pick->storm_name && *pick->storm_name ? pick->storm_name : pick->atcf_id;
    if (!(r->storm_id = keep(p, "%s", pick->atcf_id ? pick->atcf_id : "")) ||
        !(r->storm_title = keep(p, "%s", title ? title : "")))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    r->storm_cpa_nm = pr.cpa_nm;
    const swx_risk_span *dz = &pr.span[SWX_RISK_DANGER], *r34 = &pr.span[SWX_RISK_R34];
    r->storm_danger_h = dz->inside ? (double)(dz->last - dz->first) / 3600.0 : 0;
    r->storm_r34_h = r34->inside ? (double)(r34->last - r34->first) / 3600.0 : 0;
    *worst = pr.worst;
    if (pr.worst >= SWX_RISK_R34) {
        double kn = radii_kn(pr.worst);
        if (!(r->max_wind_kn >= kn))
            r->max_wind_kn = kn;
        if (!(r->max_gust_kn >= kn))
            r->max_gust_kn = kn;
    }
    return 0;
}

static int check_opts(const swx_plan_opts *o)
{
    if (o->step <= 0 || o->from > o->to)
        return swx_error_set(SWX_EINVAL, "the departures need FROM <= TO and a step above zero");
    if ((o->to - o->from) / o->step + 1 > SWX_PLAN_MAX_DEPARTURES)
        return swx_error_set(SWX_EINVAL, "more than %d departures", SWX_PLAN_MAX_DEPARTURES);
    if (!o->polar && !(o->min_kn > 0 && o->min_kn <= o->max_kn && o->max_kn <= 100))
        return swx_error_set(SWX_EINVAL,
                             "a plan needs a speed band (0 < MIN <= MAX <= 100 kn) or a polar");
    if (o->polar && (o->min_kn < 0 || o->min_kn > 100))
        return swx_error_set(SWX_EINVAL, "the motoring speed is 0 to 100 kn");
    if (o->upwind_angle_deg < 0 || o->upwind_angle_deg > 180)
        return swx_error_set(SWX_EINVAL, "the upwind angle is 0 to 180 degrees");
    return 0;
}

/* Great-circle distance in nautical miles. */
static double gc_nm(double lon1, double lat1, double lon2, double lat2)
{
    double p1 = lat1 * DEG, p2 = lat2 * DEG, dl = (lon2 - lon1) * DEG;
    double a = sin((p2 - p1) / 2), b = sin(dl / 2);
    double h = a * a + cos(p1) * cos(p2) * b * b;
    return 2 * asin(sqrt(fmin(1.0, h))) * SWX_EARTH_RADIUS_M / SWX_NM_M;
}

/* 1 when storm s can change no departure's figures: its centre, looked at
 * every PLAN_STORM_LOOK_S over its whole timeline, stays farther from every
 * sample point of the route than PLAN_STORM_NEAR_NM plus its reach then (the
 * larger of its danger radius and its 34 kt radii) plus a margin for what
 * falls between (half the sample spacing, the storm's own movement between
 * two looks). Such a storm is not compared with each departure: that is what
 * keeps the plan's cost down when the active storms are oceans away (the
 * minute-by-minute comparison of seawx/risk.h is the plan's largest cost). */
#define PLAN_STORM_LOOK_S 3600
#define PLAN_STORM_MARGIN_NM 60.0 /* a storm moves less than 60 kn: 30 nm per half look */
/* The storm's timeline is built once and walked forward with the looks (each
 * state as swx_storm_state_at gives it). 1 far, 0 near, SWX_ENOMEM. */
static int storm_far(const struct swx_storm *s, const swx_storm_danger *d,
                     const swx_plan_forecast *f)
{
    struct swx_fix *fx = NULL;
    size_t n = 0, i = 0;
    int far = 1;
    if (swx_storm_timeline(&fx, &n, s))
        return SWX_ENOMEM;
    if (!d)
        d = swx_storm_danger_default();
    int64_t first = n ? fx[0].t : 0, last = n ? fx[n - 1].t : 0;
    for (int64_t t = first; n;) {
        if (t > last)
            t = last;
        while (i + 1 < n && fx[i + 1].t < t)
            i++;
        const struct swx_fix *a = &fx[i], *b = i + 1 < n ? &fx[i + 1] : &fx[i];
        double w = b->t > a->t ? (double)(t - a->t) / (double)(b->t - a->t) : 0;
        swx_storm_state st;
        memset(&st, 0, sizeof st);
        swx_storm_state_fill(&st, d, s, a, b, w);
        double reach = fmax(st.danger_nm, st.max_r34_nm);
        double near = PLAN_STORM_NEAR_NM + reach + f->spacing_nm / 2 + PLAN_STORM_MARGIN_NM;
        for (size_t j = 0; j < f->ns; j++)
            if (gc_nm(st.lon, st.lat, f->lon[j], f->lat[j]) <= near) {
                far = 0;
                goto done;
            }
        if (t >= last)
            break;
        t += PLAN_STORM_LOOK_S;
    }
done:
    free(fx);
    return far;
}

int swx_plan_compute(swx_plan **out, swx_voyage *v, const swx_plan_forecast *f,
                     const struct swx_storm *const *storms, size_t nstorms,
                     const swx_storm_danger *d, const swx_plan_opts *o)
{
    swx_plan *p = NULL;
    double *pass = NULL;
    swx_polar_hull *hull = NULL;
    const struct swx_storm **near = NULL;
    size_t nnear = 0;
    int rc;
    *out = NULL;
    if ((rc = check_opts(o)))
        return rc;
    if (swx_voyage_timed(v))
        return swx_error_set(SWX_EINVAL, "the route gives waypoint times; a plan sails a route "
                                         "without them from each departure");
    if (!f || f->ns == 0 || f->nt == 0)
        return swx_error_set(SWX_EINVAL, "a plan needs a forecast along the route");
    double len_nm = swx_voyage_length(v) / SWX_NM_M;
    if (fabs(f->nm[f->ns - 1] - len_nm) > 0.01)
        return swx_error_set(SWX_EINVAL, "the forecast was sampled along another route");
    /* departures at or after the forecast's last time are left out */
    int64_t last = f->times[f->nt - 1];
    if ((rc = swx_plan_forecast_covers(f, o)))
        return rc;
    int64_t to = o->to < last ? o->to : last - 1;
    size_t n = (size_t)((to - o->from) / o->step) + 1, ns = f->ns;
    size_t asked = (size_t)((o->to - o->from) / o->step) + 1;
    if (o->polar && (rc = swx_polar_hull_new(&hull, o->polar, 0)))
        return rc;
    if (!(p = calloc(1, sizeof *p)) || !(p->rows = calloc(n, sizeof *p->rows)) ||
        !(p->sample_nm = malloc(ns * sizeof(double))) ||
        !(p->sample_lon = malloc(ns * sizeof(double))) ||
        !(p->sample_lat = malloc(ns * sizeof(double))) ||
        !(p->sample_course = malloc(ns * sizeof(double))) ||
        !(p->wind_kn = malloc(n * ns * sizeof(double))) ||
        !(p->wave_m = malloc(n * ns * sizeof(double))) || !(p->storm = calloc(n * ns, 1)) ||
        !(pass = malloc(ns * sizeof(double)))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    p->n = n;
    p->left_out = asked - n;
    p->ns = ns;
    p->opts = *o;
    p->length_nm = len_nm;
    p->forecast_end = f->times[f->nt - 1];
    for (size_t j = 0; j < ns; j++) {
        p->sample_nm[j] = f->nm[j];
        p->sample_lon[j] = f->lon[j];
        p->sample_lat[j] = f->lat[j];
        if (ns == 1)
            p->sample_course[j] = 0;
        else if (j + 1 < ns)
            p->sample_course[j] = bearing(f->lon[j], f->lat[j], f->lon[j + 1], f->lat[j + 1]);
        else
            p->sample_course[j] = bearing(f->lon[j - 1], f->lat[j - 1], f->lon[j], f->lat[j]);
    }
    double up = o->upwind_angle_deg > 0 ? o->upwind_angle_deg : PLAN_UPWIND_DEFAULT;
    p->opts.upwind_angle_deg = up;
    if (nstorms) {
        if (!(near = malloc(nstorms * sizeof *near))) {
            rc = swx_error_set(SWX_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t k = 0; k < nstorms; k++) {
            int far = storm_far(storms[k], d, f);
            if (far < 0) {
                rc = far;
                goto done;
            }
            if (!far)
                near[nnear++] = storms[k];
        }
    }
    for (size_t i = 0; i < n; i++) {
        swx_plan_departure *r = &p->rows[i];
        double *cw = p->wind_kn + i * ns, *cv = p->wave_m + i * ns;
        int64_t dep = o->from + (int64_t)i * o->step;
        figures a, b;
        double lo_kn, hi_kn;
        r->depart = dep;
        r->storm_cpa_nm = NAN;
        if (o->polar) {
            double arr;
            polar_track(&a, &arr, pass, f, p->sample_course, o, hull, up, len_nm, (double)dep);
            b = a;
            r->arrive_early = r->arrive_late = arr;
            for (size_t j = 0; j < ns; j++) {
                met m;
                cw[j] = cv[j] = NAN;
                if (isnan(pass[j]))
                    continue;
                meet(&m, f, j, pass[j]);
                cw[j] = m.wind_kn;
                cv[j] = m.wave_m;
            }
            /* the storms take the ship at its average speed along the track */
            lo_kn = hi_kn = isnan(arr) || arr <= dep ? o->min_kn : len_nm / ((arr - dep) / 3600);
        } else {
            constant_track(&a, f, p->sample_course, o, up, len_nm, o->min_kn, (double)dep);
            constant_track(&b, f, p->sample_course, o, up, len_nm, o->max_kn, (double)dep);
            r->arrive_late = (double)dep + len_nm / o->min_kn * 3600.0;
            r->arrive_early = (double)dep + len_nm / o->max_kn * 3600.0;
            /* a cell: the worst over the times the ship can be at the point */
            for (size_t j = 0; j < ns; j++) {
                double t0 = (double)dep + f->nm[j] / o->max_kn * 3600.0;
                double t1 = (double)dep + f->nm[j] / o->min_kn * 3600.0;
                met m;
                cw[j] = cv[j] = NAN;
                for (double t = t0;; t += SWX_PLAN_STEP_S) {
                    if (t > t1)
                        t = t1;
                    meet(&m, f, j, t);
                    cw[j] = nanmax(cw[j], m.wind_kn);
                    cv[j] = nanmax(cv[j], m.wave_m);
                    if (t >= t1)
                        break;
                }
            }
            lo_kn = o->min_kn;
            hi_kn = o->max_kn;
        }
        r->partial = a.partial || b.partial;
        r->becalmed_nm = a.becalmed_nm;
        r->max_wind_kn = nanmax(a.max_wind, b.max_wind);
        r->max_gust_kn = nanmax(a.max_gust, b.max_gust);
        r->max_wave_m = nanmax(a.max_wave, b.max_wave);
        r->hours_wind = fmax(a.h_wind, b.h_wind);
        r->hours_gust = fmax(a.h_gust, b.h_gust);
        r->hours_wave = fmax(a.h_wave, b.h_wave);
        r->hours_upwind = fmax(a.h_up, b.h_up);
        int worst = -1;
        if (nnear && lo_kn > 0) {
            if ((rc = swx_voyage_set_speed(v, dep, lo_kn, hi_kn)) ||
                (rc = storms_of(p, r, &worst, p->storm + i * ns, p->wind_kn + i * ns, v, near,
                                nnear, d, f->spacing_nm / 2)))
                goto done;
        }
        if ((rc = verdict(p, r, worst, o)))
            goto done;
        if (r->verdict != SWX_PLAN_NOGO &&
            (!p->best || swx_plan_better(r, &p->rows[p->best - 1]) < 0))
            p->best = i + 1;
    }
done:
    free(pass);
    free(near);
    swx_polar_hull_free(hull);
    if (rc) {
        swx_plan_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

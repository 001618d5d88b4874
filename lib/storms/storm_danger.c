/* storm_danger.c: the danger products of a storm (see seawx/storm_danger.h):
 * cone radii and track errors, the storm's timeline and its state at a
 * moment, and the geometry of the cone, the 1-2-3 danger area and the wind
 * swaths.
 *
 * Geometry. Each product is a chain of shapes along a track: circles (cone,
 * danger area) or the four quadrant sectors of a wind threshold (swath), one
 * at each fix. Between two fixes the centre moves and every radius changes
 * linearly, so the area a convex shape sweeps from one fix to the next is the
 * convex hull of its two ends (conv(A u B) is the union over t of (1 - t) A +
 * t B, and (1 - t) r1 S + t r2 S = ((1 - t) r1 + t r2) S for a convex S).
 * Hulls are taken in a gnomonic projection centred on a fix of the chain,
 * where great circles are straight lines, so that the common tangents are
 * great circles; their vertices are placed on the sphere (circles and arcs
 * every 10 degrees of bearing at the radius that gives the arc's area,
 * tangents cut every degree of arc). The hulls
 * of a product are then merged (GEOS unary union) in longitudes unwrapped
 * along the track, and the result is cut at the antimeridian into the bands
 * it touches (RFC 7946). */
#define GEOS_USE_ONLY_R_API
#include "seawx/storm_danger.h"

#include "convex_union.h"
#include "buf.h"
#include "seawx/error.h"
#include "seawx/sphere.h"
#include "seawx/jsonw.h"
#include "storm_danger_int.h"
#include "storm_feature.h"

#include <geos_c.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEG (M_PI / 180.0)

/* ---- settings ---- */

static const int cone_leads[SWX_CONE_NLEADS] = {12, 24, 36, 48, 60, 72, 96, 120};
static const int danger_leads[SWX_DANGER_NLEADS] = {24, 48, 72};

enum { BASIN_NA, BASIN_SA, BASIN_EP, BASIN_WP, BASIN_NI, BASIN_SI, BASIN_SP, NBASINS };
static const char *const basin_codes[NBASINS] = {"NA", "SA", "EP", "WP", "NI", "SI", "SP"};

/* Up to MAX_TABLES tables per basin, by season. */
#define MAX_TABLES 16
struct cone_table {
    int64_t season;
    double r[SWX_CONE_NLEADS];
};
struct basin_tables {
    struct cone_table t[MAX_TABLES];
    int n;
};

struct swx_storm_danger {
    struct basin_tables basin[NBASINS];
    double err[SWX_DANGER_NLEADS];
};

/* National Hurricane Center, 2023 season: two-thirds of the official track
 * errors of 2018-2022 (nm). */
static const double nhc2023_na[SWX_CONE_NLEADS] = {26, 39, 53, 67, 81, 99, 145, 205};
static const double nhc2023_ep[SWX_CONE_NLEADS] = {25, 38, 51, 63, 78, 86, 110, 137};

static void danger_defaults(swx_storm_danger *d)
{
    memset(d, 0, sizeof *d);
    for (int b = 0; b < NBASINS; b++) {
        d->basin[b].n = 1;
        d->basin[b].t[0].season = 2023;
        memcpy(d->basin[b].t[0].r, b == BASIN_EP ? nhc2023_ep : nhc2023_na, sizeof nhc2023_na);
    }
    d->err[0] = 100;
    d->err[1] = 200;
    d->err[2] = 300;
}

const swx_storm_danger *swx_storm_danger_default(void)
{
    static swx_storm_danger def;
    static int ready;
    /* Written once with the same bytes: harmless if two threads race here. */
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
        swx_storm_danger tmp;
        danger_defaults(&tmp);
        def = tmp;
        __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    }
    return &def;
}

int swx_storm_danger_new(swx_storm_danger **out)
{
    swx_storm_danger *d = malloc(sizeof *d);
    *out = d;
    if (!d)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    danger_defaults(d);
    return 0;
}

void swx_storm_danger_free(swx_storm_danger *d)
{
    free(d);
}

void swx_storm_danger_json(swx_jsonw *w, const swx_storm_danger *d)
{
    if (!d)
        d = swx_storm_danger_default();
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "cone_radii_nm");
    swx_jsonw_object_begin(w);
    for (int b = 0; b < NBASINS; b++) {
        swx_jsonw_key(w, basin_codes[b]);
        swx_jsonw_array_begin(w);
        for (int t = 0; t < d->basin[b].n; t++) {
            swx_jsonw_object_begin(w);
            swx_jsonw_key(w, "season");
            swx_jsonw_int(w, d->basin[b].t[t].season);
            swx_jsonw_key(w, "radii");
            swx_jsonw_array_begin(w);
            for (int k = 0; k < SWX_CONE_NLEADS; k++)
                swx_jsonw_number(w, d->basin[b].t[t].r[k], 3);
            swx_jsonw_array_end(w);
            swx_jsonw_object_end(w);
        }
        swx_jsonw_array_end(w);
    }
    swx_jsonw_object_end(w);
    swx_jsonw_key(w, "danger_errors_nm");
    swx_jsonw_array_begin(w);
    for (int k = 0; k < SWX_DANGER_NLEADS; k++)
        swx_jsonw_number(w, d->err[k], 3);
    swx_jsonw_array_end(w);
    swx_jsonw_object_end(w);
}

const int *swx_cone_leads(void)
{
    return cone_leads;
}

static int basin_index(const char *code, size_t n)
{
    for (int b = 0; b < NBASINS; b++)
        if (n == 2 && strncasecmp(code, basin_codes[b], 2) == 0)
            return b;
    return -1;
}

/* Reads a list of exactly n comma-separated numbers in [0, SWX_DANGER_MAX_NM]
 * from [p, end); what names the list in messages. */
static int read_numbers(double *v, int n, const char *p, const char *end, const char *what)
{
    int k = 0;
    while (p <= end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *e = comma ? comma : end;
        char num[64];
        size_t len = (size_t)(e - p);
        while (len && (*p == ' ' || *p == '\t'))
            p++, len--;
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        if (len == 0 || len >= sizeof num)
            return swx_error_set(SWX_EINVAL, "%s: an empty or overlong value", what);
        memcpy(num, p, len);
        num[len] = '\0';
        char *stop;
        double x = strtod(num, &stop);
        if (*stop || !isfinite(x))
            return swx_error_set(SWX_EINVAL, "%s: '%s' is not a number", what, num);
        if (x < 0)
            return swx_error_set(SWX_EINVAL, "%s: negative radius %s nm", what, num);
        if (x > SWX_DANGER_MAX_NM)
            return swx_error_set(SWX_EINVAL, "%s: %s nm is more than %.0f nm", what, num,
                                 SWX_DANGER_MAX_NM);
        if (k == n)
            return swx_error_set(SWX_EINVAL, "%s: more than %d values", what, n);
        v[k++] = x;
        if (!comma)
            break;
        p = comma + 1;
    }
    if (k != n)
        return swx_error_set(SWX_EINVAL, "%s: %d value%s, not %d", what, k, k == 1 ? "" : "s", n);
    return 0;
}

/* One entry of a --cone-radii text. */
struct cone_entry {
    int basin; /* NBASINS for '*' */
    struct cone_table t;
};
#define MAX_ENTRIES 64

static int parse_entry(struct cone_entry *ce, const char *p, const char *e, int entry)
{
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    const char *colon = memchr(p, ':', (size_t)(e - p));
    if (!colon)
        return swx_error_set(SWX_EINVAL,
                             "cone-radii entry %d: no ':' (BASIN[/SEASON]:R12,...,R120)", entry);
    const char *slash = memchr(p, '/', (size_t)(colon - p));
    const char *bend = slash ? slash : colon;
    while (bend > p && (bend[-1] == ' ' || bend[-1] == '\t'))
        bend--;
    size_t blen = (size_t)(bend - p);
    ce->basin = blen == 1 && *p == '*' ? NBASINS : basin_index(p, blen);
    if (ce->basin < 0)
        return swx_error_set(
            SWX_EINVAL, "cone-radii entry %d: unknown basin '%.*s' (NA SA EP WP NI SI SP or *)",
            entry, (int)(blen > 16 ? 16 : blen), p);
    ce->t.season = INT64_MIN;
    if (slash) {
        char num[16];
        size_t sl = (size_t)(colon - slash - 1);
        char *stop;
        if (sl == 0 || sl >= sizeof num)
            return swx_error_set(SWX_EINVAL, "cone-radii entry %d: bad season", entry);
        memcpy(num, slash + 1, sl);
        num[sl] = '\0';
        long y = strtol(num, &stop, 10);
        if (*stop || y < 1800 || y > 2999)
            return swx_error_set(
                SWX_EINVAL, "cone-radii entry %d: season '%s' is not a year 1800-2999", entry, num);
        ce->t.season = y;
    }
    char what[48];
    snprintf(what, sizeof what, "cone-radii entry %d", entry);
    int rc = read_numbers(ce->t.r, SWX_CONE_NLEADS, colon + 1, e, what);
    if (rc)
        return rc;
    for (int i = 1; i < SWX_CONE_NLEADS; i++)
        if (ce->t.r[i] < ce->t.r[i - 1])
            return swx_error_set(SWX_EINVAL,
                                 "%s: radii must not shrink with lead time (%g nm at %d h after %g "
                                 "nm at %d h)",
                                 what, ce->t.r[i], cone_leads[i], ce->t.r[i - 1],
                                 cone_leads[i - 1]);
    return 0;
}

int swx_storm_danger_set_cone(swx_storm_danger *d, const char *text)
{
    struct cone_entry ent[MAX_ENTRIES];
    int nent = 0;
    const char *p = text ? text : "";
    size_t total = strlen(p);
    if (total == 0)
        return swx_error_set(SWX_EINVAL, "cone-radii: empty; give BASIN:R12,R24,R36,R48,R60,R72,"
                                         "R96,R120 (nm), entries separated by ';'");
    if (total > SWX_CONE_RADII_MAX_TEXT)
        return swx_error_set(SWX_EINVAL, "cone-radii: longer than %d characters",
                             SWX_CONE_RADII_MAX_TEXT);
    const char *end_all = p + total;
    while (p < end_all) {
        const char *semi = memchr(p, ';', (size_t)(end_all - p));
        const char *e = semi ? semi : end_all;
        if (nent == MAX_ENTRIES)
            return swx_error_set(SWX_EINVAL, "cone-radii: more than %d entries", MAX_ENTRIES);
        int rc = parse_entry(&ent[nent], p, e, nent + 1);
        if (rc)
            return rc;
        for (int k = 0; k < nent; k++)
            if (ent[k].basin == ent[nent].basin && ent[k].t.season == ent[nent].t.season)
                return swx_error_set(SWX_EINVAL,
                                     "cone-radii entry %d: the same basin and season "
                                     "as entry %d",
                                     nent + 1, k + 1);
        nent++;
        p = semi ? semi + 1 : end_all;
    }
    /* A basin named in the text takes its entries; the others take the '*'
     * entries when there are some, and keep their tables otherwise. */
    swx_storm_danger nd = *d;
    for (int b = 0; b < NBASINS; b++) {
        int named = 0;
        for (int k = 0; k < nent; k++)
            named |= ent[k].basin == b;
        int want = named ? b : NBASINS, n = 0;
        for (int k = 0; k < nent; k++)
            if (ent[k].basin == want) {
                if (n == MAX_TABLES)
                    return swx_error_set(SWX_EINVAL, "cone-radii: more than %d seasons for %s",
                                         MAX_TABLES, basin_codes[b]);
                nd.basin[b].t[n++] = ent[k].t;
            }
        if (n)
            nd.basin[b].n = n;
    }
    *d = nd;
    return 0;
}

int swx_storm_danger_set_errors(swx_storm_danger *d, const char *text)
{
    double e[SWX_DANGER_NLEADS];
    const char *p = text ? text : "";
    int rc = read_numbers(e, SWX_DANGER_NLEADS, p, p + strlen(p), "danger-errors");
    if (rc)
        return rc;
    if (e[1] < e[0] || e[2] < e[1])
        return swx_error_set(SWX_EINVAL, "danger-errors: errors must not shrink with lead time");
    memcpy(d->err, e, sizeof e);
    return 0;
}

/* Linear in lead between (0, 0) and the tabled points; beyond the last, the
 * last value (hold) or the last slope (extend). */
static double table_at(const int *leads, const double *v, int n, double h, int extend)
{
    if (!(h > 0))
        return 0;
    double h0 = 0, v0 = 0;
    for (int i = 0; i < n; i++) {
        if (h <= leads[i])
            return v0 + (v[i] - v0) * (h - h0) / (leads[i] - h0);
        h0 = leads[i];
        v0 = v[i];
    }
    if (!extend)
        return v[n - 1];
    double slope = n > 1 ? (v[n - 1] - v[n - 2]) / (leads[n - 1] - leads[n - 2]) : v0 / h0;
    return v[n - 1] + slope * (h - leads[n - 1]);
}

double swx_storm_cone_radius(const swx_storm_danger *d, const char *basin, int64_t season,
                             double lead_h)
{
    if (!d)
        d = swx_storm_danger_default();
    int b = BASIN_NA;
    if (basin && strcasecmp(basin, "CP") == 0)
        b = BASIN_EP;
    else if (basin && basin_index(basin, strlen(basin)) >= 0)
        b = basin_index(basin, strlen(basin));
    const struct basin_tables *t = &d->basin[b];
    /* The newest table at or before the season; else the oldest. */
    const struct cone_table *best = NULL, *oldest = NULL;
    for (int k = 0; k < t->n; k++) {
        const struct cone_table *c = &t->t[k];
        if (!oldest || c->season < oldest->season)
            oldest = c;
        if ((c->season <= season || c->season == INT64_MIN) && (!best || c->season > best->season))
            best = c;
    }
    if (!best)
        best = oldest;
    if (!best)
        return 0;
    return table_at(cone_leads, best->r, SWX_CONE_NLEADS, lead_h, 0);
}

double swx_storm_danger_error(const swx_storm_danger *d, double lead_h)
{
    if (!d)
        d = swx_storm_danger_default();
    return table_at(danger_leads, d->err, SWX_DANGER_NLEADS, lead_h, 1);
}

/* ---- the timeline ---- */

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
static const char *cone_basin(const swx_storm *s)
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

static int64_t storm_season(const swx_storm *s)
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
static void to_vec(double v[3], double lon, double lat)
{
    double cl = cos(lat * DEG);
    v[0] = cl * cos(lon * DEG);
    v[1] = cl * sin(lon * DEG);
    v[2] = sin(lat * DEG);
}

static void from_vec(double *lon, double *lat, const double v[3])
{
    double h = hypot(v[0], v[1]);
    *lat = atan2(v[2], h) / DEG;
    *lon = h > 0 ? atan2(v[1], v[0]) / DEG : 0;
}

/* The point a fraction f of the way along the great circle from a to b. */
static void gc_interp(double *lon, double *lat, double lon1, double lat1, double lon2, double lat2,
                      double f)
{
    double a[3], b[3], v[3];
    to_vec(a, lon1, lat1);
    to_vec(b, lon2, lat2);
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
    from_vec(lon, lat, v);
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
    gc_interp(&out->lon, &out->lat, a->lon, a->lat, b->lon, b->lat, w);
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
        out->cone_nm = swx_storm_cone_radius(d, cone_basin(s), storm_season(s), out->lead_h);
        out->danger_nm = swx_storm_danger_error(d, out->lead_h) + out->max_r34_nm;
    }
}

/* ---- geometry ---- */

#define CIRCLE_STEPS 36 /* 10 degrees */
#define QUAD_STEPS 9    /* 10 degrees */
#define TANGENT_STEP (1.0 * DEG)

struct swx_danger_ws {
    GEOSContextHandle_t geos;
    double *pts; /* shape points in the plane, pairs */
    size_t npts, cpts;
    double *hull; /* pairs */
    size_t chull;
    double *ring; /* lon/lat pairs of one hull on the sphere */
    size_t cring;
    GEOSGeometry **polys;
    size_t npolys, cpolys;
    /* the output */
    double *xy;
    size_t n, cap;
    size_t *parts;
    size_t nparts, pcap;
    size_t *rings; /* rings per polygon */
    size_t nrings, rcap;
    char geos_msg[160];
    /* runs: the merged hull and the hulls of its links */
    double *rh;
    size_t crh;
    double *ph;
    size_t cph;
    size_t ph_off[64];
    /* the merge in one plane (fast_chain) */
    swx_cu *cu;
    double *mxy; /* rings on the sphere, closed, lon unwrapped */
    size_t nmxy, cmxy;
    size_t *mlen;
    size_t cmlen;
    struct frame *fr; /* the chain's frames */
    size_t cfr;
    double *sp; /* the chain's shapes, sorted, one after the other */
    size_t csp;
    size_t *soff;
    size_t csoff;
    int geos_only;    /* merge every chain with GEOS (tests) */
    size_t fallbacks; /* chains merged with GEOS after the plane merge gave up */
};

static void geos_quiet(const char *msg, void *ud)
{
    (void)msg;
    (void)ud;
}

/* The engine's last error, kept for the message (never printed). */
static void geos_error(const char *msg, void *ud)
{
    swx_danger_ws *w = ud;
    snprintf(w->geos_msg, sizeof w->geos_msg, "%s", msg ? msg : "");
}

int swx_danger_ws_new(swx_danger_ws **out)
{
    swx_danger_ws *w = calloc(1, sizeof *w);
    *out = NULL;
    if (!w)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if (swx_cu_new(&w->cu) || !(w->geos = GEOS_init_r())) {
        swx_cu_free(w->cu);
        free(w);
        return swx_error_set(SWX_ENOMEM, "cannot start the geometry engine");
    }
    GEOSContext_setErrorMessageHandler_r(w->geos, geos_error, w);
    GEOSContext_setNoticeMessageHandler_r(w->geos, geos_quiet, NULL);
    *out = w;
    return 0;
}

static void drop_polys(swx_danger_ws *w)
{
    for (size_t i = 0; i < w->npolys; i++)
        GEOSGeom_destroy_r(w->geos, w->polys[i]);
    w->npolys = 0;
}

void swx_danger_ws_geos_only(swx_danger_ws *w, int on)
{
    w->geos_only = on;
}

size_t swx_danger_ws_fallbacks(const swx_danger_ws *w)
{
    return w->fallbacks;
}

void swx_danger_ws_free(swx_danger_ws *w)
{
    if (!w)
        return;
    drop_polys(w);
    free(w->polys);
    free(w->pts);
    free(w->hull);
    free(w->ring);
    free(w->xy);
    free(w->parts);
    free(w->rings);
    free(w->rh);
    free(w->ph);
    free(w->mxy);
    free(w->mlen);
    free(w->fr);
    free(w->sp);
    free(w->soff);
    swx_cu_free(w->cu);
    GEOS_finish_r(w->geos);
    free(w);
}

/* Grows an array of elem-sized items to hold n. */
static int grow(void **p, size_t *cap, size_t n, size_t elem)
{
    void *q = swx_array_reserve(*p, cap, n, elem, 256);
    if (!q)
        return SWX_ENOMEM;
    *p = q;
    return 0;
}

/* A local frame: the unit vector of a centre and its east and north. */
struct frame {
    double u[3], e[3], n[3];
};

static void frame_at(struct frame *f, double lon, double lat)
{
    double sl = sin(lon * DEG), cl = cos(lon * DEG), sp = sin(lat * DEG), cp = cos(lat * DEG);
    f->u[0] = cp * cl;
    f->u[1] = cp * sl;
    f->u[2] = sp;
    f->e[0] = -sl;
    f->e[1] = cl;
    f->e[2] = 0;
    f->n[0] = -sp * cl;
    f->n[1] = -sp * sl;
    f->n[2] = cp;
}

/* Cosines and sines of the bearings of put_shape: circles at k of
 * CIRCLE_STEPS, quadrant q at q * 90 degrees + k of QUAD_STEPS; computed once
 * with the same expressions as before, so the vertices do not change. */
struct bearings {
    double circle[CIRCLE_STEPS][2];
    double quad[4][QUAD_STEPS + 1][2];
};

static const struct bearings *bearings(void)
{
    static struct bearings tab;
    static int ready;
    /* Written once with the same bytes: harmless if two threads race here. */
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
        struct bearings t;
        for (int k = 0; k < CIRCLE_STEPS; k++) {
            double b = k * (2 * M_PI / CIRCLE_STEPS);
            t.circle[k][0] = cos(b);
            t.circle[k][1] = sin(b);
        }
        for (int q = 0; q < 4; q++)
            for (int k = 0; k <= QUAD_STEPS; k++) {
                double b = q * (M_PI / 2) + k * (M_PI / 2 / QUAD_STEPS);
                t.quad[q][k][0] = cos(b);
                t.quad[q][k][1] = sin(b);
            }
        tab = t;
        __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    }
    return &tab;
}

/* Adds the point at the bearing of cosine cb and sine sb and the distance of
 * cosine cd and sine sd (on the unit sphere) from the centre of cf,
 * projected into the gnomonic plane of pf. */
static void put_point(swx_danger_ws *w, const struct frame *cf, const struct frame *pf, double cb,
                      double sb, double cd, double sd)
{
    double v[3];
    for (int i = 0; i < 3; i++)
        v[i] = cd * cf->u[i] + sd * (cb * cf->n[i] + sb * cf->e[i]);
    double du = v[0] * pf->u[0] + v[1] * pf->u[1] + v[2] * pf->u[2];
    if (du < 1e-6)
        du = 1e-6; /* beyond 90 degrees: never for storm-sized shapes */
    double *p = w->pts + 2 * w->npts++;
    p[0] = (v[0] * pf->e[0] + v[1] * pf->e[1] + v[2] * pf->e[2]) / du;
    p[1] = (v[0] * pf->n[0] + v[1] * pf->n[1] + v[2] * pf->n[2]) / du;
}

/* The points of one shape: a circle (q < 0) or the sector of quadrant q,
 * with the centre; radius 0 gives the centre only. */
static int put_shape(swx_danger_ws *w, const struct frame *cf, const struct frame *pf, int q,
                     double r_nm)
{
    int rc = grow((void **)&w->pts, &w->cpts, w->npts + CIRCLE_STEPS + 2, 2 * sizeof(double));
    if (rc)
        return rc;
    if (!(r_nm > 0) || q >= 0)
        put_point(w, cf, pf, 1, 0, 1, 0);
    if (!(r_nm > 0))
        return 0;
    /* Chords every step of bearing cut the arc's area by a factor
     * sin(step) / step: the vertices go out by its square root's inverse. */
    static const double step = 2 * M_PI / CIRCLE_STEPS;
    r_nm *= sqrt(step / sin(step));
    const struct bearings *bt = bearings();
    double dd = r_nm * SWX_NM_M / SWX_EARTH_RADIUS_M, cd = cos(dd), sd = sin(dd);
    if (q < 0) {
        for (int k = 0; k < CIRCLE_STEPS; k++)
            put_point(w, cf, pf, bt->circle[k][0], bt->circle[k][1], cd, sd);
    } else {
        for (int k = 0; k <= QUAD_STEPS; k++)
            put_point(w, cf, pf, bt->quad[q][k][0], bt->quad[q][k][1], cd, sd);
    }
    return 0;
}

/* 1 when point p comes before q: by x, then by y. */
static inline int xy_before(const double *p, const double *q)
{
    return p[0] < q[0] || (p[0] == q[0] && p[1] < q[1]);
}

/* Sorts n points (pairs) by x, then y, with tmp room for n more: a merge
 * sort that compares inline (a hull has some 20 to 80 points, and sorting
 * them through a callback cost as much as the rest of the hull). */
static void sort_xy(double *p, double *tmp, size_t n)
{
    double *src = p, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                const double *x =
                    xy_before(src + 2 * j, src + 2 * i) ? src + 2 * j++ : src + 2 * i++;
                dst[2 * k] = x[0];
                dst[2 * k + 1] = x[1];
                k++;
            }
            if (i < mid)
                memcpy(dst + 2 * k, src + 2 * i, (mid - i) * 2 * sizeof(double));
            else if (j < hi)
                memcpy(dst + 2 * k, src + 2 * j, (hi - j) * 2 * sizeof(double));
        }
        double *t = src;
        src = dst;
        dst = t;
    }
    if (src != p)
        memcpy(p, src, n * 2 * sizeof(double));
}

static double cross(const double *o, const double *a, const double *b)
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/* Andrew's monotone chain: the counter-clockwise hull of w->pts into
 * w->hull; returns its size (without the closing point). With sorted set,
 * the points are already in order (by x, then y). */
static int monotone_hull(swx_danger_ws *w, size_t *nh, int sorted)
{
    size_t n = w->npts;
    *nh = 0;
    int rc = grow((void **)&w->hull, &w->chull, 2 * n + 2, 2 * sizeof(double));
    if (rc)
        return rc;
    if (!sorted)
        sort_xy(w->pts, w->hull, n); /* w->hull as the scratch */
    double *h = w->hull;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        while (k >= 2 && cross(h + 2 * (k - 2), h + 2 * (k - 1), w->pts + 2 * i) <= 0)
            k--;
        memcpy(h + 2 * k++, w->pts + 2 * i, 2 * sizeof(double));
    }
    for (size_t i = n - 1, t = k + 1; i-- > 0;) {
        while (k >= t && cross(h + 2 * (k - 2), h + 2 * (k - 1), w->pts + 2 * i) <= 0)
            k--;
        memcpy(h + 2 * k++, w->pts + 2 * i, 2 * sizeof(double));
    }
    *nh = k > 1 ? k - 1 : 0;
    return 0;
}

static int convex_hull(swx_danger_ws *w, size_t *nh)
{
    return monotone_hull(w, nh, 0);
}

/* The n points of one shape of put_shape (a convex polygon, clockwise) into
 * out in order by x, then y, in linear time: its upper chain (clockwise from
 * the first point in that order to the last) merged with its lower chain
 * taken backwards. Returns 0 when the points turn out not to be in order
 * (a shape of radius near 0, where rounding decides): the caller sorts. */
static int shape_sorted(double *out, const double *p, size_t n)
{
    size_t lo = 0, hi = 0;
    for (size_t i = 1; i < n; i++) {
        if (xy_before(p + 2 * i, p + 2 * lo))
            lo = i;
        if (xy_before(p + 2 * hi, p + 2 * i))
            hi = i;
    }
    size_t nu = (hi + n - lo) % n + 1; /* lo .. hi clockwise, both included */
    size_t nl = n - nu;                /* after hi .. before lo, walked back */
    size_t a = 0, b = 0, k = 0;
    while (a < nu || b < nl) {
        const double *pu = p + 2 * ((lo + a) % n), *pl = p + 2 * ((lo + n - 1 - b) % n);
        const double *x = b >= nl || (a < nu && !xy_before(pl, pu)) ? (a++, pu) : (b++, pl);
        if (k && xy_before(x, out + 2 * k - 2))
            return 0;
        out[2 * k] = x[0];
        out[2 * k + 1] = x[1];
        k++;
    }
    return 1;
}

/* Merges the sorted points a (na) and b (nb) into w->pts. */
static int merge_sorted(swx_danger_ws *w, const double *a, size_t na, const double *b, size_t nb)
{
    int rc = grow((void **)&w->pts, &w->cpts, na + nb, 2 * sizeof(double));
    if (rc)
        return rc;
    size_t i = 0, j = 0, k = 0;
    while (i < na || j < nb) {
        const double *x =
            j >= nb || (i < na && !xy_before(b + 2 * j, a + 2 * i)) ? a + 2 * i++ : b + 2 * j++;
        w->pts[2 * k] = x[0];
        w->pts[2 * k + 1] = x[1];
        k++;
    }
    w->npts = k;
    return 0;
}

/* Extra vertices of a hull edge of plane length len (at most 1000). */
static size_t edge_steps(double len)
{
    double k = len / TANGENT_STEP;
    return !(k < 1000) ? 1000 : (size_t)k;
}

/* 1 when the hull (counter-clockwise) holds the projection of a pole: its
 * ring in longitude and latitude would not be a simple polygon. */
static int hull_has_pole(const swx_danger_ws *w, const struct frame *pf, size_t nh)
{
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        double du = sgn * pf->u[2];
        if (du <= 1e-9)
            continue; /* the pole is behind the plane's hemisphere */
        double pt[2] = {sgn * pf->e[2] / du, sgn * pf->n[2] / du};
        int inside = 1;
        for (size_t i = 0; i < nh && inside; i++)
            inside = cross(w->hull + 2 * i, w->hull + 2 * ((i + 1) % nh), pt) >= 0;
        if (inside)
            return 1;
    }
    return 0;
}

/* The hull as a polygon in longitudes unwrapped near ref: each edge cut
 * into arcs of at most TANGENT_STEP (straight in the plane = great circle).
 * A hull around a pole is left out: storms never come near one. */
static int hull_polygon(swx_danger_ws *w, const struct frame *pf, size_t nh, double ref)
{
    if (nh < 3 || hull_has_pole(w, pf, nh))
        return 0;
    size_t need = 1;
    const double *h = w->hull;
    for (size_t i = 0; i < nh; i++) {
        const double *a = h + 2 * i, *b = h + 2 * ((i + 1) % nh);
        double len = hypot(b[0] - a[0], b[1] - a[1]);
        need += 1 + edge_steps(len);
    }
    int rc = grow((void **)&w->ring, &w->cring, need + 1, 2 * sizeof(double));
    if (rc)
        return rc;
    size_t m = 0;
    for (size_t i = 0; i < nh; i++) {
        const double *a = h + 2 * i, *b = h + 2 * ((i + 1) % nh);
        double len = hypot(b[0] - a[0], b[1] - a[1]);
        size_t steps = 1 + edge_steps(len);
        for (size_t k = 0; k < steps; k++) {
            double f = (double)k / (double)steps;
            double x = a[0] + (b[0] - a[0]) * f, y = a[1] + (b[1] - a[1]) * f, v[3];
            for (int j = 0; j < 3; j++)
                v[j] = pf->u[j] + x * pf->e[j] + y * pf->n[j];
            double lon, lat;
            from_vec(&lon, &lat, v);
            lon += 360.0 * floor((ref - lon + 180) / 360.0);
            w->ring[2 * m] = lon;
            w->ring[2 * m + 1] = lat;
            m++;
        }
    }
    w->ring[2 * m] = w->ring[0];
    w->ring[2 * m + 1] = w->ring[1];
    m++;
    if ((rc = grow((void **)&w->polys, &w->cpolys, w->npolys + 1, sizeof *w->polys)))
        return rc;
    GEOSCoordSequence *cs = GEOSCoordSeq_copyFromBuffer_r(w->geos, w->ring, m, 0, 0);
    GEOSGeometry *lr = cs ? GEOSGeom_createLinearRing_r(w->geos, cs) : NULL;
    GEOSGeometry *poly = lr ? GEOSGeom_createPolygon_r(w->geos, lr, NULL, 0) : NULL;
    if (!poly) {
        if (lr)
            GEOSGeom_destroy_r(w->geos, lr);
        else if (cs)
            GEOSCoordSeq_destroy_r(w->geos, cs);
        return swx_error_set(SWX_ENOMEM, "the geometry engine could not build a polygon");
    }
    w->polys[w->npolys++] = poly;
    return 0;
}

/* One link of a chain: the hull of the shapes at two centres (lon unwrapped),
 * or the shape alone when b is NULL. q < 0: circles; else quadrant q. */
static int link(swx_danger_ws *w, const double *a, double ra, const double *b, double rb, int q)
{
    struct frame fa, fb, pf;
    frame_at(&fa, a[0], a[1]);
    if (b) {
        double mlon, mlat;
        gc_interp(&mlon, &mlat, a[0], a[1], b[0], b[1], 0.5);
        frame_at(&fb, b[0], b[1]);
        frame_at(&pf, mlon, mlat);
    } else {
        pf = fa;
    }
    w->npts = 0;
    int rc = put_shape(w, &fa, &pf, q, ra);
    if (!rc && b)
        rc = put_shape(w, &fb, &pf, q, rb);
    size_t nh;
    if (!rc)
        rc = convex_hull(w, &nh);
    if (!rc)
        rc = hull_polygon(w, &pf, nh, a[0]);
    return rc;
}

/* ---- output rings ---- */

static inline double r6(double v)
{
    double r = nearbyint(v * 1e6) / 1e6;
    return r == 0 ? 0 : r;
}

static void out_reset(swx_danger_ws *w)
{
    w->n = w->nparts = w->nrings = 0;
}

/* Adds a ring of n pairs (closed), shifted by -shift in longitude, rounded
 * and deduplicated; outer rings counter-clockwise, holes clockwise. Returns
 * 1 when kept, 0 when it degenerated. */
static int out_ring(swx_danger_ws *w, const double *r, size_t n, double shift, int hole, int *kept)
{
    *kept = 0;
    int rc = grow((void **)&w->xy, &w->cap, w->n + n, 2 * sizeof(double));
    if (!rc)
        rc = grow((void **)&w->parts, &w->pcap, w->nparts + 1, sizeof(size_t));
    if (rc)
        return rc;
    double *p = w->xy + 2 * w->n;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        double x = r6(r[2 * i] - shift), y = r6(r[2 * i + 1]);
        if (x > 180)
            x = 180;
        if (x < -180)
            x = -180;
        if (k && p[2 * k - 2] == x && p[2 * k - 1] == y)
            continue;
        p[2 * k] = x;
        p[2 * k + 1] = y;
        k++;
    }
    if (k < 4 || p[0] != p[2 * k - 2] || p[1] != p[2 * k - 1])
        return 0;
    double a = 0;
    for (size_t i = 0; i + 1 < k; i++)
        a += p[2 * i] * p[2 * i + 3] - p[2 * i + 2] * p[2 * i + 1];
    if (a == 0)
        return 0;
    if ((a < 0) != (hole != 0))
        swx_ring_reverse(p, k);
    w->parts[w->nparts++] = k;
    w->n += k;
    *kept = 1;
    return 0;
}

static int ring_of(swx_danger_ws *w, const GEOSGeometry *ring, double shift, int hole, int *kept)
{
    const GEOSCoordSequence *cs = GEOSGeom_getCoordSeq_r(w->geos, ring);
    unsigned int n = 0;
    *kept = 0;
    if (!cs || !GEOSCoordSeq_getSize_r(w->geos, cs, &n))
        return swx_error_set(SWX_ENOMEM, "the geometry engine failed");
    int rc = grow((void **)&w->ring, &w->cring, n + 1, 2 * sizeof(double));
    if (rc)
        return rc;
    if (n && !GEOSCoordSeq_copyToBuffer_r(w->geos, cs, w->ring, 0, 0))
        return swx_error_set(SWX_ENOMEM, "the geometry engine failed");
    return out_ring(w, w->ring, n, shift, hole, kept);
}

/* The polygons of g (a Polygon or a collection of them) into the output. */
static int out_polygons(swx_danger_ws *w, const GEOSGeometry *g, double shift)
{
    int type = GEOSGeomTypeId_r(w->geos, g);
    if (type == GEOS_MULTIPOLYGON || type == GEOS_GEOMETRYCOLLECTION) {
        int k = GEOSGetNumGeometries_r(w->geos, g);
        for (int i = 0; i < k; i++) {
            int rc = out_polygons(w, GEOSGetGeometryN_r(w->geos, g, i), shift);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (type != GEOS_POLYGON || GEOSisEmpty_r(w->geos, g) == 1)
        return 0;
    int kept, rc = grow((void **)&w->rings, &w->rcap, w->nrings + 1, sizeof(size_t));
    if (!rc)
        rc = ring_of(w, GEOSGetExteriorRing_r(w->geos, g), shift, 0, &kept);
    if (rc || !kept)
        return rc;
    size_t nr = 1;
    int holes = GEOSGetNumInteriorRings_r(w->geos, g);
    for (int i = 0; i < holes; i++) {
        if ((rc = ring_of(w, GEOSGetInteriorRingN_r(w->geos, g, i), shift, 1, &kept)))
            return rc;
        nr += (size_t)kept;
    }
    w->rings[w->nrings++] = nr;
    return 0;
}

/* The bands of longitude [-180, 180] + 360 j, j0 <= j <= j1, that minx..maxx
 * (unwrapped) touches. */
static void bands(int *j0, int *j1, double minx, double maxx)
{
    *j0 = (int)floor((minx + 180) / 360);
    *j1 = (int)floor((maxx + 180) / 360);
    if (maxx == 180.0 + 360.0 * *j1 && *j1 > *j0)
        (*j1)--;
}

/* The merged polygons u (longitudes unwrapped) into the output, cut at the
 * antimeridian into the bands they touch. */
static int cut_output(swx_danger_ws *w, const GEOSGeometry *u)
{
    double minx, maxx;
    if (!GEOSGeom_getXMin_r(w->geos, u, &minx) || !GEOSGeom_getXMax_r(w->geos, u, &maxx))
        return 0; /* empty */
    int j0, j1, rc = 0;
    bands(&j0, &j1, minx, maxx);
    if (j0 == j1)
        return out_polygons(w, u, 360.0 * j0);
    for (int j = j0; j <= j1 && !rc; j++) {
        GEOSGeometry *c = GEOSClipByRect_r(w->geos, u, -180 + 360.0 * j, -90, 180 + 360.0 * j, 90);
        if (!c)
            return swx_error_set(SWX_ENOMEM, "the geometry engine could not cut at 180 degrees");
        rc = out_polygons(w, c, 360.0 * j);
        GEOSGeom_destroy_r(w->geos, c);
    }
    return rc;
}

/* Unions the links gathered and cuts the union at the antimeridian. */
static int finish_union(swx_danger_ws *w)
{
    int rc = 0;
    GEOSGeometry *coll = NULL, *u = NULL;
    out_reset(w);
    if (!w->npolys)
        return 0;
    coll = GEOSGeom_createCollection_r(w->geos, GEOS_GEOMETRYCOLLECTION, w->polys,
                                       (unsigned)w->npolys);
    if (!coll) {
        rc = swx_error_set(SWX_ENOMEM, "the geometry engine could not collect the polygons");
        goto done;
    }
    w->npolys = 0; /* coll owns them */
    /* Hulls are valid by construction; should the engine still trip on a
     * near-degenerate one, merging on the output's 1e-6 degree grid settles it. */
    if ((u = GEOSUnaryUnion_r(w->geos, coll)) || (u = GEOSUnaryUnionPrec_r(w->geos, coll, 1e-6)))
        rc = cut_output(w, u);
    /* else no geometry rather than a wrong one */
done:
    if (u)
        GEOSGeom_destroy_r(w->geos, u);
    if (coll)
        GEOSGeom_destroy_r(w->geos, coll);
    drop_polys(w);
    return rc;
}

/* Centres with longitudes unwrapped along the chain, in place. */
static void unwrap(double *c, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        double d = c[2 * i] - c[2 * i - 2];
        c[2 * i] = c[2 * i - 2] + d - 360.0 * floor((d + 180) / 360.0);
    }
}

/* Runs. Merging is what costs: a swath of the archive has some 45 fixes and
 * four quadrants, 180 links to merge. Along a track that runs straight,
 * several links have one convex hull, so consecutive links are taken as one
 * hull as long as that hull reaches no further than RUN_TOL of the largest
 * radius of the run beyond the links it replaces (tested at points along
 * each of its edges). */
#define RUN_MAX 16
#define RUN_TOL 0.01
#define RUN_SAMPLES 6

/* The hull of shapes i..j (radius r[k * nq + qi], quadrant q) in the plane
 * of pf, into w->hull; with extra (n pairs) points added first. */
static int shapes_hull(swx_danger_ws *w, const double *c, const double *r, int nq, int qi, int q,
                       size_t i, size_t j, const struct frame *pf, const double *extra, size_t n,
                       size_t *nh)
{
    w->npts = 0;
    int rc = grow((void **)&w->pts, &w->cpts, n + 1, 2 * sizeof(double));
    if (rc)
        return rc;
    if (n)
        memcpy(w->pts, extra, n * 2 * sizeof(double));
    w->npts = n;
    for (size_t k = i; k <= j; k++) {
        struct frame fk;
        frame_at(&fk, c[2 * k], c[2 * k + 1]);
        if ((rc = put_shape(w, &fk, pf, q, r[k * nq + qi])))
            return rc;
    }
    return convex_hull(w, nh);
}

/* Appends the edges of w->hull (nh, counter-clockwise) as inward unit
 * normals and offsets (nx, ny, c: inside when nx x + ny y + c >= 0) to the
 * link hulls of the run, as link k. */
static int add_link_edges(swx_danger_ws *w, size_t k, size_t nh)
{
    size_t at = k ? w->ph_off[k] : 0;
    int rc = grow((void **)&w->ph, &w->cph, 3 * (at + nh) / 2 + 2, 2 * sizeof(double));
    if (rc)
        return rc;
    double *e = w->ph + 3 * at;
    for (size_t v = 0; v < nh; v++) {
        const double *p0 = w->hull + 2 * v, *p1 = w->hull + 2 * ((v + 1) % nh);
        double dx = p1[0] - p0[0], dy = p1[1] - p0[1], len = hypot(dx, dy);
        if (len == 0)
            len = 1;
        e[3 * v] = -dy / len;
        e[3 * v + 1] = dx / len;
        e[3 * v + 2] = -(e[3 * v] * p0[0] + e[3 * v + 1] * p0[1]);
    }
    w->ph_off[k] = at;
    w->ph_off[k + 1] = at + nh;
    return 0;
}

/* Whether the hull in w->hull (nh) reaches no further than tol beyond the
 * links 0..nlinks-1 (tested at points along its edges). */
static int hull_fits(const swx_danger_ws *w, size_t nh, size_t nlinks, double tol)
{
    size_t last = 0;
    for (size_t e = 0; e < nh; e++) {
        const double *a = w->hull + 2 * e, *b = w->hull + 2 * ((e + 1) % nh);
        for (int sm = 1; sm < RUN_SAMPLES; sm++) {
            double x = a[0] + (b[0] - a[0]) * sm / RUN_SAMPLES;
            double y = a[1] + (b[1] - a[1]) * sm / RUN_SAMPLES;
            int in_any = 0;
            for (size_t t = 0; t < nlinks && !in_any; t++) {
                size_t k = (last + t) % nlinks; /* the link that held the last point first */
                const double *ed = w->ph + 3 * w->ph_off[k];
                size_t m = w->ph_off[k + 1] - w->ph_off[k];
                int in = m >= 3;
                for (size_t v = 0; v < m && in; v++)
                    in = ed[3 * v] * x + ed[3 * v + 1] * y + ed[3 * v + 2] >= -tol;
                if (in) {
                    in_any = 1;
                    last = k;
                }
            }
            if (!in_any)
                return 0;
        }
    }
    return 1;
}

/* Angle (degrees) between two positions. */
static double angle_deg(const double *a, const double *b)
{
    double va[3], vb[3];
    to_vec(va, a[0], a[1]);
    to_vec(vb, b[0], b[1]);
    double d = va[0] * vb[0] + va[1] * vb[1] + va[2] * vb[2];
    return acos(d > 1 ? 1 : d < -1 ? -1 : d) / DEG;
}

/* A link longer than LINK_MAX_DEG (a storm never moves so far between two
 * fixes) is left out, and a run reaches at most RUN_MAX_DEG from its first
 * fix: shapes then stay well inside the gnomonic plane's hemisphere. */
#define LINK_MAX_DEG 40.0
#define RUN_MAX_DEG 20.0

/* ---- the merge in one plane ----
 *
 * A chain whose centres all lie within FAST_MAX_DEG of their mean is built
 * in one gnomonic plane centred there (great circles stay straight lines
 * anywhere in it, so each link's hull is still the spherical one) and its
 * link hulls are merged by convex_union.c; a chain that reaches further, or
 * whose union that method cannot trace, is merged by GEOS as below. */
#define FAST_MAX_DEG 60.0
#define FAST_MAX_RADIUS_DEG 15.0

/* The rings of the union (plane) onto the sphere into w->mxy, closed, each
 * edge cut into arcs of at most TANGENT_STEP, longitudes unwrapped from
 * ref along each ring. */
static int rings_to_sphere(swx_danger_ws *w, const struct frame *pf, size_t nrings,
                           const size_t *ring_len, const double *xy, double ref, double *minx,
                           double *maxx)
{
    size_t need = 0;
    w->nmxy = 0;
    *minx = INFINITY;
    *maxx = -INFINITY;
    int rc = grow((void **)&w->mlen, &w->cmlen, nrings + 1, sizeof(size_t));
    if (rc)
        return rc;
    const double *p = xy;
    for (size_t k = 0; k < nrings; p += 2 * ring_len[k], k++) {
        size_t n = ring_len[k];
        need = 1;
        for (size_t i = 0; i < n; i++) {
            const double *a = p + 2 * i, *b = p + 2 * ((i + 1) % n);
            need += 1 + edge_steps(hypot(b[0] - a[0], b[1] - a[1]));
        }
        if ((rc = grow((void **)&w->mxy, &w->cmxy, w->nmxy + need, 2 * sizeof(double))))
            return rc;
        double *o = w->mxy + 2 * w->nmxy, last = ref;
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            const double *a = p + 2 * i, *b = p + 2 * ((i + 1) % n);
            size_t steps = 1 + edge_steps(hypot(b[0] - a[0], b[1] - a[1]));
            for (size_t s = 0; s < steps; s++) {
                double f = (double)s / (double)steps, v[3], lon, lat;
                double x = a[0] + (b[0] - a[0]) * f, y = a[1] + (b[1] - a[1]) * f;
                for (int j = 0; j < 3; j++)
                    v[j] = pf->u[j] + x * pf->e[j] + y * pf->n[j];
                from_vec(&lon, &lat, v);
                lon += 360.0 * floor((last - lon + 180) / 360.0);
                last = lon;
                o[2 * m] = lon;
                o[2 * m + 1] = lat;
                *minx = fmin(*minx, lon);
                *maxx = fmax(*maxx, lon);
                m++;
            }
        }
        o[2 * m] = o[0];
        o[2 * m + 1] = o[1];
        m++;
        w->mlen[k] = m;
        w->nmxy += m;
    }
    return 0;
}

/* The rings of w->mxy (npolys polygons of poly_rings[i] rings) as GEOS
 * polygons, cut at the antimeridian into the output. */
static int cut_rings(swx_danger_ws *w, size_t npolys, const size_t *poly_rings)
{
    int rc = 0;
    size_t most = 1;
    for (size_t i = 0; i < npolys; i++)
        most = poly_rings[i] > most ? poly_rings[i] : most;
    GEOSGeometry **polys = calloc(npolys + 1, sizeof *polys), *mp = NULL;
    GEOSGeometry **rings = malloc(most * sizeof *rings);
    size_t k = 0, at = 0;
    if (!polys || !rings) {
        free(polys);
        free(rings);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < npolys && !rc; i++) {
        size_t nr = poly_rings[i];
        size_t made = 0;
        for (; made < nr; made++) {
            GEOSCoordSequence *cs =
                GEOSCoordSeq_copyFromBuffer_r(w->geos, w->mxy + 2 * at, w->mlen[k], 0, 0);
            at += w->mlen[k++];
            if (!cs || !(rings[made] = GEOSGeom_createLinearRing_r(w->geos, cs))) {
                if (cs)
                    GEOSCoordSeq_destroy_r(w->geos, cs);
                break;
            }
        }
        if (made == nr &&
            (polys[i] = GEOSGeom_createPolygon_r(w->geos, rings[0], rings + 1, (unsigned)nr - 1)))
            continue;
        for (size_t r = 0; r < made; r++)
            GEOSGeom_destroy_r(w->geos, rings[r]);
        rc = swx_error_set(SWX_ENOMEM, "the geometry engine could not build a polygon");
    }
    if (!rc &&
        !(mp = GEOSGeom_createCollection_r(w->geos, GEOS_MULTIPOLYGON, polys, (unsigned)npolys)))
        rc = swx_error_set(SWX_ENOMEM, "the geometry engine could not collect the polygons");
    if (mp) {
        rc = cut_output(w, mp);
        GEOSGeom_destroy_r(w->geos, mp);
    } else {
        for (size_t i = 0; i < npolys; i++)
            if (polys[i])
                GEOSGeom_destroy_r(w->geos, polys[i]);
    }
    free(polys);
    free(rings);
    return rc;
}

/* The cosine of the angle between the centres of frames f[0] and f[1]. */
static inline double link_cos(const struct frame *f)
{
    return f[0].u[0] * f[1].u[0] + f[0].u[1] * f[1].u[1] + f[0].u[2] * f[1].u[2];
}

/* The chain of chain() below, merged in one plane; *done 0 when the chain
 * is not for this method (GEOS merges it then). */
static int fast_chain(swx_danger_ws *w, const double *c, const double *r, size_t n, int nq,
                      int *done)
{
    *done = 0;
    double m[3] = {0, 0, 0}, v[3], rmax = 0;
    for (size_t i = 0; i < n; i++) {
        to_vec(v, c[2 * i], c[2 * i + 1]);
        for (int k = 0; k < 3; k++)
            m[k] += v[k];
    }
    for (size_t i = 0; i < n * (size_t)nq; i++)
        rmax = fmax(rmax, r[i]);
    double len = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
    if (!(len > 1e-9) || rmax * SWX_NM_M / SWX_EARTH_RADIUS_M > FAST_MAX_RADIUS_DEG * DEG)
        return 0;
    double clon, clat, far = cos(FAST_MAX_DEG * DEG);
    for (int k = 0; k < 3; k++)
        m[k] /= len;
    from_vec(&clon, &clat, m);
    clon += 360.0 * floor((c[0] - clon + 180) / 360.0);
    struct frame pf;
    frame_at(&pf, clon, clat);
    for (size_t i = 0; i < n; i++) {
        to_vec(v, c[2 * i], c[2 * i + 1]);
        if (v[0] * pf.u[0] + v[1] * pf.u[1] + v[2] * pf.u[2] < far)
            return 0;
    }
    swx_cu_reset(w->cu);
    double bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
    int rc = grow((void **)&w->fr, &w->cfr, n, sizeof *w->fr);
    if (!rc)
        rc = grow((void **)&w->soff, &w->csoff, n + 1, sizeof(size_t));
    if (!rc)
        rc = grow((void **)&w->sp, &w->csp, n * (CIRCLE_STEPS + 2), 2 * sizeof(double));
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++)
        frame_at(&w->fr[i], c[2 * i], c[2 * i + 1]);
    const double cos_link_max = cos(LINK_MAX_DEG * DEG);
    for (int qi = 0; qi < nq && !rc; qi++) {
        int q = nq == 1 ? -1 : qi;
        /* each fix's shape, projected once, in order by x then y */
        w->soff[0] = 0;
        for (size_t i = 0; i < n && !rc; i++) {
            w->npts = 0;
            rc = put_shape(w, &w->fr[i], &pf, q, r[i * nq + qi]);
            double *out = w->sp + 2 * w->soff[i];
            if (!rc && !shape_sorted(out, w->pts, w->npts)) {
                rc = grow((void **)&w->hull, &w->chull, w->npts, 2 * sizeof(double));
                if (!rc) {
                    sort_xy(w->pts, w->hull, w->npts);
                    memcpy(out, w->pts, w->npts * 2 * sizeof(double));
                }
            }
            w->soff[i + 1] = w->soff[i] + w->npts;
        }
        for (size_t i = 0; (i + 1 < n || (n == 1 && i == 0)) && !rc; i++) {
            size_t nh;
            const double *b = i + 1 < n ? c + 2 * i + 2 : NULL;
            double ra = r[i * nq + qi], rb = b ? r[(i + 1) * nq + qi] : 0;
            if (b ? (!(ra > 0) && !(rb > 0)) || link_cos(w->fr + i) < cos_link_max : !(ra > 0))
                continue;
            const double *sa = w->sp + 2 * w->soff[i];
            size_t na = w->soff[i + 1] - w->soff[i], nb = b ? w->soff[i + 2] - w->soff[i + 1] : 0;
            if ((rc = merge_sorted(w, sa, na, sa + 2 * na, nb)) ||
                (rc = monotone_hull(w, &nh, 1)) || nh < 3)
                continue;
            for (size_t k = 0; k < nh; k++) {
                const double *p = w->hull + 2 * k;
                bx0 = p[0] < bx0 ? p[0] : bx0;
                bx1 = p[0] > bx1 ? p[0] : bx1;
                by0 = p[1] < by0 ? p[1] : by0;
                by1 = p[1] > by1 ? p[1] : by1;
            }
            rc = swx_cu_add(w->cu, w->hull, nh);
        }
    }
    if (rc)
        return rc;
    /* A pole inside: its ring in longitude and latitude would not be simple
     * (GEOS's way leaves such a hull out). */
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        double du = sgn * pf.u[2];
        if (du > 1e-9) {
            double px = sgn * pf.e[2] / du, py = sgn * pf.n[2] / du;
            if (px >= bx0 && px <= bx1 && py >= by0 && py <= by1)
                return 0;
        }
    }
    size_t npolys;
    const size_t *poly_rings, *ring_len;
    const double *xy;
    rc = swx_cu_union(w->cu, &npolys, &poly_rings, &ring_len, &xy);
    if (rc == 1) {
        swx_error_clear();
        w->fallbacks++;
        return 0;
    }
    if (rc)
        return rc;
    *done = 1;
    out_reset(w);
    size_t nrings = 0;
    for (size_t i = 0; i < npolys; i++)
        nrings += poly_rings[i];
    double minx, maxx;
    if ((rc = rings_to_sphere(w, &pf, nrings, ring_len, xy, clon, &minx, &maxx)) || !nrings)
        return rc;
    int j0, j1;
    bands(&j0, &j1, minx, maxx);
    if (j0 != j1)
        return cut_rings(w, npolys, poly_rings);
    const double *ring = w->mxy;
    size_t k = 0;
    for (size_t i = 0; i < npolys && !rc; i++) {
        int kept;
        size_t nr = 0;
        if ((rc = grow((void **)&w->rings, &w->rcap, w->nrings + 1, sizeof(size_t))))
            break;
        for (size_t h = 0; h < poly_rings[i] && !rc; h++, k++) {
            if (h == 0 || nr) {
                rc = out_ring(w, ring, w->mlen[k], 360.0 * j0, h > 0, &kept);
                nr += (size_t)kept;
            }
            ring += 2 * w->mlen[k];
        }
        if (nr)
            w->rings[w->nrings++] = nr;
    }
    return rc;
}

/* A chain of n shapes: centres c (pairs), radii r[i * nq + qi] for
 * quadrants (nq = 4) or circles (nq = 1, q = -1). Runs are built in the
 * plane of their first fix. */
static int chain(swx_danger_ws *w, double *c, const double *r, size_t n, int nq)
{
    int rc = 0, done = 0;
    unwrap(c, n);
    drop_polys(w);
    if (!w->geos_only && ((rc = fast_chain(w, c, r, n, nq, &done)) || done))
        return rc;
    for (int qi = 0; qi < nq && !rc; qi++) {
        int q = nq == 1 ? -1 : qi;
        if (n == 1) {
            if (r[qi] > 0)
                rc = link(w, c, r[qi], NULL, 0, q);
            continue;
        }
        size_t i = 0;
        while (i + 1 < n && !rc) {
            if ((!(r[i * nq + qi] > 0) && !(r[(i + 1) * nq + qi] > 0)) ||
                angle_deg(c + 2 * i, c + 2 * i + 2) > LINK_MAX_DEG) {
                i++;
                continue;
            }
            struct frame pf;
            size_t nh, nr;
            frame_at(&pf, c[2 * i], c[2 * i + 1]);
            if ((rc = shapes_hull(w, c, r, nq, qi, q, i, i + 1, &pf, NULL, 0, &nh)) ||
                (rc = add_link_edges(w, 0, nh)) ||
                (rc = grow((void **)&w->rh, &w->crh, nh + 1, 2 * sizeof(double))))
                break;
            memcpy(w->rh, w->hull, nh * 2 * sizeof(double));
            nr = nh;
            double rmax = fmax(r[i * nq + qi], r[(i + 1) * nq + qi]);
            size_t j = i + 1;
            while (j + 1 < n && j + 1 - i < RUN_MAX &&
                   (r[j * nq + qi] > 0 || r[(j + 1) * nq + qi] > 0) &&
                   angle_deg(c + 2 * i, c + 2 * j + 2) <= RUN_MAX_DEG) {
                size_t k = j - i; /* the new link's index in the run */
                if ((rc = shapes_hull(w, c, r, nq, qi, q, j, j + 1, &pf, NULL, 0, &nh)) ||
                    (rc = add_link_edges(w, k, nh)))
                    break;
                double rm = fmax(rmax, r[(j + 1) * nq + qi]);
                if ((rc = shapes_hull(w, c, r, nq, qi, q, j + 1, j + 1, &pf, w->rh, nr, &nh)))
                    break;
                if (!hull_fits(w, nh, k + 1, RUN_TOL * rm * SWX_NM_M / SWX_EARTH_RADIUS_M))
                    break;
                if ((rc = grow((void **)&w->rh, &w->crh, nh + 1, 2 * sizeof(double))))
                    break;
                memcpy(w->rh, w->hull, nh * 2 * sizeof(double));
                nr = nh;
                rmax = rm;
                j++;
            }
            if (rc)
                break;
            if ((rc = grow((void **)&w->hull, &w->chull, nr + 1, 2 * sizeof(double))))
                break;
            memcpy(w->hull, w->rh, nr * 2 * sizeof(double));
            rc = hull_polygon(w, &pf, nr, c[2 * i]);
            i = j;
        }
    }
    if (!rc)
        rc = finish_union(w);
    return rc;
}

/* The forecast chain: the last observed position (lead 0) and the forecast
 * positions after it. Fills centres (pairs) and leads; returns the count. */
static size_t forecast_chain(const struct swx_fix *f, size_t n, size_t *first)
{
    size_t i = 0;
    while (i < n && !f[i].forecast)
        i++;
    if (i == n)
        return 0;
    *first = i > 0 ? i - 1 : i;
    return n - *first;
}

int swx_danger_build(swx_danger_ws *w, const swx_storm_danger *d, const swx_storm *s, int kind,
                     int forecast, int threshold, swx_danger_info *info)
{
    struct swx_fix *f = NULL;
    double *c = NULL, *r = NULL;
    size_t n, first = 0, m;
    int rc;
    if (!d)
        d = swx_storm_danger_default();
    memset(info, 0, sizeof *info);
    out_reset(w);
    if ((rc = swx_storm_timeline(&f, &n, s)))
        return rc;
    if (kind == SWX_SK_WIND_SWATH && !forecast) {
        first = 0;
        m = 0;
        while (m < n && !f[m].forecast)
            m++;
    } else {
        m = forecast_chain(f, n, &first);
    }
    if (!m)
        goto done;
    int nq = kind == SWX_SK_WIND_SWATH ? 4 : 1;
    c = malloc(2 * m * sizeof *c);
    r = malloc((size_t)nq * m * sizeof *r);
    if (!c || !r) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    const char *basin = cone_basin(s);
    int64_t season = storm_season(s);
    info->start_time = f[first].t;
    info->end_time = f[first + m - 1].t;
    info->max_lead_h = f[first + m - 1].lead_h;
    for (size_t i = 0; i < m; i++) {
        const struct swx_fix *x = &f[first + i];
        double lead = x->forecast ? x->lead_h : 0;
        c[2 * i] = x->lon;
        c[2 * i + 1] = x->lat;
        if (kind == SWX_SK_WIND_SWATH) {
            for (int q = 0; q < 4; q++) {
                r[4 * i + q] = x->r[threshold][q];
                if (r[4 * i + q] > info->max_nm)
                    info->max_nm = r[4 * i + q];
            }
        } else {
            double r34 = 0;
            for (int q = 0; q < 4; q++)
                r34 = x->r[0][q] > r34 ? x->r[0][q] : r34;
            r[i] = kind == SWX_SK_CONE ? swx_storm_cone_radius(d, basin, season, lead)
                                       : swx_storm_danger_error(d, lead) + r34;
            if (r[i] > info->max_nm)
                info->max_nm = r[i];
        }
    }
    if (info->max_nm > 0)
        rc = chain(w, c, r, m, nq);
done:
    free(f);
    free(c);
    free(r);
    return rc;
}

int swx_danger_exists(const swx_storm *s, int kind, int forecast, int threshold)
{
    /* Mirrors swx_danger_build without geometry: a product exists when its
     * chain has a radius > 0 somewhere. */
    struct swx_fix *f;
    size_t n, first = 0, m;
    if (swx_storm_timeline(&f, &n, s)) {
        swx_error_clear();
        return 0;
    }
    int yes = 0;
    if (kind == SWX_SK_WIND_SWATH && !forecast) {
        for (m = 0; m < n && !f[m].forecast; m++)
            ;
    } else {
        m = forecast_chain(f, n, &first);
    }
    if (kind == SWX_SK_WIND_SWATH) {
        for (size_t i = first; i < first + m && !yes; i++)
            for (int q = 0; q < 4; q++)
                yes |= f[i].r[threshold][q] > 0;
    } else {
        /* The last lead is > 0 whenever the chain has two fixes, and every
         * table radius and error is > 0 past lead 0 unless the user gave 0. */
        yes = m >= 2 || (m == 1 && kind == SWX_SK_DANGER_AREA);
    }
    free(f);
    return yes;
}

void swx_danger_geometry(const swx_danger_ws *w, size_t *nparts, const size_t **part_len,
                         const double **xy, size_t *npolys, const size_t **poly_rings)
{
    *nparts = w->nparts;
    *part_len = w->parts;
    *xy = w->xy;
    *npolys = w->nrings;
    *poly_rings = w->rings;
}

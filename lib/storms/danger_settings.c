/* danger_settings.c: the settings of the danger products (see
 * seawx/storm_danger.h): the cone radii by basin and season and the 1-2-3
 * track errors, their defaults, what users type to change them (--cone-radii,
 * --danger-errors), the radius or error at a lead, and the settings as JSON. */
#include "seawx/storm_danger.h"

#include "seawx/error.h"
#include "seawx/number.h"
#include "seawx/jsonw.h"
#include "storm_timeline.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
        double x = 0;
        if (swx_number_parse(&x, num))
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

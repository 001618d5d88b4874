/* grib_plan.c: a voyage GRIB's plan, from the spec and the service's file
 * listing: the run, the valid times and their areas, the grids, the region
 * and the forecast files to read. */
#include "grib_int.h"

#include "area.h"
#include "buf.h"
#include "seawx/setting.h"
#include "seawx/error.h"
#include "seawx/files.h"
#include "seawx/iso8601.h"
#include "seawx/table.h"
#include "seawx/voyage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOUR 3600
#define MAX_REGIONS 16
/* The regions asked for when choosing the smallest that holds the area (the
 * service's regional files; docs/grib.md). A service that refuses the list
 * is asked for global files only. */
#define CANDIDATE_REGIONS "global,north-atlantic,europe,caribbean"

static int bundle_index(const gjob *j, const char *b)
{
    for (size_t i = 0; i < j->nbundles; i++)
        if (strcmp(j->bundles[i], b) == 0)
            return (int)i;
    return -1;
}

typedef struct listing {
    swx_table *t;
    long c_name, c_time, c_region, c_bundle, c_fh;
} listing;

static int list_files(listing *l, gjob *j)
{
    char bundles[128] = "";
    for (size_t i = 0; i < j->nbundles; i++) {
        strcat(bundles, i ? "," : "");
        strcat(bundles, j->bundles[i]);
    }
    swx_files_query q = {.source = SWX_FILES_FORECAST, .bundles = bundles};
    q.regions = j->spec->region ? j->spec->region : CANDIDATE_REGIONS;
    int rc = swx_files_list(&l->t, j->c, &q);
    if (rc == SWX_EHTTP && !j->spec->region) {
        /* A service that knows none of the other regions: global only. */
        swx_error_clear();
        q.regions = "global";
        rc = swx_files_list(&l->t, j->c, &q);
    }
    j->res.requests++;
    if (rc)
        return rc;
    l->c_name = swx_table_find_column(l->t, "name");
    l->c_time = swx_table_find_column(l->t, "time");
    l->c_region = swx_table_find_column(l->t, "region");
    l->c_bundle = swx_table_find_column(l->t, "bundle");
    l->c_fh = swx_table_find_column(l->t, "forecast_hour");
    if (l->c_name < 0 || l->c_time < 0 || l->c_region < 0 || l->c_bundle < 0 || l->c_fh < 0)
        return swx_error_set(SWX_ESERVICE, "the forecast file listing lacks a column");
    return 0;
}

/* The row of (run, region, bundle, hour), or -1. */
static long find_row(const listing *l, int64_t run, const char *region, const char *bundle, int fh)
{
    size_t n = swx_table_rows(l->t);
    for (size_t r = 0; r < n; r++) {
        if (swx_table_is_null(l->t, r, (size_t)l->c_time) ||
            swx_table_is_null(l->t, r, (size_t)l->c_fh) ||
            swx_table_is_null(l->t, r, (size_t)l->c_region) ||
            swx_table_is_null(l->t, r, (size_t)l->c_bundle))
            continue;
        if (swx_table_get_time(l->t, r, (size_t)l->c_time) == run &&
            swx_table_get_int(l->t, r, (size_t)l->c_fh) == fh &&
            strcmp(swx_table_get_string(l->t, r, (size_t)l->c_region), region) == 0 &&
            strcmp(swx_table_get_string(l->t, r, (size_t)l->c_bundle), bundle) == 0)
            return (long)r;
    }
    return -1;
}

/* Whether every bundle has hour fh in the region. */
static int hour_listed(const gjob *j, const listing *l, int64_t run, const char *region, int fh)
{
    for (size_t b = 0; b < j->nbundles; b++)
        if (find_row(l, run, region, j->bundles[b], fh) < 0)
            return 0;
    return 1;
}

static int parse_hours(int *hours, size_t *n, const char *text, int step)
{
    /* "A-B" (every step hours) or "H,H,H" */
    *n = 0;
    const char *p = text;
    char *end;
    long a = strtol(p, &end, 10);
    if (end != p && *end == '-' && a >= 0) {
        long b = strtol(end + 1, &end, 10);
        if (*end || b < a || b > 100000)
            return swx_error_set(SWX_EINVAL, "hours '%.40s': use A-B or H,H,H (0-120, 0,24,48)",
                                 text);
        for (long h = a; h <= b && *n < MAX_TIMES; h += step)
            hours[(*n)++] = (int)h;
        return 0;
    }
    while (*p) {
        long h = strtol(p, &end, 10);
        if (end == p || h < 0 || h > 100000 || (*end && *end != ',') ||
            (*n && h <= hours[*n - 1]) || *n >= MAX_TIMES)
            return swx_error_set(
                SWX_EINVAL, "hours '%.40s': use A-B or increasing H,H,H (0-120, 0,24,48)", text);
        hours[(*n)++] = (int)h;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return swx_error_set(SWX_EINVAL, "hours '%.40s' end with a comma", text);
    }
    if (*n == 0)
        return swx_error_set(SWX_EINVAL, "no hours given");
    return 0;
}

/* The grid of an area: its bounds snapped outwards to the grid's nodes. */
static int grid_of(ggrid *g, double w, double s, double e, double n, double step)
{
    if (e < w)
        e += 360;
    double eps = 1e-9;
    double lon0 = floor(w / step + eps) * step, lon1 = ceil(e / step - eps) * step;
    double lat0 = ceil(n / step - eps) * step, lat1 = floor(s / step + eps) * step;
    if (lat0 > 90)
        lat0 = floor(90 / step + eps) * step;
    if (lat1 < -90)
        lat1 = ceil(-90 / step - eps) * step;
    if (lon1 - lon0 > 360 - step)
        lon1 = lon0 + 360 - step;
    g->lon0 = lon0;
    g->lat0 = lat0;
    g->step = step;
    g->ni = (uint32_t)lround((lon1 - lon0) / step) + 1;
    g->nj = (uint32_t)lround((lat0 - lat1) / step) + 1;
    if ((uint64_t)g->ni * g->nj > (16u << 20))
        return swx_error_set(SWX_ETOOBIG,
                             "a grid of %u x %u points: take a coarser grid or a "
                             "smaller area",
                             g->ni, g->nj);
    return 0;
}

static void grid_bounds(const ggrid *g, double *w, double *s, double *e, double *n)
{
    *w = g->lon0;
    *e = g->lon0 + (g->ni - 1) * g->step;
    *n = g->lat0;
    *s = g->lat0 - (g->nj - 1) * g->step;
}

/* Whether the file grid h holds grid g's nodes, and they fall on its nodes. */
static int holds(const swx_grib_head *h, const ggrid *g)
{
    if (h->grid_template != 0 || h->di <= 0 || h->dj <= 0 || h->ni == 0 || h->nj == 0)
        return 0;
    double w, s, e, n;
    grid_bounds(g, &w, &s, &e, &n);
    double top = h->lat1 > h->lat2 ? h->lat1 : h->lat2, bot = h->lat1 > h->lat2 ? h->lat2 : h->lat1;
    double eps = 1e-6;
    if (n > top + eps || s < bot - eps)
        return 0;
    if (h->ni * h->di >= 360 - h->di / 2)
        return 1;
    double from = fmod(w - h->lon1 + 720.0, 360.0);
    return from + (e - w) <= (h->ni - 1) * h->di + eps;
}

/* 1 when a grid of step degrees takes every k-th node of a file grid of
 * spacing d (k >= 1). */
static int multiple_of(double step, double d)
{
    double r = step / d;
    return fabs(r - lround(r)) <= 1e-6 && lround(r) >= 1;
}

static int spacing_refused(const gjob *j, double d)
{
    return swx_error_set(SWX_EINVAL,
                         "a grid of %g degrees is not a multiple of the forecast files' "
                         "spacing (%g degrees)",
                         j->grid, d);
}

static int spacing_ok(gjob *j, const swx_grib_head *h)
{
    if (!multiple_of(j->grid, h->di) || !multiple_of(j->grid, h->dj))
        return spacing_refused(j, h->di);
    return 0;
}

/* The grid spacing a file's name gives ("sof-d.20241001.t06z.0p25.basic.
 * global.f000.grib2": 0.25 degrees, as the service names its files), 0 when
 * the name gives none: read from the listing, it lets a grid that fits no
 * file be refused before any file is read. */
static double name_spacing(const char *name)
{
    for (const char *p = name; p && *p; p = strchr(p, '.'), p = p ? p + 1 : NULL) {
        size_t n = strcspn(p, ".");
        const char *q = memchr(p, 'p', n);
        if (!q || q == p || q + 1 == p + n || strspn(p, "0123456789") != (size_t)(q - p) ||
            strspn(q + 1, "0123456789") != (size_t)(p + n - q - 1))
            continue;
        char num[32];
        if (n >= sizeof num)
            continue;
        memcpy(num, p, n);
        num[n] = 0;
        num[q - p] = '.';
        return strtod(num, NULL);
    }
    return 0;
}

static int add_file(gjob *j, const char *id, const char *bundle, size_t t)
{
    gfile *f = swx_array_reserve(j->files, &j->files_cap, j->nfiles + 1, sizeof *f, 8);
    if (!f)
        return SWX_ENOMEM;
    j->files = f;
    f = &j->files[j->nfiles];
    memset(f, 0, sizeof *f);
    f->size = -1;
    f->bundle = bundle;
    f->t = t;
    if (!(f->id = strdup(id)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    j->nfiles++;
    return 0;
}

static int voyage_over(const gjob *j, int64_t depart, double arrival, int64_t run);

static int times_of_voyage(gjob *j, const listing *l, int64_t run, const char *region)
{
    const swx_voyage *v = j->spec->voyage;
    int64_t depart;
    double arrival;
    int rc = swx_voyage_span(&depart, &arrival, v);
    if (rc)
        return rc;
    int hours[MAX_TIMES];
    int64_t valid[MAX_TIMES];
    size_t n = 0;
    int last = -1;
    for (int fh = 0; fh <= 100000 && n<MAX_TIMES; fh += j->spec->step_h> 0
                         ? j->spec->step_h
                         : SWX_GRIB_DEFAULT_STEP) {
        if (!hour_listed(j, l, run, region, fh)) {
            /* hours past the last listed end the run */
            int later = 0;
            for (size_t r = 0; r < swx_table_rows(l->t) && !later; r++)
                later = swx_table_get_time(l->t, r, (size_t)l->c_time) == run &&
                        swx_table_get_int(l->t, r, (size_t)l->c_fh) > fh;
            if (!later)
                break;
            continue;
        }
        hours[n] = fh;
        valid[n++] = run + (int64_t)fh * HOUR;
        last = fh;
    }
    if (n == 0)
        return swx_error_set(SWX_ENOTFOUND,
                             "no forecast hour of the run is listed for every bundle");
    if (valid[n - 1] < depart)
        return swx_error_set(SWX_EINVAL,
                             "the voyage departs after the run's last forecast hour (%d)", last);
    int64_t until =
        j->spec->max_hours > 0 ? depart + (int64_t)j->spec->max_hours * HOUR : INT64_MAX;
    j->res.ends_early = arrival > (double)valid[n - 1] && until > valid[n - 1];
    for (size_t i = 0; i < n && valid[i] <= until; i++) {
        double from, to;
        if ((rc = swx_voyage_stretch(&from, &to, v, valid, n, i)) < 0)
            return rc;
        if (rc == 0)
            continue;
        /* times before departure are worth one frame: the last of them */
        if (i + 1 < n && valid[i + 1] <= depart)
            continue;
        /* a window already over */
        if (j->spec->now && i + 1 < n && (valid[i] + valid[i + 1]) / 2 < j->spec->now)
            continue;
        gtime *t = &j->times[j->ntimes];
        memset(t, 0, sizeof *t);
        t->valid = valid[i];
        t->fh = hours[i];
        if ((rc = swx__voyage_area_latlon(&t->area, v, valid, n, i, j->spec->buffer_m)))
            return rc;
        if (!t->area)
            continue;
        j->ntimes++;
    }
    return j->ntimes ? 0 : voyage_over(j, depart, arrival, run);
}

static int times_of_box(gjob *j, const listing *l, int64_t run, const char *region)
{
    int step = j->spec->step_h > 0 ? j->spec->step_h : SWX_GRIB_DEFAULT_STEP;
    int hours[MAX_TIMES];
    size_t n = 0;
    int max_listed = -1;
    for (size_t r = 0; r < swx_table_rows(l->t); r++)
        if (swx_table_get_time(l->t, r, (size_t)l->c_time) == run) {
            int fh = (int)swx_table_get_int(l->t, r, (size_t)l->c_fh);
            max_listed = fh > max_listed ? fh : max_listed;
        }
    int rc;
    if (j->spec->hours) {
        if ((rc = parse_hours(hours, &n, j->spec->hours, step)))
            return rc;
    } else {
        for (int fh = 0; fh <= max_listed && n < MAX_TIMES; fh += step)
            hours[n++] = fh;
    }
    for (size_t i = 0; i < n; i++) {
        if (hours[i] > max_listed)
            return swx_error_set(SWX_EINVAL, "hour %d is past the run's last forecast hour (%d)",
                                 hours[i], max_listed);
        if (!hour_listed(j, l, run, region, hours[i])) {
            if (j->spec->hours)
                return swx_error_set(SWX_ENOTFOUND,
                                     "hour %d of the run is not listed for every bundle", hours[i]);
            continue;
        }
        gtime *t = &j->times[j->ntimes];
        memset(t, 0, sizeof *t);
        t->valid = run + (int64_t)hours[i] * HOUR;
        t->fh = hours[i];
        t->area = NULL; /* every point of the box */
        j->ntimes++;
    }
    return 0;
}

/* No valid time falls in the voyage: when it is over (before now, or
 * before the run's first hour), says so with both times, and how to build it
 * for another moment; else 0 (the caller's own line follows). */
static int voyage_over(const gjob *j, int64_t depart, double arrival, int64_t run)
{
    char d[SWX_ISO8601_LEN], a[SWX_ISO8601_LEN], t[SWX_ISO8601_LEN];
    swx_iso8601_format(d, depart);
    swx_iso8601_format(a, (int64_t)arrival);
    if (j->spec->now && arrival < (double)j->spec->now) {
        swx_iso8601_format(t, j->spec->now);
        return swx_error_set(SWX_EINVAL,
                             "the voyage (%s to %s) ended before now (%s): a later departure, or "
                             "%s at a time during the voyage, builds it for another moment",
                             d, a, t, swx_setting_name(SWX_SET_NOW));
    }
    if (arrival < (double)run) {
        swx_iso8601_format(t, run);
        return swx_error_set(SWX_EINVAL,
                             "the voyage (%s to %s) ended before the run's first forecast hour "
                             "(%s): a later departure, or %s for a run of its time",
                             d, a, t, swx_setting_name(SWX_SET_RUN));
    }
    return 0;
}

/* The head of a region's first file: its grid. */
static int region_grid(swx_grib_head *h, gjob *j, const char *id)
{
    gfile f = {0};
    f.size = -1;
    if (!(f.id = strdup(id)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    gjob sub = *j;
    sub.files = &f;
    sub.nfiles = 1;
    sub.o.progress = NULL;
    int rc = 0;
    swx__grib_index_get(&sub, &f);
    /* walked whole, so that its index is cached like any other file's; each
     * round reads one message's head, so a file of more rounds than that is
     * not a forecast file */
    for (int guard = 0; !rc && !f.walked; guard++)
        rc = guard > SWX_GRIB_MAX_ROUNDS
                 ? swx_error_set(SWX_ESERVICE, "%s: a forecast file of too many messages", id)
                 : swx__grib_fetch_round(&sub, 0, 1);
    j->res.fetched = sub.res.fetched;
    j->res.requests = sub.res.requests;
    j->res.range_ignored |= sub.res.range_ignored;
    if (!rc && f.n == 0)
        rc = swx_error_set(SWX_ESERVICE, "%s: no message", id);
    if (!rc)
        *h = f.msgs[0].h;
    swx__grib_file_clear(&f);
    return rc;
}

/* The spec's own rules: variables, edition, grid, hours and the box or
 * voyage. */
static int check_spec(gjob *j)
{
    const swx_grib_spec *s = j->spec;
    int rc = swx__grib_params(j->params, &j->nparams, s->vars);
    if (rc)
        return rc;
    j->nrequired = j->nparams;
    if (s->if_held) {
        const gparam *more[GRIB_MAX_PARAMS];
        size_t n;
        if ((rc = swx__grib_params(more, &n, s->if_held)))
            return rc;
        for (size_t i = 0; i < n; i++) {
            for (size_t k = 0; k < j->nrequired; k++)
                if (j->params[k] == more[i])
                    return swx_error_set(SWX_EINVAL, "variable '%s' is given twice", more[i]->var);
            if (j->nparams == GRIB_MAX_PARAMS)
                return swx_error_set(SWX_EINVAL, "more than %d fields", GRIB_MAX_PARAMS);
            j->params[j->nparams++] = more[i];
        }
    }
    if (s->edition != 0 && s->edition != 1 && s->edition != 2)
        return swx_error_set(SWX_EINVAL, "GRIB edition %d: 1 or 2", s->edition);
    for (size_t i = 0; i < j->nparams; i++) {
        if (s->edition == 1 && !j->params[i]->g1_param)
            return swx_error_set(
                SWX_EINVAL, "%s has no code in GRIB1's WMO table: write it as GRIB2 (edition 2)",
                j->params[i]->label);
        if (bundle_index(j, j->params[i]->bundle) < 0)
            j->bundles[j->nbundles++] = j->params[i]->bundle;
    }
    j->grid = s->grid_deg > 0 ? s->grid_deg : SWX_GRIB_DEFAULT_GRID;
    if (j->grid < 0.01 || j->grid > 10)
        return swx_error_set(SWX_EINVAL, "a grid of %g degrees (0.01 to 10)", j->grid);
    if (s->max_hours < 0)
        return swx_error_set(SWX_EINVAL, "a negative number of hours after departure");
    if (s->step_h < 0 || s->step_h > 240)
        return swx_error_set(SWX_EINVAL, "a step of %d hours (1 to 240)", s->step_h);
    if (s->cut == SWX_GRIB_CUT_BOX) {
        if (!(s->south >= -90 && s->north <= 90 && s->south < s->north))
            return swx_error_set(SWX_EINVAL,
                                 "a box from latitude %g to %g: south must be below "
                                 "north, both within -90..90 (a box cannot cross a pole)",
                                 s->south, s->north);
        if (!(s->west >= -180 && s->west <= 360 && s->east >= -180 && s->east <= 360 &&
              s->west != s->east))
            return swx_error_set(SWX_EINVAL, "a box from longitude %g to %g", s->west, s->east);
    } else if (!s->voyage) {
        return swx_error_set(SWX_EINVAL, "a voyage GRIB needs a route (or a box)");
    } else if (s->hours) {
        return swx_error_set(SWX_EINVAL,
                             "hours go with a box; a voyage takes the hours it is at sea");
    }
    return 0;
}

/* The run: the one asked for, which must be listed, or the newest listed. */
static int pick_run(int64_t *out, const gjob *j, const listing *l)
{
    size_t rows = swx_table_rows(l->t);
    int64_t run = j->spec->run, newest = INT64_MIN;
    int found = 0;
    for (size_t r = 0; r < rows; r++) {
        if (swx_table_is_null(l->t, r, (size_t)l->c_time))
            continue;
        int64_t t = swx_table_get_time(l->t, r, (size_t)l->c_time);
        newest = t > newest ? t : newest;
        found |= t == run;
    }
    if (newest == INT64_MIN)
        return swx_error_set(SWX_ENOTFOUND, "no forecast file is listed for bundle %s",
                             j->bundles[0]);
    if (!run) {
        run = newest;
    } else if (!found) {
        char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
        swx_iso8601_format(a, run);
        swx_iso8601_format(b, newest);
        return swx_error_set(SWX_ENOTFOUND,
                             "no forecast file of the run of %s is listed (the "
                             "newest run: %s)",
                             a, b);
    }
    *out = run;
    return 0;
}

/* The regions listed for the run, at most MAX_REGIONS; returns how many. */
static size_t list_regions(const char **regions, const listing *l, int64_t run)
{
    size_t nreg = 0;
    size_t rows = swx_table_rows(l->t);
    for (size_t r = 0; r < rows && nreg < MAX_REGIONS; r++) {
        if (swx_table_get_time(l->t, r, (size_t)l->c_time) != run)
            continue;
        const char *reg = swx_table_get_string(l->t, r, (size_t)l->c_region);
        int dup = 0;
        for (size_t k = 0; k < nreg && !dup; k++)
            dup = strcmp(regions[k], reg) == 0;
        if (!dup)
            regions[nreg++] = reg;
    }
    return nreg;
}

/* The region whose listed hours give the run's times: the one with the most
 * hours listed for every bundle (the global files when they have as many),
 * whatever order the listing names the regions in. */
static const char *times_region_pick(const gjob *j, const listing *l, int64_t run,
                                     const char **regions, size_t nreg)
{
    const char *best = nreg ? regions[0] : "global";
    size_t best_n = 0;
    size_t rows = swx_table_rows(l->t);
    for (size_t k = 0; k < nreg; k++) {
        size_t n = 0;
        for (size_t r = 0; r < rows; r++)
            if (swx_table_get_time(l->t, r, (size_t)l->c_time) == run && j->nbundles &&
                strcmp(swx_table_get_string(l->t, r, (size_t)l->c_region), regions[k]) == 0 &&
                strcmp(swx_table_get_string(l->t, r, (size_t)l->c_bundle), j->bundles[0]) == 0 &&
                hour_listed(j, l, run, regions[k],
                            (int)swx_table_get_int(l->t, r, (size_t)l->c_fh)))
                n++;
        if (n > best_n || (n == best_n && strcmp(regions[k], "global") == 0)) {
            best = regions[k];
            best_n = n;
        }
    }
    return best;
}

/* The grids: per time (a window each), or one for all (the box, or the
 * route's). */
static int plan_grids(gjob *j)
{
    const swx_grib_spec *s = j->spec;
    int rc;
    double uw = 0, us = 90, ue = 0, un = -90;
    for (size_t i = 0; i < j->ntimes; i++) {
        double w, so, e, n;
        if (s->cut == SWX_GRIB_CUT_BOX) {
            w = s->west;
            so = s->south;
            e = s->east;
            n = s->north;
        } else {
            /* latitude/longitude to the poles, not Web Mercator's */
            swx__area_bounds_latlon(&w, &so, &e, &n, j->times[i].area);
        }
        if (e < w)
            e += 360;
        if (i == 0) {
            uw = w;
            ue = e;
        } else {
            /* keep longitudes continuous with the first area */
            while (w < uw - 180)
                w += 360, e += 360;
            while (w > uw + 180)
                w -= 360, e -= 360;
            uw = w < uw ? w : uw;
            ue = e > ue ? e : ue;
        }
        us = so < us ? so : us;
        un = n > un ? n : un;
        if ((rc = grid_of(&j->times[i].grid, w, so, e, n, j->grid)))
            return rc;
    }
    if (s->cut != SWX_GRIB_CUT_WINDOW) {
        ggrid all;
        if ((rc = grid_of(&all, uw, us, ue, un, j->grid)))
            return rc;
        for (size_t i = 0; i < j->ntimes; i++)
            j->times[i].grid = all;
    }
    return 0;
}

/* Whether the region lists a file of every bundle for every time; if not,
 * the first one missing goes in *bundle and *fh. */
static int region_complete(const gjob *j, const listing *l, int64_t run, const char *region,
                           const char **bundle, int *fh)
{
    for (size_t i = 0; i < j->ntimes; i++)
        for (size_t b = 0; b < j->nbundles; b++)
            if (find_row(l, run, region, j->bundles[b], j->times[i].fh) < 0) {
                *bundle = j->bundles[b];
                *fh = j->times[i].fh;
                return 0;
            }
    return 1;
}

/* The region: the smallest whose grid holds every grid, among those that
 * list every file needed (a region listing fewer hours is never opened);
 * *head is its grid's. */
static int pick_region(const char **out, swx_grib_head *head, gjob *j, const listing *l,
                       int64_t run, const char *const *regions, size_t nreg)
{
    int rc;
    *out = NULL;
    uint64_t best = UINT64_MAX;
    double misfit = 0;                                 /* the spacing of a region left out for it */
    const char *gap_region = NULL, *gap_bundle = NULL; /* a region left out for a gap */
    int gap_fh = 0;
    for (size_t k = 0; k < nreg; k++) {
        long row = find_row(l, run, regions[k], j->bundles[0], j->times[0].fh);
        if (row < 0)
            continue;
        if (!region_complete(j, l, run, regions[k], &gap_bundle, &gap_fh)) {
            gap_region = regions[k];
            continue;
        }
        const char *name = swx_table_get_string(l->t, (size_t)row, (size_t)l->c_name);
        double d = name_spacing(name);
        if (d > 0 && !multiple_of(j->grid, d)) {
            misfit = d;
            continue;
        }
        swx_grib_head h;
        if ((rc = region_grid(&h, j, name)))
            return rc;
        int ok = 1;
        for (size_t i = 0; i < j->ntimes && ok; i++)
            ok = holds(&h, &j->times[i].grid);
        if (ok && (uint64_t)h.ni * h.nj < best) {
            best = (uint64_t)h.ni * h.nj;
            *out = regions[k];
            *head = h;
        }
    }
    if (!*out && misfit > 0)
        return spacing_refused(j, misfit);
    if (!*out && gap_region)
        return swx_error_set(
            SWX_ENOTFOUND,
            "no %s file of hour %d in %s, and no other listed region holds the whole area",
            gap_bundle, gap_fh, gap_region);
    if (!*out) {
        double w, so, e, n, south = 90, north = -90;
        for (size_t i = 0; i < j->ntimes; i++) {
            grid_bounds(&j->times[i].grid, &w, &so, &e, &n);
            south = so < south ? so : south;
            north = n > north ? n : north;
        }
        /* the grid's latitudes: files that stop short of a pole say so */
        return swx_error_set(SWX_ENOTFOUND,
                             "no listed forecast region holds the whole area%s%s (its grid "
                             "from latitude %g to %g)",
                             j->spec->region ? " in " : "", j->spec->region ? j->spec->region : "",
                             south, north);
    }
    return 0;
}

/* The result's bounds: every time's grid, longitudes continuous with the
 * first. */
static void result_bounds(gjob *j)
{
    ggrid *g0 = &j->times[0].grid;
    double w, so, e, n;
    grid_bounds(g0, &j->res.west, &j->res.south, &j->res.east, &j->res.north);
    for (size_t i = 1; i < j->ntimes; i++) {
        grid_bounds(&j->times[i].grid, &w, &so, &e, &n);
        while (w < j->res.west - 180)
            w += 360, e += 360;
        while (w > j->res.west + 180)
            w -= 360, e -= 360;
        j->res.west = w < j->res.west ? w : j->res.west;
        j->res.east = e > j->res.east ? e : j->res.east;
        j->res.south = so < j->res.south ? so : j->res.south;
        j->res.north = n > j->res.north ? n : j->res.north;
    }
}

int swx__grib_plan(gjob *j)
{
    const swx_grib_spec *s = j->spec;
    int rc;
    if ((rc = check_spec(j)))
        return rc;
    listing l = {0};
    if ((rc = list_files(&l, j)))
        goto done;
    int64_t run = 0;
    if ((rc = pick_run(&run, j, &l)))
        goto done;
    j->res.run = run;
    const char *regions[MAX_REGIONS];
    size_t nreg = list_regions(regions, &l, run);
    const char *times_region = times_region_pick(j, &l, run, regions, nreg);
    rc = s->cut == SWX_GRIB_CUT_BOX ? times_of_box(j, &l, run, times_region)
                                    : times_of_voyage(j, &l, run, times_region);
    if (rc)
        goto done;
    if (j->ntimes == 0) {
        rc = swx_error_set(SWX_ENOTFOUND, "no forecast hour of the run falls in the voyage");
        goto done;
    }
    if ((rc = plan_grids(j)))
        goto done;
    const char *region = NULL;
    swx_grib_head best_head = {0};
    if ((rc = pick_region(&region, &best_head, j, &l, run, regions, nreg)))
        goto done;
    if ((rc = spacing_ok(j, &best_head)))
        goto done;
    snprintf(j->res.region, sizeof j->res.region, "%s", region);
    for (size_t i = 0; i < j->ntimes; i++)
        for (size_t b = 0; b < j->nbundles; b++) {
            long row = find_row(&l, run, region, j->bundles[b], j->times[i].fh);
            if (row < 0) {
                rc = swx_error_set(SWX_ENOTFOUND, "no %s file of hour %d in %s", j->bundles[b],
                                   j->times[i].fh, region);
                goto done;
            }
            if ((rc = add_file(j, swx_table_get_string(l.t, (size_t)row, (size_t)l.c_name),
                               j->bundles[b], i)))
                goto done;
        }
    j->res.times = j->ntimes;
    j->res.first = j->times[0].valid;
    j->res.last = j->times[j->ntimes - 1].valid;
    j->res.files = j->nfiles;
    result_bounds(j);
done:
    swx_table_free(l.t);
    return rc;
}

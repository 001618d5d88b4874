/* package_plan_files.c: the departure plan of a package's route
 * (seawx/plan.h): plan.json, plan.csv and plan.png, made anew by every build
 * from point forecasts asked again and the storms the build fetched, written
 * after the storms and the GRIB and counted against the budget after them,
 * listed in the manifest's "plan". */
#include "package_priv.h"
#include "plan_result.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "seawx/plan.h"
#include "seawx/storm.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_NFILES 3
#define PLAN_CHART_W 1200
#define PLAN_CHART_H 800

static const char *const plan_files[PLAN_NFILES] = {"plan.json", "plan.csv", "plan.png"};

typedef struct swx_pkg_planf {
    swx_package_departure_plan o;
    swx_voyage *v; /* the package's route without its sailing: each departure sets it */
    double min_kn, max_kn;
    size_t samples, departures, left_out, count[3], storms;
    uint64_t bytes[PLAN_NFILES];
    char sha[PLAN_NFILES][SWX_SHA256_HEX_LEN];
    int written;
} swx_pkg_planf;

void swx_pkg_plan_free(swx_package *p)
{
    if (!p->planf)
        return;
    swx_voyage_free(p->planf->v);
    free(p->planf);
    p->planf = NULL;
}

/* The route of v again, without departure or speed (its waypoints as CSV). */
static int route_copy(swx_voyage **out, const swx_voyage *v)
{
    size_t n = swx_voyage_waypoint_count(v), cap = 16 + n * 40, len = 0;
    char *text = malloc(cap);
    if (!text)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    len += (size_t)snprintf(text, cap, "lat,lon\n");
    for (size_t i = 0; i < n; i++) {
        double lon, lat;
        int64_t t;
        swx_voyage_waypoint(&lon, &lat, &t, v, i);
        len += (size_t)snprintf(text + len, cap - len, "%.9f,%.9f\n", lat, lon);
    }
    int rc = swx_voyage_from_route(out, text, len);
    free(text);
    return rc;
}

static void opts_of(swx_plan_opts *po, const swx_pkg_planf *x)
{
    memset(po, 0, sizeof *po);
    po->from = x->o.from;
    po->to = x->o.to;
    po->step = x->o.step;
    po->min_kn = x->min_kn;
    po->max_kn = x->max_kn;
    po->max_wind_kn = x->o.max_wind_kn;
    po->max_gust_kn = x->o.max_gust_kn;
    po->max_wave_m = x->o.max_wave_m;
}

int swx_package_set_departure_plan(swx_package *p, const swx_package_departure_plan *o)
{
    if (!o || o->step <= 0 || o->from > o->to)
        return swx_error_set(SWX_EINVAL, "a plan needs departures FROM/TO/STEP");
    if ((o->to - o->from) / o->step + 1 > SWX_PLAN_MAX_DEPARTURES)
        return swx_error_set(SWX_EINVAL, "a plan has at most %d departures",
                             SWX_PLAN_MAX_DEPARTURES);
    if (o->max_wind_kn < 0 || o->max_gust_kn < 0 || o->max_wave_m < 0)
        return swx_error_set(SWX_EINVAL, "a plan's thresholds are positive");
    if (swx_voyage_timed(p->o.voyage))
        return swx_error_set(SWX_EINVAL, "the route gives waypoint times; a plan sails a route "
                                         "without them from each departure");
    swx_pkg_planf *x = calloc(1, sizeof *x);
    if (!x)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    x->o = *o;
    swx_voyage_speed(&x->min_kn, &x->max_kn, p->o.voyage);
    int rc = 0;
    if (!(x->min_kn > 0))
        rc = swx_error_set(SWX_EINVAL, "a plan needs the voyage's speed band");
    if (!rc)
        rc = route_copy(&x->v, p->o.voyage);
    if (!rc)
        rc = swx_plan_sample_count(&x->samples, x->v, 0);
    if (rc) {
        swx_voyage_free(x->v);
        free(x);
        return rc;
    }
    swx_pkg_plan_free(p);
    p->planf = x;
    return 0;
}

int swx_package_quote_departure_plan(size_t *requests, double *bytes, const swx_package *p)
{
    *requests = 0;
    *bytes = 0;
    if (!p->planf)
        return 0;
    const swx_pkg_planf *x = p->planf;
    double deps = (double)((x->o.to - x->o.from) / x->o.step + 1);
    *requests = x->samples;
    /* JSON: the route's points, and per departure its figures and its column
     * of cells; CSV: a row per departure; the chart: about 40 kB at 1200x800. */
    *bytes = 400 + 90.0 * (double)x->samples + deps * (700 + 25.0 * (double)x->samples) +
             deps * 200 + 40000;
    return 0;
}

/* One file of the plan into dir, whole. */
static int write_file(const char *path, const swx_plan *plan, const size_t *order,
                      const swx_plan_info *in)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
    int rc =
        in ? swx_plan_write_json(f, plan, order, in) : swx_plan_write_csv(f, plan, order, NULL);
    errno = 0;
    if ((ferror(f) | (fclose(f) != 0)) && !rc)
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
    return rc;
}

int swx_pkg_plan_write(swx_package *p, swx_client *c, const char *dir,
                       volatile sig_atomic_t *cancel)
{
    swx_pkg_planf *x = p->planf;
    if (!x)
        return 0;
    x->written = 0;
    swx_plan_opts po;
    opts_of(&po, x);
    swx_plan_forecast *fc = NULL;
    swx_plan *plan = NULL;
    size_t *order = NULL;
    char path[PLAN_NFILES][PATH_MAX];
    for (int i = 0; i < PLAN_NFILES; i++)
        swx_pkg_pathf(path[i], sizeof path[i], "%s/%s", dir, plan_files[i]);
    swx_plan_fetch_opts fo = {.cancel = cancel};
    int rc = swx_plan_forecast_fetch(&fc, c, x->v, &po, &fo);
    const swx_storm_list *sl = p->storms ? swx_pkg_storms_list(p->storms) : NULL;
    x->storms = sl ? sl->count : 0;
    if (!rc)
        rc = swx_plan_compute(&plan, x->v, fc,
                              sl ? (const struct swx_storm *const *)sl->items : NULL, x->storms,
                              p->storm_opts.danger, &po);
    if (rc) {
        swx_error_prefix(rc, "the departure plan");
        goto done;
    }
    size_t n = swx_plan_count(plan);
    if (!(order = malloc((n ? n : 1) * sizeof *order))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    memset(x->count, 0, sizeof x->count);
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
        x->count[swx_plan_row(plan, i)->verdict]++;
    }
    x->departures = n;
    x->left_out = swx_plan_left_out(plan);
    swx_plan_info in = {&po,
                        NULL,
                        NULL,
                        p->storms != NULL,
                        x->storms,
                        swx_plan_forecast_time(fc, 0),
                        swx_plan_forecast_time(fc, swx_plan_forecast_times(fc) - 1),
                        swx_plan_forecast_times(fc),
                        NULL};
    if ((rc = write_file(path[0], plan, order, &in)) ||
        (rc = write_file(path[1], plan, order, NULL)) ||
        (rc = swx_plan_chart_png(plan, path[2], 'w', PLAN_CHART_W, PLAN_CHART_H)))
        goto done;
    for (int i = 0; i < PLAN_NFILES; i++) {
        x->bytes[i] = swx_pkg_file_size(path[i]);
        if ((rc = swx_package_file_sha256(x->sha[i], path[i])))
            goto done;
    }
    x->written = 1;
done:
    if (rc)
        for (int i = 0; i < PLAN_NFILES; i++)
            remove(path[i]);
    free(order);
    swx_plan_free(plan);
    swx_plan_forecast_free(fc);
    return rc;
}

void swx_pkg_plan_counts(const swx_package *p, size_t out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = p->planf && p->planf->written ? p->planf->count[i] : 0;
}

uint64_t swx_pkg_plan_bytes(const swx_package *p)
{
    if (!p->planf || !p->planf->written)
        return 0;
    uint64_t b = 0;
    for (int i = 0; i < PLAN_NFILES; i++)
        b += p->planf->bytes[i];
    return b;
}

void swx_pkg_plan_manifest(swx_jsonw *w, const swx_package *p)
{
    const swx_pkg_planf *x = p->planf;
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "files");
    swx_jsonw_array_begin(w);
    for (int i = 0; i < PLAN_NFILES; i++) {
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "file");
        swx_jsonw_string(w, plan_files[i]);
        swx_jsonw_key(w, "bytes");
        swx_jsonw_int(w, (int64_t)x->bytes[i]);
        swx_jsonw_key(w, "sha256");
        swx_jsonw_string(w, x->sha[i]);
        swx_jsonw_object_end(w);
    }
    swx_jsonw_array_end(w);
    swx_jsonw_key(w, "departures");
    swx_jsonw_int(w, (int64_t)x->departures);
    swx_jsonw_key(w, "departures_left_out");
    swx_jsonw_int(w, (int64_t)x->left_out);
    swx_jsonw_key(w, "go");
    swx_jsonw_int(w, (int64_t)x->count[SWX_PLAN_GO]);
    swx_jsonw_key(w, "marginal");
    swx_jsonw_int(w, (int64_t)x->count[SWX_PLAN_MARGINAL]);
    swx_jsonw_key(w, "no_go");
    swx_jsonw_int(w, (int64_t)x->count[SWX_PLAN_NOGO]);
    swx_jsonw_key(w, "sample_points");
    swx_jsonw_int(w, (int64_t)x->samples);
    swx_jsonw_key(w, "storms_checked");
    if (p->storms)
        swx_jsonw_int(w, (int64_t)x->storms);
    else
        swx_jsonw_null(w);
    swx_jsonw_key(w, "options");
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "from");
    swx_jsonw_time(w, x->o.from);
    swx_jsonw_key(w, "to");
    swx_jsonw_time(w, x->o.to);
    swx_jsonw_key(w, "step_s");
    swx_jsonw_int(w, x->o.step);
    swx_plan_json_opt(w, "min_kn", x->min_kn);
    swx_plan_json_opt(w, "max_kn", x->max_kn);
    swx_plan_json_opt(w, "max_wind_kn", x->o.max_wind_kn);
    swx_plan_json_opt(w, "max_gust_kn", x->o.max_gust_kn);
    swx_plan_json_opt(w, "max_wave_m", x->o.max_wave_m);
    swx_jsonw_key(w, "chart");
    swx_jsonw_string(w, "wind");
    swx_jsonw_object_end(w);
    swx_jsonw_object_end(w);
}

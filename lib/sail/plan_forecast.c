/* plan_forecast.c: the forecast along a route for the departure plan (see
 * seawx/plan.h): the sample points, and one point forecast per sample point
 * fetched on the HTTP engine. */
#include "plan_result.h"

#include "grib_points.h"
#include "http_core.h"
#include "point_answer.h"
#include "seawx/setting.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_POINT_MAX_BODY (32u * 1024u * 1024u)
#define PLAN_MAX_TIMES 2000

/* The variables as the point forecast names them, by SWX_PV_* index. */
static const char *const var_names[SWX_PV_N] = {
    "eastward_wind",
    "northward_wind",
    "wind_speed_of_gust",
    "air_pressure_at_mean_sea_level",
    "precipitation_amount",
    "sea_surface_wave_significant_height",
    "sea_surface_wave_from_direction",
};

int swx_plan_sample_count(size_t *n, const swx_voyage *v, double spacing_nm)
{
    double sp = spacing_nm > 0 ? spacing_nm : SWX_PLAN_DEFAULT_SPACING_NM;
    *n = 0;
    if (!(sp >= 0.5 && sp <= 1000))
        return swx_error_set(SWX_EINVAL, "the sample spacing is 0.5 to 1000 nm, not %g", sp);
    double len_nm = swx_voyage_length(v) / SWX_NM_M;
    double k = ceil(len_nm / sp - 1e-9);
    if (k < 0)
        k = 0;
    if (k + 1 > SWX_PLAN_MAX_SAMPLES)
        return swx_error_set(SWX_EINVAL,
                             "a route of %.0f nm sampled every %g nm has more than %d sample "
                             "points: a longer spacing",
                             len_nm, sp, SWX_PLAN_MAX_SAMPLES);
    *n = (size_t)k + 1;
    return 0;
}

void swx_plan_forecast_free(swx_plan_forecast *f)
{
    if (!f)
        return;
    free(f->lon);
    free(f->lat);
    free(f->nm);
    free(f->times);
    free(f->value);
    free(f);
}

int swx_plan_forecast_new(swx_plan_forecast **out, const swx_voyage *v, double spacing_nm,
                          size_t nt)
{
    swx_plan_forecast *f = NULL;
    size_t ns;
    int rc;
    *out = NULL;
    if ((rc = swx_plan_sample_count(&ns, v, spacing_nm)))
        return rc;
    if (nt > PLAN_MAX_TIMES)
        return swx_error_set(SWX_ESERVICE, "the forecast has more than %d valid times",
                             PLAN_MAX_TIMES);
    if (!(f = calloc(1, sizeof *f)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    f->ns = ns;
    f->nt = nt;
    f->spacing_nm = spacing_nm > 0 ? spacing_nm : SWX_PLAN_DEFAULT_SPACING_NM;
    size_t nv = ns * (nt ? nt : 1) * SWX_PV_N;
    if (!(f->lon = malloc(ns * sizeof *f->lon)) || !(f->lat = malloc(ns * sizeof *f->lat)) ||
        !(f->nm = malloc(ns * sizeof *f->nm)) ||
        !(f->times = calloc(nt ? nt : 1, sizeof *f->times)) ||
        !(f->value = malloc(nv * sizeof *f->value))) {
        swx_plan_forecast_free(f);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < nv; i++)
        f->value[i] = NAN;
    double len_nm = swx_voyage_length(v) / SWX_NM_M;
    for (size_t j = 0; j < ns; j++) {
        f->nm[j] = j + 1 < ns ? (double)j * f->spacing_nm : len_nm;
        swx_voyage_point(&f->lon[j], &f->lat[j], v, f->nm[j] * SWX_NM_M);
    }
    *out = f;
    return 0;
}

int swx_plan_forecast_covers(const swx_plan_forecast *f, const swx_plan_opts *o)
{
    if (!f || f->nt == 0)
        return swx_error_set(SWX_ENOTFOUND, "the forecast has no valid time");
    int64_t last = f->times[f->nt - 1];
    if (o->from < last)
        return 0;
    char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
    swx_iso8601_format(a, last);
    swx_iso8601_format(b, o->from);
    return swx_error_set(SWX_ENOTFOUND,
                         "the forecast ends at %s: every departure (from %s) is at or after it", a,
                         b);
}

size_t swx_plan_forecast_samples(const swx_plan_forecast *f)
{
    return f ? f->ns : 0;
}

size_t swx_plan_forecast_times(const swx_plan_forecast *f)
{
    return f ? f->nt : 0;
}

int64_t swx_plan_forecast_time(const swx_plan_forecast *f, size_t k)
{
    return f && k < f->nt ? f->times[k] : INT64_MIN;
}

double swx_plan_forecast_value(const swx_plan_forecast *f, size_t j, size_t k, int var)
{
    if (!f || j >= f->ns || k >= f->nt || var < 0 || var >= SWX_PV_N)
        return NAN;
    return f->value[(j * f->nt + k) * SWX_PV_N + (size_t)var];
}

/* ---- fetching ---- */

typedef struct fetcher {
    const swx_voyage *v;
    swx_plan_forecast *f; /* NULL until the first answer gave the times */
    double spacing_nm;
    size_t ns, next, end, done;
    swx_query *q;
    char lat[32], lon[32];
    const swx_plan_fetch_opts *fo;
} fetcher;

static void sample_lonlat(double *lon, double *lat, const fetcher *fx, size_t j)
{
    double len_nm = swx_voyage_length(fx->v) / SWX_NM_M;
    double nm = j + 1 < fx->ns ? (double)j * fx->spacing_nm : len_nm;
    swx_voyage_point(lon, lat, fx->v, nm * SWX_NM_M);
}

static void point_query(swx_point_query *pq, fetcher *fx, size_t j)
{
    double lon, lat;
    sample_lonlat(&lon, &lat, fx, j);
    snprintf(fx->lat, sizeof fx->lat, "%.5f", lat);
    snprintf(fx->lon, sizeof fx->lon, "%.5f", lon);
    memset(pq, 0, sizeof *pq);
    pq->kind = SWX_POINT_FORECAST;
    pq->lat = fx->lat;
    pq->lon = fx->lon;
    pq->units = "si";
    pq->bundles = "basic,maritime";
}

static int fetch_next(void *ud, swx_request *req, void **user)
{
    fetcher *fx = ud;
    if (fx->fo && fx->fo->cancel && *fx->fo->cancel)
        return swx_error_set(SWX_ECANCEL, "stopped");
    if (fx->next >= fx->end)
        return 0;
    size_t j = fx->next++;
    swx_point_query pq;
    int rc;
    point_query(&pq, fx, j);
    swx_query_free(fx->q);
    fx->q = NULL;
    if ((rc = swx_query_new(&fx->q)) || (rc = swx_query_add(fx->q, "lat", pq.lat)) ||
        (rc = swx_query_add(fx->q, "lon", pq.lon)) ||
        (rc = swx_query_add(fx->q, "bundles", pq.bundles)) ||
        (rc = swx_query_add(fx->q, "unit_system", pq.units)))
        return rc;
    memset(req, 0, sizeof *req);
    req->service = SWX_SERVICE_MAIN;
    req->path = "/forecast/point";
    req->query = fx->q;
    req->accept = "application/json";
    req->max_body = PLAN_POINT_MAX_BODY;
    *user = (void *)(uintptr_t)j;
    return 1;
}

/* The first answer's valid times become the forecast's. */
static int take_times(fetcher *fx, const swx_table *t, long tcol)
{
    size_t nr = swx_table_rows(t), nt = 0;
    int64_t *times = malloc((nr ? nr : 1) * sizeof *times);
    int rc;
    if (!times)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (size_t r = 0; r < nr; r++) {
        if (swx_table_is_null(t, r, (size_t)tcol))
            continue;
        int64_t x = swx_table_get_time(t, r, (size_t)tcol);
        if (nt && x <= times[nt - 1]) {
            free(times);
            return swx_error_set(SWX_ESERVICE, "the point forecast's valid times do not increase");
        }
        times[nt++] = x;
    }
    if (nt == 0) {
        free(times);
        return swx_error_set(SWX_ESERVICE, "the point forecast has no valid time");
    }
    if ((rc = swx_plan_forecast_new(&fx->f, fx->v, fx->spacing_nm, nt))) {
        free(times);
        return rc;
    }
    memcpy(fx->f->times, times, nt * sizeof *times);
    free(times);
    return 0;
}

static long find_time(const swx_plan_forecast *f, int64_t t)
{
    size_t lo = 0, hi = f->nt;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        if (f->times[m] < t)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < f->nt && f->times[lo] == t ? (long)lo : -1;
}

static int read_answer(fetcher *fx, size_t j, const swx_table *t)
{
    long tcol = swx_table_find_column(t, "valid_time"), cols[SWX_PV_N];
    const char *units = swx_table_meta(t, "unit_system");
    int rc;
    if (tcol < 0)
        return swx_error_set(SWX_ESERVICE, "the point forecast has no valid_time");
    if (units && strcmp(units, "si") != 0)
        return swx_error_set(SWX_ESERVICE, "the point forecast is in '%.10s' units, not si", units);
    if (!fx->f && (rc = take_times(fx, t, tcol)))
        return rc;
    for (int k = 0; k < SWX_PV_N; k++) {
        cols[k] = swx_table_find_column(t, var_names[k]);
        if (cols[k] >= 0) {
            swx_col_type ct = swx_table_column_type(t, (size_t)cols[k]);
            if (ct != SWX_COL_REAL && ct != SWX_COL_INT)
                return swx_error_set(SWX_ESERVICE, "the point forecast's %s is not a number",
                                     var_names[k]);
        }
    }
    for (size_t r = 0; r < swx_table_rows(t); r++) {
        if (swx_table_is_null(t, r, (size_t)tcol))
            continue;
        long k = find_time(fx->f, swx_table_get_time(t, r, (size_t)tcol));
        if (k < 0)
            continue;
        float *out = fx->f->value + (j * fx->f->nt + (size_t)k) * SWX_PV_N;
        for (int x = 0; x < SWX_PV_N; x++) {
            if (cols[x] < 0 || swx_table_is_null(t, r, (size_t)cols[x]))
                continue;
            double d = swx_table_column_type(t, (size_t)cols[x]) == SWX_COL_INT
                           ? (double)swx_table_get_int(t, r, (size_t)cols[x])
                           : swx_table_get_real(t, r, (size_t)cols[x]);
            if (isfinite(d))
                out[x] = (float)d;
        }
    }
    return 0;
}

static int fetch_done(void *ud, void *user, int rc, const swx_response *resp)
{
    fetcher *fx = ud;
    size_t j = (size_t)(uintptr_t)user;
    swx_table *t = NULL;
    swx_point_query pq;
    if (rc)
        return rc;
    point_query(&pq, fx, j);
    if ((rc = swx_point_parse(&t, &pq, resp->body, resp->len)) == 0)
        rc = read_answer(fx, j, t);
    swx_table_free(t);
    if (rc) {
        swx_error_prefix(rc, "%s", resp->url);
        return rc;
    }
    fx->done++;
    if (fx->fo && fx->fo->progress)
        fx->fo->progress(fx->fo->ud, fx->done, fx->ns);
    return 0;
}

static int run(fetcher *fx, swx_client *c, size_t from, size_t to, int in_flight)
{
    swx_fetch_opts o = {in_flight, 0, fx->fo ? fx->fo->cancel : NULL};
    fx->next = from;
    fx->end = to;
    int rc = swx_fetch_run(NULL, c, &o, fetch_next, fetch_done, fx);
    swx_query_free(fx->q);
    fx->q = NULL;
    return rc;
}

int swx_plan_forecast_fetch(swx_plan_forecast **out, swx_client *c, const swx_voyage *v,
                            const swx_plan_opts *o, const swx_plan_fetch_opts *fo)
{
    fetcher fx;
    int rc;
    *out = NULL;
    memset(&fx, 0, sizeof fx);
    fx.v = v;
    fx.fo = fo;
    fx.spacing_nm = o->spacing_nm > 0 ? o->spacing_nm : SWX_PLAN_DEFAULT_SPACING_NM;
    if ((rc = swx_plan_sample_count(&fx.ns, v, fx.spacing_nm)))
        return rc;
    /* The first point alone: its times tell whether any departure is inside
     * the forecast before the others are asked. */
    if ((rc = run(&fx, c, 0, 1, 1)))
        goto done;
    if ((rc = swx_plan_forecast_covers(fx.f, o)))
        goto done;
    if (fx.ns > 1 &&
        (rc = run(&fx, c, 1, fx.ns, fo && fo->max_in_flight > 0 ? fo->max_in_flight : 4)))
        goto done;
done:
    if (rc) {
        swx_plan_forecast_free(fx.f);
        return rc;
    }
    *out = fx.f;
    return 0;
}

/* ---- from a voyage GRIB ---- */

typedef struct grib_field {
    int64_t valid;
    int var;
    float *v; /* ns */
} grib_field;

typedef struct grib_reader {
    size_t ns;
    grib_field *f;
    size_t n, cap;
} grib_reader;

/* The plan's variable of a voyage GRIB parameter, -1: not read. */
static int grib_var(const gparam *p)
{
    if (!strcmp(p->var, "wind"))
        return p->q == SWX_GQ_WIND_U ? SWX_PV_U10 : p->q == SWX_GQ_WIND_V ? SWX_PV_V10 : -1;
    if (!strcmp(p->var, "gust"))
        return SWX_PV_GUST;
    if (!strcmp(p->var, "prmsl"))
        return SWX_PV_PMSL;
    if (!strcmp(p->var, "waves"))
        return p->q == SWX_GQ_SWH ? SWX_PV_SWH : p->q == SWX_GQ_MWD ? SWX_PV_MWD : -1;
    return -1;
}

static int grib_take(void *ud, const gparam *p, int64_t valid, const double *values, size_t n)
{
    grib_reader *r = ud;
    int var = grib_var(p);
    if (var < 0)
        return 0;
    if (r->n == r->cap) {
        size_t c = r->cap ? 2 * r->cap : 64;
        grib_field *g = c > 100000 ? NULL : realloc(r->f, c * sizeof *g);
        if (!g)
            return swx_error_set(SWX_ENOMEM, "out of memory reading the GRIB");
        r->f = g;
        r->cap = c;
    }
    float *v = malloc(n * sizeof *v);
    if (!v)
        return swx_error_set(SWX_ENOMEM, "out of memory reading the GRIB");
    for (size_t i = 0; i < n; i++)
        v[i] = (float)values[i];
    r->f[r->n].valid = valid;
    r->f[r->n].var = var;
    r->f[r->n].v = v;
    r->n++;
    return 0;
}

static int cmp_time(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int swx_plan_forecast_from_grib(swx_plan_forecast **out, const char *path, const swx_voyage *v,
                                double spacing_nm)
{
    swx_plan_forecast *f = NULL, *pts = NULL;
    grib_reader r = {0};
    int64_t *times = NULL;
    size_t nt = 0;
    int rc, wind = 0;
    *out = NULL;
    /* the sample points first (no times yet) */
    if ((rc = swx_plan_forecast_new(&pts, v, spacing_nm, 0)))
        return rc;
    r.ns = pts->ns;
    if ((rc = swx__grib_points_read(path, pts->lon, pts->lat, pts->ns, grib_take, &r)))
        goto done;
    if (!(times = malloc((r.n ? r.n : 1) * sizeof *times))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < r.n; i++) {
        wind |= r.f[i].var == SWX_PV_U10;
        times[i] = r.f[i].valid;
    }
    if (!wind) {
        rc = swx_error_set(SWX_EINVAL, "%s: no 10 m wind in the file (%s)", path,
                           swx_setting_name(SWX_SET_GRIB_WIND));
        goto done;
    }
    qsort(times, r.n, sizeof *times, cmp_time);
    for (size_t i = 0; i < r.n; i++)
        if (nt == 0 || times[i] != times[nt - 1])
            times[nt++] = times[i];
    if ((rc = swx_plan_forecast_new(&f, v, spacing_nm, nt)))
        goto done;
    memcpy(f->times, times, nt * sizeof *times);
    for (size_t i = 0; i < r.n; i++) {
        long k = find_time(f, r.f[i].valid);
        for (size_t j = 0; j < f->ns; j++)
            f->value[(j * f->nt + (size_t)k) * SWX_PV_N + (size_t)r.f[i].var] = r.f[i].v[j];
    }
done:
    for (size_t i = 0; i < r.n; i++)
        free(r.f[i].v);
    free(r.f);
    free(times);
    swx_plan_forecast_free(pts);
    if (rc) {
        swx_plan_forecast_free(f);
        return rc;
    }
    *out = f;
    return 0;
}

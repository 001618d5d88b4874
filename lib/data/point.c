/*
 * point.c: the point and time-series endpoints (see seawx/point.h).
 *
 * Every kind is one row of a table (path, which parameters it takes), one
 * check of those parameters, and one reader of its answer shape:
 *   records   {data:[{location{lat,lon}|location{coordinates{lat,lon}},
 *                      time|times{...}, values{name: number, ...}}]}
 *   tides     values is an array of {tide_height}
 *   extrema   {data:[{date, high{time, values{tide_height}}, low{...}}]}
 */
#include "seawx/point.h"

#include "jsonr.h"
#include "params.h"
#include "point_answer.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "table_build.h"
#include "xfields.h"
#include "http_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POINT_MAX_BODY (64u * 1024u * 1024u)

/* Which parameters a kind takes. */
enum {
    P_TIME = 1,
    P_START = 2,
    P_END = 4,
    P_HOURS = 8,
    P_UNITS = 16,
    P_TZ = 32,
    P_FIELDS = 64,
    P_BUNDLES = 128,
};

typedef struct kind_info {
    const char *name;
    const char *path;
    unsigned takes;
    unsigned needs;
} kind_info;

static const kind_info kinds[] = {
    [SWX_POINT_SOIL] = {"soil", "/soil-moisture/point", P_TIME, 0},
    [SWX_POINT_SOIL_HISTORY] = {"soil-history", "/soil-moisture/historical/point", P_START | P_END,
                                P_START | P_END},
    [SWX_POINT_WEATHER] = {"weather", "/current/weather/point", P_TIME | P_UNITS | P_TZ | P_FIELDS,
                           0},
    [SWX_POINT_TIDES] = {"tides", "/tides/point", P_START | P_HOURS | P_UNITS, 0},
    [SWX_POINT_TIDE_EXTREMA] = {"tide-extrema", "/tides/point/extrema", P_START | P_END | P_UNITS,
                                P_START | P_END},
    [SWX_POINT_FORECAST] = {"forecast", "/forecast/point", P_BUNDLES | P_UNITS, P_BUNDLES},
    [SWX_POINT_FORECAST_LATEST] = {"forecast-latest", "/forecast/latest/point", P_BUNDLES,
                                   P_BUNDLES},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* The service's parameter name for each of our names, per kind. */
static const char *start_param(swx_point_kind k)
{
    return k == SWX_POINT_SOIL_HISTORY ? "start_time" : "start_datetime";
}

static const char *end_param(swx_point_kind k)
{
    return k == SWX_POINT_SOIL_HISTORY ? "end_time" : "end_datetime";
}

const char *swx_point_kind_name(swx_point_kind k)
{
    return (size_t)k < NKINDS ? kinds[k].name : "?";
}

int swx_point_kind_parse(swx_point_kind *out, const char *s)
{
    for (size_t i = 0; s && i < NKINDS; i++)
        if (strcmp(s, kinds[i].name) == 0) {
            *out = (swx_point_kind)i;
            return 0;
        }
    return swx_error_set(SWX_EINVAL,
                         "unknown point query '%.40s': use soil, soil-history, weather, tides, "
                         "tide-extrema, forecast or forecast-latest",
                         s ? s : "");
}

/* The tide archive's bounds, as instants: [first, last_end). */
static void tide_archive(int64_t *first, int64_t *end)
{
    *first = swx_days_from_civil(1990, 1, 1) * 86400;
    *end = swx_days_from_civil(2026, 1, 1) * 86400;
}

static int tide_in_archive(const char *name, int64_t t, int64_t t_end)
{
    int64_t first, end;
    tide_archive(&first, &end);
    if (t < first || t_end > end) {
        char a[SWX_ISO8601_LEN];
        swx_iso8601_format(a, t < first ? t : t_end);
        return swx_error_set(SWX_EINVAL,
                             "%s: %s is outside the tide archive, which covers " SWX_TIDES_FIRST
                             " to " SWX_TIDES_LAST,
                             name, a);
    }
    return 0;
}

typedef struct checked {
    double lat, lon;
    int64_t time0, time1, start, end;
    long hours;
} checked;

static int check(const swx_point_query *q, checked *c)
{
    if ((size_t)q->kind >= NKINDS)
        return swx_error_set(SWX_EINVAL, "unknown point query kind");
    const kind_info *k = &kinds[q->kind];
    struct {
        unsigned bit;
        const char *name;
        const char *value;
    } given[] = {{P_TIME, "time", q->time},       {P_START, "start", q->start},
                 {P_END, "end", q->end},          {P_HOURS, "hours", q->hours},
                 {P_UNITS, "units", q->units},    {P_TZ, "tz", q->tz},
                 {P_FIELDS, "fields", q->fields}, {P_BUNDLES, "bundles", q->bundles}};
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < sizeof given / sizeof given[0]; i++) {
        if (given[i].value && !(k->takes & given[i].bit))
            return swx_error_set(SWX_EINVAL, "%s is not a parameter of %s queries", given[i].name,
                                 k->name);
        if (!given[i].value && (k->needs & given[i].bit))
            return swx_error_set(SWX_EINVAL, "%s queries need %s", k->name, given[i].name);
    }
    int rc;
    if ((rc = swx_param_lat(&c->lat, q->lat)) || (rc = swx_param_lon(&c->lon, q->lon)))
        return rc;
    if (q->time) {
        if (q->kind == SWX_POINT_WEATHER)
            rc = swx_param_time_or_range(&c->time0, &c->time1, "time", q->time);
        else
            rc = swx_param_time(&c->time0, "time", q->time);
        if (rc)
            return rc;
    }
    if (q->start && (rc = swx_param_time(&c->start, "start", q->start)))
        return rc;
    if (q->end && (rc = swx_param_time(&c->end, "end", q->end)))
        return rc;
    if (q->start && q->end && (rc = swx_param_order("start", c->start, "end", c->end)))
        return rc;
    c->hours = SWX_TIDES_MAX_HOURS;
    if (q->hours &&
        (rc = swx_param_int(&c->hours, "hours (forecast_hours)", q->hours, 1, SWX_TIDES_MAX_HOURS)))
        return rc;
    if (q->units && (rc = swx_param_units("units", q->units)))
        return rc;
    if (q->tz && (rc = swx_param_tz("tz", q->tz)))
        return rc;
    if (q->fields && (rc = swx_xfields_check(q->fields)))
        return rc;
    if (q->bundles && (rc = swx_param_bundles("bundles", q->bundles)))
        return rc;
    if (q->kind == SWX_POINT_TIDES && q->start &&
        (rc = tide_in_archive("start", c->start, c->start + (int64_t)(c->hours - 1) * 3600)))
        return rc;
    if (q->kind == SWX_POINT_TIDE_EXTREMA && ((rc = tide_in_archive("start", c->start, c->start)) ||
                                              (rc = tide_in_archive("end", c->end, c->end))))
        return rc;
    return 0;
}

/* Before sending: tides without a start begin at the service's now, which
 * is refused there once now is past the archive's end; say so here instead. */
static int tides_start_ok(const swx_point_query *q, const checked *c)
{
    if (q->kind != SWX_POINT_TIDES || q->start)
        return 0;
    int64_t first, end, now = (int64_t)time(NULL) / 3600 * 3600;
    tide_archive(&first, &end);
    if (now + (int64_t)(c->hours - 1) * 3600 >= end) {
        char a[SWX_ISO8601_LEN];
        swx_iso8601_format(a, now);
        return swx_error_set(SWX_EINVAL,
                             "without a start, tides begin now (%s), past the tide archive, "
                             "which covers " SWX_TIDES_FIRST " to " SWX_TIDES_LAST
                             ": give a start within it",
                             a);
    }
    return 0;
}

int swx_point_check(const swx_point_query *q)
{
    checked c;
    int rc = check(q, &c);
    return rc ? rc : tides_start_ok(q, &c);
}

/* ---- reading answers ---- */

typedef struct reader {
    swx_table *t;
    size_t lat, lon;
    double qlat, qlon;
} reader;

static int add_value(reader *r, size_t row, const char *name, json_object *v)
{
    size_t col;
    int rc;
    double d;
    int64_t i;
    if (!v || json_object_is_type(v, json_type_null)) {
        long have = swx_table_find_column(r->t, name);
        if (have >= 0)
            return 0;
        return swx_table_add_column(NULL, r->t, name, SWX_COL_REAL);
    }
    if (json_object_is_type(v, json_type_boolean)) {
        if ((rc = swx_table_add_column(&col, r->t, name, SWX_COL_BOOL)))
            return rc;
        return swx_table_set_bool(r->t, row, col, json_object_get_boolean(v));
    }
    if (json_object_is_type(v, json_type_string)) {
        if ((rc = swx_table_add_column(&col, r->t, name, SWX_COL_STRING)))
            return rc;
        return swx_table_set_string(r->t, row, col, json_object_get_string(v));
    }
    if (swx_jsonr_num(&d, v)) {
        long have = swx_table_find_column(r->t, name);
        if (have >= 0 && swx_table_column_type(r->t, (size_t)have) == SWX_COL_INT &&
            swx_jsonr_int(&i, v))
            return swx_table_set_int(r->t, row, (size_t)have, i);
        if ((rc = swx_table_add_column(&col, r->t, name, SWX_COL_REAL)))
            return rc;
        return swx_table_set_real(r->t, row, col, d);
    }
    return 0; /* objects and arrays inside values are not columns */
}

static int add_values(reader *r, size_t row, json_object *values)
{
    if (!values || !json_object_is_type(values, json_type_object))
        return 0;
    json_object_object_foreach(values, key, v)
    {
        int rc = add_value(r, row, key, v);
        if (rc)
            return rc;
    }
    return 0;
}

static int set_time(reader *r, size_t row, const char *colname, json_object *v)
{
    size_t col;
    int64_t t;
    int rc;
    /* A time the answer does not carry (an X-Fields mask left it out) adds no column. */
    if (!v || json_object_is_type(v, json_type_null))
        return 0;
    if ((rc = swx_table_add_column(&col, r->t, colname, SWX_COL_TIME)))
        return rc;
    if (!swx_jsonr_time(&t, v))
        return swx_error_set(SWX_EPARSE, "the answer's %s '%.40s' is not an ISO 8601 time", colname,
                             swx_jsonr_str(v) ? swx_jsonr_str(v) : "(not a string)");
    return swx_table_set_time(r->t, row, col, t);
}

static int set_location(reader *r, size_t row, json_object *rec)
{
    json_object *loc = swx_jsonr_path(rec, "location", NULL);
    json_object *coords = swx_jsonr_path(loc, "coordinates", NULL);
    if (coords && json_object_is_type(coords, json_type_object))
        loc = coords;
    double lat = r->qlat, lon = r->qlon, v;
    if (swx_jsonr_num(&v, swx_jsonr_path(loc, "lat", NULL)))
        lat = v;
    if (swx_jsonr_num(&v, swx_jsonr_path(loc, "lon", NULL)))
        lon = v;
    int rc = swx_table_set_real(r->t, row, r->lat, lat);
    return rc ? rc : swx_table_set_real(r->t, row, r->lon, lon);
}

static json_object *data_array(json_object *root, int *rc)
{
    json_object *data = swx_jsonr_path(root, "data", NULL);
    if (!data || !json_object_is_type(data, json_type_array)) {
        *rc = swx_error_set(SWX_ESERVICE, "the answer has no data array");
        return NULL;
    }
    return data;
}

static int read_records(reader *r, const swx_point_query *q, json_object *root)
{
    int rc = 0;
    json_object *data = data_array(root, &rc);
    if (!data)
        return rc;
    /* The fixed columns come first, so every answer of a kind starts alike. */
    static const char *const soil_vars[] = {"soil_moisture_0_10cm", "soil_moisture_10_40cm",
                                            "soil_moisture_40_100cm", "soil_temperature_0_10cm"};
    int soil = q->kind == SWX_POINT_SOIL || q->kind == SWX_POINT_SOIL_HISTORY;
    int forecast = q->kind == SWX_POINT_FORECAST || q->kind == SWX_POINT_FORECAST_LATEST;
    if (soil) {
        if ((rc = swx_table_add_column(NULL, r->t, "time", SWX_COL_TIME)))
            return rc;
        for (size_t i = 0; i < 4; i++)
            if ((rc = swx_table_add_column(NULL, r->t, soil_vars[i], SWX_COL_REAL)))
                return rc;
    }
    size_t n = json_object_array_length(data);
    for (size_t i = 0; i < n; i++) {
        json_object *rec = json_object_array_get_idx(data, i);
        size_t row;
        if (!rec || !json_object_is_type(rec, json_type_object))
            return swx_error_set(SWX_ESERVICE, "record %zu of the answer is not an object", i + 1);
        if ((rc = swx_table_add_row(&row, r->t)) || (rc = set_location(r, row, rec)))
            return rc;
        if (soil) {
            json_object *tv = swx_jsonr_path(rec, "time", NULL);
            if (!tv)
                tv = swx_jsonr_path(rec, "times", "valid_time", NULL);
            rc = set_time(r, row, "time", tv);
        } else if (forecast) {
            if (!(rc = set_time(r, row, "issuance_time",
                                swx_jsonr_path(rec, "times", "issuance_time", NULL))))
                rc = set_time(r, row, "valid_time",
                              swx_jsonr_path(rec, "times", "valid_time", NULL));
        } else {
            rc = set_time(r, row, "observation_time",
                          swx_jsonr_path(rec, "times", "observation_time", NULL));
        }
        if (rc || (rc = add_values(r, row, swx_jsonr_path(rec, "values", NULL))))
            return rc;
    }
    return 0;
}

static int read_tides(reader *r, json_object *root)
{
    int rc = 0;
    size_t tcol, hcol;
    json_object *data = data_array(root, &rc);
    if (!data)
        return rc;
    if ((rc = swx_table_add_column(&tcol, r->t, "valid_time", SWX_COL_TIME)) ||
        (rc = swx_table_add_column(&hcol, r->t, "tide_height", SWX_COL_REAL)))
        return rc;
    size_t n = json_object_array_length(data);
    for (size_t i = 0; i < n; i++) {
        json_object *rec = json_object_array_get_idx(data, i);
        size_t row;
        double h;
        if ((rc = swx_table_add_row(&row, r->t)) || (rc = set_location(r, row, rec)) ||
            (rc = set_time(r, row, "valid_time", swx_jsonr_path(rec, "times", "valid_time", NULL))))
            return rc;
        json_object *vals = swx_jsonr_path(rec, "values", NULL);
        json_object *first =
            vals && json_object_is_type(vals, json_type_array) && json_object_array_length(vals) > 0
                ? json_object_array_get_idx(vals, 0)
                : vals;
        if (swx_jsonr_num(&h, swx_jsonr_path(first, "tide_height", NULL)) &&
            (rc = swx_table_set_real(r->t, row, hcol, h)))
            return rc;
    }
    return 0;
}

static int read_extrema(reader *r, json_object *root)
{
    int rc = 0;
    size_t dcol, cols[4];
    json_object *data = data_array(root, &rc);
    if (!data)
        return rc;
    if ((rc = swx_table_add_column(&dcol, r->t, "date", SWX_COL_DATE)) ||
        (rc = swx_table_add_column(&cols[0], r->t, "high_time", SWX_COL_TIME)) ||
        (rc = swx_table_add_column(&cols[1], r->t, "high_tide_height", SWX_COL_REAL)) ||
        (rc = swx_table_add_column(&cols[2], r->t, "low_time", SWX_COL_TIME)) ||
        (rc = swx_table_add_column(&cols[3], r->t, "low_tide_height", SWX_COL_REAL)))
        return rc;
    size_t n = json_object_array_length(data);
    for (size_t i = 0; i < n; i++) {
        json_object *rec = json_object_array_get_idx(data, i);
        size_t row;
        int64_t day;
        double h;
        if ((rc = swx_table_add_row(&row, r->t)) || (rc = set_location(r, row, rec)))
            return rc;
        const char *ds = swx_jsonr_str(swx_jsonr_path(rec, "date", NULL));
        if (ds) {
            if (strlen(ds) != 10 || swx_iso8601_parse(&day, ds) != 0)
                return swx_error_set(SWX_EPARSE, "the answer's date '%.20s' is not YYYY-MM-DD", ds);
            if ((rc = swx_table_set_time(r->t, row, dcol, day)))
                return rc;
        }
        const char *which[2] = {"high", "low"};
        for (int k = 0; k < 2; k++) {
            json_object *e = swx_jsonr_path(rec, which[k], NULL);
            if ((rc = set_time(r, row, k ? "low_time" : "high_time",
                               swx_jsonr_path(e, "time", NULL))))
                return rc;
            if (swx_jsonr_num(&h, swx_jsonr_path(e, "values", "tide_height", NULL)) &&
                (rc = swx_table_set_real(r->t, row, cols[k * 2 + 1], h)))
                return rc;
        }
    }
    return 0;
}

static int read_meta(swx_table *t, json_object *root, const swx_point_query *q)
{
    static const char *const keys[] = {"unit_system", "forecast", "message"};
    json_object *meta = swx_jsonr_path(root, "meta", NULL);
    int rc = 0;
    for (size_t i = 0; i < 3 && !rc; i++) {
        const char *v = swx_jsonr_str(swx_jsonr_path(meta, keys[i], NULL));
        if (v && *v)
            rc = swx_table_set_meta(t, keys[i], v);
    }
    const char *units = swx_table_meta(t, "unit_system");
    if (!rc && !units && q->kind != SWX_POINT_SOIL && q->kind != SWX_POINT_SOIL_HISTORY)
        rc = swx_table_set_meta(t, "unit_system", q->units ? q->units : "si");
    units = swx_table_meta(t, "unit_system");
    if (!rc && (q->kind == SWX_POINT_TIDES || q->kind == SWX_POINT_TIDE_EXTREMA))
        rc = swx_table_set_meta(t, "height_unit", units && strcmp(units, "us") == 0 ? "ft" : "m");
    return rc;
}

int swx_point_parse(swx_table **out, const swx_point_query *q, const char *body, size_t len)
{
    json_object *root = NULL;
    reader r = {0};
    checked c;
    int rc;
    *out = NULL;
    if ((rc = check(q, &c)))
        return rc;
    r.qlat = c.lat;
    r.qlon = c.lon;
    if ((rc = swx_jsonr_parse(&root, body, len, "the point answer")))
        return rc;
    if ((rc = swx_table_new(&r.t)) ||
        (rc = swx_table_add_column(&r.lat, r.t, "lat", SWX_COL_REAL)) ||
        (rc = swx_table_add_column(&r.lon, r.t, "lon", SWX_COL_REAL)) ||
        (rc = swx_table_set_point(r.t, r.lat, r.lon)))
        goto done;
    switch (q->kind) {
    case SWX_POINT_TIDES:
        rc = read_tides(&r, root);
        break;
    case SWX_POINT_TIDE_EXTREMA:
        rc = read_extrema(&r, root);
        break;
    default:
        rc = read_records(&r, q, root);
        break;
    }
    if (!rc)
        rc = read_meta(r.t, root, q);
done:
    json_object_put(root);
    if (rc) {
        swx_table_free(r.t);
        return rc;
    }
    *out = r.t;
    return 0;
}

/* ---- the request ---- */

static int add_time(swx_query *qs, const char *key, int64_t t)
{
    char s[SWX_ISO8601_LEN];
    swx_iso8601_format(s, t);
    return swx_query_add(qs, key, s);
}

int swx_point_get(swx_table **out, swx_client *cl, const swx_point_query *q)
{
    checked c;
    swx_query *qs = NULL;
    swx_response *resp = NULL;
    char header[SWX_XFIELDS_MAX_LEN + 16];
    const char *headers[2] = {NULL, NULL};
    int rc;
    *out = NULL;
    if ((rc = check(q, &c)) || (rc = tides_start_ok(q, &c)))
        return rc;
    if ((rc = swx_query_new(&qs)) || (rc = swx_query_addf(qs, "lat", "%.10g", c.lat)) ||
        (rc = swx_query_addf(qs, "lon", "%.10g", c.lon)))
        goto done;
    if (q->time && q->kind == SWX_POINT_WEATHER && c.time1 != c.time0) {
        char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
        swx_iso8601_format(a, c.time0);
        swx_iso8601_format(b, c.time1);
        rc = swx_query_addf(qs, "time", "%s/%s", a, b);
    } else if (q->time) {
        rc = add_time(qs, "time", c.time0);
    }
    if (!rc && q->start)
        rc = add_time(qs, start_param(q->kind), c.start);
    if (!rc && q->end)
        rc = add_time(qs, end_param(q->kind), c.end);
    if (!rc && q->hours)
        rc = swx_query_addf(qs, "forecast_hours", "%ld", c.hours);
    if (!rc && q->bundles)
        rc = swx_query_add(qs, "bundles", q->bundles);
    if (!rc && q->units)
        rc = swx_query_add(qs, "unit_system", q->units);
    if (!rc && q->tz)
        rc = swx_query_add(qs, "tz", q->tz);
    if (rc)
        goto done;
    if (q->fields) {
        snprintf(header, sizeof header, "X-Fields: %s", q->fields);
        headers[0] = header;
    }
    swx_request req = {0};
    req.service = SWX_SERVICE_MAIN;
    req.path = kinds[q->kind].path;
    req.query = qs;
    req.accept = "application/json";
    req.headers = q->fields ? headers : NULL;
    req.max_body = POINT_MAX_BODY;
    if ((rc = swx_http_get(&resp, cl, &req)))
        goto done;
    rc = swx_point_parse(out, q, resp->body, resp->len);
    if (rc)
        swx_error_prefix(rc, "%s", resp->url);
done:
    swx_response_free(resp);
    swx_query_free(qs);
    return rc;
}

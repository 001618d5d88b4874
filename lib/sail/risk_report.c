/* risk_report.c: a voyage's risk report against a selection of storms
 * (seawx/risk.h): one row per storm that meets the voyage in time, written as
 * JSON and as the GeoJSON of the stretches sailed at risk. */
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "seawx/risk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct risk_row {
    char *id, *title;
    swx_storm_risk r;
};

struct swx_risk_report {
    const swx_voyage *v;
    const swx_storm_danger *d;
    struct risk_row *rows;
    size_t n, cap;
    size_t storms; /* looked at */
};

int swx_risk_report_new(swx_risk_report **out, const swx_voyage *v, const swx_storm_danger *d)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    (*out)->v = v;
    (*out)->d = d;
    return 0;
}

void swx_risk_report_free(swx_risk_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        free(r->rows[i].id);
        free(r->rows[i].title);
    }
    free(r->rows);
    free(r);
}

int swx_risk_report_add(void *ud, const swx_storm *s)
{
    swx_risk_report *rr = ud;
    swx_storm_risk r;
    int rc = swx_risk_of_storm(&r, rr->v, s, rr->d);
    rr->storms++;
    if (rc || !r.overlap)
        return rc;
    if (rr->n == rr->cap) {
        size_t c = rr->cap ? rr->cap * 2 : 16;
        if (c > SWX_RISK_MAX_STORMS)
            return swx_error_set(SWX_ETOOBIG, "more than %d storms meet the voyage",
                                 SWX_RISK_MAX_STORMS);
        struct risk_row *nr = realloc(rr->rows, c * sizeof *nr);
        if (!nr)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        rr->rows = nr;
        rr->cap = c;
    }
    const char *title = s->storm_name && *s->storm_name ? s->storm_name : s->atcf_id;
    struct risk_row *row = &rr->rows[rr->n];
    row->id = strdup(s->atcf_id ? s->atcf_id : "");
    row->title = strdup(title ? title : "");
    row->r = r;
    if (!row->id || !row->title) {
        free(row->id);
        free(row->title);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    rr->n++;
    return 0;
}

size_t swx_risk_report_checked(const swx_risk_report *r)
{
    return r->storms;
}

size_t swx_risk_report_count(const swx_risk_report *r)
{
    return r->n;
}

const swx_storm_risk *swx_risk_report_row(const swx_risk_report *r, size_t i, const char **atcf_id,
                                          const char **title)
{
    if (atcf_id)
        *atcf_id = r->rows[i].id;
    if (title)
        *title = r->rows[i].title;
    return &r->rows[i].r;
}

int swx_risk_report_worst(const swx_risk_report *r, size_t *row)
{
    int worst = -1;
    for (size_t i = 0; i < r->n; i++)
        if (r->rows[i].r.worst > worst) {
            worst = r->rows[i].r.worst;
            if (row)
                *row = i;
        }
    return worst;
}

/* A moment as a voyage's dates are read, "10-09 03:59Z": in UTC, to the minute. */
static void fmt_time(char out[SWX_ISO8601_LEN], int64_t t)
{
    char iso[SWX_ISO8601_LEN];
    swx_iso8601_format(iso, t); /* YYYY-MM-DDTHH:MM:SSZ */
    snprintf(out, SWX_ISO8601_LEN, "%.5s %.5sZ", iso + 5, iso + 11);
}

/* Opens a row's object in the report and in its segments' properties with the
 * storm it is about. */
static void storm_begin(swx_jsonw *j, const struct risk_row *row)
{
    swx_jsonw_object_begin(j);
    swx_jsonw_key(j, "atcf_id");
    swx_jsonw_string(j, row->id);
    swx_jsonw_key(j, "title");
    swx_jsonw_string(j, row->title);
}

int swx_risk_report_json(FILE *f, const swx_risk_report *rr)
{
    swx_jsonw *j;
    int64_t depart;
    double arrival;
    const swx_voyage *v = rr->v;
    int rc = swx_jsonw_new(&j, f, 1);
    if (rc)
        return rc;
    swx_voyage_span(&depart, &arrival, v);
    swx_jsonw_object_begin(j);
    swx_jsonw_key(j, "voyage");
    swx_jsonw_object_begin(j);
    swx_jsonw_key(j, "length_nm");
    swx_jsonw_number(j, swx_voyage_length(v) / SWX_NM_M, 1);
    swx_jsonw_key(j, "depart");
    swx_jsonw_time(j, depart);
    swx_jsonw_key(j, "arrive_by");
    swx_jsonw_time(j, (int64_t)ceil(arrival));
    swx_jsonw_object_end(j);
    swx_jsonw_key(j, "storms_checked");
    swx_jsonw_int(j, (int64_t)rr->storms);
    swx_jsonw_key(j, "storms");
    swx_jsonw_array_begin(j);
    for (size_t i = 0; i < rr->n; i++) {
        const swx_storm_risk *r = &rr->rows[i].r;
        storm_begin(j, &rr->rows[i]);
        swx_jsonw_key(j, "compared_from");
        swx_jsonw_time(j, r->from);
        swx_jsonw_key(j, "compared_to");
        swx_jsonw_time(j, r->to);
        swx_jsonw_key(j, "closest_approach");
        swx_jsonw_object_begin(j);
        swx_jsonw_key(j, "nm");
        swx_jsonw_number(j, r->cpa_nm, 2);
        swx_jsonw_key(j, "time");
        swx_jsonw_time(j, r->cpa_time);
        swx_jsonw_key(j, "speed");
        swx_jsonw_string(j, r->cpa_fast ? "highest" : "lowest");
        swx_jsonw_key(j, "ship");
        swx_jsonw_array_begin(j);
        swx_jsonw_number(j, r->cpa_ship_lon, 6);
        swx_jsonw_number(j, r->cpa_ship_lat, 6);
        swx_jsonw_array_end(j);
        swx_jsonw_key(j, "storm");
        swx_jsonw_array_begin(j);
        swx_jsonw_number(j, r->cpa_storm_lon, 6);
        swx_jsonw_number(j, r->cpa_storm_lat, 6);
        swx_jsonw_array_end(j);
        swx_jsonw_object_end(j);
        for (int m = 0; m < SWX_RISK_NMEASURES; m++) {
            const swx_risk_span *sp = &r->span[m];
            swx_jsonw_key(j, swx_risk_measure_name(m));
            if (!sp->inside) {
                swx_jsonw_null(j);
                continue;
            }
            swx_jsonw_object_begin(j);
            swx_jsonw_key(j, "first");
            swx_jsonw_time(j, sp->first);
            swx_jsonw_key(j, "last");
            swx_jsonw_time(j, sp->last);
            swx_jsonw_key(j, "route_from_nm");
            swx_jsonw_number(j, sp->s_from / SWX_NM_M, 2);
            swx_jsonw_key(j, "route_to_nm");
            swx_jsonw_number(j, sp->s_to / SWX_NM_M, 2);
            swx_jsonw_object_end(j);
        }
        swx_jsonw_key(j, "worst");
        swx_jsonw_string(j, r->worst >= 0 ? swx_risk_measure_name(r->worst) : NULL);
        swx_jsonw_object_end(j);
    }
    swx_jsonw_array_end(j);
    swx_jsonw_object_end(j);
    return swx_jsonw_finish(j);
}

/* The stretch [s0, s1] of the route as a line of points every 5 nm (and
 * its ends), cut at the antimeridian: the part before the cut ends at
 * longitude 180 (or -180) and the next begins at the other, at the latitude
 * where the line between the two points either side crosses it, so the
 * stretch has no gap there (nor do the storm tracks, cut there too). */
static void segment_line(FILE *f, const swx_voyage *v, double s0, double s1)
{
    const double step = 5 * SWX_NM_M;
    size_t n = 2 + (size_t)((s1 - s0) / step);
    double plon = 0, plat = 0;
    fputs("{\"type\":\"MultiLineString\",\"coordinates\":[", f);
    for (size_t i = 0; i < n; i++) {
        double s = i + 1 == n ? s1 : s0 + (double)i * step, lon, lat;
        if (s > s1)
            s = s1;
        swx_voyage_point(&lon, &lat, v, s);
        while (lon >= 180)
            lon -= 360;
        while (lon < -180)
            lon += 360;
        if (i && fabs(lon - plon) > 180) {
            /* eastward (179.9 to -179.9) crosses +180, westward -180 */
            double edge = lon < plon ? 180.0 : -180.0;
            double unwrapped = lon < plon ? lon + 360 : lon - 360;
            double lat_c = plat + (edge - plon) / (unwrapped - plon) * (lat - plat);
            fprintf(f, ",[%.6f,%.6f]],[[%.6f,%.6f]", edge, lat_c, -edge, lat_c);
        }
        fprintf(f, "%s[%.6f,%.6f]", i ? "," : "[", lon, lat);
        plon = lon;
        plat = lat;
    }
    fputs("]]}", f);
}

int swx_risk_report_segments(FILE *f, const swx_risk_report *rr)
{
    fputs("{\"type\":\"FeatureCollection\",\"features\":[\n", f);
    int first = 1;
    for (size_t i = 0; i < rr->n; i++)
        for (int m = 0; m < SWX_RISK_NMEASURES; m++) {
            const swx_risk_span *sp = &rr->rows[i].r.span[m];
            if (!sp->inside)
                continue;
            char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
            fmt_time(a, sp->first);
            fmt_time(b, sp->last);
            swx_jsonw *j;
            fputs(first ? "{\"type\":\"Feature\",\"properties\":"
                        : ",\n{\"type\":\"Feature\","
                          "\"properties\":",
                  f);
            first = 0;
            int rc = swx_jsonw_new(&j, f, 0);
            if (rc)
                return rc;
            storm_begin(j, &rr->rows[i]);
            swx_jsonw_key(j, "measure");
            swx_jsonw_string(j, swx_risk_measure_name(m));
            swx_jsonw_key(j, "first");
            swx_jsonw_string(j, a);
            swx_jsonw_key(j, "last");
            swx_jsonw_string(j, b);
            swx_jsonw_key(j, "route_from_nm");
            swx_jsonw_number(j, sp->s_from / SWX_NM_M, 2);
            swx_jsonw_key(j, "route_to_nm");
            swx_jsonw_number(j, sp->s_to / SWX_NM_M, 2);
            swx_jsonw_object_end(j);
            if ((rc = swx_jsonw_finish(j)))
                return rc;
            fputs(",\"geometry\":", f);
            segment_line(f, rr->v, sp->s_from, sp->s_to);
            fputs("}", f);
        }
    fputs("\n]}\n", f);
    return ferror(f) ? swx_error_set(SWX_EIO, "cannot write the route's stretches at risk") : 0;
}

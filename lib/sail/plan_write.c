/* plan_write.c: the departure plan as JSON and as CSV (seawx/plan.h), the
 * files `seawx plan --json/--csv` writes and a voyage package holds. */
#include "csv.h"
#include "plan_result.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "seawx/plan.h"

#include <math.h>
#include <stdio.h>

static void json_time(swx_jsonw *w, double t)
{
    if (isnan(t))
        swx_jsonw_null(w);
    else
        swx_jsonw_time(w, (int64_t)llround(t));
}

void swx_plan_json_opt(swx_jsonw *w, const char *key, double v)
{
    swx_jsonw_key(w, key);
    if (v > 0)
        swx_jsonw_number(w, v, -1);
    else
        swx_jsonw_null(w);
}

static void json_num(swx_jsonw *w, const char *key, double v, int decimals)
{
    swx_jsonw_key(w, key);
    swx_jsonw_number(w, v, decimals);
}

/* The options the plan was made with. */
static void json_options(swx_jsonw *w, const swx_plan_info *in)
{
    const swx_plan_opts *o = in->o;
    swx_jsonw_key(w, "options");
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "from");
    swx_jsonw_time(w, o->from);
    swx_jsonw_key(w, "to");
    swx_jsonw_time(w, o->to);
    swx_jsonw_key(w, "step_s");
    swx_jsonw_int(w, o->step);
    swx_plan_json_opt(w, "min_kn", o->min_kn);
    swx_plan_json_opt(w, "max_kn", o->polar ? 0 : o->max_kn);
    swx_jsonw_key(w, "polar");
    swx_jsonw_string(w, in->polar);
    swx_jsonw_key(w, "step_track_s");
    swx_jsonw_int(w, SWX_PLAN_STEP_S);
    swx_plan_json_opt(w, "max_wind_kn", o->max_wind_kn);
    swx_plan_json_opt(w, "max_gust_kn", o->max_gust_kn);
    swx_plan_json_opt(w, "max_wave_m", o->max_wave_m);
    swx_plan_json_opt(w, "max_upwind_h", o->max_upwind_h);
    json_num(w, "upwind_angle_deg", o->upwind_angle_deg > 0 ? o->upwind_angle_deg : 50, -1);
    swx_jsonw_key(w, "storms");
    swx_jsonw_bool(w, in->storms);
    if (in->routed) {
        swx_jsonw_key(w, "routed");
        swx_jsonw_bool(w, 1);
    }
    swx_jsonw_object_end(w);
}

/* Where the forecast came from and what it covers. */
static void json_forecast(swx_jsonw *w, const swx_plan_info *in)
{
    swx_jsonw_key(w, "forecast");
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "source");
    swx_jsonw_string(w, in->grib ? "grib" : "point");
    swx_jsonw_key(w, "file");
    swx_jsonw_string(w, in->grib);
    swx_jsonw_key(w, "first");
    swx_jsonw_time(w, in->forecast_first);
    swx_jsonw_key(w, "last");
    swx_jsonw_time(w, in->forecast_last);
    swx_jsonw_key(w, "times");
    swx_jsonw_int(w, (int64_t)in->forecast_times);
    swx_jsonw_object_end(w);
}

/* The route's length and its sample points. */
static void json_route(swx_jsonw *w, const swx_plan *p)
{
    size_t ns = swx_plan_samples(p);
    swx_jsonw_key(w, "route");
    swx_jsonw_object_begin(w);
    json_num(w, "length_nm", ns ? swx_plan_sample_nm(p, ns - 1) : 0, 4);
    swx_jsonw_key(w, "samples");
    swx_jsonw_array_begin(w);
    for (size_t j = 0; j < ns; j++) {
        double lon, lat, course;
        swx_plan_sample_point(p, j, &lon, &lat, &course);
        swx_jsonw_object_begin(w);
        json_num(w, "nm", swx_plan_sample_nm(p, j), 4);
        /* as the requests gave them */
        json_num(w, "lon", lon, 5);
        json_num(w, "lat", lat, 5);
        json_num(w, "course_deg", course, 4);
        swx_jsonw_object_end(w);
    }
    swx_jsonw_array_end(w);
    swx_jsonw_object_end(w);
}

/* A departure's closest storm, or null. */
static void json_storm(swx_jsonw *w, const swx_plan_departure *r)
{
    swx_jsonw_key(w, "storm");
    if (!r->storm_title) {
        swx_jsonw_null(w);
        return;
    }
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "atcf_id");
    swx_jsonw_string(w, r->storm_id);
    swx_jsonw_key(w, "title");
    swx_jsonw_string(w, r->storm_title);
    json_num(w, "cpa_nm", r->storm_cpa_nm, 2);
    json_num(w, "danger_area_h", r->storm_danger_h, 3);
    json_num(w, "r34_h", r->storm_r34_h, 3);
    swx_jsonw_object_end(w);
}

/* The chart's column of departure i: per sample point. */
static void json_cells(swx_jsonw *w, const swx_plan *p, size_t i)
{
    size_t ns = swx_plan_samples(p);
    swx_jsonw_key(w, "cells");
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "wind_kn");
    swx_jsonw_array_begin(w);
    for (size_t j = 0; j < ns; j++)
        swx_jsonw_number(w, swx_plan_cell_wind_kn(p, i, j), 3);
    swx_jsonw_array_end(w);
    swx_jsonw_key(w, "wave_m");
    swx_jsonw_array_begin(w);
    for (size_t j = 0; j < ns; j++)
        swx_jsonw_number(w, swx_plan_cell_wave_m(p, i, j), 3);
    swx_jsonw_array_end(w);
    swx_jsonw_key(w, "storm");
    swx_jsonw_array_begin(w);
    for (size_t j = 0; j < ns; j++)
        swx_jsonw_int(w, swx_plan_cell_storm(p, i, j));
    swx_jsonw_array_end(w);
    swx_jsonw_object_end(w);
}

/* A departure's own route (--routed). */
static void json_routed(swx_jsonw *w, const swx_plan_routed *r)
{
    swx_jsonw_key(w, "routed");
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "found");
    swx_jsonw_bool(w, r->found);
    swx_jsonw_key(w, "arrive");
    if (r->found)
        swx_jsonw_time(w, r->arrive);
    else
        swx_jsonw_null(w);
    json_num(w, "hours", r->found ? r->hours : NAN, 3);
    json_num(w, "distance_nm", r->found ? r->distance_nm : NAN, 2);
    json_num(w, "max_wind_kn", r->found ? r->max_wind_kn : NAN, 3);
    json_num(w, "max_gust_kn", r->found ? r->max_gust_kn : NAN, 3);
    json_num(w, "max_wave_m", r->found ? r->max_wave_m : NAN, 3);
    swx_jsonw_key(w, "reason");
    swx_jsonw_string(w, r->found ? NULL : r->reason);
    swx_jsonw_object_end(w);
}

/* Departure i of the plan. */
static void json_departure(swx_jsonw *w, const swx_plan *p, size_t i, const swx_plan_info *in)
{
    const swx_plan_departure *r = swx_plan_row(p, i);
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "depart");
    swx_jsonw_time(w, r->depart);
    swx_jsonw_key(w, "arrive_early");
    json_time(w, r->arrive_early);
    swx_jsonw_key(w, "arrive_late");
    json_time(w, r->arrive_late);
    swx_jsonw_key(w, "partial");
    swx_jsonw_bool(w, r->partial);
    json_num(w, "max_wind_kn", r->max_wind_kn, 3);
    json_num(w, "max_gust_kn", r->max_gust_kn, 3);
    json_num(w, "max_wave_m", r->max_wave_m, 3);
    json_num(w, "hours_wind", r->hours_wind, 4);
    json_num(w, "hours_gust", r->hours_gust, 4);
    json_num(w, "hours_wave", r->hours_wave, 4);
    json_num(w, "hours_upwind", r->hours_upwind, 4);
    json_storm(w, r);
    swx_jsonw_key(w, "verdict");
    swx_jsonw_string(w, swx_plan_verdict_name(r->verdict));
    swx_jsonw_key(w, "reason");
    swx_jsonw_string(w, r->reason);
    if (in->routed)
        json_routed(w, &in->routed[i]);
    json_cells(w, p, i);
    swx_jsonw_object_end(w);
}

int swx_plan_write_json(FILE *f, const swx_plan *p, const size_t *order, const swx_plan_info *in)
{
    swx_jsonw *w = NULL;
    int rc = swx_jsonw_new(&w, f, 1);
    if (rc)
        return rc;
    swx_jsonw_object_begin(w);
    json_options(w, in);
    json_forecast(w, in);
    swx_jsonw_key(w, "departures_left_out");
    swx_jsonw_int(w, (int64_t)swx_plan_left_out(p));
    swx_jsonw_key(w, "storms_checked");
    if (in->storms)
        swx_jsonw_int(w, (int64_t)in->storms_checked);
    else
        swx_jsonw_null(w);
    json_route(w, p);
    swx_jsonw_key(w, "departures");
    swx_jsonw_array_begin(w);
    for (size_t k = 0; k < swx_plan_count(p); k++)
        json_departure(w, p, order[k], in);
    swx_jsonw_array_end(w);
    swx_jsonw_object_end(w);
    rc = swx_jsonw_finish(w);
    if (!rc && fputc('\n', f) == EOF)
        rc = swx_error_set(SWX_EIO, "writing the JSON failed");
    return rc;
}

static void csv_num(FILE *f, double v, int decimals)
{
    if (!isnan(v))
        fprintf(f, "%.*f", decimals, v);
}

static void csv_time(FILE *f, double t)
{
    char iso[SWX_ISO8601_LEN];
    if (isnan(t))
        return;
    swx_iso8601_format(iso, (int64_t)llround(t));
    fputs(iso, f);
}

/* The routed_ columns of a departure's row (--routed). */
static void csv_routed(FILE *f, const swx_plan_routed *r)
{
    fprintf(f, ",%d,", r->found);
    if (r->found) {
        csv_time(f, (double)r->arrive);
        fprintf(f, ",%.3f,%.2f,", r->hours, r->distance_nm);
        csv_num(f, r->max_wind_kn, 3);
        fputc(',', f);
        csv_num(f, r->max_gust_kn, 3);
        fputc(',', f);
        csv_num(f, r->max_wave_m, 3);
        fputc(',', f);
    } else {
        fputs(",,,,,,", f);
        swx_csv_field(f, r->reason);
    }
}

int swx_plan_write_csv(FILE *f, const swx_plan *p, const size_t *order,
                       const swx_plan_routed *routed)
{
    fputs("depart,arrive_early,arrive_late,partial,max_wind_kn,max_gust_kn,max_wave_m,"
          "hours_wind,hours_gust,hours_wave,hours_upwind,storm_atcf_id,storm_title,"
          "storm_cpa_nm,storm_danger_area_h,storm_r34_h,verdict,reason",
          f);
    fputs(routed ? ",routed_found,routed_arrive,routed_hours,routed_distance_nm,"
                   "routed_max_wind_kn,routed_max_gust_kn,routed_max_wave_m,routed_reason\n"
                 : "\n",
          f);
    for (size_t k = 0; k < swx_plan_count(p); k++) {
        const swx_plan_departure *r = swx_plan_row(p, order[k]);
        csv_time(f, (double)r->depart);
        fputc(',', f);
        csv_time(f, r->arrive_early);
        fputc(',', f);
        csv_time(f, r->arrive_late);
        fprintf(f, ",%d,", r->partial);
        csv_num(f, r->max_wind_kn, 3);
        fputc(',', f);
        csv_num(f, r->max_gust_kn, 3);
        fputc(',', f);
        csv_num(f, r->max_wave_m, 3);
        fprintf(f, ",%.4f,%.4f,%.4f,%.4f,", r->hours_wind, r->hours_gust, r->hours_wave,
                r->hours_upwind);
        swx_csv_field(f, r->storm_id);
        fputc(',', f);
        swx_csv_field(f, r->storm_title);
        fputc(',', f);
        if (r->storm_title)
            fprintf(f, "%.2f,%.3f,%.3f", r->storm_cpa_nm, r->storm_danger_h, r->storm_r34_h);
        else
            fputs(",,", f);
        fprintf(f, ",%s,", swx_plan_verdict_name(r->verdict));
        swx_csv_field(f, r->reason);
        if (routed)
            csv_routed(f, &routed[order[k]]);
        fputc('\n', f);
    }
    return ferror(f) ? swx_error_set(SWX_EIO, "writing the CSV failed") : 0;
}

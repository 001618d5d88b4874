/* route_write.c: what `seawx route` writes of a route (seawx/route_out.h):
 * GPX, GeoJSON of the route and of its isochrones, and the JSON summary. */
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "seawx/route_out.h"
#include "seawx/route_storms.h"
#include "xml.h"

#include <math.h>
#include <stdio.h>

const char *swx_routing_sail_name(int kind)
{
    static const char *const names[SWX_SAIL_KINDS] = {"upwind", "reaching", "downwind", "motoring"};
    return kind >= 0 && kind < SWX_SAIL_KINDS ? names[kind] : "";
}

static int sail_kind(const swx_routing_point *p)
{
    if (p->motoring)
        return SWX_SAIL_MOTORING;
    double a = fabs(p->twa_deg);
    return a <= 60 ? SWX_SAIL_UPWIND : a <= 120 ? SWX_SAIL_REACHING : SWX_SAIL_DOWNWIND;
}

/* The larger of m and v, where NAN is "not known" (never larger). */
static double max_known(double m, double v)
{
    if (isnan(v))
        return m;
    return isnan(m) || v > m ? v : m;
}

void swx_routing_summarize(swx_routing_summary *s, const swx_routing *r)
{
    const swx_routing_point *p = swx_routing_points(r);
    size_t n = swx_routing_npoints(r);
    *s = (swx_routing_summary){0};
    s->hours = swx_routing_hours(r);
    s->distance_nm = swx_routing_distance_nm(r);
    s->max_tws_kn = s->max_gust_kn = s->max_wave_m = s->max_current_kn = NAN;
    for (size_t i = 0; i < n; i++) {
        s->max_tws_kn = max_known(s->max_tws_kn, p[i].tws_kn);
        s->max_gust_kn = max_known(s->max_gust_kn, p[i].gust_kn);
        s->max_wave_m = max_known(s->max_wave_m, p[i].wave_m);
        s->max_current_kn = max_known(s->max_current_kn, hypot(p[i].cur_u_kn, p[i].cur_v_kn));
        if (i + 1 < n) {
            double h = (double)(p[i + 1].time - p[i].time) / 3600.0;
            s->sail_hours[sail_kind(&p[i])] += h;
            if (p[i].tacking)
                s->tacking_hours += h;
        }
    }
}

static int stream_ok(FILE *f)
{
    return ferror(f) ? swx_error_set(SWX_EIO, "writing the route failed") : 0;
}

/* ---- GPX ---- */

int swx_routing_write_gpx(FILE *f, const swx_routing *r, const swx_routing_info *in)
{
    const swx_routing_point *p = swx_routing_points(r);
    size_t n = swx_routing_npoints(r);
    char iso[SWX_ISO8601_LEN];
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<gpx version=\"1.1\" creator=\"seawx route\" "
          "xmlns=\"http://www.topografix.com/GPX/1/1\">\n  <rte>\n    <name>",
          f);
    swx_xml_put(f, in && in->name ? in->name : "seawx route");
    fputs("</name>\n", f);
    for (size_t i = 0; i < n; i++) {
        swx_iso8601_format(iso, p[i].time);
        fprintf(f, "    <rtept lat=\"%.6f\" lon=\"%.6f\">\n      <time>%s</time>\n", p[i].lat,
                p[i].lon, iso);
        fprintf(f, "      <name>R%03zu</name>\n", i + 1);
        if (i + 1 < n)
            fprintf(f, "      <desc>COG %03.0f SOG %.1f kn; wind %.0f kn at %.0f deg%s%s</desc>\n",
                    p[i].cog_deg, p[i].sog_kn, p[i].tws_kn, fabs(p[i].twa_deg),
                    p[i].tacking ? ", tacking" : "", p[i].motoring ? ", motoring" : "");
        fputs("    </rtept>\n", f);
    }
    fputs("  </rte>\n</gpx>\n", f);
    return stream_ok(f);
}

/* ---- GeoJSON ---- */

static void num(swx_jsonw *w, const char *key, double v, int decimals)
{
    swx_jsonw_key(w, key);
    swx_jsonw_number(w, v, decimals); /* NAN: null */
}

static void summary_members(swx_jsonw *w, const swx_routing *r)
{
    swx_routing_summary s;
    swx_routing_summarize(&s, r);
    num(w, "hours", s.hours, 3);
    num(w, "distance_nm", s.distance_nm, 2);
    num(w, "max_tws_kn", s.max_tws_kn, 1);
    num(w, "max_gust_kn", s.max_gust_kn, 1);
    num(w, "max_wave_m", s.max_wave_m, 2);
    num(w, "max_current_kn", s.max_current_kn, 2);
    swx_jsonw_key(w, "hours_by_point_of_sail");
    swx_jsonw_object_begin(w);
    for (int k = 0; k < SWX_SAIL_KINDS; k++)
        num(w, swx_routing_sail_name(k), s.sail_hours[k], 2);
    swx_jsonw_object_end(w);
    num(w, "hours_tacking_or_gybing", s.tacking_hours, 2);
}

static void point_members(swx_jsonw *w, const swx_routing_point *p)
{
    swx_jsonw_key(w, "time");
    swx_jsonw_time(w, p->time);
    num(w, "lat", p->lat, 6);
    num(w, "lon", p->lon, 6);
    num(w, "cog_deg", p->cog_deg, 1);
    num(w, "sog_kn", p->sog_kn, 2);
    num(w, "heading_deg", p->heading_deg, 1);
    num(w, "boat_speed_kn", p->bsp_kn, 2);
    num(w, "tws_kn", p->tws_kn, 1);
    num(w, "twa_deg", p->twa_deg, 1);
    num(w, "gust_kn", p->gust_kn, 1);
    num(w, "wave_m", p->wave_m, 2);
    num(w, "current_kn", hypot(p->cur_u_kn, p->cur_v_kn), 2);
    double cdir = fmod(atan2(p->cur_u_kn, p->cur_v_kn) * 180.0 / M_PI + 360.0, 360.0);
    num(w, "current_toward_deg", isnan(p->cur_u_kn) ? NAN : cdir, 0);
    swx_jsonw_key(w, "tacking");
    swx_jsonw_bool(w, p->tacking);
    swx_jsonw_key(w, "motoring");
    swx_jsonw_bool(w, p->motoring);
}

static void position(swx_jsonw *w, double lat, double lon)
{
    swx_jsonw_array_begin(w);
    swx_jsonw_number(w, lon, 6);
    swx_jsonw_number(w, lat, 6);
    swx_jsonw_array_end(w);
}

/* The GeoJSON shapes these writers share: a FeatureCollection's head and
 * tail, and a Feature opened at its properties, then at its geometry's
 * coordinates, then closed. */
static void collection_begin(swx_jsonw *w)
{
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "type");
    swx_jsonw_string(w, "FeatureCollection");
    swx_jsonw_key(w, "features");
    swx_jsonw_array_begin(w);
}

static void collection_end(swx_jsonw *w)
{
    swx_jsonw_array_end(w);
    swx_jsonw_object_end(w);
}

static void feature_begin(swx_jsonw *w)
{
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "type");
    swx_jsonw_string(w, "Feature");
    swx_jsonw_key(w, "properties");
    swx_jsonw_object_begin(w);
}

/* Ends the properties and opens the geometry of type at its coordinates. */
static void feature_geometry(swx_jsonw *w, const char *type)
{
    swx_jsonw_object_end(w);
    swx_jsonw_key(w, "geometry");
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "type");
    swx_jsonw_string(w, type);
    swx_jsonw_key(w, "coordinates");
}

static void feature_end(swx_jsonw *w)
{
    swx_jsonw_object_end(w);
    swx_jsonw_object_end(w);
}

/* Ends a document: the writer freed, a last line end, the stream's state. */
static int document_end(FILE *f, swx_jsonw *w)
{
    int rc = swx_jsonw_finish(w); /* frees w */
    if (!rc)
        fputc('\n', f);
    return rc ? rc : stream_ok(f);
}

int swx_routing_write_geojson(FILE *f, const swx_routing *r, const swx_routing_info *in)
{
    const swx_routing_point *p = swx_routing_points(r);
    size_t n = swx_routing_npoints(r);
    swx_jsonw *w;
    int rc;
    if ((rc = swx_jsonw_new(&w, f, 0)))
        return rc;
    collection_begin(w);
    for (size_t i = 0; i < n; i++) {
        feature_begin(w);
        point_members(w, &p[i]);
        feature_geometry(w, "Point");
        position(w, p[i].lat, p[i].lon);
        feature_end(w);
    }
    collection_end(w);
    return document_end(f, w);
}

int swx_routing_write_track(FILE *f, const swx_routing *r, const swx_routing_info *in)
{
    const swx_routing_point *p = swx_routing_points(r);
    size_t n = swx_routing_npoints(r);
    swx_jsonw *w;
    int rc;
    if ((rc = swx_jsonw_new(&w, f, 0)))
        return rc;
    feature_begin(w);
    swx_jsonw_key(w, "name");
    swx_jsonw_string(w, in && in->name ? in->name : "seawx route");
    swx_jsonw_key(w, "times");
    swx_jsonw_array_begin(w);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || p[i].time > p[i - 1].time) /* waypoint times increase */
            swx_jsonw_time(w, p[i].time);
    swx_jsonw_array_end(w);
    feature_geometry(w, "LineString");
    swx_jsonw_array_begin(w);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || p[i].time > p[i - 1].time)
            position(w, p[i].lat, p[i].lon);
    swx_jsonw_array_end(w);
    feature_end(w);
    return document_end(f, w);
}

int swx_routing_write_isochrones(FILE *f, const swx_routing *r)
{
    size_t niso = swx_routing_nisochrones(r);
    const swx_routing_point *p = swx_routing_points(r);
    int64_t t0 = swx_routing_npoints(r) ? p[0].time : 0;
    swx_jsonw *w;
    int rc;
    if ((rc = swx_jsonw_new(&w, f, 0)))
        return rc;
    collection_begin(w);
    for (size_t i = 0; i < niso; i++) {
        const double *ll;
        size_t m;
        int64_t t = swx_routing_isochrone(r, i, &ll, &m);
        if (m < 2)
            continue; /* a LineString needs two positions */
        if (i == 0 && !t0)
            t0 = t;
        feature_begin(w);
        swx_jsonw_key(w, "time");
        swx_jsonw_time(w, t);
        num(w, "hours", (double)(t - t0) / 3600.0, 3);
        swx_jsonw_key(w, "points");
        swx_jsonw_int(w, (int64_t)m);
        feature_geometry(w, "LineString");
        swx_jsonw_array_begin(w);
        for (size_t k = 0; k < m; k++)
            position(w, ll[2 * k], ll[2 * k + 1]);
        swx_jsonw_array_end(w);
        feature_end(w);
    }
    collection_end(w);
    return document_end(f, w);
}

/* ---- the summary ---- */

static void json_options(swx_jsonw *w, const swx_routing_info *in)
{
    const swx_routing_opts *o = in->o;
    swx_jsonw_key(w, "options");
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "from");
    position(w, o->from_lat, o->from_lon);
    swx_jsonw_key(w, "to");
    position(w, o->to_lat, o->to_lon);
    swx_jsonw_key(w, "depart");
    swx_jsonw_time(w, o->depart);
    swx_jsonw_key(w, "polar");
    swx_jsonw_string(w, in->polar);
    num(w, "motor_kn", o->motor_kn > 0 ? o->motor_kn : NAN, -1);
    num(w, "max_tws_kn", o->max_tws_kn > 0 ? o->max_tws_kn : NAN, -1);
    num(w, "max_gust_kn", o->max_gust_kn > 0 ? o->max_gust_kn : NAN, -1);
    num(w, "max_wave_m", o->max_wave_m > 0 ? o->max_wave_m : NAN, -1);
    num(w, "min_twa_deg", o->min_twa_deg > 0 ? o->min_twa_deg : NAN, -1);
    num(w, "motor_below_kn", o->motor_below_kn > 0 ? o->motor_below_kn : NAN, -1);
    num(w, "heading_step_deg", o->heading_step_deg, -1);
    swx_jsonw_key(w, "time_step_s");
    swx_jsonw_int(w, o->time_step_s);
    swx_jsonw_key(w, "forecast");
    swx_jsonw_string(w, in->forecast);
    swx_jsonw_key(w, "land");
    if (in->land_resolution) {
        char res[2] = {in->land_resolution, 0};
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "coastline");
        swx_jsonw_string(w, "GSHHG 2.3.7");
        swx_jsonw_key(w, "resolution");
        swx_jsonw_string(w, res);
        num(w, "margin_nm", in->land_margin_nm, -1);
        swx_jsonw_object_end(w);
    } else {
        swx_jsonw_null(w);
    }
    swx_jsonw_object_end(w);
}

/* "storms": null when left out, else {"met", "nearest": null or {id,
 * title, time, lat, lon, centre_nm, clear_nm, in_34kt}}. */
static void storm_members(swx_jsonw *w, const swx_routing_info *in)
{
    const swx_routing_storm_near *s = in->storm_nearest;
    swx_jsonw_key(w, "storms");
    if (in->storms < 0) {
        swx_jsonw_null(w);
        return;
    }
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "met");
    swx_jsonw_int(w, in->storms);
    swx_jsonw_key(w, "nearest");
    if (!s) {
        swx_jsonw_null(w);
    } else {
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "atcf_id");
        swx_jsonw_string(w, s->atcf_id);
        swx_jsonw_key(w, "title");
        swx_jsonw_string(w, s->title);
        swx_jsonw_key(w, "time");
        swx_jsonw_time(w, s->time);
        num(w, "lat", s->lat, 6);
        num(w, "lon", s->lon, 6);
        num(w, "centre_nm", s->centre_nm, 1);
        num(w, "clear_nm", s->clear_nm, 1);
        swx_jsonw_object_end(w);
    }
    swx_jsonw_object_end(w);
}

int swx_routing_write_json(FILE *f, const swx_routing *r, const swx_routing_info *in)
{
    const swx_routing_point *p = swx_routing_points(r);
    size_t n = swx_routing_npoints(r);
    uint64_t expansions;
    double seconds;
    swx_jsonw *w;
    int rc;
    if ((rc = swx_jsonw_new(&w, f, 1)))
        return rc;
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "found");
    swx_jsonw_bool(w, swx_routing_found(r));
    if (swx_routing_found(r)) {
        swx_jsonw_key(w, "depart");
        swx_jsonw_time(w, p[0].time);
        swx_jsonw_key(w, "arrive");
        swx_jsonw_time(w, p[n - 1].time);
        if (in && in->asked_depart)
            num(w, "waited_h", (double)(p[0].time - in->asked_depart) / 3600.0, 2);
        summary_members(w, r);
        swx_jsonw_key(w, "points");
        swx_jsonw_int(w, (int64_t)n);
        if (in)
            storm_members(w, in);
    } else {
        const swx_routing_reason *why = swx_routing_why(r);
        swx_jsonw_key(w, "reason");
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "cause");
        swx_jsonw_string(w, swx_routing_cause_name(why->cause));
        swx_jsonw_key(w, "blocked_by");
        swx_jsonw_string(w, why->blocked_by ? swx_routing_cause_name(why->blocked_by) : NULL);
        num(w, "lat", why->lat, 6);
        num(w, "lon", why->lon, 6);
        swx_jsonw_key(w, "time");
        if (why->time)
            swx_jsonw_time(w, why->time);
        else
            swx_jsonw_null(w);
        swx_jsonw_key(w, "message");
        swx_jsonw_string(w, why->message);
        swx_jsonw_object_end(w);
    }
    swx_jsonw_key(w, "isochrones");
    swx_jsonw_int(w, (int64_t)swx_routing_nisochrones(r));
    swx_routing_stats(r, &expansions, &seconds);
    swx_jsonw_key(w, "legs_tried");
    swx_jsonw_int(w, (int64_t)expansions);
    if (in)
        json_options(w, in);
    swx_jsonw_object_end(w);
    rc = swx_jsonw_finish(w); /* frees w, ends the line */
    return rc ? rc : stream_ok(f);
}

/*
 * route.c: routes read from files (route.h): GeoJSON LineString and
 * MultiLineString (in a geometry, Feature or FeatureCollection), and CSV
 * waypoints, with optional per-waypoint times; and the route areas of
 * seawx/tiles.h built from them.
 *
 * Times: GeoJSON gives them as "properties": {"times": [...]} on the Feature
 * of the only LineString, one ISO 8601 instant per position; CSV in a column
 * named time or eta. All positions have a time or none does, and times
 * increase strictly.
 */
#include "route.h"

#include "area.h"
#include "buf.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void swx_route_free(swx_route *r)
{
    if (!r)
        return;
    free(r->lon);
    free(r->lat);
    free(r->t);
    free(r->start);
    free(r);
}

/* Room for one more position (and its time when the route has times). */
static int grow(swx_route *r, size_t *cap, int with_time)
{
    if (r->n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    double *lon = realloc(r->lon, c * sizeof *lon);
    if (lon)
        r->lon = lon;
    double *lat = lon ? realloc(r->lat, c * sizeof *lat) : NULL;
    if (lat)
        r->lat = lat;
    int64_t *t = lat && with_time ? realloc(r->t, c * sizeof *t) : NULL;
    if (t)
        r->t = t;
    if (!lon || !lat || (with_time && !t))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    *cap = c;
    return 0;
}

static int new_line(swx_route *r, size_t *cap)
{
    size_t *s = swx_array_reserve(r->start, cap, r->nlines + 1, sizeof *s, 4);
    if (!s)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    r->start = s;
    r->start[r->nlines++] = r->n;
    return 0;
}

/* ---- GeoJSON ---- */

typedef struct reader {
    swx_route *r;
    size_t cap, lines_cap;
    json_object *times; /* the times of the line being read, or NULL */
    int has_times;      /* some Feature gave times */
} reader;

static int is_number(json_object *o)
{
    return json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int);
}

static int line(reader *rd, json_object *arr, json_object *times)
{
    const char *what = "route file";
    swx_route *r = rd->r;
    int rc;
    if (!json_object_is_type(arr, json_type_array))
        return swx_error_set(SWX_EINVAL, "%s: coordinates are not an array of positions", what);
    size_t len = json_object_array_length(arr);
    if (len == 0)
        return swx_error_set(SWX_EINVAL, "%s: a LineString without positions", what);
    if (times && json_object_array_length(times) != len)
        return swx_error_set(SWX_EINVAL,
                             "%s: %zu times for %zu positions; give one time per position", what,
                             json_object_array_length(times), len);
    if ((times || r->t) && r->nlines > 0)
        return swx_error_set(SWX_EINVAL, "%s: times go with a route of one LineString", what);
    if ((rc = new_line(r, &rd->lines_cap)))
        return rc;
    for (size_t i = 0; i < len; i++) {
        json_object *pos = json_object_array_get_idx(arr, i);
        if (!json_object_is_type(pos, json_type_array) || json_object_array_length(pos) < 2 ||
            !is_number(json_object_array_get_idx(pos, 0)) ||
            !is_number(json_object_array_get_idx(pos, 1)))
            return swx_error_set(SWX_EINVAL, "%s: a position is not [lon, lat]", what);
        double lo = json_object_get_double(json_object_array_get_idx(pos, 0));
        double la = json_object_get_double(json_object_array_get_idx(pos, 1));
        if ((rc = swx__area_check_position(lo, la, what)))
            return rc;
        if (r->n >= AREA_MAX_VERTICES)
            return swx_error_set(SWX_ETOOBIG, "more than %u vertices; simplify the area or route",
                                 AREA_MAX_VERTICES);
        if ((rc = grow(r, &rd->cap, times != NULL)))
            return rc;
        r->lon[r->n] = lo;
        r->lat[r->n] = la;
        if (times) {
            json_object *t = json_object_array_get_idx(times, i);
            const char *s =
                json_object_is_type(t, json_type_string) ? json_object_get_string(t) : NULL;
            if (!s || swx_iso8601_parse(&r->t[r->n], s))
                return swx_error_set(SWX_EINVAL,
                                     "%s: time %zu of the LineString is not an ISO 8601 instant",
                                     what, i + 1);
            if (i > 0 && r->t[r->n] <= r->t[r->n - 1])
                return swx_error_set(SWX_EINVAL,
                                     "%s: time %zu of the LineString (%s) is not after the one "
                                     "before; waypoint times must increase",
                                     what, i + 1, s);
        }
        r->n++;
    }
    return 0;
}

/* The "times" of a Feature's properties, or NULL; an error when it is there
 * and not an array. */
static int feature_times(json_object **out, json_object *feature)
{
    json_object *props = NULL, *t = NULL;
    *out = NULL;
    if (!json_object_object_get_ex(feature, "properties", &props) ||
        !json_object_is_type(props, json_type_object) ||
        !json_object_object_get_ex(props, "times", &t) || !t)
        return 0;
    if (!json_object_is_type(t, json_type_array))
        return swx_error_set(SWX_EINVAL,
                             "route file: \"times\" is not an array of ISO 8601 instants");
    *out = t;
    return 0;
}

static int geometry(reader *rd, json_object *o, int depth);

static int item(void *rd, json_object *o, int depth)
{
    return geometry(rd, o, depth);
}

static int geometry(reader *rd, json_object *o, int depth)
{
    const char *what = "route file";
    const char *t = swx__area_geojson_type(o, depth, what);
    if (!t)
        return SWX_EINVAL;
    json_object *v = NULL;
    if (strcmp(t, "FeatureCollection") == 0 || strcmp(t, "GeometryCollection") == 0)
        return swx__area_geojson_each(o, t, depth, what, item, rd);
    if (strcmp(t, "Feature") == 0) {
        json_object *times = NULL;
        int rc = feature_times(&times, o);
        if (rc)
            return rc;
        if (!json_object_object_get_ex(o, "geometry", &v) || !v)
            return 0; /* a feature without geometry adds nothing */
        rd->times = times;
        if (times)
            rd->has_times = 1;
        rc = geometry(rd, v, depth + 1);
        rd->times = NULL;
        return rc;
    }
    if (!json_object_object_get_ex(o, "coordinates", &v))
        return swx_error_set(SWX_EINVAL, "%s: a %s without coordinates", what, t);
    if (strcmp(t, "LineString") == 0)
        return line(rd, v, rd->times);
    if (strcmp(t, "MultiLineString") == 0) {
        if (!json_object_is_type(v, json_type_array))
            return swx_error_set(SWX_EINVAL, "%s: MultiLineString coordinates are not an array",
                                 what);
        if (rd->times)
            return swx_error_set(SWX_EINVAL,
                                 "%s: times go with one LineString, not a "
                                 "MultiLineString",
                                 what);
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            int rc = line(rd, json_object_array_get_idx(v, i), NULL);
            if (rc)
                return rc;
        }
        return 0;
    }
    return swx_error_set(SWX_EINVAL, "%s: a %s geometry; expected LineString or MultiLineString",
                         what, t);
}

static int read_geojson(swx_route *r, const char *text, size_t len)
{
    json_object *o = NULL;
    reader rd = {r, 0, 0, NULL, 0};
    int rc = swx__area_parse_json(&o, text, len, "route file");
    if (rc)
        return rc;
    if ((rc = geometry(&rd, o, 0)))
        goto done;
    if (rd.has_times && r->nlines > 1) {
        rc = swx_error_set(SWX_EINVAL,
                           "route file: times go with a route of one LineString, "
                           "not %zu lines",
                           r->nlines);
        goto done;
    }
    if (r->n == 0) {
        rc = swx_error_set(SWX_EINVAL, "route file: no waypoints");
        goto done;
    }
    if (rd.has_times && !r->t) {
        rc = swx_error_set(SWX_EINVAL, "route file: times given for no LineString");
        goto done;
    }
done:
    json_object_put(o);
    return rc;
}

/* ---- CSV ---- */

static int is_name(const char *f, const char *const *names)
{
    for (; *names; names++)
        if (strcasecmp(f, *names) == 0)
            return 1;
    return 0;
}

/* Splits one CSV line (no quotes) at ',', ';' or tabs; trims blanks. */
static size_t split_fields(char *s, char **f, size_t max)
{
    size_t n = 0;
    char *p = s;
    for (;;) {
        char *q = p + strcspn(p, ",;\t");
        char end = *q;
        *q = '\0';
        while (isspace((unsigned char)*p))
            p++;
        char *e = p + strlen(p);
        while (e > p && isspace((unsigned char)e[-1]))
            *--e = '\0';
        if (n < max)
            f[n++] = p;
        if (!end)
            break;
        p = q + 1;
    }
    return n;
}

static int read_csv(swx_route *r, const char *text, size_t len)
{
    static const char *const lat_names[] = {"lat", "latitude", "y", NULL};
    static const char *const lon_names[] = {"lon", "lng", "long", "longitude", "x", NULL};
    static const char *const time_names[] = {"time", "eta", NULL};
    size_t cap = 0, lines_cap = 0, lineno = 0;
    int ilat = 0, ilon = 1, itime = -1, seen_data = 0, rc = 0;
    char *copy = malloc(len + 1);
    if (!copy)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    memcpy(copy, text, len);
    copy[len] = '\0';
    if ((rc = new_line(r, &lines_cap)))
        goto done;
    char *save = NULL;
    for (char *ln = copy; ln && !rc; ln = save) {
        char *nl = strchr(ln, '\n');
        save = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        lineno++;
        char *hash = strchr(ln, '#');
        if (hash)
            *hash = '\0';
        char *f[16];
        size_t nf = split_fields(ln, f, 16);
        if (nf == 1 && f[0][0] == '\0')
            continue;
        if (!seen_data && isalpha((unsigned char)f[0][0]) && r->n == 0) {
            ilat = ilon = -1;
            for (size_t i = 0; i < nf; i++) {
                if (is_name(f[i], lat_names))
                    ilat = (int)i;
                else if (is_name(f[i], lon_names))
                    ilon = (int)i;
                else if (is_name(f[i], time_names))
                    itime = (int)i;
            }
            if (ilat < 0 || ilon < 0)
                rc = swx_error_set(SWX_EINVAL,
                                   "route file line %zu: the header names no lat and lon columns",
                                   lineno);
            seen_data = 1;
            continue;
        }
        seen_data = 1;
        int last = ilat > ilon ? ilat : ilon;
        if ((size_t)last >= nf) {
            rc = swx_error_set(SWX_EINVAL, "route file line %zu: expected lat,lon", lineno);
            break;
        }
        char *e1, *e2;
        errno = 0;
        double la = strtod(f[ilat], &e1), lo = strtod(f[ilon], &e2);
        if (errno || e1 == f[ilat] || *e1 || e2 == f[ilon] || *e2 || !(la >= -90 && la <= 90) ||
            !(lo >= -180 && lo <= 360)) {
            rc = swx_error_set(SWX_EINVAL,
                               "route file line %zu: '%.40s,%.40s' is not a latitude, longitude "
                               "pair in degrees",
                               lineno, f[ilat], f[ilon]);
            break;
        }
        int64_t t = 0;
        if (itime >= 0) {
            if ((size_t)itime >= nf || !f[itime][0]) {
                rc = swx_error_set(SWX_EINVAL,
                                   "route file line %zu: no time; give every waypoint a time "
                                   "or none",
                                   lineno);
                break;
            }
            if (swx_iso8601_parse(&t, f[itime])) {
                rc = swx_error_set(SWX_EINVAL,
                                   "route file line %zu: '%.40s' is not an ISO 8601 instant",
                                   lineno, f[itime]);
                break;
            }
            if (r->n > 0 && t <= r->t[r->n - 1]) {
                rc = swx_error_set(SWX_EINVAL,
                                   "route file line %zu: time %.40s is not after the one before; "
                                   "waypoint times must increase",
                                   lineno, f[itime]);
                break;
            }
        }
        if (r->n == cap && cap * 2 > AREA_MAX_VERTICES * 2) {
            rc =
                swx_error_set(SWX_ETOOBIG, "route file: more than %u waypoints", AREA_MAX_VERTICES);
            break;
        }
        if ((rc = grow(r, &cap, itime >= 0)))
            break;
        r->lon[r->n] = lo;
        r->lat[r->n] = la;
        if (itime >= 0)
            r->t[r->n] = t;
        r->n++;
    }
    if (!rc && r->n == 0)
        rc = swx_error_set(SWX_EINVAL, "route file: no waypoints");
done:
    free(copy);
    return rc;
}

int swx_route_read(swx_route **out, const char *text, size_t len)
{
    *out = NULL;
    size_t i = 0;
    while (i < len && isspace((unsigned char)text[i]))
        i++;
    if (i == len)
        return swx_error_set(SWX_EINVAL, "route file: empty");
    swx_route *r = calloc(1, sizeof *r);
    if (!r)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    r->csv = text[i] != '{';
    int rc = r->csv ? read_csv(r, text, len) : read_geojson(r, text, len);
    if (rc) {
        swx_route_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

/* ---- route areas ---- */

static int route_finish(builder *b, double buffer_m, swx_area **out)
{
    int rc;
    if (b->a->nlegs == 0)
        return swx_error_set(SWX_EINVAL, "route file: no waypoints");
    b->a->buffer = buffer_m / SWX_EARTH_RADIUS_M;
    if ((rc = swx__area_finish_bounds(b, b->a->buffer / DEG)))
        return rc;
    *out = b->a;
    b->a = NULL;
    return 0;
}

/* Starts building a route area into *out: b empty, the buffer checked. */
static int route_begin(builder *b, swx_area **out, double buffer_m)
{
    *b = (builder){0};
    b->south = 90;
    b->north = -90;
    *out = NULL;
    if (!(buffer_m >= 0 && buffer_m <= 2000.0 * SWX_NM_M))
        return swx_error_set(SWX_EINVAL, "the buffer must be from 0 to 2000 nautical miles");
    return 0;
}

/* A route from waypoints; latlon: for latitude/longitude grids (area.h). */
static int waypoints_area(swx_area **out, const double *lon, const double *lat, size_t n,
                          double buffer_m, int latlon)
{
    builder b;
    int rc = route_begin(&b, out, buffer_m);
    if (rc)
        return rc;
    b.latlon = latlon;
    if (n == 0)
        return swx_error_set(SWX_EINVAL, "a route needs at least one waypoint");
    if ((rc = swx__area_new(&b.a, AREA_ROUTE)))
        return rc;
    for (size_t i = 0; i < n && !rc; i++)
        if (!(rc = swx__area_check_position(lon[i], lat[i], "route")))
            rc = swx__area_count_vertex(&b);
    for (size_t i = 0; i + 1 < n && !rc; i++)
        rc = swx__area_add_leg(&b, lon[i], lat[i], lon[i + 1], lat[i + 1], "route");
    if (!rc && n == 1)
        rc = swx__area_add_leg(&b, lon[0], lat[0], lon[0], lat[0], "route");
    if (!rc)
        rc = route_finish(&b, buffer_m, out);
    swx_area_free(b.a);
    free(b.lons);
    return rc;
}

int swx_area_from_waypoints(swx_area **out, const double *lon, const double *lat, size_t n,
                            double buffer_m)
{
    return waypoints_area(out, lon, lat, n, buffer_m, 0);
}

int swx__area_from_waypoints_latlon(swx_area **out, const double *lon, const double *lat, size_t n,
                                    double buffer_m)
{
    return waypoints_area(out, lon, lat, n, buffer_m, 1);
}

int swx_area_from_route(swx_area **out, const char *text, size_t len, double buffer_m)
{
    swx_route *r = NULL;
    builder b;
    int rc = route_begin(&b, out, buffer_m);
    if (rc)
        return rc;
    if ((rc = swx_route_read(&r, text, len)))
        return rc;
    if (r->csv) {
        rc = swx_area_from_waypoints(out, r->lon, r->lat, r->n, buffer_m);
        goto done;
    }
    /* GeoJSON: every line's legs, a line of one position as a point. */
    if ((rc = swx__area_new(&b.a, AREA_ROUTE)))
        goto done;
    b.a->nvertices = r->n;
    for (size_t k = 0; k < r->nlines && !rc; k++) {
        size_t i0 = r->start[k], i1 = k + 1 < r->nlines ? r->start[k + 1] : r->n;
        if (i1 - i0 == 1)
            rc =
                swx__area_add_leg(&b, r->lon[i0], r->lat[i0], r->lon[i0], r->lat[i0], "route file");
        for (size_t i = i0; i + 1 < i1 && !rc; i++)
            rc = swx__area_add_leg(&b, r->lon[i], r->lat[i], r->lon[i + 1], r->lat[i + 1],
                                   "route file");
    }
    if (!rc)
        rc = route_finish(&b, buffer_m, out);
done:
    swx_area_free(b.a);
    free(b.lons);
    swx_route_free(r);
    return rc;
}

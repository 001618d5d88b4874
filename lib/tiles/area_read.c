/*
 * area_read.c: areas and routes read from files: GeoJSON Polygon and
 * MultiPolygon areas, GeoJSON LineString and CSV routes, waypoints.
 */
#include "area_int.h"

#include "jsonr.h"
#include "seawx/error.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- GeoJSON ---- */

/* Reads an array of positions into a new array of lon, lat pairs. */
static int positions(json_object *arr, double **out, size_t *n, builder *b, const char *what)
{
    *out = NULL;
    *n = 0;
    if (!json_object_is_type(arr, json_type_array))
        return swx_error_set(SWX_EINVAL, "%s: coordinates are not an array of positions", what);
    size_t len = json_object_array_length(arr);
    double *p = malloc((len ? len : 1) * 2 * sizeof *p);
    if (!p)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (size_t i = 0; i < len; i++) {
        json_object *pos = json_object_array_get_idx(arr, i);
        if (!json_object_is_type(pos, json_type_array) || json_object_array_length(pos) < 2) {
            free(p);
            return swx_error_set(SWX_EINVAL, "%s: a position is not [lon, lat]", what);
        }
        json_object *x = json_object_array_get_idx(pos, 0), *y = json_object_array_get_idx(pos, 1);
        if (!(json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int)) ||
            !(json_object_is_type(y, json_type_double) || json_object_is_type(y, json_type_int))) {
            free(p);
            return swx_error_set(SWX_EINVAL, "%s: a position is not [lon, lat]", what);
        }
        p[2 * i] = json_object_get_double(x);
        p[2 * i + 1] = json_object_get_double(y);
        int rc = swx__area_check_position(p[2 * i], p[2 * i + 1], what);
        if (!rc)
            rc = swx__area_count_vertex(b);
        if (rc) {
            free(p);
            return rc;
        }
    }
    *out = p;
    *n = len;
    return 0;
}

static int polygon(builder *b, json_object *rings)
{
    const char *what = "area file";
    if (!json_object_is_type(rings, json_type_array) || json_object_array_length(rings) == 0)
        return swx_error_set(SWX_EINVAL, "%s: a Polygon needs an array of rings", what);
    for (size_t r = 0; r < json_object_array_length(rings); r++) {
        double *p;
        size_t n;
        int rc = positions(json_object_array_get_idx(rings, r), &p, &n, b, what);
        if (rc)
            return rc;
        /* A closed ring repeats its first position; an open one is closed here. */
        if (n >= 2 && p[0] == p[2 * (n - 1)] && p[1] == p[2 * (n - 1) + 1])
            n--;
        rc = swx__area_add_ring(b, p, n, what);
        free(p);
        if (rc)
            return rc;
    }
    return 0;
}

static int line(builder *b, json_object *coords)
{
    const char *what = "route file";
    double *p;
    size_t n;
    int rc = positions(coords, &p, &n, b, what);
    if (rc)
        return rc;
    if (n == 0) {
        free(p);
        return swx_error_set(SWX_EINVAL, "%s: a LineString without positions", what);
    }
    if (n == 1)
        rc = swx__area_add_leg(b, p[0], p[1], p[0], p[1], what);
    for (size_t i = 0; i + 1 < n && !rc; i++)
        rc = swx__area_add_leg(b, p[2 * i], p[2 * i + 1], p[2 * i + 2], p[2 * i + 3], what);
    free(p);
    return rc;
}

static int geometry(builder *b, json_object *o, int want_lines, int depth)
{
    const char *what = want_lines ? "route file" : "area file";
    if (depth > 8)
        return swx_error_set(SWX_EINVAL, "%s: nested too deeply", what);
    json_object *type = NULL, *v = NULL;
    if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "type", &type) ||
        !json_object_is_type(type, json_type_string))
        return swx_error_set(SWX_EINVAL, "%s: not a GeoJSON object (no \"type\")", what);
    const char *t = json_object_get_string(type);
    if (strcmp(t, "FeatureCollection") == 0) {
        if (!json_object_object_get_ex(o, "features", &v) ||
            !json_object_is_type(v, json_type_array))
            return swx_error_set(SWX_EINVAL, "%s: a FeatureCollection without features", what);
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            int rc = geometry(b, json_object_array_get_idx(v, i), want_lines, depth + 1);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (strcmp(t, "Feature") == 0) {
        if (!json_object_object_get_ex(o, "geometry", &v) || !v)
            return 0; /* a feature without geometry adds nothing */
        return geometry(b, v, want_lines, depth + 1);
    }
    if (strcmp(t, "GeometryCollection") == 0) {
        if (!json_object_object_get_ex(o, "geometries", &v) ||
            !json_object_is_type(v, json_type_array))
            return swx_error_set(SWX_EINVAL, "%s: a GeometryCollection without geometries", what);
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            int rc = geometry(b, json_object_array_get_idx(v, i), want_lines, depth + 1);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (!json_object_object_get_ex(o, "coordinates", &v))
        return swx_error_set(SWX_EINVAL, "%s: a %s without coordinates", what, t);
    if (!want_lines && strcmp(t, "Polygon") == 0)
        return polygon(b, v);
    if (!want_lines && strcmp(t, "MultiPolygon") == 0) {
        if (!json_object_is_type(v, json_type_array))
            return swx_error_set(SWX_EINVAL, "%s: MultiPolygon coordinates are not an array", what);
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            int rc = polygon(b, json_object_array_get_idx(v, i));
            if (rc)
                return rc;
        }
        return 0;
    }
    if (want_lines && strcmp(t, "LineString") == 0)
        return line(b, v);
    if (want_lines && strcmp(t, "MultiLineString") == 0) {
        if (!json_object_is_type(v, json_type_array))
            return swx_error_set(SWX_EINVAL, "%s: MultiLineString coordinates are not an array",
                                 what);
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            int rc = line(b, json_object_array_get_idx(v, i));
            if (rc)
                return rc;
        }
        return 0;
    }
    return swx_error_set(SWX_EINVAL, "%s: a %s geometry; expected %s", what, t,
                         want_lines ? "LineString or MultiLineString" : "Polygon or MultiPolygon");
}

/* The core's one JSON reader (swx_jsonr_parse: depth 32, which no area or
 * route comes near), with two differences kept for files users give: NULs
 * and white space at the end are ignored (a padded file), and a file that
 * is not JSON is SWX_EINVAL, the user's input (the CLI's exit 2), not
 * SWX_EPARSE, a bad answer from the service. */
static int parse_json(json_object **out, const char *text, size_t len, const char *what)
{
    char line[1024];
    *out = NULL;
    if (len > AREA_MAX_JSON)
        return swx_error_set(SWX_ETOOBIG, "%s: larger than %u MiB", what, AREA_MAX_JSON >> 20);
    while (len && (text[len - 1] == '\0' || isspace((unsigned char)text[len - 1])))
        len--;
    int rc = swx_jsonr_parse(out, text, len, what);
    if (rc == SWX_EPARSE) {
        snprintf(line, sizeof line, "%s", swx_error_last());
        rc = swx_error_set(SWX_EINVAL, "%s", line);
    }
    return rc;
}

int swx_area_from_geojson_polygons(swx_area **out, const char *json, size_t len)
{
    json_object *o = NULL;
    builder b = {0};
    b.south = 90;
    b.north = -90;
    *out = NULL;
    int rc = parse_json(&o, json, len, "area file");
    if (rc)
        return rc;
    if ((rc = swx__area_new(&b.a, AREA_POLYGON)))
        goto done;
    if ((rc = geometry(&b, o, 0, 0)))
        goto done;
    if (b.a->nedges == 0) {
        rc = swx_error_set(SWX_EINVAL, "area file: no Polygon or MultiPolygon with an area");
        goto done;
    }
    if ((rc = swx__area_finish_bounds(&b, 0)))
        goto done;
    *out = b.a;
    b.a = NULL;
done:
    swx_area_free(b.a);
    free(b.lons);
    json_object_put(o);
    return rc;
}

/* ---- routes ---- */

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

static int check_buffer(double buffer_m)
{
    if (!(buffer_m >= 0 && buffer_m <= 2000.0 * SWX_NM_M))
        return swx_error_set(SWX_EINVAL, "the buffer must be from 0 to 2000 nautical miles");
    return 0;
}

int swx_area_from_waypoints(swx_area **out, const double *lon, const double *lat, size_t n,
                            double buffer_m)
{
    builder b = {0};
    b.south = 90;
    b.north = -90;
    *out = NULL;
    int rc = check_buffer(buffer_m);
    if (rc)
        return rc;
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

static int is_name(const char *f, size_t n, const char *const *names)
{
    for (; *names; names++)
        if (strlen(*names) == n && strncasecmp(f, *names, n) == 0)
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

static int route_csv(const char *text, size_t len, double buffer_m, swx_area **out)
{
    static const char *const lat_names[] = {"lat", "latitude", "y", NULL};
    static const char *const lon_names[] = {"lon", "lng", "long", "longitude", "x", NULL};
    double *lon = NULL, *lat = NULL;
    size_t n = 0, cap = 0, lineno = 0;
    int ilat = 0, ilon = 1, seen_data = 0, rc = 0;
    char *copy = malloc(len + 1);
    if (!copy)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    memcpy(copy, text, len);
    copy[len] = '\0';
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
        if (!seen_data && isalpha((unsigned char)f[0][0]) && n == 0) {
            ilat = ilon = -1;
            for (size_t i = 0; i < nf; i++) {
                if (is_name(f[i], strlen(f[i]), lat_names))
                    ilat = (int)i;
                else if (is_name(f[i], strlen(f[i]), lon_names))
                    ilon = (int)i;
            }
            if (ilat < 0 || ilon < 0)
                rc = swx_error_set(SWX_EINVAL,
                                   "route file line %zu: the header names no lat and lon columns",
                                   lineno);
            seen_data = 1;
            continue;
        }
        seen_data = 1;
        if ((size_t)(ilat > ilon ? ilat : ilon) >= nf) {
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
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            if (cap > AREA_MAX_VERTICES * 2) {
                rc = swx_error_set(SWX_ETOOBIG, "route file: more than %u waypoints",
                                   AREA_MAX_VERTICES);
                break;
            }
            double *a = realloc(lon, cap * sizeof *a),
                   *b = a ? realloc(lat, cap * sizeof *b) : NULL;
            if (a)
                lon = a;
            if (!a || !b) {
                rc = swx_error_set(SWX_ENOMEM, "out of memory");
                break;
            }
            lat = b;
        }
        lon[n] = lo;
        lat[n] = la;
        n++;
    }
    if (!rc && n == 0)
        rc = swx_error_set(SWX_EINVAL, "route file: no waypoints");
    if (!rc)
        rc = swx_area_from_waypoints(out, lon, lat, n, buffer_m);
    free(copy);
    free(lon);
    free(lat);
    return rc;
}

int swx_area_from_route(swx_area **out, const char *text, size_t len, double buffer_m)
{
    *out = NULL;
    int rc = check_buffer(buffer_m);
    if (rc)
        return rc;
    size_t i = 0;
    while (i < len && isspace((unsigned char)text[i]))
        i++;
    if (i == len)
        return swx_error_set(SWX_EINVAL, "route file: empty");
    if (text[i] != '{')
        return route_csv(text, len, buffer_m, out);
    json_object *o = NULL;
    builder b = {0};
    b.south = 90;
    b.north = -90;
    if ((rc = parse_json(&o, text, len, "route file")))
        return rc;
    if (!(rc = swx__area_new(&b.a, AREA_ROUTE)) && !(rc = geometry(&b, o, 1, 0)))
        rc = route_finish(&b, buffer_m, out);
    swx_area_free(b.a);
    free(b.lons);
    json_object_put(o);
    return rc;
}

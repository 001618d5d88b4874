/*
 * area_read.c: areas read from files: GeoJSON Polygon and MultiPolygon
 * areas (routes are route.c's).
 */
#include "area.h"

#include "jsonr.h"
#include "seawx/error.h"

#include <ctype.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const char *swx__area_geojson_type(struct json_object *o, int depth, const char *what)
{
    if (depth > 8) {
        swx_error_set(SWX_EINVAL, "%s: nested too deeply", what);
        return NULL;
    }
    json_object *t = NULL;
    if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "type", &t) ||
        !json_object_is_type(t, json_type_string)) {
        swx_error_set(SWX_EINVAL, "%s: not a GeoJSON object (no \"type\")", what);
        return NULL;
    }
    return json_object_get_string(t);
}

int swx__area_geojson_each(json_object *o, const char *type, int depth, const char *what,
                           int (*fn)(void *ud, json_object *item, int depth), void *ud)
{
    int fc = strcmp(type, "FeatureCollection") == 0;
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, fc ? "features" : "geometries", &v) ||
        !json_object_is_type(v, json_type_array))
        return swx_error_set(SWX_EINVAL, "%s: a %s without %s", what, type,
                             fc ? "features" : "geometries");
    for (size_t i = 0; i < json_object_array_length(v); i++) {
        int rc = fn(ud, json_object_array_get_idx(v, i), depth + 1);
        if (rc)
            return rc;
    }
    return 0;
}

static int geometry(builder *b, json_object *o, int depth);

static int item(void *b, json_object *o, int depth)
{
    return geometry(b, o, depth);
}

static int geometry(builder *b, json_object *o, int depth)
{
    const char *what = "area file";
    const char *t = swx__area_geojson_type(o, depth, what);
    if (!t)
        return SWX_EINVAL;
    json_object *v = NULL;
    if (strcmp(t, "FeatureCollection") == 0 || strcmp(t, "GeometryCollection") == 0)
        return swx__area_geojson_each(o, t, depth, what, item, b);
    if (strcmp(t, "Feature") == 0) {
        if (!json_object_object_get_ex(o, "geometry", &v) || !v)
            return 0; /* a feature without geometry adds nothing */
        return geometry(b, v, depth + 1);
    }
    if (!json_object_object_get_ex(o, "coordinates", &v))
        return swx_error_set(SWX_EINVAL, "%s: a %s without coordinates", what, t);
    if (strcmp(t, "Polygon") == 0)
        return polygon(b, v);
    if (strcmp(t, "MultiPolygon") == 0) {
        if (!json_object_is_type(v, json_type_array))
            return swx_error_set(SWX_EINVAL, "%s: MultiPolygon coordinates are not an array", what);
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            int rc = polygon(b, json_object_array_get_idx(v, i));
            if (rc)
                return rc;
        }
        return 0;
    }
    return swx_error_set(SWX_EINVAL, "%s: a %s geometry; expected Polygon or MultiPolygon", what,
                         t);
}

/* The core's one JSON reader (swx_jsonr_parse: depth 32, which no area or
 * route comes near), with two differences kept for files users give: NULs
 * and white space at the end are ignored (a padded file), and a file that
 * is not JSON is SWX_EINVAL, the user's input (the CLI's exit 2), not
 * SWX_EPARSE, a bad answer from the service. */
int swx__area_parse_json(json_object **out, const char *text, size_t len, const char *what)
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
    int rc = swx__area_parse_json(&o, json, len, "area file");
    if (rc)
        return rc;
    if ((rc = swx__area_new(&b.a, AREA_POLYGON)))
        goto done;
    if ((rc = geometry(&b, o, 0)))
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

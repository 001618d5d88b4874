/*
 * area.h: what the area modules share (area.c builds and enumerates
 * areas, area_read.c reads them from GeoJSON, route.c from route files);
 * not public.
 */
#ifndef SEAWX_AREA_H
#define SEAWX_AREA_H

#include "seawx/tiles.h"
#include "seawx/voyage.h"

#include <stddef.h>
#include <stdint.h>

#define AREA_MAX_VERTICES 200000u
#define AREA_MAX_JSON (64u * 1024u * 1024u)
#define DEG (M_PI / 180.0)

enum area_kind { AREA_BBOX, AREA_POLYGON, AREA_ROUTE };

typedef struct edge {
    double x0, y0, x1, y1; /* degrees, unwrapped and shifted */
} edge;

typedef struct leg {
    double a[3], b[3], n[3]; /* endpoints and unit normal of their great circle */
    int point;               /* a == b: the leg is a point */
} leg;

struct swx_area {
    enum area_kind kind;
    double west, south, east, north; /* bounds for metadata (latitudes within
                                      * Web Mercator's, SWX_MERC_MAX_LAT) */
    double lat_south, lat_north;     /* the latitude bounds to the poles, for
                                      * latitude/longitude grids */
    /* bbox */
    double bw, bspan, bs, bn;
    /* polygons */
    edge *edges;
    size_t nedges, edges_cap;
    /* routes */
    leg *legs;
    size_t nlegs, legs_cap;
    double buffer; /* radians */
    size_t nvertices;
};

/* An area being built: the area, and the longitudes sampled for its bounds
 * (the caller frees lons and, unless it was handed out, the area). */
typedef struct builder {
    swx_area *a;
    double *lons; /* sampled longitudes for the bounds */
    size_t nlons, lons_cap;
    double south, north;
    int latlon; /* 1: an area for latitude/longitude grids, which may lie
                 * beyond Web Mercator's latitudes (the voyage GRIB) */
} builder;

int swx__area_new(swx_area **out, enum area_kind kind);
int swx__area_push_lon(builder *b, double lon, double lat);
/* Counts one more vertex against AREA_MAX_VERTICES. */
int swx__area_count_vertex(builder *b);
/* A polygon ring of n positions (lon, lat pairs); what names it in errors. */
int swx__area_add_ring(builder *b, const double *pos, size_t n, const char *what);
/* A route leg between two positions. */
int swx__area_add_leg(builder *b, double lon0, double lat0, double lon1, double lat1,
                      const char *what);
int swx__area_check_position(double lon, double lat, const char *what);
/* The unit vector of a position (degrees) on the sphere. */
void swx__area_unit(double lon, double lat, double v[3]);
/* Sets the area's bounds from what was sampled, widened by pad_deg: around a
 * pole the buffer takes every longitude. An area wholly beyond Web
 * Mercator's latitudes is SWX_EINVAL unless b->latlon. */
int swx__area_finish_bounds(builder *b, double pad_deg);
/* Parses a file a user gave (at most AREA_MAX_JSON bytes; NULs and blanks at
 * the end ignored); text that is not JSON is SWX_EINVAL naming what. */
struct json_object;
int swx__area_parse_json(struct json_object **out, const char *text, size_t len, const char *what);
/* The "type" of a GeoJSON object o found at nesting depth (pointing into o),
 * or NULL with an SWX_EINVAL error naming what when o is nested deeper than 8
 * or is not an object with a string "type". */
const char *swx__area_geojson_type(struct json_object *o, int depth, const char *what);
/* Reads each item of a FeatureCollection's "features" or a
 * GeometryCollection's "geometries" (type, o's type; o at nesting depth) with
 * fn(ud, item, depth + 1), stopping at the first that fails; an SWX_EINVAL
 * error naming what when they are not an array. */
int swx__area_geojson_each(struct json_object *o, const char *type, int depth, const char *what,
                           int (*fn)(void *ud, struct json_object *item, int depth), void *ud);

/* Building and testing areas beyond what front ends need (routes from
 * coordinates, one tile's membership): the seeding engine's and the tests'. */
/* A route from waypoints (n >= 1, degrees), as one line. */
int swx_area_from_waypoints(swx_area **out, const double *lon, const double *lat, size_t n,
                            double buffer_m);
/* Whether tile (z, x, y) belongs to the area (1) or not (0). */
int swx_area_has_tile(const swx_area *a, int z, uint32_t x, uint32_t y);

/* Areas for latitude/longitude grids (the voyage GRIB), which reach the
 * poles: built as swx_area_from_waypoints and swx_voyage_area build them, but
 * an area beyond Web Mercator's latitudes is accepted (its Web Mercator
 * bounds are then empty: it holds no tile); swx__area_bounds_latlon gives
 * its bounds to the poles. */
int swx__area_from_waypoints_latlon(swx_area **out, const double *lon, const double *lat, size_t n,
                                    double buffer_m);
int swx__voyage_area_latlon(swx_area **out, const swx_voyage *v, const int64_t *times, size_t n,
                            size_t i, double buffer_m);
/* The area's bounds as swx_area_bounds gives them, but with latitudes from
 * -90 to 90 rather than stopped at Web Mercator's. */
void swx__area_bounds_latlon(double *west, double *south, double *east, double *north,
                             const swx_area *a);

/* Whether the area meets the rectangle west..east, south..north (degrees,
 * west <= east, east - west <= 360; longitudes may run past 180): for routes
 * and boxes (the voyage GRIB's grid points); a polygon area answers by its
 * rectangle's bounds. */
int swx_area_meets_rect(const swx_area *a, double west, double south, double east, double north);

/* Which pixels of tile (z, x, y), ts x ts pixels (a power of two), belong to
 * the area, by the rule of seawx/tiles.h applied to each pixel's rectangle
 * (a pixel whose interior meets the area belongs, so nothing of the area is
 * ever cut away). Returns SWX_CLIP_ALL (every pixel; keep untouched),
 * SWX_CLIP_NONE, SWX_CLIP_SOME with keep[ts * ts] set (row-major, 1: the pixel
 * belongs), or a negative code. */
enum { SWX_CLIP_NONE = 0, SWX_CLIP_SOME = 1, SWX_CLIP_ALL = 2 };
int swx_area_tile_pixels(uint8_t *keep, const swx_area *a, int z, uint32_t x, uint32_t y, int ts);

#endif

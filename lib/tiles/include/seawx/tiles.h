/*
 * seawx/tiles.h: Web Mercator XYZ tiles, and the areas whose tiles are seeded.
 *
 * Tiles: zoom z has 2^z x 2^z tiles; x grows eastwards from 180 W, y southwards
 * from 85.0511 N (the XYZ / "slippy map" scheme; MBTiles stores y flipped, see
 * swx_tile_tms_row()). A tile is a rectangle in longitude and latitude as well as
 * in EPSG:3857 metres.
 *
 * Areas: a bbox (crossing the antimeridian when minlon > maxlon), polygons from a
 * GeoJSON file, or a route (GeoJSON LineString / MultiLineString, or CSV
 * waypoints) buffered by a distance. A tile belongs to an area when:
 *   - bbox, polygon: the tile's interior and the area's interior meet (a tile
 *     that only shares an edge or a corner with the area is not in it). Polygon
 *     edges are straight in longitude/latitude, as RFC 7946 says; rings may cross
 *     the antimeridian (consecutive longitudes are taken the short way round).
 *   - route: some point of the tile lies within the buffer distance of the route,
 *     measured along great circles on a sphere of radius SWX_EARTH_RADIUS_M; the
 *     route's legs are great-circle arcs between consecutive waypoints (across
 *     the antimeridian when that is the short way). The test is exact, not a
 *     buffered polygon's approximation.
 * Tiles are enumerated zoom by zoom with a quadtree descent that keeps only the
 * current path (memory grows with the zoom level and the area's vertex count,
 * never with the number of tiles); the tile math and the enumeration are the
 * seeding engine's own (tiles/tile.h), and so are routes from coordinates and
 * one tile's membership (tiles/area.h). Public: making an area from what a
 * user gives, its bounds and its tile count per zoom.
 */
#ifndef SEAWX_TILES_H
#define SEAWX_TILES_H

#include "seawx/sphere.h"
#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_TILE_MAX_ZOOM 24
#define SWX_MERC_MAX_LAT 85.05112877980659
#define SWX_MERC_HALF 20037508.342789244 /* half the world's width in EPSG:3857 metres */

typedef struct swx_area swx_area;

/* "minlon,minlat,maxlon,maxlat" in degrees; minlon > maxlon crosses 180. */
SWX_API int swx_area_from_bbox_text(swx_area **out, const char *text);
SWX_API int swx_area_from_bbox(swx_area **out, double minlon, double minlat, double maxlon,
                               double maxlat);
/* A GeoJSON geometry, Feature or FeatureCollection of Polygons / MultiPolygons. */
SWX_API int swx_area_from_geojson_polygons(swx_area **out, const char *json, size_t len);
/* A route from GeoJSON (LineString / MultiLineString, in a geometry, Feature or
 * FeatureCollection) or CSV (one waypoint per line, "lat,lon" or with a header
 * naming lat/latitude and lon/lng/longitude columns; '#' starts a comment),
 * buffered by buffer_m metres (0 or more). The format is told by the first
 * non-blank character ('{' for GeoJSON). */
SWX_API int swx_area_from_route(swx_area **out, const char *text, size_t len, double buffer_m);
SWX_API void swx_area_free(swx_area *a);

/* The area's extent in degrees (west > east when it crosses 180); for a route
 * it includes the buffer. */
SWX_API void swx_area_bounds(double *west, double *south, double *east, double *north,
                             const swx_area *a);
/* The number of tiles of the area at zoom z. */
SWX_API int swx_area_count(uint64_t *count, const swx_area *a, int z);

/* Parses a zoom list: "5", "3-9", "3,5,7-8". Sets bit z of *zooms. */
SWX_API int swx_zoom_list_parse(uint32_t *zooms, const char *text);

#ifdef __cplusplus
}
#endif
#endif

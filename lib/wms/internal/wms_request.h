/* wms_request.h: the WMS requests (GetCapabilities, GetMap, a map block's GetMap) that
 * the files of lib/wms and the floors above build (internal interface). */
#ifndef SEAWX_WMS_REQUEST_H
#define SEAWX_WMS_REQUEST_H

#include "seawx/http.h"
#include "seawx/wms_map.h"
#include "http_core.h"

/* The bundles the interface lists as WMS layers, in its order, then NULL. */
extern const char *const swx__wms_bundles[];

/* Fills req and a new query (*q, freed by the caller with swx_query_free) for
 * the GetCapabilities request of one bundle. */
int swx_wms_caps_request(swx_request *req, swx_query **q, const char *bundle);

/* A GetMap request. The bbox is given in the CRS's easting/northing order
 * (longitude first for EPSG:4326); for WMS 1.3.0 and EPSG:4326 it is written
 * latitude first, as the service expects. Numbers are written so that they read
 * back exactly. style and time may be NULL (the layer's defaults). */
typedef struct swx_getmap {
    const char *bundle;
    const char *layer;
    const char *time; /* ISO 8601 instant */
    const char *style;
    const char *crs; /* "EPSG:4326", "EPSG:3857" or "CRS:84" */
    double minx, miny, maxx, maxy;
    int width, height;
    int transparent; /* 1: TRANSPARENT=TRUE */
} swx_getmap;

int swx_wms_getmap_request(swx_request *req, swx_query **q, const swx_getmap *g);

/* The GetMap of one block of a map: fills g (its strings live as long as the
 * map) and the block's true size. */
int swx_map_block_getmap(swx_getmap *g, const swx_map *m, int level, int bx, int by);

#endif

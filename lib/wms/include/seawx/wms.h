/*
 * seawx/wms.h: the service's WMS endpoint: bundles and capabilities requests.
 *
 * Every WMS request carries service=WMS, request=..., product and bundle. The
 * product is "sof-d", the only one the service has; bundles are the twelve the
 * interface lists.
 */
#ifndef SEAWX_WMS_H
#define SEAWX_WMS_H

#include "seawx/http.h"
#include "seawx/visibility.h"
#include "seawx/wms_caps.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_WMS_PATH "/ows/wms"
#define SWX_WMS_PRODUCT "sof-d"
/* Content types a capabilities document may come with. */
#define SWX_WMS_CAPS_TYPES "text/xml|application/xml|application/vnd.ogc.wms_xml"

SWX_API size_t swx_wms_bundle_count(void);
SWX_API const char *swx_wms_bundle(size_t i);
/* 0 when name is a bundle; SWX_EINVAL listing the valid ones otherwise. */
SWX_API int swx_wms_bundle_check(const char *name);

/* Fills req and a new query (*q, freed by the caller with swx_query_free) for
 * the GetCapabilities request of one bundle. */
SWX_API int swx_wms_caps_request(const char *bundle, swx_request *req, swx_query **q);

/* Fetches and parses the capabilities of one bundle. */
SWX_API int swx_wms_get_caps(swx_client *c, const char *bundle, swx_caps **out);

/* Fetches the capabilities of n bundles at once (at most max_in_flight
 * requests together) and parses them. out[i] and rc[i] receive each bundle's
 * document or error code; errors[i], if errors is not NULL, a copy of its error
 * line (caller frees). Returns 0 when every bundle succeeded, else the first
 * failure's code (the others are still filled). */
SWX_API int swx_wms_get_caps_many(swx_client *c, const char *const *bundles, size_t n,
                                  int max_in_flight, swx_caps **out, int *rc, char **errors);

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

SWX_API int swx_wms_getmap_request(const swx_getmap *g, swx_request *req, swx_query **q);

#ifdef __cplusplus
}
#endif
#endif

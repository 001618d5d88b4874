/*
 * seawx/wms.h: the service's WMS endpoint: bundles, capabilities and legend
 * graphics.
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

/* Fetches and parses the capabilities of one bundle. */
SWX_API int swx_wms_get_caps(swx_caps **out, swx_client *c, const char *bundle);

/* The same, also handing over the document as received (*xml, *len bytes
 * followed by a NUL; caller frees), which swx_caps_parse reads again: front
 * ends that open the same bundle often (QGIS opens a dataset again for every
 * render) keep it for a while instead of asking again. On failure *out and
 * *xml are NULL. */
SWX_API int swx_wms_get_caps_doc(swx_caps **out, char **xml, size_t *len, swx_client *c,
                                 const char *bundle);

/* Fetches the capabilities of n bundles at once (at most max_in_flight
 * requests together) and parses them. out[i] and rc[i] receive each bundle's
 * document or error code; errors[i], if errors is not NULL, a copy of its error
 * line (caller frees). Returns 0 when every bundle succeeded, else the first
 * failure's code (the others are still filled). */
SWX_API int swx_wms_get_caps_many(swx_caps **out, int *rc, char **errors, swx_client *c,
                                  const char *const *bundles, size_t n, int max_in_flight);

/* The most bytes a legend graphic may have, and the largest side asked for. */
#define SWX_LEGEND_MAX_BYTES (4u << 20)
#define SWX_LEGEND_MAX_SIDE 1024

/* The legend graphic of one layer's style: the value ramp as the service
 * renders it, a PNG (GetLegendGraphic of the SLD profile, at the service's own
 * WMS endpoint with the client's key; a LegendURL in the capabilities names
 * the same request without the key). layer is a leaf's full name; style NULL
 * or "" is the layer's default; width and height 0 are the service's size
 * (the stand-in's: 256 x 40, the ramp with its values and unit), else 1 to
 * SWX_LEGEND_MAX_SIDE. *out (malloc, caller frees) holds *len bytes of a PNG
 * checked to decode whole; its size in *w, *h (may be NULL). On failure *out
 * is NULL. */
SWX_API int swx_wms_get_legend(void **out, size_t *len, int *w, int *h, swx_client *c,
                               const char *bundle, const char *layer, const char *style, int width,
                               int height);

#ifdef __cplusplus
}
#endif
#endif

/*
 * seawx/wms_caps.h: the service's WMS capabilities, as leaf layers.
 *
 * The service nests its layers (root -> product -> run date YYYYMMDD -> issuance
 * hour HH -> leaves); other servers list the leaves directly under the root (the
 * flat form). Both are read into the same list of leaf layers (layers that have a
 * Name), in document order. CRSs and styles are inherited from ancestors and
 * added to; bounding boxes and dimensions are inherited unless the leaf replaces
 * them, as WMS 1.3.0 section 7.2.4.8 says. WMS 1.1.1 documents (SRS,
 * LatLonBoundingBox, Dimension + Extent) are read too.
 *
 * A leaf's Name follows {product}/{YYYYMMDD}/{HH}/{variable}[:{unit}]; the product
 * is opaque (it may carry a bundle suffix: "sof-d.maritime"). A Name that does not
 * follow the pattern is still a layer: its variable is the whole Name, product and
 * unit are NULL, and its run comes from the reference_time dimension if it has one.
 *
 * Parsing never touches the network, never expands entities (a document that
 * declares any is refused), and refuses documents over SWX_CAPS_MAX_BYTES.
 */
#ifndef SEAWX_WMS_CAPS_H
#define SEAWX_WMS_CAPS_H

#include "seawx/visibility.h"
#include "seawx/wms_time.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_CAPS_MAX_BYTES (64u * 1024u * 1024u)

typedef struct swx_caps swx_caps;   /* a parsed document; owns its layers */
typedef struct swx_layer swx_layer; /* a leaf layer; lives as long as its swx_caps */

typedef struct swx_bbox {
    char crs[32];                  /* "EPSG:4326", "EPSG:3857", "CRS:84", ... */
    double minx, miny, maxx, maxy; /* as written in the document (1.3.0 EPSG:4326: x = lat) */
} swx_bbox;

typedef struct swx_style {
    const char *name;       /* never NULL */
    const char *title;      /* may be NULL */
    const char *legend_url; /* may be NULL; never carries a key */
} swx_style;

/* Parses a capabilities document of len bytes. On failure *out is NULL and the
 * error line says what is wrong ("malformed capabilities: line 3: ..."). */
SWX_API int swx_caps_parse(swx_caps **out, const char *xml, size_t len);
/* One more holder of caps (never changed once parsed; threads may share it):
 * each holder frees it once, and the last free releases it. Returns caps. */
SWX_API swx_caps *swx_caps_ref(swx_caps *caps);
SWX_API void swx_caps_free(swx_caps *caps);

/* "1.3.0" or "1.1.1" as the document says; the service Title (may be NULL);
 * the advertised MaxWidth/MaxHeight (0 when not given). */
SWX_API const char *swx_caps_version(const swx_caps *caps);
SWX_API const char *swx_caps_title(const swx_caps *caps);
SWX_API int swx_caps_max_width(const swx_caps *caps);
SWX_API int swx_caps_max_height(const swx_caps *caps);
/* The GetMap image formats offered ("image/png", ...). */
SWX_API size_t swx_caps_format_count(const swx_caps *caps);
SWX_API const char *swx_caps_format(const swx_caps *caps, size_t i);

SWX_API size_t swx_caps_layer_count(const swx_caps *caps);
SWX_API const swx_layer *swx_caps_layer(const swx_caps *caps, size_t i);
/* The leaf with exactly this Name, or NULL. */
SWX_API const swx_layer *swx_caps_find(const swx_caps *caps, const char *name);

/* All leaves of one variable (and unit, if unit is not NULL; "" matches layers
 * without a unit), newest run first. Writes up to max pointers into out and
 * returns how many leaves there are in all. */
SWX_API size_t swx_caps_runs(const swx_caps *caps, const char *variable, const char *unit,
                             const swx_layer **out, size_t max);

/* The leaf of the newest complete run of a variable (unit as above). A run is
 * complete when it lists at least as many valid times as every other run of the
 * same variable with the same issuance hour: a run still being produced lists
 * fewer. Returns 0, or SWX_ENOTFOUND naming the variables that do exist. */
SWX_API int swx_caps_latest(const swx_layer **out, const swx_caps *caps, const char *variable,
                            const char *unit);

/* Whether this leaf's run is complete by the rule above. */
SWX_API int swx_caps_run_is_complete(const swx_caps *caps, const swx_layer *layer);

/* The distinct variable names in document order (unit not included). */
SWX_API size_t swx_caps_variable_count(const swx_caps *caps);
SWX_API const char *swx_caps_variable(const swx_caps *caps, size_t i);

SWX_API const char *swx_layer_name(const swx_layer *l);
SWX_API const char *swx_layer_title(const swx_layer *l);    /* may be NULL */
SWX_API const char *swx_layer_abstract(const swx_layer *l); /* may be NULL */
SWX_API const char *swx_layer_product(const swx_layer *l);  /* may be NULL */
SWX_API const char *swx_layer_variable(const swx_layer *l); /* never NULL */
SWX_API const char *swx_layer_unit(const swx_layer *l);     /* NULL when unitless */
/* The run: "YYYYMMDD" and "HH" from the Name (NULL if the Name has none), and
 * the run as an instant, from the Name or else the reference_time default;
 * returns 0 and sets *t, or SWX_ENOTFOUND when the layer says nothing of a run. */
SWX_API const char *swx_layer_run_date(const swx_layer *l);
SWX_API const char *swx_layer_run_hour(const swx_layer *l);
SWX_API int swx_layer_run_time(int64_t *t, const swx_layer *l);

/* The inherited CRS list, without duplicates, in the order first seen. */
SWX_API size_t swx_layer_crs_count(const swx_layer *l);
SWX_API const char *swx_layer_crs(const swx_layer *l, size_t i);
SWX_API int swx_layer_has_crs(const swx_layer *l, const char *crs); /* case-insensitive */
/* The geographic extent (EX_GeographicBoundingBox or LatLonBoundingBox, lon/lat
 * order), inherited; returns SWX_ENOTFOUND when no ancestor gives one. */
SWX_API int swx_layer_geo_bbox(double *west, double *south, double *east, double *north,
                               const swx_layer *l);
/* The BoundingBox elements (per CRS), inherited. */
SWX_API size_t swx_layer_bbox_count(const swx_layer *l);
SWX_API const swx_bbox *swx_layer_bbox(const swx_layer *l, size_t i);

/* The "time" and "reference_time" dimensions; NULL when the leaf has none. */
SWX_API const swx_timedim *swx_layer_time(const swx_layer *l);
SWX_API const swx_timedim *swx_layer_reference_time(const swx_layer *l);

SWX_API size_t swx_layer_style_count(const swx_layer *l);
SWX_API const swx_style *swx_layer_style(const swx_layer *l, size_t i);

#ifdef __cplusplus
}
#endif
#endif

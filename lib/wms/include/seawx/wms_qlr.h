/*
 * seawx/wms_qlr.h: a QGIS layer definition (.qlr, QGIS 3.22) of one run of a
 * variable, for QGIS's Temporal Controller.
 *
 * The file holds one group, named after the variable and the run ("swh
 * (Significant wave height), run 2024-10-01 00Z"), with one raster layer per
 * valid time of the run, earliest on top. Each layer is the GDAL plugin's
 * connection string of its time (provider gdal; bundle, variable, run and
 * time, plus style, crs and url when given; never the key), named after its
 * time first ("2024-10-01 06Z swh (Significant wave height)") so that a
 * narrow Layers panel tells the layers apart, with a fixed temporal range
 * from its time to one second before the next valid time (QGIS takes a fixed
 * range as inclusive at its end; the last time is shown as long as the step
 * before it, a lone time for an hour). The Temporal Controller, stepping
 * through the group's range, draws one layer per frame, and QGIS opens a
 * layer's blocks only when a frame shows it.
 *
 * A .qlr carries no project settings: the Temporal Controller's range, step
 * and animation are QGIS's own (see docs/gdal-qgis.md).
 */
#ifndef SEAWX_WMS_QLR_H
#define SEAWX_WMS_QLR_H

#include "seawx/visibility.h"
#include "seawx/wms_caps.h"

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct swx_qlr_opts {
    const char *bundle;     /* the layer's bundle (required) */
    const swx_layer *layer; /* a leaf with valid times (required) */
    const char *style;      /* a style to name in every string; NULL: none (the layer's first) */
    const char *crs;        /* a CRS to name in every string; NULL: none (EPSG:4326) */
    const char *url;        /* the service's address to name; NULL: none (SEAWX_BASE_URL) */
    const char *legend;     /* an image shown as each layer's legend (an absolute path,
                               as QGIS reads it as it is); NULL: the layer's default */
} swx_qlr_opts;

#define SWX_QLR_OPTS_INIT                                                                          \
    {                                                                                              \
        .bundle = NULL, .layer = NULL, .style = NULL, .crs = NULL, .url = NULL, .legend = NULL     \
    }

/* The fixed temporal range of valid time i of l, both ends inclusive, in
 * seconds since 1970: [time i, time i+1 - 1]. SWX_EINVAL when l has no
 * such time. */
SWX_API int swx_qlr_range(int64_t *start, int64_t *end, const swx_layer *l, size_t i);

/* Writes the layer definition to f. SWX_EINVAL for a layer without valid
 * times or a string that cannot be formed, SWX_EIO when a write fails. */
SWX_API int swx_qlr_write(FILE *f, const swx_qlr_opts *o);

#ifdef __cplusplus
}
#endif
#endif

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
 * (swx_qlr_range) that covers its time up to the next valid time. The
 * Temporal Controller, stepping through the group's range, draws one layer
 * per frame, and QGIS fetches a layer's blocks only when a frame shows it.
 * The group is written unticked (its layers ticked): with temporal
 * navigation off, QGIS would draw every layer of a ticked group at once and
 * fetch every valid time; the user turns animated navigation on, then ticks
 * the group.
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

/* The fixed temporal range of valid time i of l, both ends inclusive (as
 * QGIS reads a fixed range), in seconds since 1970: [time i + 1, time i+1 -
 * 1], the first time's from the time itself; the last time is shown as long
 * as the step before it, a lone time for an hour.
 *
 * Why a second in from both ends: the Temporal Controller's frames run from
 * the first layer's start in steps, [F, F + step) with the end left out, but
 * QGIS 3.22 finds a layer in a frame when its range starts at the frame's
 * end too (QgsTemporalRange::overlaps ignores the frame's open end), so
 * ranges that start on the valid times would draw two layers per frame, and
 * fetch both. These ranges hold one layer per frame whatever the step, and
 * a frame from time i still shows time i. SWX_EINVAL when l has no such
 * time. */
SWX_API int swx_qlr_range(int64_t *start, int64_t *end, const swx_layer *l, size_t i);

/* Writes the layer definition to f. SWX_EINVAL for a layer without valid
 * times or a string that cannot be formed, SWX_EIO when a write fails. */
SWX_API int swx_qlr_write(FILE *f, const swx_qlr_opts *o);

#ifdef __cplusplus
}
#endif
#endif

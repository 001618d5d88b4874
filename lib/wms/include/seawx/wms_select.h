/*
 * seawx/wms_select.h: what a user names of a bundle, resolved against its
 * capabilities: a layer (a leaf's full name, or a variable and a run), its
 * valid times, a style and a CRS.
 *
 * One grammar for every front end (the GDAL plugin's connection strings and
 * `seawx seed` alike):
 *   layer     a leaf's full name, "sof-d/20241001/00/t2m:K";
 *   variable  "t2m" or "t2m:K" (variable and unit);
 *   run       NULL, "" or "latest" (any case): the newest complete run;
 *             "YYYYMMDDHH"; or an ISO 8601 instant ("2024-10-01T00:00:00Z");
 *   time      one ISO 8601 instant, NULL for the time dimension's default;
 *   times     as time, or "all", or a comma list and/or start/end/period
 *             intervals in the WMS time dimension's own syntax;
 *   style     one of the layer's styles, NULL for its first;
 *   crs       EPSG:4326 (also 4326, CRS:84, OGC:CRS84) or EPSG:3857 (also
 *             3857, EPSG:900913), if the layer advertises it.
 *
 * Messages name what was asked and list what is valid, in words that suit
 * every front end; a front end adds its own hint ("list the layers with ...")
 * where it has one. Nothing here sends a request.
 */
#ifndef SEAWX_WMS_SELECT_H
#define SEAWX_WMS_SELECT_H

#include "seawx/visibility.h"
#include "seawx/wms_caps.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many instants from swx_select_times(). */
#define SWX_SELECT_MAX_TIMES 100000

/* Checks the grammar of a run before anything is sent (SWX_EINVAL if it is
 * none of the forms above); *out receives the instant, or INT64_MIN for the
 * newest complete run. out may be NULL. */
SWX_API int swx_select_run_parse(int64_t *out, const char *run);

/* The leaf named by layer, or else by variable and run, of bundle (which
 * only goes into messages). SWX_ENOTFOUND names the variables of the bundle
 * or the runs of the variable; SWX_EINVAL when neither layer nor variable is
 * given or the run is malformed. */
SWX_API int swx_select_layer(const swx_layer **out, const swx_caps *caps, const char *bundle,
                             const char *layer, const char *variable, const char *run);

/* One valid time of l: *out is the time given, its default when time is NULL
 * or empty, INT64_MIN when l has no time dimension (and no time is given).
 * A time l does not have is SWX_ENOTFOUND naming the nearest valid ones. */
SWX_API int swx_select_time(int64_t *out, const swx_layer *l, const char *time);

/* Several valid times of l, sorted as given, in a new array (free()); *n of
 * them. spec NULL: the default time (or none, *n = 0, when l has no time
 * dimension); "all": every valid time. */
SWX_API int swx_select_times(int64_t **out, size_t *n, const swx_layer *l, const char *spec);

/* The style of l named style (NULL or "": the first, "" when l has none);
 * *out lives as long as the capabilities. */
SWX_API int swx_select_style(const char **out, const swx_layer *l, const char *style);

/* The CRS named crs (NULL or "": EPSG:4326) as l advertises it ("EPSG:4326",
 * "CRS:84", "EPSG:3857" or "EPSG:900913", a static string) and its EPSG code
 * (4326 or 3857). SWX_EINVAL for a CRS seawx does not support or l does not
 * advertise, listing those it does. */
SWX_API int swx_select_crs(const char **out, int *epsg, const swx_layer *l, const char *crs);

#ifdef __cplusplus
}
#endif
#endif

/*
 * seawx/route_inputs.h: what the route search (seawx/route.h) is fed by
 * `seawx route`: the forecast from a GRIB file, and land as a leg test.
 *
 * The forecast: a GRIB1 or GRIB2 file's 10 m wind, gust, significant wave
 * height and ocean current on regular latitude/longitude grids (a voyage
 * GRIB of `seawx grib`, or any such file), cut to an area as it is read;
 * sampled bilinearly in space and linearly in time (grib/grib_field.c).
 * Outside the file's times the search is told the forecast has ended.
 */
#ifndef SEAWX_ROUTE_INPUTS_H
#define SEAWX_ROUTE_INPUTS_H

#include "seawx/route.h"
#include "seawx/visibility.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct swx_routing_forecast swx_routing_forecast;

/* Opens path for the area (degrees; west > east across 180). SWX_EINVAL or
 * SWX_EPARSE with one line for a file that is not GRIB, holds no wind or no
 * regular grid. */
SWX_API int swx_routing_forecast_open(swx_routing_forecast **out, const char *path, double south,
                                      double west, double north, double east);
SWX_API void swx_routing_forecast_free(swx_routing_forecast *f);
/* The first and last valid time. */
SWX_API int64_t swx_routing_forecast_first(const swx_routing_forecast *f);
SWX_API int64_t swx_routing_forecast_last(const swx_routing_forecast *f);
/* The search's forecast callback (ctx: the swx_routing_forecast). */
SWX_API int swx_routing_forecast_met(void *ctx, double lat, double lon, int64_t t,
                                     swx_routing_met *out);

/* The search's leg test for land (ctx: a swx_land of seawx/land.h):
 * SWX_ROUTING_LAND when the leg comes nearer land than the land's margin. */
SWX_API int swx_routing_land_leg(void *ctx, double lat0, double lon0, int64_t t0, double lat1,
                                 double lon1, int64_t t1);

/* The distance still to sail from a place to the end round land, for the
 * search's pruning (swx_routing_opts.to_end; route_water.c says how): the
 * great circle plus the detour land makes there. land: a swx_land of
 * seawx/land.h (its margin included); the area as for the land. */
typedef struct swx_routing_water swx_routing_water;
struct swx_land;
SWX_API int swx_routing_water_new(swx_routing_water **out, const struct swx_land *land,
                                  double to_lat, double to_lon, double south, double west,
                                  double north, double east);
SWX_API void swx_routing_water_free(swx_routing_water *w);
/* nm (ctx: the swx_routing_water) */
SWX_API double swx_routing_water_to_end(void *ctx, double lat, double lon);

#ifdef __cplusplus
}
#endif
#endif

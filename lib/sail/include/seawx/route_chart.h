/*
 * seawx/route_chart.h: the router's chart (`seawx route --chart`), a PNG
 * drawn with cairo by libseawx_chart, which libseawx loads the first time a
 * chart is asked for (as seawx/plan.h's swx_plan_chart_png).
 *
 * The map, in an equirectangular projection scaled by the cosine of its
 * middle latitude (longitudes continuous across 180): land filled, the sea
 * plain, the isochrones as thin grey lines, the route coloured by the true
 * wind of each leg (0-10, 10-15, 15-20, 20-25, 25-30, 30+ kn, with a key),
 * the storm that came nearest drawn at that moment (its 1-2-3 danger circle
 * and its 34 kt radii by quadrant), the start and the end marked with the
 * departure and arrival times, a scale bar in nautical miles, and a title
 * line (from, to, distance, hours). The PNG states the map's projection in
 * a tEXt chunk "seawx:map" (its format: lib/sail/internal/route_chart.h).
 */
#ifndef SEAWX_ROUTE_CHART_H
#define SEAWX_ROUTE_CHART_H

#include "seawx/land.h"
#include "seawx/route.h"
#include "seawx/route_storms.h"
#include "seawx/visibility.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_ROUTING_CHART_W 1200 /* the default size, pixels */
#define SWX_ROUTING_CHART_H 900

/* Writes the chart of the route r (found) to path, whole or not at all,
 * width x height pixels (320 to 8000 each). land: the coastline the route
 * was searched with (NULL: none drawn); storms: the storms' areas it was
 * searched with (NULL: none); waypoints: the nwaypoints waypoints passed
 * between the start and the end, lat/lon pairs (NULL and 0: none), each
 * marked with its number in the route file. 0, or a negative SWX_E* code
 * and one line: SWX_EINVAL for bad arguments or a route not found,
 * SWX_ECONFIG when the chart library cannot be loaded, SWX_ENOMEM, SWX_EIO. */
SWX_API int swx_routing_chart_png(const swx_routing *r, const swx_land *land,
                                  const swx_routing_storms *storms, const double *waypoints,
                                  size_t nwaypoints, const char *path, int width, int height);

#ifdef __cplusplus
}
#endif
#endif

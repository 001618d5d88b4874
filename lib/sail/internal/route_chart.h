/* route_chart.h: the one call between the router (libseawx) and its chart,
 * drawn with cairo in libseawx_chart (lib/chart/chart_route.c), loaded as
 * the plan's chart is (plan_chart.h says why). swx_routing_chart_png
 * (lib/sail/route_chart.c) gathers what the chart shows into a
 * swx_route_chart of plain arrays, since the chart library links cairo
 * alone and calls nothing of libseawx, and writes the file.
 *
 * The chart library reads this struct, so it must come from the same
 * build: the caller passes SEAWX_VERSION and the library refuses any other.
 *
 * The map's projection, which the PNG states in a tEXt chunk with keyword
 * SWX_ROUTE_CHART_KEY so that a reader can place a position on it:
 * "equirectangular west=W east=E south=S north=N x0=X0 y0=Y0 x1=X1 y1=Y1",
 * the map's frame from pixel edge (x0, y0) (its top left) to (x1, y1), and
 * a position maps linearly, x = x0 + (lon - W) / (E - W) (x1 - x0), y = y0 +
 * (N - lat) / (N - S) (y1 - y0), in pixel coordinates whose pixel (i, j)
 * covers [i, i + 1) x [j, j + 1). Longitudes are continuous across 180 (E
 * may pass 180: a position west of W takes 360 more); (E - W) cos((N + S) /
 * 2) / (N - S) = (x1 - x0) / (y1 - y0), so that a nautical mile measures the
 * same across and up the map at its middle latitude. */
#ifndef SEAWX_ROUTE_CHART_INT_H
#define SEAWX_ROUTE_CHART_INT_H

#include "plan_chart.h"
#include "seawx/route.h"
#include "seawx/route_storms.h"

#include <stddef.h>
#include <stdint.h>

#define SWX_CHART_ROUTE_DRAW "swx_chart_route_draw"
#define SWX_ROUTE_CHART_KEY "seawx:map"

/* A polyline or ring: n lon/lat pairs. */
typedef struct swx_route_chart_line {
    const double *lonlat;
    size_t n;
} swx_route_chart_line;

typedef struct swx_route_chart {
    const swx_routing_point *pts; /* the route, npts >= 2 */
    size_t npts;
    double distance_nm, hours;
    /* The isochrones, lat/lon pairs as swx_routing_isochrone gives them,
     * and their times (NULL: all drawn; else those closer in time to the
     * last drawn than a fortieth of the passage are left out, as the search
     * packs them near the end). */
    const double *const *iso;
    const size_t *iso_n;
    const int64_t *iso_t;
    size_t niso;
    /* Land: closed rings of lon/lat pairs (swx_land_ring), filled together
     * (non-zero winding) so that rings cut at GSHHG's bins show no seams. */
    const swx_route_chart_line *rings;
    size_t nrings;
    int has_land; /* 0: no coastline read (land beyond the area it was read for is not drawn) */
    /* The storm that came nearest, at its nearest moment; has_storm 0: none. */
    int has_storm;
    swx_routing_storm_near near;
    swx_routing_storm_shape storm;
    /* The waypoints passed between the start and the end (seawx route
     * --route FILE), lat/lon pairs; each a white diamond with its number in
     * the route file (2 for the first). NULL and 0: none. */
    const double *waypoints;
    size_t nwaypoints;
} swx_route_chart;

/* The route chart c as a PNG of width x height pixels, passed to write in
 * pieces. Arguments are checked by the caller. Returns as
 * swx_chart_plan_draw_fn does. */
typedef int swx_chart_route_draw_fn(const swx_route_chart *c, const char *version, int width,
                                    int height, swx_chart_write_fn write, void *closure,
                                    const char **why);
SWX_API swx_chart_route_draw_fn swx_chart_route_draw;

#endif

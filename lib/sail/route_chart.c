/* route_chart.c: the router's chart (swx_routing_chart_png in
 * seawx/route_chart.h): the arguments checked, what the chart shows
 * gathered into plain arrays (route_chart.h), the chart library loaded the
 * first time a chart is asked for, and its PNG written atomically. The
 * drawing, with cairo, lives in libseawx_chart (lib/chart/chart_route.c). */
#include "seawx/route_chart.h"

#include "chart_load.h"
#include "route_chart.h"
#include "seawx/atomicfile.h"
#include "seawx/error.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CHART_MIN_PX 320
#define CHART_MAX_PX 8000

/* A program that links the chart's objects itself (the unit tests) defines
 * swx_chart_route_draw and this weak reference finds it; in libseawx.so it
 * stays NULL and the library is loaded (as plan_chart.c does). */
#pragma weak swx_chart_route_draw

static pthread_once_t chart_once = PTHREAD_ONCE_INIT;
static swx_chart_route_draw_fn *chart_draw;
static char chart_why[512];

/* The chart's entry: the program's own (the unit tests), else the chart
 * library's (chart_load.c). */
static void chart_load(void)
{
    if (swx_chart_route_draw)
        chart_draw = swx_chart_route_draw;
    else
        chart_draw = (swx_chart_route_draw_fn *)swx__chart_symbol(SWX_CHART_ROUTE_DRAW, chart_why,
                                                                  sizeof chart_why);
}

/* What the chart shows, into c; the arrays it points to are freed by the
 * caller (c->rings, c->iso, c->iso_n). */
static int gather(swx_route_chart *c, const swx_routing *r, const swx_land *land,
                  const swx_routing_storms *storms)
{
    c->pts = swx_routing_points(r);
    c->npts = swx_routing_npoints(r);
    c->distance_nm = swx_routing_distance_nm(r);
    c->hours = swx_routing_hours(r);
    c->niso = swx_routing_nisochrones(r);
    c->nrings = swx_land_rings(land);
    c->has_land = land != NULL;
    swx_route_chart_line *rings = c->nrings ? calloc(c->nrings, sizeof *rings) : NULL;
    const double **iso = c->niso ? calloc(c->niso, sizeof *iso) : NULL;
    size_t *iso_n = c->niso ? calloc(c->niso, sizeof *iso_n) : NULL;
    int64_t *iso_t = c->niso ? calloc(c->niso, sizeof *iso_t) : NULL;
    c->rings = rings;
    c->iso = iso;
    c->iso_n = iso_n;
    c->iso_t = iso_t;
    if ((c->nrings && !rings) || (c->niso && (!iso || !iso_n || !iso_t)))
        return swx_error_set(SWX_ENOMEM, "out of memory for the route's chart");
    for (size_t i = 0; i < c->nrings; i++)
        rings[i].lonlat = swx_land_ring(land, i, &rings[i].n, NULL);
    for (size_t i = 0; i < c->niso; i++)
        iso_t[i] = swx_routing_isochrone(r, i, &iso[i], &iso_n[i]);
    if (storms && swx_routing_storms_nearest(storms, r, &c->near) && c->near.atcf_id)
        c->has_storm = swx_routing_storms_shape(storms, c->near.atcf_id, c->near.time, &c->storm);
    return 0;
}

int swx_routing_chart_png(const swx_routing *r, const swx_land *land,
                          const swx_routing_storms *storms, const double *waypoints,
                          size_t nwaypoints, const char *path, int width, int height)
{
    int rc = 0;
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    swx_route_chart c = {0};
    if (!path || !*path)
        return swx_error_set(SWX_EINVAL, "route chart: no output file given");
    if (width < CHART_MIN_PX || width > CHART_MAX_PX || height < CHART_MIN_PX ||
        height > CHART_MAX_PX)
        return swx_error_set(SWX_EINVAL,
                             "route chart %s: %dx%d pixels; width and height must be %d to %d",
                             path, width, height, CHART_MIN_PX, CHART_MAX_PX);
    if (!r || !swx_routing_found(r) || swx_routing_npoints(r) < 2)
        return swx_error_set(SWX_EINVAL, "route chart %s: no route to draw", path);
    pthread_once(&chart_once, chart_load);
    if (!chart_draw)
        return swx_error_set(SWX_ECONFIG, "route chart %s: cannot load the chart library: %s", path,
                             chart_why);
    if ((rc = gather(&c, r, land, storms)))
        goto done;
    c.waypoints = nwaypoints ? waypoints : NULL;
    c.nwaypoints = waypoints ? nwaypoints : 0;
    if ((rc = swx_atomicfile_open(&af, path, 0666, SWX_ATOMICFILE_STREAM)))
        goto done;
    swx__chart_sink s = {af.f, 0};
    const char *why = NULL;
    rc = chart_draw(&c, SEAWX_VERSION, width, height, swx__chart_sink_write, &s, &why);
    rc = swx__chart_end(rc, &af, &s, "route chart", path, width, height, why);
done:
    swx_atomicfile_abort(&af);
    free((void *)c.rings);
    free((void *)c.iso);
    free((void *)c.iso_n);
    free((void *)c.iso_t);
    return rc;
}

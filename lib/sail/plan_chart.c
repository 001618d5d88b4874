/* plan_chart.c: the departure plan's chart (swx_plan_chart_png in
 * seawx/plan.h): the arguments checked, the chart library loaded the first
 * time a chart is asked for, and its PNG written atomically. The drawing
 * itself, with cairo, lives in libseawx_chart (lib/chart/, plan_chart.h
 * says why). */
#include "seawx/plan.h"

#include "chart_load.h"
#include "plan_chart.h"
#include "plan_result.h"
#include "seawx/atomicfile.h"
#include "seawx/error.h"

#include <pthread.h>
#include <stdio.h>

#define CHART_MIN_PX 320
#define CHART_MAX_PX 8000

/* A program that links the chart's objects itself (the unit tests link the
 * static library and lib/chart) defines swx_chart_plan_draw, and this weak
 * reference finds it; in libseawx.so it stays NULL and the library is
 * loaded. */
#pragma weak swx_chart_plan_draw

static pthread_once_t chart_once = PTHREAD_ONCE_INIT;
static swx_chart_plan_draw_fn *chart_draw;
static char chart_why[512];

/* The chart's entry: the program's own (the unit tests), else the chart
 * library's (chart_load.c). */
static void chart_load(void)
{
    if (swx_chart_plan_draw)
        chart_draw = swx_chart_plan_draw;
    else
        chart_draw = (swx_chart_plan_draw_fn *)swx__chart_symbol(SWX_CHART_DRAW, chart_why,
                                                                 sizeof chart_why);
}

int swx_plan_chart_png(const swx_plan *p, const char *path, int what, int width, int height)
{
    int rc = 0;
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    if (!path || !*path)
        return swx_error_set(SWX_EINVAL, "plan chart: no output file given");
    if (what != 'w' && what != 'h')
        return swx_error_set(SWX_EINVAL,
                             "plan chart %s: colour by 'w' (wind) or 'h' (waves), not '%c'", path,
                             what >= 0x20 && what < 0x7f ? what : '?');
    if (width < CHART_MIN_PX || width > CHART_MAX_PX || height < CHART_MIN_PX ||
        height > CHART_MAX_PX)
        return swx_error_set(SWX_EINVAL,
                             "plan chart %s: %dx%d pixels; width and height must be %d to %d", path,
                             width, height, CHART_MIN_PX, CHART_MAX_PX);
    if (!p || !p->n || !p->rows)
        return swx_error_set(SWX_EINVAL, "plan chart %s: the plan has no departures", path);
    if (!p->ns || !p->sample_nm)
        return swx_error_set(SWX_EINVAL, "plan chart %s: the plan has no points along the route",
                             path);
    pthread_once(&chart_once, chart_load);
    if (!chart_draw)
        return swx_error_set(SWX_ECONFIG, "plan chart %s: cannot load the chart library: %s", path,
                             chart_why);

    if ((rc = swx_atomicfile_open(&af, path, 0666, SWX_ATOMICFILE_STREAM)))
        goto done;
    swx__chart_sink s = {af.f, 0};
    const char *why = NULL;
    rc = chart_draw(p, SEAWX_VERSION, what, width, height, swx__chart_sink_write, &s, &why);
    rc = swx__chart_end(rc, &af, &s, "plan chart", path, width, height, why);
done:
    swx_atomicfile_abort(&af);
    return rc;
}

/* plan_chart.h: the one call between the departure plan (libseawx) and
 * its chart, drawn with cairo in a library of its own (lib/chart/,
 * libseawx_chart.so.0) so that nothing else that links libseawx, the seawx
 * command and the GDAL plugin among them, loads cairo and fontconfig at
 * start-up. swx_plan_chart_png (plan_chart.c) checks its arguments, loads
 * the chart library the first time a chart is asked for (from the folder
 * libseawx was loaded from, else by the dynamic linker's search) and writes
 * the file; the chart library only draws.
 *
 * The chart library reads struct swx_plan (plan_result.h), so it must come
 * from the same build: the caller passes SEAWX_VERSION and the library
 * refuses any other. */
#ifndef SEAWX_PLAN_CHART_H
#define SEAWX_PLAN_CHART_H

#include "seawx/plan.h"

#define SWX_CHART_LIB "libseawx_chart.so.0"
#define SWX_CHART_DRAW "swx_chart_plan_draw"

/* Where the PNG's bytes go: 0 written, anything else stops the drawing. */
typedef int (*swx_chart_write_fn)(void *closure, const unsigned char *data, unsigned len);

/* The plan p as a PNG of width x height pixels coloured by what ('w' wind,
 * 'h' waves), passed to write in pieces. The arguments are checked by the
 * caller. 0; SWX_EINVAL for a version other than the library's; SWX_ENOMEM;
 * SWX_EIO when drawing failed (*why: cairo's words) or write refused (*why
 * NULL: the closure knows why). */
typedef int swx_chart_plan_draw_fn(const swx_plan *p, const char *version, int what, int width,
                                   int height, swx_chart_write_fn write, void *closure,
                                   const char **why);
SWX_API swx_chart_plan_draw_fn swx_chart_plan_draw;

#endif

/* chart_load.h: libseawx_chart (lib/chart/), loaded once for the plan's and
 * the route's charts (plan_chart.c, route_chart.c). */
#ifndef SEAWX_CHART_LOAD_H
#define SEAWX_CHART_LOAD_H

#include "seawx/atomicfile.h"

#include <stddef.h>
#include <stdio.h>

/* The address of name in the chart library, loaded the first time (from the
 * folder libseawx was loaded from, installed side by side and in the build
 * tree alike, else wherever the dynamic linker finds it) and kept for the
 * life of the process; NULL with the reason in why. Safe from any thread. */
void *swx__chart_symbol(const char *name, char *why, size_t why_size);

/* Where a chart's PNG goes: the file, and the errno of the first write that
 * failed. swx__chart_sink_write is the drawing's write function on it. */
typedef struct swx__chart_sink {
    FILE *f;
    int err;
} swx__chart_sink;
int swx__chart_sink_write(void *closure, const unsigned char *data, unsigned len);

/* The drawing's rc as one line naming kind ("plan chart") and path (out of
 * memory for width x height, the drawing's own why, or the write's errno);
 * on success the file committed. Returns 0 or the negative code. */
int swx__chart_end(int rc, swx_atomicfile *af, const swx__chart_sink *s, const char *kind,
                   const char *path, int width, int height, const char *why);

#endif

/* chart_load.h: libseawx_chart (lib/chart/), loaded once for the plan's and
 * the route's charts (plan_chart.c, route_chart.c). */
#ifndef SEAWX_CHART_LOAD_H
#define SEAWX_CHART_LOAD_H

#include <stddef.h>

/* The address of name in the chart library, loaded the first time (from the
 * folder libseawx was loaded from, installed side by side and in the build
 * tree alike, else wherever the dynamic linker finds it) and kept for the
 * life of the process; NULL with the reason in why. Safe from any thread. */
void *swx__chart_symbol(const char *name, char *why, size_t why_size);

#endif

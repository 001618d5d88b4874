/* plan_priv.h: the departure plan's result, shared by the plan (plan.c) and
 * its chart (plan_chart.c). */
#ifndef SEAWX_PLAN_PRIV_H
#define SEAWX_PLAN_PRIV_H

#include "seawx/plan.h"

struct swx_plan {
    size_t n;                  /* departures */
    swx_plan_departure *rows;  /* n */
    size_t ns;                 /* sample points */
    double *sample_nm;         /* ns: distance along the route */
    double *wind_kn, *wave_m;  /* n * ns, row i = departure i; NaN: no forecast */
    unsigned char *storm;      /* n * ns: 1 inside a danger area or 34 kt radius */
    swx_plan_opts opts;        /* as given (the polar borrowed) */
    double length_nm;          /* the route's length */
};

#endif

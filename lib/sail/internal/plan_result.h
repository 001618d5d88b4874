/* plan_result.h: the departure plan's result, shared by the plan (plan.c) and
 * its chart (plan_chart.c), and the forecast along the route, shared by its
 * readers (plan_forecast.c) and the plan. */
#ifndef SEAWX_PLAN_RESULT_H
#define SEAWX_PLAN_RESULT_H

#include "seawx/plan.h"
#include "seawx/jsonw.h"

struct swx_plan {
    size_t n;                 /* departures */
    swx_plan_departure *rows; /* n */
    size_t ns;                /* sample points */
    double *sample_nm;        /* ns: distance along the route */
    double *wind_kn, *wave_m; /* n * ns, row i = departure i; NaN: no forecast */
    unsigned char *storm;     /* n * ns: 1 inside a danger area or 34 kt radius */
    swx_plan_opts opts;       /* as given (the polar borrowed) */
    double length_nm;         /* the route's length */
    double *sample_lon, *sample_lat, *sample_course; /* ns */
    int64_t forecast_end; /* the forecast's last valid time; INT64_MIN: none */
    size_t left_out;      /* departures asked at or after forecast_end: not planned */
    char **strings;       /* nstrings: the rows' reasons and storm names, owned */
    size_t nstrings;
    size_t best; /* 1 + the best departure (swx_plan_better); 0: every one is no-go */
};

/* A plan option as the plan's JSON and a package's manifest write it: key
 * and the number, or null when the option is not set (0 or less). */
void swx_plan_json_opt(swx_jsonw *w, const char *key, double v);

/* The forecast: ns sample points (every spacing_nm along the route, the
 * last at its end) by nt valid times (increasing) by SWX_PV_N variables,
 * value[(j * nt + k) * SWX_PV_N + var], NaN where missing. */
struct swx_plan_forecast {
    size_t ns, nt;
    double spacing_nm;
    double *lon, *lat, *nm; /* ns */
    int64_t *times;         /* nt */
    float *value;
};

/* An empty forecast of ns points and nt times (all NaN), the sample points
 * of v placed every spacing_nm; times left for the reader to fill. */
int swx_plan_forecast_new(swx_plan_forecast **out, const swx_voyage *v, double spacing_nm,
                          size_t nt);

#endif

/*
 * seawx/point.h: the point and time-series endpoints: soil moisture (current
 * and historical), current weather, tides (hourly heights and daily extrema)
 * and forecasts (point and latest point).
 *
 * A query holds the values as the user typed them (strings), so that one
 * check, swx_point_check(), can refuse bad input with a line that names the
 * parameter and its valid range, before anything is sent. swx_point_get()
 * checks, sends and parses the answer into a swx_table with point geometry:
 *
 *   kind            path                          columns
 *   soil            /soil-moisture/point          lat lon time + the four soil variables
 *   soil-history    /soil-moisture/historical/point   (same)
 *   weather         /current/weather/point        lat lon observation_time + values
 *   tides           /tides/point                  lat lon valid_time tide_height
 *   tide-extrema    /tides/point/extrema          lat lon date high_time high_tide_height
 *                                                 low_time low_tide_height
 *   forecast        /forecast/point               lat lon issuance_time valid_time + values
 *   forecast-latest /forecast/latest/point        (same)
 *
 * Value columns are those the answer carries, in the order first seen (an
 * X-Fields mask or the bundles decide which). Where a record has no location
 * the query's lat/lon are used. Meta: unit_system, and message / forecast /
 * height_unit when the answer has them.
 *
 * The answer reader (swx_point_parse) and kind names are the core's own:
 * lib/data/internal/point_answer.h.
 */
#ifndef SEAWX_POINT_H
#define SEAWX_POINT_H

#include "seawx/http.h"
#include "seawx/table.h"
#include "seawx/visibility.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum swx_point_kind {
    SWX_POINT_SOIL = 0,
    SWX_POINT_SOIL_HISTORY,
    SWX_POINT_WEATHER,
    SWX_POINT_TIDES,
    SWX_POINT_TIDE_EXTREMA,
    SWX_POINT_FORECAST,
    SWX_POINT_FORECAST_LATEST,
} swx_point_kind;

/* The tide archive, inclusive: 1990-01-01 .. 2025-12-31. */
#define SWX_TIDES_FIRST "1990-01-01"
#define SWX_TIDES_LAST "2025-12-31"
#define SWX_TIDES_MAX_HOURS 240

typedef struct swx_point_query {
    swx_point_kind kind;
    const char *lat, *lon; /* required */
    const char *time;      /* soil: instant; weather: instant or START/END */
    const char *start;     /* soil-history start_time (required); tides start_datetime;
                              tide-extrema start_datetime (required) */
    const char *end;       /* soil-history end_time, tide-extrema end_datetime (required) */
    const char *hours;     /* tides forecast_hours, 1..240 (default 240) */
    const char *units;     /* unit_system si|us: weather, tides, extrema, forecast */
    const char *tz;        /* weather */
    const char *fields;    /* weather: X-Fields mask */
    const char *bundles;   /* forecast, forecast-latest: comma list (required) */
} swx_point_query;

SWX_API int swx_point_kind_parse(swx_point_kind *out, const char *s);

/* Checks every parameter against the interface. Parameters that the kind does
 * not take are refused too, by name. */
SWX_API int swx_point_check(const swx_point_query *q);
/* Checks, sends, parses. */
SWX_API int swx_point_get(swx_table **out, swx_client *c, const swx_point_query *q);

#ifdef __cplusplus
}
#endif
#endif

/* points.h: the point and time-series endpoints of seawx-sim:
 * /soil-moisture/point, /soil-moisture/historical/point (daily records),
 * /current/weather/point (X-Fields masks, si/us units, time ranges hourly),
 * /tides/point (hourly, forecast_hours <= 240, archive 1990-01-01..2025-12-31),
 * /tides/point/extrema (one entry per day), /forecast/point and
 * /forecast/latest/point (3-hourly to 48 h from the newest 6-hourly run,
 * variables by bundle). Values are smooth functions of place and time, so
 * that answers are reproducible. */
#ifndef SIM_POINTS_H
#define SIM_POINTS_H

#include "http.h"

int sim_points_handle(struct sim_request *rq);

#endif

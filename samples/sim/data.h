/* data.h: the point, file, job and vessel endpoints of the service:
 * /soil-moisture/..., /current/weather/..., /tides/..., /forecast/... and the
 * Vessels API's /vessels (served on the same host; point SEAWX_VESSELS_URL at
 * the simulator's address). Every one checks the key (header form only) and
 * its parameters the way the interface describes them, and answers 400 with
 * a JSON errors body naming the parameter otherwise.
 *
 * Settings from the environment (read once at start):
 *   SEAWX_SIM_FILES_DIR     folder of the NetCDF sample (default: the build's)
 *   SEAWX_SIM_GRIB_DIR      cache folder of the GRIB2 files (see grib.h)
 *   SEAWX_SIM_STORAGE_RANGE 0: the storage host ignores Range (200, whole file)
 *   SEAWX_SIM_JOB_MS        time a historical region job takes (default 1500)
 *   SEAWX_SIM_VESSELS_TIER  premium (default) or standard: standard leaves
 *                           the extended EVD fields out
 *   SEAWX_SIM_VESSELS       number of vessels served (default 7)
 *   SEAWX_SIM_STORAGE_CUT   1: the storage host cuts the first whole-file
 *                           answer for each file short, so clients must resume */
#ifndef SIM_DATA_H
#define SIM_DATA_H

#include <stdint.h>

#include "buf.h"
#include "http.h"

/* Whether path belongs to these endpoints. */
int sim_data_path(const char *path);
/* Answers a request for such a path (after latency and faults). */
int sim_data_handle(struct sim_request *rq);

/* Shared by the endpoint modules. */
int sim_data_bad(struct sim_request *rq, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Reads lat and lon (required, in range); on a bad value answers 400 and returns 1. */
int sim_data_latlon(struct sim_request *rq, double *lat, double *lon);
/* Reads unit_system (si default, us); answers 400 and returns 1 when bad. */
int sim_data_units(struct sim_request *rq, int *us);
/* Reads an optional ISO 8601 time parameter; 1 (answered) when malformed. */
int sim_data_time(struct sim_request *rq, const char *name, int *given, int64_t *t);
/* Answers a JSON body. */
int sim_data_json(struct sim_request *rq, struct sim_buf *b);
/* Environment settings. */
long sim_data_env(const char *name, long dflt, long min, long max);

#endif

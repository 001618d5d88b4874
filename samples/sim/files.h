/* files.h: file listings, downloads and the storage side of seawx-sim.
 *
 * Listings ({"meta":{"count":N},"files":[...]}) use the service's names:
 *   /soil-moisture/region     soil-moisture.YYYYMMDD.global.nc, the last 29 days
 *                             (downloads accept any date, region global only)
 *   /current/weather/file     cwc.YYYYMMDD.tHHz.0p027.basic.REGION.grib2, hourly:
 *                             the last 24 hours, the hour of time=, or every hour
 *                             of time=START/END; regions= (default global)
 *   /forecast/file            sof-d.YYYYMMDD.tHHz.0p25.BUNDLE.REGION.fFFF.grib2 of
 *                             the newest 6-hourly run, f000..f120 hourly, then
 *                             3-hourly to f240; bundles= (default basic)
 * regions= of the GRIB files must be regions grib.h knows (400 otherwise).
 * A download path (.../ID) answers 302 to the storage host,
 * {storage}/files/AREA/ID?expires=..&signature=.., or 404 for a name no
 * listing would give. The storage host serves the NetCDF sample made at build
 * time (soil moisture and job results) and the GRIB2 files grib.c makes per
 * name, with byte ranges (206, 416) unless SEAWX_SIM_STORAGE_RANGE=0: then a
 * Range header is ignored and the whole file comes with 200 (a client's
 * fallback). */
#ifndef SIM_FILES_H
#define SIM_FILES_H

#include "http.h"

int sim_files_list(struct sim_request *rq);
int sim_files_redirect(struct sim_request *rq);
/* Answers 302 to the storage copy of a file: area "soil-moisture",
 * "current-weather", "forecast" or "jobs". */
int sim_files_redirect_to(struct sim_request *rq, const char *area, const char *name);
/* The storage host's /files/ paths; 0 when the path is not one (not answered). */
int sim_files_storage(struct sim_request *rq, int *handled);

#endif

/* grib.h: the forecast and current-weather files of the storage host, as real
 * GRIB2 made with ecCodes from the same fields as the WMS maps (field.c), so
 * that a tile and the file of the same time show the same weather.
 *
 * Names served (anything else is not a file: 404):
 *   sof-d.YYYYMMDD.tHHz.0p25.BUNDLE.REGION.fFFF.grib2
 *       HH 00, 06, 12 or 18 (the run); FFF hourly 000..120, then 3-hourly to
 *       240; BUNDLE basic, maritime, wind, agricultural, aviation or solar
 *   cwc.YYYYMMDD.tHHz.0p027.basic.REGION.grib2
 *       the fields at that hour (lead 0: an analysis), any hour
 * REGION is global (0.25 degree, 1440 x 721, longitudes 0..359.75, rows north
 * to south as GFS writes them) or one of the boxes of sim_grib_regions(), on the
 * same 0.25 degree lattice. Current-weather files are on that grid too (a
 * 0.027 degree global grid would be 89 million points a field).
 *
 * One field per message, regular lat/lon (template 3.0), complex packing
 * (template 5.2; simple packing with no bits for a field constant at its
 * precision), a decimal scale per parameter:
 *   basic (and agricultural, aviation, solar):
 *     10u, 10v (0/2/2, 0/2/3, 10 m, 0.1 m s-1), i10fg gust (0/2/22, 10 m,
 *     0.1 m s-1), prmsl (0/3/1, 10 Pa), 2t (0/0/0, 2 m, 0.1 K), tp (0/1/8, kg
 *     m-2, 0.1: the accumulation over the 3 h before the valid time, or from
 *     the run when the hour is below 3; no tp at f000)
 *   maritime: swh (10/0/3, 0.01 m), mwd (10/0/14, 0.1 degree), mwp (10/0/15,
 *     0.1 s); land points are missing (bitmap), as on the WMS maps
 *   wind: 10u, 10v, i10fg, 100u and 100v (0/2/2, 0/2/3 at 100 m)
 *   current weather: the basic fields at lead 0 with prate (0/1/7, kg m-2 s-1,
 *     1e-6) instead of tp
 * With SEAWX_SIM_GRIB_CENTRE=ecmwf the files are encoded as ECMWF's: centre
 * ecmf, pressure as msl (0/3/0 on the mean sea level, 10 Pa), tp in metres
 * (0/1/193 of ECMWF's local table, 0.0001 m); the other fields as above.
 * With SEAWX_SIM_GRIB_CENTRE=ncep, centre kwbc and the codes above.
 * Reference time: the run (forecast files) or the hour (current weather,
 * typeOfProcessedData 0); forecastTime in hours.
 *
 * Files are made on first request and kept in a cache folder,
 * $SEAWX_SIM_GRIB_DIR or else $TMPDIR/seawx-sim-grib-VERSION-UID (/tmp without
 * TMPDIR), one file per name, written atomically: several requests, or several
 * simulators sharing the folder, never see a part. Files older than two days
 * (by modification time) are removed whenever a new one is made. */
#ifndef SIM_GRIB_H
#define SIM_GRIB_H

#include <stdint.h>

#include "blob.h"

/* Hours of a forecast run that have a file. */
#define SIM_GRIB_LAST_HOURLY 120
#define SIM_GRIB_LAST_HOUR 240

/* Whether a forecast hour is on the files' schedule. */
int sim_grib_hour_valid(int hour);
/* Whether region names a region the files are made for. */
int sim_grib_region_known(const char *region);
/* "global, europe, ..." for error messages. */
const char *sim_grib_regions(void);
/* Whether name is a file sim_grib_get can make. */
int sim_grib_name_ok(const char *name);
/* The file's bytes (a new reference): 0, -1 when name is not such a file, -2
 * when it could not be made (one line on stderr). */
int sim_grib_get(const char *name, struct sim_blob **out);
/* The value in GRIB units that a file's parameter short name (2t, 10u, 10v,
 * i10fg, prmsl, tp, prate, swh, mwd, mwp, 100u, 100v) would have at (lon, lat)
 * for a valid time and run; tp is the 3 h accumulation ending at valid.
 * Returns 0, 1 for a missing (land) value, -1 for an unknown name. */
int sim_grib_value(const char *short_name, double lon, double lat, int64_t valid, int64_t run,
                   double *out);
/* The value in GRIB units, before packing, that the forecast file of run and
 * forecast hour holds for short_name at (lon, lat): at a grid node the file's
 * value within its packing precision. tp is accumulated over the file's
 * interval (3 h, or from the run below f003). Returns 0, 1 when the file has
 * none there (land for a sea parameter, tp at f000), -1 for an unknown name or
 * an hour without a file, -2 when out of memory. */
int sim_grib_forecast_value(const char *short_name, double lon, double lat, int64_t run, int hour,
                            double *out);

#endif

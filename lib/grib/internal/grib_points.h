/* grib_points.h: the values of a GRIB file's fields at given points (the
 * nearest grid node to each), for readers above the grib domain (the
 * departure plan's forecast from a voyage GRIB). */
#ifndef SEAWX_GRIB_POINTS_H
#define SEAWX_GRIB_POINTS_H

#include "grib_vars.h"

#include <stddef.h>
#include <stdint.h>

#define SWX_GRIB_POINTS_MAX_FILE (512u << 20) /* the file, after bzip2 */

/* Called once per message of a voyage GRIB parameter (grib_vars.c's table;
 * other messages are skipped): its parameter, valid time (seconds since
 * 1970) and the value at the grid node nearest to each of the n points
 * (NaN where the node's value is missing). Returns 0 to go on, or a
 * negative code to stop. */
typedef int (*swx_grib_points_fn)(void *ud, const gparam *p, int64_t valid, const double *values,
                                  size_t n);

/* Reads the GRIB1 or GRIB2 file at path (compressed with bzip2 or not) and
 * hands each field at the n points (lon, lat in degrees) to fn. SWX_EIO for
 * a file that cannot be read, SWX_EPARSE with one line for one that is not
 * GRIB or whose message ecCodes cannot decode. */
int swx__grib_points_read(const char *path, const double *lon, const double *lat, size_t n,
                          swx_grib_points_fn fn, void *ud);

#endif

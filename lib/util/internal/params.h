/*
 * params.h: checks of the values users give for the service's parameters
 * (internal). Each returns 0, or SWX_EINVAL with one line that names the
 * parameter and its valid range or form, so that bad input is refused before
 * anything is sent. `name` is how the user wrote the parameter (the CLI
 * option and the GDAL connection key share these names).
 */
#ifndef SWX_PARAMS_H
#define SWX_PARAMS_H

#include <stdint.h>

/* A decimal number within [min, max]. */
int swx_param_number(double *out, const char *name, const char *s, double min, double max);
/* A whole number within [min, max]. */
int swx_param_int(long *out, const char *name, const char *s, long min, long max);
int swx_param_lat(double *out, const char *s);
int swx_param_lon(double *out, const char *s);
/* An ISO 8601 instant (YYYY-MM-DD[THH[:MM[:SS]]][Z|+HH:MM]). */
int swx_param_time(int64_t *out, const char *name, const char *s);
/* An instant, or a range "START/END" with END after START (*end = *start for an instant). */
int swx_param_time_or_range(int64_t *start, int64_t *end, const char *name, const char *s);
/* end strictly after start. */
int swx_param_order(const char *start_name, int64_t start, const char *end_name, int64_t end);
/* "si" or "us". */
int swx_param_units(const char *name, const char *s);
/* A comma list of forecast bundles: basic, maritime, agricultural, aviation, solar, wind. */
int swx_param_bundles(const char *name, const char *s);
/* A comma list of region identifiers (letters, digits, '_' and '-'). */
int swx_param_regions(const char *name, const char *s);
/* A time zone identifier such as Europe/Oslo or UTC. */
int swx_param_tz(const char *name, const char *s);
/* A file name from a listing: no '/', no "..", printable, at most 255 bytes. */
int swx_param_file_id(const char *name, const char *s);
/* A job identifier: hexadecimal digits and '-', 8 to 64 characters. */
int swx_param_uuid(const char *name, const char *s);

#endif

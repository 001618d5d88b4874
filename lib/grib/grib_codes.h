/* grib_codes.h: the one table of how the major centres encode each quantity
 * a voyage GRIB or a route reads (grib_codes.c): GRIB2 discipline,
 * category, number and surface, GRIB1 table, parameter and level, with
 * ecCodes' short name of each encoding. Private to lib/grib: the variables
 * of `seawx grib` (grib_vars.c), the fields of a route (grib_field.c) and
 * the points of a file (grib_points.c) all know a message through it. */
#ifndef SEAWX_GRIB_CODES_H
#define SEAWX_GRIB_CODES_H

#include "grib_vars.h"

#include <stddef.h>

struct grib_handle;

/* One encoding of a quantity. A row may have a GRIB2 side, a GRIB1 side or
 * both; when both, the GRIB1 side is how the same centre writes the same
 * field in GRIB1 (what `seawx grib --edition 1` writes for it). */
typedef struct swx_gcode {
    int q;            /* enum swx_gq (grib_vars.h) */
    const char *name; /* ecCodes' short name: "prmsl", "msl" */
    /* GRIB2; discipline -1: none. surface: typeOfFirstFixedSurface, -1
     * any; level: compared where the surface is a height or depth
     * (103, 106, 160), in its unit (m) */
    int discipline, category, number, surface;
    double level;
    /* GRIB1; param 0: none. table: table2Version, 0 for WMO's table 2
     * (versions 1 to 3, and the centres' own versions below 128 that keep
     * its codes), 128/140/228 for ECMWF's; centre: 0 any, else the only
     * centre whose files carry it (ECMWF's tables, NCEP's local codes);
     * level_type -1 any */
    int g1_centre, g1_table, g1_param, g1_level_type, g1_level;
} swx_gcode;

/* The encoding of a GRIB2 message, or NULL. */
const swx_gcode *swx__gcode_grib2(int discipline, int category, int number, int surface,
                                  double level);
/* The encoding of a GRIB1 message, or NULL. */
const swx_gcode *swx__gcode_grib1(long centre, long table, long param, long level_type, long level);
/* The encoding of the message ecCodes holds in h (either edition), or NULL. */
const swx_gcode *swx__gcode_of(struct grib_handle *h);
/* A message's name for people: the encoding's short name, or the codes
 * ("0.1.193", "t128.228") of one the table does not know, into buf. */
const char *swx__gcode_name2(char *buf, size_t n, int discipline, int category, int number,
                             int surface, double level);
/* Appends name to the comma list held (n bytes) unless it is there. */
void swx__gcode_list_add(char *held, size_t n, const char *name);

#endif

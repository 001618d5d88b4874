/* grib_vars.h: the voyage GRIB's variables table (grib_vars.c): the GRIB2
 * and GRIB1 parameters each variable is made of; read by the grib files and
 * by the floors above that read a voyage GRIB (grib_points.h). */
#ifndef SEAWX_GRIB_VARS_H
#define SEAWX_GRIB_VARS_H

#include <stddef.h>

/* One GRIB2 parameter a variable is made of. */
typedef struct gparam {
    const char *var;    /* the sailor's name: "wind" */
    const char *bundle; /* the forecast bundle holding it */
    const char *label;  /* what error lines call it: "10 m wind (u)" */
    int discipline, category, number, surface;
    double level;
    int dscale;     /* decimal scale factor written: values to 10^-dscale */
    int accumulate; /* a total over the hours before: absent at hour 0 */
    /* GRIB1 (WMO table 2, version 3): parameter, level type, level; 0: none */
    int g1_param, g1_level_type, g1_level;
} gparam;

#define GRIB_MAX_PARAMS 16

/* The parameters of a comma list of variables, in the table's order. */
int swx__grib_params(const gparam **out, size_t *n, const char *vars);

#endif

/* grib_vars.h: the voyage GRIB's variables table (grib_vars.c): the GRIB2
 * and GRIB1 fields each variable is made of (known by any centre's
 * encoding, grib_codes.h); read by the grib files and
 * by the floors above that read a voyage GRIB (grib_points.h). */
#ifndef SEAWX_GRIB_VARS_H
#define SEAWX_GRIB_VARS_H

#include <stddef.h>

/* What a message holds, whoever encoded it. */
enum swx_gq {
    SWX_GQ_WIND_U,
    SWX_GQ_WIND_V,
    SWX_GQ_GUST,
    SWX_GQ_PRMSL,
    SWX_GQ_TEMP,
    SWX_GQ_RAIN,
    SWX_GQ_SWH,
    SWX_GQ_MWD,
    SWX_GQ_MWP,
    SWX_GQ_WIND100_U,
    SWX_GQ_WIND100_V,
    SWX_GQ_CUR_U,
    SWX_GQ_CUR_V,
    SWX_GQ_COUNT
};

/* One field a variable is made of. */
typedef struct gparam {
    const char *var;    /* the sailor's name: "wind" */
    const char *bundle; /* the forecast bundle holding it */
    const char *label;  /* what error lines call it: "10 m wind (u)" */
    int q;              /* what it is (enum swx_gq): any centre's
                           encoding of it is taken (grib_codes.c) */
    int dscale;         /* decimal scale factor written: values to 10^-dscale */
    int accumulate;     /* a total over the hours before: absent at hour 0 */
    /* GRIB1 written for a field the table gives no GRIB1 code of its
     * centre (WMO table 2, version 3): parameter, level type, level; 0: none */
    int g1_param, g1_level_type, g1_level;
} gparam;

#define GRIB_MAX_PARAMS 16

/* The parameters of a comma list of variables, in the table's order. */
int swx__grib_params(const gparam **out, size_t *n, const char *vars);

#endif

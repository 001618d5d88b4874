/* grib_field.h: a GRIB file's wind, gust, waves and ocean currents as fields
 * to sample anywhere in their area and time (grib_field.c), for the route
 * search of the sailing floor. The grib floor's interface to the floors
 * above: only the grib domain reads GRIB with ecCodes. */
#ifndef SEAWX_GRIB_FIELD_H
#define SEAWX_GRIB_FIELD_H

#include <stdint.h>

/* The fields a file may hold, as bits of swx__gfield_has(). */
enum swx_gfield_kind {
    SWX_GF_WIND_U,
    SWX_GF_WIND_V,
    SWX_GF_GUST,
    SWX_GF_WAVE,
    SWX_GF_CUR_U,
    SWX_GF_CUR_V,
    SWX_GF_KINDS
};

/* The forecast at a place and time; NAN where a field is absent there. */
typedef struct swx_gfield_met {
    double wind_u_kn, wind_v_kn; /* toward east and north */
    double gust_kn, wave_m;
    double cur_u_kn, cur_v_kn;
} swx_gfield_met;

typedef struct swx_gfield swx_gfield;

/* swx__gfield_sample(): t is outside the wind's times */
#define SWX_GFIELD_OUTSIDE 1

/* Reads the file at path (GRIB1 or GRIB2, plain or bzip2), message by
 * message, keeping of each field's regular latitude/longitude grid only the
 * nodes in south..north, west..east (degrees; west > east across 180) and
 * one node around. Fields are known by any of the encodings the major
 * centres give them (lib/grib/grib_codes.c, GRIB2 and GRIB1): 10 m wind u/v
 * (0,2,2/3 at 10 m; GRIB1 33/34, ECMWF 165/166), 10 m gust (0,2,22 at 10 m
 * or at the ground; GRIB1 NCEP 180, ECMWF 49), significant wave height
 * (10,0,3; GRIB1 100, ECMWF 140/229), ocean current u/v (10,1,2/3; GRIB1
 * 49/50). SWX_EPARSE for what is not
 * GRIB; SWX_EINVAL naming what the file holds when it has no 10 m wind, and
 * for a field on another grid than a regular latitude/longitude one. */
int swx__gfield_open(swx_gfield **out, const char *path, double south, double west, double north,
                     double east);
void swx__gfield_free(swx_gfield *f);
/* The first and last valid time of the wind. */
int64_t swx__gfield_first(const swx_gfield *f);
int64_t swx__gfield_last(const swx_gfield *f);
/* Bit k set when the file holds field k (enum swx_gfield_kind). */
unsigned swx__gfield_has(const swx_gfield *f);
/* The forecast at (lat, lon) at t: bilinear in space on each message's own
 * grid, linear in time between the two messages around t. 0, or
 * SWX_GFIELD_OUTSIDE before the wind's first or after its last valid time. Read-only: safe
 * from several threads at once. */
int swx__gfield_sample(const swx_gfield *f, double lat, double lon, int64_t t, swx_gfield_met *out);

#endif

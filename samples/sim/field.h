/* field.h: the simulated weather, as smooth functions of longitude, latitude,
 * valid time and run.
 *
 * Fields are evaluated on separable grids: a request in EPSG:4326, CRS:84 or
 * EPSG:3857 maps pixel columns to longitudes and rows to latitudes, so every
 * term that depends on one coordinate only is computed once per column or row.
 * A value depends only on (lon, lat, time, run) and the order of the
 * arithmetic, never on the grid it was asked on: the same geographic point gives
 * the same bits from any request. */
#ifndef SIM_FIELD_H
#define SIM_FIELD_H

#include <stddef.h>
#include <stdint.h>

/* clang-format off: grouped by theme */
enum sim_field {
    SIM_F_T2M,
    SIM_F_T2MMIN,
    SIM_F_T2MMAX,
    SIM_F_D2M,
    SIM_F_PMSL,
    SIM_F_RH,
    SIM_F_TP,
    SIM_F_CP,
    SIM_F_CRR,
    SIM_F_PTYPE,
    SIM_F_U10,
    SIM_F_V10,
    SIM_F_WS10,
    SIM_F_GUST,
    SIM_F_TCC,
    SIM_F_LCC,
    SIM_F_MCC,
    SIM_F_HCC,
    SIM_F_SST,
    SIM_F_SWH,
    SIM_F_MWP,
    SIM_F_MWD,
    SIM_F_SHWW,
    SIM_F_MPWW,
    SIM_F_SHTS,
    SIM_F_MPTS,
    SIM_F_MDTS,
    SIM_F_PP1D,
    SIM_F_OCU,
    SIM_F_OCV,
    SIM_F_OCS,
    SIM_F_LSM,
    SIM_F_CAPE,
    SIM_F_CIN,
    SIM_F_LFTX,
    SIM_F_TSTM,
    SIM_F_T850,
    SIM_F_GH500,
    SIM_F_WS250,
    SIM_F_R700,
    SIM_F_VIS,
    SIM_F_EVAP,
    SIM_F_PEV,
    SIM_F_SOILW,
    SIM_F_STL1,
    SIM_F_WS100,
    SIM_F_WD100,
    SIM_F_WPD100,
    SIM_F_SSRD,
    SIM_F_FDIR,
    SIM_F_DIF
};
/* clang-format on */

/* Which flow the arrows of the vector and barb renderers show. */
enum sim_vector {
    SIM_VEC_NONE,
    SIM_VEC_WIND10,
    SIM_VEC_WIND100,
    SIM_VEC_WIND250,
    SIM_VEC_CURRENT,
    SIM_VEC_WAVE,
    SIM_VEC_SWELL
};

/* A separable grid: point (i, j) is (lon[i], lat[j]); land[j * nx + i] is 1
 * over land. Values come out row-major, nx per row. */
struct sim_grid {
    size_t nx, ny;
    const double *lon; /* degrees, snapped (see render.c) */
    const double *lat;
    const uint8_t *land;
};

/* Valid time and run of a layer, in seconds since the epoch. */
struct sim_when {
    int64_t valid;
    int64_t run;
};

/* Evaluates field f in SI units (K, Pa, m, m s-1, %, degrees, ...) into out
 * (nx * ny values). Returns 0, or -1 when out of memory. */
int sim_field_eval(enum sim_field f, const struct sim_grid *g, const struct sim_when *w,
                   float *out);

/* Evaluates the flow v as eastward and northward components (m s-1, or for waves
 * a length in metres along the direction the waves travel). */
int sim_field_vector(enum sim_vector v, const struct sim_grid *g, const struct sim_when *w,
                     float *u, float *vv);

/* The GRIB files' cache names' prefix under the analytic switch
 * (SEAWX_SIM_ANALYTIC, field_analytic.c); "" when it is off. */
const char *sim_field_analytic_tag(void);

#endif

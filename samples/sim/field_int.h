/* field_int.h: what the parts of the simulated weather share (field.c,
 * field_base.c, field_derived.c) and no other file of seawx-sim sees.
 *
 * One evaluation (one request's grid at one valid time and run) has one
 * context: field.c makes and frees it, field_base.c fills its base fields on
 * demand, field_derived.c reads them to make the fields of field.h. */
#ifndef SIM_FIELD_INT_H
#define SIM_FIELD_INT_H

#include <math.h>
#include <stdint.h>

#include "field.h"

#define PI 3.14159265358979323846
#define DEG (PI / 180.0)
/* 2000-01-01T00:00:00Z: times are hours since then, small enough for doubles. */
#define EPOCH_2000 946684800

enum base {
    B_TFREE, /* free-atmosphere temperature, K */
    B_T2M,   /* 2 m temperature, K */
    B_PANOM, /* pressure anomaly, Pa */
    B_U10,
    B_V10,
    B_PRECIP, /* precipitation, m per 3 h */
    B_CONV,   /* convective potential, 0..1 */
    B_CLOUD,  /* total cloud, % */
    B_RH,     /* relative humidity, % */
    B_SWELL,  /* swell height, m */
    B_OCU,
    B_OCV,
    B_SU10, /* 10 m wind with the storms (field_storm.c) */
    B_SV10,
    B_SSEA,   /* wind sea of the storms, m; 0 away from them */
    B_SPANOM, /* pressure anomaly with the storms, Pa */
    B_COUNT
};

/* One quadrant of a storm's wind profile: n knots (radius nm, speed m/s) from
 * Rmax out, the power of each span, and the width of the fall beyond the last. */
struct vortex_quad {
    int n;
    double r[4], v[4], x[3], width;
};

/* An active storm at one valid time (field_storm.c). */
struct vortex {
    double lat, lon, vmax_kt, vmax; /* vmax in m/s */
    double dp;                      /* central pressure deficit below 1010 hPa, hPa */
    double r[3][4];                 /* 34, 50, 64 kt radii by quadrant NE SE SW NW, nm */
    double rmax, r34max, reach, b;  /* nm, nm, nm, Holland B */
    double hemi;                    /* 1 north, -1 south */
    struct vortex_quad quad[4];
};

#define SIM_VORTEX_MAX 8

struct ctx {
    const struct sim_grid *g;
    size_t n;
    double hours;     /* valid time, hours since 2000-01-01 */
    double lead;      /* hours since the run */
    double run_phase; /* per-run perturbation phase */
    double utc;       /* hour of day of the valid time */
    double season;    /* cos of the year's phase: +1 in mid July, -1 in mid January */
    double doy;       /* day of the year, 0..365 */
    float *base[B_COUNT];
    double *col, *col2; /* nx scratch */
    double *row, *row2; /* ny scratch */
    int failed;
    int nvortex; /* the active storms at the valid time */
    struct vortex vortex[SIM_VORTEX_MAX];
};

/* Base field b of c, computed (with the base fields it needs) on first use and
 * kept in c->base[b]; NULL with c->failed set when out of memory. Each
 * computation writes the scratch rows and columns before it reads them, so a
 * base field is the same whatever was computed before it (field_base.c). */
const float *sim_field_base_get(struct ctx *c, enum base b);

/* The fields of field.h from the base fields of c (field_derived.c): 0, or -1
 * when out of memory. */
int sim_field_derived_eval(struct ctx *c, enum sim_field f, float *out);
int sim_field_derived_vector(struct ctx *c, enum sim_vector vec, float *u, float *v);

/* The analytic switch (field_analytic.c): SEAWX_SIM_ANALYTIC's constant 10 m
 * wind and surface current (m/s, toward east and north) in place of the
 * model's, and no storm's vortex; on 0 when unset. tag: the GRIB files'
 * cache names' prefix ("" when off). */
struct sim_analytic {
    int on, wind, current;
    double wu, wv, cu, cv;
    char tag[24];
};
const struct sim_analytic *sim_field_analytic(void);

/* The active storms at valid (seconds since the epoch) that reach c's grid,
 * into c->vortex (field_storm.c). */
void sim_field_storm_init(struct ctx *c, int64_t valid);
/* Adds the storms' winds to (u, v) in place; sea (zeros): their wind sea. */
void sim_field_storm_wind(const struct ctx *c, float *u, float *v, float *sea);
/* Lowers the pressure anomaly pa (Pa) to the storms' pressure. */
void sim_field_storm_pressure(const struct ctx *c, float *pa);

/* ---- small pieces the parts share -------------------------------------------- */

static inline uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Uniform in [0, 1) from (seed, blob, parameter). */
static inline double u01(uint64_t seed, unsigned k, unsigned p)
{
    return (double)(mix64(seed * 1000003u + k * 131u + p) >> 11) / 9007199254740992.0;
}

/* A band around |lat| = centre: 1 there, exp(-1) at width degrees from it. */
static inline double band(double lat, double centre, double width)
{
    double q = (fabs(lat) - centre) / width;
    return exp(-q * q);
}

static inline float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

#endif

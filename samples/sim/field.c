/* field.c: the simulated weather (see field.h).
 *
 * Everything is built from three separable pieces, evaluated per row and per
 * column and combined per point:
 *   - zonal bands: functions of latitude (temperature falling towards the poles,
 *     trade winds, westerlies, the ITCZ);
 *   - travelling waves: A(lat) * cos(k * lon - omega * t), moving east with the
 *     valid time;
 *   - blobs: Gaussian highs, lows, air masses and rain cells whose centres drift
 *     with the valid time; their derivatives give the winds (a stream function).
 * Blob parameters come from a fixed hash, so the weather is the same on every run
 * of the program. The run shifts the blobs by an amount that grows with lead
 * time, so runs differ slightly, as forecasts do. Land enters through the mask
 * (diurnal cycle, friction, continental seasons). */
#include "field.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    B_COUNT
};

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
};

/* ---- deterministic parameters ---------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Uniform in [0, 1) from (seed, blob, parameter). */
static double u01(uint64_t seed, unsigned k, unsigned p)
{
    return (double)(mix64(seed * 1000003u + k * 131u + p) >> 11) / 9007199254740992.0;
}

/* ---- separable building blocks ---------------------------------------------- */

static float *field_new(struct ctx *c)
{
    float *f = calloc(c->n ? c->n : 1, sizeof(*f));

    if (f == NULL)
        c->failed = 1;
    return f;
}

/* out[j][i] += r[j] * k[i] for rows j0..j1-1 and columns i0..i1-1 (outside that
 * window the product is zero: adding it would change nothing). */
static void sep_add_window(const struct ctx *c, const double *r, const double *k, size_t j0,
                           size_t j1, size_t i0, size_t i1, float *out)
{
    size_t nx = c->g->nx;

    for (size_t j = j0; j < j1; j++) {
        float rj = (float)r[j];
        float *o = out + j * nx;
        if (rj == 0.0f)
            continue;
        for (size_t i = i0; i < i1; i++)
            o[i] += rj * (float)k[i];
    }
}

/* out[j][i] += r[j] * k[i] */
static void sep_add(const struct ctx *c, const double *r, const double *k, float *out)
{
    sep_add_window(c, r, k, 0, c->g->ny, 0, c->g->nx, out);
}

/* out[j][i] += r[j] */
static void row_add(const struct ctx *c, const double *r, float *out)
{
    size_t nx = c->g->nx;

    for (size_t j = 0; j < c->g->ny; j++) {
        float rj = (float)r[j];
        float *o = out + j * nx;
        for (size_t i = 0; i < nx; i++)
            o[i] += rj;
    }
}

typedef double (*lat_fn)(double lat);

static double w_midlat(double lat)
{
    double s = sin(2 * lat * DEG);
    return s * s;
}

static double w_coslat(double lat)
{
    return cos(lat * DEG);
}

/* Adds amp * w(lat) * cos(k * lon - phase), phase = omega_deg_h * k * hours + phase0:
 * a wave of zonal wavenumber k moving east at omega_deg_h degrees per hour. */
static void wave_add(struct ctx *c, int k, double amp, double omega_deg_h, double phase0, lat_fn w,
                     float *out)
{
    double phase =
        (omega_deg_h * c->hours + phase0) * DEG * k + 0.01 * c->lead * sin(c->run_phase + k);

    phase = fmod(phase, 2 * PI);
    for (size_t i = 0; i < c->g->nx; i++)
        c->col[i] = cos(k * c->g->lon[i] * DEG - phase);
    for (size_t j = 0; j < c->g->ny; j++)
        c->row[j] = amp * w(c->g->lat[j]);
    sep_add(c, c->row, c->col, out);
}

struct blobspec {
    uint64_t seed;
    unsigned n;
    double lat_lo, lat_hi; /* latitude band of the centres, both hemispheres */
    double spd_lo, spd_hi; /* eastward drift, degrees per hour (westward in the tropics) */
    double r_lo, r_hi;     /* radius, degrees of latitude */
    double a_lo, a_hi;     /* amplitude */
    int signed_amp;        /* amplitudes of both signs */
    double life;           /* hours of one growth and decay cycle */
};

enum blob_mode { BLOB_VALUE, BLOB_DLAT, BLOB_DLON };

/* Adds scale * sum of the blobs of s (or of their derivative per degree). */
static void blobs_add(struct ctx *c, const struct blobspec *s, enum blob_mode mode, double scale,
                      float *out)
{
    const struct sim_grid *g = c->g;

    for (unsigned k = 0; k < s->n; k++) {
        double lat0 = s->lat_lo + (s->lat_hi - s->lat_lo) * u01(s->seed, k, 1);
        double lon0 = -180 + 360 * u01(s->seed, k, 2);
        double spd = s->spd_lo + (s->spd_hi - s->spd_lo) * u01(s->seed, k, 3);
        double r = s->r_lo + (s->r_hi - s->r_lo) * u01(s->seed, k, 4);
        double amp = s->a_lo + (s->a_hi - s->a_lo) * u01(s->seed, k, 5);
        double ph1 = 2 * PI * u01(s->seed, k, 6), ph2 = 2 * PI * u01(s->seed, k, 7);
        double wob = 150 + 150 * u01(s->seed, k, 8);
        double latc, lonc, a, rlat, rlon;

        if (u01(s->seed, k, 9) < 0.5)
            lat0 = -lat0;
        if (s->signed_amp && u01(s->seed, k, 10) < 0.5)
            amp = -amp;
        if (fabs(lat0) < 20)
            spd = -0.6 * spd;
        latc = lat0 + 5 * sin(2 * PI * c->hours / wob + ph1);
        lonc = fmod(lon0 + spd * c->hours + 0.015 * c->lead * sin(c->run_phase + 1.7 * k), 360.0);
        a = scale * amp * (0.55 + 0.45 * sin(2 * PI * c->hours / s->life + ph2));
        rlat = r;
        rlon = r / fmax(0.35, cos(latc * DEG));

        /* A blob is cut off at 4 radii (exp(-16) ~ 1e-7): only the window of rows
         * and columns it covers is touched, which skips most blobs for a tile. */
        size_t i0 = g->nx, i1 = 0, j0 = g->ny, j1 = 0;
        for (size_t j = 0; j < g->ny; j++) {
            double dy = g->lat[j] - latc;
            double q = dy / rlat;
            if (q * q > 16) {
                c->row[j] = 0;
                continue;
            }
            c->row[j] = a * exp(-q * q);
            if (mode == BLOB_DLAT)
                c->row[j] *= -2 * dy / (rlat * rlat);
            if (j < j0)
                j0 = j;
            j1 = j + 1;
        }
        if (j0 >= j1)
            continue;
        for (size_t i = 0; i < g->nx; i++) {
            double d = g->lon[i] - lonc;
            double q;
            d -= 360.0 * floor((d + 180.0) / 360.0);
            q = d / rlon;
            if (q * q > 16) {
                c->col[i] = 0;
                continue;
            }
            c->col[i] = exp(-q * q);
            if (mode == BLOB_DLON)
                c->col[i] *= -2 * d / (rlon * rlon);
            if (i < i0)
                i0 = i;
            i1 = i + 1;
        }
        if (i0 < i1)
            sep_add_window(c, c->row, c->col, j0, j1, i0, i1, out);
    }
}

static double band(double lat, double centre, double width)
{
    double q = (fabs(lat) - centre) / width;
    return exp(-q * q);
}

static float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* ---- base fields --------------------------------------------------------------- */

static const struct blobspec airmass = {11, 12, 20, 70, 0.2, 0.45, 7, 14, 2.5, 6, 1, 96};
static const struct blobspec cyclones = {23, 18, 25, 70, 0.25, 0.6, 8, 16, 1200, 2800, 1, 120};
/* smaller systems between the big ones, so that every region has some weather */
static const struct blobspec troughs = {29, 30, 15, 65, 0.3, 0.7, 5, 9, 500, 1200, 1, 72};
static const struct blobspec rain_cells = {37, 44, 0, 62, 0.2, 0.7, 2.5, 7, 0.3, 0.9, 0, 30};
static const struct blobspec cloud_sheets = {41, 40, 0, 72, 0.2, 0.5, 4, 13, 0.3, 0.75, 0, 60};
static const struct blobspec swell_storms = {53, 8, 35, 60, 0.15, 0.35, 8, 14, 0.6, 1.6, 0, 200};
static const struct blobspec eddies = {67, 60, 5, 60, 0.002, 0.01, 2, 4, 0.6, 1.5, 1, 2000};
static const struct blobspec convection = {71, 24, 0, 45, 0.2, 0.5, 3, 7, 0.3, 0.8, 0, 24};

static const float *get(struct ctx *c, enum base b);

static void compute_tfree(struct ctx *c, float *out)
{
    for (size_t j = 0; j < c->g->ny; j++) {
        double s = sin(c->g->lat[j] * DEG);
        c->row[j] = 300.5 - 48 * s * s + 9 * s * c->season;
    }
    row_add(c, c->row, out);
    wave_add(c, 3, 5.0, 0.35, 10, w_midlat, out);
    wave_add(c, 5, 3.5, 0.30, 40, w_midlat, out);
    wave_add(c, 7, 2.0, 0.25, 70, w_midlat, out);
    wave_add(c, 2, 1.5, 0.10, 5, w_coslat, out);
    blobs_add(c, &airmass, BLOB_VALUE, 1.0, out);
}

static void compute_t2m(struct ctx *c, float *out)
{
    const float *tf = get(c, B_TFREE);
    const struct sim_grid *g = c->g;

    if (tf == NULL)
        return;
    /* Diurnal cycle peaking at 15 h local solar time. */
    for (size_t i = 0; i < g->nx; i++)
        c->col[i] = cos(g->lon[i] * DEG + 2 * PI * (c->utc - 15) / 24);
    for (size_t j = 0; j < g->ny; j++) {
        double lat = g->lat[j], cl = cos(lat * DEG), s = sin(lat * DEG);
        double ice = fabs(lat) > 60 ? (fabs(lat) - 60) * 0.5 : 0;
        double cont = 6 * s * c->season - 1 - ice;
        for (size_t i = 0; i < g->nx; i++) {
            size_t p = j * g->nx + i;
            double d = c->col[i] * cl;
            out[p] = tf[p] + (float)(g->land[p] ? cont + 5.5 * d : 0.7 * d);
        }
    }
}

static void compute_panom(struct ctx *c, float *out)
{
    for (size_t j = 0; j < c->g->ny; j++) {
        double lat = c->g->lat[j];
        c->row[j] = 800 * band(lat, 32, 10) - 300 * band(lat, 0, 10) -
                    (lat < 0 ? 1400 : 800) * band(lat, 62, 8);
    }
    row_add(c, c->row, out);
    blobs_add(c, &cyclones, BLOB_VALUE, 1.0, out);
    blobs_add(c, &troughs, BLOB_VALUE, 1.0, out);
}

/* Geostrophic-like 10 m wind: zonal bands plus the flow around the pressure blobs,
 * slowed by friction over land. */
static void compute_wind(struct ctx *c, float *u, float *v)
{
    const struct sim_grid *g = c->g;

    for (size_t j = 0; j < g->ny; j++) {
        double lat = g->lat[j];
        c->row2[j] = -6.5 * band(lat, 14, 9) + 9 * band(lat, 48, 10) - 3 * band(lat, 72, 6);
    }
    row_add(c, c->row2, u);
    /* u = -C s(lat) dp/dlat, v = C s(lat) dp/dlon; s flips the sense of rotation across
     * the equator and fades it out there (no geostrophy at the equator). */
    blobs_add(c, &cyclones, BLOB_DLAT, -1.0, u);
    blobs_add(c, &troughs, BLOB_DLAT, -1.0, u);
    blobs_add(c, &cyclones, BLOB_DLON, 1.0, v);
    blobs_add(c, &troughs, BLOB_DLON, 1.0, v);
    for (size_t j = 0; j < g->ny; j++) {
        double lat = g->lat[j];
        float s = (float)(0.11 * lat / sqrt(lat * lat + 100));
        float z = (float)c->row2[j];
        for (size_t i = 0; i < g->nx; i++) {
            size_t p = j * g->nx + i;
            float f = g->land[p] ? 0.7f : 1.0f;
            u[p] = f * (z + s * (u[p] - z));
            v[p] = f * s * v[p];
        }
    }
}

static void compute_precip(struct ctx *c, float *out)
{
    const float *pa = get(c, B_PANOM);
    const struct sim_grid *g = c->g;
    double itcz_lat = 5 + 5 * c->season;

    if (pa == NULL)
        return;
    blobs_add(c, &rain_cells, BLOB_VALUE, 1.0, out);
    /* ITCZ: a band broken into clusters by two waves drifting west */
    for (size_t j = 0; j < g->ny; j++) {
        double q = (g->lat[j] - itcz_lat) / 6;
        c->row[j] = 0.45 * exp(-q * q);
    }
    for (size_t i = 0; i < g->nx; i++) {
        double x = g->lon[i] * DEG;
        c->col[i] = 0.5 + 0.3 * cos(5 * x + fmod(0.15 * c->hours, 360) * DEG) +
                    0.3 * cos(9 * x + 1 + fmod(0.25 * c->hours, 360) * DEG);
    }
    sep_add(c, c->row, c->col, out);
    /* fronts: rain where the pressure is low */
    for (size_t p = 0; p < c->n; p++) {
        float s = out[p] + 0.9f * fmaxf(0.0f, -pa[p] / 1800.0f);
        out[p] = 0.02f * fmaxf(0.0f, s - 0.35f);
    }
}

static void compute_conv(struct ctx *c, float *out)
{
    const float *t = get(c, B_T2M);

    if (t == NULL)
        return;
    blobs_add(c, &convection, BLOB_VALUE, 1.0, out);
    for (size_t p = 0; p < c->n; p++) {
        float warm = clampf((t[p] - 288.0f) / 14.0f, 0, 1);
        out[p] = clampf(warm * (0.35f + out[p]) * (c->g->land[p] ? 1.15f : 0.8f), 0, 1);
    }
}

static void compute_cloud(struct ctx *c, float *out)
{
    const float *pa = get(c, B_PANOM);
    const struct sim_grid *g = c->g;
    double itcz_lat = 5 + 5 * c->season;

    if (pa == NULL)
        return;
    blobs_add(c, &cloud_sheets, BLOB_VALUE, 1.0, out);
    /* frontal bands travelling with the mid-latitude waves, a broken ITCZ */
    wave_add(c, 5, 0.18, 0.35, 40, w_midlat, out);
    wave_add(c, 7, 0.12, 0.3, 10, w_midlat, out);
    for (size_t j = 0; j < g->ny; j++) {
        double q = (g->lat[j] - itcz_lat) / 7;
        c->row[j] = 0.3 * exp(-q * q) - 0.12 * band(g->lat[j], 25, 8) - 0.05;
    }
    row_add(c, c->row, out);
    for (size_t p = 0; p < c->n; p++)
        out[p] = 100.0f * clampf(out[p] + 0.8f * fmaxf(0.0f, -pa[p] / 2200.0f), 0, 1);
}

static void compute_rh(struct ctx *c, float *out)
{
    const float *cl = get(c, B_CLOUD);
    const struct sim_grid *g = c->g;

    if (cl == NULL)
        return;
    wave_add(c, 4, 8, 0.3, 20, w_coslat, out);
    for (size_t j = 0; j < g->ny; j++) {
        float dry = (float)(18 * band(g->lat[j], 25, 8));
        for (size_t i = 0; i < g->nx; i++) {
            size_t p = j * g->nx + i;
            out[p] = clampf(45 + 0.5f * cl[p] + out[p] - (g->land[p] ? dry : 0), 4, 100);
        }
    }
}

static void compute_swell(struct ctx *c, float *out)
{
    const struct sim_grid *g = c->g;

    for (size_t j = 0; j < g->ny; j++) {
        double lat = g->lat[j];
        double q = (lat + 50) / 11, qn = (lat - 50) / 9;
        c->row[j] = 0.5 + 2.1 * exp(-q * q) + 1.0 * (1 - 0.5 * c->season) * exp(-qn * qn);
    }
    row_add(c, c->row, out);
    wave_add(c, 2, 0.5, 0.15, 0, w_coslat, out);
    blobs_add(c, &swell_storms, BLOB_VALUE, 1.0, out);
    for (size_t p = 0; p < c->n; p++)
        out[p] = fmaxf(out[p], 0.1f);
}

/* Ocean currents from a gyre stream function G(lat) H(lon), plus the Antarctic
 * Circumpolar Current, the equatorial currents and mesoscale eddies. */
static void compute_currents(struct ctx *c, float *u, float *v)
{
    const struct sim_grid *g = c->g;
    double t = c->hours / 4000;

    for (size_t i = 0; i < g->nx; i++) {
        double x = g->lon[i] * DEG;
        c->col[i] = 1 + 0.35 * cos(2 * x + t); /* H */
        c->col2[i] = -0.7 * sin(2 * x + t);    /* dH/dlon, per radian */
    }
    for (size_t j = 0; j < g->ny; j++) {
        double lat = g->lat[j], y = lat * PI / 30;
        double fade = exp(-pow(lat / 65, 8));
        c->row[j] = -0.35 * cos(y) * fade; /* -dG/dlat for G = sin(pi lat / 30) / 3 */
        c->row2[j] = 0.12 * sin(y) * fade; /* G, per radian of longitude */
    }
    sep_add(c, c->row, c->col, u);
    sep_add(c, c->row2, c->col2, v);
    for (size_t j = 0; j < g->ny; j++) {
        double lat = g->lat[j];
        double q1 = (lat + 55) / 7, q2 = (lat - 2) / 4, q3 = (lat - 7) / 2;
        c->row[j] = 0.45 * exp(-q1 * q1) - 0.55 * exp(-q2 * q2) + 0.3 * exp(-q3 * q3);
    }
    row_add(c, c->row, u);
    blobs_add(c, &eddies, BLOB_DLAT, -1.0, u);
    blobs_add(c, &eddies, BLOB_DLON, 1.0, v);
    /* Western boundary currents as jets along a line: Gulf Stream, Kuroshio. */
    for (size_t j = 0; j < g->ny; j++) {
        double lat = g->lat[j];
        if (lat < 20 || lat > 50)
            continue;
        for (size_t i = 0; i < g->nx; i++) {
            static const struct {
                double lon0, lon1, lat0, slope, speed;
            } jets[2] = {{-80, -35, 33, 0.28, 1.4}, {128, 165, 31, 0.22, 1.2}};
            double lon = g->lon[i];
            for (int k = 0; k < 2; k++) {
                double d, taper, sp, norm;
                if (lon < jets[k].lon0 || lon > jets[k].lon1)
                    continue;
                d = (lat - (jets[k].lat0 + jets[k].slope * (lon - jets[k].lon0))) / 1.6;
                taper = 1 - (lon - jets[k].lon0) / (jets[k].lon1 - jets[k].lon0);
                sp = jets[k].speed * exp(-d * d) * (0.3 + 0.7 * taper);
                norm = sqrt(1 + jets[k].slope * jets[k].slope);
                u[j * g->nx + i] += (float)(sp / norm);
                v[j * g->nx + i] += (float)(sp * jets[k].slope / norm);
            }
        }
    }
}

static const float *get(struct ctx *c, enum base b)
{
    float *f;

    if (c->base[b] != NULL || c->failed)
        return c->base[b];
    if (b == B_V10 || b == B_OCV) {
        /* computed with their partner */
        get(c, b == B_V10 ? B_U10 : B_OCU);
        return c->base[b];
    }
    f = field_new(c);
    if (f == NULL)
        return NULL;
    c->base[b] = f;
    switch (b) {
    case B_TFREE:
        compute_tfree(c, f);
        break;
    case B_T2M:
        compute_t2m(c, f);
        break;
    case B_PANOM:
        compute_panom(c, f);
        break;
    case B_U10:
    case B_OCU:
        c->base[b + 1] = field_new(c);
        if (c->base[b + 1] == NULL)
            return NULL;
        if (b == B_U10)
            compute_wind(c, f, c->base[b + 1]);
        else
            compute_currents(c, f, c->base[b + 1]);
        break;
    case B_PRECIP:
        compute_precip(c, f);
        break;
    case B_CONV:
        compute_conv(c, f);
        break;
    case B_CLOUD:
        compute_cloud(c, f);
        break;
    case B_RH:
        compute_rh(c, f);
        break;
    case B_SWELL:
        compute_swell(c, f);
        break;
    default:
        break;
    }
    return c->failed ? NULL : f;
}

/* ---- derived quantities ------------------------------------------------------- */

static float speed(float u, float v)
{
    return sqrtf(u * u + v * v);
}

/* Meteorological direction (where the flow comes from), degrees 0..360. */
static float from_dir(float u, float v)
{
    float d = (float)(atan2(-u, -v) / DEG);
    return d < 0 ? d + 360 : d;
}

static float wind_sea(float ws)
{
    return fminf(0.022f * ws * ws + 0.05f, 9.0f);
}

/* Swell comes from the south-west in the south, from the north-west in the north,
 * veering with longitude: base direction plus wobble(lon). */
static double swell_wobble(double lon, double hours)
{
    return 20 * sin(lon * DEG * 2 + hours / 70);
}

static float swell_from(double lat, double wobble)
{
    return (float)((lat < 0 ? 235 : 295) + wobble);
}

static int ctx_init(struct ctx *c, const struct sim_grid *g, const struct sim_when *w)
{
    double days = (double)(w->valid - EPOCH_2000) / 86400.0;

    memset(c, 0, sizeof(*c));
    c->g = g;
    c->n = g->nx * g->ny;
    c->hours = (double)(w->valid - EPOCH_2000) / 3600.0;
    c->lead = (double)(w->valid - w->run) / 3600.0;
    c->run_phase = 2 * PI * u01(99, (unsigned)((uint64_t)w->run / 21600u), 0);
    c->utc = (double)(((w->valid % 86400) + 86400) % 86400) / 3600.0;
    c->doy = fmod(days, 365.2425);
    if (c->doy < 0)
        c->doy += 365.2425;
    c->season = cos(2 * PI * (c->doy - 196) / 365.2425);
    c->col = malloc((g->nx + 1) * sizeof(double));
    c->col2 = malloc((g->nx + 1) * sizeof(double));
    c->row = malloc((g->ny + 1) * sizeof(double));
    c->row2 = malloc((g->ny + 1) * sizeof(double));
    return (c->col && c->col2 && c->row && c->row2) ? 0 : -1;
}

static void ctx_free(struct ctx *c)
{
    for (size_t b = 0; b < B_COUNT; b++)
        free(c->base[b]);
    free(c->col);
    free(c->col2);
    free(c->row);
    free(c->row2);
}

/* Fields computed point by point from base fields. */
static int eval_pointwise(struct ctx *c, enum sim_field f, float *out)
{
    const struct sim_grid *g = c->g;
    const float *t = NULL, *u = NULL, *v = NULL, *pr = NULL, *cl = NULL, *rh = NULL;
    const float *sw = NULL, *cv = NULL, *pa = NULL, *tf = NULL, *ou = NULL, *ov = NULL;
    double dec = 23.44 * DEG * sin(2 * PI * (c->doy - 81) / 365.2425);

    switch (f) {
    case SIM_F_T2M:
    case SIM_F_T2MMIN:
    case SIM_F_T2MMAX:
    case SIM_F_STL1:
        t = get(c, B_T2M);
        break;
    case SIM_F_D2M:
        t = get(c, B_T2M);
        rh = get(c, B_RH);
        break;
    case SIM_F_PMSL:
        pa = get(c, B_PANOM);
        break;
    case SIM_F_GH500:
        pa = get(c, B_PANOM);
        tf = get(c, B_TFREE);
        break;
    case SIM_F_T850:
        tf = get(c, B_TFREE);
        break;
    case SIM_F_RH:
    case SIM_F_R700:
        rh = get(c, B_RH);
        cl = get(c, B_CLOUD);
        break;
    case SIM_F_TP:
    case SIM_F_VIS:
        pr = get(c, B_PRECIP);
        rh = get(c, B_RH);
        break;
    case SIM_F_CP:
    case SIM_F_CRR:
        pr = get(c, B_PRECIP);
        cv = get(c, B_CONV);
        break;
    case SIM_F_PTYPE:
        pr = get(c, B_PRECIP);
        t = get(c, B_T2M);
        break;
    case SIM_F_TCC:
    case SIM_F_LCC:
    case SIM_F_MCC:
    case SIM_F_HCC:
        cl = get(c, B_CLOUD);
        u = get(c, B_U10);
        break;
    case SIM_F_SST:
        tf = get(c, B_TFREE);
        break;
    case SIM_F_CAPE:
    case SIM_F_CIN:
    case SIM_F_LFTX:
    case SIM_F_TSTM:
        cv = get(c, B_CONV);
        break;
    case SIM_F_EVAP:
    case SIM_F_PEV:
    case SIM_F_SOILW:
        t = get(c, B_T2M);
        rh = get(c, B_RH);
        pr = get(c, B_PRECIP);
        break;
    case SIM_F_SSRD:
    case SIM_F_FDIR:
    case SIM_F_DIF:
        cl = get(c, B_CLOUD);
        break;
    case SIM_F_OCU:
    case SIM_F_OCV:
    case SIM_F_OCS:
        ou = get(c, B_OCU);
        ov = get(c, B_OCV);
        break;
    case SIM_F_LSM:
        break;
    default:
        u = get(c, B_U10);
        v = get(c, B_V10);
        sw = get(c, B_SWELL);
        break;
    }
    if (c->failed)
        return -1;
    /* c->col is free scratch once the base fields exist */
    for (size_t i = 0; i < g->nx; i++)
        c->col[i] = swell_wobble(g->lon[i], c->hours);

    for (size_t j = 0; j < g->ny; j++) {
        double lat = g->lat[j], cl_lat = cos(lat * DEG), s_lat = sin(lat * DEG);
        for (size_t i = 0; i < g->nx; i++) {
            size_t p = j * g->nx + i;
            int land = g->land[p];
            float r = 0;
            switch (f) {
            case SIM_F_T2M:
                r = t[p];
                break;
            case SIM_F_T2MMIN:
                r = t[p] - 4 - 2 * land;
                break;
            case SIM_F_T2MMAX:
                r = t[p] + 4 + 2 * land;
                break;
            case SIM_F_STL1:
                r = t[p] + 1.5f;
                break;
            case SIM_F_D2M:
                r = t[p] - (100 - rh[p]) / 5;
                break;
            case SIM_F_PMSL:
                r = 101325 + pa[p];
                break;
            case SIM_F_GH500:
                r = 5020 + 760 * (float)(cl_lat * cl_lat) + 0.05f * pa[p] + 3 * (tf[p] - 280);
                break;
            case SIM_F_T850:
                r = tf[p] - 13;
                break;
            case SIM_F_RH:
                r = rh[p];
                break;
            case SIM_F_R700:
                r = clampf(15 + 0.9f * cl[p], 2, 100);
                break;
            case SIM_F_TP:
                r = pr[p];
                break;
            case SIM_F_VIS:
                r = 30000 * (1 - 0.9f * clampf(pr[p] / 0.006f, 0, 1)) *
                    (1 - 0.7f * clampf((rh[p] - 92) / 8, 0, 1));
                r = fmaxf(r, 100);
                break;
            case SIM_F_CP:
                r = pr[p] * (0.2f + 0.7f * cv[p]);
                break;
            case SIM_F_CRR:
                r = pr[p] * (0.2f + 0.7f * cv[p]) * 1000 / 10800 * 2;
                break;
            case SIM_F_PTYPE:
                if (pr[p] < 0.0005f)
                    r = 0;
                else if (t[p] > 275.5f)
                    r = 1;
                else if (t[p] < 271.5f)
                    r = 2;
                else
                    r = t[p] < 273.5f ? 3 : 4;
                break;
            case SIM_F_TCC:
                r = cl[p];
                break;
            case SIM_F_LCC:
                r = clampf(cl[p] * 0.85f - 10 + 2 * fabsf(u[p]), 0, 100);
                break;
            case SIM_F_MCC:
                r = clampf(cl[p] * 0.7f - 5, 0, 100);
                break;
            case SIM_F_HCC:
                r = clampf(cl[p] * 0.5f + 40 * (float)band(lat, 40, 12) - 15, 0, 100);
                break;
            case SIM_F_SST:
                r = (float)(271.35 + 30.5 * pow(cl_lat, 2.2) + 2 * s_lat * c->season) +
                    0.15f * (tf[p] - (float)(300.5 - 48 * s_lat * s_lat));
                r = fmaxf(r, 271.35f);
                break;
            case SIM_F_LSM:
                r = (float)land;
                break;
            case SIM_F_CAPE:
                r = 4000 * cv[p] * cv[p];
                break;
            case SIM_F_CIN:
                r = -(30 + 320 * (1 - cv[p]) * (1 - cv[p]));
                break;
            case SIM_F_LFTX:
                r = 7 - 16 * cv[p];
                break;
            case SIM_F_TSTM:
                r = 100 * clampf(cv[p] * 1.4f - 0.25f, 0, 1);
                break;
            case SIM_F_EVAP:
                r = land ? clampf((t[p] - 275) / 5, 0, 6) * (0.3f + 0.7f * rh[p] / 100)
                         : 1.5f + 3 * (float)(cl_lat * cl_lat) * (1 - rh[p] / 150);
                break;
            case SIM_F_PEV:
                r = 0.5f + (land ? 1.6f : 1.2f) * clampf((t[p] - 270) / 4.5f, 0, 7);
                break;
            case SIM_F_SOILW:
                r = clampf(0.06f + 0.32f * powf(rh[p] / 100, 1.5f) + 6 * pr[p], 0.02f, 0.48f);
                break;
            case SIM_F_SSRD:
            case SIM_F_FDIR:
            case SIM_F_DIF: {
                double h = (c->utc - 12) * 15 * DEG + g->lon[i] * DEG;
                float cz = (float)(s_lat * sin(dec) + cl_lat * cos(dec) * cos(h));
                float clr = 1 - cl[p] / 100;
                float ss = 1361 * 0.75f * fmaxf(cz, 0) * (1 - 0.7f * (1 - clr));
                float fd = 1361 * 0.7f * fmaxf(cz, 0) * powf(clr, 1.6f);
                r = f == SIM_F_SSRD ? ss : f == SIM_F_FDIR ? fd : fmaxf(0, ss - 0.9f * fd);
                break;
            }
            case SIM_F_OCU:
                r = ou[p];
                break;
            case SIM_F_OCV:
                r = ov[p];
                break;
            case SIM_F_OCS:
                r = speed(ou[p], ov[p]);
                break;
            case SIM_F_U10:
                r = u[p];
                break;
            case SIM_F_V10:
                r = v[p];
                break;
            case SIM_F_WS10:
                r = speed(u[p], v[p]);
                break;
            case SIM_F_GUST:
                r = 1.35f * speed(u[p], v[p]) + 2 + 2 * land;
                break;
            case SIM_F_WS100:
                r = speed(u[p], v[p]) * (land ? 1.5f : 1.3f);
                break;
            case SIM_F_WD100:
                r = from_dir(u[p], v[p]);
                break;
            case SIM_F_WPD100: {
                float w = speed(u[p], v[p]) * (land ? 1.5f : 1.3f);
                r = 0.6125f * w * w * w;
                break;
            }
            case SIM_F_WS250: {
                float jet = (float)(45 * band(lat, 35, 7));
                r = speed(jet * 0.8f + 2.5f * u[p], 2.5f * v[p]);
                break;
            }
            case SIM_F_SWH:
            case SIM_F_SHWW:
            case SIM_F_MWP:
            case SIM_F_MPWW:
            case SIM_F_SHTS:
            case SIM_F_MPTS:
            case SIM_F_PP1D:
            case SIM_F_MWD:
            case SIM_F_MDTS: {
                float ws = wind_sea(speed(u[p], v[p])), s = sw[p];
                float tws = 2.2f + 2.0f * sqrtf(ws), tsw = 9.5f + 1.8f * s;
                float sdir = swell_from(lat, c->col[i]);
                if (f == SIM_F_SWH)
                    r = sqrtf(ws * ws + s * s);
                else if (f == SIM_F_SHWW)
                    r = ws;
                else if (f == SIM_F_SHTS)
                    r = s;
                else if (f == SIM_F_MPWW)
                    r = tws;
                else if (f == SIM_F_MPTS)
                    r = tsw;
                else if (f == SIM_F_PP1D)
                    r = fmaxf(tsw * 1.12f, tws * 1.2f);
                else if (f == SIM_F_MWP)
                    r = (ws * tws + s * tsw) / (ws + s);
                else if (f == SIM_F_MDTS)
                    r = fmodf(sdir + 360, 360);
                else {
                    float wd = from_dir(u[p], v[p]) * (float)DEG, sd = sdir * (float)DEG;
                    float x = ws * sinf(wd) + s * sinf(sd), y = ws * cosf(wd) + s * cosf(sd);
                    r = (float)(atan2(x, y) / DEG);
                    if (r < 0)
                        r += 360;
                }
                break;
            }
            default:
                r = 0;
                break;
            }
            out[p] = r;
        }
    }
    return 0;
}

int sim_field_eval(enum sim_field f, const struct sim_grid *g, const struct sim_when *w, float *out)
{
    struct ctx c;
    int rc = -1;

    if (ctx_init(&c, g, w) != 0)
        goto done;
    rc = eval_pointwise(&c, f, out);
done:
    ctx_free(&c);
    return rc;
}

int sim_field_vector(enum sim_vector vec, const struct sim_grid *g, const struct sim_when *w,
                     float *u, float *v)
{
    struct ctx c;
    const float *a = NULL, *b = NULL, *sw = NULL;
    int rc = -1;

    if (ctx_init(&c, g, w) != 0)
        goto done;
    if (vec == SIM_VEC_CURRENT) {
        a = get(&c, B_OCU);
        b = get(&c, B_OCV);
    } else {
        a = get(&c, B_U10);
        b = get(&c, B_V10);
        if (vec == SIM_VEC_WAVE || vec == SIM_VEC_SWELL)
            sw = get(&c, B_SWELL);
    }
    if (c.failed)
        goto done;
    for (size_t j = 0; j < g->ny; j++) {
        double lat = g->lat[j];
        for (size_t i = 0; i < g->nx; i++) {
            size_t p = j * g->nx + i;
            float x = a[p], y = b[p];
            switch (vec) {
            case SIM_VEC_WIND100:
                x *= g->land[p] ? 1.5f : 1.3f;
                y *= g->land[p] ? 1.5f : 1.3f;
                break;
            case SIM_VEC_WIND250:
                x = (float)(45 * band(lat, 35, 7)) * 0.8f + 2.5f * x;
                y = 2.5f * y;
                break;
            case SIM_VEC_WAVE:
            case SIM_VEC_SWELL: {
                /* Arrows point where the waves travel: opposite of "from". */
                float ws = vec == SIM_VEC_WAVE ? wind_sea(speed(x, y)) : 0;
                float sd = swell_from(lat, swell_wobble(g->lon[i], c.hours)) * (float)DEG;
                float len = ws + sw[p];
                float wx = ws * (x / fmaxf(speed(x, y), 0.01f));
                float wy = ws * (y / fmaxf(speed(x, y), 0.01f));
                float ex = wx - sw[p] * sinf(sd), ey = wy - sw[p] * cosf(sd);
                float n = fmaxf(speed(ex, ey), 1e-3f);
                x = ex / n * len;
                y = ey / n * len;
                break;
            }
            default:
                break;
            }
            u[p] = x;
            v[p] = y;
        }
    }
    rc = 0;
done:
    ctx_free(&c);
    return rc;
}

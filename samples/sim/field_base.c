/* field_base.c: the base fields of the simulated weather and the separable
 * pieces they are made of (see field_int.h).
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
#include "field_int.h"

#include <stdlib.h>

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
    const float *tf = sim_field_base_get(c, B_TFREE);
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
    const struct sim_analytic *an = sim_field_analytic();

    if (an->wind) {
        for (size_t p = 0; p < c->n; p++) {
            u[p] = (float)an->wu;
            v[p] = (float)an->wv;
        }
        return;
    }

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
    const float *pa = sim_field_base_get(c, B_PANOM);
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
    const float *t = sim_field_base_get(c, B_T2M);

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
    const float *pa = sim_field_base_get(c, B_PANOM);
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
    const float *cl = sim_field_base_get(c, B_CLOUD);
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
    const struct sim_analytic *an = sim_field_analytic();

    if (an->on) {
        for (size_t p = 0; p < c->n; p++) {
            u[p] = (float)(an->current ? an->cu : 0);
            v[p] = (float)(an->current ? an->cv : 0);
        }
        return;
    }

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

/* A base field with the storms (B_SU10, B_SV10, B_SSEA, B_SPANOM): the
 * background's array taken over and changed in place (asked again, the
 * background is computed afresh, to the same bits), with a wind sea beside the
 * wind. */
static const float *storm_base(struct ctx *c, enum base b)
{
    if (b == B_SPANOM) {
        if (sim_field_base_get(c, B_PANOM) == NULL)
            return NULL;
        c->base[B_SPANOM] = c->base[B_PANOM];
        c->base[B_PANOM] = NULL;
        sim_field_storm_pressure(c, c->base[B_SPANOM]);
        return c->base[B_SPANOM];
    }
    if (c->base[B_SU10] == NULL) {
        if (sim_field_base_get(c, B_U10) == NULL || (c->base[B_SSEA] = field_new(c)) == NULL)
            return NULL;
        c->base[B_SU10] = c->base[B_U10];
        c->base[B_SV10] = c->base[B_V10];
        c->base[B_U10] = c->base[B_V10] = NULL;
        sim_field_storm_wind(c, c->base[B_SU10], c->base[B_SV10], c->base[B_SSEA]);
    }
    return c->base[b];
}

const float *sim_field_base_get(struct ctx *c, enum base b)
{
    float *f;

    if (c->base[b] != NULL || c->failed)
        return c->base[b];
    if (b >= B_SU10 && b <= B_SPANOM) {
        if (c->nvortex > 0 && !sim_field_analytic()->on)
            return storm_base(c, b);
        /* no storm on this grid: the background itself */
        if (b == B_SSEA)
            return NULL;
        return sim_field_base_get(c, b == B_SU10 ? B_U10 : b == B_SV10 ? B_V10 : B_PANOM);
    }
    if (b == B_V10 || b == B_OCV) {
        /* computed with their partner */
        sim_field_base_get(c, b == B_V10 ? B_U10 : B_OCU);
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

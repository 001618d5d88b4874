/* field_derived.c: the fields and flows of field.h, computed point by point
 * from the base fields (see field_int.h).
 *
 * A field is a row of one table, indexed by enum sim_field: the base fields it
 * needs, in the order they are computed, and the function that gives its value
 * at one point from them. */
#include "field_int.h"

#include <string.h>

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

/* ---- the fields, a function each ---------------------------------------------- */

/* One point of a derived field: index p of the grid, in column i of a row at
 * latitude lat (its cosine cl_lat, its sine s_lat), over land or sea, and the
 * base fields of the context (NULL where not computed: a field reads those its
 * row names). */
struct pt {
    const struct ctx *c;
    size_t p, i;
    int land;
    double lat, cl_lat, s_lat;
    double dec; /* solar declination, radians */
    const float *t, *u, *v, *pr, *cl, *rh, *sw, *cv, *pa, *tf, *ou, *ov;
    const float *ss; /* the storms' wind sea, NULL when not computed */
};

static float derive_t2m(const struct pt *q)
{
    return q->t[q->p];
}

static float derive_t2mmin(const struct pt *q)
{
    return q->t[q->p] - 4 - 2 * q->land;
}

static float derive_t2mmax(const struct pt *q)
{
    return q->t[q->p] + 4 + 2 * q->land;
}

static float derive_stl1(const struct pt *q)
{
    return q->t[q->p] + 1.5f;
}

static float derive_d2m(const struct pt *q)
{
    return q->t[q->p] - (100 - q->rh[q->p]) / 5;
}

static float derive_pmsl(const struct pt *q)
{
    return 101325 + q->pa[q->p];
}

static float derive_gh500(const struct pt *q)
{
    return 5020 + 760 * (float)(q->cl_lat * q->cl_lat) + 0.05f * q->pa[q->p] +
           3 * (q->tf[q->p] - 280);
}

static float derive_t850(const struct pt *q)
{
    return q->tf[q->p] - 13;
}

static float derive_rh(const struct pt *q)
{
    return q->rh[q->p];
}

static float derive_r700(const struct pt *q)
{
    return clampf(15 + 0.9f * q->cl[q->p], 2, 100);
}

static float derive_tp(const struct pt *q)
{
    return q->pr[q->p];
}

static float derive_vis(const struct pt *q)
{
    float r = 30000 * (1 - 0.9f * clampf(q->pr[q->p] / 0.006f, 0, 1)) *
              (1 - 0.7f * clampf((q->rh[q->p] - 92) / 8, 0, 1));
    return fmaxf(r, 100);
}

static float derive_cp(const struct pt *q)
{
    return q->pr[q->p] * (0.2f + 0.7f * q->cv[q->p]);
}

static float derive_crr(const struct pt *q)
{
    return q->pr[q->p] * (0.2f + 0.7f * q->cv[q->p]) * 1000 / 10800 * 2;
}

/* 0 none, 1 rain, 2 snow, 3 freezing rain, 4 ice pellets (the classes of ramp.c) */
static float derive_ptype(const struct pt *q)
{
    const float *pr = q->pr, *t = q->t;
    size_t p = q->p;
    float r;

    if (pr[p] < 0.0005f)
        r = 0;
    else if (t[p] > 275.5f)
        r = 1;
    else if (t[p] < 271.5f)
        r = 2;
    else
        r = t[p] < 273.5f ? 3 : 4;
    return r;
}

static float derive_tcc(const struct pt *q)
{
    return q->cl[q->p];
}

static float derive_lcc(const struct pt *q)
{
    return clampf(q->cl[q->p] * 0.85f - 10 + 2 * fabsf(q->u[q->p]), 0, 100);
}

static float derive_mcc(const struct pt *q)
{
    return clampf(q->cl[q->p] * 0.7f - 5, 0, 100);
}

static float derive_hcc(const struct pt *q)
{
    return clampf(q->cl[q->p] * 0.5f + 40 * (float)band(q->lat, 40, 12) - 15, 0, 100);
}

static float derive_sst(const struct pt *q)
{
    double cl_lat = q->cl_lat, s_lat = q->s_lat;
    float r = (float)(271.35 + 30.5 * pow(cl_lat, 2.2) + 2 * s_lat * q->c->season) +
              0.15f * (q->tf[q->p] - (float)(300.5 - 48 * s_lat * s_lat));

    return fmaxf(r, 271.35f);
}

static float derive_lsm(const struct pt *q)
{
    return (float)q->land;
}

static float derive_cape(const struct pt *q)
{
    return 4000 * q->cv[q->p] * q->cv[q->p];
}

static float derive_cin(const struct pt *q)
{
    return -(30 + 320 * (1 - q->cv[q->p]) * (1 - q->cv[q->p]));
}

static float derive_lftx(const struct pt *q)
{
    return 7 - 16 * q->cv[q->p];
}

static float derive_tstm(const struct pt *q)
{
    return 100 * clampf(q->cv[q->p] * 1.4f - 0.25f, 0, 1);
}

static float derive_evap(const struct pt *q)
{
    const float *t = q->t, *rh = q->rh;
    size_t p = q->p;

    return q->land ? clampf((t[p] - 275) / 5, 0, 6) * (0.3f + 0.7f * rh[p] / 100)
                   : 1.5f + 3 * (float)(q->cl_lat * q->cl_lat) * (1 - rh[p] / 150);
}

static float derive_pev(const struct pt *q)
{
    return 0.5f + (q->land ? 1.6f : 1.2f) * clampf((q->t[q->p] - 270) / 4.5f, 0, 7);
}

static float derive_soilw(const struct pt *q)
{
    return clampf(0.06f + 0.32f * powf(q->rh[q->p] / 100, 1.5f) + 6 * q->pr[q->p], 0.02f, 0.48f);
}

/* Sunshine at the ground, W m-2: all of it (ss) and the direct beam (fd). */
struct sun {
    float ss, fd;
};

static struct sun sun_at(const struct pt *q)
{
    double cl_lat = q->cl_lat, s_lat = q->s_lat, dec = q->dec;
    double h = (q->c->utc - 12) * 15 * DEG + q->c->g->lon[q->i] * DEG;
    float cz = (float)(s_lat * sin(dec) + cl_lat * cos(dec) * cos(h));
    float clr = 1 - q->cl[q->p] / 100;
    float ss = 1361 * 0.75f * fmaxf(cz, 0) * (1 - 0.7f * (1 - clr));
    float fd = 1361 * 0.7f * fmaxf(cz, 0) * powf(clr, 1.6f);

    return (struct sun){ss, fd};
}

static float derive_ssrd(const struct pt *q)
{
    return sun_at(q).ss;
}

static float derive_fdir(const struct pt *q)
{
    return sun_at(q).fd;
}

static float derive_dif(const struct pt *q)
{
    struct sun s = sun_at(q);

    return fmaxf(0, s.ss - 0.9f * s.fd);
}

static float derive_ocu(const struct pt *q)
{
    return q->ou[q->p];
}

static float derive_ocv(const struct pt *q)
{
    return q->ov[q->p];
}

static float derive_ocs(const struct pt *q)
{
    return speed(q->ou[q->p], q->ov[q->p]);
}

static float derive_u10(const struct pt *q)
{
    return q->u[q->p];
}

static float derive_v10(const struct pt *q)
{
    return q->v[q->p];
}

static float derive_ws10(const struct pt *q)
{
    return speed(q->u[q->p], q->v[q->p]);
}

static float derive_gust(const struct pt *q)
{
    return 1.35f * speed(q->u[q->p], q->v[q->p]) + 2 + 2 * q->land;
}

static float derive_ws100(const struct pt *q)
{
    return speed(q->u[q->p], q->v[q->p]) * (q->land ? 1.5f : 1.3f);
}

static float derive_wd100(const struct pt *q)
{
    return from_dir(q->u[q->p], q->v[q->p]);
}

static float derive_wpd100(const struct pt *q)
{
    float w = derive_ws100(q);

    return 0.6125f * w * w * w;
}

static float derive_ws250(const struct pt *q)
{
    float jet = (float)(45 * band(q->lat, 35, 7));

    return speed(jet * 0.8f + 2.5f * q->u[q->p], 2.5f * q->v[q->p]);
}

/* The sea at a point: wind sea and swell heights (m), their periods (s), and
 * where the swell comes from (degrees). */
struct sea {
    float ws, s, tws, tsw, sdir;
};

static struct sea sea_at(const struct pt *q)
{
    float ws = wind_sea(speed(q->u[q->p], q->v[q->p])), s = q->sw[q->p];
    float tws, tsw, sdir;

    if (q->ss != NULL) /* the storms raise a higher sea */
        ws = fmaxf(ws, q->ss[q->p]);
    tws = 2.2f + 2.0f * sqrtf(ws);
    tsw = 9.5f + 1.8f * s;
    sdir = swell_from(q->lat, q->c->col[q->i]);
    return (struct sea){ws, s, tws, tsw, sdir};
}

static float derive_swh(const struct pt *q)
{
    struct sea e = sea_at(q);

    return sqrtf(e.ws * e.ws + e.s * e.s);
}

static float derive_shww(const struct pt *q)
{
    return sea_at(q).ws;
}

static float derive_shts(const struct pt *q)
{
    return sea_at(q).s;
}

static float derive_mpww(const struct pt *q)
{
    return sea_at(q).tws;
}

static float derive_mpts(const struct pt *q)
{
    return sea_at(q).tsw;
}

static float derive_pp1d(const struct pt *q)
{
    struct sea e = sea_at(q);

    return fmaxf(e.tsw * 1.12f, e.tws * 1.2f);
}

static float derive_mwp(const struct pt *q)
{
    struct sea e = sea_at(q);

    return (e.ws * e.tws + e.s * e.tsw) / (e.ws + e.s);
}

static float derive_mdts(const struct pt *q)
{
    return fmodf(sea_at(q).sdir + 360, 360);
}

/* The direction the combined sea comes from: wind sea and swell added as
 * vectors of their heights. */
static float derive_mwd(const struct pt *q)
{
    struct sea e = sea_at(q);
    float wd = from_dir(q->u[q->p], q->v[q->p]) * (float)DEG, sd = e.sdir * (float)DEG;
    float x = e.ws * sinf(wd) + e.s * sinf(sd), y = e.ws * cosf(wd) + e.s * cosf(sd);
    float r = (float)(atan2(x, y) / DEG);

    if (r < 0)
        r += 360;
    return r;
}

/* ---- the table ----------------------------------------------------------------- */

/* A derived field: its value at a point, and the n base fields it needs, in the
 * order they are computed (some rows name a base field their function does not
 * read, and computing it costs time, never a bit of the values). */
struct derived {
    float (*at)(const struct pt *q);
    unsigned n;
    enum base in[3];
};

/* A row per field, in the order of enum sim_field. */
/* clang-format off */
static const struct derived derived[] = {
    [SIM_F_T2M]    = {derive_t2m,     1, {B_T2M}},
    [SIM_F_T2MMIN] = {derive_t2mmin,  1, {B_T2M}},
    [SIM_F_T2MMAX] = {derive_t2mmax,  1, {B_T2M}},
    [SIM_F_D2M]    = {derive_d2m,     2, {B_T2M, B_RH}},
    [SIM_F_PMSL]   = {derive_pmsl,    1, {B_SPANOM}},
    [SIM_F_RH]     = {derive_rh,      2, {B_RH, B_CLOUD}},
    [SIM_F_TP]     = {derive_tp,      2, {B_PRECIP, B_RH}},
    [SIM_F_CP]     = {derive_cp,      2, {B_PRECIP, B_CONV}},
    [SIM_F_CRR]    = {derive_crr,     2, {B_PRECIP, B_CONV}},
    [SIM_F_PTYPE]  = {derive_ptype,   2, {B_PRECIP, B_T2M}},
    [SIM_F_U10]    = {derive_u10,     3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_V10]    = {derive_v10,     3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_WS10]   = {derive_ws10,    3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_GUST]   = {derive_gust,    3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_TCC]    = {derive_tcc,     2, {B_CLOUD, B_U10}},
    [SIM_F_LCC]    = {derive_lcc,     2, {B_CLOUD, B_U10}},
    [SIM_F_MCC]    = {derive_mcc,     2, {B_CLOUD, B_U10}},
    [SIM_F_HCC]    = {derive_hcc,     2, {B_CLOUD, B_U10}},
    [SIM_F_SST]    = {derive_sst,     1, {B_TFREE}},
    [SIM_F_SWH]    = {derive_swh,     3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_MWP]    = {derive_mwp,     3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_MWD]    = {derive_mwd,     3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_SHWW]   = {derive_shww,    3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_MPWW]   = {derive_mpww,    3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_SHTS]   = {derive_shts,    3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_MPTS]   = {derive_mpts,    3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_MDTS]   = {derive_mdts,    3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_PP1D]   = {derive_pp1d,    3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_OCU]    = {derive_ocu,     2, {B_OCU, B_OCV}},
    [SIM_F_OCV]    = {derive_ocv,     2, {B_OCU, B_OCV}},
    [SIM_F_OCS]    = {derive_ocs,     2, {B_OCU, B_OCV}},
    [SIM_F_LSM]    = {derive_lsm,     0, {B_COUNT}},
    [SIM_F_CAPE]   = {derive_cape,    1, {B_CONV}},
    [SIM_F_CIN]    = {derive_cin,     1, {B_CONV}},
    [SIM_F_LFTX]   = {derive_lftx,    1, {B_CONV}},
    [SIM_F_TSTM]   = {derive_tstm,    1, {B_CONV}},
    [SIM_F_T850]   = {derive_t850,    1, {B_TFREE}},
    [SIM_F_GH500]  = {derive_gh500,   2, {B_PANOM, B_TFREE}},
    [SIM_F_WS250]  = {derive_ws250,   3, {B_U10, B_V10, B_SWELL}},
    [SIM_F_R700]   = {derive_r700,    2, {B_RH, B_CLOUD}},
    [SIM_F_VIS]    = {derive_vis,     2, {B_PRECIP, B_RH}},
    [SIM_F_EVAP]   = {derive_evap,    3, {B_T2M, B_RH, B_PRECIP}},
    [SIM_F_PEV]    = {derive_pev,     3, {B_T2M, B_RH, B_PRECIP}},
    [SIM_F_SOILW]  = {derive_soilw,   3, {B_T2M, B_RH, B_PRECIP}},
    [SIM_F_STL1]   = {derive_stl1,    1, {B_T2M}},
    [SIM_F_WS100]  = {derive_ws100,   3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_WD100]  = {derive_wd100,   3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_WPD100] = {derive_wpd100,  3, {B_SU10, B_SV10, B_SWELL}},
    [SIM_F_SSRD]   = {derive_ssrd,    1, {B_CLOUD}},
    [SIM_F_FDIR]   = {derive_fdir,    1, {B_CLOUD}},
    [SIM_F_DIF]    = {derive_dif,     1, {B_CLOUD}},
};
/* clang-format on */

#define N_DERIVED (sizeof(derived) / sizeof(derived[0]))

/* Fields computed point by point from base fields. */
int sim_field_derived_eval(struct ctx *c, enum sim_field f, float *out)
{
    const struct sim_grid *g = c->g;
    const struct derived *d = (size_t)f < N_DERIVED ? &derived[f] : NULL;
    double dec = 23.44 * DEG * sin(2 * PI * (c->doy - 81) / 365.2425);

    if (d == NULL || d->at == NULL) {
        /* not a field: zero everywhere */
        memset(out, 0, c->n * sizeof(*out));
        return 0;
    }
    for (unsigned k = 0; k < d->n; k++)
        sim_field_base_get(c, d->in[k]);
    if (c->failed)
        return -1;
    /* c->col is free scratch once the base fields exist */
    for (size_t i = 0; i < g->nx; i++)
        c->col[i] = swell_wobble(g->lon[i], c->hours);

    struct pt q = {
        .c = c,
        .dec = dec,
        .t = c->base[B_T2M],
        /* the wind and pressure with the storms, where the row asks for them */
        .u = c->base[B_SU10] != NULL ? c->base[B_SU10] : c->base[B_U10],
        .v = c->base[B_SV10] != NULL ? c->base[B_SV10] : c->base[B_V10],
        .ss = c->base[B_SSEA],
        .pr = c->base[B_PRECIP],
        .cl = c->base[B_CLOUD],
        .rh = c->base[B_RH],
        .sw = c->base[B_SWELL],
        .cv = c->base[B_CONV],
        .pa = c->base[B_SPANOM] != NULL ? c->base[B_SPANOM] : c->base[B_PANOM],
        .tf = c->base[B_TFREE],
        .ou = c->base[B_OCU],
        .ov = c->base[B_OCV],
    };
    for (size_t j = 0; j < g->ny; j++) {
        q.lat = g->lat[j];
        q.cl_lat = cos(q.lat * DEG);
        q.s_lat = sin(q.lat * DEG);
        for (size_t i = 0; i < g->nx; i++) {
            q.p = j * g->nx + i;
            q.i = i;
            q.land = g->land[q.p];
            out[q.p] = d->at(&q);
        }
    }
    return 0;
}

/* ---- the flows ----------------------------------------------------------------- */

int sim_field_derived_vector(struct ctx *c, enum sim_vector vec, float *u, float *v)
{
    const struct sim_grid *g = c->g;
    const float *a = NULL, *b = NULL, *sw = NULL, *ss = NULL;

    if (vec == SIM_VEC_CURRENT) {
        a = sim_field_base_get(c, B_OCU);
        b = sim_field_base_get(c, B_OCV);
    } else if (vec == SIM_VEC_WIND250) {
        a = sim_field_base_get(c, B_U10);
        b = sim_field_base_get(c, B_V10);
    } else {
        /* the surface flows carry the storms */
        a = sim_field_base_get(c, B_SU10);
        b = sim_field_base_get(c, B_SV10);
        ss = sim_field_base_get(c, B_SSEA);
        if (vec == SIM_VEC_WAVE || vec == SIM_VEC_SWELL)
            sw = sim_field_base_get(c, B_SWELL);
    }
    if (c->failed)
        return -1;
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
                if (ss != NULL && vec == SIM_VEC_WAVE)
                    ws = fmaxf(ws, ss[p]);
                float sd = swell_from(lat, swell_wobble(g->lon[i], c->hours)) * (float)DEG;
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
    return 0;
}

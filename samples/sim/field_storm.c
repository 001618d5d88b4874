/* field_storm.c: the active tropical cyclones in the simulated weather.
 *
 * Each active storm of the storm service (storm_data.h) is a parametric vortex
 * moving along its track, so that the wind, gust, pressure and wave fields of a
 * valid time agree with the storm's advisory at that time.
 *
 * The storm at a valid time: position, maximum wind, central pressure and the
 * 34, 50 and 64 kt radii of each quadrant (NE, SE, SW, NW) are interpolated
 * linearly between the two fixes around that time, along the observed track
 * and then the forecast track. Before the first fix and after the last one
 * there is no vortex. A fix without pressure has the pressure deficit of the
 * nearest earlier fix that has one, scaled by the square of the wind ratio.
 *
 * Wind: the radius of maximum wind is 0.6 times the smallest innermost radius
 * given (12 to 60 nm, inside every quadrant's innermost radius). In each
 * quadrant the speed follows knots (Rmax, Vmax), (r64, 64 kt), (r50, 50 kt),
 * (r34, 34 kt), joined by power laws (linear in log speed against log
 * radius), so it is exactly the advisory's speed at each radius given; inside
 * Rmax it is Holland's profile (B = 1.5) rising to Vmax; beyond the outermost
 * radius it falls to nothing with a half cosine over one radius (at most half
 * the largest 34 kt radius plus 100 nm). Between the quadrants' diagonals the
 * speed is blended with cosine weights in azimuth. The flow turns cyclonically
 * (counter-clockwise in the northern hemisphere, clockwise in the southern),
 * 20 degrees in toward the centre. Where the vortex is faster than the
 * background wind by more than 1 m/s it replaces it, where slower by more than
 * 1 m/s the background stays, and in between the two are mixed smoothly
 * (directions as vectors, speeds as speeds).
 *
 * Pressure: Holland's p = pc + (pn - pc) exp(-(Rmax / r)^B), with pn the
 * background pressure at the point and B = rho e Vmax^2 / (pn - pc) (1 to 2.5);
 * the deficit fades out with a half cosine from the largest 34 kt radius to the
 * reach of the storm.
 *
 * Waves: where the vortex blows, the wind sea is the fully developed estimate
 * of the background (0.022 U^2 + 0.05 m) capped at 4 + 0.16 U m (U in m/s)
 * instead of 9 m: about 12 m near the eyewall of a 100 kt storm.
 *
 * Cost and reach: the storms of a valid time are worked out once per
 * evaluation (sim_field_storm_init), keeping those that reach its grid; with
 * none, the wind and pressure are the background's arrays themselves. Points
 * farther from a centre than 1.5 times its largest 34 kt radius plus 100 nm
 * are not touched, so that fields away from the storms keep the bits they
 * have without them. */
#include "field_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "storm_data.h"

#define KT 0.514444  /* m/s per knot */
#define NM_DEG 60.0  /* nautical miles per degree of latitude */
#define INFLOW 20.0  /* degrees */
#define BLEND 1.0    /* m/s either side of the crossing of vortex and background */
#define RHO_E 3.1262 /* air density 1.15 kg m-3 times e */

static const double thresholds[3] = {34, 50, 64};

static struct sim_storm_set storms;
static int storms_ok;
static pthread_once_t storms_once = PTHREAD_ONCE_INIT;

static void storms_build(void)
{
    storms_ok = sim_storm_set_build(&storms, 0) == 0;
}

/* ---- the storm at a valid time ------------------------------------------------- */

/* The n fixes of s in time order: observed, then the forecast after them. */
static size_t track(const struct sim_storm *s, const struct sim_storm_pos **out, size_t max)
{
    size_t n = 0;

    for (size_t i = 0; i < s->nobs && n < max; i++)
        out[n++] = &s->obs[i];
    for (size_t i = 0; i < s->nfc && n < max; i++)
        if (n == 0 || s->fc[i].time > out[n - 1]->time)
            out[n++] = &s->fc[i];
    return n;
}

/* Pressure deficit (hPa below 1010) of fix k: its own, or the last known one
 * scaled by the square of the wind ratio. */
static double deficit(const struct sim_storm_pos *const *fix, size_t k)
{
    for (size_t i = k + 1; i-- > 0;)
        if (!isnan(fix[i]->mslp)) {
            double d = 1010 - fix[i]->mslp, w = fix[i]->wind;
            if (i == k || !(w > 0))
                return d;
            return d * (fix[k]->wind / w) * (fix[k]->wind / w);
        }
    return 0;
}

static double radius(const struct sim_storm_pos *p, int t, int q)
{
    return p->r[t].present ? p->r[t].q[q] : 0;
}

/* Knots of quadrant q's profile and the reach, once the state is known. */
static void vortex_fit(struct vortex *v)
{
    double inner = 1e9, r34max = 0;

    for (int q = 0; q < 4; q++)
        for (int t = 0; t < 3; t++)
            if (v->r[t][q] > 0 && thresholds[t] < v->vmax_kt) {
                inner = fmin(inner, v->r[t][q]);
                r34max = fmax(r34max, v->r[t][q]);
            }
    v->rmax = inner < 1e9 ? fmin(fmax(0.6 * inner, 12), fmin(60, 0.8 * inner)) : 30;
    v->r34max = r34max;
    v->reach = 1.5 * fmax(r34max, v->rmax) + 100;
    for (int q = 0; q < 4; q++) {
        struct vortex_quad *k = &v->quad[q];
        k->n = 0;
        k->r[k->n] = v->rmax;
        k->v[k->n++] = v->vmax;
        for (int t = 2; t >= 0; t--) {
            double r = v->r[t][q];
            if (r > k->r[k->n - 1] && thresholds[t] < v->vmax_kt && k->n < 4) {
                k->r[k->n] = r;
                k->v[k->n++] = thresholds[t] * KT;
            }
        }
        for (int i = 0; i + 1 < k->n; i++)
            k->x[i] = log(k->v[i + 1] / k->v[i]) / log(k->r[i + 1] / k->r[i]);
        k->width = fmin(fmax(k->r[k->n - 1], 30), 0.5 * r34max + 100);
    }
    v->b = fmin(fmax(RHO_E * v->vmax * v->vmax / fmax(v->dp * 100, 1), 1.0), 2.5);
}

/* The state of storm s at time t (seconds): 1 and v filled, or 0 outside its track. */
static int storm_at(const struct sim_storm *s, int64_t t, struct vortex *v)
{
    const struct sim_storm_pos *fix[64];
    size_t n = track(s, fix, 64), k;
    double a, dlon;

    if (n == 0 || t < fix[0]->time || t > fix[n - 1]->time)
        return 0;
    for (k = 0; k + 1 < n && fix[k + 1]->time <= t; k++)
        ;
    const struct sim_storm_pos *p = fix[k], *r = k + 1 < n ? fix[k + 1] : fix[k];
    a = r->time > p->time ? (double)(t - p->time) / (double)(r->time - p->time) : 0;
    if (isnan(p->wind) || isnan(r->wind))
        return 0;
    dlon = r->lon - p->lon;
    dlon -= 360 * round(dlon / 360);
    memset(v, 0, sizeof(*v));
    v->lat = p->lat + a * (r->lat - p->lat);
    v->lon = p->lon + a * dlon;
    v->vmax_kt = p->wind + a * (r->wind - p->wind);
    v->vmax = v->vmax_kt * KT;
    v->dp = deficit(fix, k) + a * (deficit(fix, k + (r != p)) - deficit(fix, k));
    v->hemi = v->lat < 0 ? -1 : 1;
    for (int i = 0; i < 3; i++)
        for (int q = 0; q < 4; q++)
            v->r[i][q] = radius(p, i, q) + a * (radius(r, i, q) - radius(p, i, q));
    if (!(v->vmax_kt >= 34))
        return 0;
    vortex_fit(v);
    return 1;
}

/* Whether some point of c's grid may be within v's reach (never 0 when one is). */
static int touches(const struct ctx *c, const struct vortex *v)
{
    const struct sim_grid *g = c->g;
    double deg = v->reach / NM_DEG, far = fmin(89.9, fabs(v->lat) + deg);
    int row = 0;

    for (size_t j = 0; j < g->ny && !row; j++)
        row = fabs(g->lat[j] - v->lat) <= deg;
    for (size_t i = 0; i < g->nx && row; i++) {
        double dx = g->lon[i] - v->lon;
        dx -= 360 * round(dx / 360);
        if (fabs(dx) * NM_DEG * cos(far * DEG) <= v->reach)
            return 1;
    }
    return 0;
}

void sim_field_storm_init(struct ctx *c, int64_t valid)
{
    c->nvortex = 0;
    pthread_once(&storms_once, storms_build);
    if (!storms_ok)
        return;
    for (size_t i = 0; i < storms.n && c->nvortex < SIM_VORTEX_MAX; i++)
        if (storms.storms[i].active && storm_at(&storms.storms[i], valid, &c->vortex[c->nvortex]) &&
            touches(c, &c->vortex[c->nvortex]))
            c->nvortex++;
}

/* ---- the vortex at a point --------------------------------------------------- */

/* Distance (nm) and bearing (radians clockwise from north) of (lat, lon) from
 * v's centre, on a local plane; 0 when farther than the storm's reach. */
static int polar(const struct vortex *v, double lat, double lon, double *r, double *az)
{
    double dy = (lat - v->lat) * NM_DEG, dx;

    if (fabs(dy) > v->reach)
        return 0;
    dx = lon - v->lon;
    dx -= 360 * round(dx / 360);
    dx *= NM_DEG * cos(0.5 * (lat + v->lat) * DEG);
    *r = sqrt(dx * dx + dy * dy);
    if (*r > v->reach)
        return 0;
    *az = atan2(dx, dy);
    return 1;
}

/* Speed (m/s) of quadrant k's profile at r nm. */
static double quad_speed(const struct vortex *v, const struct vortex_quad *k, double r)
{
    double last = k->r[k->n - 1], f;

    if (r <= 0)
        return 0;
    if (r <= v->rmax) {
        f = pow(v->rmax / r, 1.5);
        return v->vmax * sqrt(f * exp(1 - f));
    }
    for (int i = 0; i + 1 < k->n; i++)
        if (r <= k->r[i + 1])
            return k->v[i] * pow(r / k->r[i], k->x[i]);
    f = (r - last) / k->width;
    return f >= 1 ? 0 : k->v[k->n - 1] * 0.5 * (1 + cos(PI * f));
}

/* Speed (m/s) of the vortex at r nm, bearing az: quadrants blended in azimuth. */
static double vortex_speed(const struct vortex *v, double r, double az)
{
    double s = (az / DEG - 45) / 90, t;
    int q0;

    s -= 4 * floor(s / 4);
    q0 = (int)s;
    if (q0 > 3)
        q0 = 3;
    t = 0.5 - 0.5 * cos(PI * (s - q0));
    return (1 - t) * quad_speed(v, &v->quad[q0], r) + t * quad_speed(v, &v->quad[(q0 + 1) % 4], r);
}

/* The wind sea (m) of a wind of ws m/s inside a storm. */
static float storm_sea(float ws)
{
    return fminf(0.022f * ws * ws + 0.05f, fmaxf(9.0f, 4 + 0.16f * ws));
}

/* The wind of vortex vx at (lat, lon) over the background (u, v), in place:
 * 1 when the vortex blows there, 0 when the background is left as it is. */
static int blow(const struct vortex *vx, double lat, double lon, float *u, float *v)
{
    double r, az, sp, bu = *u, bv = *v, bs = sqrt(bu * bu + bv * bv), w;
    double ca = cos(INFLOW * DEG), sa = sin(INFLOW * DEG);

    if (!polar(vx, lat, lon, &r, &az))
        return 0;
    sp = vortex_speed(vx, r, az);
    w = (sp - bs) / (2 * BLEND) + 0.5;
    if (!(w > 0))
        return 0;
    w = w >= 1 ? 1 : w * w * (3 - 2 * w);
    /* radial (outward) and tangential (cyclonic) unit vectors, east and north */
    double ex = sin(az), ey = cos(az), tx = -ey * vx->hemi, ty = ex * vx->hemi;
    double vu = sp * (ca * tx - sa * ex), vv = sp * (ca * ty - sa * ey);
    /* directions mixed as vectors, speeds as speeds: no lull where the two cross */
    double mu = w * vu + (1 - w) * bu, mv = w * vv + (1 - w) * bv;
    double m = sqrt(mu * mu + mv * mv), to = w * sp + (1 - w) * bs;

    if (m < 1e-6) {
        mu = vu;
        mv = vv;
        m = sp;
    }
    *u = (float)(mu * to / m);
    *v = (float)(mv * to / m);
    return 1;
}

/* Adds the vortices to the background wind (u, v) in place; sea (zeros) gets
 * the storm's wind sea where a vortex blows. */
void sim_field_storm_wind(const struct ctx *c, float *u, float *v, float *sea)
{
    const struct sim_grid *g = c->g;

    for (int s = 0; s < c->nvortex; s++) {
        const struct vortex *vx = &c->vortex[s];
        for (size_t j = 0; j < g->ny; j++) {
            if (fabs(g->lat[j] - vx->lat) * NM_DEG > vx->reach)
                continue;
            for (size_t i = 0; i < g->nx; i++) {
                size_t p = j * g->nx + i;
                if (blow(vx, g->lat[j], g->lon[i], &u[p], &v[p]))
                    sea[p] = fmaxf(sea[p], storm_sea(sqrtf(u[p] * u[p] + v[p] * v[p])));
            }
        }
    }
}

/* Lowers the pressure anomaly pa (Pa, from 101325) to the vortices' Holland
 * profile. */
void sim_field_storm_pressure(const struct ctx *c, float *pa)
{
    const struct sim_grid *g = c->g;

    for (int s = 0; s < c->nvortex; s++) {
        const struct vortex *vx = &c->vortex[s];
        double pc = 101000 - vx->dp * 100;
        for (size_t j = 0; j < g->ny; j++) {
            if (fabs(g->lat[j] - vx->lat) * NM_DEG > vx->reach)
                continue;
            for (size_t i = 0; i < g->nx; i++) {
                size_t p = j * g->nx + i;
                double r, az, bg = 101325 + (double)pa[p], d, taper = 1;
                if (!polar(vx, g->lat[j], g->lon[i], &r, &az) || !(bg > pc))
                    continue;
                if (r > vx->r34max)
                    taper = 0.5 * (1 + cos(PI * (r - vx->r34max) / (vx->reach - vx->r34max)));
                d = r > 0 ? (bg - pc) * (1 - exp(-pow(vx->rmax / r, vx->b))) : bg - pc;
                pa[p] = (float)(bg - d * taper - 101325);
            }
        }
    }
}

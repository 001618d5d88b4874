/* test_routing.c: the route search (lib/sail/route.c) and the polar's hull
 * (lib/sail/polar_hull.c) against exact answers computed here.
 *
 * Every field is analytic (the met callback below) and every passage lies
 * within about 1.5 degrees of the equator, 100 to 300 nm long, so that the
 * plane answers hold on the sphere to a few hundredths of a percent (x east
 * = R lon, y north = R lat, R the radius of seawx/sphere.h in nm). The
 * answers:
 *   - constant speed, no current: the great circle (haversine) over speed;
 *   - uniform wind with the test's polar: the gauge of the convex hull of the
 *     polar curve at the displacement, the hull given by its support
 *     function (the maximum of the curve's points along a normal, sampled
 *     here every 0.1 degree of wind angle and 0.02 degree of normal);
 *   - constant current: Zermelo's closed form;
 *   - uniform wind and current: the first T with gauge(d - T c) = T, the
 *     polar fed the wind over water;
 *   - Bryson and Ho's linearly sheared current: 2 h / V;
 *   - a wind that shifts at t1: the first t with n.d <= t1 h1(n) +
 *     (t - t1) h2(n) for every normal n, bisected;
 *   - a disc no boat may enter: tangent, arc, tangent.
 */
#define _GNU_SOURCE
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/plan.h"
#include "seawx/route.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define T0 1800000000
#define R_NM (6371008.8 / 1852.0)
#define RAD (M_PI / 180.0)
#define NNORM 18000 /* normals every 0.02 degree */

/* ---- the test's own polar: the fixture read here, bilinear ---- */

static double tp_twa[64], tp_tws[16], tp_v[64][16];
static int tp_nr, tp_nc;
static char *tp_text;
static size_t tp_len;

static void tp_load(void)
{
    tp_text = cu_fixture("route/polar.txt", &tp_len);
    char *save = NULL, *copy = strdup(tp_text);
    char *line = strtok_r(copy, "\n", &save);
    char *tok, *s2 = NULL;
    strtok_r(line, "\t", &s2);
    while ((tok = strtok_r(NULL, "\t", &s2)))
        tp_tws[tp_nc++] = atof(tok);
    while ((line = strtok_r(NULL, "\n", &save))) {
        tp_twa[tp_nr] = atof(strtok_r(line, "\t", &s2));
        for (int c = 0; c < tp_nc; c++)
            tp_v[tp_nr][c] = atof(strtok_r(NULL, "\t", &s2));
        tp_nr++;
    }
    free(copy);
}

static double tp_col(int r, double tws)
{
    if (tws <= tp_tws[0])
        return tp_v[r][0] * tws / tp_tws[0];
    for (int c = 0; c + 1 < tp_nc; c++)
        if (tws <= tp_tws[c + 1]) {
            double w = (tws - tp_tws[c]) / (tp_tws[c + 1] - tp_tws[c]);
            return tp_v[r][c] * (1 - w) + tp_v[r][c + 1] * w;
        }
    return tp_v[r][tp_nc - 1];
}

static double tp_speed(double tws, double twa)
{
    for (int r = 0; r + 1 < tp_nr; r++)
        if (twa <= tp_twa[r + 1]) {
            double w = (twa - tp_twa[r]) / (tp_twa[r + 1] - tp_twa[r]);
            return tp_col(r, tws) * (1 - w) + tp_col(r + 1, tws) * w;
        }
    return tp_col(tp_nr - 1, tws);
}

/* h[k]: the support function of the polar curve at tws along the normal at
 * angle k * 360 / NNORM degrees from the wind's direction (x toward where
 * it comes from); min_twa cuts the curve. */
static void tp_support(double *h, double tws, double min_twa)
{
    static double px[3602], py[3602];
    int n = 0;
    for (int i = 0; i <= 1800; i++) {
        double a = i * 0.1, v = a < min_twa ? 0 : tp_speed(tws, a);
        px[n] = v * cos(a * RAD);
        py[n++] = v * sin(a * RAD);
        px[n] = v * cos(a * RAD);
        py[n++] = -v * sin(a * RAD);
    }
    for (int k = 0; k < NNORM; k++) {
        double nx = cos(k * 2 * M_PI / NNORM), ny = sin(k * 2 * M_PI / NNORM), m = 0;
        for (int i = 0; i < n; i++)
            m = fmax(m, nx * px[i] + ny * py[i]);
        h[k] = m;
    }
}

/* The gauge of the hull with support h at z (east, north), the wind over
 * water blowing toward (wu, wv): max over normals of n.z / h(n). */
static double gauge(const double *h, double wu, double wv, double zx, double zy)
{
    double w = hypot(wu, wv), fx = -wu / w, fy = -wv / w;
    double x = zx * fx + zy * fy, y = -zx * fy + zy * fx, g = 0;
    for (int k = 0; k < NNORM; k++) {
        double d = cos(k * 2 * M_PI / NNORM) * x + sin(k * 2 * M_PI / NNORM) * y;
        if (d > 0)
            g = fmax(g, h[k] > 0 ? d / h[k] : INFINITY);
    }
    return g;
}

/* ---- the fields ---- */

enum { F_UNIFORM, F_SHEAR, F_SHIFT };
typedef struct field {
    int kind;
    double wu, wv, cu, cv; /* uniform wind and current, kn */
    double shear_v, shear_h;
    double wu2, wv2;
    int64_t t1;  /* F_SHIFT: wind (wu2, wv2) from t1 */
    int64_t end; /* 0, or the forecast's end */
} field;

static int met(void *ctx, double lat, double lon, int64_t t, swx_routing_met *out)
{
    const field *f = ctx;
    (void)lon;
    if (f->end && t > f->end)
        return SWX_ROUTING_FORECAST_END;
    *out = (swx_routing_met){f->wu, f->wv, NAN, NAN, f->cu, f->cv};
    if (f->kind == F_SHEAR)
        out->cur_u_kn = f->shear_v * (R_NM * lat * RAD) / f->shear_h;
    if (f->kind == F_SHIFT && t >= f->t1) {
        out->wind_u_kn = f->wu2;
        out->wind_v_kn = f->wv2;
    }
    return 0;
}

/* A disc (plane, near the equator) no leg may touch. */
typedef struct disc {
    double x, y, r; /* nm */
    int ring;       /* 1: only its rim is blocked (the end inside it) */
} disc;

static double seg_dist(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    double u = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    return hypot(ax + u * dx - px, ay + u * dy - py);
}

static int disc_leg(void *ctx, double lat0, double lon0, int64_t t0, double lat1, double lon1,
                    int64_t t1)
{
    const disc *d = ctx;
    (void)t0;
    (void)t1;
    double ax = R_NM * lon0 * RAD, ay = R_NM * lat0 * RAD;
    double bx = R_NM * lon1 * RAD, by = R_NM * lat1 * RAD;
    double near = seg_dist(d->x, d->y, ax, ay, bx, by);
    if (!d->ring)
        return near < d->r ? SWX_ROUTING_LAND : 0;
    double far = fmax(hypot(ax - d->x, ay - d->y), hypot(bx - d->x, by - d->y));
    return near <= d->r && far >= d->r ? SWX_ROUTING_LAND : 0;
}

/* ---- running the search ---- */

static swx_routing_opts opts(double flat, double flon, double tlat, double tlon, field *f)
{
    swx_routing_opts o = {.from_lat = flat, .from_lon = flon, .to_lat = tlat, .to_lon = tlon};
    o.depart = T0;
    o.motor_kn = 6;
    o.heading_step_deg = 2;
    o.time_step_s = 3600;
    o.met = met;
    o.met_ctx = f;
    return o;
}

static double solve_hours(const swx_routing_opts *o, const char *what)
{
    swx_routing *r = NULL;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int rc = swx_routing_solve(&r, o);
    clock_gettime(CLOCK_MONOTONIC, &b);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    if (!swx_routing_found(r))
        printf("\n  %s: no route: %s", what, swx_routing_why(r)->message);
    CU_ASSERT_FATAL(swx_routing_found(r));
    double h = swx_routing_hours(r);
    uint64_t n;
    double s;
    swx_routing_stats(r, &n, &s);
    printf("\n  %-28s %9.4f h  %3zu points %3zu isochrones  %8llu legs  %.3f s  %.0f legs/s", what,
           h, swx_routing_npoints(r), swx_routing_nisochrones(r), (unsigned long long)n,
           (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9, s > 0 ? n / s : 0.0);
    swx_routing_free(r);
    return h;
}

static void check(double got, double exact, double tol, const char *what)
{
    double err = (got - exact) / exact;
    printf("\n  %-28s exact %9.4f h  error %+.4f %%", what, exact, 100 * err);
    CU_ASSERT(fabs(err) <= tol);
}

static double plane_dx(double flat, double flon, double tlon)
{
    (void)flat;
    return R_NM * (tlon - flon) * RAD;
}

/* ---- the checks ---- */

static void test_great_circle(void)
{
    field f = {.kind = F_UNIFORM};
    double la0 = -1.0, lo0 = 10.0, la1 = 1.2, lo1 = 12.5;
    swx_routing_opts o = opts(la0, lo0, la1, lo1, &f);
    double h = sin((la1 - la0) * RAD / 2), g = sin((lo1 - lo0) * RAD / 2);
    double sig = 2 * asin(sqrt(h * h + cos(la0 * RAD) * cos(la1 * RAD) * g * g));
    check(solve_hours(&o, "great circle, 6 kn"), R_NM * sig / 6, 0.002, "great circle");
}

static void test_hull(void)
{
    swx_polar *p = NULL;
    swx_polar_hull *hull = NULL;
    static double h[NNORM];
    CU_ASSERT_EQUAL_FATAL(swx_polar_parse(&p, tp_text, tp_len), 0);
    CU_ASSERT_EQUAL_FATAL(swx_polar_hull_new(&hull, p, 0), 0);
    tp_support(h, 12, 0);
    /* the radius of the hull at a direction: 1 / gauge of the unit vector */
    double worst = 0;
    for (int a = 0; a <= 180; a += 5) {
        double r = 1 / gauge(h, 0, -1, sin(a * RAD), cos(a * RAD));
        double got = swx_polar_hull_speed(hull, 12, a);
        worst = fmax(worst, fabs(got - r) / r);
    }
    printf("\n  hull radius at 12 kn, 0..180 deg: worst relative error %.2e", worst);
    CU_ASSERT(worst < 1e-4);
    /* dead upwind: the best VMG, straight from the table */
    double vmg = 0;
    for (int i = 0; i <= 1800; i++)
        vmg = fmax(vmg, tp_speed(12, i * 0.1) * cos(i * 0.1 * RAD));
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_hull_speed(hull, 12, 0), vmg, 1e-3);
    swx_polar_hull_free(hull);
    swx_polar_free(p);
}

static void polar_case(const char *what, double la0, double lo0, double la1, double lo1, double cu,
                       double cv)
{
    static double h[NNORM];
    swx_polar *p = NULL;
    field f = {.kind = F_UNIFORM, .wv = -12, .cu = cu, .cv = cv};
    CU_ASSERT_EQUAL_FATAL(swx_polar_parse(&p, tp_text, tp_len), 0);
    swx_routing_opts o = opts(la0, lo0, la1, lo1, &f);
    o.polar = p;
    double wu = f.wu - cu, wv = f.wv - cv; /* the wind over water */
    tp_support(h, hypot(wu, wv), 0);
    double dx = plane_dx(la0, lo0, lo1), dy = R_NM * (la1 - la0) * RAD;
    /* the first T with gauge(d - T c) = T */
    double lo = 0, hi = 1;
    while (gauge(h, wu, wv, dx - hi * cu, dy - hi * cv) > hi)
        hi *= 2;
    for (int i = 0; i < 60; i++) {
        double m = (lo + hi) / 2;
        if (gauge(h, wu, wv, dx - m * cu, dy - m * cv) > m)
            lo = m;
        else
            hi = m;
    }
    check(solve_hours(&o, what), hi, 0.002, what);
    swx_polar_free(p);
}

static void test_polar_upwind(void)
{
    polar_case("upwind, 12 kn, tacking", -1.2, 20, 1.3, 20, 0, 0);
}

static void test_polar_downwind(void)
{
    polar_case("downwind, gybing", 1.3, 20, -1.2, 20, 0, 0);
}

static void test_polar_reaching(void)
{
    polar_case("reaching", -0.3, 20, 0.4, 22.5, 0, 0);
}

static void test_polar_current(void)
{
    polar_case("wind over water + current", -1.0, 40, 1.2, 41, 1.5, 2.0);
}

/* A motoring floor (seawx plan's --speed with --polar): the boat motors at
 * m wherever sailing makes less. Dead upwind the polar's best VMG is less
 * than m: the time is the distance at m, straight. Reaching, the polar is
 * faster than m everywhere near the course: the polar's own time. */
static void test_motor_floor(void)
{
    static double h[NNORM];
    swx_polar *p = NULL;
    field f = {.kind = F_UNIFORM, .wv = -12};
    CU_ASSERT_EQUAL_FATAL(swx_polar_parse(&p, tp_text, tp_len), 0);
    double vmg = 0;
    for (int i = 0; i <= 1800; i++)
        vmg = fmax(vmg, tp_speed(12, i * 0.1) * cos(i * 0.1 * RAD));
    double m = vmg + 1.0, la0 = -1.2, la1 = 1.3;
    swx_routing_opts o = opts(la0, 20, la1, 20, &f);
    o.polar = p;
    o.motor_kn = m;
    o.motor_floor = 1;
    check(solve_hours(&o, "upwind, motoring floor"), R_NM * (la1 - la0) * RAD / m, 0.002,
          "floor above the best VMG");
    /* reaching: the polar's time, as without the floor */
    tp_support(h, 12, 0);
    double dx = plane_dx(-0.3, 20, 22.5), dy = R_NM * (0.4 - -0.3) * RAD;
    o = opts(-0.3, 20, 0.4, 22.5, &f);
    o.polar = p;
    o.motor_kn = 3.0;
    o.motor_floor = 1;
    check(solve_hours(&o, "reaching, floor under it"), gauge(h, 0, -12, dx, dy), 0.002,
          "floor under the polar");
    swx_polar_free(p);
}

static void test_current(void)
{
    field f = {.kind = F_UNIFORM, .cu = 2.0, .cv = 1.0};
    double la0 = -1.0, lo0 = 30, la1 = 0.8, lo1 = 32;
    swx_routing_opts o = opts(la0, lo0, la1, lo1, &f);
    double dx = plane_dx(la0, lo0, lo1), dy = R_NM * (la1 - la0) * RAD, V = 6;
    double dw = dx * f.cu + dy * f.cv, w2 = f.cu * f.cu + f.cv * f.cv;
    double T = (-dw + sqrt(dw * dw + (V * V - w2) * (dx * dx + dy * dy))) / (V * V - w2);
    check(solve_hours(&o, "constant current (2, 1) kn"), T, 0.002, "Zermelo, constant current");
}

/* The default steps (6 h offshore, 3 degrees, every third heading beyond
 * 45 degrees): Zermelo's constant current over 300 nm within 0.1 %. */
static void test_defaults(void)
{
    field f = {.kind = F_UNIFORM, .cu = 2.0, .cv = 1.0};
    double la0 = -1.0, lo0 = 0, la1 = 1.0, lo1 = 4.5;
    swx_routing_opts o = opts(la0, lo0, la1, lo1, &f);
    o.heading_step_deg = 0;
    o.time_step_s = 0;
    double dx = plane_dx(la0, lo0, lo1), dy = R_NM * (la1 - la0) * RAD, V = 6;
    double dw = dx * f.cu + dy * f.cv, w2 = f.cu * f.cu + f.cv * f.cv;
    double T = (-dw + sqrt(dw * dw + (V * V - w2) * (dx * dx + dy * dy))) / (V * V - w2);
    check(solve_hours(&o, "defaults, current (2, 1) kn"), T, 0.001, "Zermelo, default steps");
}

static swx_routing_opts shear_opts(field *f)
{
    *f = (field){.kind = F_SHEAR, .shear_v = 6, .shear_h = 50};
    double x0 = -(sqrt(2) + log(1 + sqrt(2))) * 50;
    return opts(0, x0 / R_NM / RAD, 0, 0, f);
}

static void test_shear(void)
{
    field f;
    swx_routing_opts o = shear_opts(&f);
    double straight = (sqrt(2) + log(1 + sqrt(2))) * 50 / 6;
    check(solve_hours(&o, "Bryson-Ho sheared current"), 2 * 50 / 6.0, 0.005, "Bryson-Ho");
    printf("\n  (the straight line: %.4f h)", straight);
}

static void test_shift(void)
{
    static double h1[NNORM], h2[NNORM];
    swx_polar *p = NULL;
    field f = {.kind = F_SHIFT, .wv = -12, .wu2 = -16, .t1 = T0 + 10 * 3600};
    double la0 = -1.0, lo0 = 50, la1 = 1.0, lo1 = 51.5;
    CU_ASSERT_EQUAL_FATAL(swx_polar_parse(&p, tp_text, tp_len), 0);
    swx_routing_opts o = opts(la0, lo0, la1, lo1, &f);
    o.polar = p;
    tp_support(h1, 12, 0);
    tp_support(h2, 16, 0);
    double dx = plane_dx(la0, lo0, lo1), dy = R_NM * (la1 - la0) * RAD, t1 = 10;
    /* n.d <= t1 h1(n) + (t - t1) h2(n) for every n; h in each wind's frame */
    double lo = t1, hi = 200;
    for (int it = 0; it < 50; it++) {
        double t = (lo + hi) / 2;
        int ok = 1;
        for (int k = 0; k < NNORM && ok; k++) {
            double a = k * 2 * M_PI / NNORM, nx = sin(a), ny = cos(a); /* a: compass */
            /* wind 1 from the north: its frame's x is north; wind 2 from the east */
            double k1 = fmod(atan2(nx, ny) / (2 * M_PI) * NNORM + NNORM, NNORM);
            double k2 = fmod(atan2(-ny, nx) / (2 * M_PI) * NNORM + NNORM, NNORM);
            double s1 = h1[(int)lround(k1) % NNORM], s2 = h2[(int)lround(k2) % NNORM];
            if (nx * dx + ny * dy > t1 * s1 + (t - t1) * s2)
                ok = 0;
        }
        if (ok)
            hi = t;
        else
            lo = t;
    }
    CU_ASSERT(hi > t1 + 1);
    check(solve_hours(&o, "wind shift at 10 h"), hi, 0.005, "wind shift");
    swx_polar_free(p);
}

/* Errors of the sheared current as every step is halved: the time step,
 * the heading step, and the sector width by 2^1.5 (the pruning's error
 * grows as width^2 / time step, so it halves too). */
static void test_halving(void)
{
    double err[4];
    printf("\n  time step  heading  sector   error (Bryson-Ho)");
    for (int i = 0; i < 4; i++) {
        field f;
        swx_routing_opts o = shear_opts(&f);
        o.time_step_s = 14400 >> i;
        o.heading_step_deg = 8.0 / (1 << i);
        o.sector_nm = 4.0 / pow(2, 1.5 * i);
        char what[64];
        snprintf(what, sizeof what, "halving %d", i);
        double h = solve_hours(&o, what);
        err[i] = fabs(h - 100 / 6.0) / (100 / 6.0);
        printf("\n  %6d s  %5.2f deg  %5.3f nm  %.4f %%", o.time_step_s, o.heading_step_deg,
               o.sector_nm, 100 * err[i]);
    }
    for (int i = 0; i + 1 < 4; i++)
        CU_ASSERT(err[i + 1] <= err[i] / 2);
}

static swx_routing *disc_route(int threads, disc *d, field *f)
{
    swx_routing *r = NULL;
    *f = (field){.kind = F_UNIFORM};
    *d = (disc){.x = R_NM * 61.25 * RAD, .r = 30};
    swx_routing_opts o = opts(0, 60, 0, 62.5, f);
    o.leg[0] = disc_leg;
    o.leg_ctx[0] = d;
    o.threads = threads;
    CU_ASSERT_EQUAL_FATAL(swx_routing_solve(&r, &o), 0);
    return r;
}

static void test_disc(void)
{
    disc d;
    field f;
    swx_routing *r = disc_route(1, &d, &f);
    CU_ASSERT_FATAL(swx_routing_found(r));
    size_t n = swx_routing_npoints(r), bad = 0;
    const swx_routing_point *p = swx_routing_points(r);
    for (size_t i = 0; i + 1 < n; i++)
        for (int k = 0; k <= 200; k++) {
            double lat = p[i].lat + (p[i + 1].lat - p[i].lat) * k / 200;
            double lon = p[i].lon + (p[i + 1].lon - p[i].lon) * k / 200;
            if (hypot(R_NM * lon * RAD - d.x, R_NM * lat * RAD - d.y) < d.r - 1e-6)
                bad++;
        }
    CU_ASSERT_EQUAL(bad, 0);
    double a = R_NM * 1.25 * RAD;
    double exact = (2 * sqrt(a * a - d.r * d.r) + d.r * (M_PI - 2 * acos(d.r / a))) / 6;
    check(swx_routing_hours(r), exact, 0.01, "round a disc (tangent, arc)");
    swx_routing *r4 = disc_route(4, &d, &f);
    CU_ASSERT_EQUAL_FATAL(swx_routing_npoints(r4), n);
    CU_ASSERT(memcmp(swx_routing_points(r4), p, n * sizeof *p) == 0);
    CU_ASSERT(swx_routing_hours(r4) == swx_routing_hours(r));
    swx_routing_free(r4);
    swx_routing_free(r);
}

static void test_enclosed(void)
{
    field f = {.kind = F_UNIFORM};
    disc d = {.x = R_NM * 72.5 * RAD, .r = 20, .ring = 1};
    swx_routing *r = NULL;
    swx_routing_opts o = opts(0, 70, 0, 72.5, &f);
    o.leg[0] = disc_leg;
    o.leg_ctx[0] = &d;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    CU_ASSERT_EQUAL_FATAL(swx_routing_solve(&r, &o), 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
    CU_ASSERT(!swx_routing_found(r));
    const swx_routing_reason *why = swx_routing_why(r);
    printf("\n  enclosed end: %.3f s: %s", s, why->message);
    CU_ASSERT_EQUAL(why->cause, SWX_ROUTING_END_UNREACHABLE);
    CU_ASSERT_EQUAL(why->blocked_by, SWX_ROUTING_LAND);
    CU_ASSERT(s < 5);
    CU_ASSERT(strchr(why->message, '\n') == NULL);
    swx_routing_free(r);
}

static void test_bad(void)
{
    field f = {.kind = F_UNIFORM};
    swx_routing *r = NULL;
    swx_routing_opts o = opts(0, 70, 0, 70, &f);
    CU_ASSERT_EQUAL(swx_routing_solve(&r, &o), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT(strstr(swx_error_last(), "start") != NULL);
    o = opts(0, 70, 0, 71, &f);
    o.met = NULL;
    CU_ASSERT_EQUAL(swx_routing_solve(&r, &o), SWX_EINVAL);
    /* too long: a 1 kn boat given 10 hours for 60 nm */
    o = opts(0, 70, 0, 71, &f);
    o.motor_kn = 1;
    o.max_hours = 10;
    CU_ASSERT_EQUAL_FATAL(swx_routing_solve(&r, &o), 0);
    CU_ASSERT(!swx_routing_found(r));
    CU_ASSERT_EQUAL(swx_routing_why(r)->cause, SWX_ROUTING_TOO_LONG);
    swx_routing_free(r);
}

/* The forecast ends, the start is on land, the wind is past the limit:
 * each a reason of its own, found at once. */
static void test_reasons(void)
{
    swx_routing *r = NULL;
    swx_polar *p = NULL;
    field f = {.kind = F_UNIFORM, .wv = -12, .end = T0 + 5 * 3600};
    swx_routing_opts o = opts(0, 70, 0, 72, &f);
    CU_ASSERT_EQUAL_FATAL(swx_routing_solve(&r, &o), 0);
    CU_ASSERT(!swx_routing_found(r));
    CU_ASSERT_EQUAL(swx_routing_why(r)->cause, SWX_ROUTING_FORECAST_END);
    CU_ASSERT(swx_routing_why(r)->time <= T0 + 5 * 3600);
    printf("\n  %s", swx_routing_why(r)->message);
    swx_routing_free(r);

    disc d = {.x = R_NM * 70 * RAD, .r = 5};
    f.end = 0;
    o = opts(0, 70, 0, 72, &f);
    o.leg[0] = disc_leg;
    o.leg_ctx[0] = &d;
    CU_ASSERT_EQUAL_FATAL(swx_routing_solve(&r, &o), 0);
    CU_ASSERT_EQUAL(swx_routing_why(r)->cause, SWX_ROUTING_START_ON_LAND);
    printf("\n  %s", swx_routing_why(r)->message);
    swx_routing_free(r);

    CU_ASSERT_EQUAL_FATAL(swx_polar_parse(&p, tp_text, tp_len), 0);
    o = opts(0, 70, 0, 72, &f);
    o.polar = p;
    o.max_tws_kn = 10; /* the wind blows 12 */
    CU_ASSERT_EQUAL_FATAL(swx_routing_solve(&r, &o), 0);
    CU_ASSERT_EQUAL(swx_routing_why(r)->cause, SWX_ROUTING_END_UNREACHABLE);
    CU_ASSERT_EQUAL(swx_routing_why(r)->blocked_by, SWX_ROUTING_LIMIT);
    printf("\n  %s", swx_routing_why(r)->message);
    swx_routing_free(r);
    /* the same wind under motor below 14 kn: a route at the motor's speed */
    o.max_tws_kn = 0;
    o.motor_below_kn = 14;
    o.motor_kn = 5;
    check(solve_hours(&o, "motoring below 14 kn"), 2 * RAD * R_NM / 5, 0.002, "motoring");
    swx_polar_free(p);
}

int main(void)
{
    tp_load();
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("route", NULL, NULL);
    CU_add_test(s, "the polar's hull against its support function", test_hull);
    CU_add_test(s, "constant speed: the great circle", test_great_circle);
    CU_add_test(s, "uniform wind, upwind: tacking at the best VMG", test_polar_upwind);
    CU_add_test(s, "uniform wind, downwind: gybing", test_polar_downwind);
    CU_add_test(s, "uniform wind, reaching", test_polar_reaching);
    CU_add_test(s, "a motoring floor: upwind at the motor, reaching by the polar",
                test_motor_floor);
    CU_add_test(s, "constant current: Zermelo", test_current);
    CU_add_test(s, "uniform wind and current: the wind over water", test_polar_current);
    CU_add_test(s, "Bryson-Ho: linearly sheared current", test_shear);
    CU_add_test(s, "the default steps: Zermelo within 0.1 %", test_defaults);
    CU_add_test(s, "a wind that shifts at a known time", test_shift);
    CU_add_test(s, "halving the steps halves the error", test_halving);
    CU_add_test(s, "a disc: round it, the same route with 1 and 4 threads", test_disc);
    CU_add_test(s, "an end enclosed: unreachable, fast", test_enclosed);
    CU_add_test(s, "bad options and a search too long", test_bad);
    CU_add_test(s, "the forecast's end, a start on land, a wind limit", test_reasons);
    int rc = cu_run();
    free(tp_text);
    return rc;
}

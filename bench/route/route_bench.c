/* route_bench.c: the route search (seawx/route.h) on the crossing Las
 * Palmas to St Lucia through a synthetic forecast, and on Bryson and Ho's
 * sheared current (whose exact time is 2 h / V), for bench/route/run.sh.
 *
 *   route_bench crossing POLAR [--land GSHHG_FILE] [--step S] [--heading D]
 *                              [--sector NM] [--threads N] [--storm 1]
 *     one line: hours, CPU seconds of the search (and of reading the land),
 *     peak RSS (MiB) of the process, legs tried, points kept
 *   route_bench halving
 *     the sheared current as the time step, heading step and sector are
 *     halved: the error against 2 h / V
 *
 * The forecast is analytic, sampled as a 0.25 degree, 3-hourly grid is
 * (bilinear in space between the grid's nodes, linear in time between its
 * hours): north-east trade winds of 12 to 20 kn, a low with 30 kn round
 * its centre moving east along 36 N, and a westward current band of 1 kn
 * (the North Equatorial Current) centred on 15 N. */
#define _GNU_SOURCE
#include "seawx/error.h"
#include "seawx/land.h"
#include "seawx/plan.h"
#include "seawx/route.h"
#include "seawx/route_storms.h"
#include "seawx/storm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define T0 1800000000
#define R_NM (6371008.8 / 1852.0)
#define RAD (M_PI / 180.0)

/* The analytic field at a grid node: wind and current toward east, north. */
static void node(double lat, double lon, double th, double *wu, double *wv, double *cu)
{
    /* trades from 060: stronger toward 15 N */
    double ts = 12 + 8 * exp(-pow((lat - 16) / 8, 2));
    double wdir = (60 + 20 * sin(lon * RAD * 3)) * RAD; /* where it blows from */
    *wu = -ts * sin(wdir);
    *wv = -ts * cos(wdir);
    /* the low: centre at 36 N, from 50 W moving east 0.25 degree an hour */
    double clat = 36, clon = -50 + 0.25 * th;
    double dx = (lon - clon) * cos(clat * RAD) * 60, dy = (lat - clat) * 60;
    double r = hypot(dx, dy) + 1e-9, v = 30 * (r / 300) * exp(1 - r / 300);
    /* cyclonic (counter-clockwise in the north): the wind toward (-dy, dx) */
    *wu += v * -dy / r;
    *wv += v * dx / r;
    *cu = -1.0 * exp(-pow((lat - 15) / 4, 2));
}

static int met(void *ctx, double lat, double lon, int64_t t, swx_routing_met *out)
{
    (void)ctx;
    double th = (double)(t - T0) / 3600;
    if (th > 40 * 24)
        return SWX_ROUTING_FORECAST_END;
    double gi = (lat + 90) / 0.25, gj = (lon + 180) / 0.25, gt = th / 3;
    double i0 = floor(gi), j0 = floor(gj), k0 = floor(gt);
    double fi = gi - i0, fj = gj - j0, fk = gt - k0;
    double acc[3] = {0, 0, 0};
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 2; c++) {
                double w = (a ? fi : 1 - fi) * (b ? fj : 1 - fj) * (c ? fk : 1 - fk), v[3];
                node((i0 + a) * 0.25 - 90, (j0 + b) * 0.25 - 180, (k0 + c) * 3, &v[0], &v[1],
                     &v[2]);
                for (int q = 0; q < 3; q++)
                    acc[q] += w * v[q];
            }
    *out = (swx_routing_met){.wind_u_kn = acc[0],
                             .wind_v_kn = acc[1],
                             .gust_kn = NAN,
                             .wave_m = NAN,
                             .cur_u_kn = acc[2],
                             .cur_v_kn = 0};
    return 0;
}

static int land_leg(void *ctx, double lat0, double lon0, int64_t t0, double lat1, double lon1,
                    int64_t t1)
{
    (void)t0;
    (void)t1;
    return swx_land_leg_clear(ctx, lat0, lon0, lat1, lon1) ? 0 : SWX_ROUTING_LAND;
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    *len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    return buf;
}

static int crossing(int argc, char **argv)
{
    const char *land_path = NULL;
    const char *storm_path = NULL;
    int nleg = 0;
    swx_routing_opts o = {.from_lat = 28.1, .from_lon = -15.3, .to_lat = 14.0, .to_lon = -61.1};
    o.depart = T0;
    o.met = met;
    o.motor_kn = 6;
    size_t len;
    char *text = argc > 2 ? slurp(argv[2], &len) : NULL;
    swx_polar *polar = NULL;
    if (!text || swx_polar_parse(&polar, text, len)) {
        fprintf(stderr, "route_bench: no polar read from %s\n", argc > 2 ? argv[2] : "(none)");
        return 2;
    }
    free(text);
    o.polar = polar;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--land"))
            land_path = argv[i + 1];
        else if (!strcmp(argv[i], "--step"))
            o.time_step_s = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--heading"))
            o.heading_step_deg = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--sector"))
            o.sector_nm = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--storm"))
            storm_path = argv[i + 1];
        else if (!strcmp(argv[i], "--threads"))
            o.threads = atoi(argv[i + 1]);
    }
    swx_land *land = NULL;
    double c0 = cpu_s(), land_cpu = 0;
    if (land_path) {
        swx_land_opts lo = {.path = land_path,
                            .resolution = 'f',
                            .south = 5,
                            .west = -70,
                            .north = 42,
                            .east = -5,
                            .margin_nm = 1};
        if (swx_land_open(&land, &lo)) {
            fprintf(stderr, "route_bench: %s\n", swx_error_last());
            return 2;
        }
        land_cpu = cpu_s() - c0;
        o.leg[nleg] = land_leg;
        o.leg_ctx[nleg++] = land;
    }
    swx_routing *r = NULL;
    swx_storm_list storms = {0};
    swx_routing_storms *nogo = NULL;
    double c1 = cpu_s();
    /* the storms' tables are built as seawx route builds them: their cost
     * is the search's */
    if (storm_path &&
        (swx_storm_read_file(storm_path, swx_storm_list_add, &storms) ||
         swx_routing_storms_new(&nogo, (const swx_storm *const *)storms.items, storms.count, NULL,
                                o.depart, o.depart + 720 * 3600, 0))) {
        fprintf(stderr, "route_bench: %s\n", swx_error_last());
        return 1;
    }
    if (nogo) {
        o.leg[nleg] = swx_routing_storms_leg;
        o.leg_ctx[nleg++] = nogo;
    }
    int rc = swx_routing_solve(&r, &o);
    double search_cpu = cpu_s() - c1;
    if (rc) {
        fprintf(stderr, "route_bench: %s\n", swx_error_last());
        return 1;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    uint64_t legs;
    double wall;
    swx_routing_stats(r, &legs, &wall);
    size_t kept = 0;
    for (size_t i = 0; i < swx_routing_nisochrones(r); i++) {
        const double *ll;
        size_t n;
        swx_routing_isochrone(r, i, &ll, &n);
        kept += n;
    }
    if (!swx_routing_found(r))
        printf("no route: %s\n", swx_routing_why(r)->message);
    else
        printf("hours %.3f distance_nm %.1f search_cpu_s %.2f land_read_cpu_s %.2f "
               "peak_rss_mib %.0f legs %llu points %zu\n",
               swx_routing_hours(r), swx_routing_distance_nm(r), search_cpu, land_cpu,
               (double)ru.ru_maxrss / 1024, (unsigned long long)legs, kept);
    swx_routing_free(r);
    swx_routing_storms_free(nogo);
    swx_storm_list_clear(&storms);
    swx_land_free(land);
    swx_polar_free(polar);
    return 0;
}

static int shear_met(void *ctx, double lat, double lon, int64_t t, swx_routing_met *out)
{
    (void)ctx;
    (void)lon;
    (void)t;
    *out = (swx_routing_met){.wind_u_kn = NAN, .wind_v_kn = NAN, .gust_kn = NAN, .wave_m = NAN};
    out->cur_u_kn = 6 * (R_NM * lat * RAD) / 50;
    return 0;
}

static int halving(void)
{
    double exact = 2 * 50 / 6.0, x0 = -(sqrt(2) + log(1 + sqrt(2))) * 50;
    printf("| time step | heading step | sector | hours | error | legs | CPU s |\n"
           "|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < 4; i++) {
        swx_routing_opts o = {.from_lon = x0 / R_NM / RAD, .depart = T0, .motor_kn = 6};
        o.met = shear_met;
        o.time_step_s = 14400 >> i;
        o.heading_step_deg = 8.0 / (1 << i);
        o.sector_nm = 4.0 / pow(2, 1.5 * i);
        swx_routing *r = NULL;
        double c = cpu_s();
        if (swx_routing_solve(&r, &o) || !swx_routing_found(r)) {
            fprintf(stderr, "route_bench: the sheared current: no route\n");
            return 1;
        }
        c = cpu_s() - c;
        uint64_t legs;
        double wall;
        swx_routing_stats(r, &legs, &wall);
        double h = swx_routing_hours(r);
        printf("| %d s | %.2f deg | %.3f nm | %.4f | %.4f %% | %llu | %.3f |\n", o.time_step_s,
               o.heading_step_deg, o.sector_nm, h, 100 * fabs(h - exact) / exact,
               (unsigned long long)legs, c);
        swx_routing_free(r);
    }
    printf("exact (2 h / V): %.4f h\n", exact);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "crossing"))
        return crossing(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "halving"))
        return halving();
    fprintf(stderr, "usage: route_bench crossing POLAR [--land FILE] [--step S] [--heading D] "
                    "[--sector NM] [--threads N] [--storm 1] | halving\n");
    return 2;
}

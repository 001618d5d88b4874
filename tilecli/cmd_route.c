/* cmd_route.c: `seawx route`, "which way?": the fastest route from a start to
 * an end through the forecast, never over land (GSHHG with a margin), with
 * the boat's polar or motor and its limits; the search is the library's
 * (seawx/route.h, docs/route.md). The forecast comes from a GRIB file
 * (--grib) or from the service, fetched as `seawx grib --bbox` fetches it
 * (only the messages, cached). Everything typed is checked before anything
 * is sent or searched; output files are written whole or not at all. */
#include "cli.h"
#include "route_run.h"

#include "seawx/atomicfile.h"
#include "seawx/error.h"
#include "seawx/grib.h"
#include "seawx/iso8601.h"
#include "seawx/land.h"
#include "seawx/number.h"
#include "seawx/outputs.h"
#include "seawx/plan.h"
#include "seawx/readfile.h"
#include "seawx/route.h"
#include "seawx/route_chart.h"
#include "seawx/route_inputs.h"
#include "seawx/route_out.h"
#include "seawx/route_storms.h"
#include "seawx/storm.h"
#include "seawx/storm_danger.h"
#include "seawx/voyage.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROUTE_MAX_FILE (16u << 20)
/* --wait: departures this far apart are tried, up to this many hours. */
#define ROUTE_WAIT_STEP_H 3
#define ROUTE_WAIT_MAX_H 240

const cli_opt cmd_route_opts[] = {
    {"from", 0, "LAT,LON", "the start, decimal degrees (north and east positive)", 0, NULL},
    {"to", 0, "LAT,LON", "the end", 0, NULL},
    {"route", 0, "FILE",
     "instead of --from and --to: waypoints to pass in order, a CSV of lat,lon lines or a "
     "GeoJSON LineString (as seawx plan reads); the fastest route from each to the next",
     0, NULL},
    {"depart", 0, "TIME",
     "the departure, ISO 8601 (default: the next whole hour, or the forecast's first time if "
     "later)",
     0, NULL},
    {"polar", 0, "FILE",
     "sail by this polar (TWA\\TWS table, as OpenCPN, Expedition and qtVlm read it); upwind and "
     "downwind of what it sails well the boat tacks or gybes",
     0, NULL},
    {"speed", 0, "KN",
     "motor at this speed through the water; with --polar: the motoring speed below "
     "--motor-below",
     0, NULL},
    {"motor-below", 0, "SPEED", "with --polar and --speed: motor when the wind is lighter", 0,
     NULL},
    {"motor-floor", 0, NULL,
     "with --polar and --speed: motor wherever sailing makes less than --speed (the boat of "
     "seawx plan --polar --speed)",
     0, NULL},
    {"max-wind", 0, "SPEED", "never sail in more true wind than this: 25kn, 12.5m/s, 45km/h", 0,
     NULL},
    {"max-gust", 0, "SPEED", "never sail in stronger gusts than this", 0, NULL},
    {"max-wave", 0, "HEIGHT", "never sail in higher significant waves than this: 3m, 10ft", 0,
     NULL},
    {"min-twa", 0, "DEG", "never sail closer to the true wind than this (tacks included)", 0, NULL},
    {"grib", 0, "FILE",
     "the forecast from this GRIB file (GRIB1 or GRIB2: 10 m wind, and gust, waves and ocean "
     "currents when it holds them) instead of the service",
     0, NULL},
    {"save-grib", 0, "FILE", "keep the forecast fetched from the service in this GRIB2 file", 0,
     NULL},
    {"cache", 0, "DIR",
     "where the forecast's messages are kept (default $SEAWX_CACHE_DIR/grib, else "
     "~/.cache/seawx/grib), as seawx grib keeps them",
     0, NULL},
    {"no-cache", 0, NULL, "keep no forecast message on disk", 0, NULL},
    {"land-margin", 0, "NM", "keep this far off land, nautical miles", 0, "1"},
    {"storms", 0, "FILE",
     "the storms from this saved /storm/json answer (seawx storms --input reads the same) "
     "instead of the service's active storms",
     0, NULL},
    {"no-storms", 0, NULL,
     "leave the storms out (by default the route keeps out of every active storm's 34 kt "
     "winds and 1-2-3 danger area at every moment)",
     0, NULL},
    {"storm-margin", 0, "NM", "keep this much farther off every storm's area", 0, "0"},
    {"danger-errors", 0, "E24,E48,E72",
     "the 1-2-3 danger area's track errors, nm (default 100,200,300)", 0, NULL},
    {"wait", 0, "HOURS",
     "the boat may wait up to this long before leaving (every 3 h is tried): the route that "
     "arrives first, and the one way past a storm that blocks every route now",
     0, NULL},
    {"coastline", 0, "RES",
     "GSHHG resolution: f full (default), h high, i intermediate, l low, c crude", 0, NULL},
    {"heading-step", 0, "DEG",
     "degrees between the headings tried (at 3, at most 0.034 % slower than exact)", 0,
     CLI_STR(SWX_ROUTING_HEADING_STEP_DEG)},
    {"time-step", 0, "MIN",
     "minutes between isochrones everywhere (default: 6 h offshore with narrow sectors, finer "
     "near the end and where land blocks legs: the fastest and, measured, the closest to exact)",
     0, NULL},
    {"max-days", 0, "D", "give up after this many days at sea", 0, "30"},
    {"threads", 0, "N", "threads for the search (default: the machine's cores, at most 8)", 0,
     NULL},
    {"gpx", 0, "FILE", "the route as GPX: OpenCPN imports it as a route, with times", 0, NULL},
    {"geojson", 0, "FILE",
     "the route's points as GeoJSON, each with its time, course, speeds, wind, waves and "
     "current",
     0, NULL},
    {"isochrones", 0, "FILE", "the isochrones as GeoJSON lines with their times (for QGIS)", 0,
     NULL},
    {"track", 0, "FILE",
     "the route as a timed track (a GeoJSON LineString with each point's time): the route file "
     "seawx grib --route, seawx voyage --route and seawx storms --route read, so that the "
     "forecast and the package follow the route found",
     0, NULL},
    {"json", 0, "FILE", "the summary as JSON (- for stdout), or why there is no route", 0, NULL},
    {"chart", 0, "FILE.png",
     "a PNG chart of the route: land, isochrones, the route coloured by the wind, the storm that "
     "came nearest at that moment, the start and end with their times, a scale in nm",
     0, NULL},
    {"chart-size", 0, "WxH", "the chart's size in pixels, 320 to 8000 each (default 1200x900)", 0,
     NULL},
    {"quiet", 'q', NULL, "no progress lines", 0, NULL},
    {0},
};

/* "LAT,LON" into lat, lon: decimal numbers, -90..90 and -180..180. */
static int read_position(double *lat, double *lon, const cli_args *a, const char *name)
{
    const char *v = cli_get(a, name);
    const char *end;
    if (!v) {
        cli_error("a route needs --from LAT,LON and --to LAT,LON");
        return EXIT_USAGE;
    }
    /* decimal degrees only: no hexadecimal, inf or nan */
    if (swx_number_scan(lat, v, &end) == 0 && *end == ',' && swx_number_parse(lon, end + 1) == 0 &&
        fabs(*lat) <= 90 && fabs(*lon) <= 180)
        return 0;
    cli_error("--%s '%s': LAT,LON in decimal degrees (latitude -90 to 90, longitude -180 to 180)",
              name, v);
    return EXIT_USAGE;
}

static int read_threshold(double *out, const cli_args *a, const char *name, int kind)
{
    const char *v = cli_get(a, name);
    *out = 0;
    if (v && swx_plan_threshold_parse(out, v, kind)) {
        cli_error("--%s %s", name, swx_error_last());
        return EXIT_USAGE;
    }
    return 0;
}

/* --route FILE's waypoints into p. */
static int read_waypoints(route_args *p)
{
    char *text;
    size_t len;
    swx_voyage *v = NULL;
    int rc;
    if ((rc = swx_read_file(&text, &len, p->route_file, ROUTE_MAX_FILE)))
        return cli_fail(rc);
    rc = swx_voyage_from_route(&v, text, len);
    free(text);
    size_t n = rc ? 0 : swx_voyage_waypoint_count(v);
    if (!rc && swx_voyage_timed(v))
        rc = swx_error_set(SWX_EINVAL, "the route gives waypoint times; seawx route finds them");
    else if (!rc && (n < 2 || n > ROUTE_MAX_WAYPOINTS))
        rc = swx_error_set(SWX_EINVAL, "%zu waypoints: a route passes 2 to %d", n,
                           ROUTE_MAX_WAYPOINTS);
    for (size_t i = 0; !rc && i < n; i++) {
        int64_t t;
        swx_voyage_waypoint(&p->wp_lon[i], &p->wp_lat[i], &t, v, i);
        if (i && p->wp_lat[i] == p->wp_lat[i - 1] && p->wp_lon[i] == p->wp_lon[i - 1])
            rc = swx_error_set(SWX_EINVAL, "waypoints %zu and %zu are the same place", i, i + 1);
    }
    swx_voyage_free(v);
    if (rc) {
        cli_error("--route %s: %s", p->route_file, swx_error_last());
        return EXIT_USAGE;
    }
    p->nwp = n;
    return 0;
}

/* The waypoints: --route FILE's, or --from and --to. */
static int read_places(route_args *p, const cli_args *a)
{
    int exit_code;
    p->route_file = cli_get(a, "route");
    if (p->route_file) {
        if (cli_has(a, "from") || cli_has(a, "to")) {
            cli_error("--route FILE gives the waypoints: not with --from and --to");
            return EXIT_USAGE;
        }
        if ((exit_code = read_waypoints(p)))
            return exit_code;
    } else {
        if ((exit_code = read_position(&p->wp_lat[0], &p->wp_lon[0], a, "from")) ||
            (exit_code = read_position(&p->wp_lat[1], &p->wp_lon[1], a, "to")))
            return exit_code;
        p->nwp = 2;
        if (p->wp_lat[0] == p->wp_lat[1] && p->wp_lon[0] == p->wp_lon[1]) {
            cli_error("--from and --to are the same place: nothing to route");
            return EXIT_USAGE;
        }
    }
    for (size_t i = 0; i < p->nwp; i++)
        if (fabs(p->wp_lat[i]) > 85) {
            cli_error("routes go between 85 S and 85 N (the forecast's grids and GSHHG's bins)");
            return EXIT_USAGE;
        }
    route_ends(p);
    return 0;
}

/* The start, end, boat and limits into *p. */
static int read_boat_args(route_args *p, const cli_args *a)
{
    swx_routing_opts *o = &p->o;
    int exit_code;
    if ((exit_code = read_places(p, a)))
        return exit_code;
    const char *depart = cli_get(a, "depart");
    if (depart) {
        if (swx_iso8601_parse(&o->depart, depart)) {
            cli_error("--depart '%s': an ISO 8601 time (2024-10-08T06:00Z)", depart);
            return EXIT_USAGE;
        }
        p->has_depart = 1;
    }
    p->polar_file = cli_get(a, "polar");
    if (!p->polar_file && !cli_has(a, "speed")) {
        cli_error("a route needs --polar FILE, or --speed KN to motor");
        return EXIT_USAGE;
    }
    o->motor_kn = o->min_twa_deg = 0;
    if (cli_get_double(&o->motor_kn, a, "speed", 0.1, 60) ||
        cli_get_double(&o->min_twa_deg, a, "min-twa", 1, 179))
        return EXIT_USAGE;
    if ((exit_code = read_threshold(&o->max_tws_kn, a, "max-wind", 's')) ||
        (exit_code = read_threshold(&o->max_gust_kn, a, "max-gust", 's')) ||
        (exit_code = read_threshold(&o->max_wave_m, a, "max-wave", 'h')) ||
        (exit_code = read_threshold(&o->motor_below_kn, a, "motor-below", 's')))
        return exit_code;
    if (o->motor_below_kn > 0 && (!p->polar_file || o->motor_kn <= 0)) {
        cli_error("--motor-below needs --polar FILE and --speed KN (the motoring speed)");
        return EXIT_USAGE;
    }
    o->motor_floor = cli_has(a, "motor-floor");
    if (o->motor_floor && (!p->polar_file || o->motor_kn <= 0)) {
        cli_error("--motor-floor needs --polar FILE and --speed KN (the motoring speed)");
        return EXIT_USAGE;
    }
    return 0;
}

/* The search's settings, land and the forecast's source into *p. */
static int read_search_args(route_args *p, const cli_args *a)
{
    swx_routing_opts *o = &p->o;
    long step_min = 0, days;
    const char *res = cli_get(a, "coastline");
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    threads = threads < 1 ? 1 : threads > 8 ? 8 : threads;
    if (cli_get_double(&o->heading_step_deg, a, "heading-step", 0.5, 15) ||
        cli_get_int(&step_min, a, "time-step", 5, 360) ||
        cli_get_int(&days, a, "max-days", 1, 60) || cli_get_int(&threads, a, "threads", 1, 64) ||
        cli_get_double(&p->land_margin_nm, a, "land-margin", 0, 50))
        return EXIT_USAGE;
    o->time_step_s = (int)step_min * 60;
    o->max_hours = (double)days * 24;
    o->threads = (int)threads;
    if (res && (strlen(res) != 1 || !strchr("fhilc", res[0]))) {
        cli_error("--coastline '%s': f (full), h, i, l or c (crude)", res);
        return EXIT_USAGE;
    }
    p->coastline = res ? res[0] : 'f';
    p->grib = cli_get(a, "grib");
    p->save_grib = cli_get(a, "save-grib");
    if (p->grib && p->save_grib) {
        cli_error("--save-grib keeps what is fetched from the service: not with --grib");
        return EXIT_USAGE;
    }
    p->storms_file = cli_get(a, "storms");
    p->no_storms = cli_has(a, "no-storms");
    if (p->no_storms && (p->storms_file || cli_has(a, "storm-margin") ||
                         cli_has(a, "danger-errors") || cli_has(a, "wait"))) {
        cli_error("--storms, --storm-margin, --danger-errors and --wait go with the storms: not "
                  "with --no-storms");
        return EXIT_USAGE;
    }
    p->wait_h = 0;
    if (cli_get_double(&p->storm_margin_nm, a, "storm-margin", 0, 500) ||
        cli_get_int(&p->wait_h, a, "wait", 0, ROUTE_WAIT_MAX_H))
        return EXIT_USAGE;
    return 0;
}

/* The outputs into *p, and that no two of them, nor an input, are one file. */
static int read_output_args(route_args *p, const cli_args *a)
{
    const char *outs[7],
        *names[7] = {"gpx", "geojson", "isochrones", "json", "track", "chart", "save-grib"};
    p->gpx = outs[0] = cli_get(a, "gpx");
    p->geojson = outs[1] = cli_get(a, "geojson");
    p->isochrones = outs[2] = cli_get(a, "isochrones");
    p->json = outs[3] = cli_get(a, "json");
    p->track = outs[4] = cli_get(a, "track");
    p->chart = outs[5] = cli_get(a, "chart");
    if (cli_chart_size(&p->chart_w, &p->chart_h, a, SWX_ROUTING_CHART_W, SWX_ROUTING_CHART_H))
        return EXIT_USAGE;
    if (cli_has(a, "chart-size") && !p->chart) {
        cli_error("--chart-size is the chart's setting: it needs --chart FILE.png");
        return EXIT_USAGE;
    }
    outs[6] = p->save_grib;
    const char *inputs[4] = {p->polar_file, p->grib, p->storms_file, p->route_file};
    const char *flags[7] = {"--gpx",   "--geojson", "--isochrones", "--json",
                            "--track", "--chart",   "--save-grib"};
    int rc;
    if ((rc = swx_outputs_distinct(outs, flags, 7)))
        return cli_fail(rc);
    for (int i = 0; i < 7; i++) {
        if (!outs[i])
            continue;
        if (strcmp(outs[i], "-") == 0) {
            if (i == 3)
                continue;
            cli_error("--%s needs a file name (only --json writes to stdout, with -)", names[i]);
            return EXIT_USAGE;
        }
        rc = swx_atomicfile_target(NULL, NULL, outs[i], i < 6 ? SWX_ATOMICFILE_STREAM : 0, inputs,
                                   4);
        if (rc)
            return cli_fail(rc);
    }
    return 0;
}

static int read_args(route_args *p, const cli_args *a)
{
    int exit_code;
    memset(p, 0, sizeof *p);
    if (a->npositional) {
        cli_error("unexpected argument '%s' (see 'seawx route --help')", a->positional[0]);
        return EXIT_USAGE;
    }
    if ((exit_code = read_boat_args(p, a)) || (exit_code = read_search_args(p, a)) ||
        (exit_code = read_output_args(p, a)))
        return exit_code;
    route_area(p);
    return 0;
}

/* --polar FILE into r->polar and p->o. */
static int read_polar(route_run *r, route_args *p)
{
    char *text;
    size_t len;
    int rc;
    if ((rc = swx_read_file(&text, &len, p->polar_file, ROUTE_MAX_FILE)))
        return cli_fail(rc);
    rc = swx_polar_parse(&r->polar, text, len);
    free(text);
    if (rc) {
        cli_error("--polar %s: %s", p->polar_file, swx_error_last());
        return EXIT_USAGE;
    }
    p->o.polar = r->polar;
    return 0;
}

/* The forecast opened (from --grib or the service) and the departure in it. */
static int open_forecast(route_run *r, route_args *p, const cli_args *a)
{
    const char *path = p->grib;
    int exit_code, rc;
    if (!path && (exit_code = route_fetch_forecast(r, p, a, &path)))
        return exit_code;
    rc = swx_routing_forecast_open(&r->fc, path, p->south, p->west, p->north, p->east);
    if (rc) {
        if (p->grib && (rc == SWX_EINVAL || rc == SWX_EPARSE)) {
            cli_error("--grib %s: %s", p->grib, swx_error_last());
            return EXIT_USAGE;
        }
        return cli_fail(rc);
    }
    int64_t first = swx_routing_forecast_first(r->fc), last = swx_routing_forecast_last(r->fc);
    char f[SWX_ISO8601_LEN], l[SWX_ISO8601_LEN];
    swx_iso8601_format(f, first);
    swx_iso8601_format(l, last);
    if (!p->has_depart) {
        /* now, at the next whole hour, or the forecast's first time if later */
        int64_t now = (int64_t)time(NULL), hour = (now + 3599) / 3600 * 3600;
        char d[SWX_ISO8601_LEN];
        p->o.depart = hour > first ? hour : first;
        swx_iso8601_format(d, p->o.depart);
        cli_info("departing at %s (--depart to choose)", d);
    }
    if (p->o.depart < first || p->o.depart >= last) {
        char d[SWX_ISO8601_LEN];
        swx_iso8601_format(d, p->o.depart);
        cli_error("--depart %s is outside the forecast, which runs from %s to %s", d, f, l);
        return EXIT_USAGE;
    }
    p->o.met = swx_routing_forecast_met;
    p->o.met_ctx = r->fc;
    return 0;
}

/* The storms (--storms FILE, or the service's active ones) as no-go areas
 * over every moment the search (and --wait) may reach. */
static int open_storms(route_run *r, route_args *p, const cli_args *a)
{
    int exit_code, rc;
    if (p->no_storms)
        return 0;
    if ((exit_code = cli_danger_read(&r->danger, a)))
        return exit_code;
    if (p->storms_file) {
        /* its errors name the file, as seawx storms --input's do */
        rc = swx_storm_read_file(p->storms_file, cli_keep_storm, &r->storms);
        if (rc)
            return cli_stop_or_fail(rc, "nothing written");
    } else if ((exit_code = route_fetch_active_storms(&r->storms, a))) {
        return exit_code;
    }
    int64_t t1 = p->o.depart + (int64_t)((double)p->wait_h + p->o.max_hours) * 3600;
    if ((exit_code =
             route_open_nogo(r, &r->storms, r->danger, p->o.depart, t1, p->storm_margin_nm)))
        return exit_code;
    size_t n = swx_routing_storms_count(r->nogo);
    if (n) {
        char u[SWX_ISO8601_LEN];
        swx_iso8601_format(u, swx_routing_storms_until(r->nogo));
        cli_info("storms: %zu of %zu meet the voyage's time: the route keeps out of their 34 kt "
                 "winds and danger areas (forecast to %s)",
                 n, r->storms.count, u);
    } else {
        cli_info("storms: none of the %zu meets the voyage's time", r->storms.count);
    }
    return 0;
}

/* ---- output ---- */

typedef int (*write_fn)(FILE *f, const swx_routing *r, const swx_routing_info *in);

static int isochrones_fn(FILE *f, const swx_routing *r, const swx_routing_info *in)
{
    (void)in;
    return swx_routing_write_isochrones(f, r);
}

/* Writes one output (path, "-" for stdout) whole or not at all. */
static int write_out(const char *path, write_fn fn, const swx_routing *r,
                     const swx_routing_info *in)
{
    int rc;
    if (strcmp(path, "-") == 0) {
        rc = fn(stdout, r, in);
        if (!rc && fflush(stdout) != 0)
            rc = swx_error_set(SWX_EIO, "writing the output failed: %s", strerror(errno));
        return rc ? cli_fail(rc) : 0;
    }
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    if ((rc = swx_atomicfile_open(&af, path, 0666, SWX_ATOMICFILE_STREAM)) == 0) {
        if ((rc = fn(af.f, r, in)) != 0) {
            swx_error_prefix(rc, "%s", path);
            swx_atomicfile_abort(&af);
        } else {
            rc = swx_atomicfile_commit(&af);
        }
    }
    return rc ? cli_fail(rc) : 0;
}

static void fmt_time(char out[SWX_ISO8601_LEN], int64_t t)
{
    char iso[SWX_ISO8601_LEN];
    swx_iso8601_format(iso, t);
    snprintf(out, SWX_ISO8601_LEN, "%.10s %.5sZ", iso, iso + 11);
}

/* The table: one row a point, every `every` points and the last. */
static void write_table(FILE *f, const swx_routing *r)
{
    const swx_routing_point *p = swx_routing_points(r);
    size_t n = swx_routing_npoints(r), every = n > 60 ? (n + 59) / 60 : 1;
    fprintf(f, "%-17s %9s %10s %4s %6s %6s %5s %5s %6s %s\n", "time", "lat", "lon", "cog", "sog kn",
            "bsp kn", "tws", "twa", "wave m", "");
    for (size_t i = 0; i < n; i++) {
        if (i % every && i + 1 != n)
            continue;
        char t[SWX_ISO8601_LEN];
        fmt_time(t, p[i].time);
        char wave[16] = "-"; /* a forecast without waves */
        if (!isnan(p[i].wave_m))
            snprintf(wave, sizeof wave, "%.1f", p[i].wave_m);
        fprintf(f, "%-17s %9.4f %10.4f %4.0f %6.1f %6.1f %5.0f %5.0f %6s %s\n", t, p[i].lat,
                p[i].lon, p[i].cog_deg, p[i].sog_kn, p[i].bsp_kn, p[i].tws_kn, fabs(p[i].twa_deg),
                wave,
                p[i].motoring  ? "motor"
                : p[i].tacking ? "tacking"
                               : "");
    }
}

static int write_outputs(const route_run *r, const route_args *p, const swx_routing_info *in)
{
    int exit_code;
    if ((p->gpx && (exit_code = write_out(p->gpx, swx_routing_write_gpx, r->route, in))) ||
        (p->geojson &&
         (exit_code = write_out(p->geojson, swx_routing_write_geojson, r->route, in))) ||
        (p->isochrones && (exit_code = write_out(p->isochrones, isochrones_fn, r->route, in))) ||
        (p->json && (exit_code = write_out(p->json, swx_routing_write_json, r->route, in))) ||
        (p->track && (exit_code = write_out(p->track, swx_routing_write_track, r->route, in))))
        return exit_code;
    if (p->chart) {
        /* the waypoints passed between the start and the end, lat/lon pairs */
        double wp[2 * ROUTE_MAX_WAYPOINTS];
        size_t n = 0;
        for (size_t i = 1; i + 1 < p->nwp; i++, n++) {
            wp[2 * n] = p->wp_lat[i];
            wp[2 * n + 1] = p->wp_lon[i];
        }
        int rc = swx_routing_chart_png(r->route, r->land, r->nogo, n ? wp : NULL, n, p->chart,
                                       p->chart_w, p->chart_h);
        if (rc)
            return cli_fail(rc);
    }
    return 0;
}

/* Which storm blocked the search, as " (HELGA: inside its 34 kt winds, 80
 * nm from its centre, at 2024-10-08 06:00Z)", or "". */
static void blocking_storm(char *out, size_t size, const route_run *r,
                           const swx_routing_reason *why)
{
    swx_routing_storm_near s;
    char t[SWX_ISO8601_LEN];
    out[0] = 0;
    if (!r->nogo || (why->cause != SWX_ROUTING_STORM && why->blocked_by != SWX_ROUTING_STORM) ||
        !swx_routing_storms_at(r->nogo, why->lat, why->lon, why->time, &s))
        return;
    fmt_time(t, s.time);
    snprintf(out, size, " (%s: %s its %s, %.0f nm from its centre, at %s)", s.title,
             s.clear_nm < 0 ? "inside" : "near", s.inside_r34 ? "34 kt winds" : "danger area",
             s.centre_nm, t);
}

/* The search from the departure asked for, and with --wait from every
 * ROUTE_WAIT_STEP_H hours after it within the forecast: the route that
 * arrives first into r->route (the first departure's reason when none is
 * found). */
static int solve(route_run *r, route_args *p, int64_t last)
{
    int64_t depart0 = p->o.depart, best_depart = depart0;
    swx_routing *best = NULL;
    size_t best_leg = 0;
    int rc = 0;
    for (long w = 0; w <= p->wait_h && !rc; w += ROUTE_WAIT_STEP_H) {
        swx_routing *cur = NULL;
        p->o.depart = depart0 + (int64_t)w * 3600;
        if (w && p->o.depart >= last)
            break;
        if ((rc = route_solve_legs(r, p, &cur)))
            break;
        if (p->wait_h) {
            char d[SWX_ISO8601_LEN], t[SWX_ISO8601_LEN];
            fmt_time(d, p->o.depart);
            if (swx_routing_found(cur))
                fmt_time(t, route_arrival(cur));
            cli_progress(0, "wait: leaving %s, %s%s", d,
                         swx_routing_found(cur) ? "arriving " : "no route: ",
                         swx_routing_found(cur) ? t : swx_routing_why(cur)->message);
        }
        if (!best || (swx_routing_found(cur) &&
                      (!swx_routing_found(best) || route_arrival(cur) < route_arrival(best)))) {
            swx_routing_free(best);
            best = cur;
            best_depart = p->o.depart;
            best_leg = r->failed_leg;
        } else {
            swx_routing_free(cur);
        }
    }
    cli_progress(0, NULL);
    p->o.depart = best ? best_depart : depart0;
    r->route = best;
    r->failed_leg = best_leg;
    if (rc) {
        swx_routing_free(best);
        r->route = NULL;
    }
    return rc;
}

/* The search, its outputs and the summary line (or why there is no route). */
static int search(route_run *r, route_args *p)
{
    int64_t asked = p->o.depart;
    swx_routing_storm_near near;
    swx_routing_info in = {&p->o,
                           NULL,
                           p->polar_file,
                           p->grib ? p->grib : "the service",
                           p->land_margin_nm,
                           p->coastline,
                           r->nogo ? (long)swx_routing_storms_count(r->nogo) : -1,
                           NULL,
                           asked};
    int rc = solve(r, p, swx_routing_forecast_last(r->fc));
    if (rc)
        return cli_stop_or_fail(rc, "nothing written");
    if (!swx_routing_found(r->route)) {
        const swx_routing_reason *why = swx_routing_why(r->route);
        char storm[160];
        blocking_storm(storm, sizeof storm, r, why);
        if (p->json && strcmp(p->json, "-") == 0)
            write_out(p->json, swx_routing_write_json, r->route, &in);
        char leg[64];
        route_leg_text(leg, sizeof leg, p, r);
        cli_error("no route%s: %s%s%s", leg, why->message, storm,
                  storm[0] && !p->wait_h ? "; --wait HOURS tries later departures" : "");
        return EXIT_NO_ROUTE;
    }
    if (r->nogo && swx_routing_storms_nearest(r->nogo, r->route, &near))
        in.storm_nearest = &near;
    int exit_code = write_outputs(r, p, &in);
    if (exit_code)
        return exit_code;
    if (!(p->json && strcmp(p->json, "-") == 0)) {
        write_table(stdout, r->route);
        if (fflush(stdout) != 0)
            return cli_fail(
                swx_error_set(SWX_EIO, "writing the table failed: %s", strerror(errno)));
    }
    swx_routing_summary s;
    swx_routing_summarize(&s, r->route);
    char arrive[SWX_ISO8601_LEN], leave[SWX_ISO8601_LEN];
    const swx_routing_point *pts = swx_routing_points(r->route);
    fmt_time(arrive, route_arrival(r->route));
    fmt_time(leave, pts[0].time);
    if (pts[0].time != asked)
        cli_info("waiting %.0f h: leaving %s", (double)(pts[0].time - asked) / 3600, leave);
    if (in.storm_nearest) {
        char t[SWX_ISO8601_LEN];
        fmt_time(t, near.time);
        cli_info("storms: %s comes nearest, %.0f nm from its centre and %.0f nm outside its "
                 "area, at %s",
                 near.title, near.centre_nm, near.clear_nm, t);
    }
    cli_summary("route: %.1f nm in %.1f h (%.1f days), arriving %s; strongest wind %.0f kn",
                s.distance_nm, s.hours, s.hours / 24, arrive, s.max_tws_kn);
    return 0;
}

int cmd_route(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    route_args p;
    route_run r;
    cli_signals sig;
    int exit_code;
    memset(&r, 0, sizeof r);
    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    cli_set_quiet(cli_has(&a, "quiet"));
    if ((exit_code = read_args(&p, &a)))
        return exit_code;
    if (!(p.polar_file && (exit_code = read_polar(&r, &p))) &&
        !(exit_code = route_open_land(&r, &p))) {
        cli_signals_catch(&sig);
        if (!(exit_code = open_forecast(&r, &p, &a)) && !(exit_code = open_storms(&r, &p, &a))) {
            p.o.leg[0] = swx_routing_land_leg;
            p.o.leg_ctx[0] = r.land;
            if (swx_routing_storms_count(r.nogo)) {
                p.o.leg[1] = swx_routing_storms_leg;
                p.o.leg_ctx[1] = r.nogo;
            }
            p.o.to_end = swx_routing_water_to_end;
            p.o.cancel = &cli_stop_soft;
            exit_code = search(&r, &p);
        }
        cli_signals_release(&sig);
    }
    route_run_free(&r);
    return exit_code;
}

/* cmd_plan.c: `seawx plan`, the departure planner: "which day do we leave?".
 * One route sailed from many departures through the forecast along it (one
 * point forecast per sample point, whatever the number of departures) and
 * the storms, each departure with its figures and a verdict; the work is the
 * library's (seawx/plan.h, docs/plan.md). Everything typed is checked before
 * anything is sent; output files are written whole or not at all. */
#include "cli.h"
#include "dataout.h"
#include "route_run.h"

#include "seawx/atomicfile.h"
#include "seawx/outputs.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/plan.h"
#include "seawx/readfile.h"
#include "seawx/route_out.h"
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

#define PLAN_MAX_FILE (16u << 20)

const cli_opt cmd_plan_opts[] = {
    {"route", 0, "FILE",
     "the route: GeoJSON LineString or CSV waypoints (lat,lon), without waypoint times", 0, NULL},
    {"departures", 'd', "FROM/TO/STEP",
     "the departures: two ISO 8601 times and a step (6h, 90m, 1d), at most 500", 0, NULL},
    {"speed", 0, "KN|MIN-MAX",
     "the speed or speed band in knots (a band: the slow and the fast ship, the worse of "
     "the two); with --polar: the motoring speed, the least the boat makes",
     0, NULL},
    {"polar", 0, "FILE",
     "sail by this polar (TWA\\TWS table, as OpenCPN, Expedition and qtVlm read it): the boat "
     "speed from the wind met, one track per departure",
     0, NULL},
    {"spacing", 0, "NM", "nautical miles between sample points of the route", 0,
     CLI_STR(SWX_PLAN_DEFAULT_SPACING_NM)},
    {"from", 0, "FILE",
     "the forecast from this voyage GRIB (seawx grib: GRIB2 or GRIB1, .bz2 or not) instead of "
     "point forecasts: the nearest grid node to each sample point, nothing asked for it",
     0, NULL},
    {"max-wind", 0, "SPEED", "wind above this is a no-go: 25kn, 12.5m/s, 45km/h, 30mph", 0, NULL},
    {"max-gust", 0, "SPEED", "gusts above this are a no-go (units as --max-wind)", 0, NULL},
    {"max-wave", 0, "HEIGHT", "significant wave height above this is a no-go: 3m, 10ft", 0, NULL},
    {"max-upwind", 0, "HOURS", "more hours upwind than this are a no-go", 0, NULL},
    {"upwind-angle", 0, "DEG", "upwind: the true wind within this angle of the course", 0, "50"},
    {"best", 0, NULL,
     "best departures first: go, then marginal, judged over the whole voyage; then go and "
     "marginal judged on the part the forecast covers; no-go last (within each, the least wind)",
     0, NULL},
    {"json", 0, "FILE", "the plan as JSON (- for stdout): every figure and the sample points", 0,
     NULL},
    {"csv", 0, "FILE", "the plan as CSV, one departure a row (- for stdout)", 0, NULL},
    {"table", 0, NULL,
     "also the table on stdout when --json or --csv writes a file (without them it is the "
     "output)",
     0, NULL},
    {"chart", 0, "FILE.png",
     "a PNG chart of the plan: departures across, distance along the route down, each cell "
     "coloured by what the ship meets there, storms hatched, a row of verdicts under it",
     0, NULL},
    {"chart-by", 0, "wind|waves", "what colours the chart's cells (default wind)", 0, NULL},
    {"chart-size", 0, "WxH", "the chart's size in pixels, 320 to 8000 each (default 1200x800)", 0,
     NULL},
    {"routed", 0, NULL,
     "also sail each departure on its own fastest route (seawx route's search, through the "
     "route's waypoints, inside --max-wind, --max-gust and --max-wave, off land and out of the "
     "storms): its arrival and figures beside the fixed route's",
     0, NULL},
    {"land-margin", 0, "NM", "with --routed: keep this far off land, nautical miles", 0, "1"},
    {"no-storms", 0, NULL, "leave the storms out (by default the active storms are fetched)", 0,
     NULL},
    CLI_OPT_CONE_RADII,
    CLI_OPT_DANGER_ERRORS,
    {"in-flight", 0, "N", "point forecasts asked at once", 0, "4"},
    {"timing", 0, NULL, "say on stderr how long the plan took to compute, in CPU time", 0, NULL},
    {"quiet", 'q', NULL, "no progress lines", 0, NULL},
    {0},
};

/* ---- output ---- */

static void fmt_short(char out[SWX_ISO8601_LEN], double t)
{
    char iso[SWX_ISO8601_LEN];
    if (isnan(t)) {
        snprintf(out, SWX_ISO8601_LEN, "-");
        return;
    }
    swx_iso8601_format(iso, (int64_t)llround(t)); /* YYYY-MM-DDTHH:MM:SSZ */
    snprintf(out, SWX_ISO8601_LEN, "%.5s %.5sZ", iso + 5, iso + 11);
}

static void fmt_num(char *out, size_t n, double v, int decimals)
{
    if (isnan(v))
        snprintf(out, n, "-");
    else
        snprintf(out, n, "%.*f", decimals, v);
}

/* A departure's own route in the table: its arrival and the hours it gains
 * on the fixed route's latest arrival, or "no route". */
static void fmt_routed(char *out, size_t n, const swx_plan_routed *x, const swx_plan_departure *r)
{
    char t[SWX_ISO8601_LEN];
    if (!x->found) {
        snprintf(out, n, "no route");
        return;
    }
    fmt_short(t, (double)x->arrive);
    if (isnan(r->arrive_late))
        snprintf(out, n, "%s", t);
    else
        snprintf(out, n, "%s %+.1fh", t, ((double)x->arrive - r->arrive_late) / 3600);
}

static void write_table(FILE *f, const swx_plan *p, const size_t *order,
                        const swx_plan_routed *routed)
{
    fprintf(f, "%-12s  %-27s ", "departure", "arrival");
    if (routed)
        fprintf(f, "%-21s ", "routed arrival");
    fprintf(f, "%7s %7s %6s %8s  %-22s %-8s %s\n", "wind kn", "gust kn", "wave m", "upwind h",
            "storm (cpa nm)", "verdict", "why");
    for (size_t k = 0; k < swx_plan_count(p); k++) {
        const swx_plan_departure *r = swx_plan_row(p, order[k]);
        char d[SWX_ISO8601_LEN], a0[SWX_ISO8601_LEN], a1[SWX_ISO8601_LEN], arr[48];
        char w[16], g[16], h[16], u[16], st[40];
        fmt_short(d, (double)r->depart);
        fmt_short(a0, r->arrive_early);
        fmt_short(a1, r->arrive_late);
        if (r->arrive_early == r->arrive_late || isnan(r->arrive_early))
            snprintf(arr, sizeof arr, "%s", a0);
        else
            snprintf(arr, sizeof arr, "%s..%s", a0, a1);
        fmt_num(w, sizeof w, r->max_wind_kn, 0);
        fmt_num(g, sizeof g, r->max_gust_kn, 0);
        fmt_num(h, sizeof h, r->max_wave_m, 1);
        fmt_num(u, sizeof u, r->hours_upwind, 0);
        if (r->storm_title)
            snprintf(st, sizeof st, "%.14s (%.0f)", r->storm_title, r->storm_cpa_nm);
        else
            snprintf(st, sizeof st, "-");
        /* A verdict on part of the voyage says so on its line: the reason
         * names the rule that decided it, which may be another. */
        const char *why = r->reason ? r->reason : "";
        const char *part =
            r->partial && strcmp(why, SWX_PLAN_REASON_PARTIAL) != 0
                ? (*why ? "; forecast ends before arrival" : "forecast ends before arrival")
                : "";
        fprintf(f, "%-12s  %-27s ", d, arr);
        if (routed) {
            char ra[48];
            fmt_routed(ra, sizeof ra, &routed[order[k]], r);
            fprintf(f, "%-21s ", ra);
        }
        fprintf(f, "%7s %7s %6s %8s  %-22s %-8s %s%s\n", w, g, h, u, st,
                swx_plan_verdict_name(r->verdict), why, part);
    }
}

/* Writes one output (path, "-" for stdout) whole or not at all. */
static int write_out(const char *path, int (*fn)(FILE *, void *), void *ud)
{
    int rc;
    if (strcmp(path, "-") == 0) {
        rc = fn(stdout, ud);
        if (!rc && fflush(stdout) != 0)
            rc = swx_error_set(SWX_EIO, "writing the output failed");
        return rc ? cli_fail(rc) : 0;
    }
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    if ((rc = swx_atomicfile_open(&af, path, 0666, SWX_ATOMICFILE_STREAM)) == 0) {
        if ((rc = fn(af.f, ud)) != 0) {
            swx_error_prefix(rc, "%s", path);
            swx_atomicfile_abort(&af);
        } else {
            rc = swx_atomicfile_commit(&af);
        }
    }
    return rc ? cli_fail(rc) : 0;
}

typedef struct out_ctx {
    const swx_plan *p;
    const size_t *order;
    const swx_plan_info *info;
} out_ctx;

static int json_fn(FILE *f, void *ud)
{
    out_ctx *c = ud;
    return swx_plan_write_json(f, c->p, c->order, c->info);
}

static int csv_fn(FILE *f, void *ud)
{
    out_ctx *c = ud;
    return swx_plan_write_csv(f, c->p, c->order, c->info->routed);
}

/* ---- --best ---- */

static const swx_plan *sort_plan;

static int by_best(const void *a, const void *b)
{
    return swx_plan_better(swx_plan_row(sort_plan, *(const size_t *)a),
                           swx_plan_row(sort_plan, *(const size_t *)b));
}

/* ---- reading what was typed ---- */

static int read_threshold(double *out, const cli_args *a, const char *name, int kind)
{
    const char *v = cli_get(a, name);
    *out = 0;
    if (!v)
        return 0;
    if (cli_decimal_unit(name, v))
        return EXIT_USAGE;
    if (swx_plan_threshold_parse(out, v, kind)) {
        cli_error("--%s %s", name, swx_error_last());
        return EXIT_USAGE;
    }
    return 0;
}

static void on_fetch(void *ud, size_t done, size_t total)
{
    double *last = ud;
    if (done == total || cli_progress_due(last))
        cli_progress(0, "forecast along the route: %zu of %zu points", done, total);
}

/* What was typed, checked before anything is sent. */
typedef struct plan_args {
    swx_plan_opts o;
    const char *route, *polar_file, *grib;
    const char *json, *csv, *chart; /* NULL when not asked for */
    long in_flight;
    int chart_w, chart_h, chart_what;
    int table;  /* the table on stdout */
    int storms; /* the active storms are fetched (no --no-storms) */
    int best, timing;
    int routed; /* --routed: each departure on its own route too */
    double land_margin_nm;
} plan_args;

/* What a plan holds while it runs, freed by run_free. */
typedef struct plan_run {
    swx_polar *polar;
    swx_voyage *voyage;
    swx_storm_danger *danger;
    swx_client *client;
    swx_plan_forecast *fc;
    swx_plan *plan;
    swx_storm_list storms;
    size_t *order;
    /* --routed: the search's settings and what it holds, and each
     * departure's route */
    route_args ra;
    route_run rr;
    swx_plan_routed *routed;
} plan_run;

static void run_free(plan_run *r)
{
    free(r->routed);
    route_run_free(&r->rr);
    free(r->order);
    swx_plan_free(r->plan);
    swx_plan_forecast_free(r->fc);
    swx_storm_list_clear(&r->storms);
    swx_client_free(r->client);
    swx_voyage_free(r->voyage);
    swx_polar_free(r->polar);
    swx_storm_danger_free(r->danger);
}

/* The route, the departures, the speed and the rules into *p. */
static int read_voyage_args(plan_args *p, const cli_args *a)
{
    int exit_code;
    const char *deps = cli_get(a, "departures"), *speed = cli_get(a, "speed");
    p->route = cli_get(a, "route");
    p->polar_file = cli_get(a, "polar");
    if (!p->route || !deps) {
        cli_error("a plan needs --route FILE and --departures FROM/TO/STEP");
        return EXIT_USAGE;
    }
    if (!speed && !p->polar_file) {
        cli_error("a plan needs --speed KN|MIN-MAX, or --polar FILE");
        return EXIT_USAGE;
    }
    const char *step = deps ? strrchr(deps, '/') : NULL;
    if (step && cli_decimal_unit("departures", step + 1))
        return EXIT_USAGE;
    if (swx_plan_departures_parse(&p->o.from, &p->o.to, &p->o.step, deps)) {
        cli_error("--%s", swx_error_last());
        return EXIT_USAGE;
    }
    if (speed && swx_speed_parse(&p->o.min_kn, &p->o.max_kn, speed)) {
        cli_error("--%s", swx_error_last());
        return EXIT_USAGE;
    }
    if ((exit_code = read_threshold(&p->o.max_wind_kn, a, "max-wind", 's')) ||
        (exit_code = read_threshold(&p->o.max_gust_kn, a, "max-gust", 's')) ||
        (exit_code = read_threshold(&p->o.max_wave_m, a, "max-wave", 'h')))
        return exit_code;
    p->o.max_upwind_h = 0;
    if (cli_get_double(&p->o.max_upwind_h, a, "max-upwind", 0.1, 10000) ||
        cli_get_double(&p->o.upwind_angle_deg, a, "upwind-angle", 1, 180) ||
        cli_get_double(&p->o.spacing_nm, a, "spacing", 0.5, 1000) ||
        cli_get_int(&p->in_flight, a, "in-flight", 1, 64))
        return EXIT_USAGE;
    return 0;
}

/* The outputs (--json, --csv, --chart and its settings, --table) into *p. */
static int read_output_args(plan_args *p, const cli_args *a)
{
    const char *json = cli_get(a, "json"), *csv = cli_get(a, "csv");
    const char *chart = cli_get(a, "chart"), *chart_by = cli_get(a, "chart-by");
    p->json = json;
    p->csv = csv;
    p->chart = chart;
    p->chart_what = 'w';
    if (cli_chart_size(&p->chart_w, &p->chart_h, a, 1200, 800))
        return EXIT_USAGE;
    if (chart_by && strcmp(chart_by, "wind") != 0 && strcmp(chart_by, "waves") != 0) {
        cli_error("--chart-by '%s': wind or waves", chart_by);
        return EXIT_USAGE;
    }
    if (chart_by && chart_by[1] == 'a')
        p->chart_what = 'h';
    if ((chart_by || cli_has(a, "chart-size")) && !chart) {
        cli_error(
            "--chart-by and --chart-size are the chart's settings: they need --chart FILE.png");
        return EXIT_USAGE;
    }
    if (chart && strcmp(chart, "-") == 0) {
        cli_error(
            "--chart needs a file name (a PNG, not for the terminal; /dev/stdout for a pipe)");
        return EXIT_USAGE;
    }
    int to_stdout = (json && strcmp(json, "-") == 0) + (csv && strcmp(csv, "-") == 0);
    if (to_stdout == 2) {
        cli_error("--json - and --csv - cannot both go to stdout");
        return EXIT_USAGE;
    }
    if (to_stdout && cli_has(a, "table")) {
        cli_error("--table and --%s - cannot both go to stdout",
                  json && strcmp(json, "-") == 0 ? "json" : "csv");
        return EXIT_USAGE;
    }
    /* The table is the output when no other is asked for; with --json or
     * --csv into files, stdout stays empty (the summary goes to stderr)
     * unless --table asks for it too. */
    p->table = cli_has(a, "table") || (!json && !csv);
    return 0;
}

/* Everything typed into *p: 0, or EXIT_USAGE after one line. */
static int read_args(plan_args *p, const cli_args *a)
{
    int exit_code;
    memset(p, 0, sizeof *p);
    if (a->npositional) {
        cli_error("unexpected argument '%s' (see 'seawx plan --help')", a->positional[0]);
        return EXIT_USAGE;
    }
    if ((exit_code = read_voyage_args(p, a)) || (exit_code = read_output_args(p, a)))
        return exit_code;
    if (cli_has(a, "no-storms") && (cli_has(a, "cone-radii") || cli_has(a, "danger-errors"))) {
        cli_error("--cone-radii and --danger-errors are the storms' settings: not with "
                  "--no-storms");
        return EXIT_USAGE;
    }
    p->grib = cli_get(a, "from");
    p->storms = !cli_has(a, "no-storms");
    p->routed = cli_has(a, "routed");
    if (cli_has(a, "land-margin") && !p->routed) {
        cli_error("--land-margin is the routes' setting: it needs --routed");
        return EXIT_USAGE;
    }
    p->land_margin_nm = 0;
    if (cli_get_double(&p->land_margin_nm, a, "land-margin", 0, 50))
        return EXIT_USAGE;
    p->best = cli_has(a, "best");
    p->timing = cli_has(a, "timing");
    return 0;
}

/* --polar FILE into *out and p->o (the speed then the motoring speed). */
static int read_polar(swx_polar **out, plan_args *p)
{
    char *text;
    size_t len;
    int rc;
    if ((rc = swx_read_file(&text, &len, p->polar_file, PLAN_MAX_FILE)))
        return cli_fail(rc);
    rc = swx_polar_parse(out, text, len);
    free(text);
    if (rc) {
        cli_error("--polar %s: %s", p->polar_file, swx_error_last());
        return EXIT_USAGE;
    }
    p->o.polar = *out;
    if (p->o.max_kn > p->o.min_kn)
        cli_info("with --polar, --speed is the motoring speed: %g kn", p->o.min_kn);
    p->o.max_kn = p->o.min_kn;
    return 0;
}

/* --route FILE into *out: a route without waypoint times, with sample points. */
static int read_route(swx_voyage **out, const plan_args *p)
{
    char *text;
    size_t len;
    int rc;
    if ((rc = swx_read_file(&text, &len, p->route, PLAN_MAX_FILE)))
        return cli_fail(rc);
    rc = swx_voyage_from_route(out, text, len);
    free(text);
    if (!rc && swx_voyage_timed(*out))
        rc = swx_error_set(SWX_EINVAL, "the route gives waypoint times; a plan sails a route "
                                       "without them from each departure");
    size_t nsamples = 0;
    if (!rc)
        rc = swx_plan_sample_count(&nsamples, *out, p->o.spacing_nm);
    if (rc) {
        cli_error("--route %s: %s", p->route, swx_error_last());
        return EXIT_USAGE;
    }
    return 0;
}

/* No output may be one of the files the plan reads, under any name. */
static int check_outputs(const plan_args *p)
{
    const char *inputs[3];
    size_t ninputs = 0;
    int rc;
    inputs[ninputs++] = p->route;
    if (p->polar_file)
        inputs[ninputs++] = p->polar_file;
    if (p->grib)
        inputs[ninputs++] = p->grib;
    const char *outs[3] = {p->json, p->csv, p->chart};
    for (size_t i = 0; i < 3; i++)
        if (outs[i] && strcmp(outs[i], "-") != 0 &&
            (rc = swx_atomicfile_target(NULL, NULL, outs[i], SWX_ATOMICFILE_STREAM, inputs,
                                        ninputs)))
            return cli_fail(rc);
    /* nor one file under two options: the second would replace the first */
    static const char *const names[3] = {"--json", "--csv", "--chart"};
    if ((rc = swx_outputs_distinct(outs, names, 3)))
        return cli_fail(rc);
    return 0;
}

/* --from FILE: the forecast from a voyage GRIB into r->fc. */
static int read_grib(plan_run *r, const plan_args *p)
{
    int rc;
    /* the file is the user's input: a file that is no voyage GRIB is bad input */
    if ((rc = swx_plan_forecast_from_grib(&r->fc, p->grib, r->voyage, p->o.spacing_nm)) ||
        (rc = swx_plan_forecast_covers(r->fc, &p->o))) {
        if (rc == SWX_EPARSE || rc == SWX_EINVAL) {
            cli_error("--from %s", swx_error_last());
            return EXIT_USAGE;
        }
        return cli_fail(rc);
    }
    return 0;
}

/* --routed: the search's settings from the plan's (its waypoints, boat and
 * limits) and land for the routes' area, every waypoint at sea. The boat is
 * the fixed route's: the polar, motoring at --speed wherever sailing makes
 * less (seawx route --motor-floor); or under motor at --speed, a band's
 * slow end (the fixed route's latest arrival). */
static int routed_open(plan_run *r, const plan_args *p)
{
    route_args *ra = &r->ra;
    int exit_code;
    if ((exit_code = route_waypoints_from(ra, r->voyage, p->route)))
        return exit_code;
    swx_routing_opts *o = &ra->o;
    route_search_defaults(ra, p->land_margin_nm);
    route_boat(ra, p->o.polar, p->o.min_kn);
    o->max_tws_kn = p->o.max_wind_kn;
    o->max_gust_kn = p->o.max_gust_kn;
    o->max_wave_m = p->o.max_wave_m;
    route_area(ra);
    return route_open_land(&r->rr, ra);
}

/* --routed: each departure of the plan on its own route into r->routed,
 * through the forecast of --from FILE or the service's for the routes'
 * area, and the storms fetched as no-go areas. */
static int routed_plan(plan_run *r, const plan_args *p, const cli_args *a)
{
    route_args *ra = &r->ra;
    const char *path = p->grib;
    int exit_code, rc;
    size_t n = swx_plan_count(r->plan);
    if (!(r->routed = calloc(n ? n : 1, sizeof *r->routed)))
        return cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
    if (!path && (exit_code = route_fetch_forecast(&r->rr, ra, a, &path)))
        return exit_code;
    if ((rc = swx_routing_forecast_open(&r->rr.fc, path, ra->south, ra->west, ra->north, ra->east)))
        return cli_fail(rc);
    int64_t last_depart = n ? swx_plan_row(r->plan, n - 1)->depart : p->o.from;
    if (p->storms &&
        (exit_code = route_open_nogo(&r->rr, &r->storms, r->danger, p->o.from,
                                     last_depart + (int64_t)ra->o.max_hours * 3600, 0)))
        return exit_code;
    route_wire(ra, &r->rr, r->rr.nogo);
    int64_t first = swx_routing_forecast_first(r->rr.fc),
            last = swx_routing_forecast_last(r->rr.fc);
    for (size_t i = 0; i < n; i++) {
        swx_plan_routed *x = &r->routed[i];
        swx_routing *route = NULL;
        ra->o.depart = swx_plan_row(r->plan, i)->depart;
        cli_progress(0, "routed: departure %zu of %zu", i + 1, n);
        if (ra->o.depart < first || ra->o.depart >= last) {
            snprintf(x->reason, sizeof x->reason, "the departure is outside the forecast");
            continue;
        }
        if ((rc = route_solve_legs(&r->rr, ra, &route)))
            break;
        if ((x->found = swx_routing_found(route))) {
            swx_routing_summary s;
            swx_routing_summarize(&s, route);
            x->arrive = route_arrival(route);
            x->hours = s.hours;
            x->distance_nm = s.distance_nm;
            x->max_wind_kn = s.max_tws_kn;
            x->max_gust_kn = s.max_gust_kn;
            x->max_wave_m = s.max_wave_m;
        } else {
            char leg[64];
            route_leg_text(leg, sizeof leg, ra, &r->rr);
            snprintf(x->reason, sizeof x->reason, "%.60s%s%.190s", leg[0] ? leg + 1 : "",
                     leg[0] ? ": " : "", swx_routing_why(route)->message);
        }
        swx_routing_free(route);
    }
    cli_progress(0, NULL);
    if (rc)
        return cli_stop_or_fail(rc, "nothing written");
    size_t found = 0;
    for (size_t i = 0; i < n; i++)
        found += (size_t)r->routed[i].found;
    cli_info("routed: %zu of %zu departures have a route", found, n);
    return 0;
}

/* The inputs read and checked, the client made when the service is needed. */
static int open_inputs(plan_run *r, plan_args *p, const cli_args *a)
{
    int exit_code;
    if ((exit_code = cli_danger_read(&r->danger, a)) ||
        (p->polar_file && (exit_code = read_polar(&r->polar, p))) ||
        (exit_code = read_route(&r->voyage, p)) || (exit_code = check_outputs(p)) ||
        (p->grib && (exit_code = read_grib(r, p))) ||
        (p->routed && (exit_code = routed_open(r, p))))
        return exit_code;
    if (!p->grib || p->storms)
        return cli_client(&r->client, a);
    return 0;
}

/* The point forecasts along the route (unless --from gave them) and the
 * active storms. */
static int fetch_forecast(plan_run *r, const plan_args *p)
{
    /* The first progress line is due after the interval, not at the first
     * point: departures all past the forecast's end (known from that point)
     * end with the one error line, no progress line before it. */
    double last = cli_now();
    swx_plan_fetch_opts fo = {(int)p->in_flight, &cli_stop_soft, on_fetch, &last};
    int rc = p->grib ? 0 : swx_plan_forecast_fetch(&r->fc, r->client, r->voyage, &p->o, &fo);
    cli_progress(0, NULL);
    if (!rc && p->storms && !cli_stop_soft) {
        swx_storm_query q;
        swx_storm_query_init(&q);
        cli_progress(0, "storms: fetching the active storms");
        rc = swx_storm_fetch(NULL, r->client, &q, cli_keep_storm, &r->storms);
        cli_progress(0, NULL);
    }
    return cli_stop_or_fail(rc, "nothing written");
}

/* The plan computed into r->plan, timed with --timing. */
static int compute(plan_run *r, const plan_args *p)
{
    cli_info("forecast: %zu points, %zu valid times; %zu storms", swx_plan_forecast_samples(r->fc),
             swx_plan_forecast_times(r->fc), r->storms.count);
    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    int rc = swx_plan_compute(&r->plan, r->voyage, r->fc,
                              (const struct swx_storm *const *)r->storms.items, r->storms.count,
                              r->danger, &p->o);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    if (rc)
        return cli_fail(rc);
    if (p->timing)
        cli_summary(
            "timing: the plan of %zu departures x %zu sample points (%zu storms) took "
            "%.1f ms of CPU",
            swx_plan_count(r->plan), swx_plan_samples(r->plan), r->storms.count,
            ((double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) / 1e6));
    size_t n = swx_plan_count(r->plan);
    if (swx_plan_left_out(r->plan)) {
        char end[SWX_ISO8601_LEN], first[SWX_ISO8601_LEN];
        swx_iso8601_format(end, swx_plan_forecast_end(r->plan));
        swx_iso8601_format(first, p->o.from + (int64_t)n * p->o.step);
        cli_warn("%zu departures from %s on are at or after the forecast's end (%s): left out",
                 swx_plan_left_out(r->plan), first, end);
    }
    return 0;
}

/* The departures in the order they are shown into r->order (--best: best first). */
static int order_rows(plan_run *r, const plan_args *p)
{
    size_t n = swx_plan_count(r->plan);
    if (!(r->order = malloc((n ? n : 1) * sizeof *r->order)))
        return cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
    for (size_t i = 0; i < n; i++)
        r->order[i] = i;
    if (p->best) {
        sort_plan = r->plan;
        qsort(r->order, n, sizeof *r->order, by_best);
    }
    return 0;
}

/* The outputs asked for, then the summary line. */
static int write_outputs(const plan_run *r, const plan_args *p)
{
    const swx_plan_forecast *fc = r->fc;
    int exit_code, rc;
    swx_plan_info info = {&p->o,
                          p->polar_file,
                          p->grib,
                          p->storms,
                          r->storms.count,
                          swx_plan_forecast_time(fc, 0),
                          swx_plan_forecast_time(fc, swx_plan_forecast_times(fc) - 1),
                          swx_plan_forecast_times(fc),
                          r->routed};
    out_ctx oc = {r->plan, r->order, &info};
    if (p->json && (exit_code = write_out(p->json, json_fn, &oc)))
        return exit_code;
    if (p->csv && (exit_code = write_out(p->csv, csv_fn, &oc)))
        return exit_code;
    if (p->chart &&
        (rc = swx_plan_chart_png(r->plan, p->chart, p->chart_what, p->chart_w, p->chart_h)))
        return cli_fail(rc);
    if (p->table) {
        write_table(stdout, r->plan, r->order, r->routed);
        if (fflush(stdout) != 0)
            return cli_fail(swx_error_set(SWX_EIO, "writing the table failed"));
    }
    size_t n = swx_plan_count(r->plan), count[3] = {0};
    for (size_t i = 0; i < n; i++)
        count[swx_plan_row(r->plan, i)->verdict]++;
    cli_summary("%zu departures: %zu go, %zu marginal, %zu no-go", n, count[SWX_PLAN_GO],
                count[SWX_PLAN_MARGINAL], count[SWX_PLAN_NOGO]);
    return 0;
}

int cmd_plan(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    plan_args p;
    plan_run r;
    cli_signals sig;
    int exit_code;
    memset(&r, 0, sizeof r);
    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    cli_set_quiet(cli_has(&a, "quiet"));
    if ((exit_code = read_args(&p, &a)))
        return exit_code;
    if (!(exit_code = open_inputs(&r, &p, &a))) {
        cli_signals_catch(&sig);
        if (!(exit_code = fetch_forecast(&r, &p)) && !(exit_code = compute(&r, &p)) &&
            !(p.routed && (exit_code = routed_plan(&r, &p, &a))) &&
            !(exit_code = order_rows(&r, &p)))
            exit_code = write_outputs(&r, &p);
        cli_signals_release(&sig);
    }
    run_free(&r);
    return exit_code;
}

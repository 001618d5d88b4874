/* cmd_plan.c: `seawx plan`, the departure planner: "which day do we leave?".
 * One route sailed from many departures through the forecast along it (one
 * point forecast per sample point, whatever the number of departures) and
 * the storms, each departure with its figures and a verdict; the work is the
 * library's (seawx/plan.h, docs/plan.md). Everything typed is checked before
 * anything is sent; output files are written whole or not at all. */
#include "cli.h"
#include "dataout.h"

#include "seawx/atomicfile.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/plan.h"
#include "seawx/readfile.h"
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
     "the route: GeoJSON LineString or CSV waypoints (lat,lon), without waypoint times", 0},
    {"departures", 'd', "FROM/TO/STEP",
     "the departures: two ISO 8601 times and a step (6h, 90m, 1d), at most 500", 0},
    {"speed", 0, "KN|MIN-MAX",
     "the speed or speed band in knots (a band: the slow and the fast ship, the worse of "
     "the two); with --polar: the motoring speed, the least the boat makes",
     0},
    {"polar", 0, "FILE",
     "sail by this polar (TWA\\TWS table, as OpenCPN, Expedition and qtVlm read it): the boat "
     "speed from the wind met, one track per departure",
     0},
    {"spacing", 0, "NM", "nautical miles between sample points of the route (default 15)", 0},
    {"from", 0, "FILE",
     "the forecast from this voyage GRIB (seawx grib: GRIB2 or GRIB1, .bz2 or not) instead of "
     "point forecasts: the nearest grid node to each sample point, nothing asked for it",
     0},
    {"max-wind", 0, "SPEED", "wind above this is a no-go: 25kn, 12.5m/s, 45km/h, 30mph", 0},
    {"max-gust", 0, "SPEED", "gusts above this are a no-go (units as --max-wind)", 0},
    {"max-wave", 0, "HEIGHT", "significant wave height above this is a no-go: 3m, 10ft", 0},
    {"max-upwind", 0, "HOURS", "more hours upwind than this are a no-go", 0},
    {"upwind-angle", 0, "DEG", "upwind: the true wind within this angle of the course (default 50)",
     0},
    {"best", 0, NULL,
     "best departures first: go, then marginal, judged over the whole voyage; then go and "
     "marginal judged on the part the forecast covers; no-go last (within each, the least wind)",
     0},
    {"json", 0, "FILE", "the plan as JSON (- for stdout): every figure and the sample points", 0},
    {"csv", 0, "FILE", "the plan as CSV, one departure a row (- for stdout)", 0},
    {"table", 0, NULL,
     "also the table on stdout when --json or --csv writes a file (without them it is the "
     "output)",
     0},
    {"chart", 0, "FILE.png",
     "a PNG chart of the plan: departures across, distance along the route down, each cell "
     "coloured by what the ship meets there, storms hatched, a row of verdicts under it",
     0},
    {"chart-by", 0, "wind|waves", "what colours the chart's cells (default wind)", 0},
    {"chart-size", 0, "WxH", "the chart's size in pixels, 320 to 8000 each (default 1200x800)", 0},
    {"no-storms", 0, NULL, "leave the storms out (by default the active storms are fetched)", 0},
    CLI_OPT_CONE_RADII,
    CLI_OPT_DANGER_ERRORS,
    {"in-flight", 0, "N", "point forecasts asked at once (default 4)", 0},
    {"timing", 0, NULL, "say on stderr how long the plan took to compute, in CPU time", 0},
    {"quiet", 'q', NULL, "no progress lines", 0},
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

static void write_table(FILE *f, const swx_plan *p, const size_t *order)
{
    fprintf(f, "%-12s  %-27s %7s %7s %6s %8s  %-22s %-8s %s\n", "departure", "arrival", "wind kn",
            "gust kn", "wave m", "upwind h", "storm (cpa nm)", "verdict", "why");
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
        fprintf(f, "%-12s  %-27s %7s %7s %6s %8s  %-22s %-8s %s%s\n", d, arr, w, g, h, u, st,
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
    return swx_plan_write_csv(f, c->p, c->order);
}

/* ---- --best ---- */

static const swx_plan *sort_plan;

/* A departure the forecast covers only in part has a verdict on that part:
 * a go or a marginal there may still meet worse beyond, so it comes after
 * every go and marginal judged over the whole voyage; a no-go is one
 * however much is known, so every no-go comes last (those judged whole
 * first). */
static int best_rank(const swx_plan_departure *d)
{
    if (d->verdict == SWX_PLAN_NOGO)
        return 4 + (d->partial != 0);
    return (d->partial ? 2 : 0) + (d->verdict == SWX_PLAN_MARGINAL);
}

static int by_best(const void *a, const void *b)
{
    const swx_plan_departure *x = swx_plan_row(sort_plan, *(const size_t *)a);
    const swx_plan_departure *y = swx_plan_row(sort_plan, *(const size_t *)b);
    int rx = best_rank(x), ry = best_rank(y);
    if (rx != ry)
        return rx < ry ? -1 : 1;
    double wx = isnan(x->max_wind_kn) ? INFINITY : x->max_wind_kn;
    double wy = isnan(y->max_wind_kn) ? INFINITY : y->max_wind_kn;
    if (wx != wy)
        return wx < wy ? -1 : 1;
    return x->depart < y->depart ? -1 : x->depart > y->depart;
}

/* ---- reading what was typed ---- */

/* --chart-size WxH: 0, or EXIT_USAGE with one line. */
static int read_chart_size(int *w, int *h, const char *v)
{
    *w = 1200;
    *h = 800;
    if (!v)
        return 0;
    char *end;
    errno = 0;
    long a = strtol(v, &end, 10);
    if (end != v && (*end == 'x' || *end == 'X')) {
        const char *q = end + 1;
        long b = strtol(q, &end, 10);
        if (!errno && end != q && !*end && a >= 320 && a <= 8000 && b >= 320 && b <= 8000) {
            *w = (int)a;
            *h = (int)b;
            return 0;
        }
    }
    cli_error("--chart-size '%s': WIDTHxHEIGHT in pixels, each 320 to 8000 (1200x800)", v);
    return EXIT_USAGE;
}

static int read_threshold(double *out, const cli_args *a, const char *name, int kind)
{
    const char *v = cli_get(a, name);
    *out = 0;
    if (!v)
        return 0;
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

typedef struct storm_keep {
    swx_storm_list list;
    size_t checked;
} storm_keep;

static int keep_storm(void *ud, const swx_storm *s)
{
    storm_keep *k = ud;
    if (cli_stop_soft)
        return swx_error_set(SWX_ECANCEL, "stopped");
    k->checked++;
    return swx_storm_list_add(&k->list, s);
}

int cmd_plan(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_plan_opts o;
    swx_polar *polar = NULL;
    swx_voyage *voyage = NULL;
    swx_storm_danger *danger = NULL;
    swx_client *client = NULL;
    swx_plan_forecast *fc = NULL;
    swx_plan *plan = NULL;
    storm_keep storms;
    size_t *order = NULL;
    char *text = NULL;
    size_t len;
    int exit_code = EXIT_OK, rc, caught = 0;
    cli_signals sig;
    memset(&o, 0, sizeof o);
    memset(&storms, 0, sizeof storms);
    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    cli_set_quiet(cli_has(&a, "quiet"));
    if (a.npositional) {
        cli_error("unexpected argument '%s' (see 'seawx plan --help')", a.positional[0]);
        return EXIT_USAGE;
    }
    /* Everything typed is checked before anything is sent. */
    const char *route = cli_get(&a, "route"), *deps = cli_get(&a, "departures");
    const char *speed = cli_get(&a, "speed"), *polar_file = cli_get(&a, "polar");
    const char *json = cli_get(&a, "json"), *csv = cli_get(&a, "csv");
    const char *chart = cli_get(&a, "chart"), *chart_by = cli_get(&a, "chart-by");
    if (!route || !deps) {
        cli_error("a plan needs --route FILE and --departures FROM/TO/STEP");
        return EXIT_USAGE;
    }
    if (!speed && !polar_file) {
        cli_error("a plan needs --speed KN|MIN-MAX, or --polar FILE");
        return EXIT_USAGE;
    }
    if (swx_plan_departures_parse(&o.from, &o.to, &o.step, deps)) {
        cli_error("--%s", swx_error_last());
        return EXIT_USAGE;
    }
    if (speed && swx_speed_parse(&o.min_kn, &o.max_kn, speed)) {
        cli_error("--%s", swx_error_last());
        return EXIT_USAGE;
    }
    if ((exit_code = read_threshold(&o.max_wind_kn, &a, "max-wind", 's')) ||
        (exit_code = read_threshold(&o.max_gust_kn, &a, "max-gust", 's')) ||
        (exit_code = read_threshold(&o.max_wave_m, &a, "max-wave", 'h')))
        return exit_code;
    long in_flight;
    if (cli_get_double(&o.max_upwind_h, &a, "max-upwind", 0, 0.1, 10000) ||
        cli_get_double(&o.upwind_angle_deg, &a, "upwind-angle", 50, 1, 180) ||
        cli_get_double(&o.spacing_nm, &a, "spacing", SWX_PLAN_DEFAULT_SPACING_NM, 0.5, 1000) ||
        cli_get_int(&in_flight, &a, "in-flight", 4, 1, 64))
        return EXIT_USAGE;
    int chart_w, chart_h, chart_what = 'w';
    if (read_chart_size(&chart_w, &chart_h, cli_get(&a, "chart-size")))
        return EXIT_USAGE;
    if (chart_by && strcmp(chart_by, "wind") != 0 && strcmp(chart_by, "waves") != 0) {
        cli_error("--chart-by '%s': wind or waves", chart_by);
        return EXIT_USAGE;
    }
    if (chart_by && chart_by[1] == 'a')
        chart_what = 'h';
    if ((chart_by || cli_has(&a, "chart-size")) && !chart) {
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
    if (to_stdout && cli_has(&a, "table")) {
        cli_error("--table and --%s - cannot both go to stdout",
                  json && strcmp(json, "-") == 0 ? "json" : "csv");
        return EXIT_USAGE;
    }
    /* The table is the output when no other is asked for; with --json or
     * --csv into files, stdout stays empty (the summary goes to stderr)
     * unless --table asks for it too. */
    int table = cli_has(&a, "table") || (!json && !csv);
    if (cli_has(&a, "no-storms") && (cli_has(&a, "cone-radii") || cli_has(&a, "danger-errors"))) {
        cli_error("--cone-radii and --danger-errors are the storms' settings: not with "
                  "--no-storms");
        return EXIT_USAGE;
    }
    if ((exit_code = cli_danger_read(&danger, &a)))
        goto done;
    if (polar_file) {
        if ((rc = swx_read_file(&text, &len, polar_file, PLAN_MAX_FILE))) {
            exit_code = cli_fail(rc);
            goto done;
        }
        rc = swx_polar_parse(&polar, text, len);
        free(text);
        text = NULL;
        if (rc) {
            cli_error("--polar %s: %s", polar_file, swx_error_last());
            exit_code = EXIT_USAGE;
            goto done;
        }
        o.polar = polar;
        if (o.max_kn > o.min_kn)
            cli_info("with --polar, --speed is the motoring speed: %g kn", o.min_kn);
        o.max_kn = o.min_kn;
    }
    if ((rc = swx_read_file(&text, &len, route, PLAN_MAX_FILE))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    rc = swx_voyage_from_route(&voyage, text, len);
    if (!rc && swx_voyage_timed(voyage))
        rc = swx_error_set(SWX_EINVAL, "the route gives waypoint times; a plan sails a route "
                                       "without them from each departure");
    size_t nsamples = 0;
    if (!rc)
        rc = swx_plan_sample_count(&nsamples, voyage, o.spacing_nm);
    if (rc) {
        cli_error("--route %s: %s", route, swx_error_last());
        exit_code = EXIT_USAGE;
        goto done;
    }
    const char *grib = cli_get(&a, "from");
    /* No output may be one of the files the plan reads, under any name. */
    const char *inputs[3];
    size_t ninputs = 0;
    inputs[ninputs++] = route;
    if (polar_file)
        inputs[ninputs++] = polar_file;
    if (grib)
        inputs[ninputs++] = grib;
    const char *outs[3] = {json, csv, chart};
    for (size_t i = 0; i < 3; i++)
        if (outs[i] && strcmp(outs[i], "-") != 0 &&
            (rc = swx_atomicfile_target(NULL, NULL, outs[i], SWX_ATOMICFILE_STREAM, inputs,
                                        ninputs))) {
            exit_code = cli_fail(rc);
            goto done;
        }
    if (grib) {
        /* the file is the user's input: a file that is no voyage GRIB is bad input */
        if ((rc = swx_plan_forecast_from_grib(&fc, grib, voyage, o.spacing_nm)) ||
            (rc = swx_plan_forecast_covers(fc, &o))) {
            if (rc == SWX_EPARSE || rc == SWX_EINVAL) {
                cli_error("--from %s", swx_error_last());
                exit_code = EXIT_USAGE;
            } else {
                exit_code = cli_fail(rc);
            }
            goto done;
        }
    }
    if ((!grib || !cli_has(&a, "no-storms")) && (exit_code = cli_client(&client, &a)))
        goto done;

    cli_signals_catch(&sig);
    caught = 1;
    /* The first progress line is due after the interval, not at the first
     * point: departures all past the forecast's end (known from that point)
     * end with the one error line, no progress line before it. */
    double last = cli_now();
    swx_plan_fetch_opts fo = {(int)in_flight, &cli_stop_soft, on_fetch, &last};
    rc = grib ? 0 : swx_plan_forecast_fetch(&fc, client, voyage, &o, &fo);
    cli_progress(0, NULL);
    if (!rc && !cli_has(&a, "no-storms") && !cli_stop_soft) {
        swx_storm_query q;
        swx_storm_query_init(&q);
        cli_progress(0, "storms: fetching the active storms");
        rc = swx_storm_fetch(NULL, client, &q, keep_storm, &storms);
        cli_progress(0, NULL);
    }
    if (cli_stopped(rc)) {
        exit_code = cli_interrupted("nothing written");
        goto done;
    }
    if (rc) {
        exit_code = cli_fail(rc);
        goto done;
    }
    cli_info("forecast: %zu points, %zu valid times; %zu storms", swx_plan_forecast_samples(fc),
             swx_plan_forecast_times(fc), storms.list.count);

    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    rc = swx_plan_compute(&plan, voyage, fc, (const struct swx_storm *const *)storms.list.items,
                          storms.list.count, danger, &o);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    if (rc) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if (cli_has(&a, "timing"))
        cli_summary(
            "timing: the plan of %zu departures x %zu sample points (%zu storms) took "
            "%.1f ms of CPU",
            swx_plan_count(plan), swx_plan_samples(plan), storms.list.count,
            ((double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) / 1e6));

    size_t n = swx_plan_count(plan);
    if (swx_plan_left_out(plan)) {
        char end[SWX_ISO8601_LEN], first[SWX_ISO8601_LEN];
        swx_iso8601_format(end, swx_plan_forecast_end(plan));
        swx_iso8601_format(first, o.from + (int64_t)n * o.step);
        cli_warn("%zu departures from %s on are at or after the forecast's end (%s): left out",
                 swx_plan_left_out(plan), first, end);
    }
    if (!(order = malloc((n ? n : 1) * sizeof *order))) {
        exit_code = cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    if (cli_has(&a, "best")) {
        sort_plan = plan;
        qsort(order, n, sizeof *order, by_best);
    }
    swx_plan_info info = {&o,
                          polar_file,
                          grib,
                          !cli_has(&a, "no-storms"),
                          storms.checked,
                          swx_plan_forecast_time(fc, 0),
                          swx_plan_forecast_time(fc, swx_plan_forecast_times(fc) - 1),
                          swx_plan_forecast_times(fc)};
    out_ctx oc = {plan, order, &info};
    if (json && (exit_code = write_out(json, json_fn, &oc)))
        goto done;
    if (csv && (exit_code = write_out(csv, csv_fn, &oc)))
        goto done;
    if (chart && (rc = swx_plan_chart_png(plan, chart, chart_what, chart_w, chart_h))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if (table) {
        write_table(stdout, plan, order);
        if (fflush(stdout) != 0) {
            exit_code = cli_fail(swx_error_set(SWX_EIO, "writing the table failed"));
            goto done;
        }
    }
    size_t count[3] = {0};
    for (size_t i = 0; i < n; i++)
        count[swx_plan_row(plan, i)->verdict]++;
    cli_summary("%zu departures: %zu go, %zu marginal, %zu no-go", n, count[SWX_PLAN_GO],
                count[SWX_PLAN_MARGINAL], count[SWX_PLAN_NOGO]);
done:
    if (caught)
        cli_signals_release(&sig);
    free(order);
    free(text);
    swx_plan_free(plan);
    swx_plan_forecast_free(fc);
    swx_storm_list_clear(&storms.list);
    swx_client_free(client);
    swx_voyage_free(voyage);
    swx_polar_free(polar);
    swx_storm_danger_free(danger);
    return exit_code;
}

/* cmd_voyage.c: `seawx voyage`, a voyage package (lib/voyage/package.c):
 * several layers along one voyage, one MBTiles per layer and valid time, the
 * route, a manifest and a QGIS project, in the order the ship needs them,
 * under a budget, replaced whole when built again.
 *
 * This front end checks everything typed before any request, shows one
 * progress line and the summary, and handles signals: the first SIGINT /
 * SIGTERM stops new requests, a second cancels those under way; either way
 * the package is left as it was.
 */
#include "cli.h"
#include "route_run.h"

#include "seawx/diskcache.h"
#include "seawx/error.h"
#include "seawx/grib.h"
#include "seawx/readfile.h"
#include "seawx/storm_danger.h"
#include "seawx/iso8601.h"
#include "seawx/package.h"
#include "seawx/plan.h"
#include "seawx/risk.h"
#include "seawx/storm.h"
#include "seawx/tiles.h"
#include "seawx/voyage.h"
#include "seawx/wms.h"
#include "storm_qlr.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define VOYAGE_MAX_ROUTE (16u * 1024u * 1024u)
#define VOYAGE_FAILURES_SHOWN 10

const cli_opt cmd_voyage_opts[] = {
    {"bundle", 'b', "NAME", "the bundle of the layers (required)", 0, NULL},
    {"layer", 'l', "SPEC",
     "a layer: VAR[:style=S][:zoom=Z][:format=F][:quality=Q], e.g. swh:zoom=3-7 or "
     "t2m:K:format=png; repeat for each (required)",
     1, NULL},
    {"route", 0, "FILE",
     "the route: GeoJSON LineString or CSV waypoints (lat,lon), with waypoint times (a time or "
     "eta column, a \"times\" property) or with --depart and --speed (required)",
     0, NULL},
    {"depart", 0, "TIME", "the departure, ISO 8601 (with --speed)", 0, NULL},
    {"speed", 0, "KN|MIN-MAX", "the speed or speed band in knots (with --depart)", 0, NULL},
    {"routed", 0, NULL,
     "the package along the fastest route from the route's first waypoint to its last through "
     "the others (seawx route's search from --depart, under motor at --speed, a band's slow "
     "end, or by --polar; off land and out of the active storms) instead of the route as drawn",
     0, NULL},
    {"polar", 0, "FILE",
     "with --routed: sail by this polar (as seawx route), motoring at --speed wherever sailing "
     "makes less",
     0, NULL},
    {"land-margin", 0, "NM", "with --routed: keep this far off land, nautical miles", 0, "1"},
    CLI_OPT_BUFFER,
    {"zoom", 'z', "LEVELS", "zoom levels of layers that give none: 5, 3-9 or 3,5,7", 0, "3-6"},
    {"format", 'f', "FMT",
     "encoding of layers that give none: png8 (default), png (the service's tiles) or jpeg; "
     "QGIS 3.22 and OpenCPN read all three",
     0, NULL},
    {"quality", 0, "N", "jpeg quality 1-100 of layers that give none (default 85)", 0, NULL},
    CLI_OPT_TILE_RUN,
    CLI_OPT_TILE_SIZE,
    {"output", 'o', "PATH",
     "the package: a link to a folder beside it, replaced whole when built again (required)", 0,
     NULL},
    {"budget", 0, "SIZE",
     "the most the package may hold: 20MB, 1.5MiB, 800kB or bytes; the build stops before it "
     "would exceed it",
     0, NULL},
    {"storms", 0, "SEL",
     "also the storms, fetched anew by every build and written first: active, inactive, all, "
     "or filters of seawx storms as KEY=VALUE separated by ',' (status=all,region=NA,"
     "period=START/END); one file per kind, the voyage's risk report and its stretches at risk",
     0, NULL},
    CLI_OPT_CONE_RADII,
    CLI_OPT_DANGER_ERRORS,
    CLI_OPTS_GRIB,
    {"plan", 0, "FROM/TO/STEP",
     "also the departure plan of the route (as seawx plan): these departures (two ISO 8601 times "
     "and a step: 6h, 90m, 1d; at most 500) sailed at --speed through point forecasts asked "
     "anew by every build, and the --storms; plan.json, plan.csv and plan.png (the chart, by "
     "wind) beside project.qgs",
     0, NULL},
    {"plan-max-wind", 0, "SPEED", "the plan's no-go wind: 25kn, 12.5m/s, 45km/h (default none)", 0,
     NULL},
    {"plan-max-gust", 0, "SPEED", "the plan's no-go gust (units as --plan-max-wind)", 0, NULL},
    {"plan-max-wave", 0, "HEIGHT", "the plan's no-go significant wave height: 3m, 10ft", 0, NULL},
    CLI_OPT_NOW,
    CLI_OPT_GETMAPS_IN_FLIGHT,
    {"dry-run", 'n', NULL,
     "quote tiles, requests and size per layer (fetches a sample of tiles to measure the size); "
     "build nothing",
     0, NULL},
    {"quiet", 'q', NULL, "no progress, only errors and the summary", 0, NULL},
    {0},
};

typedef struct ui {
    int quiet, failures_shown;
    double t0, last;
} ui;

static void ui_progress(void *ud, const swx_package_progress *pr)
{
    ui *u = ud;
    if (u->quiet || !cli_progress_due(&u->last))
        return;
    double t = u->last;
    char ts[SWX_ISO8601_LEN];
    swx_iso8601_format(ts, pr->time);
    double el = t - u->t0;
    char zs[24] = "";
    if (pr->zoom >= 0)
        snprintf(zs, sizeof zs, " zoom %d", pr->zoom);
    cli_progress(0, "%llu/%llu tiles (%.0f%%), %.0f tiles/s, %.2f MiB: %s %s%s",
                 (unsigned long long)pr->done, (unsigned long long)pr->total,
                 pr->total ? 100.0 * (double)pr->done / (double)pr->total : 100.0,
                 el > 0 ? (double)pr->fetched / el : 0.0, (double)pr->bytes / 1048576.0,
                 pr->variable ? pr->variable : "", ts, zs);
}

static void ui_failed(void *ud, int z, uint32_t x, uint32_t y, int n, const char *why)
{
    ui *u = ud;
    if (u->failures_shown < VOYAGE_FAILURES_SHOWN) {
        cli_progress(0, NULL);
        cli_warn("%d tile%s from %d/%u/%u failed: %s", n, n == 1 ? "" : "s", z, x, y, why);
    }
    u->failures_shown++;
}

/* --storms SEL: "active", "inactive" or "all", or KEY=VALUE filters of
 * seawx storms separated by ',' (a key as the service names it, '-' or
 * '_'). The values point into text, which must outlive q. */
static int storms_parse(swx_storm_query *q, char *text)
{
    swx_storm_query_init(q);
    for (char *save = NULL, *tok = strtok_r(text, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        const char *key = "status", *val = tok;
        if (eq) {
            *eq = '\0';
            for (char *k = tok; *k; k++)
                *k = *k == '-' ? '_' : *k;
            key = tok;
            val = eq + 1;
        }
        if (swx_storm_query_set(q, key, val)) {
            cli_error("--storms: %s", swx_error_last());
            return EXIT_USAGE;
        }
    }
    if (swx_storm_query_check(q)) {
        cli_error("--storms: %s", swx_error_last());
        return EXIT_USAGE;
    }
    return 0;
}

/* The quote: per layer and in all. */
static int dry_run(swx_package *pkg, swx_client *client, int storms, int grib, int plan)
{
    /* The quote fetches samples for seconds: SIGINT and SIGTERM stop it (the
     * samples' temporary files removed), as they stop a build. */
    swx_package_run_opts ro = {.stop = cli_stop_asked, .cancel = &cli_stop_hard};
    double total = 0;
    uint64_t tiles = 0, reqs = 0;
    size_t files = 0;
    printf("%-12s %-32s %6s %10s %10s %12s\n", "variable", "layer", "files", "tiles", "requests",
           "est. MiB");
    for (size_t i = 0; i < swx_package_layer_count(pkg); i++) {
        swx_package_quote q;
        int rc = swx_package_quote_layer(&q, pkg, client, i, &ro);
        if (rc == SWX_ECANCEL)
            return cli_interrupted("the quote was stopped; nothing was written");
        if (rc)
            return cli_fail(rc);
        const swx_layer *l = swx_package_wms_layer(pkg, i);
        printf("%-12s %-32s %6zu %10llu %10llu %12.2f\n", swx_layer_variable(l), swx_layer_name(l),
               q.files, (unsigned long long)q.tiles, (unsigned long long)q.requests,
               q.bytes / 1048576.0);
        total += q.bytes;
        tiles += q.tiles;
        reqs += q.requests;
        files += q.files;
    }
    if (storms) {
        double sb;
        size_t sf;
        int rc = swx_package_quote_storms(&sb, &sf, pkg, client);
        if (rc)
            return cli_fail(rc);
        printf("%-12s %-32s %6zu %10s %10s %12.2f\n", "storms", "tracks, cones, danger, risk", sf,
               "", "", sb / 1048576.0);
        total += sb;
        files += sf;
    }
    if (grib) {
        double gb, gf;
        int rc = swx_package_quote_grib(&gb, &gf, pkg, client);
        if (rc)
            return cli_fail(rc);
        printf("%-12s %-32s %6d %10s %10s %12.2f\n", "grib", "voyage.grb2 (about)", 1, "", "",
               gb / 1048576.0);
        cli_info("the voyage GRIB fetches %.2f MiB of forecast messages", gf / 1048576.0);
        total += gb;
        files += 1;
    }
    if (plan) {
        size_t preq;
        double pb;
        int rc = swx_package_quote_departure_plan(&preq, &pb, pkg);
        if (rc)
            return cli_fail(rc);
        printf("%-12s %-32s %6d %10s %10zu %12.2f\n", "plan", "plan.json, .csv, .png (about)", 3,
               "", preq, pb / 1048576.0);
        cli_info("the departure plan asks %zu point forecasts (one per sample point of the "
                 "route)",
                 preq);
        total += pb;
        files += 3;
        reqs += preq;
    }
    double extra = swx_package_quote_extra(pkg);
    printf("%-12s %-32s %6s %10s %10s %12.2f\n", "other", "route, manifest, project", "3", "", "",
           extra / 1048576.0);
    total += extra;
    printf("%-12s %-32s %6zu %10llu %10llu %12.2f\n", "all", "", files + 3,
           (unsigned long long)tiles, (unsigned long long)reqs, total / 1048576.0);
    printf("estimated size: %.0f bytes (%.2f MiB), from a sample of tiles fetched along the "
           "route\n",
           total, total / 1048576.0);
    return fflush(stdout) != 0 ? EXIT_IO : EXIT_OK;
}

/* One run of seawx voyage: what was typed, read. */
typedef struct voyage_cmd {
    cli_args a;
    const char *bundle, *route, *out;
    char out_path[4096]; /* --output without its trailing '/' */
    int dry;
    long tile_size, in_flight;
    double buffer_nm;
    swx_package_layer layers[SWX_PACKAGE_MAX_LAYERS];
    size_t nlayers;
    uint64_t budget;
    int64_t now;
    cli_voyage_opts vo;
    int plan;
    swx_package_departure_plan po; /* with plan */
    int routed;                    /* --routed: the package along the route found */
} voyage_cmd;

/* --layer, each with the defaults of --zoom, --format and --quality where it
 * gives none; the rules of a package's layers are the core's. */
static int read_layers(voyage_cmd *vc)
{
    const cli_args *a = &vc->a;
    if (swx_package_layer_count_check(cli_count(a, "layer")))
        return cli_fail(SWX_EINVAL);
    uint32_t zooms = 0;
    if (swx_zoom_list_parse(&zooms, cli_value(a, "zoom"))) {
        swx_error_prefix(SWX_EINVAL, "--zoom");
        return cli_fail(SWX_EINVAL);
    }
    swx_tile_format format = SWX_PACKAGE_DEFAULT_FORMAT;
    if (cli_get(a, "format") && swx_tile_format_parse(&format, cli_get(a, "format"))) {
        swx_error_prefix(SWX_EINVAL, "--format");
        return cli_fail(SWX_EINVAL);
    }
    long quality = 0;
    if (cli_get_int(&quality, a, "quality", 1, 100) ||
        cli_get_int(&vc->tile_size, a, "tile-size", 256, 512) ||
        cli_get_int(&vc->in_flight, a, "in-flight", 1, 256) ||
        cli_get_double(&vc->buffer_nm, a, "buffer", 0, 2000))
        return EXIT_USAGE;
    if (swx_tile_size_check((int)vc->tile_size, "--tile-size"))
        return cli_fail(SWX_EINVAL);
    vc->nlayers = cli_count(a, "layer");
    for (size_t i = 0; i < vc->nlayers; i++) {
        swx_package_layer *l = &vc->layers[i];
        if (swx_package_layer_parse(l, cli_get_at(a, "layer", i))) {
            swx_error_prefix(SWX_EINVAL, "--layer");
            return cli_fail(SWX_EINVAL);
        }
        if (swx_package_layer_complete(l, zooms, (int)format, (int)quality, "--layer"))
            return cli_fail(SWX_EINVAL);
    }
    return 0;
}

/* --plan and its thresholds. */
static int read_plan(voyage_cmd *vc)
{
    const cli_args *a = &vc->a;
    static const char *const names[] = {"plan-max-wind", "plan-max-gust", "plan-max-wave"};
    double *out[] = {&vc->po.max_wind_kn, &vc->po.max_gust_kn, &vc->po.max_wave_m};
    vc->plan = cli_has(a, "plan");
    for (int i = 0; i < 3; i++) {
        const char *v = cli_get(a, names[i]);
        if (!v)
            continue;
        if (!vc->plan) {
            cli_error("--%s is the plan's: it goes with --plan", names[i]);
            return EXIT_USAGE;
        }
        if (cli_decimal_unit(names[i], v))
            return EXIT_USAGE;
        if (swx_plan_threshold_parse(out[i], v, i == 2 ? 'h' : 's')) {
            cli_error("--%s %s", names[i], swx_error_last());
            return EXIT_USAGE;
        }
    }
    const char *step = vc->plan ? strrchr(cli_get(a, "plan"), '/') : NULL;
    if (step && cli_decimal_unit("plan", step + 1))
        return EXIT_USAGE;
    if (vc->plan &&
        swx_plan_departures_parse(&vc->po.from, &vc->po.to, &vc->po.step, cli_get(a, "plan"))) {
        cli_error("--plan %s", swx_error_last());
        return EXIT_USAGE;
    }
    return 0;
}

/* Everything typed but the route's file and --storms, checked before any
 * request. */
static int read_options(voyage_cmd *vc)
{
    const cli_args *a = &vc->a;
    int rc;
    vc->bundle = cli_get(a, "bundle");
    vc->route = cli_get(a, "route");
    vc->out = cli_get(a, "output");
    vc->dry = cli_has(a, "dry-run");
    if (!vc->bundle || !vc->route || !cli_count(a, "layer") || (!vc->out && !vc->dry)) {
        cli_error("--bundle, --route, --layer and --output are required (see 'seawx voyage "
                  "--help')");
        return EXIT_USAGE;
    }
    if (swx_wms_bundle_check(vc->bundle))
        return cli_fail(SWX_EINVAL);
    /* The package is a link: "pkg/" names it, not the folder it points to. */
    if (vc->out) {
        size_t n = strlen(vc->out);
        while (n > 1 && vc->out[n - 1] == '/')
            n--;
        if (n >= sizeof vc->out_path) {
            cli_error("--output is too long");
            return EXIT_USAGE;
        }
        memcpy(vc->out_path, vc->out, n);
        vc->out_path[n] = '\0';
        vc->out = vc->out_path;
    }
    if ((rc = read_layers(vc)))
        return rc;
    if (cli_get(a, "budget") && swx_size_parse(&vc->budget, cli_get(a, "budget"))) {
        swx_error_prefix(SWX_EINVAL, "--budget");
        return cli_fail(SWX_EINVAL);
    }
    if ((cli_has(a, "cone-radii") || cli_has(a, "danger-errors")) && !cli_has(a, "storms")) {
        cli_error("--cone-radii and --danger-errors go with --storms");
        return EXIT_USAGE;
    }
    vc->routed = cli_has(a, "routed");
    if (!vc->routed && (cli_has(a, "polar") || cli_has(a, "land-margin"))) {
        cli_error("--polar and --land-margin are the route search's: they need --routed");
        return EXIT_USAGE;
    }
    if (vc->routed && cli_has(a, "plan")) {
        cli_error("--plan sails the route as drawn from each departure: not with --routed "
                  "(seawx plan --routed plans each departure on its own route)");
        return EXIT_USAGE;
    }
    return read_plan(vc);
}

/* --now and the sailing; the voyage of the route's file; the package's path. */
static int read_voyage(swx_voyage **voyage, voyage_cmd *vc)
{
    const cli_args *a = &vc->a;
    char *text = NULL;
    size_t tlen = 0;
    int rc;
    vc->now = (int64_t)time(NULL);
    if (cli_get(a, "now") && swx_iso8601_parse(&vc->now, cli_get(a, "now"))) {
        cli_error("--now '%.60s' is not an ISO 8601 instant (2026-03-01T06:00:00Z)",
                  cli_get(a, "now"));
        return EXIT_USAGE;
    }
    if ((rc = cli_voyage_read(&vc->vo, a)))
        return rc;
    if ((rc = swx_read_file(&text, &tlen, vc->route, VOYAGE_MAX_ROUTE)) ||
        (rc = swx_voyage_open(voyage, text, tlen, &vc->vo))) {
        swx_error_prefix(rc, "%s", vc->route);
        free(text);
        return cli_fail(rc);
    }
    free(text);
    if (!vc->dry && (rc = swx_package_path_check(vc->out)) < 0)
        return cli_fail(rc);
    return 0;
}

/* After a build: the summary, the voyage GRIB's and the storms'. Returns
 * EXIT_PARTIAL when tiles are missing. */
static int report(const swx_package_result *res, swx_package *pkg, const char *out, double t0)
{
    if (res->cut)
        cli_warn("%s", res->cut_line);
    if (res->coast_note[0])
        cli_warn("%s", res->coast_note);
    cli_info("%s: %zu files, %llu tiles (%llu fetched, %zu files kept from the package before), "
             "%.2f MiB, %llu requests in %.1f s; version %d; open %s/project.qgs in QGIS",
             out, res->files, (unsigned long long)res->tiles, (unsigned long long)res->fetched,
             res->copied, (double)res->bytes / 1048576.0, (unsigned long long)res->requests,
             cli_now() - t0, res->version, out);
    swx_grib_result gr;
    if (swx_package_grib_result(&gr, pkg) == 0)
        cli_info("voyage.grb2: %llu bytes, %zu fields at %zu times (run of the %s files), "
                 "%.2f MiB of messages fetched",
                 (unsigned long long)res->grib_bytes, gr.messages, gr.times, gr.region,
                 (double)gr.fetched / 1048576.0);
    if (res->plan_bytes)
        cli_info("departure plan: %zu go, %zu marginal, %zu no-go (plan.json, plan.csv, "
                 "plan.png; %llu bytes)",
                 res->plan_count[SWX_PLAN_GO], res->plan_count[SWX_PLAN_MARGINAL],
                 res->plan_count[SWX_PLAN_NOGO], (unsigned long long)res->plan_bytes);
    const swx_risk_report *risk = swx_package_storm_risk(pkg);
    if (risk) {
        size_t row = 0;
        int worst = swx_risk_report_worst(risk, &row);
        const char *id, *title;
        if (worst >= 0) {
            const swx_storm_risk *r = swx_risk_report_row(risk, row, &id, &title);
            static const char *const what[SWX_RISK_NMEASURES] = {"danger area", "34-kt winds",
                                                                 "50-kt winds", "64-kt winds"};
            cli_warn("storm %s (%s): the voyage meets its %s, closest approach %.0f nm; the "
                     "package was built (see %s/storm_risk.json)",
                     id, title, what[worst], r->cpa_nm, out);
        } else {
            cli_info("%zu storms, none reaches the voyage", res->storms);
        }
    }
    if (res->failed) {
        cli_error("%llu tiles failed and are missing; run the same command again to fetch them",
                  (unsigned long long)res->failed);
        return EXIT_PARTIAL;
    }
    return EXIT_OK;
}

/* Builds the package, with one progress line; then the report. */
static int build(swx_package *pkg, swx_client *client, const voyage_cmd *vc, ui *u)
{
    u->t0 = u->last = cli_now();
    swx_package_run_opts ro = {
        .in_flight = (int)vc->in_flight,
        .stop = cli_stop_asked,
        .cancel = &cli_stop_hard,
        .progress = ui_progress,
        .failed = ui_failed,
        .ud = u,
    };
    swx_package_result res;
    int rc = swx_package_build(&res, pkg, client, &ro);
    cli_progress(0, NULL);
    if (rc == SWX_ECANCEL || res.interrupted)
        return cli_interrupted("%s was left as it was; run the same command again to continue "
                               "(what was fetched is kept beside it)",
                               vc->out);
    if (rc) {
        if (rc == SWX_EINVAL && vc->budget)
            swx_error_prefix(rc, "--budget");
        return cli_fail(rc);
    }
    return report(&res, pkg, vc->out, u->t0);
}

int cmd_voyage(const cli_cmd *cmd, int argc, char **argv)
{
    voyage_cmd vc = {0};
    cli_args *a = &vc.a;
    swx_client *client = NULL;
    swx_caps *caps = NULL;
    swx_voyage *voyage = NULL;
    swx_package *pkg = NULL;
    swx_diskcache *gcache = NULL;
    char *storms_text = NULL;
    swx_storm_danger *danger = NULL;
    swx_storm_query storms_q;
    int exit_code = EXIT_OK, rc;
    cli_signals sigs = {0};
    ui u = {0};
    voyage_routed vr;
    memset(&vr, 0, sizeof vr);

    int pr = cli_parse(a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    if (a->npositional) {
        cli_error("unexpected argument '%s' (see 'seawx voyage --help')", a->positional[0]);
        return EXIT_USAGE;
    }
    u.quiet = cli_has(a, "quiet");
    cli_set_quiet(u.quiet);

    /* ---- everything typed is checked before any request ---- */
    if ((exit_code = read_options(&vc)))
        return exit_code;
    if (cli_has(a, "storms")) {
        if (!(storms_text = strdup(cli_get(a, "storms")))) {
            cli_error("out of memory");
            exit_code = EXIT_IO;
            goto done;
        }
        if ((exit_code = storms_parse(&storms_q, storms_text)))
            goto done;
    }
    if ((exit_code = read_voyage(&voyage, &vc)))
        goto done;
    if (vc.routed && (exit_code = voyage_routed_open(&vr, a, voyage, vc.route, &vc.vo)))
        goto done;
    if (vc.plan && swx_voyage_timed(voyage)) {
        cli_error("--plan: the route gives waypoint times; a plan sails a route without them "
                  "from each departure, at --speed");
        exit_code = EXIT_USAGE;
        goto done;
    }

    /* ---- the layers, from the capabilities ---- */
    /* Ctrl-C and SIGTERM stop every phase from the first request on. */
    cli_signals_catch(&sigs);
    if ((exit_code = cli_danger_read(&danger, a)) || (exit_code = cli_client(&client, a)))
        goto done;
    if (vc.routed && (exit_code = voyage_routed_find(&vr, a, danger, &voyage)))
        goto done;
    if ((rc = swx_wms_get_caps(&caps, client, vc.bundle))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    swx_package_opts po = {
        .bundle = vc.bundle,
        .run = cli_get(a, "run"),
        .path = vc.out,
        .voyage = voyage,
        .buffer_m = vc.buffer_nm * SWX_NM_M,
        .layers = vc.layers,
        .nlayers = vc.nlayers,
        .tile_size = (int)vc.tile_size,
        .budget = vc.budget,
        .now = vc.now,
        .gshhg = getenv("SEAWX_GSHHG"),
    };
    if ((rc = swx_package_new(&pkg, caps, &po))) {
        if (rc == SWX_EINVAL && vc.budget)
            swx_error_prefix(rc, "--budget");
        exit_code = cli_fail(rc);
        goto done;
    }
    if (storms_text) {
        swx_package_storms ps = {
            .query = &storms_q, .danger = danger, .qml = cli_storm_qml_by_kind()};
        if ((rc = swx_package_set_storms(pkg, &ps))) {
            exit_code = cli_fail(rc);
            goto done;
        }
    }
    swx_package_grib pg;
    int grib = 0;
    if ((exit_code = cli_grib_read(&pg, &grib, &gcache, a)))
        goto done;
    if (grib && (rc = swx_package_set_grib(pkg, &pg))) {
        swx_error_prefix(rc, "--grib");
        exit_code = cli_fail(rc);
        goto done;
    }
    if (vc.plan && (rc = swx_package_set_departure_plan(pkg, &vc.po))) {
        swx_error_prefix(rc, "--plan");
        exit_code = cli_fail(rc);
        goto done;
    }
    exit_code = vc.dry ? dry_run(pkg, client, storms_text != NULL, cli_has(a, "grib"), vc.plan)
                       : build(pkg, client, &vc, &u);
done:
    cli_signals_release(&sigs);
    voyage_routed_free(&vr);
    swx_package_free(pkg);
    swx_diskcache_free(gcache);
    swx_caps_free(caps);
    swx_client_free(client);
    swx_voyage_free(voyage);
    free(storms_text);
    swx_storm_danger_free(danger);
    return exit_code;
}

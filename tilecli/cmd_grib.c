/* cmd_grib.c: `seawx grib`, a voyage GRIB: the service's forecast data cut to
 * where the ship can be, for the routing software on board (OpenCPN's GRIB
 * and weather-routing plugins, XyGrib, qtVlm); the work is the library's
 * (seawx/grib.h, docs/grib.md). */
#include "cli.h"

#include "seawx/atomicfile.h"
#include "seawx/diskcache.h"
#include "seawx/error.h"
#include "seawx/grib.h"
#include "seawx/iso8601.h"
#include "seawx/number.h"
#include "seawx/readfile.h"
#include "seawx/tiles.h"
#include "seawx/voyage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRIB_MAX_ROUTE (16u * 1024u * 1024u)

const cli_opt cmd_grib_opts[] = {
    {"output", 'o', "FILE",
     "the GRIB2 file to write (.grb2; a name ending in .bz2 is compressed with bzip2, which "
     "OpenCPN and XyGrib open as it is); - or /dev/stdout for standard output",
     0, NULL},
    {"compress", 0, "HOW", "bzip2 or none (default: bzip2 when the name ends in .bz2)", 0, NULL},
    {"edition", 0, "N",
     "2 or 1: GRIB1 as Saildocs sends it, about 90 bytes of heads a field instead of 180 (no "
     "gust); default: 1 for a name ending in .grb or .grib (before any .bz2), else 2",
     0, NULL},
    {"route", 0, "FILE",
     "the route: GeoJSON LineString or CSV waypoints (lat,lon), with waypoint times or with "
     "--depart and --speed",
     0, NULL},
    {"depart", 0, "TIME", "the departure, ISO 8601 (with --speed)", 0, NULL},
    {"speed", 0, "KN|MIN-MAX", "the speed or speed band in knots (with --depart)", 0, NULL},
    {"buffer", 0, "NM", "nautical miles around the route", 0, "50"},
    {"days", 0, "D",
     "a voyage: forecast times up to D days after departure (default: while the ship can be "
     "at sea)",
     0, NULL},
    {"bbox", 0, "W,S,E,N",
     "a fixed box instead of a route, as Saildocs sends (degrees; W > E crosses 180)", 0, NULL},
    {"hours", 0, "LIST",
     "with --bbox: forecast hours, A-B (every --step hours) or H,H,H (default: the whole run)", 0,
     NULL},
    {"vars", 0, "LIST",
     "variables, comma-separated: wind, gust, prmsl, temp, rain, waves, wind100 (default "
     "wind,prmsl)",
     0, NULL},
    {"grid", 0, "DEG", "grid spacing in degrees, a multiple of the forecast files' 0.25", 0,
     CLI_STR(SWX_GRIB_DEFAULT_GRID)},
    {"step", 0, "H", "hours between forecast times", 0, CLI_STR(SWX_GRIB_DEFAULT_STEP)},
    {"cut", 0, "HOW",
     "window (per time the area where the ship can be then; the default for --viewer opencpn or "
     "xygrib and for a .bz2), route (one grid for the voyage, each time's points outside its "
     "area missing; the default where QGIS or GDAL may open the file) or box (with --bbox)",
     0, NULL},
    {"viewer", 0, "NAME",
     "the program the file is for: opencpn, xygrib, qgis, gdal or any (default: any that opens "
     "the file; a .bz2 opens in OpenCPN and XyGrib only); a cut it would draw in the wrong place "
     "is refused",
     0, NULL},
    {"run", 0, "TIME", "the forecast run (its reference time, ISO 8601; default: the newest)", 0,
     NULL},
    {"region", 0, "NAME",
     "the forecast files' region (default: the smallest listed that holds the area)", 0, NULL},
    {"cache", 0, "DIR",
     "keep fetched messages here (default $SEAWX_CACHE_DIR/grib, else ~/.cache/seawx/grib); a "
     "second "
     "build on the same run fetches nothing",
     0, NULL},
    {"no-cache", 0, NULL, "keep nothing on disk", 0, NULL},
    {"in-flight", 0, "N", "requests at once", 0, "8"},
    {"dry-run", 'n', NULL,
     "walk the files (small requests) and say how many bytes a build fetches and about how "
     "big the file is; write nothing",
     0, NULL},
    {"quiet", 'q', NULL, "only errors and the summary", 0, NULL},
    {0},
};

static int parse_bbox(double v[4], const char *text)
{
    const char *end;
    const char *p = text;
    for (int i = 0; i < 4; i++) {
        if (swx_number_scan(&v[i], p, &end) || (i < 3 && *end != ',') || (i == 3 && *end))
            return -1;
        p = end + 1;
    }
    return 0;
}

/* The edition a file name asks for: 1 for NAME.grb or NAME.grib (then
 * maybe .bz2), as GRIB1 files are named; 2 otherwise (.grb2, .grib2, any
 * other name). */
static int edition_of(const char *name)
{
    if (!name)
        return 2;
    size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, ".bz2") == 0)
        n -= 4;
    static const char *const g1[] = {".grb", ".grib", ".grb1", ".grib1"};
    for (size_t i = 0; i < sizeof g1 / sizeof g1[0]; i++) {
        size_t k = strlen(g1[i]);
        if (n > k && strncmp(name + n - k, g1[i], k) == 0)
            return 1;
    }
    return 2;
}

typedef struct progress_state {
    double last;
} progress_state;

static int on_progress(void *ud, const char *stage, size_t done, size_t total)
{
    progress_state *ps = ud;
    if (cli_stop_soft)
        return 1;
    if (done == total || cli_progress_due(&ps->last)) {
        const char *what = strcmp(stage, "index") == 0   ? "files walked"
                           : strcmp(stage, "fetch") == 0 ? "messages fetched"
                                                         : "fields cut";
        cli_progress(0, "%s: %zu of %zu", what, done, total);
    }
    return 0;
}

static void fmt_bytes(char *out, size_t n, double b)
{
    if (b < 10 * 1024)
        snprintf(out, n, "%.0f bytes", b);
    else if (b < 10 * 1024 * 1024)
        snprintf(out, n, "%.1f KiB", b / 1024);
    else
        snprintf(out, n, "%.1f MiB", b / 1048576);
}

/* Everything typed but the route's file, checked before any request, into
 * spec; *outp is the file to write ("-": /dev/stdout), NULL with --dry-run. */
static int read_spec(swx_grib_spec *spec, long *in_flight, const char **outp, const cli_args *a)
{
    int dry = cli_has(a, "dry-run");
    const char *out = cli_get(a, "output"), *route = cli_get(a, "route");
    const char *bbox = cli_get(a, "bbox");
    if (!out && !dry) {
        cli_error("--output is required (or --dry-run)");
        return EXIT_USAGE;
    }
    if (!!route == !!bbox) {
        cli_error("give a voyage (--route) or a box (--bbox W,S,E,N), one of them");
        return EXIT_USAGE;
    }
    int rc;
    spec->vars = cli_get(a, "vars");
    spec->region = cli_get(a, "region");
    if ((rc = swx_grib_vars_check(spec->vars))) {
        swx_error_prefix(rc, "--vars");
        return cli_fail(rc);
    }
    long step;
    double buffer_nm;
    if (cli_get_double(&spec->grid_deg, a, "grid", 0.01, 10) ||
        cli_get_int(&step, a, "step", 1, 240) || cli_get_double(&buffer_nm, a, "buffer", 0, 2000))
        return EXIT_USAGE;
    spec->step_h = (int)step;
    double days = 0;
    if (cli_get_double(&days, a, "days", 0, 16))
        return EXIT_USAGE;
    if (cli_has(a, "days") && bbox) {
        cli_error("--days goes with --route; a box takes --hours");
        return EXIT_USAGE;
    }
    spec->max_hours = (int)lround(days * 24);
    spec->buffer_m = buffer_nm * SWX_NM_M;
    if (cli_get_int(in_flight, a, "in-flight", 1, 64))
        return EXIT_USAGE;
    spec->cut = bbox ? SWX_GRIB_CUT_BOX : SWX_GRIB_CUT_WINDOW;
    if (cli_get(a, "cut") && (rc = swx_grib_cut_parse(&spec->cut, cli_get(a, "cut")))) {
        swx_error_prefix(rc, "--cut");
        return cli_fail(rc);
    }
    if ((spec->cut == SWX_GRIB_CUT_BOX) != !!bbox) {
        cli_error(bbox ? "--bbox cuts a box: --cut window and route go with --route"
                       : "--cut box goes with --bbox W,S,E,N");
        return EXIT_USAGE;
    }
    if (cli_get(a, "hours") && !bbox) {
        cli_error("--hours goes with --bbox; a voyage takes the hours the ship is at sea");
        return EXIT_USAGE;
    }
    spec->hours = cli_get(a, "hours");
    long edition = 2;
    if (cli_get_int(&edition, a, "edition", 1, 2))
        return EXIT_USAGE;
    spec->edition = cli_has(a, "edition") ? (int)edition : edition_of(cli_get(a, "output"));
    if (cli_get(a, "run") && swx_iso8601_parse(&spec->run, cli_get(a, "run"))) {
        cli_error("--run '%.60s' is not an ISO 8601 instant (2026-03-01T00:00:00Z)",
                  cli_get(a, "run"));
        return EXIT_USAGE;
    }
    if (bbox) {
        double v[4];
        if (parse_bbox(v, bbox)) {
            cli_error("--bbox '%.60s': give W,S,E,N in degrees (-30,40,-10,55)", bbox);
            return EXIT_USAGE;
        }
        spec->west = v[0];
        spec->south = v[1];
        spec->east = v[2];
        spec->north = v[3];
        if (cli_get(a, "depart") || cli_get(a, "speed")) {
            cli_error("--depart and --speed go with --route");
            return EXIT_USAGE;
        }
    }
    if (out && strcmp(out, "-") == 0)
        out = "/dev/stdout";
    *outp = out;
    size_t olen = out ? strlen(out) : 0;
    spec->bzip2 = olen > 4 && strcmp(out + olen - 4, ".bz2") == 0;
    if (cli_get(a, "compress")) {
        const char *how = cli_get(a, "compress");
        if (strcmp(how, "bzip2") != 0 && strcmp(how, "none") != 0) {
            cli_error("--compress '%.40s': use bzip2 or none", how);
            return EXIT_USAGE;
        }
        spec->bzip2 = strcmp(how, "bzip2") == 0;
    }
    unsigned viewers = 0;
    if (cli_get(a, "viewer") && (rc = swx_grib_viewer_parse(&viewers, cli_get(a, "viewer")))) {
        swx_error_prefix(rc, "--viewer");
        return cli_fail(rc);
    }
    if ((rc = swx_grib_form_pick(&spec->cut, cli_has(a, "cut"), spec->bzip2, viewers))) {
        swx_error_prefix(rc, cli_has(a, "viewer") ? "--viewer" : "--cut");
        return cli_fail(rc);
    }
    return 0;
}

/* The end of a build or a quote: its warnings and its summary. */
static void report(const swx_grib_result *r, const swx_grib_spec *spec, int dry, const char *out,
                   double t0)
{
    char run[SWX_ISO8601_LEN], first[SWX_ISO8601_LEN], last[SWX_ISO8601_LEN];
    char size[40], fetched[40], files[40];
    swx_iso8601_format(run, r->run);
    swx_iso8601_format(first, r->first);
    swx_iso8601_format(last, r->last);
    fmt_bytes(size, sizeof size, (double)r->bytes);
    fmt_bytes(fetched, sizeof fetched, (double)(dry ? r->to_fetch : r->fetched));
    fmt_bytes(files, sizeof files, (double)r->files_bytes);
    if (r->ends_early)
        cli_warn("the voyage goes on after the run's last forecast (%s): the file ends there",
                 last);
    if (r->range_ignored)
        cli_warn("the storage host sent whole files for byte ranges: more was fetched than needed");
    if (r->ranges_one_by_one)
        cli_warn("the storage host did not answer several byte ranges in one request: they were "
                 "asked for one at a time (more requests, the same bytes)");
    if (dry) {
        printf("run %s, %s files, %zu times from %s to %s, %zu fields\n", run, r->region, r->times,
               first, last, r->messages);
        /* complex packing's saving is known only once packed: a range
         * that holds the file where it may matter (grib_cut.c) */
        char low[32] = "";
        if (r->bytes_low > 0 && (double)r->bytes_low < 0.99 * (double)r->bytes) {
            fmt_bytes(low, sizeof low - 4, (double)r->bytes_low);
            strcat(low, " to ");
        }
        printf("about %s%s written%s; %s to fetch of %s of forecast files (%s already in the "
               "cache)\n",
               low, size, spec->bzip2 ? " before bzip2 (about a third of that after)" : "", fetched,
               files, r->from_cache ? "some" : "none");
        return;
    }
    /* a share of the files' bytes only when the bytes fetched are of those
     * files: a host that ignores ranges sends whole files, of other sizes */
    char share[96] = "";
    if (!r->range_ignored && r->files_bytes > 0 && r->fetched <= r->files_bytes)
        snprintf(share, sizeof share, " of %s (%.1f %%)", files,
                 100.0 * (double)r->fetched / (double)r->files_bytes);
    else if (r->range_ignored)
        snprintf(share, sizeof share, " (whole files)");
    cli_summary("%s: %s, %zu fields at %zu times from %s to %s (run %s, %s files); fetched "
                "%s%s in %ld requests, %.1f s",
                out, size, r->messages, r->times, first, last, run, r->region, fetched, share,
                r->requests, cli_now() - t0);
}

int cmd_grib(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_grib_spec spec = {0};
    const char *out = NULL, *route;
    long in_flight;
    int rc = cli_parse(&a, cmd, argc, argv);
    if (rc)
        return rc > 0 ? EXIT_OK : EXIT_USAGE;
    if (a.npositional) {
        cli_error("unexpected argument '%.60s'", a.positional[0]);
        return EXIT_USAGE;
    }
    cli_set_quiet(cli_has(&a, "quiet"));
    int dry = cli_has(&a, "dry-run");
    route = cli_get(&a, "route");
    if ((rc = read_spec(&spec, &in_flight, &out, &a)))
        return rc;
    /* The output's path is checked before anything is read or sent: a folder,
     * a dangling link or the route itself (under any name) is refused. */
    const char *inputs[1] = {route};
    if (out &&
        (rc = swx_atomicfile_target(NULL, NULL, out, SWX_ATOMICFILE_STREAM, inputs, route ? 1 : 0)))
        return cli_fail(rc);

    swx_voyage *voyage = NULL;
    swx_client *client = NULL;
    swx_diskcache *cache = NULL;
    char *text = NULL;
    size_t tlen = 0;
    int exit_code = EXIT_OK;
    if (route) {
        cli_voyage_opts vo;
        if ((rc = cli_voyage_read(&vo, &a)))
            return rc;
        if ((rc = swx_read_file(&text, &tlen, route, GRIB_MAX_ROUTE)) ||
            (rc = swx_voyage_open(&voyage, text, tlen, &vo))) {
            swx_error_prefix(rc, "%s", route);
            exit_code = cli_fail(rc);
            goto done;
        }
        spec.voyage = voyage;
    }
    if ((exit_code = cli_grib_cache(&cache, &a)) || (exit_code = cli_client(&client, &a)))
        goto done;
    progress_state ps = {0};
    cli_signals sig;
    cli_signals_catch(&sig);
    swx_grib_opts go = {.cache = cache,
                        .in_flight = (int)in_flight,
                        .progress = on_progress,
                        .ud = &ps,
                        .cancel = &cli_stop_soft};
    swx_grib_result res;
    double t0 = cli_now();
    rc = dry ? swx_grib_quote(&res, client, &spec, &go)
             : swx_grib_build(&res, client, &spec, out, &go);
    cli_progress(0, NULL);
    cli_signals_release(&sig);
    if (!(exit_code = cli_stop_or_fail(rc, "nothing written")))
        report(&res, &spec, dry, out, t0);
done:
    swx_diskcache_free(cache);
    swx_client_free(client);
    swx_voyage_free(voyage);
    free(text);
    return exit_code;
}

/* cmd_storms.c: `seawx storms`, tropical cyclones as GeoJSON (or the service's KMZ).
 *
 * Storms are fetched page after page and converted as they come, so memory
 * stays bounded by one storm whatever the selection. Output files are atomic
 * files committed together at the end: a failure leaves no partial file and
 * no temporary behind.
 */
#include "cli.h"
#include "dataout.h"

#include "seawx/atomicfile.h"
#include "seawx/outputs.h"
#include "seawx/error.h"
#include "seawx/readfile.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "seawx/risk.h"
#include "seawx/storm.h"
#include "seawx/storm_danger.h"
#include "seawx/storm_geojson.h"
#include "seawx/tiles.h"
#include "seawx/voyage.h"
#include "storm_qlr.h"

#include <math.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const cli_opt cmd_storms_opts[] = {
    {"status", 0, "STATUS", "active (the service's default), inactive or all", 0, NULL},
    {"id", 0, "ATCF", "one storm by ATCF id (AL092024)", 0, NULL},
    {"name", 0, "NAME", "storms of this name (any case)", 0, NULL},
    {"category", 'c', "CODE",
     "minimum category reached: XX DS IN PT LO SS TD TS TC1 TC2 TC3 TC4 TC5", 0, NULL},
    {"intensity", 0, "KT", "minimum sustained wind reached, knots", 0, NULL},
    {"region", 'r', "CODE", "basin (NA SA EP WP NI SI SP) or sub-basin (CS GM MM CP AS BB WA EA)",
     0, NULL},
    {"period", 'p', "START/END", "active within two ISO 8601 times", 0, NULL},
    {"data-filter", 0, "WHICH", "all (default), analysis (observed only) or forecast", 0, NULL},
    {"limit", 0, "N", "storms per request, 1 to 100 (default 100); pages follow until the end", 0,
     NULL},
    {"offset", 0, "N", "skip the first N storms of the selection", 0, NULL},
    {"max-storms", 0, "N", "stop after N storms (default: all)", 0, NULL},
    {"kinds", 'k', "LIST",
     "feature kinds, comma-separated: storm, track_point, forecast_point, forecast_line, "
     "wind_radii (the default: these five), cone, danger_area, wind_swath",
     0, NULL},
    CLI_OPT_CONE_RADII,
    CLI_OPT_DANGER_ERRORS,
    {"output", 'o', "PATH",
     "FILE.geojson: one FeatureCollection; DIR/: one file per kind (storms.geojson, ...) of "
     "one geometry type each, " CLI_STORM_QLR " and " CLI_STORM_QGS " (a project on the time "
     "slider, 6-hour step) for QGIS; default: stdout",
     0, NULL},
    {"route", 0, "FILE",
     "route risk: a voyage along this route (GeoJSON LineString or CSV, as seawx seed reads it; "
     "with waypoint times, or with --depart and --speed): per storm the closest approach and "
     "when the ship is inside the danger area and the 34/50/64 kt radii, on stdout; exit "
     "10-13 when at risk",
     0, NULL},
    {"depart", 0, "TIME", "route risk: the departure, ISO 8601 (with --speed)", 0, NULL},
    {"speed", 0, "KN|MIN-MAX",
     "route risk: the speed or speed band in knots (with --depart); a band is taken at both ends",
     0, NULL},
    {"json", 0, NULL, "route risk: the report as JSON instead of a table", 0, NULL},
    {"segments", 0, "FILE",
     "route risk: the stretches of route sailed inside each storm's danger area or wind radii, "
     "as GeoJSON",
     0, NULL},
    {"kmz", 0, "FILE", "download the service's KMZ of the selection to FILE instead", 0, NULL},
    {"input", 'i', "FILE", "convert a saved /storm/json answer (- for stdin); nothing is sent", 0,
     NULL},
    {"quiet", 'q', NULL, "no summary on stderr", 0, NULL},
    {0},
};

#define NKINDS SWX_SK_COUNT

/* ---- route risk ---- */

#define RISK_MAX_FILE (64u << 20)

/* A moment as the table shows it, "10-09 03:59Z": a voyage's dates, in UTC, to
 * the minute (the JSON gives them whole). */
static void fmt_time(char out[SWX_ISO8601_LEN], int64_t t)
{
    char iso[SWX_ISO8601_LEN];
    swx_iso8601_format(iso, t); /* YYYY-MM-DDTHH:MM:SSZ */
    snprintf(out, SWX_ISO8601_LEN, "%.5s %.5sZ", iso + 5, iso + 11);
}

static void risk_table(FILE *f, const swx_risk_report *rr)
{
    /* A column of "10-08 13:57Z..10-09 20:57Z", the last one unpadded. */
    enum { SPAN_W = 26 };
    fprintf(f, "%-9s %-12s %9s  %-12s", "storm", "name", "cpa nm", "cpa (UTC)");
    for (int m = 0; m < SWX_RISK_NMEASURES; m++)
        fprintf(f, "  %-*s", m + 1 < SWX_RISK_NMEASURES ? SPAN_W : 0, swx_risk_measure_name(m));
    fputc('\n', f);
    for (size_t i = 0; i < swx_risk_report_count(rr); i++) {
        const char *id, *title;
        const swx_storm_risk *r = swx_risk_report_row(rr, i, &id, &title);
        char t[SWX_ISO8601_LEN], a[SWX_ISO8601_LEN], span[2 * SWX_ISO8601_LEN + 2];
        fmt_time(t, r->cpa_time);
        fprintf(f, "%-9s %-12.12s %9.1f  %-12s", id, title, r->cpa_nm, t);
        for (int m = 0; m < SWX_RISK_NMEASURES; m++) {
            const swx_risk_span *sp = &r->span[m];
            if (sp->inside) {
                fmt_time(t, sp->first);
                fmt_time(a, sp->last);
                snprintf(span, sizeof span, "%s..%s", t, a);
            } else
                snprintf(span, sizeof span, "-");
            fprintf(f, "  %-*s", m + 1 < SWX_RISK_NMEASURES ? SPAN_W : 0, span);
        }
        fputc('\n', f);
    }
}

/* The voyage of --route, --depart and --speed. */
static int read_voyage(const cli_args *a, swx_voyage **out)
{
    const char *route = cli_get(a, "route");
    cli_voyage_opts v;
    char *text = NULL;
    size_t len;
    int rc;
    *out = NULL;
    if ((rc = cli_voyage_read(&v, a)))
        return rc;
    if ((rc = swx_read_file(&text, &len, route, RISK_MAX_FILE)))
        return cli_fail(rc);
    rc = swx_voyage_open(out, text, len, &v);
    free(text);
    if (rc) {
        cli_error("--route %s: %s", route, swx_error_last());
        return EXIT_USAGE;
    }
    return 0;
}

/* Counts the storms on their way to the writer; on a terminal, a progress
 * line every page (the service does not tell the total, so no ETA). */
struct counting {
    swx_storm_geojson *w;  /* NULL: no GeoJSON (a route risk report alone) */
    swx_risk_report *risk; /* NULL: no route */
    int write_rc;          /* the writer's failure, told apart from the reader's */
    size_t storms;
    int progress;
    double t0;
    cli_storm_span span; /* the times and box of the positions, for the project */
};

static int count_and_write(void *ud, const swx_storm *s)
{
    struct counting *c = ud;
    if (++c->storms % 100 == 0 && c->progress) {
        double dt = cli_now() - c->t0;
        cli_progress(0, "%zu storms converted, %.0f/s", c->storms,
                     dt > 0 ? (double)c->storms / dt : 0.0);
    }
    if (cli_stop_soft)
        return swx_error_set(SWX_ECANCEL, "interrupted");
    cli_storm_span_add(&c->span, s);
    if (c->risk) {
        int rc = swx_risk_report_add(c->risk, s);
        if (rc)
            return rc;
    }
    return c->w ? (c->write_rc = swx_storm_geojson_add(c->w, s)) : 0;
}

/* A failed write names the file the user gave and the cause. */
static int write_fail(int rc, const char *output)
{
    if (rc == SWX_EIO && output)
        swx_error_prefix(rc, "%s", output);
    return cli_fail(rc);
}

/* One atomic file per output, all committed at the end, so that a failure
 * leaves the old files or none, and no temporary; GeoJSON is a stream, so a
 * device or a pipe (/dev/null, /dev/stdout) is written through, never
 * replaced (swx_atomicfile_target()); the run's input files are never outputs. */
#define NSLOTS (NKINDS + 4) /* a file per kind, the single file, .qlr, segments, .qgs */
#define SLOT_QLR (NKINDS + 1)
#define SLOT_SEGMENTS (NKINDS + 2)
#define SLOT_QGS (NKINDS + 3) /* written once the storms are known */
struct outputs {
    swx_atomicfile af[NSLOTS];
    FILE *f[NSLOTS];       /* where each output is written: af[i].f */
    const char *inputs[2]; /* --input and --route, or NULL */
};

static int out_open(struct outputs *o, int slot, const char *path)
{
    int rc = swx_atomicfile_target(NULL, NULL, path, SWX_ATOMICFILE_STREAM, o->inputs, 2);
    if (!rc)
        rc = swx_atomicfile_open(&o->af[slot], path, 0666, SWX_ATOMICFILE_STREAM);
    if (rc)
        return cli_fail(rc);
    o->f[slot] = o->af[slot].f;
    return 0;
}

/* Commits every file when ok and each was written whole (all are flushed
 * before the first is committed); aborts them all otherwise. */
static int out_close(struct outputs *o, int ok)
{
    int rc = 0;
    for (int i = 0; i < NSLOTS && ok; i++) {
        if (o->f[i] && (fflush(o->f[i]) != 0 || ferror(o->f[i]))) {
            cli_error("writing %s failed: %s", o->af[i].path ? o->af[i].path : "the output",
                      strerror(errno));
            ok = 0;
            rc = EXIT_IO;
        }
    }
    for (int i = 0; i < NSLOTS; i++)
        o->f[i] = NULL;
    for (int i = 0; i < NSLOTS; i++) {
        int r = ok && o->af[i].f ? swx_atomicfile_commit(&o->af[i]) : 0;
        if (r) {
            rc = cli_fail(r);
            ok = 0;
        }
        swx_atomicfile_abort(&o->af[i]);
    }
    return rc;
}

static int is_dir_target(const char *path)
{
    struct stat st;
    size_t n = strlen(path);
    return (n && path[n - 1] == '/') || (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

/* The filters through the core's one reading of them: each option is named
 * after its filter, with '-' for '_'; a bad number is reported with the
 * option's own spelling in front ("--limit must be ..."). */
static int read_query(const cli_args *a, swx_storm_query *q)
{
    const char *const *keys = swx_storm_query_keys();
    swx_storm_query_init(q);
    for (size_t i = 0; keys[i]; i++) {
        char opt[32];
        size_t n = strlen(keys[i]);
        if (n >= sizeof opt)
            continue;
        for (size_t j = 0; j <= n; j++)
            opt[j] = keys[i][j] == '_' ? '-' : keys[i][j];
        const char *v = cli_get(a, opt);
        if (v && swx_storm_query_set(q, opt, v)) {
            cli_error("--%s", swx_error_last());
            return EXIT_USAGE;
        }
    }
    if (swx_storm_query_check(q))
        return cli_fail(SWX_EINVAL);
    return 0;
}

/* Which options go with which way of running: one row a rule, checked
 * before anything is sent. A rule applies when `mode` is given (or, with
 * absent set, when it is not), and refuses each of `refused` with one line:
 * --MODE WHY --OPTION (absent: --OPTION WHY --MODE). */
static const struct mode_rule {
    const char *mode;
    int absent;
    const char *why;
    const char *refused[10];
} mode_rules[] = {
    {"route", 1, "goes with", {"depart", "speed", "json", "segments"}},
    {"kmz",
     0,
     "downloads the KMZ as it is: it takes no",
     {"route", "output", "input", "kinds", "cone-radii", "danger-errors"}},
    {"input",
     0,
     "converts a saved answer as it is, filters go to the service: it takes no",
     {"status", "id", "name", "category", "intensity", "region", "period", "data-filter",
      "offset"}},
};

static int check_modes(const cli_args *a)
{
    for (size_t i = 0; i < sizeof mode_rules / sizeof *mode_rules; i++) {
        const struct mode_rule *r = &mode_rules[i];
        if (cli_has(a, r->mode) == r->absent)
            continue;
        for (size_t k = 0; k < sizeof r->refused / sizeof *r->refused && r->refused[k]; k++) {
            if (!cli_has(a, r->refused[k]))
                continue;
            if (r->absent)
                cli_error("--%s %s --%s", r->refused[k], r->why, r->mode);
            else
                cli_error("--%s %s --%s", r->mode, r->why, r->refused[k]);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Where the storms go: one file per kind (and the QGIS layer file) in the
 * folder of -o DIR/, the one file of -o FILE, or stdout; with --route and no
 * -o, nowhere (the report alone goes to stdout, *w stays NULL). A folder
 * this run created is *made_dir. */
static int open_writer(swx_storm_geojson **w, struct outputs *out, const char **made_dir,
                       const char *output, unsigned mask, int route_mode)
{
    int rc, exit_code;
    if (output && is_dir_target(output)) {
        FILE *files[NKINDS] = {0};
        if (mkdir(output, 0777) == 0) {
            *made_dir = output;
        } else if (errno != EEXIST) {
            cli_error("cannot create folder %s: %s", output, strerror(errno));
            return EXIT_IO;
        }
        for (int k = 0; k < NKINDS; k++) {
            if (!(mask & (1u << k)))
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s%s%s", output,
                     output[strlen(output) - 1] == '/' ? "" : "/", swx_storm_kind_get(k)->file);
            if ((exit_code = out_open(out, k, path)))
                return exit_code;
            files[k] = out->f[k];
        }
        char qlr[4096];
        snprintf(qlr, sizeof qlr, "%s%s" CLI_STORM_QLR, output,
                 output[strlen(output) - 1] == '/' ? "" : "/");
        if ((exit_code = out_open(out, SLOT_QLR, qlr)))
            return exit_code;
        if (cli_storm_qlr_write(out->f[SLOT_QLR], mask) != 0) {
            cli_error("cannot write %s: %s", qlr, strerror(errno));
            return EXIT_IO;
        }
        snprintf(qlr, sizeof qlr, "%s%s" CLI_STORM_QGS, output,
                 output[strlen(output) - 1] == '/' ? "" : "/");
        if ((exit_code = out_open(out, SLOT_QGS, qlr)))
            return exit_code;
        rc = swx_storm_geojson_new_split(w, files);
    } else if (output) {
        if ((exit_code = out_open(out, NKINDS, output)))
            return exit_code;
        rc = swx_storm_geojson_new(w, out->f[NKINDS], mask);
    } else if (!route_mode) {
        rc = swx_storm_geojson_new(w, stdout, mask);
    } else {
        rc = 0; /* the report alone goes to stdout */
    }
    return rc ? cli_fail(rc) : EXIT_OK;
}

/* The risk along --route: its stretches (--segments), the report (--json
 * or a table) and one line; *risk_exit says the worst the ship meets
 * (EXIT_RISK_DANGER and up, or EXIT_OK). Returns 0, or the exit code of an
 * error. */
static int report_risk(int *risk_exit, const cli_args *a, const swx_risk_report *risk,
                       const struct outputs *out)
{
    int rc;
    if (out->f[SLOT_SEGMENTS] && swx_risk_report_segments(out->f[SLOT_SEGMENTS], risk) != 0) {
        cli_error("cannot write %s: %s", cli_get(a, "segments"), strerror(errno));
        return EXIT_IO;
    }
    if (cli_has(a, "json")) {
        if ((rc = swx_risk_report_json(stdout, risk)))
            return cli_fail(rc);
        fputc('\n', stdout);
    } else {
        risk_table(stdout, risk);
    }
    int worst = swx_risk_report_worst(risk, NULL);
    if (!cli_has(a, "quiet"))
        cli_info("%zu storms checked, %zu meet the voyage in time, %s",
                 swx_risk_report_checked(risk), swx_risk_report_count(risk),
                 worst < 0                  ? "none reaches the ship"
                 : worst == SWX_RISK_DANGER ? "the ship enters a danger area"
                                            : "the ship meets storm-force winds");
    *risk_exit = worst >= 0 ? EXIT_RISK_DANGER + worst : EXIT_OK;
    return 0;
}

/* The line counting what was written, per kind: every kind counted by
 * feature, the danger kinds only when some were asked for. */
static void report_counts(const size_t *counts, size_t storms, int pages, unsigned mask)
{
    int danger = (mask & ~swx_storm_kinds_default()) != 0;
    char buf[512];
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < NKINDS && len < sizeof buf; k++) {
        const swx_storm_kind_info *r = swx_storm_kind_get(k);
        if (!r->summary || (r->danger && !danger))
            continue;
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%zu %s", len ? ", " : "", counts[k],
                                r->summary);
    }
    cli_info("%zu storms: %s (%d request%s)", storms, buf, pages, pages == 1 ? "" : "s");
}

int cmd_storms(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_storm_query q;
    swx_client *client = NULL;
    swx_storm_geojson *w = NULL;
    struct outputs out;
    unsigned mask = swx_storm_kinds_default();
    swx_storm_danger *danger = NULL;
    swx_voyage *voyage = NULL;
    swx_risk_report *risk = NULL;
    int exit_code = EXIT_OK, rc, pages = 0;
    const char *made_dir = NULL; /* a folder this run created, removed again on failure */
    memset(&out, 0, sizeof out);
    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    out.inputs[0] = cli_get(&a, "input");
    out.inputs[1] = cli_get(&a, "route");
    if (a.npositional) {
        cli_error("unexpected argument '%s' (see 'seawx storms --help')", a.positional[0]);
        return EXIT_USAGE;
    }
    /* Everything the user typed is checked before anything is sent. */
    if ((exit_code = read_query(&a, &q)))
        return exit_code;
    if (cli_has(&a, "kinds") && swx_storm_kinds_parse(&mask, cli_get(&a, "kinds")))
        return cli_fail(SWX_EINVAL);
    if ((exit_code = cli_danger_read(&danger, &a)))
        return exit_code;
    const char *kmz = cli_get(&a, "kmz"), *output = cli_get(&a, "output");
    const char *input = cli_get(&a, "input");
    const int route_mode = cli_has(&a, "route");
    if ((exit_code = check_modes(&a)))
        goto done;
    if (route_mode && (exit_code = read_voyage(&a, &voyage)))
        goto done;
    /* --segments and a single --output file: two files, not one under two
     * names (the second would replace the first) */
    const char *outs[2] = {output && output[strlen(output) - 1] != '/' ? output : NULL,
                           cli_get(&a, "segments")};
    static const char *const out_names[2] = {"--output", "--segments"};
    if ((rc = swx_outputs_distinct(outs, out_names, 2))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if (route_mode && cli_has(&a, "segments") &&
        (exit_code = out_open(&out, SLOT_SEGMENTS, cli_get(&a, "segments"))))
        goto done;
    if (route_mode && (rc = swx_risk_report_new(&risk, voyage, danger))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if (kmz && (q.max_storms || q.offset > 0))
        cli_info("--kmz is one request: --limit and --offset select its storms");

    if (kmz && (exit_code = data_check_dest(kmz, SWX_ATOMICFILE_STREAM)))
        goto done;
    if (!input && (exit_code = cli_client(&client, &a)))
        goto done;
    if (kmz) {
        if ((rc = swx_storm_fetch_kmz(client, &q, kmz)))
            exit_code = cli_fail(rc);
        else if (!cli_has(&a, "quiet"))
            cli_info("wrote %s", kmz);
        goto done;
    }

    if ((exit_code = open_writer(&w, &out, &made_dir, output, mask, route_mode)))
        goto done;
    if (w)
        swx_storm_geojson_set_danger(w, danger);
    struct counting cnt = {.w = w,
                           .risk = risk,
                           .progress = !cli_has(&a, "quiet") && isatty(STDERR_FILENO),
                           .t0 = cli_now()};
    /* Ctrl-C or SIGTERM: the next storm or request stops, nothing is put in
     * place (exit 130). */
    cli_signals sig;
    cli_signals_catch(&sig);
    if (input)
        rc = swx_storm_read_file(input, count_and_write, &cnt);
    else
        rc = swx_storm_fetch(&pages, client, &q, count_and_write, &cnt);
    cli_progress(0, NULL);
    cli_signals_release(&sig);
    if (rc || cli_stop_soft) {
        exit_code = cli_stopped(rc) ? cli_interrupted("nothing written")
                    : cnt.write_rc  ? write_fail(rc, output)
                                    : cli_fail(rc);
        goto done;
    }
    size_t counts[NKINDS] = {0};
    if (w) {
        swx_storm_geojson_counts(counts, w);
        rc = swx_storm_geojson_finish(w);
        w = NULL;
        if (rc) {
            exit_code = write_fail(rc, output);
            goto done;
        }
    }
    if (out.f[SLOT_QGS] && cli_storm_qgs_write(out.f[SLOT_QGS], mask, &cnt.span) != 0) {
        cli_error("cannot write %s: %s", out.af[SLOT_QGS].path, strerror(errno));
        exit_code = EXIT_IO;
        goto done;
    }
    if (route_mode) {
        int risk_exit = EXIT_OK;
        if ((exit_code = report_risk(&risk_exit, &a, risk, &out)))
            goto done;
        exit_code = risk_exit;
        if (!output)
            goto done;
    }
    if (!cli_has(&a, "quiet"))
        report_counts(counts, cnt.storms, pages, mask);
done:
    swx_storm_geojson_free(w);
    /* a verdict of the risk keeps the files; an interruption does not */
    int kept =
        exit_code == EXIT_OK || (exit_code >= EXIT_RISK_DANGER && exit_code != EXIT_INTERRUPTED);
    int crc = out_close(&out, kept);
    if (crc && exit_code == EXIT_OK)
        exit_code = crc;
    if (made_dir && !kept)
        rmdir(made_dir); /* only when empty: nothing of this run is left in it */
    swx_client_free(client);
    swx_storm_danger_free(danger);
    swx_risk_report_free(risk);
    swx_voyage_free(voyage);
    return exit_code;
}

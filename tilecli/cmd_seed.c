/* cmd_seed.c: `seawx seed`, a layer's map tiles pre-seeded into MBTiles files,
 * one per valid time, by the seeding engine (lib/tiles/seed.c).
 *
 * This front end checks everything the user typed before any request, names
 * the output files, shows progress and failures, writes the summary and
 * handles signals: the first SIGINT / SIGTERM stops new requests and lets
 * those under way finish and be stored; a second one cancels them (the fetch
 * engine's cancel flag). Either way the file is committed and closed valid.
 */
#include "cli.h"

#include "seawx/atomicfile.h"
#include "seawx/error.h"
#include "seawx/readfile.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "seawx/seed.h"
#include "seawx/shard.h"
#include "seawx/tiles.h"
#include "seawx/voyage.h"
#include "seawx/wms.h"
#include "seawx/wms_select.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The defaults of one tile per GetMap and 32 GetMaps in flight were chosen by
 * measurement: lib/tiles/seed_run_int.h says why. */
#define SEED_FAILURES_SHOWN 10
#define SEED_MAX_FILE (64u * 1024u * 1024u)

const cli_opt cmd_seed_opts[] = {
    {"bundle", 'b', "NAME", "the bundle of the layer (required)", 0, NULL},
    {"layer", 'l', "NAME", "the layer's full name (sof-d/20241001/00/t2m:K)", 0, NULL},
    {"variable", 'v', "VAR", "or a variable (t2m, t2m:K), with --run", 0, NULL},
    CLI_OPT_TILE_RUN,
    {"time", 't', "TIME",
     "a valid time, a comma list, start/end/period, or all (default: the layer's default)", 0,
     NULL},
    {"style", 's', "NAME", "a style of the layer (default: the service's)", 0, NULL},
    {"bbox", 0, "W,S,E,N", "the area in degrees; W > E crosses the antimeridian", 0, NULL},
    {"area", 0, "FILE", "the area as a GeoJSON Polygon or MultiPolygon", 0, NULL},
    {"route", 0, "FILE",
     "a route: GeoJSON LineString or CSV waypoints (lat,lon); with waypoint times (a time or eta "
     "column, a \"times\" property), a voyage",
     0, NULL},
    CLI_OPT_BUFFER,
    {"depart", 0, "TIME", "a voyage along --route: the departure, ISO 8601 (with --speed)", 0,
     NULL},
    {"speed", 0, "KN|MIN-MAX",
     "a voyage's speed or speed band in knots (with --depart): each valid time gets the stretch "
     "of route the ship can be on then",
     0, NULL},
    {"zoom", 'z', "LEVELS", "zoom levels: 5, 3-9 or 3,5,7 (required)", 0, NULL},
    {"output", 'o', "FILE",
     "output MBTiles; {time}, {run}, {variable}, {layer}, {bundle} are replaced; "
     "{time} is needed for several times (default: {variable}-{time}.mbtiles)",
     0, NULL},
    CLI_OPT_TILE_SIZE,
    {"metatile", 'm', "N", "tiles per GetMap side: 1, 2, 4 or 8", 0, "1"},
    CLI_OPT_GETMAPS_IN_FLIGHT,
    {"rate", 0, "PER_S", "at most this many requests started per second", 0, NULL},
    {"skip-empty", 0, NULL, "leave fully transparent tiles out (default: stored once)", 0, NULL},
    {"clip", 0, NULL, "pixels outside the area transparent: the same area in every viewer", 0,
     NULL},
    {"format", 'f', "FMT",
     "png (the service's tiles, default), png8 (256 colours), webp, or jpeg (layers without "
     "transparency): docs/seeding.md, \"Encodings\"",
     0, NULL},
    {"quality", 0, "N", "1-100: lossy webp (default: lossless), jpeg (default 85)", 0, NULL},
    {"viewer", 0, "NAME",
     "opencpn, qgis, maplibre or any: refuse what it cannot show; default format png8", 0, NULL},
    {"shard", 0, "K/N",
     "seed only shard K of N (each shard computes the same partition alone; {shard} in "
     "--output becomes K-of-N); then 'seawx merge': docs/scale-out.md",
     0, NULL},
    {"dry-run", 'n', NULL,
     "print tiles per zoom and the size measured on sample tiles (their GetMaps and bytes are "
     "on the line); write no file",
     0, NULL},
    {"summary-json", 0, "FILE", "write a JSON summary of the run to FILE", 0, NULL},
    {"quiet", 'q', NULL, "no progress, only errors", 0, NULL},
    {0},
};

/* ---- signals ---- */

/* ---- setting up ---- */

/* Appends s to out, replacing characters unsafe in file names by '_'. */
static void put_safe(char *out, size_t cap, size_t *at, const char *s)
{
    for (; *s && *at + 1 < cap; s++)
        out[(*at)++] = (*s == '/' || *s == ':' || *s == ' ' || *s == '\\') ? '_' : *s;
    out[*at] = '\0';
}

/* The output name for one time. Returns 0, or SWX_EINVAL for an unknown
 * placeholder. */
static int expand_name(const char *tpl, const char *bundle, const char *layer, const char *var,
                       const char *run, const char *timec, const char *shard, char *out, size_t cap)
{
    size_t at = 0;
    out[0] = '\0';
    for (const char *p = tpl; *p;) {
        if (*p == '{') {
            const char *e = strchr(p, '}');
            if (!e)
                return swx_error_set(SWX_EINVAL, "output name '%s': '{' without '}'", tpl);
            size_t n = (size_t)(e - p - 1);
            const char *v = NULL;
            if (n == 4 && strncmp(p + 1, "time", 4) == 0)
                v = timec;
            else if (n == 3 && strncmp(p + 1, "run", 3) == 0)
                v = run;
            else if (n == 8 && strncmp(p + 1, "variable", 8) == 0)
                v = var;
            else if (n == 5 && strncmp(p + 1, "layer", 5) == 0)
                v = layer;
            else if (n == 6 && strncmp(p + 1, "bundle", 6) == 0)
                v = bundle;
            else if (n == 5 && strncmp(p + 1, "shard", 5) == 0)
                v = shard;
            else
                return swx_error_set(SWX_EINVAL,
                                     "output name '%s': unknown placeholder {%.*s}; use {time}, "
                                     "{run}, {variable}, {layer}, {bundle} or {shard}",
                                     tpl, (int)n, p + 1);
            put_safe(out, cap, &at, v ? v : "none");
            p = e + 1;
            continue;
        }
        if (at + 1 < cap) {
            out[at++] = *p;
            out[at] = '\0';
        }
        p++;
    }
    if (at + 1 >= cap)
        return swx_error_set(SWX_EINVAL, "output name '%.60s...' is too long", tpl);
    return 0;
}

/* What path may become (swx_atomicfile_target(), flags as there), never one of
 * the run's input files (--route, --area); an MBTiles file continued in place
 * must also be readable and writable. */
static int check_output_dir(const char *path, int flags, const cli_args *a)
{
    const char *inputs[] = {cli_get(a, "route"), cli_get(a, "area")};
    int stream = 0, rc = swx_atomicfile_target(NULL, &stream, path, flags, inputs, 2);
    if (rc)
        return rc;
    struct stat sb;
    if (!stream && stat(path, &sb) == 0 && access(path, R_OK | W_OK) != 0)
        return swx_error_set(SWX_EIO, "cannot write %s: it exists and is not a writable file",
                             path);
    return 0;
}

/* "20241001T000000Z" from an instant, for file names. */
static void compact_time(int64_t t, char *out, size_t n)
{
    int y, mo, d, h, mi, sec;
    swx_civil_from_time(&y, &mo, &d, &h, &mi, &sec, t);
    snprintf(out, n, "%04d%02d%02dT%02d%02d%02dZ", y, mo, d, h, mi, sec);
}

/* The viewers --viewer names (the formats each decodes are in the rows of
 * seawx/tile_format.h), and why they refuse the others. */
typedef struct viewer {
    const char *name;
    unsigned viewers; /* SWX_VIEWER_*: every one must decode the format */
    const char *why;
} viewer;

static const viewer viewers[] = {
    {"opencpn", SWX_VIEWER_OPENCPN, "OpenCPN decodes PNG and JPEG tiles, not WebP"},
    {"qgis", SWX_VIEWER_QGIS,
     "QGIS 3.22 and GDAL 3.6 read PNG and JPEG tiles in MBTiles; WebP needs GDAL 3.8"},
    {"maplibre", SWX_VIEWER_MAPLIBRE, ""},
    {"any", SWX_VIEWER_ALL, "not every viewer decodes WebP (OpenCPN and GDAL before 3.8 do not)"},
};

typedef struct file_result {
    char path[4096];
    char time_s[SWX_ISO8601_LEN];
    uint64_t tiles, present, stored, failed, empty;
    int64_t images;
    int done;
} file_result;

/* Writes the summary as an atomic file, so that a summary is complete or
 * absent; returns 0, or -1 after an error line. */
static int write_summary(const char *path, const char *bundle, const char *layer,
                         const file_result *files, size_t nfiles, uint64_t total,
                         const swx_fetch_stats *st, const swx_seed_counts *c, const char *format,
                         double seconds, int exit_code, int interrupted, const char *error)
{
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    int bad = 0;
    if (swx_atomicfile_open(&af, path, 0666, SWX_ATOMICFILE_STREAM) != 0) {
        cli_error("writing the summary failed: %s", swx_error_last());
        return -1;
    }
    FILE *f = af.f;
    swx_jsonw *w = NULL;
    if (swx_jsonw_new(&w, f, 2) != 0) {
        bad = 1;
    } else {
        uint64_t fetched = 0, failed = 0, present = 0;
        for (size_t i = 0; i < nfiles; i++) {
            fetched += files[i].stored;
            failed += files[i].failed;
            present += files[i].present;
        }
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "bundle");
        swx_jsonw_string(w, bundle);
        swx_jsonw_key(w, "layer");
        swx_jsonw_string(w, layer);
        swx_jsonw_key(w, "tiles");
        swx_jsonw_int(w, (int64_t)total);
        swx_jsonw_key(w, "already_present");
        swx_jsonw_int(w, (int64_t)present);
        swx_jsonw_key(w, "stored");
        swx_jsonw_int(w, (int64_t)fetched);
        swx_jsonw_key(w, "failed");
        swx_jsonw_int(w, (int64_t)failed);
        swx_jsonw_key(w, "requests");
        swx_jsonw_int(w, st->requests);
        swx_jsonw_key(w, "retries");
        swx_jsonw_int(w, st->retries);
        swx_jsonw_key(w, "bytes_received");
        swx_jsonw_number(w, st->bytes, 0);
        swx_jsonw_key(w, "format");
        swx_jsonw_string(w, format);
        swx_jsonw_key(w, "bytes_of_tiles_received");
        swx_jsonw_int(w, (int64_t)c->bytes_received);
        swx_jsonw_key(w, "bytes_of_tiles_stored");
        swx_jsonw_int(w, (int64_t)c->bytes_stored);
        swx_jsonw_key(w, "seconds");
        swx_jsonw_number(w, seconds, 3);
        swx_jsonw_key(w, "tiles_per_second");
        swx_jsonw_number(w, seconds > 0 ? (double)fetched / seconds : 0, 1);
        swx_jsonw_key(w, "interrupted");
        swx_jsonw_bool(w, interrupted);
        swx_jsonw_key(w, "exit_code");
        swx_jsonw_int(w, exit_code);
        swx_jsonw_key(w, "error");
        swx_jsonw_string(w, error && error[0] ? error : NULL);
        swx_jsonw_key(w, "files");
        swx_jsonw_array_begin(w);
        for (size_t i = 0; i < nfiles; i++) {
            swx_jsonw_object_begin(w);
            swx_jsonw_key(w, "path");
            swx_jsonw_string(w, files[i].path);
            swx_jsonw_key(w, "time");
            swx_jsonw_string(w, files[i].time_s[0] ? files[i].time_s : NULL);
            swx_jsonw_key(w, "tiles");
            swx_jsonw_int(w, (int64_t)files[i].tiles);
            swx_jsonw_key(w, "already_present");
            swx_jsonw_int(w, (int64_t)files[i].present);
            swx_jsonw_key(w, "stored");
            swx_jsonw_int(w, (int64_t)files[i].stored);
            swx_jsonw_key(w, "empty");
            swx_jsonw_int(w, (int64_t)files[i].empty);
            swx_jsonw_key(w, "failed");
            swx_jsonw_int(w, (int64_t)files[i].failed);
            swx_jsonw_key(w, "images");
            swx_jsonw_int(w, files[i].images);
            swx_jsonw_key(w, "complete");
            swx_jsonw_bool(w, files[i].done);
            swx_jsonw_object_end(w);
        }
        swx_jsonw_array_end(w);
        swx_jsonw_object_end(w);
        bad = swx_jsonw_finish(w) != 0;
    }
    if (bad) {
        swx_atomicfile_abort(&af);
        cli_error("cannot write the summary %s: %s", path, strerror(errno ? errno : EIO));
        return -1;
    }
    if (swx_atomicfile_commit(&af) != 0) {
        cli_error("writing the summary failed: %s", swx_error_last());
        return -1;
    }
    return 0;
}

/* ---- what the engine reports ---- */

typedef struct ui {
    int quiet, tty;
    double t0, last_progress;
    const char *label; /* the file being seeded */
    int failures_shown;
    int encoded; /* a format other than png: show the bytes saved */
    swx_seed_counts c;
} ui;

/* "62% smaller" once tiles were stored in another format, else "". */
static void saved_text(char *out, size_t n, const swx_seed_counts *c, int encoded)
{
    out[0] = '\0';
    if (encoded && c->bytes_received > 0)
        snprintf(out, n, ", %.0f%% smaller",
                 100.0 * (1.0 - (double)c->bytes_stored / (double)c->bytes_received));
}

static void ui_progress_line(ui *u, int final)
{
    if (u->quiet)
        return;
    double t = cli_now();
    double interval = u->tty ? 0.25 : 2.0;
    if (!final && t - u->last_progress < interval)
        return;
    u->last_progress = t;
    const swx_seed_counts *c = &u->c;
    double el = t - u->t0;
    double rate = el > 0 ? (double)c->run_done / el : 0;
    uint64_t left = c->total > c->done ? c->total - c->done : 0;
    char eta[32] = "-";
    if (rate > 0 && left) {
        long e = (long)(left / rate + 0.5);
        snprintf(eta, sizeof eta, "%ld:%02ld:%02ld", e / 3600, e / 60 % 60, e % 60);
    } else if (!left) {
        snprintf(eta, sizeof eta, "0:00:00");
    }
    char saved[32];
    saved_text(saved, sizeof saved, c, u->encoded);
    /* The figures first: on a narrow terminal the line is cut at its end. */
    cli_progress(final, "%llu/%llu tiles (%.0f%%), %.0f tiles/s, ETA %s, %llu failed%s: %s",
                 (unsigned long long)c->done, (unsigned long long)c->total,
                 c->total ? 100.0 * (double)c->done / (double)c->total : 100.0, rate, eta,
                 (unsigned long long)c->failed, saved, u->label ? u->label : "");
}

static void ui_progress(void *ud, const swx_seed_counts *c)
{
    ui *u = ud;
    u->c = *c;
    ui_progress_line(u, 0);
}

static void ui_failed(void *ud, int z, uint32_t x, uint32_t y, int n, const char *why)
{
    ui *u = ud;
    if (u->failures_shown < SEED_FAILURES_SHOWN) {
        cli_progress(0, NULL);
        cli_warn("%d tile%s from %d/%u/%u failed: %s", n, n == 1 ? "" : "s", z, x, y, why);
    } else if (u->failures_shown == SEED_FAILURES_SHOWN) {
        cli_progress(0, NULL);
        cli_warn("more tiles failed; the count is in the summary");
    }
    u->failures_shown++;
}

/* The measured size of a dry run (swx_seed_quote_plan). */
static void print_estimate(const swx_seed_quote *q, size_t nt, const char *format, int clip)
{
    const double mib = 1024.0 * 1024.0;
    printf("estimated size: about %.1f MiB%s (likely %.1f to %.1f) in %zu file%s%s%s, measured on "
           "%u sample tile%s (%llu GetMap%s, %.0f kB)%s\n",
           q->bytes / mib, clip ? " before clipping" : "", q->bytes_low / mib, q->bytes_high / mib,
           nt, nt == 1 ? "" : "s", format ? " as " : "", format ? format : "", q->samples,
           q->samples == 1 ? "" : "s", (unsigned long long)q->requests, q->requests == 1 ? "" : "s",
           q->bytes_fetched / 1000.0,
           clip ? "; --clip makes the tiles along the area's edge smaller" : "");
}

/* A voyage's dry run: tiles and GetMaps per valid time and zoom, and the
 * static corridor of the same route and times for comparison. */
static int dry_run_voyage(const swx_seed_plan *plan, const swx_seed_quote *q, const swx_voyage *v,
                          const swx_area *corridor, uint32_t zooms, long tile_size, long metatile,
                          int clip)
{
    char dep[SWX_ISO8601_LEN], arr[SWX_ISO8601_LEN], ts[SWX_ISO8601_LEN];
    int64_t depart;
    double arrival;
    size_t nt = swx_seed_plan_file_count(plan);
    int rc = swx_voyage_span(&depart, &arrival, v);
    if (rc)
        return cli_fail(rc);
    swx_iso8601_format(dep, depart);
    swx_iso8601_format(arr, (int64_t)(arrival + 0.5));
    printf("layer %s, %zu time%s, tiles of %ld px, metatile %ld%s\n",
           swx_layer_name(swx_seed_plan_layer(plan)), nt, nt == 1 ? "" : "s", tile_size, metatile,
           swx_seed_plan_warped(plan) ? ", warped from EPSG:4326" : "");
    printf("voyage: %.1f nm, departs %s, arrives by %s%s\n", swx_voyage_length(v) / SWX_NM_M, dep,
           arr, swx_voyage_timed(v) ? " (waypoint times)" : "");
    printf("%-20s %5s %12s %12s\n", "time", "zoom", "tiles", "requests");
    uint64_t tiles = 0, reqs = 0, corridor_tiles = 0;
    for (size_t i = 0; i < nt; i++) {
        swx_iso8601_format(ts, swx_seed_plan_time(plan, i));
        for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
            if (!(zooms & (1u << z)))
                continue;
            uint64_t r = 0, n = swx_seed_plan_tiles(plan, i, z);
            if ((rc = swx_seed_plan_requests(&r, plan, i, z)))
                return cli_fail(rc);
            tiles += n;
            reqs += r;
            printf("%-20s %5d %12llu %12llu\n", ts, z, (unsigned long long)n,
                   (unsigned long long)r);
        }
    }
    printf("%-20s %5s %12llu %12llu\n", "all", "", (unsigned long long)tiles,
           (unsigned long long)reqs);
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
        uint64_t n = 0;
        if ((zooms & (1u << z)) && (rc = swx_area_count(&n, corridor, z)))
            return cli_fail(rc);
        corridor_tiles += n;
    }
    corridor_tiles *= swx_seed_plan_time_count(plan);
    printf("the whole corridor for the same %zu time%s: %llu tiles (the voyage needs %.1f%%)\n", nt,
           nt == 1 ? "" : "s", (unsigned long long)corridor_tiles,
           corridor_tiles ? 100.0 * (double)tiles / (double)corridor_tiles : 0.0);
    print_estimate(q, nt, NULL, clip);
    return fflush(stdout) != 0 ? EXIT_IO : EXIT_OK;
}

/* The options as they are typed, in the rules' messages. */
static const swx_seed_names seed_names = {
    .layer = "--layer",
    .variable = "--variable",
    .run = "--run",
    .times = "--time",
    .tile_size = "--tile-size",
    .metatile = "--metatile",
    .format = "--format",
    .quality = "--quality",
    .clip = "--clip",
};

/* One run of seawx seed: what was typed, read into the seed's options. */
typedef struct seed_cmd {
    cli_args a;
    swx_seed_opts so;
    cli_voyage_opts vo;
    const char *bundle, *tpl;
    int dry;
    long tile_size, metatile, in_flight;
    double rate, buffer_nm;
    char shard_name[32]; /* "K-of-N" for file names; "": no shard */
    swx_area *area;
    swx_voyage *voyage;
} seed_cmd;

/* The encoding, checked against the viewer before any request. */
static int read_encoding(seed_cmd *sc)
{
    const cli_args *a = &sc->a;
    swx_seed_opts *so = &sc->so;
    const char *fmt_arg = cli_get(a, "format"), *viewer_arg = cli_get(a, "viewer");
    const viewer *vw = NULL;
    if (viewer_arg) {
        for (size_t i = 0; i < sizeof viewers / sizeof viewers[0]; i++)
            if (strcmp(viewer_arg, viewers[i].name) == 0)
                vw = &viewers[i];
        if (!vw) {
            cli_error("unknown --viewer '%s': use opencpn, qgis, maplibre or any", viewer_arg);
            return EXIT_USAGE;
        }
    }
    so->format = vw ? SWX_FORMAT_PNG8 : SWX_FORMAT_PNG;
    if (fmt_arg && swx_tile_format_parse(&so->format, fmt_arg)) {
        swx_error_prefix(SWX_EINVAL, "--format");
        return cli_fail(SWX_EINVAL);
    }
    const swx_tile_format_info *fmt = swx_tile_format_get((int)so->format);
    char names[128];
    if (vw && (fmt->viewers & vw->viewers) != vw->viewers) {
        cli_error("--format %s cannot be shown with --viewer %s: %s; use %s", fmt_arg, vw->name,
                  vw->why,
                  swx_tile_format_names(names, sizeof names, SWX_TF_REENCODED, vw->viewers, -1));
        return EXIT_USAGE;
    }
    long quality = 0;
    if (cli_get_int(&quality, a, "quality", 1, 100))
        return EXIT_USAGE;
    so->quality = (int)quality;
    so->clip = cli_has(a, "clip");
    return 0;
}

/* Everything typed but the files it names, read before any request; the
 * rules of a seed's options are the core's (swx_seed_opts_check_named, asked
 * once the area is read). */
static int read_options(seed_cmd *sc)
{
    const cli_args *a = &sc->a;
    swx_seed_opts *so = &sc->so;
    int rc;
    sc->bundle = cli_get(a, "bundle");
    sc->tpl = cli_get(a, "output");
    sc->dry = cli_has(a, "dry-run");
    if (!sc->bundle) {
        cli_error("--bundle is required (see 'seawx seed --help')");
        return EXIT_USAGE;
    }
    int nwhere = cli_has(a, "bbox") + cli_has(a, "area") + cli_has(a, "route");
    if (nwhere != 1) {
        cli_error("give exactly one of --bbox, --area or --route");
        return EXIT_USAGE;
    }
    if (cli_has(a, "buffer") && !cli_has(a, "route")) {
        cli_error("--buffer goes with --route");
        return EXIT_USAGE;
    }
    /* A voyage: --depart and --speed, or a route with waypoint times. */
    if ((cli_has(a, "depart") || cli_has(a, "speed")) && !cli_has(a, "route")) {
        cli_error("--depart and --speed go with --route");
        return EXIT_USAGE;
    }
    if ((rc = cli_voyage_read(&sc->vo, a)))
        return rc;
    if (!cli_get(a, "zoom")) {
        cli_error("--zoom is required: a level, a range or a list (5, 3-9, 3,5,7)");
        return EXIT_USAGE;
    }
    if (swx_zoom_list_parse(&so->zooms, cli_get(a, "zoom")))
        return cli_fail(SWX_EINVAL);
    if (cli_get_int(&sc->tile_size, a, "tile-size", 256, 512) ||
        cli_get_int(&sc->metatile, a, "metatile", 1, 8) ||
        cli_get_int(&sc->in_flight, a, "in-flight", 1, 256))
        return EXIT_USAGE;
    if ((rc = read_encoding(sc)))
        return rc;
    sc->rate = 0;
    if (cli_get_double(&sc->rate, a, "rate", 0.01, 100000) ||
        cli_get_double(&sc->buffer_nm, a, "buffer", 0, 2000))
        return EXIT_USAGE;
    /* A shard: K/N, also as "K-of-N" for file names. */
    if (cli_has(a, "shard")) {
        if (swx_shard_parse(&so->shard, &so->shard_count, cli_get(a, "shard"))) {
            swx_error_prefix(SWX_EINVAL, "--shard");
            return cli_fail(SWX_EINVAL);
        }
        snprintf(sc->shard_name, sizeof sc->shard_name, "%d-of-%d", so->shard, so->shard_count);
    }
    if (!sc->tpl)
        sc->tpl = so->shard_count ? "{variable}-{time}.shard-{shard}.mbtiles"
                                  : "{variable}-{time}.mbtiles";
    char probe[4096];
    if (expand_name(sc->tpl, sc->bundle, "layer", "var", "2024010100", "20240101T000000Z",
                    sc->shard_name[0] ? sc->shard_name : NULL, probe, sizeof probe))
        return cli_fail(SWX_EINVAL);
    if (!sc->dry && (rc = check_output_dir(probe, 0, a)))
        return cli_fail(rc);
    /* The summary is JSON, a stream: /dev/null or /dev/stdout is written through. */
    const char *summary = cli_get(a, "summary-json");
    if (!sc->dry && summary && (rc = check_output_dir(summary, SWX_ATOMICFILE_STREAM, a)))
        return cli_fail(rc);
    return 0;
}

/* The area of --bbox, --area or --route, and the voyage of a route read as
 * one: asked for, or given by its waypoint times (a route of several lines,
 * with no times, stays a corridor). */
static int read_where(seed_cmd *sc)
{
    const cli_args *a = &sc->a;
    char *text = NULL;
    size_t tlen = 0;
    int rc;
    if (cli_has(a, "bbox")) {
        rc = swx_area_from_bbox_text(&sc->area, cli_get(a, "bbox"));
    } else {
        const char *file = cli_get(a, cli_has(a, "area") ? "area" : "route");
        rc = swx_read_file(&text, &tlen, file, SEED_MAX_FILE);
        if (!rc)
            rc = cli_has(a, "area")
                     ? swx_area_from_geojson_polygons(&sc->area, text, tlen)
                     : swx_area_from_route(&sc->area, text, tlen, sc->buffer_nm * SWX_NM_M);
        if (!rc && cli_has(a, "route")) {
            rc = swx_voyage_open(&sc->voyage, text, tlen, &sc->vo);
            if (rc && !sc->vo.given)
                rc = 0; /* no voyage: a corridor */
        }
        if (rc)
            swx_error_prefix(rc, "%s", file);
    }
    free(text);
    return rc;
}

/* The dry run of a seed without a voyage: tiles and requests per zoom, and
 * the estimated size. */
static int dry_run(const swx_seed_plan *plan, const swx_seed_quote *q, const seed_cmd *sc)
{
    const swx_seed_opts *so = &sc->so;
    size_t nt = swx_seed_plan_file_count(plan);
    uint64_t per_time = swx_seed_plan_tiles(plan, 0, -1);
    int rc;
    /* Requests per zoom: blocks with tiles of the area. */
    printf("layer %s, %zu time%s, tiles of %ld px, metatile %ld%s\n",
           swx_layer_name(swx_seed_plan_layer(plan)), nt, nt == 1 ? "" : "s", sc->tile_size,
           sc->metatile, swx_seed_plan_warped(plan) ? ", warped from EPSG:4326" : "");
    if (so->shard_count)
        printf("shard %d of %d (partition hilbert-v1): its tiles and requests only\n", so->shard,
               so->shard_count);
    printf("%5s %12s %12s\n", "zoom", "tiles", "requests");
    uint64_t reqs = 0;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
        if (!(so->zooms & (1u << z)))
            continue;
        uint64_t r = 0;
        if ((rc = swx_seed_plan_requests(&r, plan, 0, z)))
            return cli_fail(rc);
        reqs += r;
        printf("%5d %12llu %12llu\n", z, (unsigned long long)swx_seed_plan_tiles(plan, 0, z),
               (unsigned long long)r);
    }
    printf("%5s %12llu %12llu\n", "all", (unsigned long long)(per_time * nt),
           (unsigned long long)(reqs * nt));
    print_estimate(q, nt, swx_tile_format_name(so->format), so->clip);
    return fflush(stdout) != 0 ? EXIT_IO : EXIT_OK;
}

/* Every output name, known and checked before the first GetMap. Sets
 * *summary_is_output when --summary-json names one of them. */
static int name_files(file_result *files, const swx_seed_plan *plan, const seed_cmd *sc,
                      int *summary_is_output)
{
    const swx_layer *layer = swx_seed_plan_layer(plan);
    const char *run_s = swx_seed_plan_run(plan);
    const char *summary = cli_get(&sc->a, "summary-json");
    size_t nt = swx_seed_plan_file_count(plan);
    int rc;
    for (size_t i = 0; i < nt; i++) {
        char tc[32] = "notime";
        if (swx_seed_plan_time_count(plan)) {
            compact_time(swx_seed_plan_time(plan, i), tc, sizeof tc);
            swx_iso8601_format(files[i].time_s, swx_seed_plan_time(plan, i));
        }
        if ((rc = expand_name(sc->tpl, sc->bundle, swx_layer_name(layer), swx_layer_variable(layer),
                              run_s, tc, sc->shard_name[0] ? sc->shard_name : NULL, files[i].path,
                              sizeof files[i].path)) ||
            (rc = check_output_dir(files[i].path, 0, &sc->a)))
            return cli_fail(rc);
        for (size_t k = 0; k < i; k++)
            if (strcmp(files[k].path, files[i].path) == 0) {
                cli_error("two times would go to the same file %s: put {time} in --output",
                          files[i].path);
                return EXIT_USAGE;
            }
        /* The summary, written last, must not replace a file of the seed. */
        const char *mine[] = {files[i].path};
        if (summary && (strcmp(summary, files[i].path) == 0 ||
                        swx_atomicfile_target(NULL, NULL, summary, SWX_ATOMICFILE_STREAM, mine,
                                              1) == SWX_EINVAL)) {
            cli_error("--summary-json %s would replace the seed's file %s: name another file",
                      summary, files[i].path);
            *summary_is_output = 1;
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* The end of a seed: one line saying how it went, and the exit code. */
static int report(const ui *u, size_t nfiles, int stop_rc, int *interrupted, char *error_line,
                  size_t error_cap, const swx_fetch_stats *stats, swx_tile_format format)
{
    const swx_seed_counts *c = &u->c;
    if (stop_rc) {
        cli_error("%s", error_line);
        return cli_exit_code(stop_rc);
    }
    if (cli_stop_soft) {
        *interrupted = 1;
        snprintf(error_line, error_cap,
                 "interrupted: %llu of %llu tiles done; run the same command again to fetch the "
                 "rest",
                 (unsigned long long)c->done, (unsigned long long)c->total);
        cli_error("%s", error_line);
        return EXIT_INTERRUPTED;
    }
    if (c->failed) {
        snprintf(error_line, error_cap,
                 "%llu of %llu tiles failed and were not stored; run the same command again to "
                 "retry them",
                 (unsigned long long)c->failed, (unsigned long long)c->total);
        cli_error("%s", error_line);
        return EXIT_PARTIAL;
    }
    double el = cli_now() - u->t0;
    char saved[32];
    saved_text(saved, sizeof saved, c, u->encoded);
    cli_info("%llu tiles in %zu file%s (%llu fetched, %llu already there, %llu empty) in "
             "%.1f s, %llu requests; %.1f MiB received, %.1f MiB of %s tiles stored%s",
             (unsigned long long)c->total, nfiles, nfiles == 1 ? "" : "s",
             (unsigned long long)c->stored, (unsigned long long)c->present,
             (unsigned long long)c->empty, el, (unsigned long long)stats->requests,
             (double)c->bytes_received / 1048576.0, (double)c->bytes_stored / 1048576.0,
             swx_tile_format_name(format), saved);
    return EXIT_OK;
}

/* Seeds every file in turn until done, stopped or failed; the counts end in
 * u, the fetch's in stats. Returns the error of the file that failed (its
 * line in error_line), or 0. */
static int seed_files(swx_seed *seed, file_result *files, size_t nfiles, ui *u,
                      swx_fetch_stats *stats, char *error_line, size_t error_cap)
{
    u->t0 = cli_now();
    u->last_progress = u->t0;
    swx_seed_get_counts(&u->c, seed);
    int stop_rc = 0;
    for (size_t fi = 0; fi < nfiles && !cli_stop_soft; fi++) {
        file_result *fr = &files[fi];
        swx_seed_file_result res;
        u->label = fr->path; /* read by the final progress line too, after this loop */
        stop_rc = swx_seed_file(&res, seed, fi, fr->path);
        fr->tiles = res.tiles;
        fr->present = res.present;
        fr->stored = res.stored;
        fr->failed = res.failed;
        fr->empty = res.empty;
        fr->images = res.images;
        fr->done = res.complete;
        if (stop_rc) {
            snprintf(error_line, error_cap, "%s", swx_error_last());
            break;
        }
    }
    swx_seed_get_counts(&u->c, seed);
    swx_seed_get_stats(stats, seed);
    if (!stop_rc) /* an error is one line: what failed, not where the count stood */
        ui_progress_line(u, 1);
    cli_progress(0, NULL);
    return stop_rc;
}

int cmd_seed(const cli_cmd *cmd, int argc, char **argv)
{
    seed_cmd sc = {0};
    cli_args *a = &sc.a;
    swx_client *client = NULL;
    swx_caps *caps = NULL;
    swx_seed_plan *plan = NULL;
    swx_seed *seed = NULL;
    file_result *files = NULL;
    size_t nfiles = 0;
    int exit_code = EXIT_OK, rc;
    int interrupted = 0;
    int summary_is_output = 0; /* --summary-json names a file of the seed: not written */
    char error_line[1024] = "";
    swx_fetch_stats stats = {0};
    double t_start = cli_now();
    ui u = {0};
    swx_seed_opts *so = &sc.so;
    cli_signals sigs = {0};

    int pr = cli_parse(a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    if (a->npositional) {
        cli_error("unexpected argument '%s' (see 'seawx seed --help')", a->positional[0]);
        return EXIT_USAGE;
    }
    u.quiet = cli_has(a, "quiet");
    cli_set_quiet(u.quiet);

    /* ---- everything typed is checked before any request ---- */
    if ((exit_code = read_options(&sc)))
        return exit_code;
    if ((rc = read_where(&sc))) {
        swx_voyage_free(sc.voyage);
        swx_area_free(sc.area);
        return cli_fail(rc);
    }
    const char *var = cli_get(a, "variable");
    so->bundle = sc.bundle;
    so->layer = cli_get(a, "layer");
    so->variable = var;
    so->run = cli_get(a, "run");
    so->times = cli_get(a, "time");
    so->style = cli_get(a, "style");
    so->area = sc.area;
    so->tile_size = (int)sc.tile_size;
    so->metatile = (int)sc.metatile;
    so->skip_empty = cli_has(a, "skip-empty");
    so->voyage = sc.voyage;
    so->buffer_m = sc.buffer_nm * SWX_NM_M;
    if ((rc = swx_seed_opts_check_named(so, &seed_names))) {
        exit_code = cli_fail(rc);
        goto done;
    }

    /* ---- the layer, its times and style, from the capabilities ---- */
    /* Ctrl-C and SIGTERM stop every phase from the first request on. */
    cli_signals_catch(&sigs);
    if ((exit_code = cli_client(&client, a)))
        goto done;
    if ((rc = swx_wms_get_caps(&caps, client, sc.bundle))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if ((rc = swx_seed_plan_new(&plan, caps, so))) {
        if (rc == SWX_ENOTFOUND) {
            char line[1024];
            snprintf(line, sizeof line, "%s", swx_error_last());
            swx_error_set(rc, "%s ('seawx layers --bundle %s%s%s' lists them)", line, sc.bundle,
                          var ? " --variable " : "", var ? var : "");
        }
        exit_code = cli_fail(rc);
        goto done;
    }
    size_t nt = swx_seed_plan_file_count(plan);
    if (nt > 1 && !strstr(sc.tpl, "{time}")) {
        cli_error("%zu times go to %zu files: put {time} in the --output name", nt, nt);
        exit_code = EXIT_USAGE;
        goto done;
    }

    /* ---- the tiles ---- */
    if (sc.dry) {
        swx_seed_quote q;
        swx_seed_run_opts qo = {.stop = cli_stop_asked, .cancel = &cli_stop_hard};
        if ((rc = swx_seed_quote_plan(&q, client, caps, plan, &qo))) {
            exit_code = cli_fail(rc);
            goto done;
        }
        exit_code = sc.voyage ? dry_run_voyage(plan, &q, sc.voyage, sc.area, so->zooms,
                                               sc.tile_size, sc.metatile, so->clip)
                              : dry_run(plan, &q, &sc);
        goto done;
    }
    files = calloc(nt, sizeof *files);
    if (!files) {
        exit_code = cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
        goto done;
    }
    if ((exit_code = name_files(files, plan, &sc, &summary_is_output)))
        goto done;
    nfiles = nt;

    u.tty = isatty(STDERR_FILENO);
    u.encoded = !!(swx_tile_format_get((int)so->format)->props & SWX_TF_REENCODED);
    swx_seed_run_opts ro = {(int)sc.in_flight,
                            sc.rate,
                            cli_stop_asked,
                            &cli_stop_hard,
                            ui_progress,
                            ui_failed,
                            &u,
                            NULL};
    if ((rc = swx_seed_new(&seed, client, plan, &ro))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    int stop_rc = seed_files(seed, files, nfiles, &u, &stats, error_line, sizeof error_line);
    exit_code = report(&u, nfiles, stop_rc, &interrupted, error_line, sizeof error_line, &stats,
                       so->format);

done:
    swx_seed_free(seed);
    cli_signals_release(&sigs);
    if (cli_get(a, "summary-json") && !sc.dry && !summary_is_output &&
        write_summary(cli_get(a, "summary-json"), sc.bundle,
                      plan ? swx_layer_name(swx_seed_plan_layer(plan)) : NULL, files, nfiles,
                      u.c.total, &stats, &u.c, swx_tile_format_name(so->format),
                      cli_now() - t_start, exit_code, interrupted, error_line) &&
        exit_code == EXIT_OK)
        exit_code = EXIT_IO;
    free(files);
    swx_seed_plan_free(plan);
    swx_voyage_free(sc.voyage);
    swx_area_free(sc.area);
    swx_caps_free(caps);
    swx_client_free(client);
    return exit_code;
}

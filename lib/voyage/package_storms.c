/* package_storms.c: the storms of a voyage package (seawx/package.h): their
 * files, one per kind as `seawx storms -o DIR/` writes them, the voyage's risk
 * report and its stretches at risk, their entry in the manifest and their
 * layers in the project.
 *
 * Files, in the order of files[] below: the storm kinds in the order of
 * swx_storm_kind (each its row's file, "<layer>.geojson"), then
 * storm_risk.json and storm_risk_segments.geojson. */
#define _GNU_SOURCE
#include "package_int.h"
#include "seawx/error.h"
#include "seawx/storm_danger.h"
#include "seawx/iso8601.h"
#include "seawx/package.h"
#include "seawx/risk.h"
#include "seawx/storm_geojson.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RISK_JSON "storm_risk.json"
#define RISK_SEGMENTS "storm_risk_segments.geojson"
#define NFILES (SWX_SK_COUNT + 2)
#define F_RISK SWX_SK_COUNT
#define F_SEGMENTS (SWX_SK_COUNT + 1)

struct swx_pkg_storms {
    swx_package_storms o;
    swx_risk_report *risk;
    size_t storms;
    size_t counts[SWX_SK_COUNT];
    uint64_t bytes[NFILES];
    swx_storm_list list; /* the storms fetched, for the departure plan */
    int written;
};

static void file_name(char *out, size_t n, int i)
{
    if (i == F_RISK)
        snprintf(out, n, RISK_JSON);
    else if (i == F_SEGMENTS)
        snprintf(out, n, RISK_SEGMENTS);
    else
        snprintf(out, n, "%s", swx_storm_kind_get(i)->file);
}

/* dir/<file i>; SWX_EINVAL when it does not fit. */
static int file_path(char out[PATH_MAX], const char *dir, int i)
{
    char name[64];
    file_name(name, sizeof name, i);
    int n = snprintf(out, PATH_MAX, "%s/%s", dir, name);
    return n < 0 || n >= PATH_MAX ? swx_error_set(SWX_EINVAL, "the package's path is too long") : 0;
}

int swx_pkg_storms_new(swx_pkg_storms **out, const swx_package_storms *o)
{
    *out = NULL;
    if (!o || !o->query)
        return swx_error_set(SWX_EINVAL, "storms: no selection given");
    int rc = swx_storm_query_check(o->query);
    if (rc)
        return rc;
    if (!(*out = calloc(1, sizeof **out)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    (*out)->o = *o;
    return 0;
}

void swx_pkg_storms_free(swx_pkg_storms *s)
{
    if (!s)
        return;
    swx_risk_report_free(s->risk);
    swx_storm_list_clear(&s->list);
    free(s);
}

struct fetch_ud {
    swx_pkg_storms *s;
    swx_storm_geojson *w;
};

static int on_storm(void *ud, const swx_storm *st)
{
    struct fetch_ud *f = ud;
    int rc = swx_risk_report_add(f->s->risk, st);
    if (!rc)
        rc = swx_storm_geojson_add(f->w, st);
    if (!rc)
        rc = swx_storm_list_add(&f->s->list, st);
    f->s->storms++;
    return rc;
}

int swx_pkg_storms_write(swx_pkg_storms *s, swx_client *c, const swx_voyage *v, const char *dir)
{
    FILE *files[NFILES] = {0};
    char path[NFILES][PATH_MAX];
    swx_storm_geojson *w = NULL;
    int rc = 0, pages = 0;
    swx_risk_report_free(s->risk);
    s->risk = NULL;
    swx_storm_list_clear(&s->list);
    s->storms = 0;
    s->written = 0;
    memset(s->bytes, 0, sizeof s->bytes);
    memset(s->counts, 0, sizeof s->counts);
    if ((rc = swx_risk_report_new(&s->risk, v, s->o.danger)))
        goto done;
    for (int i = 0; i < NFILES; i++) {
        if ((rc = file_path(path[i], dir, i)))
            goto done;
        if (!(files[i] = fopen(path[i], "w"))) {
            rc = swx_error_set(SWX_EIO, "cannot write %s: %s", path[i], strerror(errno));
            goto done;
        }
    }
    if ((rc = swx_storm_geojson_new_split(&w, files)))
        goto done;
    swx_storm_geojson_set_danger(w, s->o.danger);
    struct fetch_ud ud = {s, w};
    if ((rc = swx_storm_fetch(&pages, c, s->o.query, on_storm, &ud))) {
        swx_error_prefix(rc, "storms");
        goto done;
    }
    swx_storm_geojson_counts(s->counts, w);
    rc = swx_storm_geojson_finish(w);
    w = NULL;
    if (rc)
        goto done;
    if ((rc = swx_risk_report_json(files[F_RISK], s->risk)))
        goto done;
    fputc('\n', files[F_RISK]);
    if ((rc = swx_risk_report_segments(files[F_SEGMENTS], s->risk)))
        goto done;
done:
    swx_storm_geojson_free(w);
    for (int i = 0; i < NFILES; i++) {
        if (!files[i])
            continue;
        errno = 0;
        if ((ferror(files[i]) | (fclose(files[i]) != 0)) && !rc)
            rc = swx_error_set(SWX_EIO, "cannot write %s: %s", path[i],
                               strerror(errno ? errno : EIO));
        struct stat sb;
        s->bytes[i] = stat(path[i], &sb) == 0 ? (uint64_t)sb.st_size : 0;
    }
    if (rc)
        for (int i = 0; i < NFILES; i++)
            if (files[i])
                unlink(path[i]);
    s->written = rc == 0;
    return rc;
}

const swx_storm_list *swx_pkg_storms_list(const swx_pkg_storms *s)
{
    return &s->list;
}

size_t swx_pkg_storms_files(const swx_pkg_storms *s)
{
    return s->written ? NFILES : 0;
}

uint64_t swx_pkg_storms_bytes(const swx_pkg_storms *s)
{
    uint64_t b = 0;
    for (int i = 0; s->written && i < NFILES; i++)
        b += s->bytes[i];
    return b;
}

/* What the storms add to project.qgs (measured: their layers carry the
 * styles' renderers; each layer's <srs> counted as 400 bytes, more than the
 * project's EPSG:4326) and to manifest.json (a bound: a file's entry is under
 * 300 bytes, a storm's summary under 250). */
double swx_pkg_storms_extra(const swx_pkg_storms *s)
{
    if (!s->written)
        return 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    double project = 65536; /* when it cannot be measured */
    if (f) {
        swx_pkg_storms_tree(f, s);
        swx_pkg_storms_layers(f, s, "");
        if (fclose(f) == 0)
            project = (double)len + (SWX_SK_COUNT + 1) * 400.0;
        free(buf);
    }
    return project + 1024.0 + 300.0 * NFILES + 250.0 * (double)swx_risk_report_count(s->risk);
}

size_t swx_pkg_storms_count(const swx_pkg_storms *s)
{
    return s->storms;
}

const swx_risk_report *swx_pkg_storms_risk(const swx_pkg_storms *s)
{
    return s->written ? s->risk : NULL;
}

static void query_json(swx_jsonw *w, const swx_storm_query *q)
{
    const char *keys[] = {"status", "id", "name", "category", "region", "period", "data_filter"};
    const char *vals[] = {q->status, q->id,     q->name,       q->category,
                          q->region, q->period, q->data_filter};
    swx_jsonw_object_begin(w);
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (vals[i]) {
            swx_jsonw_key(w, keys[i]);
            swx_jsonw_string(w, vals[i]);
        }
    if (q->intensity >= 0) {
        swx_jsonw_key(w, "intensity");
        swx_jsonw_number(w, q->intensity, 1);
    }
    if (q->max_storms) {
        swx_jsonw_key(w, "max_storms");
        swx_jsonw_int(w, q->max_storms);
    }
    swx_jsonw_object_end(w);
}

/* The stretches at risk: one per storm and measure the ship is inside. */
static size_t segment_count(const swx_risk_report *r)
{
    size_t n = 0;
    for (size_t i = 0; i < swx_risk_report_count(r); i++) {
        const swx_storm_risk *sr = swx_risk_report_row(r, i, NULL, NULL);
        for (int m = 0; m < SWX_RISK_NMEASURES; m++)
            n += sr->span[m].inside != 0;
    }
    return n;
}

int swx_pkg_storms_manifest(swx_jsonw *w, const swx_pkg_storms *s, const char *dir)
{
    int rc = 0;
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "query");
    query_json(w, s->o.query);
    swx_jsonw_key(w, "storms");
    swx_jsonw_int(w, (int64_t)s->storms);
    swx_jsonw_key(w, "danger");
    swx_storm_danger_json(w, s->o.danger);
    swx_jsonw_key(w, "files");
    swx_jsonw_array_begin(w);
    for (int i = 0; i < NFILES && !rc; i++) {
        char name[64], path[PATH_MAX], hex[SWX_SHA256_HEX_LEN];
        file_name(name, sizeof name, i);
        if ((rc = file_path(path, dir, i)) || (rc = swx_package_file_sha256(hex, path)))
            break;
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "path");
        swx_jsonw_string(w, name);
        swx_jsonw_key(w, "kind");
        swx_jsonw_string(w, i == F_RISK       ? "risk_report"
                            : i == F_SEGMENTS ? "risk_segments"
                                              : swx_storm_kind_layer(i));
        swx_jsonw_key(w, "features");
        if (i < SWX_SK_COUNT)
            swx_jsonw_int(w, (int64_t)s->counts[i]);
        else if (i == F_SEGMENTS)
            swx_jsonw_int(w, (int64_t)segment_count(s->risk));
        else
            swx_jsonw_null(w);
        swx_jsonw_key(w, "bytes");
        swx_jsonw_int(w, (int64_t)s->bytes[i]);
        swx_jsonw_key(w, "sha256");
        swx_jsonw_string(w, hex);
        swx_jsonw_object_end(w);
    }
    swx_jsonw_array_end(w);
    /* The summary a shore office reads first: the worst, and each storm's
     * closest approach. */
    const swx_risk_report *r = s->risk;
    size_t row = 0;
    int worst = swx_risk_report_worst(r, &row);
    const char *id = NULL, *title = NULL;
    if (worst >= 0)
        swx_risk_report_row(r, row, &id, &title);
    swx_jsonw_key(w, "risk");
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "report");
    swx_jsonw_string(w, RISK_JSON);
    swx_jsonw_key(w, "segments");
    swx_jsonw_string(w, RISK_SEGMENTS);
    swx_jsonw_key(w, "storms_checked");
    swx_jsonw_int(w, (int64_t)swx_risk_report_checked(r));
    swx_jsonw_key(w, "worst");
    swx_jsonw_string(w, worst >= 0 ? swx_risk_measure_name(worst) : NULL);
    swx_jsonw_key(w, "worst_storm");
    swx_jsonw_string(w, id);
    swx_jsonw_key(w, "storms");
    swx_jsonw_array_begin(w);
    for (size_t i = 0; i < swx_risk_report_count(r); i++) {
        const swx_storm_risk *sr = swx_risk_report_row(r, i, &id, &title);
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "atcf_id");
        swx_jsonw_string(w, id);
        swx_jsonw_key(w, "title");
        swx_jsonw_string(w, title);
        swx_jsonw_key(w, "closest_approach_nm");
        swx_jsonw_number(w, sr->cpa_nm, 2);
        swx_jsonw_key(w, "closest_approach_time");
        swx_jsonw_time(w, sr->cpa_time);
        swx_jsonw_key(w, "worst");
        swx_jsonw_string(w, sr->worst >= 0 ? swx_risk_measure_name(sr->worst) : NULL);
        swx_jsonw_object_end(w);
    }
    swx_jsonw_array_end(w);
    swx_jsonw_object_end(w);
    swx_jsonw_object_end(w);
    return rc;
}

/* The route at risk: a wide orange line under the route's red one, shown at
 * every time as the route is (they are where the ship will be, and their
 * times are labels), where the storm layers follow the Temporal Controller
 * with the rasters. */
static swx_qgs_layer segments_layer(const char *srs)
{
    return (swx_qgs_layer){.id = "storm_risk_segments",
                           .type = "vector",
                           .provider = "ogr",
                           .source = "./" RISK_SEGMENTS,
                           .name = "route at risk",
                           .srs = srs,
                           .geometry = "Line",
                           .wkb = "MultiLineString"};
}
static const char segments_renderer[] =
    "<renderer-v2 type=\"singleSymbol\" symbollevels=\"0\" enableorderby=\"0\">"
    "<symbols><symbol type=\"line\" name=\"0\" alpha=\"0.8\" clip_to_extent=\"1\">"
    "<layer class=\"SimpleLine\" enabled=\"1\" locked=\"0\" pass=\"0\">"
    "<Option type=\"Map\"><Option type=\"QString\" name=\"line_color\" "
    "value=\"255,140,0,255\"/><Option type=\"QString\" name=\"line_width\" "
    "value=\"2.4\"/></Option></layer></symbol></symbols></renderer-v2>";

void swx_pkg_storms_tree(FILE *f, const swx_pkg_storms *s)
{
    if (!s->written)
        return;
    swx_qgs_group_begin(f, 1, "Storms", 1);
    swx_qgs_layer l = segments_layer(NULL);
    swx_qgs_tree_layer(f, 2, &l);
    swx_storm_qgs_tree(f, 2, SWX_SK_ALL, 0); /* in drawing order, as the storm folder's */
    swx_qgs_group_end(f, 1);
}

void swx_pkg_storms_layers(FILE *f, const swx_pkg_storms *s, const char *srs)
{
    if (!s->written)
        return;
    swx_qgs_layer l = segments_layer(srs);
    swx_qgs_maplayer(f, &l, segments_renderer);
    swx_storm_qgs_layers(f, SWX_SK_ALL, s->o.qml, srs); /* each with its style's renderer */
}

void swx_pkg_storms_remove(const char *dir)
{
    for (int i = 0; i < NFILES; i++) {
        char path[PATH_MAX];
        if (file_path(path, dir, i) == 0)
            unlink(path);
    }
}

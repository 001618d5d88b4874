/* package_write.c: the files a voyage package writes of its own besides the
 * tiles: route.geojson and project.qgs (QGIS 3.22). */
#define _GNU_SOURCE
#include "package_priv.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/qgs.h"
#include "seawx/sphere.h"
#include "xml.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The route, RFC 7946: positions as given, split at 180 where a leg crosses
 * it (a MultiLineString), with the voyage's times and speeds. */
int swx_pkg_write_route(const char *path, const swx_package *p)
{
    const swx_voyage *v = p->o.voyage;
    FILE *f = fopen(path, "w");
    if (!f)
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
    size_t n = swx_voyage_waypoint_count(v);
    int crosses = 0;
    for (size_t i = 1; i < n; i++) {
        double a, b, lat;
        int64_t t;
        swx_voyage_waypoint(&a, &lat, &t, v, i - 1);
        swx_voyage_waypoint(&b, &lat, &t, v, i);
        crosses |= fabs(b - a) > 180;
    }
    fprintf(f,
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{");
    int64_t dep;
    double arr, vmin, vmax;
    swx_voyage_span(&dep, &arr, v);
    swx_voyage_speed(&vmin, &vmax, v);
    char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
    swx_iso8601_format(a, dep);
    swx_iso8601_format(b, (int64_t)ceil(arr));
    fprintf(f, "\"depart\":\"%s\",\"arrive_latest\":\"%s\",\"length_nm\":%.1f,\"buffer_nm\":%.1f",
            a, b, swx_voyage_length(v) / SWX_NM_M, p->o.buffer_m / SWX_NM_M);
    if (vmin > 0)
        fprintf(f, ",\"speed_kn\":[%g,%g]", vmin, vmax);
    if (swx_voyage_timed(v)) {
        fprintf(f, ",\"times\":[");
        for (size_t i = 0; i < n; i++) {
            double lon, lat;
            int64_t t;
            swx_voyage_waypoint(&lon, &lat, &t, v, i);
            swx_iso8601_format(a, t);
            fprintf(f, "%s\"%s\"", i ? "," : "", a);
        }
        fprintf(f, "]");
    }
    fprintf(f, "},\"geometry\":{\"type\":\"%s\",\"coordinates\":[%s",
            crosses ? "MultiLineString" : "LineString", crosses ? "[" : "");
    double plon = 0, plat = 0;
    for (size_t i = 0; i < n; i++) {
        double lon, lat;
        int64_t t;
        swx_voyage_waypoint(&lon, &lat, &t, v, i);
        if (i && fabs(lon - plon) > 180) {
            /* The crossing, on the straight line in longitude, latitude. */
            double l2 = lon + (lon < plon ? 360 : -360);
            double edge = l2 > plon ? 180 : -180;
            double fr = (edge - plon) / (l2 - plon);
            double yl = plat + fr * (lat - plat);
            fprintf(f, ",[%.6f,%.6f]],[[%.6f,%.6f]", edge, yl, -edge, yl);
        }
        fprintf(f, "%s[%.6f,%.6f]", i ? "," : "", lon, lat);
        plon = lon;
        plat = lat;
    }
    fprintf(f, "%s]}}]}\n", crosses ? "]" : "");
    errno = 0;
    if (ferror(f) | (fclose(f) != 0))
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
    return 0;
}

/* A file's range (see package_priv.h): from one second after half way from
 * the valid time before (the first valid time of the run: from itself) to
 * one second before half way to the next. QGIS 3.22 takes both ends of a
 * raster's fixed range, and both ends of a Temporal Controller frame, as
 * inclusive: a range starting on the moment half way would show in the frame
 * that ends there too, two files at once. The moment half way itself belongs
 * to no file. The run's last valid time has a window open at its end (its
 * stretch runs to the latest arrival): it is shown for as long as the step
 * before it, or an hour. */
int64_t swx_pkg_range_start(const pkg_layer *L, size_t f)
{
    int64_t t = swx_seed_plan_time(L->plan, f);
    return f > 0 ? t - (t - swx_seed_plan_time(L->plan, f - 1)) / 2 + 1 : t;
}

int64_t swx_pkg_range_end(const pkg_layer *L, size_t f)
{
    int64_t t = swx_seed_plan_time(L->plan, f);
    if (f + 1 < L->nfiles)
        return t + (swx_seed_plan_time(L->plan, f + 1) - t) / 2 - 1;
    if (f > 0)
        return t + (t - swx_seed_plan_time(L->plan, f - 1)) - 1;
    return t + 3600 - 1;
}

/* The last file of layer L in the package, or SIZE_MAX when it has none. */
size_t swx_pkg_last_present(const pkg_layer *L)
{
    size_t last = SIZE_MAX;
    for (size_t f = L->first; f < L->nfiles; f++)
        if (L->files[f].present)
            last = f;
    return last;
}

static const char merc_srs[] = SWX_QGS_SRS_MERC;
static const char wgs_srs[] = SWX_QGS_SRS_WGS84;

/* File k of layer L as a layer of the project: its id, and its name "swh
 * 2024-10-01 06Z" ("06:30Z" off the hour): the variable and the valid time,
 * short enough for a narrow Layers panel. */
static swx_qgs_layer file_layer(char *id, size_t nid, char *name, size_t nname, char *src,
                                size_t nsrc, const pkg_layer *L, size_t k)
{
    char tc[32], iso[SWX_ISO8601_LEN];
    int64_t t = swx_seed_plan_time(L->plan, k);
    swx_pkg_compact_time(tc, sizeof tc, t);
    snprintf(id, nid, "%s_%s", L->safe, tc);
    swx_iso8601_format(iso, t);
    snprintf(name, nname, t % 3600 == 0 ? "%s %.10s %.2sZ" : "%s %.10s %.5sZ", L->spec.variable,
             iso, iso + 11);
    snprintf(src, nsrc, "./%s", L->files[k].name);
    return (swx_qgs_layer){.id = id,
                           .type = "raster",
                           .provider = "gdal",
                           .source = src,
                           .name = name,
                           .srs = merc_srs,
                           .ranged = 1,
                           .start = swx_pkg_range_start(L, k),
                           .end = swx_pkg_range_end(L, k)};
}

/* The route: a red line over everything but the storms' points. */
static const swx_qgs_layer route_layer = {.id = "voyage_route",
                                          .type = "vector",
                                          .provider = "ogr",
                                          .source = "./route.geojson",
                                          .name = "route",
                                          .srs = wgs_srs,
                                          .geometry = "Line",
                                          .wkb = "LineString",
                                          .expanded = 1};
static const char route_renderer[] =
    "<renderer-v2 type=\"singleSymbol\" symbollevels=\"0\" enableorderby=\"0\">"
    "<symbols><symbol type=\"line\" name=\"0\" alpha=\"1\" clip_to_extent=\"1\">"
    "<layer class=\"SimpleLine\" enabled=\"1\" locked=\"0\" pass=\"0\">"
    "<Option type=\"Map\"><Option type=\"QString\" name=\"line_color\" "
    "value=\"220,20,60,255\"/><Option type=\"QString\" name=\"line_width\" "
    "value=\"0.8\"/></Option></layer></symbol></symbols></renderer-v2>";

/* The route's extent in Web Mercator metres with a margin of a fifth. */
static void view_extent(double *x0, double *y0, double *x1, double *y1, const swx_voyage *v)
{
    const double R = SWX_MERC_RADIUS_M, D = M_PI / 180.0;
    double box[4];
    swx_voyage_box(box, v);
    double s = box[1] < -85 ? -85 : box[1], n = box[3] > 85 ? 85 : box[3];
    *x0 = R * box[0] * D;
    *x1 = R * box[2] * D;
    *y0 = R * log(tan(M_PI / 4 + s * D / 2));
    *y1 = R * log(tan(M_PI / 4 + n * D / 2));
    double mx = (*x1 - *x0) / 5 + 50000, my = (*y1 - *y0) / 5 + 50000;
    *x0 -= mx;
    *x1 += mx;
    *y0 -= my;
    *y1 += my;
}

/* The Temporal Controller's frames: [*start + k step, *start + (k + 1) step]
 * for k = 0 .. *frames - 1. The step is the files' (the smallest of every
 * layer) and the frames fall on the windows of the layer with that step:
 * each frame starts half way before one of its valid times (before the run's
 * first time too, whose window starts at the time itself), so it holds that
 * time's window and no other's. Other layers' windows are as long or longer,
 * so no frame holds two of theirs either when the runs share their times. */
static void frame_grid(int64_t *start, int64_t *step, long *frames, const swx_package *p)
{
    int64_t s = INT64_MAX, origin = 0, lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < p->n; i++) {
        const pkg_layer *L = &p->layers[i];
        size_t last = swx_pkg_last_present(L), first = SIZE_MAX;
        int64_t ls = INT64_MAX;
        for (size_t k = L->first; last != SIZE_MAX && k <= last; k++) {
            if (!L->files[k].present)
                continue;
            first = first == SIZE_MAX ? k : first;
            lo = swx_pkg_range_start(L, k) < lo ? swx_pkg_range_start(L, k) : lo;
            hi = swx_pkg_range_end(L, k) + 1 > hi ? swx_pkg_range_end(L, k) + 1 : hi;
            if (k + 1 < L->nfiles) {
                int64_t d = swx_seed_plan_time(L->plan, k + 1) - swx_seed_plan_time(L->plan, k);
                ls = d > 0 && d < ls ? d : ls;
            }
        }
        if (first == SIZE_MAX)
            continue;
        int64_t t = swx_seed_plan_time(L->plan, first);
        if (ls == INT64_MAX)
            ls = first > 0 ? t - swx_seed_plan_time(L->plan, first - 1) : 3600;
        ls = ls > 0 ? ls : 3600;
        /* half way before the first time, as a time before it would give */
        int64_t back = first > 0 ? (t - swx_seed_plan_time(L->plan, first - 1)) / 2 : ls / 2;
        if (ls < s || (ls == s && t - back < origin)) {
            s = ls;
            origin = t - back;
        }
    }
    if (s == INT64_MAX) {
        *start = 0;
        *step = 3600;
        *frames = 1;
        return;
    }
    while (origin > lo)
        origin -= s;
    *start = origin;
    *step = s;
    *frames = (long)((hi - origin + s - 1) / s);
}

int swx_pkg_write_project(const char *path, const swx_package *p)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
    int64_t t0, step;
    long frames;
    frame_grid(&t0, &step, &frames, p);
    swx_qgs_frame q = {.name = "voyage package",
                       .srs = merc_srs,
                       .units = "meters",
                       .decimals = 1,
                       .t0 = t0,
                       .t1 = t0 + frames * step,
                       .step = step};
    view_extent(&q.view[0], &q.view[1], &q.view[2], &q.view[3], p->o.voyage);
    swx_qgs_begin(f, &q);
    swx_qgs_tree_layer(f, 1, &route_layer);
    if (p->storms)
        swx_pkg_storms_tree(f, p->storms);
    swx_pkg_grib_tree(f, p);
    char id[160], name[256], src[PATH_MAX];
    for (size_t i = 0; i < p->n; i++) {
        const pkg_layer *L = &p->layers[i];
        swx_qgs_group_begin(f, 1, L->spec.variable, 1);
        for (size_t k = L->first; k < L->nfiles; k++)
            if (L->files[k].present) {
                swx_qgs_layer l =
                    file_layer(id, sizeof id, name, sizeof name, src, sizeof src, L, k);
                swx_qgs_tree_layer(f, 2, &l);
            }
        swx_qgs_group_end(f, 1);
    }
    swx_pkg_coast_tree(f, p); /* last: drawn under everything */
    swx_qgs_layers(f, &q);
    swx_qgs_maplayer(f, &route_layer, route_renderer);
    if (p->storms)
        swx_pkg_storms_layers(f, p->storms, wgs_srs);
    swx_pkg_grib_layers(f, p, wgs_srs);
    swx_pkg_coast_layers(f, p, wgs_srs);
    for (size_t i = 0; i < p->n; i++) {
        const pkg_layer *L = &p->layers[i];
        for (size_t k = L->first; k < L->nfiles; k++)
            if (L->files[k].present) {
                swx_qgs_layer l =
                    file_layer(id, sizeof id, name, sizeof name, src, sizeof src, L, k);
                swx_qgs_maplayer(f, &l, NULL);
            }
    }
    swx_qgs_end(f, &q);
    errno = 0;
    if (ferror(f) | (fclose(f) != 0))
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
    return 0;
}

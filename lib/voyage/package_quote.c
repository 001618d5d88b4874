/* package_quote.c: the quote of a voyage package's layer: its files, tiles
 * and GetMaps counted from the plan, its bytes per tile measured on a few
 * sample tiles along the voyage; and the quote of its storms' files. */
#define _GNU_SOURCE
#include "package_priv.h"
#include "seawx/package.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A small box around a point, as GeoJSON. */
static int sample_area(swx_area **out, double lon, double lat)
{
    char text[512];
    double d = 0.001;
    double w = lon - d < -180 ? lon : lon - d, e = lon + d > 180 ? lon : lon + d;
    int n = snprintf(text, sizeof text,
                     "{\"type\":\"Polygon\",\"coordinates\":[[[%.6f,%.6f],[%.6f,%.6f],[%.6f,%.6f],"
                     "[%.6f,%.6f],[%.6f,%.6f]]]}",
                     w, lat - d, e, lat - d, e, lat + d, w, lat + d, w, lat - d);
    return swx_area_from_geojson_polygons(out, text, (size_t)n);
}

/* Sample k of SAMPLE_POINTS: the tile at each zoom where the ship is half
 * way along its stretch at a valid time spread over the layer's files, into
 * its own file; adds the bytes each zoom added and its tiles. */
/* 1 when the caller asked the quote to stop: its stop callback, or its
 * cancel flag (which also ends the sample's seed at once). */
static int quote_stopped(const swx_package_run_opts *o)
{
    return o && ((o->stop && o->stop(o->ud)) || (o->cancel && *o->cancel));
}

static int sample_one(double *bytes, uint64_t *tiles, swx_package *p, pkg_layer *L, swx_client *c,
                      const int64_t *times, size_t nt, size_t f, const char *path,
                      const swx_package_run_opts *o)
{
    swx_area *area = NULL;
    swx_seed_plan *sp = NULL;
    swx_seed *seed = NULL;
    double from, to, lon, lat;
    char ts[SWX_ISO8601_LEN];
    int rc = swx_voyage_stretch(&from, &to, p->o.voyage, times, nt, f);
    if (rc < 0)
        return rc;
    swx_voyage_point(&lon, &lat, p->o.voyage, rc == 1 ? (from + to) / 2 : 0);
    swx_iso8601_format(ts, times[f]);
    swx_seed_opts so = L->so;
    so.voyage = NULL;
    so.times = ts;
    if ((rc = sample_area(&area, lon, lat)))
        goto done;
    so.area = area;
    swx_seed_run_opts ro = {.in_flight = 8,
                            .stop = o ? o->stop : NULL,
                            .cancel = o ? o->cancel : NULL,
                            .ud = o ? o->ud : NULL};
    if ((rc = swx_seed_plan_new(&sp, p->caps, &so)) || (rc = swx_seed_new(&seed, c, sp, &ro)))
        goto done;
    double before = FILE_BYTES;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
        if (!(L->spec.zooms & (1u << z)))
            continue;
        swx_seed_file_result r;
        if ((rc = swx_seed_file_zoom(&r, seed, 0, z, path)))
            goto done;
        if (quote_stopped(o)) {
            rc = swx_error_set(SWX_ECANCEL, "the quote was stopped before it was complete");
            goto done;
        }
        double size = (double)swx_pkg_file_size(path);
        bytes[z] += size - before;
        tiles[z] += r.stored + r.present;
        before = size;
    }
done:
    swx_seed_free(seed);
    swx_seed_plan_free(sp);
    swx_area_free(area);
    return rc;
}

int swx_package_quote_layer(swx_package_quote *out, swx_package *p, swx_client *c, size_t i,
                            const swx_package_run_opts *o)
{
    pkg_layer *L = &p->layers[i];
    int64_t *times = NULL;
    char dir[] = "/tmp/seawx-quote.XXXXXX", path[64];
    double bytes[SWX_TILE_MAX_ZOOM + 1] = {0};
    uint64_t tiles[SWX_TILE_MAX_ZOOM + 1] = {0};
    int have_dir = 0, rc;
    memset(out, 0, sizeof *out);
    out->files = L->nfiles - L->first;
    for (size_t f = L->first; f < L->nfiles; f++)
        for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
            if (!(L->spec.zooms & (1u << z)))
                continue;
            uint64_t r = 0;
            if ((rc = swx_seed_plan_requests(&r, L->plan, f, z)))
                return rc;
            out->requests += r;
            out->tiles += swx_seed_plan_tiles(L->plan, f, z);
        }
    if (!out->files)
        return 0;
    if (!(times = malloc(L->nfiles * sizeof *times)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (size_t f = 0; f < L->nfiles; f++)
        times[f] = swx_seed_plan_time(L->plan, f);
    if (!mkdtemp(dir)) {
        rc = swx_error_set(SWX_EIO, "cannot make a folder in /tmp: %s", strerror(errno));
        goto done;
    }
    have_dir = 1;
    for (int k = 0; k < SAMPLE_POINTS; k++) {
        size_t f = L->first + (size_t)((k + 0.5) * (double)out->files / SAMPLE_POINTS);
        swx_pkg_pathf(path, sizeof path, "%s/sample%d.mbtiles", dir, k);
        if ((rc = sample_one(bytes, tiles, p, L, c, times, L->nfiles, f, path, o)))
            goto done;
    }
    double last = 0;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
        if (!(L->spec.zooms & (1u << z)))
            continue;
        out->tile_bytes[z] = tiles[z] ? bytes[z] / (double)tiles[z] : 0;
        if (out->tile_bytes[z] < MIN_TILE_BYTES)
            out->tile_bytes[z] = last > 0 ? last : MIN_TILE_BYTES;
        last = out->tile_bytes[z];
    }
    out->bytes = FILE_BYTES * (double)out->files;
    for (size_t f = L->first; f < L->nfiles; f++)
        for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
            if (L->spec.zooms & (1u << z))
                out->bytes += out->tile_bytes[z] * (double)swx_seed_plan_tiles(L->plan, f, z);
    memcpy(L->bpt, out->tile_bytes, sizeof L->bpt);
done:
    free(times);
    if (have_dir)
        swx_pkg_rm_tree(dir);
    return rc;
}

/* The storms' files measured: written by the build's own code into a
 * temporary folder, then removed. */
int swx_package_quote_storms(double *bytes, size_t *files, swx_package *p, swx_client *c)
{
    swx_pkg_storms *s = NULL;
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX];
    int rc;
    *bytes = 0;
    *files = 0;
    if (!swx_package_storms_of(p))
        return 0;
    snprintf(dir, sizeof dir, "%s/seawx-storms-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return swx_error_set(SWX_EIO, "cannot make a temporary folder in %s: %s",
                             tmp && *tmp ? tmp : "/tmp", strerror(errno));
    if ((rc = swx_pkg_storms_new(&s, swx_package_storms_of(p))))
        goto done;
    if ((rc = swx_pkg_storms_write(s, c, swx_package_voyage_of(p), dir)))
        goto done;
    *bytes = (double)swx_pkg_storms_bytes(s) + swx_pkg_storms_extra(s);
    *files = swx_pkg_storms_files(s);
done:
    swx_pkg_storms_remove(dir);
    rmdir(dir);
    swx_pkg_storms_free(s);
    return rc;
}

/* seed_quote.c: what a seed will write, measured rather than guessed:
 * sample tiles of the plan, spread over its files and over each file's area,
 * fetched, checked, encoded and stored by the seed's own code into a
 * temporary file, and the mean bytes of a zoom's tile multiplied by the
 * plan's tile counts.
 *
 * Why samples and not a constant: a tile's size depends on the field, the
 * zoom (a low zoom's tile holds more detail), the format, and how much of
 * the area is land or outside the data (those tiles are empty and stored
 * once). A constant of 12 kB a tile quoted 13.6 MiB for a box that wrote
 * 7.4 MiB.
 *
 * Where the samples go: tiles differ most from place to place (sea, coast,
 * land), and the deepest zooms hold most of a seed's tiles, so the budget of
 * GetMaps (SWX_SEED_QUOTE_SAMPLES a zoom on average) is spent in proportion
 * to each zoom's tiles, two at least a zoom. The range is two standard
 * errors of the samples' means either way. */
#define _GNU_SOURCE
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/seed.h"
#include "seawx/wms_caps.h"

#include "area.h"
#include "mbtiles.h"
#include "seed_plan.h"
#include "seed_plan_int.h"
#include "tile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An MBTiles file's own pages before its first tile (the schema and the
 * metadata; measured: 28 kB). */
#define QUOTE_FILE_BYTES 28672.0
/* What a stored tile costs beside its image's bytes: its rows in the map and
 * images tables, their indexes and the unused ends of SQLite's pages
 * (measured on the stand-in's seeds of 300 to 1,200 tiles, png and webp:
 * 680 to 880 bytes a tile). */
#define QUOTE_TILE_ROW 800.0
/* Valid times a zoom's samples are spread over: each is one seed of several
 * places, its GetMaps in flight together. */
#define QUOTE_GROUPS 4
/* Tries for a sample place inside a file's area before its centre is taken. */
#define QUOTE_PLACE_TRIES 256

/* Point i of the Halton sequence of base b, in [0, 1): spread evenly
 * without a grid's regularity, so that samples do not fall on one row. */
static double halton(unsigned i, unsigned b)
{
    double f = 1, r = 0;
    for (; i; i /= b) {
        f /= b;
        r += f * (double)(i % b);
    }
    return r;
}

/* A place of the area for sample k: the k-th point of a Halton sequence over
 * the area's bounds whose tile at zoom z belongs to the area. */
static void sample_place(double *lon, double *lat, const swx_area *a, int z, unsigned *seq)
{
    double w, s, e, n;
    swx_area_bounds(&w, &s, &e, &n, a);
    double width = e >= w ? e - w : e - w + 360;
    for (int t = 0; t < QUOTE_PLACE_TRIES; t++) {
        unsigned i = ++*seq;
        /* Shifted by irrational fractions (a Cranley-Patterson rotation), so
         * that no place falls on a tile's edge, as dyadic points would. */
        double hx = fmod(halton(i, 2) + 0.3819660112501051, 1);
        double hy = fmod(halton(i, 3) + 0.4142135623730950, 1);
        double x = w + hx * width, y = s + hy * (n - s);
        double fx, fy;
        if (x > 180)
            x -= 360;
        swx_tile_of_deg(&fx, &fy, z, x, y);
        uint32_t side = 1u << z;
        uint32_t tx = fx < 0 ? 0 : fx >= side ? side - 1 : (uint32_t)fx;
        uint32_t ty = fy < 0 ? 0 : fy >= side ? side - 1 : (uint32_t)fy;
        if (swx_area_has_tile(a, z, tx, ty) == 1) {
            *lon = x;
            *lat = y;
            return;
        }
    }
    *lon = w + width / 2 > 180 ? w + width / 2 - 360 : w + width / 2;
    *lat = (s + n) / 2;
}

/* A small box around a point, as a GeoJSON polygon's coordinates: one tile
 * at any zoom. */
static int box_json(char *out, size_t size, double lon, double lat)
{
    double d = 1e-4;
    double w = lon - d < -180 ? lon : lon - d, e = lon + d > 180 ? lon : lon + d;
    double s = lat - d < -SWX_MERC_MAX_LAT ? lat : lat - d;
    double n = lat + d > SWX_MERC_MAX_LAT ? lat : lat + d;
    return snprintf(out, size, "[[[%.6f,%.6f],[%.6f,%.6f],[%.6f,%.6f],[%.6f,%.6f],[%.6f,%.6f]]]", w,
                    s, e, s, e, n, w, n, w, s);
}

static void remove_sample(const char *path)
{
    static const char *const tails[] = {"", "-journal", "-wal", "-shm"};
    char p[PATH_MAX];
    for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) {
        snprintf(p, sizeof p, "%s%s", path, tails[i]);
        unlink(p);
    }
}

/* What a zoom's samples cost, tile by tile. */
typedef struct costs {
    double sum, sum2;
    unsigned n;
} costs;

static void add_cost(costs *c, double v)
{
    c->sum += v;
    c->sum2 += v * v;
    c->n++;
}

static void on_tile(void *ud, double bytes)
{
    add_cost(ud, bytes + QUOTE_TILE_ROW);
}

/* One group of samples: file f's tiles at zoom z around nplaces places of
 * its area, one seed of as many small boxes (its GetMaps in flight
 * together), stored into path and read back tile by tile. */
static int sample_group(costs *zc, swx_seed_quote *q, swx_client *c, const swx_caps *caps,
                        const swx_seed_plan *p, size_t f, int z, unsigned nplaces, unsigned *seq,
                        const char *path, const swx_seed_run_opts *ro)
{
    swx_area *area = NULL;
    swx_seed_plan *sp = NULL;
    swx_seed *seed = NULL;
    char ts[SWX_ISO8601_LEN];
    size_t size = 64 + (size_t)nplaces * 224, len = 0;
    char *json = malloc(size);
    if (!json)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    len += (size_t)snprintf(json, size, "{\"type\":\"MultiPolygon\",\"coordinates\":[");
    for (unsigned k = 0; k < nplaces; k++) {
        double lon, lat;
        sample_place(&lon, &lat, swx_seed_plan_area(p, f), z, seq);
        if (k)
            json[len++] = ',';
        len += (size_t)box_json(json + len, size - len, lon, lat);
    }
    len += (size_t)snprintf(json + len, size - len, "]}");
    swx_seed_opts so = p->o;
    so.voyage = NULL;
    so.zooms = 1u << z;
    so.clip = 0; /* a sample's tile is all edge: clipped, it would be empty */
    so.shard = so.shard_count = 0;
    if (p->ntimes) {
        swx_iso8601_format(ts, p->times[f]);
        so.times = ts;
    }
    swx_seed_run_opts sro = {.in_flight = 8, .stop = ro->stop, .cancel = ro->cancel, .ud = ro->ud};
    swx_seed_file_result r;
    int rc = swx_area_from_geojson_polygons(&area, json, len);
    so.area = area;
    if (rc || (rc = swx_seed_plan_new(&sp, caps, &so)) || (rc = swx_seed_new(&seed, c, sp, &sro)) ||
        (rc = swx_seed_file(&r, seed, 0, path)))
        goto done;
    if ((ro->stop && ro->stop(ro->ud)) || (ro->cancel && *ro->cancel)) {
        rc = swx_error_set(SWX_ECANCEL, "the estimate was stopped before it was complete");
        goto done;
    }
    unsigned before = zc->n;
    if (r.stored && (rc = swx_mbtiles_tile_bytes(path, z, on_tile, zc)))
        goto done;
    /* A failed tile tells nothing of the size; a skipped empty one costs nothing. */
    uint64_t settled = r.tiles - r.failed, read = zc->n - before;
    for (uint64_t k = read; k < settled; k++)
        add_cost(zc, 0);
    q->samples += (unsigned)(settled > read ? settled : read);
done:
    if (seed) {
        swx_fetch_stats st;
        swx_seed_get_stats(&st, seed);
        q->requests += (uint64_t)st.requests;
        q->bytes_fetched += st.bytes;
    }
    swx_seed_free(seed);
    swx_seed_plan_free(sp);
    swx_area_free(area);
    free(json);
    return rc;
}

/* Tiles of zoom z over every file of the plan. */
static double plan_tiles(const swx_seed_plan *p, int z)
{
    double n = 0;
    for (size_t f = 0; f < p->nfiles; f++)
        n += (double)swx_seed_plan_tiles(p, f, z);
    return n;
}

/* Samples at each zoom: two at least, the rest of the budget in proportion
 * to the zoom's share of the tiles; never more than a quarter of the zoom's
 * tiles (one at least), so that a small seed's dry run does not fetch the
 * seed (a 95-tile seed's low zooms are a third of its bytes). */
static void allot(unsigned *want, const swx_seed_plan *p)
{
    double all = 0;
    unsigned zooms = 0;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
        if (p->o.zooms & (1u << z)) {
            all += plan_tiles(p, z);
            zooms++;
        }
    unsigned spare = (SWX_SEED_QUOTE_SAMPLES - 2) * zooms;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
        want[z] = 0;
        if (p->o.zooms & (1u << z)) {
            double quarter = plan_tiles(p, z) / 4;
            want[z] = 2 + (all > 0 ? (unsigned)floor(spare * plan_tiles(p, z) / all) : 0);
            if (want[z] > quarter)
                want[z] = quarter >= 1 ? (unsigned)quarter : 1;
        }
    }
}

int swx_seed_quote_plan(swx_seed_quote *out, swx_client *c, const swx_caps *caps,
                        const swx_seed_plan *p, const swx_seed_run_opts *ro)
{
    static const swx_seed_run_opts none = {0};
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX - 32], path[PATH_MAX];
    unsigned want[SWX_TILE_MAX_ZOOM + 1], seq = 0;
    double spread = 0;
    int rc = 0;
    memset(out, 0, sizeof *out);
    if (!ro)
        ro = &none;
    if ((size_t)snprintf(dir, sizeof dir, "%s/seawx-quote-XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
            sizeof dir ||
        !mkdtemp(dir))
        return swx_error_set(SWX_EIO, "cannot make a temporary folder in %s: %s",
                             tmp && *tmp ? tmp : "/tmp", strerror(errno));
    snprintf(path, sizeof path, "%s/sample.mbtiles", dir);
    allot(want, p);
    out->bytes = QUOTE_FILE_BYTES * (double)p->nfiles;
    double last = QUOTE_TILE_ROW;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM && !rc; z++) {
        if (!want[z])
            continue;
        /* The zoom's places in groups, each at one valid time spread over
         * the files: fewer round trips than one place at a time. */
        costs zc = {0};
        unsigned groups = want[z] < QUOTE_GROUPS ? want[z] : QUOTE_GROUPS;
        if (groups > p->nfiles)
            groups = (unsigned)p->nfiles;
        for (unsigned g = 0; g < groups && !rc; g++) {
            size_t f = (size_t)((g + 0.5) * (double)p->nfiles / groups);
            unsigned places = want[z] / groups + (g < want[z] % groups);
            rc = sample_group(&zc, out, c, caps, p, f, z, places, &seq, path, ro);
            remove_sample(path);
        }
        if (rc)
            break;
        /* No tile measured at z (every one failed): the zoom below's figure. */
        double mean = zc.n ? zc.sum / zc.n : last;
        double var = zc.n > 1 ? (zc.sum2 - zc.n * mean * mean) / (zc.n - 1) : mean * mean;
        double count = plan_tiles(p, z);
        last = mean;
        out->bytes += mean * count;
        spread += 2 * sqrt(var > 0 ? var / (zc.n ? zc.n : 1) : 0) * count;
    }
    rmdir(dir);
    if (rc)
        return rc;
    out->bytes_low = out->bytes - spread;
    if (out->bytes_low < QUOTE_FILE_BYTES * (double)p->nfiles)
        out->bytes_low = QUOTE_FILE_BYTES * (double)p->nfiles;
    out->bytes_high = out->bytes + spread;
    return 0;
}

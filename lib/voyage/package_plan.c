/* package_plan.c: planning a voyage package: its layers' seed plans, the
 * valid times still ahead, each file's name and identity, the least a budget
 * must hold; and the storms asked of it. */
#define _GNU_SOURCE
#include "package_priv.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "sha256.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void swx_package_free(swx_package *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++) {
        swx_seed_free(p->layers[i].seed);
        swx_seed_plan_free(p->layers[i].plan);
        free(p->layers[i].files);
    }
    free(p->layers);
    swx_pkg_storms_free(p->storms);
    free(p->grib);
    swx_pkg_coast_free(p->coast);
    swx_pkg_plan_free(p);
    free(p);
}

const swx_package_opts *swx_package_options(const swx_package *p)
{
    return &p->o;
}

const swx_seed_plan *swx_package_plan(const swx_package *p, size_t i, size_t *first)
{
    *first = p->layers[i].first;
    return p->layers[i].plan;
}

size_t swx_package_layer_count(const swx_package *p)
{
    return p->n;
}

const swx_layer *swx_package_wms_layer(const swx_package *p, size_t i)
{
    return swx_seed_plan_layer(p->layers[i].plan);
}

size_t swx_package_file_count(const swx_package *p, size_t i)
{
    return p->layers[i].nfiles - p->layers[i].first;
}

int64_t swx_package_file_time(const swx_package *p, size_t i, size_t f)
{
    return swx_seed_plan_time(p->layers[i].plan, p->layers[i].first + f);
}

int swx_pkg_lowest_zoom(uint32_t zooms)
{
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
        if (zooms & (1u << z))
            return z;
    return -1;
}

/* The window of file f ends half way to the next valid time (never, for
 * the last one). */
static int window_over(const swx_seed_plan *plan, size_t f, int64_t now)
{
    size_t n = swx_seed_plan_file_count(plan);
    if (f + 1 >= n)
        return 0;
    int64_t a = swx_seed_plan_time(plan, f), b = swx_seed_plan_time(plan, f + 1);
    return a + (b - a) / 2 <= now;
}

/* What identifies a file's content: the same identity, the same tiles. */
static void file_identity(swx_package *p, pkg_layer *L, size_t f)
{
    char buf[2048];
    const swx_voyage *v = p->o.voyage;
    int64_t dep = 0;
    double arr = 0, vmin, vmax;
    swx_voyage_span(&dep, &arr, v);
    swx_voyage_speed(&vmin, &vmax, v);
    size_t nf = swx_seed_plan_file_count(L->plan);
    int64_t t = swx_seed_plan_time(L->plan, f);
    int64_t prev = f ? swx_seed_plan_time(L->plan, f - 1) : INT64_MIN;
    int64_t next = f + 1 < nf ? swx_seed_plan_time(L->plan, f + 1) : INT64_MIN;
    swx_sha256_ctx c;
    swx_sha256_init(&c);
    int n =
        snprintf(buf, sizeof buf, "%s\n%s\n%s\n%lld %lld %lld\n%d %d %d %u\n%.3f %lld %.6f %.6f\n",
                 p->o.bundle, swx_layer_name(swx_seed_plan_layer(L->plan)), L->spec.style,
                 (long long)prev, (long long)t, (long long)next, L->spec.format, L->spec.quality,
                 p->o.tile_size, L->spec.zooms, p->o.buffer_m, (long long)dep, vmin, vmax);
    swx_sha256_update(&c, buf, (size_t)n);
    for (size_t i = 0; i < swx_voyage_waypoint_count(v); i++) {
        double lon, lat;
        int64_t wt;
        swx_voyage_waypoint(&lon, &lat, &wt, v, i);
        n = snprintf(buf, sizeof buf, "%.9f %.9f %lld\n", lon, lat, (long long)wt);
        swx_sha256_update(&c, buf, (size_t)n);
    }
    uint8_t d[SWX_SHA256_LEN];
    swx_sha256_final(d, &c);
    for (int i = 0; i < SWX_SHA256_LEN; i++)
        snprintf(L->files[f].identity + 2 * i, 3, "%02x", d[i]);
}

static double route_geojson_bytes(const swx_voyage *v)
{
    return 400.0 + 90.0 * (double)swx_voyage_waypoint_count(v);
}

double swx_package_quote_extra(const swx_package *p)
{
    size_t files = 0;
    for (size_t i = 0; i < p->n; i++)
        files += swx_package_file_count(p, i);
    return EXTRA_FIXED + p->route_bytes + EXTRA_PER_FILE * (double)files;
}

int swx_package_new(swx_package **out, const swx_caps *caps, const swx_package_opts *o)
{
    swx_package *p = NULL;
    int rc = 0;
    *out = NULL;
    if ((rc = swx_package_opts_check(o)))
        return rc;
    p = calloc(1, sizeof *p);
    if (!p || !(p->layers = calloc(o->nlayers, sizeof *p->layers))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    p->o = *o;
    p->caps = caps;
    p->route_bytes = route_geojson_bytes(o->voyage);
    swx_pkg_coast_plan(p);
    size_t kept_total = 0;
    /* A package starts at the frame a viewer shows at departure (or now, if
     * later): the valid times before it would show the ship in port, a budget
     * spent on frames the voyage never sees. */
    int64_t from = o->now, depart;
    double arrival;
    if (swx_voyage_span(&depart, &arrival, o->voyage) == 0 && depart > from)
        from = depart;
    for (size_t i = 0; i < o->nlayers; i++) {
        pkg_layer *L = &p->layers[i];
        L->spec = o->layers[i];
        p->n = i + 1;
        size_t k = 0;
        for (const char *c = L->spec.variable; *c && k + 1 < sizeof L->safe; c++)
            L->safe[k++] = *c == ':' ? '_' : *c;
        L->safe[k] = '\0';
        for (size_t j = 0; j < i; j++)
            if (strcmp(p->layers[j].safe, L->safe) == 0) {
                rc = swx_error_set(SWX_EINVAL, "layer %s is given twice", L->spec.variable);
                goto done;
            }
        for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
            L->nzooms += (L->spec.zooms >> z) & 1;
        swx_seed_opts so = {0};
        so.bundle = o->bundle;
        so.variable = L->spec.variable;
        so.run = o->run;
        so.times = "all";
        so.style = L->spec.style[0] ? L->spec.style : NULL;
        so.zooms = L->spec.zooms;
        so.tile_size = o->tile_size;
        so.metatile = 1;
        so.format = (swx_tile_format)L->spec.format;
        so.quality = L->spec.quality < 0 ? 0 : L->spec.quality;
        so.voyage = o->voyage;
        so.buffer_m = o->buffer_m;
        L->so = so;
        if ((rc = swx_seed_plan_new(&L->plan, caps, &L->so)))
            goto done;
        L->nfiles = swx_seed_plan_file_count(L->plan);
        while (L->first < L->nfiles && window_over(L->plan, L->first, from))
            L->first++;
        kept_total += L->nfiles - L->first;
        if (!(L->files = calloc(L->nfiles ? L->nfiles : 1, sizeof *L->files))) {
            rc = swx_error_set(SWX_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t f = 0; f < L->nfiles; f++) {
            char tc[32];
            swx_pkg_compact_time(tc, sizeof tc, swx_seed_plan_time(L->plan, f));
            swx_pkg_pathf(L->files[f].name, sizeof L->files[f].name, "%s-%s.mbtiles", L->safe, tc);
            file_identity(p, L, f);
        }
        for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
            L->bpt[z] = 0;
    }
    if (!kept_total) {
        char a[SWX_ISO8601_LEN];
        swx_iso8601_format(a, o->now);
        rc = swx_error_set(SWX_ENOTFOUND,
                           "every valid time of the voyage is past at %s; the voyage is over", a);
        goto done;
    }
    if (o->budget) {
        /* The least the first valid time at the lowest zoom can take. */
        double least = EXTRA_FIXED + p->route_bytes;
        int zlow = 99;
        for (size_t i = 0; i < p->n; i++) {
            pkg_layer *L = &p->layers[i];
            if (L->first >= L->nfiles)
                continue;
            int z = swx_pkg_lowest_zoom(L->spec.zooms);
            zlow = z < zlow ? z : zlow;
            least += FILE_BYTES + EXTRA_PER_FILE +
                     MIN_TILE_BYTES * (double)swx_seed_plan_tiles(L->plan, L->first, z);
        }
        if (least > (double)o->budget) {
            rc = swx_error_set(SWX_EINVAL,
                               "a budget of %llu bytes cannot hold even the first valid time at "
                               "zoom %d (at least %.0f bytes in %zu layer%s)",
                               (unsigned long long)o->budget, zlow, least, p->n,
                               p->n == 1 ? "" : "s");
            goto done;
        }
    }
done:
    if (rc) {
        swx_package_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

int swx_package_set_storms(swx_package *p, const swx_package_storms *s)
{
    swx_pkg_storms *n = NULL;
    int rc = swx_pkg_storms_new(&n, s);
    if (rc)
        return rc;
    swx_pkg_storms_free(p->storms);
    p->storms = n;
    p->storm_opts = *s;
    return 0;
}

const swx_package_storms *swx_package_storms_of(const swx_package *p)
{
    return p->storms ? &p->storm_opts : NULL;
}

const swx_voyage *swx_package_voyage_of(const swx_package *p)
{
    return p->o.voyage;
}

const swx_risk_report *swx_package_storm_risk(const swx_package *p)
{
    return p->storms ? swx_pkg_storms_risk(p->storms) : NULL;
}

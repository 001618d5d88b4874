/* seed_plan.c: a seed's plan (seawx/seed.h): the options checked, then
 * resolved against the capabilities once (layer, valid times, style, CRS),
 * one area per file (with a voyage, its stretch at each valid time) and the
 * tiles of each counted.
 */
#include "seawx/seed.h"

#include "seed_plan.h"
#include "seed_plan_int.h"
#include "shard.h"
#include "tile.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/voyage.h"
#include "seawx/wms.h"
#include "seawx/wms_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The library's words for the options in its messages; a front end passes
 * its own (seawx/seed.h). */
static const swx_seed_names lib_names = {
    .layer = "layer",
    .variable = "variable",
    .run = "run",
    .times = "time",
    .tile_size = "tile size",
    .metatile = "metatile",
    .format = "format",
    .quality = "quality",
    .clip = "clip",
};

static const char *name_of(const char *given, const char *lib)
{
    return given ? given : lib;
}

/* 0 in tile_size and metatile: their defaults. */
static int opts_tile_size(const swx_seed_opts *o)
{
    return o->tile_size ? o->tile_size : 256;
}

static int opts_metatile(const swx_seed_opts *o)
{
    return o->metatile ? o->metatile : 1;
}

int swx_tile_size_check(int tile_size, const char *name)
{
    if (tile_size != 256 && tile_size != 512)
        return swx_error_set(SWX_EINVAL, "%s must be 256 or 512",
                             name_of(name, lib_names.tile_size));
    return 0;
}

/* What is asked of the service: a layer or a variable with its run, and its times. */
static int check_layer(const swx_seed_opts *o, const swx_seed_names *n)
{
    int rc = swx_wms_bundle_check(o->bundle);
    if (rc)
        return rc;
    if (!!(o->layer && *o->layer) == !!(o->variable && *o->variable))
        return swx_error_set(SWX_EINVAL, "give either %s NAME or %s VAR", n->layer, n->variable);
    if (o->layer && *o->layer && o->run && *o->run)
        return swx_error_set(SWX_EINVAL, "%s goes with %s; a %s name already names its run", n->run,
                             n->variable, n->layer);
    if (swx_select_run_parse(NULL, o->run))
        return swx_error_prefix(SWX_EINVAL, "%s", n->run);
    if (o->times && *o->times && strcmp(o->times, "all") != 0) {
        swx_timedim *td = NULL;
        if ((rc = swx_timedim_parse(&td, o->times, strlen(o->times), NULL)))
            rc = swx_error_prefix(SWX_EINVAL, "%s", n->times);
        swx_timedim_free(td);
    }
    return rc;
}

/* The tiles: their size, the GetMap's, the encoding. */
static int check_tiles(const swx_seed_opts *o, const swx_seed_names *n)
{
    int ts = opts_tile_size(o), mt = opts_metatile(o), rc;
    if (!o->zooms || (o->zooms >> (SWX_TILE_MAX_ZOOM + 1)))
        return swx_error_set(SWX_EINVAL, "zoom levels must be within 0 to %d", SWX_TILE_MAX_ZOOM);
    if ((rc = swx_tile_size_check(ts, n->tile_size)))
        return rc;
    if (mt != 1 && mt != 2 && mt != 4 && mt != 8)
        return swx_error_set(SWX_EINVAL, "%s must be 1, 2, 4 or 8", n->metatile);
    if (mt * ts > SWX_SEED_MAX_IMAGE)
        return swx_error_set(SWX_EINVAL, "%s %d with %s %d asks for images wider than %d pixels",
                             n->metatile, mt, n->tile_size, ts, SWX_SEED_MAX_IMAGE);
    const swx_tile_format_info *fmt = swx_tile_format_get((int)o->format);
    char list[128];
    if (!fmt)
        return swx_error_set(SWX_EINVAL, "unknown tile format %d", (int)o->format);
    if (o->quality < 0 || o->quality > 100)
        return swx_error_set(SWX_EINVAL, "quality must be from 1 to 100, not %d", o->quality);
    if (o->quality && !(fmt->props & SWX_TF_QUALITY))
        return swx_error_set(SWX_EINVAL, "%s goes with %s %s, not %s", n->quality, n->format,
                             swx_tile_format_names(list, sizeof list, SWX_TF_QUALITY, 0, -1),
                             fmt->name);
    if (o->clip && !(fmt->props & SWX_TF_TRANSPARENCY))
        return swx_error_set(
            SWX_EINVAL,
            "%s makes pixels outside the area transparent and %s has no transparency: use %s %s",
            n->clip, fmt->label, n->format,
            swx_tile_format_names(list, sizeof list, SWX_TF_TRANSPARENCY, 0, -1));
    return 0;
}

int swx_seed_opts_check_named(const swx_seed_opts *o, const swx_seed_names *names)
{
    swx_seed_names n = lib_names;
    int rc;
    if (names) {
        n.layer = name_of(names->layer, n.layer);
        n.variable = name_of(names->variable, n.variable);
        n.run = name_of(names->run, n.run);
        n.times = name_of(names->times, n.times);
        n.tile_size = name_of(names->tile_size, n.tile_size);
        n.metatile = name_of(names->metatile, n.metatile);
        n.format = name_of(names->format, n.format);
        n.quality = name_of(names->quality, n.quality);
        n.clip = name_of(names->clip, n.clip);
    }
    if (!o->bundle)
        return swx_error_set(SWX_EINVAL, "no bundle given");
    if ((rc = check_layer(o, &n)))
        return rc;
    if (!o->area && !o->voyage)
        return swx_error_set(SWX_EINVAL, "no area given");
    if (o->voyage && !(o->buffer_m >= 0 && o->buffer_m <= 2000.0 * SWX_NM_M))
        return swx_error_set(SWX_EINVAL, "the buffer must be from 0 to 2000 nautical miles");
    if ((rc = check_tiles(o, &n)))
        return rc;
    if (o->shard_count || o->shard) {
        if (o->shard_count < 1 || o->shard_count > SWX_SHARD_MAX || o->shard < 1 ||
            o->shard > o->shard_count)
            return swx_error_set(SWX_EINVAL, "shard %d of %d: shards are 1 to N, N at most %d",
                                 o->shard, o->shard_count, SWX_SHARD_MAX);
    }
    return 0;
}

int swx_seed_opts_check(const swx_seed_opts *o)
{
    return swx_seed_opts_check_named(o, NULL);
}

static int count_file(plan_file *f, const swx_seed_opts *o)
{
    uint32_t zooms = o->zooms;
    if (o->shard_count) {
        int rc =
            swx_shard_part_new(&f->part, f->area, zooms, o->metatile, o->shard, o->shard_count);
        if (rc)
            return rc;
        f->own_part = 1;
        memcpy(f->per_zoom, f->part->per_zoom, sizeof f->per_zoom);
        f->tiles = f->part->tiles;
        return 0;
    }
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
        if (zooms & (1u << z)) {
            int rc = swx_area_count(&f->per_zoom[z], f->area, z);
            if (rc)
                return rc;
            f->tiles += f->per_zoom[z];
        }
    return 0;
}

/* Without a voyage, every file has the plan's area: counted once. */
static int static_files(swx_seed_plan *p)
{
    size_t n = p->ntimes ? p->ntimes : 1;
    p->files = calloc(n, sizeof *p->files);
    if (!p->files)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    p->nfiles = n;
    p->files[0].area = p->o.area;
    int rc = count_file(&p->files[0], &p->o);
    for (size_t i = 1; i < n; i++) {
        p->files[i] = p->files[0];
        p->files[i].own_part = 0;
    }
    return rc;
}

/* With a voyage, each valid time has the area of its stretch; the times whose
 * window starts after the latest arrival are left out of the plan. */
static int voyage_files(swx_seed_plan *p)
{
    const swx_voyage *v = p->o.voyage;
    char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN], c[SWX_ISO8601_LEN], d[SWX_ISO8601_LEN];
    int64_t depart;
    double arrival;
    int rc = swx_voyage_span(&depart, &arrival, v);
    if (rc)
        return rc;
    if (!p->ntimes)
        return swx_error_set(SWX_EINVAL, "layer %s has no valid times; a voyage needs them",
                             swx_layer_name(p->layer));
    if ((double)depart > (double)p->times[p->ntimes - 1] || arrival < (double)p->times[0]) {
        swx_iso8601_format(a, depart);
        swx_iso8601_format(b, (int64_t)arrival);
        swx_iso8601_format(c, p->times[0]);
        swx_iso8601_format(d, p->times[p->ntimes - 1]);
        return swx_error_set(SWX_ENOTFOUND,
                             "the voyage (%s to %s) is outside the valid times of layer %s "
                             "(%s to %s)",
                             a, b, swx_layer_name(p->layer), c, d);
    }
    p->files = calloc(p->ntimes, sizeof *p->files);
    if (!p->files)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    size_t kept = 0;
    for (size_t i = 0; i < p->ntimes; i++) {
        plan_file *f = &p->files[kept];
        if ((rc = swx_voyage_area(&f->own, v, p->times, p->ntimes, i, p->o.buffer_m)))
            return rc;
        if (!f->own)
            continue;
        f->area = f->own;
        p->nfiles = kept + 1;
        if ((rc = count_file(f, &p->o)))
            return rc;
        /* Skipped times are a tail (windows only move later), so this
         * never overwrites a time still to be read. */
        p->times[kept++] = p->times[i];
    }
    p->ntimes = kept;
    return 0;
}

int swx_seed_plan_new(swx_seed_plan **out, const swx_caps *caps, const swx_seed_opts *o)
{
    swx_seed_plan *p = NULL;
    const char *style = NULL;
    int rc;
    *out = NULL;
    if ((rc = swx_seed_opts_check(o)))
        return rc;
    p = calloc(1, sizeof *p);
    if (!p)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    p->o = *o;
    p->o.tile_size = opts_tile_size(o);
    p->o.metatile = opts_metatile(o);
    if ((rc = swx_select_layer(&p->layer, caps, o->bundle, o->layer, o->variable, o->run)) ||
        (rc = swx_select_times(&p->times, &p->ntimes, p->layer, o->times)) ||
        (rc = swx_select_style(&style, p->layer, o->style)))
        goto done;
    p->style = o->style && *o->style ? style : NULL;
    /* Web Mercator tiles straight from the service, or warped from EPSG:4326. */
    const char *crs;
    int epsg;
    if (swx_select_crs(&crs, &epsg, p->layer, "EPSG:3857")) {
        if (swx_select_crs(&crs, &epsg, p->layer, "EPSG:4326")) {
            rc = swx_error_set(SWX_ESERVICE, "layer %s offers neither EPSG:3857 nor EPSG:4326",
                               swx_layer_name(p->layer));
            goto done;
        }
        p->warp = 1;
    }
    const char *d = swx_layer_run_date(p->layer), *h = swx_layer_run_hour(p->layer);
    if (d && h)
        snprintf(p->run, sizeof p->run, "%s%s", d, h);
    if ((rc = o->voyage ? voyage_files(p) : static_files(p)))
        goto done;
done:
    if (rc) {
        swx_seed_plan_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

void swx_seed_plan_free(swx_seed_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nfiles; i++) {
        swx_area_free(p->files[i].own);
        if (p->files[i].own_part)
            swx_shard_part_free(p->files[i].part);
    }
    free(p->files);
    free(p->times);
    free(p);
}

const swx_layer *swx_seed_plan_layer(const swx_seed_plan *p)
{
    return p->layer;
}

const char *swx_seed_plan_run(const swx_seed_plan *p)
{
    return p->run[0] ? p->run : NULL;
}

size_t swx_seed_plan_time_count(const swx_seed_plan *p)
{
    return p->ntimes;
}

size_t swx_seed_plan_file_count(const swx_seed_plan *p)
{
    return p->nfiles;
}

int64_t swx_seed_plan_time(const swx_seed_plan *p, size_t file)
{
    return file < p->ntimes ? p->times[file] : INT64_MIN;
}

int swx_seed_plan_warped(const swx_seed_plan *p)
{
    return p->warp;
}

uint64_t swx_seed_plan_tiles(const swx_seed_plan *p, size_t file, int z)
{
    if (file >= p->nfiles)
        return 0;
    if (z < 0)
        return p->files[file].tiles;
    return z <= SWX_TILE_MAX_ZOOM ? p->files[file].per_zoom[z] : 0;
}

uint64_t swx_seed_plan_total(const swx_seed_plan *p)
{
    uint64_t n = 0;
    for (size_t i = 0; i < p->nfiles; i++)
        n += p->files[i].tiles;
    return n;
}

int swx_seed_plan_requests(uint64_t *out, const swx_seed_plan *p, size_t file, int z)
{
    swx_tile_iter *it = NULL;
    swx_tile_block b;
    uint64_t n = 0;
    int rc;
    *out = 0;
    if (file >= p->nfiles || z < 0 || z > SWX_TILE_MAX_ZOOM || !(p->o.zooms & (1u << z)))
        return 0;
    if ((rc = swx_tile_iter_new(&it, p->files[file].area, z, p->o.metatile)))
        return rc;
    const swx_shard_part *part = p->files[file].part;
    while ((rc = swx_tile_iter_next(&b, it)) == 1)
        if (!part || swx_shard_part_has(part, b.z, b.x0, b.y0))
            n++;
    swx_tile_iter_free(it);
    if (rc < 0)
        return rc;
    *out = n;
    return 0;
}

const swx_area *swx_seed_plan_area(const swx_seed_plan *p, size_t file)
{
    return p->files[file].area;
}

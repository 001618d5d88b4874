/* map_opts.c: the options of a map, described once (see wms_map.h). */
#include "buf.h"
#include "seawx/error.h"
#include "seawx/wms_map.h"
#include "wms_request.h"

#include <string.h>

static const char *const crs_choices[] = {"EPSG:4326", "EPSG:3857", NULL};
static const char *const auth_choices[] = {"header", "query", "basic", NULL};
static const char *const runs_choices[] = {"latest", "all", NULL};

/* Front ends list them in this order. Ranges here are what a value must be to
 * be read; what depends on the service (the block sizes it serves, the largest
 * raster) is checked by swx_map_open. */
static const swx_opt map_opts[] = {
    {"bundle", SWX_OPT_CHOICE, 0, 0, NULL, swx__wms_bundles, NULL, "Data bundle of the WMS layers",
     NULL},
    {"layer", SWX_OPT_STRING, 0, 0, NULL, NULL, NULL,
     "Full layer name, e.g. sof-d/20241001/00/t2m:K", NULL},
    {"variable", SWX_OPT_STRING, 0, 0, NULL, NULL, NULL,
     "Variable (t2m) or variable and unit (t2m:K), instead of LAYER", NULL},
    {"run", SWX_OPT_STRING, 0, 0, "latest", NULL, NULL,
     "With VARIABLE: latest (newest complete run) or YYYYMMDDHH", NULL},
    {"runs", SWX_OPT_CHOICE, 0, 0, "latest", runs_choices, NULL,
     "With BUNDLE alone: list the newest complete run of each variable (latest) or every run "
     "(all)",
     NULL},
    {"time", SWX_OPT_STRING, 0, 0, NULL, NULL, NULL,
     "Valid time, ISO 8601 (default: the layer default)", NULL},
    {"style", SWX_OPT_STRING, 0, 0, NULL, NULL, NULL,
     "Style name (default: the first style of the layer)", NULL},
    {"crs", SWX_OPT_CHOICE, 0, 0, "EPSG:4326", crs_choices, NULL, NULL, NULL},
    {"width", SWX_OPT_INT, 1, 1L << 30, NULL, NULL, NULL,
     "Raster width in pixels (default: 1/128 degree pixels, with overviews)", NULL},
    {"height", SWX_OPT_INT, 1, 1L << 30, NULL, NULL, NULL, "Raster height in pixels", NULL},
    {"res", SWX_OPT_REAL, 0, 0, NULL, NULL, NULL, "Pixel size in CRS units",
     "a positive pixel size in CRS units"},
    {"blocksize", SWX_OPT_INT, 1, 1L << 30, "256", NULL, NULL,
     "Block size, 256 or 512; one GetMap per block", NULL},
    {"cache", SWX_OPT_BOOL, 0, 0, "YES", NULL, NULL,
     "Keep fetched blocks in the disk cache (SEAWX_CACHE_DIR, else XDG cache folder)", NULL},
    {"max_connections", SWX_OPT_INT, 1, 256, "32", NULL, NULL, "GetMap requests in flight at once",
     NULL},
    {"wms_auth", SWX_OPT_CHOICE, 0, 0, "header", auth_choices, "SEAWX_WMS_AUTH", NULL, NULL},
};
#define NMAP_OPTS (sizeof map_opts / sizeof map_opts[0])

const swx_opt *swx_map_opt_list(size_t *n)
{
    *n = NMAP_OPTS;
    return map_opts;
}

/* "unknown option 'KEY'; options are ..." with every map and service option. */
static int unknown(const char *key)
{
    char list[512] = "";
    size_t at = 0, ns = 0;
    const swx_opt *service = swx_service_opt_list(&ns);
    for (size_t i = 0; i < NMAP_OPTS; i++)
        swx_list_append(list, sizeof list, &at, map_opts[i].key);
    for (size_t i = 0; i < ns; i++)
        swx_list_append(list, sizeof list, &at, service[i].key);
    return swx_error_set(SWX_EINVAL, "unknown option '%.64s'; options are %s", key, list);
}

int swx_map_opts_parse(swx_map_opts *o, const swx_connstr *cs)
{
    size_t ns = 0;
    const swx_opt *service = swx_service_opt_list(&ns);
    int rc = 0;
    memset(o, 0, sizeof *o);
    o->use_cache = 1;
    o->max_connections = 32;
    for (size_t i = 0; i < swx_connstr_count(cs); i++) {
        const char *key = swx_connstr_key(cs, i), *v = swx_connstr_value(cs, i);
        const swx_opt *d = swx_opt_find(map_opts, NMAP_OPTS, key);
        long num = 0;
        double real = 0;
        if (!d) {
            if (swx_opt_find(service, ns, key))
                continue;
            rc = unknown(key);
            goto done;
        }
        if (!v || !*v)
            continue; /* an empty value is the default */
        if ((rc = swx_opt_read(&num, &real, d, v)))
            goto done;
        if (strcmp(d->key, "bundle") == 0)
            o->bundle = v;
        else if (strcmp(d->key, "layer") == 0)
            o->layer = v;
        else if (strcmp(d->key, "variable") == 0)
            o->variable = v;
        else if (strcmp(d->key, "run") == 0)
            o->run = v;
        else if (strcmp(d->key, "runs") == 0)
            o->all_runs = strcmp(v, "all") == 0;
        else if (strcmp(d->key, "time") == 0)
            o->time = v;
        else if (strcmp(d->key, "style") == 0)
            o->style = v;
        else if (strcmp(d->key, "crs") == 0)
            o->crs = v;
        else if (strcmp(d->key, "width") == 0)
            o->width = (int)num;
        else if (strcmp(d->key, "height") == 0)
            o->height = (int)num;
        else if (strcmp(d->key, "res") == 0)
            o->res = real;
        else if (strcmp(d->key, "blocksize") == 0)
            o->block_size = (int)num;
        else if (strcmp(d->key, "cache") == 0)
            o->use_cache = (int)num;
        else if (strcmp(d->key, "max_connections") == 0)
            o->max_connections = (int)num;
        else if (strcmp(d->key, "wms_auth") == 0)
            o->wms_auth = v;
    }
    rc = swx_service_opts_parse(&o->service, cs);
done:
    return rc;
}

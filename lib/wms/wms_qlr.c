/* wms_qlr.c: the QGIS layer definition of one run of a variable (see
 * seawx/wms_qlr.h), written through seawx/qgs.h as every QGIS document of
 * seawx is.
 *
 * The document, as QgsLayerDefinition reads it:
 *   <qlr>
 *     <layer-tree-group name="">                 the tree, added where the user drops it
 *       <layer-tree-group name="GROUP">          one per file, unticked
 *         <layer-tree-layer name=NAME providerKey="gdal" id=ID source=STRING/>  one per time
 *     <maplayers>
 *       <maplayer type="raster" legendPlaceholderImage=PNG>  one per time, same order
 *         <id>ID</id> <datasource>STRING</datasource> <layername>NAME</layername>
 *         <srs/> <provider>gdal</provider>
 *         <temporal enabled="1" mode="0">        mode 0: fixed range
 *           <fixedRange><start/><end/></fixedRange>
 * QGIS gives every layer a new id when it loads the file; ours only tie the
 * tree to the layers. No renderer is written: QGIS makes its default for the
 * plugin's RGBA bands, the service's own colours. */
#include "seawx/wms_qlr.h"

#include "seawx/connstr.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/qgs.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* "2024-10-01 06Z", or "2024-10-01 06:30Z" off the hour: short enough for a
 * narrow Layers panel. */
static void short_time(char *out, size_t n, int64_t t)
{
    char iso[SWX_ISO8601_LEN];
    swx_iso8601_format(iso, t);
    if (t % 3600 == 0)
        snprintf(out, n, "%.10s %.2sZ", iso, iso + 11);
    else
        snprintf(out, n, "%.10s %.5sZ", iso, iso + 11);
}

int swx_qlr_range(int64_t *start, int64_t *end, const swx_layer *l, size_t i)
{
    const swx_timedim *td = swx_layer_time(l);
    size_t n = td ? swx_timedim_count(td) : 0;
    if (i >= n)
        return swx_error_set(SWX_EINVAL, "layer %s has no valid time %zu", swx_layer_name(l), i);
    int64_t t = swx_timedim_get(td, i);
    *start = i == 0 ? t : t + 1;
    if (i + 1 < n)
        *end = swx_timedim_get(td, i + 1) - 1;
    else if (i > 0)
        *end = t + (t - swx_timedim_get(td, i - 1)) - 1;
    else
        *end = t + 3600 - 1;
    if (*end < *start)
        *end = *start;
    return 0;
}

/* "swh" or "swh (Significant wave height)". */
static void label(char *out, size_t n, const swx_layer *l)
{
    const char *title = swx_layer_title(l);
    if (title && *title && strcmp(title, swx_layer_variable(l)) != 0)
        snprintf(out, n, "%s (%s)", swx_layer_variable(l), title);
    else
        snprintf(out, n, "%s", swx_layer_variable(l));
}

/* A layer's name, "swh 2024-10-01 06Z (Significant wave height)": the
 * variable and the time first, what tells the layers apart in a narrow
 * Layers panel, the title after. */
static void layer_name(char *out, size_t n, const swx_layer *l, const char *when)
{
    const char *title = swx_layer_title(l);
    if (title && *title && strcmp(title, swx_layer_variable(l)) != 0)
        snprintf(out, n, "%s %s (%s)", swx_layer_variable(l), when, title);
    else
        snprintf(out, n, "%s %s", swx_layer_variable(l), when);
}

static void layer_id(char *out, size_t n, const swx_layer *l, int64_t t)
{
    char iso[SWX_ISO8601_LEN];
    swx_iso8601_format(iso, t);
    size_t k = (size_t)snprintf(out, n, "seawx_%s_", swx_layer_variable(l));
    for (size_t i = 6; i < k && i < n; i++)
        if (!isalnum((unsigned char)out[i]))
            out[i] = '_';
    for (const char *p = iso; *p && k + 1 < n; p++)
        if (isdigit((unsigned char)*p) || *p == 'T' || *p == 'Z')
            out[k++] = *p;
    out[k < n ? k : n - 1] = '\0';
}

/* The connection string of valid time t; NULL with the error set. */
static char *connstr(const swx_qlr_opts *o, int64_t run, int64_t t)
{
    const swx_layer *l = o->layer;
    swx_connstr *cs = NULL;
    char *s = NULL, var[512], run_s[SWX_ISO8601_LEN] = "", time_s[SWX_ISO8601_LEN];
    const char *unit = swx_layer_unit(l);
    snprintf(var, sizeof var, "%s%s%s", swx_layer_variable(l), unit ? ":" : "", unit ? unit : "");
    if (run != INT64_MIN)
        swx_iso8601_format(run_s, run);
    swx_iso8601_format(time_s, t);
    /* A layer outside the service's naming has no variable and run to
     * select it by: its full name does. */
    int named = swx_layer_product(l) == NULL || run == INT64_MIN;
    if (swx_connstr_new(&cs) || swx_connstr_set(cs, "bundle", o->bundle) ||
        (named ? swx_connstr_set(cs, "layer", swx_layer_name(l))
               : (swx_connstr_set(cs, "variable", var) || swx_connstr_set(cs, "run", run_s))) ||
        swx_connstr_set(cs, "time", time_s) ||
        (o->style && *o->style && swx_connstr_set(cs, "style", o->style)) ||
        (o->crs && *o->crs && swx_connstr_set(cs, "crs", o->crs)) ||
        (o->url && *o->url && swx_connstr_set(cs, "url", o->url)))
        goto done;
    s = swx_connstr_format(cs);
done:
    swx_connstr_free(cs);
    return s;
}

/* The layer of valid time i, showing it through src from the moment after
 * the time before to its own (swx_qlr_range), into id and name. */
static swx_qgs_layer time_layer(char *id, size_t nid, char *name, size_t nname,
                                const swx_qlr_opts *o, const char *src, const char *srs, size_t i)
{
    char when[32];
    int64_t t = swx_timedim_get(swx_layer_time(o->layer), i);
    short_time(when, sizeof when, t);
    layer_id(id, nid, o->layer, t);
    layer_name(name, nname, o->layer, when);
    swx_qgs_layer l = {.id = id,
                       .type = "raster",
                       .provider = "gdal",
                       .source = src,
                       .name = name,
                       .srs = srs,
                       .legend = o->legend,
                       /* the first layer's legend open, the others closed:
                        * one ramp in the panel, not one per time */
                       .expanded = i == 0,
                       .ranged = 1};
    swx_qlr_range(&l.start, &l.end, o->layer, i);
    return l;
}

int swx_qlr_write(FILE *f, const swx_qlr_opts *o)
{
    const swx_layer *l = o ? o->layer : NULL;
    const swx_timedim *td = l ? swx_layer_time(l) : NULL;
    size_t n = td ? swx_timedim_count(td) : 0;
    char **src = NULL;
    int rc = 0;
    if (!o || !o->bundle || !l)
        return swx_error_set(SWX_EINVAL, "a layer definition needs a bundle and a layer");
    if (n == 0)
        return swx_error_set(SWX_EINVAL, "layer %s has no valid times to step through",
                             swx_layer_name(l));
    int64_t run = INT64_MIN;
    if (swx_layer_run_time(&run, l))
        run = INT64_MIN;
    src = calloc(n, sizeof *src);
    if (!src)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        if (!(src[i] = connstr(o, run, swx_timedim_get(td, i)))) {
            rc = swx_error_last_code() ? swx_error_last_code() : SWX_ENOMEM;
            goto done;
        }

    char lab[600], group[700], when[32];
    label(lab, sizeof lab, l);
    if (run != INT64_MIN) {
        short_time(when, sizeof when, run);
        snprintf(group, sizeof group, "%s, run %s", lab, when);
    } else {
        snprintf(group, sizeof group, "%s", lab);
    }
    /* The layers' CRS as QGIS names it (the plugin serves EPSG:4326 or Web
     * Mercator, which a service may advertise as EPSG:900913), a whole
     * <spatialrefsys>: QGIS 3.22 takes an authid alone for no CRS. */
    const char *srs = o->crs && (strstr(o->crs, "3857") || strstr(o->crs, "900913"))
                          ? SWX_QGS_SRS_MERC
                          : SWX_QGS_SRS_WGS84;
    swx_qgs_frame q = {
        .qlr = 1,
        .comment = "seawx: one layer per valid time, each shown by QGIS's Temporal Controller at "
                   "its time. Open in QGIS: Layer > Add from Layer Definition File, or drag this "
                   "file onto the map; turn on animated temporal navigation, then tick the group."};
    swx_qgs_begin(f, &q);
    /* The group comes unticked: with temporal navigation off QGIS draws
     * every layer of a ticked group at once, fetching every valid time. */
    swx_qgs_group_begin(f, 1, group, 0);
    char id[600], name[700];
    for (size_t i = 0; i < n; i++) {
        swx_qgs_layer ql = time_layer(id, sizeof id, name, sizeof name, o, src[i], srs, i);
        swx_qgs_tree_layer(f, 2, &ql);
    }
    swx_qgs_group_end(f, 1);
    swx_qgs_layers(f, &q);
    for (size_t i = 0; i < n; i++) {
        swx_qgs_layer ql = time_layer(id, sizeof id, name, sizeof name, o, src[i], srs, i);
        swx_qgs_maplayer(f, &ql, NULL);
    }
    swx_qgs_end(f, &q);
    if (ferror(f))
        rc = swx_error_set(SWX_EIO, "cannot write the layer definition");
done:
    for (size_t i = 0; src && i < n; i++)
        free(src[i]);
    free(src);
    return rc;
}

/* wms.c: bundles, capabilities and legend requests of the WMS endpoint. */
#include "seawx/wms.h"

#include "buf.h"
#include "http_core.h"
#include "jsonfmt.h"
#include "png_codec.h"
#include "seawx/error.h"
#include "wms_request.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The bundles the interface lists as WMS layers, in its order; the option
 * list of a map (map_opts.c) offers the same. */
const char *const swx__wms_bundles[] = {
    "basic",          "precipitation", "maritime",     "maritime-wave", "maritime-wave-ext",
    "maritime-atmos", "clouds",        "thunderstorm", "upper-air",     "agricultural",
    "wind-energy",    "solar-energy",  NULL,
};
#define NBUNDLES (sizeof swx__wms_bundles / sizeof swx__wms_bundles[0] - 1)

size_t swx_wms_bundle_count(void)
{
    return NBUNDLES;
}

const char *swx_wms_bundle(size_t i)
{
    return i < NBUNDLES ? swx__wms_bundles[i] : NULL;
}

int swx_wms_bundle_check(const char *name)
{
    for (size_t i = 0; i < NBUNDLES; i++)
        if (name && strcmp(name, swx__wms_bundles[i]) == 0)
            return 0;
    char list[512] = "";
    size_t at = 0;
    for (size_t i = 0; i < NBUNDLES; i++)
        swx_list_append(list, sizeof list, &at, swx__wms_bundles[i]);
    return swx_error_set(SWX_EINVAL, "unknown bundle '%.64s': valid bundles are %s",
                         name ? name : "", list);
}

/* Starts a request of the WMS endpoint: the parameters every request carries
 * (service, request, version, product, bundle) into a new query, and req set
 * up for the WMS auth mode. */
static int wms_request_start(const char *operation, const char *bundle, const char *accept,
                             swx_request *req, swx_query **q)
{
    int rc;
    *q = NULL;
    if ((rc = swx_wms_bundle_check(bundle)) || (rc = swx_query_new(q)))
        return rc;
    if ((rc = swx_query_add(*q, "service", "WMS")) ||
        (rc = swx_query_add(*q, "request", operation)) ||
        (rc = swx_query_add(*q, "version", "1.3.0")) ||
        (rc = swx_query_add(*q, "product", SWX_WMS_PRODUCT)) ||
        (rc = swx_query_add(*q, "bundle", bundle))) {
        swx_query_free(*q);
        *q = NULL;
        return rc;
    }
    memset(req, 0, sizeof *req);
    req->service = SWX_SERVICE_MAIN;
    req->path = SWX_WMS_PATH;
    req->query = *q;
    req->wms = 1;
    req->accept = accept;
    return 0;
}

int swx_wms_caps_request(swx_request *req, swx_query **q, const char *bundle)
{
    int rc = wms_request_start("GetCapabilities", bundle, SWX_WMS_CAPS_TYPES, req, q);
    if (!rc)
        req->max_body = SWX_CAPS_MAX_BYTES;
    return rc;
}

int swx_wms_getmap_request(swx_request *req, swx_query **q, const swx_getmap *g)
{
    char a[SWX_DOUBLE_TEXT_MAX], b[SWX_DOUBLE_TEXT_MAX], c[SWX_DOUBLE_TEXT_MAX],
        d[SWX_DOUBLE_TEXT_MAX], bbox[140];
    int rc;
    *q = NULL;
    if ((rc = swx_wms_bundle_check(g->bundle)))
        return rc;
    if (!g->layer || !g->crs || g->width <= 0 || g->height <= 0 || !(g->minx < g->maxx) ||
        !(g->miny < g->maxy) || !isfinite(g->minx) || !isfinite(g->maxx) || !isfinite(g->miny) ||
        !isfinite(g->maxy))
        return swx_error_set(SWX_EINVAL, "invalid GetMap request: layer, CRS, a positive size "
                                         "and a non-empty bbox are needed");
    int lat_first = strcasecmp(g->crs, "EPSG:4326") == 0;
    swx_double_shortest(a, lat_first ? g->miny : g->minx);
    swx_double_shortest(b, lat_first ? g->minx : g->miny);
    swx_double_shortest(c, lat_first ? g->maxy : g->maxx);
    swx_double_shortest(d, lat_first ? g->maxx : g->maxy);
    snprintf(bbox, sizeof bbox, "%s,%s,%s,%s", a, b, c, d);
    if ((rc = wms_request_start("GetMap", g->bundle, "image/png", req, q)))
        return rc;
    if ((rc = swx_query_add(*q, "layers", g->layer)) ||
        (rc = swx_query_add(*q, "styles", g->style ? g->style : "")) ||
        (rc = swx_query_add(*q, "crs", g->crs)) || (rc = swx_query_add(*q, "bbox", bbox)) ||
        (rc = swx_query_addf(*q, "width", "%d", g->width)) ||
        (rc = swx_query_addf(*q, "height", "%d", g->height)) ||
        (rc = swx_query_add(*q, "format", "image/png")) ||
        (rc = swx_query_add(*q, "transparent", g->transparent ? "TRUE" : "FALSE")) ||
        (g->time && (rc = swx_query_add(*q, "time", g->time)))) {
        swx_query_free(*q);
        *q = NULL;
        return rc;
    }
    return 0;
}

static int parse_answer(const char *bundle, const swx_response *r, swx_caps **out)
{
    int rc = swx_caps_parse(out, r->body, r->len);
    if (rc)
        return swx_error_prefix(rc, "capabilities of bundle %s from %s", bundle, r->url);
    return 0;
}

int swx_wms_get_caps_doc(swx_caps **out, char **xml, size_t *len, swx_client *c, const char *bundle)
{
    swx_request req;
    swx_query *q = NULL;
    swx_response *r = NULL;
    *out = NULL;
    *xml = NULL;
    *len = 0;
    int rc = swx_wms_caps_request(&req, &q, bundle);
    if (!rc)
        rc = swx_http_get(&r, c, &req);
    if (!rc)
        rc = parse_answer(bundle, r, out);
    if (!rc) {
        *xml = r->body;
        *len = r->len;
        r->body = NULL;
    }
    swx_response_free(r);
    swx_query_free(q);
    return rc;
}

int swx_wms_get_caps(swx_caps **out, swx_client *c, const char *bundle)
{
    char *xml = NULL;
    size_t len = 0;
    int rc = swx_wms_get_caps_doc(out, &xml, &len, c, bundle);
    free(xml);
    return rc;
}

typedef struct many {
    const char *const *bundles;
    size_t n, next;
    swx_query *q;
    swx_caps **out;
    int *rc;
    char **errors;
    int first_rc;
} many;

static void note_failure(many *m, size_t i, int rc)
{
    m->rc[i] = rc;
    if (m->errors) {
        const char *line = swx_error_last();
        m->errors[i] = malloc(strlen(line) + 1);
        if (m->errors[i])
            strcpy(m->errors[i], line);
    }
    if (!m->first_rc)
        m->first_rc = rc;
}

static int many_next(void *ud, swx_request *req, void **user)
{
    many *m = ud;
    while (m->next < m->n) {
        size_t i = m->next++;
        swx_query_free(m->q);
        m->q = NULL;
        int rc = swx_wms_caps_request(req, &m->q, m->bundles[i]);
        if (rc) {
            note_failure(m, i, rc);
            continue;
        }
        *user = (void *)(uintptr_t)i;
        return 1;
    }
    return 0;
}

static int many_done(void *ud, void *user, int rc, const swx_response *resp)
{
    many *m = ud;
    size_t i = (size_t)(uintptr_t)user;
    if (!rc)
        rc = parse_answer(m->bundles[i], resp, &m->out[i]);
    if (rc)
        note_failure(m, i, rc);
    return 0;
}

int swx_wms_get_caps_many(swx_caps **out, int *rc, char **errors, swx_client *c,
                          const char *const *bundle_names, size_t n, int max_in_flight)
{
    many m = {bundle_names, n, 0, NULL, out, rc, errors, 0};
    for (size_t i = 0; i < n; i++) {
        out[i] = NULL;
        rc[i] = 0;
        if (errors)
            errors[i] = NULL;
    }
    swx_fetch_opts o = {max_in_flight > 0 ? max_in_flight : 4, 0, NULL};
    int r = swx_fetch_run(NULL, c, &o, many_next, many_done, &m);
    swx_query_free(m.q);
    return r ? r : m.first_rc;
}

int swx_wms_get_legend(void **out, size_t *len, int *w, int *h, swx_client *c, const char *bundle,
                       const char *layer, const char *style, int width, int height)
{
    swx_request req;
    swx_query *q = NULL;
    swx_response *r = NULL;
    int pw = 0, ph = 0, rc;
    *out = NULL;
    *len = 0;
    if (!layer || !*layer)
        return swx_error_set(SWX_EINVAL, "a legend needs a layer");
    if (width < 0 || height < 0 || width > SWX_LEGEND_MAX_SIDE || height > SWX_LEGEND_MAX_SIDE)
        return swx_error_set(SWX_EINVAL, "a legend's width and height are 1 to %d pixels",
                             SWX_LEGEND_MAX_SIDE);
    if ((rc = wms_request_start("GetLegendGraphic", bundle, "image/png", &req, &q)))
        goto done;
    req.max_body = SWX_LEGEND_MAX_BYTES;
    if ((rc = swx_query_add(q, "layer", layer)) ||
        (style && *style && (rc = swx_query_add(q, "style", style))) ||
        (rc = swx_query_add(q, "format", "image/png")) ||
        (width && (rc = swx_query_addf(q, "width", "%d", width))) ||
        (height && (rc = swx_query_addf(q, "height", "%d", height))))
        goto done;
    if ((rc = swx_http_get(&r, c, &req)))
        goto done;
    if ((rc = swx_png_check(&pw, &ph, NULL, r->body, r->len))) {
        rc = swx_error_prefix(rc, "bad legend image from %s", r->url);
        goto done;
    }
    if ((width && pw != width) || (height && ph != height)) {
        rc = swx_error_set(SWX_ESERVICE, "legend from %s is %d x %d, not the %d x %d asked for",
                           r->url, pw, ph, width ? width : pw, height ? height : ph);
        goto done;
    }
    *out = r->body;
    *len = r->len;
    r->body = NULL;
    if (w)
        *w = pw;
    if (h)
        *h = ph;
done:
    swx_response_free(r);
    swx_query_free(q);
    return rc;
}

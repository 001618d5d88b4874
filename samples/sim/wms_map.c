/* wms_map.c: GetMap and GetLegendGraphic (see wms_map.h).
 *
 * GetMap checks every parameter before any work, in the order: EXCEPTIONS,
 * VERSION, WIDTH/HEIGHT, TRANSPARENT/BGCOLOR, FORMAT, LAYERS, STYLES, CRS/SRS,
 * BBOX, TIME. Then it looks in the image cache under a key made of everything
 * that changes the pixels (with the bbox normalised to x east / y north, so
 * 1.1.1 and 1.3.0 requests of one window share an entry), and renders on a miss. */
#include "wms_map.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app.h"
#include "cache.h"
#include "legend.h"
#include "png.h"
#include "render.h"
#include "runs.h"
#include "timestamp.h"

/* Degrees may exceed their range by this much (clients round). */
#define DEG_SLACK 1e-9
#define MERC_SLACK 1e-3

static int parse_size(const char *s, unsigned max, unsigned *out)
{
    char *end;
    unsigned long v;

    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < 1 || v > max)
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* Four comma-separated finite numbers, nothing else. */
static int parse_bbox(const char *s, double v[4])
{
    const char *p = s;

    for (int i = 0; i < 4; i++) {
        char *end;
        while (*p == ' ')
            p++;
        errno = 0;
        v[i] = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(v[i]))
            return -1;
        p = end;
        while (*p == ' ')
            p++;
        if (i < 3) {
            if (*p != ',')
                return -1;
            p++;
        }
    }
    return *p == '\0' ? 0 : -1;
}

static int parse_bgcolor(const char *s, uint8_t bg[3])
{
    unsigned long v;
    char *end;

    if (strncasecmp(s, "0x", 2) == 0)
        s += 2;
    else if (*s == '#')
        s++;
    if (strlen(s) != 6)
        return -1;
    v = strtoul(s, &end, 16);
    if (*end != '\0')
        return -1;
    bg[0] = (uint8_t)(v >> 16);
    bg[1] = (uint8_t)(v >> 8);
    bg[2] = (uint8_t)v;
    return 0;
}

static int parse_exceptions(struct sim_wms_req *w)
{
    const char *e = sim_http_arg(w->rq, "exceptions");

    w->exc = SIM_EXC_XML;
    if (e == NULL || *e == '\0' || strcasecmp(e, "XML") == 0 ||
        strcmp(e, "application/vnd.ogc.se_xml") == 0 || strcmp(e, "text/xml") == 0)
        return 0;
    if (strcasecmp(e, "BLANK") == 0 || strcmp(e, "application/vnd.ogc.se_blank") == 0) {
        w->exc = SIM_EXC_BLANK;
        return 0;
    }
    if (strcasecmp(e, "INIMAGE") == 0 || strcmp(e, "application/vnd.ogc.se_inimage") == 0) {
        w->exc = SIM_EXC_INIMAGE;
        return 0;
    }
    return sim_wms_error(w, "InvalidParameterValue",
                         "Parameter 'exceptions' is '%.80s'; valid values: XML, INIMAGE, BLANK",
                         e) == 0
               ? 1
               : -1;
}

/* TRANSPARENT and BGCOLOR; returns 0, or the result of the answered error + 1. */
static int parse_background(struct sim_wms_req *w, int *answered)
{
    const char *t = sim_http_arg(w->rq, "transparent");
    const char *bg = sim_http_arg(w->rq, "bgcolor");

    *answered = 0;
    if (t != NULL && *t != '\0') {
        if (strcasecmp(t, "TRUE") == 0)
            w->transparent = 1;
        else if (strcasecmp(t, "FALSE") == 0)
            w->transparent = 0;
        else {
            *answered = 1;
            return sim_wms_error(w, "InvalidParameterValue",
                                 "Parameter 'transparent' is '%.80s'; valid values: TRUE, FALSE",
                                 t);
        }
    }
    if (bg != NULL && *bg != '\0' && parse_bgcolor(bg, w->bg) != 0) {
        *answered = 1;
        return sim_wms_error(w, "InvalidParameterValue",
                             "Parameter 'bgcolor' is '%.80s'; expected 0xRRGGBB", bg);
    }
    return 0;
}

/* The layer and its run, checked against the runs that exist now. */
static int find_layer(struct sim_wms_req *w, const char *name, const struct sim_variable **var,
                      int64_t *run, int *max_lead, int *answered)
{
    struct sim_runs runs;
    int idx;

    *answered = 1;
    if (strchr(name, ',') != NULL)
        return sim_wms_error(w, "InvalidParameterValue",
                             "Parameter 'layers' names several layers; this service draws "
                             "one layer per request");
    sim_runs_at(sim_app_clock(w->rq->app), &runs);
    if (sim_catalog_parse_layer(w->bundle, name, run, var) != 0 ||
        (idx = sim_runs_find(&runs, *run)) < 0)
        return sim_wms_error(w, "LayerNotDefined",
                             "Layer '%.200s' is not defined in bundle '%s'; take layer names "
                             "from GetCapabilities",
                             name, w->bundle->name);
    *max_lead = runs.max_lead[idx];
    *answered = 0;
    return 0;
}

static int find_style(struct sim_wms_req *w, const struct sim_variable *var, const char *layer,
                      const char *styles, const char **style, int *answered)
{
    struct sim_buf list;
    int rc;

    *answered = 0;
    if (styles == NULL || *styles == '\0' || strcasecmp(styles, "default") == 0) {
        *style = var->styles[0];
        return 0;
    }
    if (sim_style_find(var, styles) >= 0) {
        *style = var->styles[sim_style_find(var, styles)];
        return 0;
    }
    *answered = 1;
    sim_buf_init(&list, 1024);
    for (size_t i = 0; i < sim_style_count(var); i++)
        sim_buf_printf(&list, "%s%s", i ? ", " : "", var->styles[i]);
    rc = sim_wms_error(w, "StyleNotDefined",
                       "Style '%.120s' is not defined for layer '%.200s'; valid styles: %s", styles,
                       layer, list.failed ? "?" : list.data);
    sim_buf_free(&list);
    return rc;
}

static int check_bbox(struct sim_wms_req *w, enum sim_crs crs, const char *raw, double v[4],
                      int *answered)
{
    double minx = v[0], miny = v[1], maxx = v[2], maxy = v[3];

    *answered = 1;
    if (!(minx < maxx) || !(miny < maxy))
        return sim_wms_error(w, "InvalidParameterValue",
                             "Parameter 'bbox' is '%.120s'; each minimum must be less than its "
                             "maximum",
                             raw);
    if (crs == SIM_CRS_3857) {
        double m = SIM_MERCATOR_MAX + MERC_SLACK;
        if (minx < -m || maxx > m || miny < -m || maxy > m)
            return sim_wms_error(w, "InvalidParameterValue",
                                 "Parameter 'bbox' is '%.120s'; EPSG:3857 coordinates lie "
                                 "within +-20037508.342789244",
                                 raw);
    } else if (minx < -180 - DEG_SLACK || maxx > 180 + DEG_SLACK || miny < -90 - DEG_SLACK ||
               maxy > 90 + DEG_SLACK) {
        return sim_wms_error(w, "InvalidParameterValue",
                             "Parameter 'bbox' is '%.120s'; latitudes lie within -90..90 and "
                             "longitudes within -180..180",
                             raw);
    }
    *answered = 0;
    return 0;
}

static int check_time(struct sim_wms_req *w, const struct sim_variable *var, const char *layer,
                      int64_t run, int max_lead, int64_t *valid, int *answered)
{
    const char *t = sim_http_arg(w->rq, "time");
    const char *rt = sim_http_arg(w->rq, "dim_reference_time");
    char first[SWX_ISO8601_LEN], last[SWX_ISO8601_LEN];
    int64_t v;

    *answered = 0;
    *valid = run;
    if (var->flags & SIM_VAR_STATIC)
        return 0; /* no time dimension: TIME is ignored */
    if (rt != NULL && *rt != '\0') {
        int64_t r;
        if (sim_ts_parse(rt, &r) != 0 || r != run) {
            *answered = 1;
            return sim_wms_error(w, "InvalidDimensionValue",
                                 "DIM_REFERENCE_TIME '%.80s' is not the run of layer '%.200s'", rt,
                                 layer);
        }
    }
    if (t == NULL || *t == '\0' || strcasecmp(t, "current") == 0) {
        *valid = sim_run_default_time(run, max_lead, sim_app_clock(w->rq->app));
        return 0;
    }
    if (sim_ts_parse(t, &v) == 0 && (v - run) % 3600 == 0 &&
        sim_lead_valid((v - run) / 3600, max_lead)) {
        *valid = v;
        return 0;
    }
    *answered = 1;
    swx_iso8601_format(first, run);
    swx_iso8601_format(last, run + (int64_t)max_lead * 3600);
    return sim_wms_error(w, "InvalidDimensionValue",
                         "TIME '%.80s' is not a valid time of layer '%.200s'; valid times run "
                         "from %s to %s (hourly to +48 h, 3-hourly to +120 h, then 6-hourly); "
                         "see the layer's time Dimension",
                         t, layer, first, last);
}

/* Renders the image of spec into a new blob; bounded by the render limiter. */
static int render_png(struct sim_app *app, const struct sim_render_spec *spec,
                      struct sim_blob **out)
{
    struct sim_render *r = NULL;
    struct sim_png *png = NULL;
    uint8_t *rows = NULL;
    char *data = NULL;
    size_t len = 0;
    const unsigned band = 256; /* rows handed from the renderer to the encoder at once */
    int rc = -1;

    *out = NULL;
    sim_app_render_enter(app);
    rows = malloc((size_t)spec->width * 4 * band);
    if (rows == NULL || sim_render_begin(spec, &r) != 0 ||
        sim_png_begin(&png, spec->width, spec->height,
                      (size_t)spec->width * spec->height * 4 + spec->height * 8 + (1u << 20)) != 0)
        goto done;
    for (unsigned row = 0; row < spec->height; row += band) {
        unsigned n = spec->height - row < band ? spec->height - row : band;
        if (sim_render_rows(r, row, n, rows) != 0 || sim_png_rows(png, rows, n) != 0)
            goto done;
    }
    if (sim_png_end(png, &data, &len) != 0)
        goto done;
    *out = sim_blob_adopt(data, len);
    rc = *out != NULL ? 0 : -1;
done:
    sim_app_render_leave(app);
    sim_png_free(png);
    sim_render_end(r);
    free(rows);
    return rc;
}

int sim_wms_getmap(struct sim_wms_req *w)
{
    struct sim_request *rq = w->rq;
    struct sim_app *app = rq->app;
    const char *version, *format, *layer, *crs_s, *bbox_s;
    const struct sim_variable *var = NULL;
    const char *style = NULL;
    struct sim_render_spec spec;
    struct sim_blob *img = NULL;
    char key[1024];
    double v[4];
    int64_t run = 0, valid = 0;
    int max_lead = 0, answered = 0, v111, rc;
    enum sim_crs crs;

    rq->op = SIM_OP_GETMAP;
    rc = parse_exceptions(w);
    if (rc != 0)
        return rc > 0 ? 0 : -1;
    version = sim_http_arg(rq, "version");
    if (version == NULL || *version == '\0')
        return sim_wms_error(w, "MissingParameterValue",
                             "Parameter 'version' is missing; use 1.3.0 (or 1.1.1)");
    if (strcmp(version, "1.3.0") != 0 && strcmp(version, "1.1.1") != 0)
        return sim_wms_error(w, "InvalidParameterValue",
                             "Parameter 'version' is '%.40s'; valid values: 1.3.0, 1.1.1", version);
    v111 = strcmp(version, "1.1.1") == 0;

    {
        const char *ws = sim_http_arg(rq, "width"), *hs = sim_http_arg(rq, "height");
        unsigned W, H;
        if (ws == NULL || *ws == '\0')
            return sim_wms_error(w, "MissingParameterValue", "Parameter 'width' is missing");
        if (hs == NULL || *hs == '\0')
            return sim_wms_error(w, "MissingParameterValue", "Parameter 'height' is missing");
        if (parse_size(ws, app->opt.max_size, &W) != 0)
            return sim_wms_error(w, "InvalidParameterValue",
                                 "Parameter 'width' is '%.40s'; it must be an integer 1..%u", ws,
                                 app->opt.max_size);
        if (parse_size(hs, app->opt.max_size, &H) != 0)
            return sim_wms_error(w, "InvalidParameterValue",
                                 "Parameter 'height' is '%.40s'; it must be an integer 1..%u", hs,
                                 app->opt.max_size);
        w->img_w = W;
        w->img_h = H;
    }
    rc = parse_background(w, &answered);
    if (answered)
        return rc;

    format = sim_http_arg(rq, "format");
    if (format == NULL || *format == '\0')
        return sim_wms_error(w, "MissingParameterValue",
                             "Parameter 'format' is missing; use image/png");
    if (strcmp(format, "image/png") != 0)
        return sim_wms_error(w, "InvalidFormat",
                             "Format '%.80s' is not supported; valid values: image/png", format);

    layer = sim_http_arg(rq, "layers");
    if (layer == NULL || *layer == '\0')
        return sim_wms_error(w, "MissingParameterValue", "Parameter 'layers' is missing");
    rc = find_layer(w, layer, &var, &run, &max_lead, &answered);
    if (answered)
        return rc;
    {
        const char *styles = sim_http_arg(rq, "styles");
        if (styles != NULL && strchr(styles, ',') != NULL)
            return sim_wms_error(w, "InvalidParameterValue",
                                 "Parameter 'styles' lists several styles; give one (or "
                                 "none) for the one layer");
        rc = find_style(w, var, layer, styles, &style, &answered);
        if (answered)
            return rc;
    }

    crs_s = sim_http_arg(rq, v111 ? "srs" : "crs");
    if (crs_s == NULL || *crs_s == '\0')
        return sim_wms_error(w, "MissingParameterValue", "Parameter '%s' is missing",
                             v111 ? "srs" : "crs");
    crs = sim_crs_parse(crs_s);
    if (crs == 0 || !(w->bundle->crs & crs))
        return sim_wms_error(w, "InvalidCRS",
                             "%s '%.80s' is not supported by layer '%.200s'; valid values: "
                             "EPSG:4326, %sCRS:84",
                             v111 ? "SRS" : "CRS", crs_s, layer,
                             (w->bundle->crs & SIM_CRS_3857) ? "EPSG:3857, " : "");

    bbox_s = sim_http_arg(rq, "bbox");
    if (bbox_s == NULL || *bbox_s == '\0')
        return sim_wms_error(w, "MissingParameterValue", "Parameter 'bbox' is missing");
    if (parse_bbox(bbox_s, v) != 0)
        return sim_wms_error(w, "InvalidParameterValue",
                             "Parameter 'bbox' is '%.120s'; expected four numbers "
                             "minx,miny,maxx,maxy",
                             bbox_s);
    if (crs == SIM_CRS_4326 && !v111) {
        /* WMS 1.3.0 EPSG:4326 axis order: min_lat, min_lon, max_lat, max_lon */
        double t0 = v[0], t2 = v[2];
        v[0] = v[1];
        v[1] = t0;
        v[2] = v[3];
        v[3] = t2;
    }
    rc = check_bbox(w, crs, bbox_s, v, &answered);
    if (answered)
        return rc;
    rc = check_time(w, var, layer, run, max_lead, &valid, &answered);
    if (answered)
        return rc;

    memset(&spec, 0, sizeof(spec));
    spec.var = var;
    spec.renderer = sim_style_renderer(style);
    spec.crs = crs;
    spec.minx = v[0];
    spec.miny = v[1];
    spec.maxx = v[2];
    spec.maxy = v[3];
    spec.width = w->img_w;
    spec.height = w->img_h;
    spec.when.valid = valid;
    spec.when.run = run;
    spec.transparent = w->transparent;
    memcpy(spec.bg, w->bg, 3);

    /* 1.3.0 EPSG:4326 and CRS:84 windows in degrees render the same pixels */
    snprintf(key, sizeof(key), "%s|%s|%s|%d|%.17g,%.17g,%.17g,%.17g|%u|%u|%lld|%d|%02x%02x%02x",
             w->bundle->name, layer, style, crs == SIM_CRS_3857 ? 3857 : 4326, v[0], v[1], v[2],
             v[3], spec.width, spec.height, (long long)valid, spec.transparent, spec.bg[0],
             spec.bg[1], spec.bg[2]);
    img = sim_cache_get(app->images, key);
    if (img == NULL) {
        if (render_png(app, &spec, &img) != 0)
            return -1;
        sim_cache_put(app->images, key, img);
    }
    rc = sim_http_reply_blob(rq, 200, "image/png", img, NULL, 0);
    sim_blob_unref(img);
    return rc;
}

int sim_wms_getlegendgraphic(struct sim_wms_req *w)
{
    struct sim_request *rq = w->rq;
    const char *layer = sim_http_arg(rq, "layer");
    const char *format = sim_http_arg(rq, "format");
    const char *ws = sim_http_arg(rq, "width"), *hs = sim_http_arg(rq, "height");
    const struct sim_variable *var = NULL;
    const char *style = NULL;
    char *data = NULL;
    size_t len = 0;
    unsigned W = SIM_LEGEND_WIDTH, H = SIM_LEGEND_HEIGHT;
    int64_t run;
    int max_lead, answered = 0, rc = -1;

    if (format != NULL && *format != '\0' && strcmp(format, "image/png") != 0)
        return sim_wms_error(w, "InvalidFormat",
                             "Format '%.80s' is not supported; valid values: image/png", format);
    if (ws != NULL && *ws != '\0' && parse_size(ws, 1024, &W) != 0)
        return sim_wms_error(w, "InvalidParameterValue",
                             "Parameter 'width' is '%.40s'; it must be an integer 1..1024", ws);
    if (hs != NULL && *hs != '\0' && parse_size(hs, 1024, &H) != 0)
        return sim_wms_error(w, "InvalidParameterValue",
                             "Parameter 'height' is '%.40s'; it must be an integer 1..1024", hs);
    if (layer == NULL || *layer == '\0')
        return sim_wms_error(w, "MissingParameterValue", "Parameter 'layer' is missing");
    rc = find_layer(w, layer, &var, &run, &max_lead, &answered);
    if (answered)
        return rc;
    rc = find_style(w, var, layer, sim_http_arg(rq, "style"), &style, &answered);
    if (answered)
        return rc;
    if (sim_legend_png(var, W, H, &data, &len) != 0)
        return -1;
    return sim_http_reply_take(rq, 200, "image/png", data, len, NULL, 0);
}

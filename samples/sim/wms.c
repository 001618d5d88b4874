/* wms.c: the /ows/wms endpoint (see wms.h). */
#include "wms.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "auth.h"
#include "png.h"
#include "wms_caps.h"
#include "wms_map.h"

int sim_wms_exception_xml(struct sim_buf *out, const char *code, const char *message)
{
    sim_buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<ServiceExceptionReport version=\"1.3.0\" "
                      "xmlns=\"http://www.opengis.net/ogc\" "
                      "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                      "xsi:schemaLocation=\"http://www.opengis.net/ogc "
                      "http://schemas.opengis.net/wms/1.3.0/exceptions_1_3_0.xsd\">\n"
                      "  <ServiceException");
    if (code != NULL) {
        sim_buf_puts(out, " code=\"");
        sim_buf_xml(out, code);
        sim_buf_puts(out, "\"");
    }
    sim_buf_puts(out, ">");
    sim_buf_xml(out, message);
    return sim_buf_puts(out, "</ServiceException>\n</ServiceExceptionReport>\n");
}

/* A blank image of the requested size; INIMAGE adds a 2-pixel red frame so that
 * a person looking at the map sees that something went wrong. */
static int image_exception(struct sim_wms_req *w)
{
    struct sim_png *png = NULL;
    uint8_t *row = NULL;
    char *data = NULL;
    size_t len = 0;
    unsigned W = w->img_w, H = w->img_h;
    int rc = -1;

    row = malloc((size_t)W * 4);
    if (row == NULL || sim_png_begin(&png, W, H, (size_t)W * H * 4 + H + (1u << 20)) != 0)
        goto done;
    for (unsigned j = 0; j < H; j++) {
        int edge_row = j < 2 || j + 2 >= H;
        for (unsigned i = 0; i < W; i++) {
            uint8_t *o = row + (size_t)i * 4;
            int frame = w->exc == SIM_EXC_INIMAGE && (edge_row || i < 2 || i + 2 >= W);
            if (frame) {
                o[0] = 220, o[1] = 30, o[2] = 30, o[3] = 255;
            } else if (w->transparent) {
                o[0] = o[1] = o[2] = o[3] = 0;
            } else {
                o[0] = w->bg[0], o[1] = w->bg[1], o[2] = w->bg[2], o[3] = 255;
            }
        }
        if (sim_png_rows(png, row, 1) != 0)
            goto done;
    }
    if (sim_png_end(png, &data, &len) != 0)
        goto done;
    rc = sim_http_reply_take(w->rq, 200, "image/png", data, len, NULL, 0);
done:
    sim_png_free(png);
    free(row);
    return rc;
}

int sim_wms_error(struct sim_wms_req *w, const char *code, const char *fmt, ...)
{
    struct sim_buf msg, doc;
    va_list ap;
    char *body;
    size_t len = 0;
    int rc = -1;

    if (w->exc != SIM_EXC_XML && w->img_w != 0 && w->img_h != 0)
        return image_exception(w);
    sim_buf_init(&msg, 4096);
    sim_buf_init(&doc, 16384);
    va_start(ap, fmt);
    sim_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    if (msg.failed)
        goto done;
    sim_wms_exception_xml(&doc, code, msg.data);
    body = sim_buf_steal(&doc, &len);
    if (body != NULL)
        rc = sim_http_reply_take(w->rq, 400, SIM_XML_CTYPE, body, len, NULL, 0);
done:
    sim_buf_free(&msg);
    sim_buf_free(&doc);
    return rc;
}

int sim_wms_handle(struct sim_request *rq)
{
    struct sim_wms_req w;
    const char *service, *request, *product, *bundle;
    int a;

    memset(&w, 0, sizeof(w));
    w.rq = rq;
    w.transparent = 1;
    w.bg[0] = w.bg[1] = w.bg[2] = 255;

    a = sim_auth_require(rq, 1);
    if (a != 0)
        return a < 0 ? -1 : 0;
    if (rq->too_many_args)
        return sim_wms_error(&w, "InvalidParameterValue", "Too many query parameters (at most %d)",
                             SIM_MAX_ARGS);

    service = sim_http_arg(rq, "service");
    request = sim_http_arg(rq, "request");
    product = sim_http_arg(rq, "product");
    bundle = sim_http_arg(rq, "bundle");
    if (service == NULL || *service == '\0')
        return sim_wms_error(&w, "MissingParameterValue",
                             "Parameter 'service' is missing; it must be WMS");
    if (strcmp(service, "WMS") != 0)
        return sim_wms_error(&w, "InvalidParameterValue",
                             "Parameter 'service' is '%.80s'; it must be WMS", service);
    if (request == NULL || *request == '\0')
        return sim_wms_error(&w, "MissingParameterValue",
                             "Parameter 'request' is missing; valid values: GetCapabilities, "
                             "GetMap, GetLegendGraphic");
    if (strcmp(request, "GetCapabilities") != 0 && strcmp(request, "GetMap") != 0 &&
        strcmp(request, "GetLegendGraphic") != 0)
        return sim_wms_error(&w, "OperationNotSupported",
                             "Request '%.80s' is not supported; valid values: "
                             "GetCapabilities, GetMap, GetLegendGraphic",
                             request);
    if (product == NULL || *product == '\0')
        return sim_wms_error(&w, "MissingParameterValue",
                             "Parameter 'product' is missing; it must be " SIM_PRODUCT);
    if (strcmp(product, SIM_PRODUCT) != 0)
        return sim_wms_error(&w, "InvalidParameterValue",
                             "Parameter 'product' is '%.80s'; the only product is " SIM_PRODUCT,
                             product);
    if (bundle == NULL || *bundle == '\0')
        return sim_wms_error(&w, "MissingParameterValue",
                             "Parameter 'bundle' is missing; valid values: %s",
                             sim_catalog_bundle_names());
    w.bundle = sim_catalog_bundle(bundle);
    if (w.bundle == NULL)
        return sim_wms_error(&w, "InvalidParameterValue",
                             "Parameter 'bundle' is '%.80s'; valid values: %s", bundle,
                             sim_catalog_bundle_names());
    if (sim_app_bundle_denied(rq->app, w.bundle->name)) {
        char msg[160];
        snprintf(msg, sizeof(msg), "Bundle '%s' is not included in your subscription",
                 w.bundle->name);
        return sim_http_reply_json_error(rq, 403, "forbidden", msg);
    }
    if (strcmp(request, "GetCapabilities") == 0)
        return sim_wms_getcapabilities(&w);
    if (strcmp(request, "GetMap") == 0)
        return sim_wms_getmap(&w);
    return sim_wms_getlegendgraphic(&w);
}

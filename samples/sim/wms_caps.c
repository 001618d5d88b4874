/* wms_caps.c: GetCapabilities (see wms_caps.h).
 *
 * Document shape (WMS 1.3.0):
 *   Capability/Layer                    root: Title, CRS list, bounding boxes
 *     Layer  Title = product            "sof-d", or "sof-d.maritime" for the
 *                                       maritime family of bundles
 *       Layer  Title = YYYYMMDD         run dates, NEWEST FIRST
 *         Layer  Title = HH             issuance hours of that date, newest first
 *           Layer  Name, Title, ...     leaves: one per variable of the bundle
 * Only leaves have a Name. A leaf has a time Dimension (valid times) and a
 * reference_time Dimension (its run), except static leaves (lsm), which have none.
 * The API key appears nowhere: clients add it to the URLs they are given. */
#include "wms_caps.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "legend.h"
#include "gzip.h"
#include "runs.h"
#include "timestamp.h"

/* Largest document accepted; the biggest bundle is about 1 MiB. */
#define CAPS_LIMIT (16u << 20)

struct slot {
    pthread_mutex_t lock;
    int built;
    int64_t clock; /* clock the documents were built for */
    struct sim_blob *plain, *gz;
};

/* One slot per bundle, in catalog order. */
#define MAX_BUNDLES 32

struct sim_caps_cache {
    struct slot slots[MAX_BUNDLES];
};

int sim_caps_cache_new(struct sim_caps_cache **out)
{
    struct sim_caps_cache *c = calloc(1, sizeof(*c));

    *out = NULL;
    if (c == NULL || sim_catalog_bundle_count() > MAX_BUNDLES) {
        free(c);
        return -1;
    }
    for (size_t i = 0; i < MAX_BUNDLES; i++)
        pthread_mutex_init(&c->slots[i].lock, NULL);
    *out = c;
    return 0;
}

static void slot_clear(struct slot *s)
{
    sim_blob_unref(s->plain);
    sim_blob_unref(s->gz);
    s->plain = s->gz = NULL;
    s->built = 0;
}

void sim_caps_cache_clear(struct sim_caps_cache *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < MAX_BUNDLES; i++) {
        pthread_mutex_lock(&c->slots[i].lock);
        slot_clear(&c->slots[i]);
        pthread_mutex_unlock(&c->slots[i].lock);
    }
}

void sim_caps_cache_free(struct sim_caps_cache *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < MAX_BUNDLES; i++) {
        slot_clear(&c->slots[i]);
        pthread_mutex_destroy(&c->slots[i].lock);
    }
    free(c);
}

/* ---- document ------------------------------------------------------------- */

static void dcp(struct sim_buf *x, const char *href)
{
    sim_buf_puts(x, "<DCPType><HTTP><Get><OnlineResource xlink:type=\"simple\" xlink:href=\"");
    sim_buf_xml(x, href);
    sim_buf_puts(x, "\"/></Get></HTTP></DCPType>\n");
}

static void legend_url(struct sim_buf *x, const struct sim_app *app, const struct sim_bundle *b,
                       const char *layer, const char *style)
{
    struct sim_buf u;

    sim_buf_init(&u, 4096);
    sim_buf_printf(&u,
                   "%s/ows/wms?service=WMS&request=GetLegendGraphic&version=1.3.0"
                   "&product=" SIM_PRODUCT "&bundle=%s&layer=",
                   app->base_url, b->name);
    sim_buf_url(&u, layer);
    sim_buf_puts(&u, "&style=");
    sim_buf_url(&u, style);
    sim_buf_puts(&u, "&format=image%2Fpng");
    sim_buf_printf(x, "<LegendURL width=\"%d\" height=\"%d\"><Format>image/png</Format>",
                   SIM_LEGEND_WIDTH, SIM_LEGEND_HEIGHT);
    sim_buf_puts(x, "<OnlineResource xlink:type=\"simple\" xlink:href=\"");
    sim_buf_xml(x, u.failed ? "" : u.data);
    sim_buf_puts(x, "\"/></LegendURL>");
    sim_buf_free(&u);
}

/* The valid times of a run as a comma-separated list of instants, or for
 * interval bundles as start/end/period items, one per step regime. */
static void time_extent(struct sim_buf *t, int64_t issued, int max_lead, int interval)
{
    int leads[SIM_RUN_MAX_TIMES];
    size_t n = sim_leads(max_lead, leads);
    char ts[SWX_ISO8601_LEN];

    if (!interval) {
        for (size_t i = 0; i < n; i++) {
            swx_iso8601_format(ts, issued + (int64_t)leads[i] * 3600);
            sim_buf_printf(t, "%s%s", i ? "," : "", ts);
        }
        return;
    }
    {
        static const struct {
            int from, to, step;
            const char *period;
        } reg[3] = {{0, 48, 1, "PT1H"}, {51, 120, 3, "PT3H"}, {126, 360, 6, "PT6H"}};
        int first = 1;
        for (size_t r = 0; r < 3; r++) {
            int end = reg[r].to < max_lead ? reg[r].to : max_lead;
            char te[SWX_ISO8601_LEN];
            if (end < reg[r].from)
                break;
            end -= (end - reg[r].from) % reg[r].step;
            swx_iso8601_format(ts, issued + (int64_t)reg[r].from * 3600);
            swx_iso8601_format(te, issued + (int64_t)end * 3600);
            sim_buf_printf(t, "%s%s/%s/%s", first ? "" : ",", ts, te, reg[r].period);
            first = 0;
        }
    }
}

static void leaf(struct sim_buf *x, const struct sim_app *app, const struct sim_bundle *b,
                 const struct sim_variable *v, int64_t issued, const char *times, const char *deflt)
{
    char date[9], run[SWX_ISO8601_LEN], name[256];

    sim_ts_format_date(issued, date);
    swx_iso8601_format(run, issued);
    snprintf(name, sizeof(name), "%s/%s/%02d/%s", b->product, date,
             (int)((issued % 86400 + 86400) % 86400 / 3600), v->id);
    sim_buf_puts(x, "<Layer queryable=\"0\" opaque=\"0\"><Name>");
    sim_buf_xml(x, name);
    sim_buf_puts(x, "</Name><Title>");
    sim_buf_xml(x, v->title);
    sim_buf_puts(x, "</Title><Abstract>");
    sim_buf_xml(x, v->title);
    sim_buf_puts(x, " (");
    sim_buf_xml(x, v->id);
    if (v->flags & SIM_VAR_STATIC)
        sim_buf_printf(x, "), static field, bundle %s.", b->name);
    else
        sim_buf_printf(x, ") of the %s run %s, bundle %s.", b->product, run, b->name);
    sim_buf_puts(x, "</Abstract>\n");
    if (!(v->flags & SIM_VAR_STATIC))
        sim_buf_printf(x,
                       "<Dimension name=\"time\" units=\"ISO8601\" default=\"%s\" "
                       "nearestValue=\"0\">%s</Dimension>\n"
                       "<Dimension name=\"reference_time\" units=\"ISO8601\" "
                       "default=\"%s\">%s</Dimension>\n",
                       deflt, times, run, run);
    for (size_t s = 0; s < sim_style_count(v); s++) {
        sim_buf_puts(x, "<Style><Name>");
        sim_buf_xml(x, v->styles[s]);
        sim_buf_puts(x, "</Name><Title>");
        sim_buf_xml(x, v->styles[s]);
        sim_buf_printf(x, ": %s</Title>", sim_renderer_title(sim_style_renderer(v->styles[s])));
        legend_url(x, app, b, name, v->styles[s]);
        sim_buf_puts(x, "</Style>\n");
    }
    sim_buf_puts(x, "</Layer>\n");
}

static void root_extent(struct sim_buf *x, const struct sim_bundle *b)
{
    static const char *const merc = "-20037508.342789244";
    static const char *const merc_max = "20037508.342789244";

    sim_buf_puts(x, "<CRS>EPSG:4326</CRS>\n");
    if (b->crs & SIM_CRS_3857)
        sim_buf_puts(x, "<CRS>EPSG:3857</CRS>\n");
    sim_buf_puts(x, "<CRS>CRS:84</CRS>\n"
                    "<EX_GeographicBoundingBox><westBoundLongitude>-180</westBoundLongitude>"
                    "<eastBoundLongitude>180</eastBoundLongitude>"
                    "<southBoundLatitude>-90</southBoundLatitude>"
                    "<northBoundLatitude>90</northBoundLatitude></EX_GeographicBoundingBox>\n"
                    "<BoundingBox CRS=\"EPSG:4326\" minx=\"-90\" miny=\"-180\" maxx=\"90\" "
                    "maxy=\"180\"/>\n");
    if (b->crs & SIM_CRS_3857)
        sim_buf_printf(x,
                       "<BoundingBox CRS=\"EPSG:3857\" minx=\"%s\" miny=\"%s\" maxx=\"%s\" "
                       "maxy=\"%s\"/>\n",
                       merc, merc, merc_max, merc_max);
    sim_buf_puts(x, "<BoundingBox CRS=\"CRS:84\" minx=\"-180\" miny=\"-90\" maxx=\"180\" "
                    "maxy=\"90\"/>\n");
}

int sim_wms_caps_build(const struct sim_app *app, const struct sim_bundle *b, int64_t clock,
                       struct sim_buf *x)
{
    struct sim_runs runs;
    struct sim_buf href, times;
    char clock_ts[SWX_ISO8601_LEN], open_date[9] = "";
    int rc = -1;

    sim_buf_init(&href, 1024);
    sim_buf_init(&times, 64 * 1024);
    sim_runs_at(clock, &runs);
    swx_iso8601_format(clock_ts, clock);
    sim_buf_printf(&href, "%s/ows/wms?product=" SIM_PRODUCT "&bundle=%s&", app->base_url, b->name);
    if (href.failed)
        goto done;

    sim_buf_puts(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sim_buf_printf(x,
                   "<WMS_Capabilities version=\"1.3.0\" updateSequence=\"%s\" "
                   "xmlns=\"http://www.opengis.net/wms\" "
                   "xmlns:sld=\"http://www.opengis.net/sld\" "
                   "xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
                   "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                   "xsi:schemaLocation=\"http://www.opengis.net/wms "
                   "http://schemas.opengis.net/wms/1.3.0/capabilities_1_3_0.xsd\">\n"
                   "<Service>\n<Name>WMS</Name>\n",
                   clock_ts);
    sim_buf_printf(x,
                   "<Title>Weather, Ocean and Vessel Data Service: %s %s (seawx-sim)</Title>\n"
                   "<Abstract>Simulated forecast maps of the bundle %s (%s). The API key "
                   "goes in the service-api-key header, the service-api-key query "
                   "parameter or HTTP Basic auth.</Abstract>\n",
                   SIM_PRODUCT, b->name, b->name, b->title);
    sim_buf_printf(x, "<OnlineResource xlink:type=\"simple\" xlink:href=\"%s/ows/wms\"/>\n",
                   app->base_url);
    sim_buf_puts(x, "<Fees>none</Fees>\n<AccessConstraints>API key required</AccessConstraints>\n");
    sim_buf_printf(x,
                   "<LayerLimit>1</LayerLimit>\n<MaxWidth>%u</MaxWidth>\n"
                   "<MaxHeight>%u</MaxHeight>\n",
                   app->opt.max_size, app->opt.max_size);
    sim_buf_puts(x, "</Service>\n<Capability>\n<Request>\n<GetCapabilities>\n"
                    "<Format>text/xml</Format>\n");
    dcp(x, href.data);
    sim_buf_puts(x, "</GetCapabilities>\n<GetMap>\n<Format>image/png</Format>\n");
    dcp(x, href.data);
    /* GetLegendGraphic is the SLD profile's extended operation in WMS 1.3.0 */
    sim_buf_puts(x, "</GetMap>\n<sld:GetLegendGraphic>\n<Format>image/png</Format>\n");
    dcp(x, href.data);
    sim_buf_puts(x, "</sld:GetLegendGraphic>\n</Request>\n<Exception>\n"
                    "<Format>XML</Format>\n<Format>INIMAGE</Format>\n<Format>BLANK</Format>\n"
                    "</Exception>\n<Layer>\n<Title>Weather, Ocean and Vessel Data Service"
                    "</Title>\n");
    root_extent(x, b);
    sim_buf_printf(x, "<Layer>\n<Title>%s</Title>\n", b->product);

    /* runs.issued is newest first: dates and hours come out newest first */
    for (size_t r = 0; r < runs.n; r++) {
        int64_t issued = runs.issued[r];
        char date[9], deflt[SWX_ISO8601_LEN];
        int hour = (int)((issued % 86400 + 86400) % 86400 / 3600);

        sim_ts_format_date(issued, date);
        if (strcmp(date, open_date) != 0) {
            if (open_date[0] != '\0')
                sim_buf_puts(x, "</Layer>\n");
            sim_buf_printf(x, "<Layer>\n<Title>%s</Title>\n", date);
            memcpy(open_date, date, sizeof(date));
        }
        sim_buf_printf(x, "<Layer>\n<Title>%02d</Title>\n", hour);
        sim_buf_reset(&times);
        time_extent(&times, issued, runs.max_lead[r], b->interval_time);
        if (times.failed)
            goto done;
        swx_iso8601_format(deflt, sim_run_default_time(issued, runs.max_lead[r], clock));
        for (size_t v = 0; v < b->nvars; v++)
            leaf(x, app, b, &b->vars[v], issued, times.data, deflt);
        sim_buf_puts(x, "</Layer>\n");
    }
    if (open_date[0] != '\0')
        sim_buf_puts(x, "</Layer>\n");
    sim_buf_puts(x, "</Layer>\n</Layer>\n</Capability>\n</WMS_Capabilities>\n");
    rc = x->failed ? -1 : 0;
done:
    sim_buf_free(&href);
    sim_buf_free(&times);
    return rc;
}

/* Builds (or reuses) the documents for the slot at this clock. On return *plain
 * and *gz hold new references. */
static int cached_docs(struct sim_app *app, const struct sim_bundle *b, struct sim_blob **plain,
                       struct sim_blob **gz)
{
    struct slot *s = NULL;
    int64_t clock = sim_app_clock(app);
    struct sim_buf x;
    char *doc = NULL, *z = NULL;
    size_t len = 0, zlen = 0;
    int rc = -1;

    for (size_t i = 0; i < sim_catalog_bundle_count(); i++)
        if (sim_catalog_bundle_at(i) == b)
            s = &app->caps->slots[i];
    if (s == NULL)
        return -1;
    sim_buf_init(&x, CAPS_LIMIT);
    /* One builder per slot at a time; others wait and then share its result. */
    pthread_mutex_lock(&s->lock);
    if (!s->built || s->clock != clock) {
        struct sim_blob *p, *g;
        if (sim_wms_caps_build(app, b, clock, &x) != 0)
            goto done;
        doc = sim_buf_steal(&x, &len);
        if (doc == NULL || sim_gzip(doc, len, 6, &z, &zlen) != 0)
            goto done;
        p = sim_blob_adopt(doc, len);
        doc = NULL;
        g = sim_blob_adopt(z, zlen);
        z = NULL;
        if (p == NULL || g == NULL) {
            sim_blob_unref(p);
            sim_blob_unref(g);
            goto done;
        }
        slot_clear(s);
        s->plain = p;
        s->gz = g;
        s->clock = clock;
        s->built = 1;
    }
    *plain = sim_blob_ref(s->plain);
    *gz = sim_blob_ref(s->gz);
    rc = 0;
done:
    pthread_mutex_unlock(&s->lock);
    free(doc);
    free(z);
    sim_buf_free(&x);
    return rc;
}

int sim_wms_getcapabilities(struct sim_wms_req *w)
{
    struct sim_blob *plain = NULL, *gz = NULL;
    int rc;

    /* WMS 1.3.0 whatever VERSION asks: GDAL's driver (which asks 1.1.1 by default)
     * and QGIS read it. */
    if (cached_docs(w->rq->app, w->bundle, &plain, &gz) != 0)
        return -1;
    if (sim_http_accepts_gzip(w->rq)) {
        struct sim_header h[2] = {{"Content-Encoding", "gzip"}, {"Vary", "Accept-Encoding"}};
        rc = sim_http_reply_blob(w->rq, 200, SIM_XML_CTYPE, gz, h, 2);
    } else {
        struct sim_header h[1] = {{"Vary", "Accept-Encoding"}};
        rc = sim_http_reply_blob(w->rq, 200, SIM_XML_CTYPE, plain, h, 1);
    }
    sim_blob_unref(plain);
    sim_blob_unref(gz);
    return rc;
}

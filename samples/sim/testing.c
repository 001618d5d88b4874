/* testing.c: the /_sim/ test endpoints (see testing.h). */
#include "testing.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app.h"
#include "buf.h"
#include "cache.h"
#include "grib.h"
#include "gzip.h"
#include "stats.h"
#include "timestamp.h"
#include "wms.h"
#include "wms_caps.h"

#define MAX_ID_LEN 200
#define MAX_IDS 100000
#define MAX_BODY (64u << 20)
#define MAX_SLOW_MS 600000
#define ID_BUCKETS 4096

struct id_count {
    struct id_count *next;
    unsigned long count;
    char id[];
};

struct sim_testing {
    pthread_mutex_t lock;
    struct id_count *buckets[ID_BUCKETS];
    size_t nids;
};

int sim_testing_new(struct sim_testing **out)
{
    struct sim_testing *t = calloc(1, sizeof(*t));

    *out = NULL;
    if (t == NULL)
        return -1;
    pthread_mutex_init(&t->lock, NULL);
    *out = t;
    return 0;
}

static void counts_clear(struct sim_testing *t)
{
    for (size_t i = 0; i < ID_BUCKETS; i++) {
        struct id_count *c = t->buckets[i];
        while (c != NULL) {
            struct id_count *next = c->next;
            free(c);
            c = next;
        }
        t->buckets[i] = NULL;
    }
    t->nids = 0;
}

void sim_testing_free(struct sim_testing *t)
{
    if (t == NULL)
        return;
    counts_clear(t);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static size_t id_hash(const char *s)
{
    size_t h = 5381;

    for (; *s != '\0'; s++)
        h = h * 33 + (unsigned char)*s;
    return h % ID_BUCKETS;
}

/* Adds delta (0 or 1) to the count of id; returns the new count, or -1 when the
 * table is full. */
static long count_id(struct sim_testing *t, const char *id, int delta)
{
    size_t h = id_hash(id);
    struct id_count *c;
    long n = -1;

    pthread_mutex_lock(&t->lock);
    for (c = t->buckets[h]; c != NULL; c = c->next)
        if (strcmp(c->id, id) == 0)
            break;
    if (c == NULL && delta == 0) {
        n = 0;
        goto done;
    }
    if (c == NULL) {
        size_t len = strlen(id);
        if (t->nids >= MAX_IDS || (c = malloc(sizeof(*c) + len + 1)) == NULL)
            goto done;
        memcpy(c->id, id, len + 1);
        c->count = 0;
        c->next = t->buckets[h];
        t->buckets[h] = c;
        t->nids++;
    }
    c->count += (unsigned long)delta;
    n = (long)c->count;
done:
    pthread_mutex_unlock(&t->lock);
    return n;
}

static int get_uint(const struct sim_request *rq, const char *name, unsigned long dflt,
                    unsigned long max, unsigned long *out)
{
    const char *s = sim_http_arg(rq, name);
    char *end;

    *out = dflt;
    if (s == NULL || *s == '\0')
        return 0;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    *out = strtoul(s, &end, 10);
    return (errno != 0 || *end != '\0' || *out > max) ? -1 : 0;
}

static int bad_request(struct sim_request *rq, const char *msg)
{
    return sim_http_reply_json_error(rq, 400, "bad_request", msg);
}

/* The success answer of /_sim/test: "ok" or size bytes of 'x', in ctype,
 * gzip-encoded when gzip=1 and the client accepts it. */
static int test_success(struct sim_request *rq, unsigned long size, int have_size)
{
    const char *ctype = sim_http_arg(rq, "ctype");
    const char *gz = sim_http_arg(rq, "gzip");
    char *body;
    size_t len = have_size ? size : 2;

    if (ctype == NULL || *ctype == '\0')
        ctype = "text/plain";
    body = malloc(len ? len : 1);
    if (body == NULL)
        return -1;
    if (have_size)
        memset(body, 'x', len);
    else
        memcpy(body, "ok", 2);
    if (gz != NULL && strcmp(gz, "1") == 0 && sim_http_accepts_gzip(rq)) {
        char *z = NULL;
        size_t zlen = 0;
        struct sim_header h[2] = {{"Content-Encoding", "gzip"}, {"Vary", "Accept-Encoding"}};
        int rc = sim_gzip(body, len, 6, &z, &zlen);
        free(body);
        if (rc != 0)
            return -1;
        return sim_http_reply_take(rq, 200, ctype, z, zlen, h, 2);
    }
    return sim_http_reply_take(rq, 200, ctype, body, len, NULL, 0);
}

static const char *default_code(unsigned status)
{
    switch (status) {
    case 400:
        return "bad_request";
    case 401:
        return "unauthorized";
    case 403:
        return "forbidden";
    case 404:
        return "not_found";
    case 429:
        return "rate_limited";
    case 500:
        return "internal_error";
    case 502:
    case 503:
    case 504:
        return "unavailable";
    default:
        break;
    }
    return status >= 500 ? "server_error" : "error";
}

static int test_status(struct sim_request *rq, const char *msg)
{
    const char *kind = sim_http_arg(rq, "body");
    const char *code = sim_http_arg(rq, "code");
    const char *ra = sim_http_arg(rq, "retry_after");
    unsigned long status, secs;
    struct sim_header h[1];
    size_t nh = 0;
    struct sim_buf b;
    const char *ctype = NULL;
    char date[SIM_HTTPDATE_LEN];
    char *body;
    size_t len = 0;

    if (get_uint(rq, "status", 503, 599, &status) != 0 || status < 100)
        return bad_request(rq, "status must be an HTTP status 100..599");
    if (kind == NULL || *kind == '\0')
        kind = "json-errors";
    if (ra != NULL && *ra != '\0') {
        h[nh].name = "Retry-After";
        h[nh++].value = ra;
    } else if (sim_http_arg(rq, "retry_after_date") != NULL) {
        if (get_uint(rq, "retry_after_date", 0, 86400 * 365, &secs) != 0)
            return bad_request(rq, "retry_after_date must be seconds");
        sim_ts_format_http(sim_app_real_time() + (int64_t)secs, date);
        h[nh].name = "Retry-After";
        h[nh++].value = date;
    }
    sim_buf_init(&b, 64 * 1024);
    if (strcmp(kind, "json-errors") == 0) {
        ctype = "application/json";
        sim_buf_puts(&b, "{\"errors\":[{\"code\":\"");
        sim_buf_json(&b, code != NULL && *code ? code : default_code((unsigned)status));
        sim_buf_puts(&b, "\",\"message\":\"");
        sim_buf_json(&b, msg);
        sim_buf_puts(&b, "\"}]}");
    } else if (strcmp(kind, "json-fault") == 0) {
        ctype = "application/json";
        sim_buf_puts(&b, "{\"fault\":{\"faultstring\":\"");
        sim_buf_json(&b, msg);
        sim_buf_puts(&b, "\",\"detail\":{\"errorcode\":\"policies.ratelimit.QuotaViolation\"}}}");
    } else if (strcmp(kind, "wms-exception") == 0) {
        ctype = SIM_XML_CTYPE;
        sim_wms_exception_xml(&b, code != NULL && *code ? code : NULL, msg);
    } else if (strcmp(kind, "ows-exception") == 0) {
        ctype = SIM_XML_CTYPE;
        sim_buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                         "<ows:ExceptionReport xmlns:ows=\"http://www.opengis.net/ows/1.1\" "
                         "version=\"2.0.0\">\n  <ows:Exception exceptionCode=\"");
        sim_buf_xml(&b, code != NULL && *code ? code : "NoApplicableCode");
        sim_buf_puts(&b, "\">\n    <ows:ExceptionText>");
        sim_buf_xml(&b, msg);
        sim_buf_puts(&b, "</ows:ExceptionText>\n  </ows:Exception>\n</ows:ExceptionReport>\n");
    } else if (strcmp(kind, "text") == 0) {
        ctype = "text/plain; charset=utf-8";
        sim_buf_puts(&b, msg);
    } else if (strcmp(kind, "html") == 0) {
        ctype = "text/html; charset=utf-8";
        sim_buf_printf(&b,
                       "<!DOCTYPE html>\n<html><head><title>%lu</title></head><body><h1>%lu"
                       "</h1><p>",
                       status, status);
        sim_buf_xml(&b, msg);
        sim_buf_puts(&b, "</p></body></html>\n");
    } else if (strcmp(kind, "none") != 0) {
        sim_buf_free(&b);
        return bad_request(rq, "body must be one of json-errors, json-fault, wms-exception, "
                               "ows-exception, text, html, none");
    }
    if (b.failed) {
        sim_buf_free(&b);
        return -1;
    }
    body = sim_buf_steal(&b, &len);
    if (body == NULL)
        return sim_http_reply(rq, (unsigned)status, NULL, "", 0, h, nh);
    return sim_http_reply_take(rq, (unsigned)status, ctype, body, len, h, nh);
}

static int handle_test(struct sim_request *rq)
{
    struct sim_testing *t = rq->app->testing;
    const char *id = sim_http_arg(rq, "id");
    const char *mode = sim_http_arg(rq, "mode");
    const char *msg = sim_http_arg(rq, "msg");
    unsigned long fail, size, ms;
    int have_size = sim_http_arg(rq, "size") != NULL;
    long n;

    if (id == NULL || *id == '\0' || strlen(id) > MAX_ID_LEN)
        return bad_request(rq, "id is required (at most 200 characters)");
    if (get_uint(rq, "fail", 0, 1000000, &fail) != 0)
        return bad_request(rq, "fail must be a count 0..1000000");
    if (get_uint(rq, "size", 0, MAX_BODY, &size) != 0)
        return bad_request(rq, "size must be 0..67108864 bytes");
    if (get_uint(rq, "ms", 0, MAX_SLOW_MS, &ms) != 0)
        return bad_request(rq, "ms must be 0..600000");
    if (mode == NULL || *mode == '\0')
        mode = "status";
    if (strcmp(mode, "status") != 0 && strcmp(mode, "drop") != 0 && strcmp(mode, "trunc") != 0 &&
        strcmp(mode, "exception") != 0 && strcmp(mode, "slow") != 0)
        return bad_request(rq, "mode must be one of status, drop, trunc, exception, slow");
    if (msg == NULL)
        msg = "Simulated failure for a client test";

    n = count_id(t, id, 1);
    if (n < 0)
        return bad_request(rq, "too many distinct ids; call /_sim/reset");
    if ((unsigned long)n > fail)
        return test_success(rq, size, have_size);

    if (strcmp(mode, "status") == 0)
        return test_status(rq, msg);
    if (strcmp(mode, "drop") == 0) {
        sim_http_drop(rq);
        return 0;
    }
    if (strcmp(mode, "trunc") == 0) {
        rq->trunc = 1;
        return test_success(rq, size, have_size);
    }
    if (strcmp(mode, "exception") == 0) {
        struct sim_buf b;
        const char *code = sim_http_arg(rq, "code");
        char *body;
        size_t len = 0;
        sim_buf_init(&b, 64 * 1024);
        sim_wms_exception_xml(&b, code != NULL && *code ? code : NULL, msg);
        body = sim_buf_steal(&b, &len);
        if (body == NULL)
            return -1;
        return sim_http_reply_take(rq, 200, SIM_XML_CTYPE, body, len, NULL, 0);
    }
    /* slow */
    sim_app_sleep_ms(rq->app, (unsigned)ms);
    return test_success(rq, size, have_size);
}

static int handle_count(struct sim_request *rq)
{
    const char *id = sim_http_arg(rq, "id");
    char out[32];

    if (id == NULL || *id == '\0' || strlen(id) > MAX_ID_LEN)
        return bad_request(rq, "id is required (at most 200 characters)");
    snprintf(out, sizeof(out), "%ld", count_id(rq->app->testing, id, 0));
    return sim_http_reply_text(rq, 200, out);
}

static int handle_echo_auth(struct sim_request *rq)
{
    char out[32] = "";

    if (rq->forms & SIM_AUTH_HEADER)
        strcat(out, "header");
    if (rq->forms & SIM_AUTH_QUERY)
        strcat(out, out[0] ? ",query" : "query");
    if (rq->forms & SIM_AUTH_BASIC)
        strcat(out, out[0] ? ",basic" : "basic");
    return sim_http_reply_text(rq, 200, out[0] ? out : "none");
}

static int handle_redirect(struct sim_request *rq)
{
    const struct sim_app *app = rq->app;
    const char *to = sim_http_arg(rq, "to");
    unsigned long n;
    char loc[512];
    struct sim_header h[1];

    if (to == NULL || (strcmp(to, "self") != 0 && strcmp(to, "storage") != 0))
        return bad_request(rq, "to must be self or storage");
    if (get_uint(rq, "n", 1, 50, &n) != 0 || n < 1)
        return bad_request(rq, "n must be 1..50");
    if (n > 1)
        snprintf(loc, sizeof(loc), "%s/_sim/redirect?to=%s&n=%lu", app->base_url, to, n - 1);
    else if (strcmp(to, "self") == 0)
        snprintf(loc, sizeof(loc), "%s/_sim/echo-auth", app->base_url);
    else
        snprintf(loc, sizeof(loc), "%s/_storage/echo", app->storage_url);
    h[0].name = "Location";
    h[0].value = loc;
    return sim_http_reply(rq, 302, "text/plain; charset=utf-8", "redirect\n", 9, h, 1);
}

static int handle_stats(struct sim_request *rq)
{
    struct sim_buf b;
    char *body;
    size_t len = 0;

    sim_buf_init(&b, 64 * 1024);
    sim_stats_json(rq->app->stats, &b);
    body = sim_buf_steal(&b, &len);
    if (body == NULL)
        return -1;
    return sim_http_reply_take(rq, 200, "application/json", body, len, NULL, 0);
}

/* /_sim/field?param=2t&lon=..&lat=..&time=..&run=..: the value a GRIB file's
 * parameter has there, from the fields of the WMS maps. */
static int handle_field(struct sim_request *rq)
{
    const char *param = sim_http_arg(rq, "param"), *slon = sim_http_arg(rq, "lon");
    const char *slat = sim_http_arg(rq, "lat"), *st = sim_http_arg(rq, "time");
    const char *srun = sim_http_arg(rq, "run");
    int64_t t, run;
    double lon, lat, v;
    char *e1 = NULL, *e2 = NULL, body[100];
    int rc, n;

    if (param == NULL || slon == NULL || slat == NULL || st == NULL || srun == NULL)
        return bad_request(rq, "param, lon, lat, time and run are required");
    lon = strtod(slon, &e1);
    lat = strtod(slat, &e2);
    if (*e1 != '\0' || *e2 != '\0' || lat < -90 || lat > 90 || sim_ts_parse(st, &t) != 0 ||
        sim_ts_parse(srun, &run) != 0)
        return bad_request(rq, "bad lon, lat, time or run");
    rc = sim_grib_value(param, lon, lat, t, run, &v);
    if (rc == -1)
        return bad_request(rq, "unknown param");
    if (rc < -1)
        return sim_http_reply_text(rq, 500, "out of memory");
    n = rc == 1 ? snprintf(body, sizeof(body), "{\"value\":null}")
                : snprintf(body, sizeof(body), "{\"value\":%.9g}", v);
    return sim_http_reply(rq, 200, "application/json", body, (size_t)n, NULL, 0);
}

static int handle_reset(struct sim_request *rq)
{
    struct sim_testing *t = rq->app->testing;

    sim_stats_reset(rq->app->stats);
    pthread_mutex_lock(&t->lock);
    counts_clear(t);
    pthread_mutex_unlock(&t->lock);
    sim_cache_clear(rq->app->images);
    sim_caps_cache_clear(rq->app->caps);
    return sim_http_reply_text(rq, 200, "reset");
}

int sim_testing_handle(struct sim_request *rq)
{
    const char *p = rq->path;

    if (strcmp(p, "/_sim/test") == 0)
        return handle_test(rq);
    if (strcmp(p, "/_sim/count") == 0)
        return handle_count(rq);
    if (strcmp(p, "/_sim/echo-auth") == 0)
        return handle_echo_auth(rq);
    if (strcmp(p, "/_sim/redirect") == 0)
        return handle_redirect(rq);
    if (strcmp(p, "/_sim/stats") == 0)
        return handle_stats(rq);
    if (strcmp(p, "/_sim/reset") == 0)
        return handle_reset(rq);
    if (strcmp(p, "/_sim/field") == 0)
        return handle_field(rq);
    return sim_http_reply_json_error(rq, 404, "not_found", "No such test endpoint");
}

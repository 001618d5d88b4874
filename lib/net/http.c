/*
 * http.c: the one place that sends requests to the service.
 *
 * Every request, single or concurrent, runs through the same engine on the
 * client's curl multi handle (whose connection cache gives keep-alive across
 * requests). A transfer goes through: start -> (redirect -> start)* ->
 * completion, where completion is success, failure, or a retry scheduled for a
 * later time. Retries and redirects reuse the transfer; retries wait in a list
 * ordered by nothing in particular (there are at most max_in_flight of them).
 */
#include "seawx/http.h"

#include "buf.h"
#include "hex.h"
#include "http_errors.h"
#include "http_int.h"
#include "seawx/error.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <errno.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KEY_PARAM "service-api-key"
#define KEY_HEADER "service-api-key"
#define MAX_REDIRECTS 8
#define QUERY_MAX_PARAMS 256

#ifndef SEAWX_VERSION
#define SEAWX_VERSION "0.1.0"
#endif

struct swx_query {
    size_t n;
    char *keys[QUERY_MAX_PARAMS];
    char *values[QUERY_MAX_PARAMS];
};

struct swx_client {
    char *base_url;    /* no trailing '/' */
    char *vessels_url; /* may be NULL */
    char *origin_main; /* "scheme://host:port", the only origin that gets the key */
    char *origin_vessels;
    char *api_key; /* may be NULL */
    char *wms_password;
    swx_auth_mode wms_auth;
    long connect_timeout_ms, timeout_ms;
    int max_retries;
    long retry_base_ms, retry_max_ms, max_retry_after_ms;
    size_t max_body;
    int insecure;
    char *ca_file; /* trusted certificates instead of the system's, or NULL */
    char *user_agent;
    CURLM *multi;
    CURL **idle; /* easy handles kept for reuse */
    size_t idle_n, idle_cap;
    uint64_t rng;
};

/* ---- small helpers ---- */

static char *xstrdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t rng_next(uint64_t *s)
{
    /* xorshift64*: jitter only, no need for more. */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_result = CURLE_OK;

static void curl_init(void)
{
    curl_init_result = curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* "scheme://host:port" in lower case, from any absolute http(s) URL. */
static char *url_origin(const char *url)
{
    char *scheme = NULL, *host = NULL, *port = NULL, *out = NULL;
    CURLU *u = curl_url();
    if (!u)
        return NULL;
    if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK)
        goto done;
    if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) != CURLUE_OK)
        goto done;
    size_t n = strlen(scheme) + strlen(host) + strlen(port) + 8;
    out = malloc(n);
    if (out) {
        snprintf(out, n, "%s://%s:%s", scheme, host, port);
        for (char *p = out; *p; p++)
            if (*p >= 'A' && *p <= 'Z')
                *p = (char)(*p - 'A' + 'a');
    }
done:
    curl_free(scheme);
    curl_free(host);
    curl_free(port);
    curl_url_cleanup(u);
    return out;
}

/* Checks a configured base address and copies it without trailing '/'. */
static int take_base(const char *url, const char *setting, char **out, char **origin)
{
    *out = NULL;
    *origin = NULL;
    if (strncasecmp(url, "http://", 7) != 0 && strncasecmp(url, "https://", 8) != 0)
        return swx_error_set(SWX_ECONFIG, "%s must be an http:// or https:// address", setting);
    if (strchr(url, '?') || strchr(url, '#') || strchr(url, '@'))
        return swx_error_set(SWX_ECONFIG,
                             "%s must be a plain address without query, fragment or "
                             "credentials",
                             setting);
    char *o = url_origin(url);
    if (!o)
        return swx_error_set(SWX_ECONFIG, "%s is not a valid address", setting);
    char *copy = xstrdup(url);
    if (!copy) {
        free(o);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    size_t n = strlen(copy);
    while (n > 0 && copy[n - 1] == '/')
        copy[--n] = '\0';
    *out = copy;
    *origin = o;
    return 0;
}

static int read_key_file(const char *path, char **out)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return swx_error_set(SWX_ECONFIG, "cannot read the API key file %.200s: %s", path,
                             strerror(errno));
    char line[1024];
    int rc = 0;
    if (!fgets(line, sizeof line, f)) {
        rc = swx_error_set(SWX_ECONFIG, "the API key file %.200s is empty", path);
        goto done;
    }
    line[strcspn(line, "\r\n")] = '\0';
    if (!line[0]) {
        rc = swx_error_set(SWX_ECONFIG, "the API key file %.200s is empty", path);
        goto done;
    }
    *out = xstrdup(line);
    if (!*out)
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
done:
    memset(line, 0, sizeof line);
    fclose(f);
    return rc;
}

/* ---- client ---- */

void swx_client_opts_from_env(swx_client_opts *o)
{
    if (!o->base_url)
        o->base_url = getenv("SEAWX_BASE_URL");
    if (!o->vessels_url)
        o->vessels_url = getenv("SEAWX_VESSELS_URL");
    if (!o->api_key && !o->api_key_file) {
        const char *k = getenv("SEAWX_API_KEY");
        if (k && *k)
            o->api_key = k;
        else
            o->api_key_file = getenv("SEAWX_API_KEY_FILE");
    }
    if (!o->wms_auth)
        o->wms_auth = getenv("SEAWX_WMS_AUTH");
    if (!o->wms_password)
        o->wms_password = getenv("SEAWX_WMS_PASSWORD");
    if (!o->ca_file)
        o->ca_file = getenv("SEAWX_CA_BUNDLE");
}

int swx_client_new(swx_client **out, const swx_client_opts *opts)
{
    swx_client *c = NULL;
    int rc = 0;
    *out = NULL;
    pthread_once(&curl_once, curl_init);
    if (curl_init_result != CURLE_OK)
        return swx_error_set(SWX_ENET, "libcurl could not be initialised: %s",
                             curl_easy_strerror(curl_init_result));
    swx_client_opts none = {0};
    if (!opts)
        opts = &none;
    if (!opts->base_url || !*opts->base_url)
        return swx_error_set(SWX_ECONFIG,
                             "no service address: set SEAWX_BASE_URL to the service's base "
                             "address");
    c = calloc(1, sizeof *c);
    if (!c)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if ((rc = take_base(opts->base_url, "SEAWX_BASE_URL", &c->base_url, &c->origin_main)))
        goto done;
    if (opts->vessels_url && *opts->vessels_url &&
        (rc = take_base(opts->vessels_url, "SEAWX_VESSELS_URL", &c->vessels_url,
                        &c->origin_vessels)))
        goto done;
    if (opts->api_key && *opts->api_key) {
        if (strpbrk(opts->api_key, "\r\n")) {
            rc = swx_error_set(SWX_ECONFIG, "the API key contains a line break");
            goto done;
        }
        c->api_key = xstrdup(opts->api_key);
    } else if (opts->api_key_file && *opts->api_key_file) {
        if ((rc = read_key_file(opts->api_key_file, &c->api_key)))
            goto done;
    }
    c->wms_auth = SWX_AUTH_HEADER;
    if (opts->wms_auth && *opts->wms_auth) {
        if (strcasecmp(opts->wms_auth, "header") == 0)
            c->wms_auth = SWX_AUTH_HEADER;
        else if (strcasecmp(opts->wms_auth, "query") == 0)
            c->wms_auth = SWX_AUTH_QUERY;
        else if (strcasecmp(opts->wms_auth, "basic") == 0)
            c->wms_auth = SWX_AUTH_BASIC;
        else {
            rc = swx_error_set(SWX_ECONFIG,
                               "unknown WMS auth mode '%.32s': use header, query or basic",
                               opts->wms_auth);
            goto done;
        }
    }
    if (c->wms_auth == SWX_AUTH_BASIC && (!opts->wms_password || !*opts->wms_password)) {
        rc = swx_error_set(SWX_ECONFIG,
                           "WMS auth mode basic needs a password: set SEAWX_WMS_PASSWORD");
        goto done;
    }
    c->wms_password = xstrdup(opts->wms_password);
    c->connect_timeout_ms = opts->connect_timeout_ms > 0 ? opts->connect_timeout_ms : 10000;
    c->timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : 120000;
    c->max_retries = opts->max_retries > 0 ? opts->max_retries : opts->max_retries < 0 ? 0 : 5;
    c->retry_base_ms = opts->retry_base_ms > 0 ? opts->retry_base_ms : 500;
    c->retry_max_ms = opts->retry_max_ms > 0 ? opts->retry_max_ms : 30000;
    c->max_retry_after_ms = opts->max_retry_after_ms > 0 ? opts->max_retry_after_ms : 120000;
    c->max_body = opts->max_body ? opts->max_body : (size_t)256 * 1024 * 1024;
    c->insecure = opts->insecure;
    if (opts->ca_file && *opts->ca_file) {
        if (access(opts->ca_file, R_OK) != 0) {
            rc = swx_error_set(
                SWX_ECONFIG, "cannot read the CA bundle %.200s (SEAWX_CA_BUNDLE, --ca-bundle): %s",
                opts->ca_file, strerror(errno));
            goto done;
        }
        if (!(c->ca_file = xstrdup(opts->ca_file))) {
            rc = swx_error_set(SWX_ENOMEM, "out of memory");
            goto done;
        }
    }
    c->user_agent = xstrdup(opts->user_agent ? opts->user_agent : "seawx/" SEAWX_VERSION);
    c->rng =
        (uint64_t)now_ms() * 6364136223846793005ULL ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)c;
    if (!c->rng)
        c->rng = 1;
    c->multi = curl_multi_init();
    if (!c->user_agent || !c->multi || (opts->wms_password && !c->wms_password) ||
        ((opts->api_key && *opts->api_key) && !c->api_key)) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
done:
    if (rc) {
        swx_client_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

static void wipe_free(char *s)
{
    if (s) {
        volatile char *p = s;
        while (*p)
            *p++ = '\0';
        free(s);
    }
}

void swx_client_free(swx_client *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->idle_n; i++)
        curl_easy_cleanup(c->idle[i]);
    free(c->idle);
    if (c->multi)
        curl_multi_cleanup(c->multi);
    free(c->base_url);
    free(c->vessels_url);
    free(c->origin_main);
    free(c->origin_vessels);
    wipe_free(c->api_key);
    wipe_free(c->wms_password);
    free(c->user_agent);
    free(c->ca_file);
    free(c);
}

const char *swx_client_base_url(const swx_client *c)
{
    return c->base_url;
}

swx_auth_mode swx_client_wms_auth(const swx_client *c)
{
    return c->wms_auth;
}

int swx_client_has_key(const swx_client *c)
{
    return c->api_key != NULL;
}

/* ---- query ---- */

int swx_query_new(swx_query **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? 0 : swx_error_set(SWX_ENOMEM, "out of memory");
}

int swx_query_add(swx_query *q, const char *key, const char *value)
{
    if (q->n >= QUERY_MAX_PARAMS)
        return swx_error_set(SWX_ETOOBIG, "more than %d query parameters", QUERY_MAX_PARAMS);
    char *k = xstrdup(key), *v = xstrdup(value ? value : "");
    if (!k || !v) {
        free(k);
        free(v);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    q->keys[q->n] = k;
    q->values[q->n] = v;
    q->n++;
    return 0;
}

int swx_query_addf(swx_query *q, const char *key, const char *fmt, ...)
{
    char tmp[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp)
        return swx_error_set(SWX_ETOOBIG, "query parameter %s is too long", key);
    return swx_query_add(q, key, tmp);
}

void swx_query_free(swx_query *q)
{
    if (!q)
        return;
    for (size_t i = 0; i < q->n; i++) {
        free(q->keys[i]);
        free(q->values[i]);
    }
    free(q);
}

/* Percent-encodes for a query component. Unreserved characters and the
 * sub-delimiters that are safe inside a value ('/', ':', ',', '@') stay as they
 * are, so that logged WMS URLs remain readable. */
static int put_encoded(swx_buf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        int keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                   strchr("-_.~/:,@", c);
        char enc[3];
        if (!keep)
            swx_hex_percent(enc, c);
        int rc = keep ? swx_buf_append(b, s, 1) : swx_buf_append(b, enc, 3);
        if (rc)
            return rc;
    }
    return 0;
}

static const char *service_base(const swx_client *c, swx_service s)
{
    return s == SWX_SERVICE_VESSELS ? c->vessels_url : c->base_url;
}

/* Builds the request URL; with_key adds the key as a query parameter. */
static int build_url(const swx_client *c, const swx_request *req, int with_key, char **out)
{
    swx_buf b;
    swx_buf_init(&b, 64 * 1024);
    *out = NULL;
    const char *base = service_base(c, req->service);
    if (!base)
        return swx_error_set(SWX_ECONFIG,
                             "no Vessels API address: set SEAWX_VESSELS_URL to its base address");
    int rc = swx_buf_puts(&b, base);
    if (!rc && req->path && *req->path) {
        if (req->path[0] != '/')
            rc = swx_buf_puts(&b, "/");
        if (!rc)
            rc = swx_buf_puts(&b, req->path);
    }
    size_t nparams = 0;
    for (size_t i = 0; !rc && req->query && i < req->query->n; i++) {
        rc = swx_buf_puts(&b, nparams++ ? "&" : "?");
        if (!rc)
            rc = put_encoded(&b, req->query->keys[i]);
        if (!rc)
            rc = swx_buf_puts(&b, "=");
        if (!rc)
            rc = put_encoded(&b, req->query->values[i]);
    }
    if (!rc && with_key) {
        rc = swx_buf_puts(&b, nparams++ ? "&" KEY_PARAM "=" : "?" KEY_PARAM "=");
        if (!rc)
            rc = put_encoded(&b, c->api_key);
    }
    if (rc) {
        swx_buf_free(&b);
        return swx_error_prefix(rc, "cannot build the request address");
    }
    *out = swx_buf_take(NULL, &b);
    return *out ? 0 : SWX_ENOMEM;
}

char *swx_request_display_url(const swx_client *c, const swx_request *req)
{
    char *url = NULL;
    build_url(c, req, 0, &url);
    return url;
}

/* A URL fit for a message: the key parameter's value is replaced, and on a
 * host other than the service's the query (which may hold a signature) and any
 * credentials are left out entirely. */
static char *redact_url(const char *url, int same_origin)
{
    swx_buf b;
    swx_buf_init(&b, 64 * 1024);
    const char *q = strchr(url, '?');
    const char *frag = strchr(url, '#');
    size_t head = q ? (size_t)(q - url) : frag ? (size_t)(frag - url) : strlen(url);
    const char *scheme_end = strstr(url, "://");
    const char *at = scheme_end ? memchr(url, '@', head) : NULL;
    int rc;
    if (at && scheme_end && at > scheme_end) {
        rc = swx_buf_append(&b, url, (size_t)(scheme_end + 3 - url));
        if (!rc)
            rc = swx_buf_append(&b, at + 1, head - (size_t)(at + 1 - url));
    } else {
        rc = swx_buf_append(&b, url, head);
    }
    if (!rc && q && !same_origin)
        rc = swx_buf_puts(&b, "?...");
    else if (!rc && q) {
        const char *p = q + 1;
        const char *end = frag && frag > q ? frag : q + strlen(q);
        int first = 1;
        while (!rc && p < end) {
            const char *amp = memchr(p, '&', (size_t)(end - p));
            const char *pe = amp ? amp : end;
            rc = swx_buf_puts(&b, first ? "?" : "&");
            first = 0;
            size_t kl = strlen(KEY_PARAM);
            if (!rc && (size_t)(pe - p) >= kl && strncasecmp(p, KEY_PARAM, kl) == 0 &&
                (p + kl == pe || p[kl] == '='))
                rc = swx_buf_puts(&b, KEY_PARAM "=REDACTED");
            else if (!rc)
                rc = swx_buf_append(&b, p, (size_t)(pe - p));
            p = amp ? amp + 1 : end;
        }
    }
    if (rc) {
        swx_buf_free(&b);
        return xstrdup("(address not shown)");
    }
    return swx_buf_take(NULL, &b);
}

/* Removes every key=... parameter from a URL (in place). */
static void strip_key_param(char *url)
{
    char *q = strchr(url, '?');
    if (!q)
        return;
    char *w = q + 1, *p = q + 1;
    size_t kl = strlen(KEY_PARAM);
    while (*p) {
        char *amp = strchr(p, '&');
        size_t n = amp ? (size_t)(amp - p) : strlen(p);
        int is_key = n >= kl && strncasecmp(p, KEY_PARAM, kl) == 0 && (n == kl || p[kl] == '=');
        if (!is_key) {
            if (w != q + 1)
                *w++ = '&';
            memmove(w, p, n);
            w += n;
        }
        p += n + (amp ? 1 : 0);
    }
    *w = '\0';
    if (w == q + 1)
        *q = '\0';
}

/* ---- transfers ---- */

typedef struct xfer {
    CURL *easy;
    char *url;     /* what is sent (may hold the key in query mode) */
    char *display; /* what messages show */
    char *accept;  /* copy of req->accept, may be NULL */
    char **extra;  /* copies of req->headers */
    size_t extra_n;
    struct curl_slist *headers;
    int wms;
    int with_key; /* 0 once the request has left the service's origin */
    const char *origin;
    size_t max_body;
    swx_buf body;
    int too_big;
    int attempts;
    int redirects;
    int64_t not_before; /* when a scheduled retry may start */
    void *user;
    char errbuf[CURL_ERROR_SIZE];
    /* Download path (swx_http_download): a 2xx body goes to sink_fd instead of
     * memory, from sink_off on; other bodies (redirects, errors) are buffered
     * as usual for their messages. sink_fd is -1 for ordinary requests. */
    int sink_fd;
    int sink_state;               /* this attempt: 0 undecided, 1 to the file, 2 to memory */
    int64_t sink_off;             /* where this attempt's bytes start in the file */
    int64_t sink_got;             /* bytes written by this attempt */
    int64_t range_start;          /* Content-Range start of a 206, -1 if none */
    int64_t range_total;          /* Content-Range length of the whole file, -1 if none */
    int64_t range_from, range_to; /* a byte range asked for (range_from >= 0) */
    int sink_err;                 /* errno of a failed write */
    int sink_restarted;           /* a 416 made us start over once */
    const swx_download_opts *sink_opts;
    /* Callback path (swx_http_get_sink): a 2xx body of an accepted type goes
     * to cb->write as it arrives; other bodies are buffered as usual. cb is
     * NULL for ordinary requests. */
    const swx_body_sink *cb;
    int cb_state;   /* this attempt: 0 undecided, 1 to the callback, 2 to memory */
    int64_t cb_got; /* bytes delivered by this attempt */
    int cb_rc;      /* the callback's error, which ends the request */
} xfer;

static void xfer_free(swx_client *c, xfer *x)
{
    if (!x)
        return;
    if (x->easy) {
        if (c->idle_n < c->idle_cap) {
            curl_easy_reset(x->easy);
            c->idle[c->idle_n++] = x->easy;
        } else {
            curl_easy_cleanup(x->easy);
        }
    }
    if (x->url) {
        volatile char *p = x->url;
        while (*p)
            *p++ = '\0';
    }
    free(x->url);
    free(x->display);
    free(x->accept);
    for (size_t i = 0; i < x->extra_n; i++)
        free(x->extra[i]);
    free(x->extra);
    curl_slist_free_all(x->headers);
    swx_buf_free(&x->body);
    free(x);
}

/* A web page (a proxy's or a login page) is never the file a download asks for. */
static int is_web_page(const char *ctype)
{
    return ctype && strncasecmp(ctype, "text/html", 9) == 0;
}

/* Decides where this attempt's body goes once its status is known. */
static void sink_decide(xfer *x)
{
    long st = 0;
    char *ctype = NULL;
    curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &st);
    curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ctype);
    if (is_web_page(ctype)) {
        x->sink_state = 2; /* kept out of the file; classify() refuses it */
    } else if (st == 206 && x->sink_off > 0 && x->range_start == x->sink_off) {
        x->sink_state = 1;
    } else if (st == 206) {
        x->sink_err = EPROTO; /* a range other than the one asked for */
    } else if (st >= 200 && st < 300) {
        /* The whole file again (no range support, or not the range asked for). */
        if (x->sink_off > 0 && ftruncate(x->sink_fd, 0) != 0)
            x->sink_err = errno;
        x->sink_off = 0;
        x->sink_state = 1;
    } else {
        x->sink_state = 2;
    }
}

static size_t sink_write(xfer *x, const char *ptr, size_t n)
{
    if ((uint64_t)(x->sink_off + x->sink_got) + n > (uint64_t)x->max_body) {
        x->too_big = 1;
        return 0;
    }
    size_t done = 0;
    while (done < n) {
        ssize_t w = pwrite(x->sink_fd, ptr + done, n - done, (off_t)(x->sink_off + x->sink_got));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            x->sink_err = w < 0 ? errno : ENOSPC;
            return 0;
        }
        done += (size_t)w;
        x->sink_got += w;
    }
    return n;
}

static size_t on_header(char *ptr, size_t size, size_t nmemb, void *ud)
{
    xfer *x = ud;
    size_t n = size * nmemb;
    static const char cr[] = "content-range:";
    if (n > sizeof cr && strncasecmp(ptr, cr, sizeof cr - 1) == 0) {
        char line[128];
        size_t m = n < sizeof line - 1 ? n : sizeof line - 1;
        memcpy(line, ptr, m);
        line[m] = '\0';
        long long a = -1, b = -1, t = -1;
        int got = sscanf(line + sizeof cr - 1, " bytes %lld-%lld/%lld", &a, &b, &t);
        if (got >= 1 && a >= 0)
            x->range_start = a;
        if (got == 3 && t >= 0)
            x->range_total = t;
    } else if (n >= 5 && strncasecmp(ptr, "HTTP/", 5) == 0) {
        x->range_start = -1; /* a new response (after a 1xx) */
        x->range_total = -1;
    }
    return n;
}

static int on_progress(void *ud, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow)
{
    xfer *x = ud;
    (void)ultotal;
    (void)ulnow;
    const swx_download_opts *o = x->sink_opts;
    if (o->cancel && *o->cancel)
        return 1;
    if (x->sink_state != 1 || !o->progress)
        return 0;
    int64_t total = dltotal > 0 ? x->sink_off + (int64_t)dltotal : -1;
    return o->progress(o->ud, x->sink_off + (int64_t)dlnow, total) ? 1 : 0;
}

static int accept_matches(const char *accept, const char *ctype);

/* Callback path: whether this attempt's body goes to the callback, decided
 * once per attempt when its status and type are known. */
static int cb_takes(xfer *x)
{
    if (x->cb_state == 0) {
        long st = 0;
        char *ctype = NULL;
        curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &st);
        curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ctype);
        x->cb_state = st >= 200 && st < 300 && accept_matches(x->accept, ctype) ? 1 : 2;
    }
    return x->cb_state == 1;
}

/* Hands bytes to the callback. Returns n, or 0 to stop the transfer (too
 * big, or the callback said stop). */
static size_t cb_write(xfer *x, const char *ptr, size_t n)
{
    if ((uint64_t)x->cb_got + n > (uint64_t)x->max_body) {
        x->too_big = 1;
        return 0;
    }
    int rc = x->cb->write(x->cb->ud, ptr, n);
    if (rc < 0) {
        x->cb_rc = rc;
        return 0;
    }
    x->cb_got += (int64_t)n;
    return n;
}

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
    xfer *x = ud;
    size_t n = size * nmemb;
    if (x->cb && cb_takes(x))
        return cb_write(x, ptr, n);
    if (x->sink_fd >= 0) {
        if (x->sink_state == 0)
            sink_decide(x);
        if (x->sink_err)
            return 0;
        if (x->sink_state == 1)
            return sink_write(x, ptr, n);
    }
    if (swx_buf_append(&x->body, ptr, n)) {
        x->too_big = 1;
        return 0;
    }
    return n;
}

static int xfer_new(swx_client *c, const swx_request *req, void *user, xfer **out)
{
    *out = NULL;
    if (!c->api_key)
        return swx_error_set(SWX_ECONFIG,
                             "no API key: set SEAWX_API_KEY (or SEAWX_API_KEY_FILE to a file "
                             "holding it)");
    xfer *x = calloc(1, sizeof *x);
    if (!x)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    int rc;
    x->user = user;
    x->wms = req->wms;
    x->with_key = 1;
    x->sink_fd = -1;
    x->range_start = x->range_total = -1;
    x->range_from = req->range_from > 0 || req->range_to > 0 ? req->range_from : -1;
    x->range_to = req->range_to;
    if (x->range_from >= 0 && x->range_to < x->range_from) {
        free(x);
        return swx_error_set(SWX_EINVAL, "a byte range ends before it starts");
    }
    x->origin = req->service == SWX_SERVICE_VESSELS ? c->origin_vessels : c->origin_main;
    x->max_body = req->max_body ? req->max_body : c->max_body;
    swx_buf_init(&x->body, x->max_body);
    int key_in_query = req->wms && c->wms_auth == SWX_AUTH_QUERY;
    if ((rc = build_url(c, req, key_in_query, &x->url)) || (rc = build_url(c, req, 0, &x->display)))
        goto fail;
    if (req->accept && !(x->accept = xstrdup(req->accept))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t i = 0; req->headers && req->headers[i]; i++)
        x->extra_n++;
    if (x->extra_n) {
        x->extra = calloc(x->extra_n, sizeof *x->extra);
        if (!x->extra) {
            rc = swx_error_set(SWX_ENOMEM, "out of memory");
            goto fail;
        }
        for (size_t i = 0; i < x->extra_n; i++) {
            if (strpbrk(req->headers[i], "\r\n")) {
                rc = swx_error_set(SWX_EINVAL, "a request header contains a line break");
                goto fail;
            }
            if (!(x->extra[i] = xstrdup(req->headers[i]))) {
                rc = swx_error_set(SWX_ENOMEM, "out of memory");
                goto fail;
            }
        }
    }
    *out = x;
    return 0;
fail:
    xfer_free(c, x);
    return rc;
}

/* Sets the easy handle up for the transfer's current URL and key rights. */
static int xfer_setup(swx_client *c, xfer *x)
{
    if (!x->easy) {
        x->easy = c->idle_n ? c->idle[--c->idle_n] : curl_easy_init();
        if (!x->easy)
            return swx_error_set(SWX_ENOMEM, "out of memory");
    } else {
        curl_easy_reset(x->easy);
    }
    swx_buf_reset(&x->body);
    if (x->sink_fd >= 0) {
        struct stat st;
        if (fstat(x->sink_fd, &st) != 0)
            return swx_error_set(SWX_EIO, "cannot read the size of the partial download");
        x->sink_off = (int64_t)st.st_size;
        x->sink_got = 0;
        x->sink_state = 0;
        x->range_start = -1;
    }
    x->cb_state = 0;
    x->cb_got = 0;
    x->cb_rc = 0;
    x->too_big = 0;
    x->errbuf[0] = '\0';
    curl_slist_free_all(x->headers);
    x->headers = NULL;
    CURL *e = x->easy;
    curl_easy_setopt(e, CURLOPT_URL, x->url);
    curl_easy_setopt(e, CURLOPT_PRIVATE, x);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, x->errbuf);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L); /* redirects are ours: see xfer_redirect */
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    if (x->sink_fd < 0 && x->range_from >= 0) {
        /* A byte range of a file as it is stored: no content encoding, and
         * the Content-Range of the answer read (swx_response). */
        char range[48];
        snprintf(range, sizeof range, "%lld-%lld", (long long)x->range_from,
                 (long long)x->range_to);
        curl_easy_setopt(e, CURLOPT_RANGE, range);
        curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(e, CURLOPT_HEADERDATA, x);
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, c->timeout_ms);
        x->range_start = x->range_total = -1;
    } else if (x->sink_fd < 0) {
        curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, c->timeout_ms);
    } else {
        /* Files as they are stored: byte ranges of an encoded body do not resume. */
        char range[48];
        curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(e, CURLOPT_HEADERDATA, x);
        curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, on_progress);
        curl_easy_setopt(e, CURLOPT_XFERINFODATA, x);
        curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
        /* A file may take longer than one request may: the limit is on a
         * stalled transfer instead (which is retried and resumes). */
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 0L);
        curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, (c->timeout_ms + 999) / 1000);
        if (x->sink_off > 0) {
            snprintf(range, sizeof range, "%lld-", (long long)x->sink_off);
            curl_easy_setopt(e, CURLOPT_RANGE, range);
        }
    }
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, c->connect_timeout_ms);
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)x->max_body);
    curl_easy_setopt(e, CURLOPT_USERAGENT, c->user_agent);
    if (c->insecure) {
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    } else if (c->ca_file) {
        curl_easy_setopt(e, CURLOPT_CAINFO, c->ca_file);
    }
    struct curl_slist *h = NULL, *t;
    char line[1200];
    if (x->with_key && (!x->wms || c->wms_auth == SWX_AUTH_HEADER)) {
        snprintf(line, sizeof line, KEY_HEADER ": %s", c->api_key);
        t = curl_slist_append(h, line);
        memset(line, 0, sizeof line);
        if (!t)
            goto nomem;
        h = t;
    }
    for (size_t i = 0; i < x->extra_n; i++) {
        if (!(t = curl_slist_append(h, x->extra[i])))
            goto nomem;
        h = t;
    }
    x->headers = h;
    if (h)
        curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
    if (x->with_key && x->wms && c->wms_auth == SWX_AUTH_BASIC) {
        curl_easy_setopt(e, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
        curl_easy_setopt(e, CURLOPT_USERNAME, c->api_key);
        curl_easy_setopt(e, CURLOPT_PASSWORD, c->wms_password);
    }
    return 0;
nomem:
    curl_slist_free_all(h);
    return swx_error_set(SWX_ENOMEM, "out of memory");
}

/* Points the transfer at a redirect target. Leaving the service's origin
 * takes the key away for good: the header and Basic credentials are not set
 * again, and a key parameter is stripped from the new address. */
static int xfer_redirect(swx_client *c, xfer *x, const char *location)
{
    if (++x->redirects > MAX_REDIRECTS)
        return swx_error_set(SWX_EHTTP, "more than %d redirects from %s", MAX_REDIRECTS,
                             x->display);
    if (strncasecmp(location, "http://", 7) != 0 && strncasecmp(location, "https://", 8) != 0)
        return swx_error_set(SWX_EHTTP, "%s redirects to an address that is not http(s)",
                             x->display);
    char *origin = url_origin(location);
    if (!origin)
        return swx_error_set(SWX_EHTTP, "%s redirects to an invalid address", x->display);
    if (!x->origin || strcmp(origin, x->origin) != 0)
        x->with_key = 0;
    free(origin);
    char *url = NULL;
    if (x->with_key && x->wms && c->wms_auth == SWX_AUTH_QUERY) {
        /* Same origin, key in the query: the new address needs it too. */
        swx_buf b;
        swx_buf_init(&b, 64 * 1024);
        char *loc = xstrdup(location);
        int rc = loc ? 0 : SWX_ENOMEM;
        if (!rc) {
            strip_key_param(loc);
            rc = swx_buf_puts(&b, loc);
        }
        if (!rc)
            rc = swx_buf_puts(&b, strchr(loc, '?') ? "&" KEY_PARAM "=" : "?" KEY_PARAM "=");
        if (!rc)
            rc = put_encoded(&b, c->api_key);
        free(loc);
        if (rc) {
            swx_buf_free(&b);
            return swx_error_set(SWX_ENOMEM, "out of memory");
        }
        url = swx_buf_take(NULL, &b);
    } else {
        url = xstrdup(location);
    }
    if (!url)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if (!x->with_key)
        strip_key_param(url);
    char *display = redact_url(url, x->with_key);
    if (!display) {
        free(url);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    free(x->url);
    free(x->display);
    x->url = url;
    x->display = display;
    return xfer_setup(c, x);
}

/* What a finished attempt comes to. */
enum outcome { OUT_OK, OUT_FAIL, OUT_RETRY, OUT_REDIRECT };

static int accept_matches(const char *accept, const char *ctype)
{
    if (!accept || !*accept)
        return 1;
    if (!ctype)
        return 0;
    const char *p = accept;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n && strncasecmp(ctype, p, n) == 0)
            return 1;
        p += n + (bar ? 1 : 0);
    }
    return 0;
}

static long retry_delay(swx_client *c, xfer *x, long retry_after_ms)
{
    if (retry_after_ms >= 0) {
        long jitter = retry_after_ms / 10;
        if (jitter > 1000)
            jitter = 1000;
        return retry_after_ms + (jitter > 0 ? (long)(rng_next(&c->rng) % (uint64_t)jitter) : 0);
    }
    long d = c->retry_base_ms;
    for (int i = 1; i < x->attempts && d < c->retry_max_ms; i++)
        d *= 2;
    if (d > c->retry_max_ms)
        d = c->retry_max_ms;
    /* Equal jitter: half fixed, half random, so that parallel retries spread. */
    long half = d / 2;
    return half + (half > 0 ? (long)(rng_next(&c->rng) % (uint64_t)(half + 1)) : 0);
}

static const char *tries_word(int attempts)
{
    return attempts == 1 ? "attempt" : "attempts";
}

/* Classifies a finished attempt; on OUT_FAIL the error line is set, on
 * OUT_RETRY *delay_ms is set (and the error line holds what went wrong, for
 * when no retry is left), on OUT_REDIRECT the transfer is already re-aimed. */
/* A failure that may be tried again: OUT_RETRY after a delay while tries
 * are left, else OUT_FAIL (*code is set already). */
static enum outcome retry_or_fail(swx_client *c, xfer *x, long *delay_ms)
{
    if (x->attempts <= c->max_retries) {
        *delay_ms = retry_delay(c, x, -1);
        return OUT_RETRY;
    }
    return OUT_FAIL;
}

/* A transfer that curl could not finish. */
static enum outcome classify_curl(swx_client *c, xfer *x, CURLcode res, long *delay_ms, int *code)
{
    const char *why = x->errbuf[0] ? x->errbuf : curl_easy_strerror(res);
    switch (res) {
    case CURLE_WRITE_ERROR:
    case CURLE_FILESIZE_EXCEEDED:
        if (x->too_big || res == CURLE_FILESIZE_EXCEEDED) {
            *code =
                swx_error_set(SWX_ETOOBIG, "the answer from %s is larger than the %zu-byte limit",
                              x->display, x->max_body);
            return OUT_FAIL;
        }
        break;
    case CURLE_OPERATION_TIMEDOUT:
        *code =
            swx_error_set(SWX_ENET, "no complete answer from %s within %ld s (%d %s)", x->display,
                          (c->timeout_ms + 999) / 1000, x->attempts, tries_word(x->attempts));
        return retry_or_fail(c, x, delay_ms);
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_BAD_CONTENT_ENCODING:
        *code = swx_error_set(SWX_ENET, "the connection to %s broke off: %s (%d %s)", x->display,
                              why, x->attempts, tries_word(x->attempts));
        return retry_or_fail(c, x, delay_ms);
    case CURLE_PEER_FAILED_VERIFICATION:
        *code = swx_error_set(SWX_ENET,
                              "cannot reach %s safely: its TLS certificate is not trusted (%s); "
                              "--insecure (GDAL: SEAWX_INSECURE=YES) skips the check",
                              x->display, why);
        return OUT_FAIL;
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        *code =
            swx_error_set(SWX_ENET, "cannot reach %s: %s; check SEAWX_BASE_URL", x->display, why);
        return OUT_FAIL;
    default:
        break;
    }
    *code = swx_error_set(SWX_ENET, "request to %s failed: %s", x->display, why);
    return OUT_FAIL;
}

/* A 2xx answer: the file, or a service's error dressed as one. svc and
 * ecode are the service's message and code, when the body holds them. */
static enum outcome classify_2xx(swx_client *c, xfer *x, const char *ctype, const char *svc,
                                 const char *ecode, long *delay_ms, int *code)
{
    if (x->sink_fd >= 0 && is_web_page(ctype)) {
        *code = swx_error_set(SWX_ESERVICE, "%s answered with a web page (%s), not the file%s%s",
                              x->display, ctype, svc[0] ? ": " : "", svc);
        return OUT_FAIL;
    }
    if (swx_is_exception_doc(x->body.data, x->body.len)) {
        if (swx_exception_code_is_permanent(ecode)) {
            *code = swx_error_set(SWX_ESERVICE, "the service refused %s: %s%s%s%s", x->display,
                                  svc[0] ? svc : "(no message)", ecode[0] ? " [" : "", ecode,
                                  ecode[0] ? "]" : "");
            return OUT_FAIL;
        }
        *code = swx_error_set(SWX_ESERVICE, "the service answered %s with an exception: %s (%d %s)",
                              x->display, svc[0] ? svc : "(no message)", x->attempts,
                              tries_word(x->attempts));
        return retry_or_fail(c, x, delay_ms);
    }
    if (!accept_matches(x->accept, ctype)) {
        *code =
            swx_error_set(SWX_ESERVICE, "expected %s from %s but got %s%s%s", x->accept, x->display,
                          ctype ? ctype : "no content type", svc[0] ? ": " : "", svc);
        return OUT_FAIL;
    }
    return OUT_OK;
}

/* A 4xx or 5xx answer (or another status no success): svc is the
 * service's message, when the body holds one. */
static enum outcome classify_error(swx_client *c, xfer *x, long status, const char *svc,
                                   long *delay_ms, int *code)
{
    curl_off_t ra = -1;
    int can_retry = x->attempts <= c->max_retries;
    char said[460] = "";
    if (svc[0])
        snprintf(said, sizeof said, " (service says: %s)", svc);
    switch (status) {
    case 401:
        *code = swx_error_set(SWX_EAUTH,
                              "HTTP 401 from %s: the API key was rejected%s; check SEAWX_API_KEY",
                              x->display, said);
        return OUT_FAIL;
    case 403:
        *code = swx_error_set(SWX_EFORBIDDEN,
                              "HTTP 403 from %s: access denied%s; the product or bundle may not "
                              "be in your subscription",
                              x->display, said);
        return OUT_FAIL;
    case 404:
        *code = swx_error_set(SWX_ENOTFOUND, "HTTP 404 from %s: not found%s", x->display, said);
        return OUT_FAIL;
    case 429:
        curl_easy_getinfo(x->easy, CURLINFO_RETRY_AFTER, &ra);
        if (ra > 0 && ra * 1000 > c->max_retry_after_ms) {
            *code = swx_error_set(SWX_ERATE,
                                  "HTTP 429 from %s: rate limited%s; the service asks to wait %lld "
                                  "s, longer than the %ld s allowed",
                                  x->display, said, (long long)ra, c->max_retry_after_ms / 1000);
            return OUT_FAIL;
        }
        *code = swx_error_set(SWX_ERATE, "HTTP 429 from %s: rate limited%s (%d %s)", x->display,
                              said, x->attempts, tries_word(x->attempts));
        if (can_retry) {
            *delay_ms = retry_delay(c, x, ra >= 0 ? (long)ra * 1000 : -1);
            return OUT_RETRY;
        }
        return OUT_FAIL;
    default:
        break;
    }
    if (status >= 500) {
        curl_easy_getinfo(x->easy, CURLINFO_RETRY_AFTER, &ra);
        *code = swx_error_set(SWX_EHTTP, "HTTP %ld from %s%s (%d %s)", status, x->display, said,
                              x->attempts, tries_word(x->attempts));
        if (can_retry && !(ra > 0 && ra * 1000 > c->max_retry_after_ms)) {
            *delay_ms = retry_delay(c, x, ra >= 0 ? (long)ra * 1000 : -1);
            return OUT_RETRY;
        }
        return OUT_FAIL;
    }
    *code = swx_error_set(status == 400 ? SWX_EINVAL : SWX_EHTTP, "HTTP %ld from %s%s%s", status,
                          x->display, svc[0] ? ": " : "", svc[0] ? svc : "");
    return OUT_FAIL;
}

static enum outcome classify(swx_client *c, xfer *x, CURLcode res, long *delay_ms, int *code)
{
    long status = 0;
    char *ctype = NULL;
    char msg[400], ecode[96];
    const char *svc = "";
    curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ctype);
    *delay_ms = 0;

    if (x->cb && x->cb_rc) {
        *code = x->cb_rc; /* the callback's own line stays in swx_error_last() */
        return OUT_FAIL;
    }
    if (x->sink_fd >= 0 && x->sink_err) {
        if (x->sink_opts && x->sink_opts->file)
            *code = swx_error_set(SWX_EIO, "cannot write %s: %s", x->sink_opts->file,
                                  strerror(x->sink_err));
        else
            *code = swx_error_set(SWX_EIO, "cannot write the file downloaded from %s: %s",
                                  x->display, strerror(x->sink_err));
        return OUT_FAIL;
    }
    if (x->sink_fd >= 0 && res == CURLE_OK && status == 416 && !x->sink_restarted) {
        /* The partial file is not a prefix the server knows: start over once. */
        x->sink_restarted = 1;
        if (ftruncate(x->sink_fd, 0) != 0) {
            *code = swx_error_set(SWX_EIO, "cannot restart the download from %s: %s", x->display,
                                  strerror(errno));
            return OUT_FAIL;
        }
        return OUT_RETRY;
    }
    if (x->sink_fd >= 0 && res == CURLE_ABORTED_BY_CALLBACK) {
        *code = swx_error_set(SWX_ECANCEL, "the download from %s was stopped", x->display);
        return OUT_FAIL;
    }
    if (res != CURLE_OK)
        return classify_curl(c, x, res, delay_ms, code);

    if (status >= 300 && status < 400 && status != 304) {
        char *location = NULL;
        curl_easy_getinfo(x->easy, CURLINFO_REDIRECT_URL, &location);
        if (!location) {
            *code =
                swx_error_set(SWX_EHTTP, "HTTP %ld from %s without a Location", status, x->display);
            return OUT_FAIL;
        }
        if ((*code = xfer_redirect(c, x, location)))
            return OUT_FAIL;
        return OUT_REDIRECT;
    }

    if (swx_service_message(x->body.data, x->body.len, ctype, msg, sizeof msg, ecode, sizeof ecode))
        svc = msg;

    if (status >= 200 && status < 300)
        return classify_2xx(c, x, ctype, svc, ecode, delay_ms, code);
    return classify_error(c, x, status, svc, delay_ms, code);
}

/* ---- the engine ---- */

typedef struct engine {
    swx_client *c;
    swx_fetch_next_fn next;
    swx_fetch_done_fn done;
    void *ud;
    swx_fetch_stats *stats;
    int cap;
    double rate;
    int64_t next_start; /* earliest time the rate limit lets a transfer start */
    xfer **waiting;     /* scheduled retries */
    size_t waiting_n;
    xfer **active; /* transfers added to the multi handle */
    size_t running;
    int producing;
    const swx_download_opts *sink_opts; /* swx_http_download: the one request's sink */
    int sink_fd;
    const swx_body_sink *body_sink; /* swx_http_get_sink: the one request's callback */
} engine;

static int rate_ok(engine *en, int64_t now)
{
    return en->rate <= 0 || now >= en->next_start;
}

static void rate_take(engine *en, int64_t now)
{
    if (en->rate <= 0)
        return;
    double step = 1000.0 / en->rate;
    int64_t base = en->next_start > now - (int64_t)step ? en->next_start : now;
    en->next_start = base + (int64_t)(step + 0.5);
}

static int start(engine *en, xfer *x)
{
    x->attempts++;
    en->stats->requests++;
    if (x->attempts > 1)
        en->stats->retries++;
    if (curl_multi_add_handle(en->c->multi, x->easy) != CURLM_OK)
        return swx_error_set(SWX_ENOMEM, "cannot start a transfer");
    en->active[en->running++] = x;
    return 0;
}

static void stopped(engine *en, xfer *x)
{
    curl_multi_remove_handle(en->c->multi, x->easy);
    for (size_t i = 0; i < en->running; i++)
        if (en->active[i] == x) {
            en->active[i] = en->active[--en->running];
            break;
        }
}

static int finish(engine *en, xfer *x, int rc)
{
    swx_response r = {0};
    int cb;
    if (rc == 0) {
        curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &r.status);
        char *ctype = NULL;
        curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ctype);
        r.content_type = ctype;
        r.len = x->body.len;
        r.body = x->body.data ? x->body.data : (char *)"";
        r.attempts = x->attempts;
        r.url = x->display;
        r.range_start = x->range_start;
        r.range_total = x->range_total;
        en->stats->completed++;
        en->stats->bytes +=
            (double)x->body.len + (x->sink_fd >= 0 ? (double)x->sink_got : 0) + (double)x->cb_got;
        cb = en->done(en->ud, x->user, 0, &r);
        if (!r.body) {
            /* swx_http_get took the body over (see single_done). */
            x->body.data = NULL;
            x->body.len = x->body.cap = 0;
        }
    } else {
        en->stats->failed++;
        cb = en->done(en->ud, x->user, rc, NULL);
    }
    return cb;
}

/* Drops every transfer still under way or waiting. */
static void abandon(engine *en, xfer *current)
{
    for (size_t i = 0; i < en->running; i++) {
        xfer *x = en->active[i];
        curl_multi_remove_handle(en->c->multi, x->easy);
        if (x != current)
            xfer_free(en->c, x);
    }
    for (size_t i = 0; i < en->waiting_n; i++)
        xfer_free(en->c, en->waiting[i]);
    en->waiting_n = 0;
    en->running = 0;
}

static int produce(engine *en)
{
    swx_request req = {0};
    void *user = NULL;
    int got = en->next(en->ud, &req, &user);
    if (got < 0)
        return got;
    if (got == 0) {
        en->producing = 0;
        return 0;
    }
    xfer *x = NULL;
    int rc = xfer_new(en->c, &req, user, &x);
    if (!rc && en->sink_opts) {
        x->sink_fd = en->sink_fd;
        x->sink_opts = en->sink_opts;
    }
    if (!rc && en->body_sink)
        x->cb = en->body_sink;
    if (!rc)
        rc = xfer_setup(en->c, x);
    if (!rc)
        rc = start(en, x);
    if (rc) {
        /* A request that cannot even be set up fails alone, like any other. */
        int cb = en->done(en->ud, user, rc, NULL);
        en->stats->failed++;
        xfer_free(en->c, x);
        return cb < 0 ? cb : 0;
    }
    return 0;
}

static int engine_run(engine *en, volatile sig_atomic_t *cancel)
{
    swx_client *c = en->c;
    int rc = 0;
    en->waiting = calloc((size_t)en->cap, sizeof *en->waiting);
    en->active = calloc((size_t)en->cap, sizeof *en->active);
    if (!en->waiting || !en->active) {
        free(en->waiting);
        free(en->active);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    size_t want_idle = (size_t)en->cap;
    if (c->idle_cap < want_idle) {
        CURL **idle = realloc(c->idle, want_idle * sizeof *idle);
        if (!idle) {
            free(en->waiting);
            free(en->active);
            return swx_error_set(SWX_ENOMEM, "out of memory");
        }
        c->idle = idle;
        c->idle_cap = want_idle;
    }
    curl_multi_setopt(c->multi, CURLMOPT_MAXCONNECTS, (long)(en->cap * 2 > 16 ? en->cap * 2 : 16));
    en->producing = 1;

    for (;;) {
        if (cancel && *cancel) {
            rc = swx_error_set(SWX_ECANCEL, "interrupted");
            break;
        }
        int64_t now = now_ms();
        /* Retries whose time has come go first. */
        for (size_t i = 0; i < en->waiting_n && rate_ok(en, now);) {
            xfer *x = en->waiting[i];
            if (x->not_before > now) {
                i++;
                continue;
            }
            en->waiting[i] = en->waiting[--en->waiting_n];
            rate_take(en, now);
            if ((rc = xfer_setup(c, x)) || (rc = start(en, x))) {
                int cb = finish(en, x, rc);
                xfer_free(c, x);
                rc = cb < 0 ? cb : 0;
                if (rc)
                    goto out;
            }
        }
        while (en->producing && en->running + en->waiting_n < (size_t)en->cap && rate_ok(en, now)) {
            rate_take(en, now);
            if ((rc = produce(en)) < 0)
                goto out;
        }
        if (!en->producing && en->running == 0 && en->waiting_n == 0)
            break;

        int still = 0;
        curl_multi_perform(c->multi, &still);
        CURLMsg *m;
        int left;
        while ((m = curl_multi_info_read(c->multi, &left))) {
            if (m->msg != CURLMSG_DONE)
                continue;
            xfer *x = NULL;
            CURL *easy = m->easy_handle;
            CURLcode res = m->data.result;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&x);
            stopped(en, x);
            long delay = 0;
            int code = 0;
            enum outcome o = classify(c, x, res, &delay, &code);
            if (o == OUT_REDIRECT) {
                x->attempts--; /* a redirect is not another attempt */
                en->stats->requests--;
                if ((rc = start(en, x)) == 0)
                    continue;
                o = OUT_FAIL;
                code = rc;
            }
            if (o == OUT_RETRY && x->cb && x->cb_got > 0) {
                /* Part of the body was delivered: the callback starts over,
                 * or the request ends here (see swx_http_get_sink). */
                int rrc = x->cb->restart ? x->cb->restart(x->cb->ud) : -1;
                if (rrc < 0) {
                    o = OUT_FAIL;
                    if (x->cb->restart)
                        code = rrc;
                }
            }
            if (o == OUT_RETRY) {
                x->not_before = now_ms() + delay;
                en->waiting[en->waiting_n++] = x;
                continue;
            }
            int cb = finish(en, x, o == OUT_OK ? 0 : code);
            if (cb < 0) {
                abandon(en, x);
                xfer_free(c, x);
                rc = cb;
                goto out;
            }
            xfer_free(c, x);
        }
        if (!en->producing && en->running == 0 && en->waiting_n == 0)
            break;

        /* Sleep until curl has work, a retry is due or the rate limit allows more. */
        now = now_ms();
        int64_t wait = 1000;
        for (size_t i = 0; i < en->waiting_n; i++)
            if (en->waiting[i]->not_before - now < wait)
                wait = en->waiting[i]->not_before - now;
        if (en->rate > 0 && en->producing && en->next_start - now < wait)
            wait = en->next_start - now;
        if (en->producing && en->running + en->waiting_n < (size_t)en->cap && rate_ok(en, now))
            wait = 0;
        if (wait < 0)
            wait = 0;
        if (cancel && wait > 100)
            wait = 100;
        if (en->running > 0 || wait > 0)
            curl_multi_poll(c->multi, NULL, 0, (int)wait, NULL);
    }
out:
    if (rc < 0)
        abandon(en, NULL);
    free(en->waiting);
    free(en->active);
    en->waiting = NULL;
    en->active = NULL;
    return rc;
}

int swx_fetch_run(swx_fetch_stats *stats, swx_client *c, const swx_fetch_opts *opts,
                  swx_fetch_next_fn next, swx_fetch_done_fn done, void *ud)
{
    swx_fetch_stats local = {0};
    engine en = {0};
    en.c = c;
    en.next = next;
    en.done = done;
    en.ud = ud;
    en.stats = stats ? stats : &local;
    en.cap = opts && opts->max_in_flight > 0 ? opts->max_in_flight : 8;
    if (en.cap > 1024)
        en.cap = 1024;
    en.rate = opts ? opts->max_rate : 0;
    return engine_run(&en, opts ? opts->cancel : NULL);
}

/* ---- one request ---- */

typedef struct single {
    const swx_request *req;
    int produced;
    int rc;
    swx_response *resp;
} single;

static int single_next(void *ud, swx_request *req, void **user)
{
    single *s = ud;
    if (s->produced)
        return 0;
    s->produced = 1;
    *req = *s->req;
    *user = s;
    return 1;
}

static int single_done(void *ud, void *user, int rc, const swx_response *resp)
{
    single *s = ud;
    s->rc = rc;
    if (rc)
        return 0;
    swx_response *r = calloc(1, sizeof *r);
    if (!r) {
        s->rc = swx_error_set(SWX_ENOMEM, "out of memory");
        return 0;
    }
    r->status = resp->status;
    r->range_start = resp->range_start;
    r->range_total = resp->range_total;
    r->attempts = resp->attempts;
    r->content_type = xstrdup(resp->content_type);
    r->url = xstrdup(resp->url);
    if (!r->url || (resp->content_type && !r->content_type)) {
        swx_response_free(r);
        s->rc = swx_error_set(SWX_ENOMEM, "out of memory");
        return 0;
    }
    if (resp->len) {
        /* Take the engine's buffer instead of copying it: finish() sees the
         * body pointer cleared and lets go of it. */
        r->body = resp->body;
        ((swx_response *)resp)->body = NULL;
    } else if (!(r->body = calloc(1, 1))) {
        swx_response_free(r);
        s->rc = swx_error_set(SWX_ENOMEM, "out of memory");
        return 0;
    }
    r->len = resp->len;
    s->resp = r;
    return 0;
}

int swx_http_get(swx_response **out, swx_client *c, const swx_request *req)
{
    single s = {req, 0, 0, NULL};
    swx_fetch_opts o = {1, 0, NULL};
    *out = NULL;
    int rc = swx_fetch_run(NULL, c, &o, single_next, single_done, &s);
    if (rc)
        return rc;
    if (s.rc)
        return s.rc;
    *out = s.resp;
    return 0;
}

void swx_response_free(swx_response *r)
{
    if (!r)
        return;
    free(r->content_type);
    free(r->body);
    free(r->url);
    free(r);
}

/* ---- one request into a file ---- */

/* Runs req alone through en, whose client and sink are set, into *out. */
static int single_run(swx_response **out, engine *en, const swx_request *req,
                      volatile sig_atomic_t *cancel)
{
    single s = {req, 0, 0, NULL};
    swx_fetch_stats stats = {0};
    en->next = single_next;
    en->done = single_done;
    en->ud = &s;
    en->stats = &stats;
    en->cap = 1;
    int rc = engine_run(en, cancel);
    if (rc)
        return rc;
    if (s.rc)
        return s.rc;
    *out = s.resp;
    return 0;
}

int swx_http_download(swx_response **out, swx_client *c, const swx_request *req, int fd,
                      const swx_download_opts *opts)
{
    swx_download_opts none = {0};
    engine en = {0};
    *out = NULL;
    if (fd < 0)
        return swx_error_set(SWX_EINVAL, "no file to download into");
    en.c = c;
    en.sink_opts = opts ? opts : &none;
    en.sink_fd = fd;
    return single_run(out, &en, req, en.sink_opts->cancel);
}

/* ---- one request into a callback ---- */

int swx_http_get_sink(swx_response **out, swx_client *c, const swx_request *req,
                      const swx_body_sink *sink)
{
    engine en = {0};
    *out = NULL;
    if (!sink || !sink->write)
        return swx_error_set(SWX_EINVAL, "no callback to hand the answer to");
    en.c = c;
    en.body_sink = sink;
    return single_run(out, &en, req, NULL);
}

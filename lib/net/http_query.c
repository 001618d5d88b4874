/* http_query.c: query parameters and the request addresses built from them, with the key
 * put in or kept out. */
#include "http_query_int.h"

#include "buf.h"
#include "hex.h"
#include "http_client_int.h"
#include "http_core.h"
#include "seawx/error.h"

#include <curl/curl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define QUERY_MAX_PARAMS 256

struct swx_query {
    size_t n;
    char *keys[QUERY_MAX_PARAMS];
    char *values[QUERY_MAX_PARAMS];
};

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
    char *k = swx_http_strdup(key), *v = swx_http_strdup(value ? value : "");
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

/* ---- addresses ---- */

/* "scheme://host:port" in lower case, from any absolute http(s) URL. */
char *swx_http_url_origin(const char *url)
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

/* Percent-encodes for a query component. Unreserved characters and the
 * sub-delimiters that are safe inside a value ('/', ':', ',', '@') stay as they
 * are, so that logged WMS URLs remain readable. */
int swx_http_put_encoded(swx_buf *b, const char *s)
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
int swx_http_build_url(const swx_client *c, const swx_request *req, int with_key, char **out)
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
            rc = swx_http_put_encoded(&b, req->query->keys[i]);
        if (!rc)
            rc = swx_buf_puts(&b, "=");
        if (!rc)
            rc = swx_http_put_encoded(&b, req->query->values[i]);
    }
    if (!rc && with_key) {
        rc = swx_buf_puts(&b, nparams++ ? "&" KEY_PARAM "=" : "?" KEY_PARAM "=");
        if (!rc)
            rc = swx_http_put_encoded(&b, c->api_key);
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
    swx_http_build_url(c, req, 0, &url);
    return url;
}

/* A URL fit for a message: the key parameter's value is replaced, and on a
 * host other than the service's the query (which may hold a signature) and any
 * credentials are left out entirely. */
char *swx_http_redact_url(const char *url, int same_origin)
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
        return swx_http_strdup("(address not shown)");
    }
    return swx_buf_take(NULL, &b);
}

/* Removes every key=... parameter from a URL (in place). */
void swx_http_strip_key_param(char *url)
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

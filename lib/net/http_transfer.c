/* http_transfer.c: one transfer: its easy handle set up with the key where it may go, its body
 * kept, written into a file or handed to a callback, its redirects, and what a finished attempt
 * comes to. */
#include "http_transfer_int.h"

#include "buf.h"
#include "http_client_int.h"
#include "http_errors.h"
#include "http_core.h"
#include "http_query_int.h"
#include "seawx/setting.h"
#include "seawx/error.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define KEY_HEADER "service-api-key"
#define MAX_REDIRECTS 8

void swx_http_xfer_free(swx_client *c, xfer *x)
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
    free(x->ranges);
    free(x->parts);
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
        x->sink_state = 2; /* kept out of the file; swx_http_classify() refuses it */
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
        if (got >= 2)
            x->range_end = b;
        if (got == 3 && t >= 0)
            x->range_total = t;
    } else if (n >= 5 && strncasecmp(ptr, "HTTP/", 5) == 0) {
        x->range_start = -1; /* a new response (after a 1xx) */
        x->range_end = x->range_total = -1;
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
    if (x->nranges && swx_http_ranges_whole(x))
        return 0; /* the whole file for several ranges: not read (http_ranges.c) */
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

int swx_http_xfer_new(swx_client *c, const swx_request *req, void *user, xfer **out)
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
    x->range_start = x->range_end = x->range_total = -1;
    x->range_from = req->range_from > 0 || req->range_to > 0 ? req->range_from : -1;
    x->range_to = req->range_to;
    if (x->range_from >= 0 && x->range_to < x->range_from) {
        free(x);
        return swx_error_set(SWX_EINVAL, "a byte range ends before it starts");
    }
    if (req->nranges >= 2) {
        x->range_from = -1;
        for (size_t k = 0; k < req->nranges; k++)
            if (req->ranges[2 * k] < 0 || req->ranges[2 * k + 1] < req->ranges[2 * k] ||
                (k && req->ranges[2 * k] <= req->ranges[2 * k - 1])) {
                free(x);
                return swx_error_set(SWX_EINVAL, "byte ranges that are not increasing and apart");
            }
        if (!(x->ranges = malloc(2 * req->nranges * sizeof *x->ranges))) {
            free(x);
            return swx_error_set(SWX_ENOMEM, "out of memory");
        }
        memcpy(x->ranges, req->ranges, 2 * req->nranges * sizeof *x->ranges);
        x->nranges = req->nranges;
    }
    x->origin = req->service == SWX_SERVICE_VESSELS ? c->origin_vessels : c->origin_main;
    x->max_body = req->max_body ? req->max_body : c->max_body;
    swx_buf_init(&x->body, x->max_body);
    int key_in_query = req->wms && c->wms_auth == SWX_AUTH_QUERY;
    if ((rc = swx_http_build_url(c, req, key_in_query, &x->url)) ||
        (rc = swx_http_build_url(c, req, 0, &x->display)))
        goto fail;
    if (req->accept && !(x->accept = swx_http_strdup(req->accept))) {
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
            if (!(x->extra[i] = swx_http_strdup(req->headers[i]))) {
                rc = swx_error_set(SWX_ENOMEM, "out of memory");
                goto fail;
            }
        }
    }
    *out = x;
    return 0;
fail:
    swx_http_xfer_free(c, x);
    return rc;
}

/* Sets the easy handle up for the transfer's current URL and key rights. */
int swx_http_xfer_setup(swx_client *c, xfer *x)
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
        x->range_start = x->range_end = -1;
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
    if (x->sink_fd < 0 && (x->range_from >= 0 || x->nranges)) {
        /* A byte range of a file as it is stored, or several: no content
         * encoding, and the Content-Range of the answer read (swx_response). */
        char range[48], *ranges = x->nranges ? swx_http_ranges_value(x) : NULL;
        if (x->nranges && !ranges)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        snprintf(range, sizeof range, "%lld-%lld", (long long)x->range_from,
                 (long long)x->range_to);
        curl_easy_setopt(e, CURLOPT_RANGE, ranges ? ranges : range); /* libcurl copies it */
        free(ranges);
        x->ranges_whole = 0;
        curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(e, CURLOPT_HEADERDATA, x);
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, c->timeout_ms);
        x->range_start = x->range_end = x->range_total = -1;
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
    char *origin = swx_http_url_origin(location);
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
        char *loc = swx_http_strdup(location);
        int rc = loc ? 0 : SWX_ENOMEM;
        if (!rc) {
            swx_http_strip_key_param(loc);
            rc = swx_buf_puts(&b, loc);
        }
        if (!rc)
            rc = swx_buf_puts(&b, strchr(loc, '?') ? "&" KEY_PARAM "=" : "?" KEY_PARAM "=");
        if (!rc)
            rc = swx_http_put_encoded(&b, c->api_key);
        free(loc);
        if (rc) {
            swx_buf_free(&b);
            return swx_error_set(SWX_ENOMEM, "out of memory");
        }
        url = swx_buf_take(NULL, &b);
    } else {
        url = swx_http_strdup(location);
    }
    if (!url)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if (!x->with_key)
        swx_http_strip_key_param(url);
    char *display = swx_http_redact_url(url, x->with_key);
    if (!display) {
        free(url);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    free(x->url);
    free(x->display);
    x->url = url;
    x->display = display;
    return swx_http_xfer_setup(c, x);
}

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
        return retry_after_ms +
               (jitter > 0 ? (long)(swx_http_rng_next(&c->rng) % (uint64_t)jitter) : 0);
    }
    long d = c->retry_base_ms;
    for (int i = 1; i < x->attempts && d < c->retry_max_ms; i++)
        d *= 2;
    if (d > c->retry_max_ms)
        d = c->retry_max_ms;
    /* Equal jitter: half fixed, half random, so that parallel retries spread. */
    long half = d / 2;
    return half + (half > 0 ? (long)(swx_http_rng_next(&c->rng) % (uint64_t)(half + 1)) : 0);
}

static const char *tries_word(int attempts)
{
    return attempts == 1 ? "attempt" : "attempts";
}

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
                              "%s skips the check",
                              x->display, why, swx_setting_name(SWX_SET_INSECURE));
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
    case 416:
        /* The network carried the answer: a range the host says its file
         * lacks is the host's answer about the file. */
        *code = swx_error_set(SWX_ESERVICE,
                              "HTTP 416 from %s: the byte range asked is not in the file%s",
                              x->display, said);
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

/* A 206 must bring the bytes its Content-Range names, at least one, and for a
 * range asked, the range asked (its end cut to the file's length): an answer
 * that brings no progress would be asked again without end. 0 when it does,
 * else 1 and what is wrong in why. */
static int partial_wrong(const xfer *x, char *why, size_t n)
{
    long long got = (long long)x->body.len + (x->sink_fd >= 0 ? (long long)x->sink_got : 0) +
                    (long long)x->cb_got;
    long long a = x->range_start, b = x->range_end, t = x->range_total;
    if (a < 0)
        snprintf(why, n, "206 without a byte range");
    else if (b < a || got == 0 || (t >= 0 && b >= t))
        snprintf(why, n, "206 with no byte (bytes %lld-%lld/%lld)", a, b, t);
    else if (got != b - a + 1)
        snprintf(why, n, "%lld bytes for bytes %lld-%lld", got, a, b);
    else if (x->sink_fd < 0 && x->range_from >= 0 &&
             (a != x->range_from ||
              b != (t >= 0 && x->range_to >= t ? t - 1 : (long long)x->range_to)))
        snprintf(why, n, "bytes %lld-%lld for bytes %lld-%lld", a, b, (long long)x->range_from,
                 (long long)x->range_to);
    else
        return 0;
    return 1;
}

enum outcome swx_http_classify(swx_client *c, xfer *x, CURLcode res, long *delay_ms, int *code)
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
    if (x->nranges && x->ranges_whole && (res == CURLE_OK || res == CURLE_WRITE_ERROR))
        return OUT_OK; /* the whole file for several ranges, not read: no part */
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

    char why[160];
    if (status == 206 && x->nranges && swx_http_ranges_split(x, ctype, why, sizeof why)) {
        *code = swx_error_set(SWX_ESERVICE, "%s answered %s (%d %s)", x->display, why, x->attempts,
                              tries_word(x->attempts));
        return retry_or_fail(c, x, delay_ms);
    }
    if (status == 206 && !x->nranges && partial_wrong(x, why, sizeof why)) {
        /* Asked again a few times, as a cut answer is, then an error: never
         * asked without end. */
        *code = swx_error_set(SWX_ESERVICE, "%s answered %s: no progress (%d %s)", x->display, why,
                              x->attempts, tries_word(x->attempts));
        return retry_or_fail(c, x, delay_ms);
    }
    if (status >= 200 && status < 300)
        return classify_2xx(c, x, ctype, svc, ecode, delay_ms, code);
    return classify_error(c, x, status, svc, delay_ms, code);
}

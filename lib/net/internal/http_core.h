/*
 * http_core.h: the HTTP engine's calls that only the core makes (requests and
 * their answers, bodies handed to a callback, downloads, concurrent fetching,
 * the client's settings read back). Front ends reach the service
 * through the domain calls (swx_wms_*, swx_files_*, ...), never through these.
 */
#ifndef SEAWX_HTTP_CORE_H
#define SEAWX_HTTP_CORE_H

#include "seawx/http.h"

#include <signal.h>
#include <stdint.h>

/* An ordered list of query parameters, percent-encoded when the URL is built. */
int swx_query_new(swx_query **out);
int swx_query_add(swx_query *q, const char *key, const char *value);
int swx_query_addf(swx_query *q, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void swx_query_free(swx_query *q);

typedef struct swx_request {
    swx_service service;
    const char *path;           /* appended to the base address: "/ows/wms" */
    const swx_query *query;     /* may be NULL */
    int wms;                    /* 1: the WMS auth mode applies */
    const char *accept;         /* expected Content-Type prefixes, '|'-separated
                                   ("image/png", "application/json"); NULL: any */
    const char *const *headers; /* extra "Name: value" lines, NULL-terminated; may be NULL */
    size_t max_body;            /* 0: the client's limit */
    /* Bytes range_from..range_to (inclusive) of a stored file, when range_to
     * > 0 (or range_from > 0): sent as a Range header, without asking for a
     * content encoding; the server may answer 206 with that range or 200
     * with the whole file (the response's range_start tells which). */
    int64_t range_from, range_to;
    /* Several byte ranges of a stored file in one request, when nranges >= 2:
     * ranges[2k]..ranges[2k + 1] (inclusive), increasing and apart
     * (range_from and range_to unused). The answer's parts[k] holds range
     * k's bytes, whichever way storage sent them (multipart/byteranges, or
     * one range holding them all), or is NULL where storage left range k
     * out. Storage that answers with the whole file (some answer several
     * ranges so) is stopped at its first bytes: status 200 and every part
     * NULL, so that the caller asks for the ranges one at a time instead. */
    const int64_t *ranges;
    size_t nranges;
} swx_request;

typedef struct swx_response {
    long status;        /* final HTTP status */
    char *content_type; /* may be NULL */
    char *body;         /* len bytes, always followed by a NUL */
    size_t len;
    int attempts; /* 1 + retries taken */
    char *url;    /* the final URL, with any key removed */
    /* A ranged request's answer (swx_request.range_*): the first byte and
     * the file's whole length from its Content-Range, -1 when absent (a 200
     * with the whole file, or a request without a range). */
    int64_t range_start, range_total;
    /* A request of several ranges (swx_request.nranges): each range's
     * bytes in body, NULL for a range not sent (see there). */
    const char **parts;
    size_t nparts;
} swx_response;

/* Sends one GET. *out is set only on success (2xx with an acceptable body). */
int swx_http_get(swx_response **out, swx_client *c, const swx_request *req);
void swx_response_free(swx_response *r);

/* The URL a request goes to, without the key: for messages and cache keys. */
char *swx_request_display_url(const swx_client *c, const swx_request *req);

/* Callback path: one GET whose body is handed to write() as it arrives
 * instead of being kept in memory, so that a caller that reads as it goes
 * (a streaming parser) holds one network chunk at a time, not the whole
 * answer. Only a 2xx answer whose Content-Type the request accepts (any, when
 * accept is NULL) goes to the callback; every other body (redirects, 4xx/5xx
 * error bodies, a WMS exception with status 200, a body of an unexpected type)
 * is buffered as usual, so its message and the retry decision are those of
 * swx_http_get. The client's (or the request's) body limit caps the bytes
 * delivered.
 *
 * write() returns 0 to go on, or a negative SWX_E* code (with its line in
 * swx_error_last()) to stop: the transfer ends at once, is not retried, and
 * swx_http_get_sink() returns that code with the callback's line untouched.
 *
 * A retry never delivers data twice. When an attempt breaks off (or fails in
 * any retriable way) after some of its body was delivered:
 *   - with restart set, restart() is called before the next attempt, which
 *     delivers the answer again from its first byte: the callback starts over
 *     (it may return a negative code to give up instead);
 *   - with restart NULL, the request is not retried: it fails with the error
 *     line of the broken attempt.
 * Attempts that delivered nothing are retried as any other request, without
 * a call to restart().
 *
 * The response carries status, content type, attempts and final URL; its body
 * is empty (len 0). */
typedef int (*swx_body_fn)(void *ud, const char *data, size_t len);
typedef int (*swx_body_restart_fn)(void *ud);
typedef struct swx_body_sink {
    swx_body_fn write;           /* required */
    swx_body_restart_fn restart; /* may be NULL: see above */
    void *ud;
} swx_body_sink;

int swx_http_get_sink(swx_response **out, swx_client *c, const swx_request *req,
                      const swx_body_sink *sink);

/* The client's base address and how the key reaches the WMS endpoint. */
const char *swx_client_base_url(const swx_client *c);
swx_auth_mode swx_client_wms_auth(const swx_client *c);

/* Download path: one GET whose 2xx body is streamed into fd (opened for
 * reading and writing) instead of memory. Whatever fd already holds is taken
 * as the first part of the file: the request asks for the rest with a Range
 * header, and a server that answers 200 instead of 206 rewrites the file from
 * the start. A transfer that breaks off is retried like any other request and
 * resumes where it stopped; a 416 starts over once. Redirects, key handling,
 * retries and error lines are those of swx_http_get (it is the same engine);
 * the client's body limit caps the file size. The response carries status,
 * content type and final URL; its body is empty. progress (may be NULL) gets
 * the bytes in the file and the expected size (-1 if unknown); returning
 * non-zero from it, or *cancel turning non-zero, stops with SWX_ECANCEL. */
int swx_http_download(swx_response **out, swx_client *c, const swx_request *req, int fd,
                      const swx_download_opts *opts);

/* Concurrent fetching. The producer is asked for the next request while fewer
 * than max_in_flight are under way; it fills *req (read only during the call)
 * and *user, and returns 1, or 0 when it has no more, or a negative code to
 * stop. done() is called once per produced request, in completion order, with
 * rc 0 and the response, or rc < 0 (swx_error_last() tells why, after retries);
 * the response is freed after done() returns. done() returns 0 to go on, or a
 * negative code to stop the run: requests under way are abandoned, and
 * swx_fetch_run() returns that code. */
typedef int (*swx_fetch_next_fn)(void *ud, swx_request *req, void **user);
typedef int (*swx_fetch_done_fn)(void *ud, void *user, int rc, const swx_response *resp);

typedef struct swx_fetch_opts {
    int max_in_flight;             /* default 8 */
    double max_rate;               /* requests started per second; 0: no limit */
    volatile sig_atomic_t *cancel; /* if set and non-zero, the run stops with SWX_ECANCEL */
} swx_fetch_opts;

int swx_fetch_run(swx_fetch_stats *stats, swx_client *c, const swx_fetch_opts *opts,
                  swx_fetch_next_fn next, swx_fetch_done_fn done, void *ud);

#endif

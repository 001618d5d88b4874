/*
 * http_int.h: the HTTP engine's calls that only the core makes (downloads, concurrent
 * fetching, the client's settings read back). Front ends reach the service
 * through the domain calls (swx_wms_*, swx_files_*, ...), never through these.
 */
#ifndef SEAWX_HTTP_INT_H
#define SEAWX_HTTP_INT_H

#include "seawx/http.h"

#include <signal.h>
#include <stdint.h>

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

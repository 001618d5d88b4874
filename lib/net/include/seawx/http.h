/*
 * seawx/http.h: every request to the service goes through here.
 *
 * A client holds the configuration (base addresses, API key, WMS auth mode,
 * timeouts, retry policy, body limit) and one libcurl multi handle whose
 * connection cache keeps connections alive from one request to the next.
 * swx_http_get() sends one request; swx_fetch_run() keeps up to max_in_flight
 * requests going at once, pulling them from a producer. Both share one retry
 * engine:
 *   - retried: HTTP 429 and 5xx, timeouts, dropped connections, truncated
 *     bodies, and 200 answers that carry a WMS exception without a code that
 *     marks it permanent; waits grow exponentially from retry_base_ms up to
 *     retry_max_ms, with jitter; a Retry-After header (seconds or HTTP date) is
 *     honoured unless it asks for more than max_retry_after_ms, which fails at once;
 *   - not retried: any other 4xx, refused connections, DNS failures;
 *   - redirects are followed (at most 8), but once a request leaves the origin
 *     (scheme, host and port) of the configured base address it carries no key in
 *     any form: header, query parameter or Basic credentials.
 * Error lines name the HTTP status, the service's own message and the URL with
 * the key removed; the key itself never appears in an error line.
 *
 * A client may be used by one thread at a time.
 *
 * Public: the client, its settings and the request, query and response types
 * the storm fetcher still builds (those calls move to http_core.h with it).
 * Downloads, concurrent fetching and reading the settings back are the
 * core's own: lib/net/internal/http_core.h.
 */
#ifndef SEAWX_HTTP_H
#define SEAWX_HTTP_H

#include "seawx/visibility.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct swx_client swx_client;
typedef struct swx_query swx_query;

/* How the key reaches the WMS endpoint. Other endpoints always use the header. */
typedef enum swx_auth_mode {
    SWX_AUTH_HEADER = 0, /* service-api-key: KEY */
    SWX_AUTH_QUERY,      /* ?service-api-key=KEY */
    SWX_AUTH_BASIC,      /* HTTP Basic, user = KEY, password = wms_password */
} swx_auth_mode;

typedef enum swx_service {
    SWX_SERVICE_MAIN = 0, /* base_url: weather, ocean, WMS, storms */
    SWX_SERVICE_VESSELS,  /* vessels_url: the Vessels API */
} swx_service;

/* Client settings. Zero / NULL fields take the defaults given here; fill from the
 * environment with swx_client_opts_from_env(). Strings are copied by
 * swx_client_new(). */
typedef struct swx_client_opts {
    const char *base_url;          /* SEAWX_BASE_URL; required */
    const char *vessels_url;       /* SEAWX_VESSELS_URL; needed only for vessels */
    const char *api_key;           /* SEAWX_API_KEY */
    const char *api_key_file;      /* SEAWX_API_KEY_FILE: first line is the key */
    const char *wms_auth;          /* SEAWX_WMS_AUTH: "header" (default), "query", "basic" */
    const char *wms_password;      /* SEAWX_WMS_PASSWORD: password for "basic" */
    long connect_timeout_ms;       /* default 10000 */
    long timeout_ms;               /* whole transfer, default 120000 */
    int max_retries;               /* retries after the first attempt; default 5; -1 for none */
    long retry_base_ms;            /* first wait, default 500 */
    long retry_max_ms;             /* cap of one wait, default 30000 */
    long max_retry_after_ms;       /* longest Retry-After honoured, default 120000 */
    size_t max_body;               /* default 256 MiB */
    int insecure;                  /* 1: do not verify TLS certificates (never the default) */
    const char *ca_file;           /* SEAWX_CA_BUNDLE: PEM certificates to trust instead of the
                                      system's (a company proxy's or a private CA) */
    const char *user_agent;        /* default "seawx/VERSION" */
    volatile sig_atomic_t *cancel; /* if set: once non-zero, every request of the client
                                      stops with SWX_ECANCEL, waits and retries too (a
                                      program's Ctrl-C); a call's own cancel adds to it */
} swx_client_opts;

/* Fills the NULL string fields of opts from SEAWX_* environment variables. */
SWX_API void swx_client_opts_from_env(swx_client_opts *opts);

/* Creates a client. Fails with SWX_ECONFIG when base_url is missing or not an
 * http(s) address, or when wms_auth names no mode. A missing key is not an error
 * here: requests fail with SWX_ECONFIG before anything is sent. */
SWX_API int swx_client_new(swx_client **out, const swx_client_opts *opts);
SWX_API void swx_client_free(swx_client *c);
/* Whether a key is configured (the key itself is not readable back). */
SWX_API int swx_client_has_key(const swx_client *c);

typedef struct swx_fetch_stats {
    long requests;  /* attempts sent */
    long retries;   /* attempts that were retries */
    long completed; /* requests done with success */
    long failed;    /* requests done with failure */
    double bytes;   /* body bytes received */
} swx_fetch_stats;

/* Progress and cancellation of a download (files, job results). progress (may
 * be NULL) gets the bytes in the file and the expected size (-1 if unknown);
 * returning non-zero from it, or *cancel turning non-zero, stops with
 * SWX_ECANCEL. */
typedef int (*swx_progress_fn)(void *ud, int64_t done, int64_t total);
typedef struct swx_download_opts {
    swx_progress_fn progress;
    void *ud;
    volatile sig_atomic_t *cancel;
    const char *file; /* the file fd writes, named when a write fails (may be NULL) */
} swx_download_opts;

#ifdef __cplusplus
}
#endif
#endif

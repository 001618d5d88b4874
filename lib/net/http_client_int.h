/*
 * http_client_int.h: the client's body and the small helpers of http_client.c, shared by the
 * HTTP files of lib/net; not public.
 */
#ifndef SEAWX_HTTP_CLIENT_INT_H
#define SEAWX_HTTP_CLIENT_INT_H

#include "seawx/http.h"

#include <curl/curl.h>
#include <stddef.h>
#include <stdint.h>

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
    volatile sig_atomic_t *cancel; /* swx_client_opts.cancel */
};

/* A copy of s, or NULL for NULL or when out of memory. */
char *swx_http_strdup(const char *s);
/* Milliseconds on the monotonic clock. */
int64_t swx_http_now_ms(void);
/* The next number of the jitter generator whose state is *s (the client's rng). */
uint64_t swx_http_rng_next(uint64_t *s);

#endif

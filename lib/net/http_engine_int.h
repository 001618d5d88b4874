/*
 * http_engine_int.h: the engine of http_engine.c, which http_request.c runs one request
 * through; not public.
 */
#ifndef SEAWX_HTTP_ENGINE_INT_H
#define SEAWX_HTTP_ENGINE_INT_H

#include "http_core.h"
#include "http_transfer_int.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

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

/* Runs the engine until the producer has no more and every request is done, or until a
 * callback or *cancel stops it. */
int swx_http_engine_run(engine *en, volatile sig_atomic_t *cancel);

#endif

/*
 * http_transfer_int.h: a transfer as http_transfer.c makes it and the engine runs it, shared
 * by the HTTP files of lib/net; not public.
 */
#ifndef SEAWX_HTTP_TRANSFER_INT_H
#define SEAWX_HTTP_TRANSFER_INT_H

#include "buf.h"
#include "http_core.h"

#include <curl/curl.h>
#include <stddef.h>
#include <stdint.h>

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
    int64_t range_end;            /* Content-Range last byte of a 206, -1 if none */
    int64_t range_total;          /* Content-Range length of the whole file, -1 if none */
    int64_t range_from, range_to; /* a byte range asked for (range_from >= 0) */
    int64_t *ranges;              /* several asked for in one request (http_ranges.c) */
    size_t nranges;
    const char **parts; /* each one's bytes in body, once answered */
    int ranges_whole;   /* storage began the whole file for them: stopped */
    int sink_err;       /* errno of a failed write */
    int sink_restarted; /* a 416 made us start over once */
    const swx_download_opts *sink_opts;
    /* Callback path (swx_http_get_sink): a 2xx body of an accepted type goes
     * to cb->write as it arrives; other bodies are buffered as usual. cb is
     * NULL for ordinary requests. */
    const swx_body_sink *cb;
    int cb_state;   /* this attempt: 0 undecided, 1 to the callback, 2 to memory */
    int64_t cb_got; /* bytes delivered by this attempt */
    int cb_rc;      /* the callback's error, which ends the request */
} xfer;

/* What a finished attempt comes to. */
enum outcome { OUT_OK, OUT_FAIL, OUT_RETRY, OUT_REDIRECT };

/* A transfer for req (not set up yet), or an error line when it cannot be made. */
int swx_http_xfer_new(swx_client *c, const swx_request *req, void *user, xfer **out);
/* (Re)sets the easy handle before each attempt, for the URL and key rights the transfer has
 * now. */
int swx_http_xfer_setup(swx_client *c, xfer *x);
/* Frees x, keeping its easy handle for reuse while the client has room. */
void swx_http_xfer_free(swx_client *c, xfer *x);
/* Classifies a finished attempt; on OUT_FAIL the error line is set, on
 * OUT_RETRY *delay_ms is set (and the error line holds what went wrong, for
 * when no retry is left), on OUT_REDIRECT the transfer is already re-aimed. */
enum outcome swx_http_classify(swx_client *c, xfer *x, CURLcode res, long *delay_ms, int *code);

/* Several ranges in one request (http_ranges.c). The Range header's value
 * for x->ranges (malloc'd), or NULL when out of memory. */
char *swx_http_ranges_value(const xfer *x);
/* Whether this attempt's answer is the whole file for x->ranges (a 2xx
 * other than 206): its body is then not read. */
int swx_http_ranges_whole(xfer *x);
/* Points x->parts into the body of a 206 (of type ctype) for x->ranges:
 * 0, or 1 with what is wrong with the answer in why. */
int swx_http_ranges_split(xfer *x, const char *ctype, char *why, size_t n);

#endif

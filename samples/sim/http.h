/* http.h: one HTTP request as the handlers see it, and the ways to answer it.
 *
 * Every handler answers through sim_http_reply_* (or sim_http_drop), so that
 * the access log, the statistics and the truncation fault see every answer the
 * same way. Query parameter names are matched case-insensitively (WMS wants
 * that; the other endpoints do not mind). */
#ifndef SIM_HTTP_H
#define SIM_HTTP_H

#include <microhttpd.h>
#include <stddef.h>
#include <stdint.h>

#include "blob.h"

struct sim_app;
struct sim_endpoint;

#define SIM_MAX_ARGS 64

/* Forms in which an API key can arrive. */
enum {
    SIM_AUTH_HEADER = 1, /* service-api-key: header */
    SIM_AUTH_QUERY = 2,  /* service-api-key= query parameter */
    SIM_AUTH_BASIC = 4   /* Authorization header (Basic, or any scheme on the storage host) */
};

/* What the statistics count a request as. */
enum sim_wms_op { SIM_OP_NONE, SIM_OP_GETMAP, SIM_OP_GETCAPABILITIES };

struct sim_arg {
    const char *name;
    const char *value; /* "" when the parameter had no '=' */
};

struct sim_request {
    struct sim_app *app;
    struct sim_endpoint *ep;
    struct MHD_Connection *conn;
    char *target; /* request target as received (path?query), for the log */
    const char *method;
    const char *path; /* decoded path */
    struct sim_arg args[SIM_MAX_ARGS];
    size_t nargs;
    int too_many_args;
    unsigned forms;     /* SIM_AUTH_* present in the request */
    unsigned used_form; /* the form the log reports (0 = none) */
    enum sim_wms_op op;
    int is_head;
    int counted; /* a service request: goes into the statistics */
    int seen;    /* the access handler ran once (headers received) */

    /* set by the handlers */
    int answered;
    int drop;      /* close without an answer */
    int trunc;     /* send fewer body bytes than Content-Length, then close */
    unsigned rate; /* body bytes per second at most, 0 = no limit (--storage-rate) */
    unsigned status;
    uint64_t bytes; /* body bytes sent or about to be sent (with rate: handed out so far) */
};

struct sim_header {
    const char *name;
    const char *value;
};

/* First value of query parameter name (case-insensitive), or NULL. */
const char *sim_http_arg(const struct sim_request *rq, const char *name);
/* Request header (case-insensitive), or NULL. */
const char *sim_http_header(const struct sim_request *rq, const char *name);
int sim_http_accepts_gzip(const struct sim_request *rq);

/* Answers with a copy of body. */
int sim_http_reply(struct sim_request *rq, unsigned status, const char *ctype, const void *body,
                   size_t len, const struct sim_header *hdrs, size_t nhdrs);
/* Answers with body (malloc'd), which the reply frees. */
int sim_http_reply_take(struct sim_request *rq, unsigned status, const char *ctype, char *body,
                        size_t len, const struct sim_header *hdrs, size_t nhdrs);
/* Answers with a blob (takes its own reference). */
int sim_http_reply_blob(struct sim_request *rq, unsigned status, const char *ctype,
                        struct sim_blob *blob, const struct sim_header *hdrs, size_t nhdrs);
int sim_http_reply_text(struct sim_request *rq, unsigned status, const char *text);
/* {"errors":[{"code":CODE,"message":MESSAGE}]} */
int sim_http_reply_json_error(struct sim_request *rq, unsigned status, const char *code,
                              const char *message);
/* Closes the connection without an answer. */
void sim_http_drop(struct sim_request *rq);

#endif

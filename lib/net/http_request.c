/* http_request.c: one request on its own, its body kept, written into a file or handed to a
 * callback. */
#include "http_client_int.h"
#include "http_engine_int.h"
#include "http_core.h"
#include "seawx/error.h"

#include <stdlib.h>
#include <string.h>

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
    r->content_type = swx_http_strdup(resp->content_type);
    r->url = swx_http_strdup(resp->url);
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
    if (resp->nparts) {
        /* the parts point into the body taken over: a copy of the list */
        if (!(r->parts = malloc(resp->nparts * sizeof *r->parts))) {
            swx_response_free(r);
            s->rc = swx_error_set(SWX_ENOMEM, "out of memory");
            return 0;
        }
        memcpy(r->parts, resp->parts, resp->nparts * sizeof *r->parts);
        r->nparts = resp->nparts;
    }
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
    free(r->parts);
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
    int rc = swx_http_engine_run(en, cancel);
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

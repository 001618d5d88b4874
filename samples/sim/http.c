/* http.c: request access and answers (see http.h). */
#include "http.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "app.h"
#include "buf.h"
#include "gzip.h"

const char *sim_http_arg(const struct sim_request *rq, const char *name)
{
    for (size_t i = 0; i < rq->nargs; i++)
        if (strcasecmp(rq->args[i].name, name) == 0)
            return rq->args[i].value;
    return NULL;
}

const char *sim_http_header(const struct sim_request *rq, const char *name)
{
    return MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, name);
}

int sim_http_accepts_gzip(const struct sim_request *rq)
{
    return sim_gzip_accepted(sim_http_header(rq, MHD_HTTP_HEADER_ACCEPT_ENCODING));
}

/* A body and how to let go of it. */
struct body {
    const unsigned char *data;
    size_t len;
    MHD_ContentReaderFreeCallback release; /* NULL: nothing to release */
    void *cls;
};

/* State of an answer sent through a callback. A truncated one sends `sent` of
 * the bytes, then fails the stream, which makes the server close the
 * connection short of Content-Length. A paced one (rate > 0) hands its bytes
 * out no faster than rate per second, in steps of a fiftieth of a second, and
 * counts them in *bytes (the connection's thread is the only one that calls
 * the reader, and only before the request completes). */
struct trunc_state {
    struct body b;
    size_t sent;
    int trunc;
    unsigned rate;
    struct sim_app *app;
    uint64_t *bytes;
    struct timespec t0;
};

static ssize_t trunc_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct trunc_state *t = cls;
    size_t n;

    if (pos >= t->sent)
        return t->trunc ? MHD_CONTENT_READER_END_WITH_ERROR : MHD_CONTENT_READER_END_OF_STREAM;
    n = t->sent - (size_t)pos;
    if (n > max)
        n = max;
    if (t->rate > 0) {
        struct timespec now;
        size_t step = t->rate / 50 > 512 ? t->rate / 50 : 512;
        int64_t due_ms, spent_ms;
        if (n > step)
            n = step;
        clock_gettime(CLOCK_MONOTONIC, &now);
        due_ms = (int64_t)(pos * 1000 / t->rate);
        spent_ms =
            (int64_t)(now.tv_sec - t->t0.tv_sec) * 1000 + (now.tv_nsec - t->t0.tv_nsec) / 1000000;
        if (due_ms > spent_ms && sim_app_sleep_ms(t->app, (unsigned)(due_ms - spent_ms)) != 0)
            return MHD_CONTENT_READER_END_WITH_ERROR; /* shutting down */
        *t->bytes = pos + n;
    }
    memcpy(buf, t->b.data + pos, n);
    return (ssize_t)n;
}

static void trunc_free(void *cls)
{
    struct trunc_state *t = cls;

    if (t->b.release != NULL)
        t->b.release(t->b.cls);
    free(t);
}

static void release_blob(void *cls)
{
    sim_blob_unref(cls);
}

static int finish(struct sim_request *rq, unsigned status, const char *ctype, struct body b,
                  const struct sim_header *hdrs, size_t nhdrs)
{
    struct MHD_Response *resp = NULL;
    uint64_t bytes = b.len;
    int rc = -1;

    if (rq->answered) {
        /* a handler bug; keep the first answer */
        if (b.release != NULL)
            b.release(b.cls);
        return -1;
    }
    if (rq->trunc || rq->rate > 0) {
        struct trunc_state *t = malloc(sizeof(*t));
        uint64_t declared = rq->trunc && b.len < 2 ? b.len + 64 : b.len;
        if (t == NULL)
            goto fail;
        t->b = b;
        t->sent = rq->trunc ? b.len / 2 : b.len;
        t->trunc = rq->trunc;
        t->rate = rq->rate;
        t->app = rq->app;
        t->bytes = &rq->bytes;
        clock_gettime(CLOCK_MONOTONIC, &t->t0);
        bytes = rq->rate > 0 ? 0 : t->sent;
        resp = MHD_create_response_from_callback(declared, 16384, trunc_read, t, trunc_free);
        if (resp == NULL) {
            trunc_free(t);
            goto done;
        }
    } else {
        resp = MHD_create_response_from_buffer_with_free_callback_cls(
            b.len, (void *)(uintptr_t)b.data, b.release, b.cls);
        if (resp == NULL)
            goto fail;
    }
    if (ctype != NULL)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
    for (size_t i = 0; i < nhdrs; i++)
        MHD_add_response_header(resp, hdrs[i].name, hdrs[i].value);
    if (MHD_queue_response(rq->conn, status, resp) != MHD_YES)
        goto done;
    rq->answered = 1;
    rq->status = status;
    rq->bytes = rq->is_head ? 0 : bytes;
    rc = 0;
    goto done;
fail:
    if (b.release != NULL)
        b.release(b.cls);
done:
    if (resp != NULL)
        MHD_destroy_response(resp);
    return rc;
}

int sim_http_reply(struct sim_request *rq, unsigned status, const char *ctype, const void *body,
                   size_t len, const struct sim_header *hdrs, size_t nhdrs)
{
    char *copy = malloc(len ? len : 1);

    if (copy == NULL)
        return -1;
    if (len != 0)
        memcpy(copy, body, len);
    return sim_http_reply_take(rq, status, ctype, copy, len, hdrs, nhdrs);
}

int sim_http_reply_take(struct sim_request *rq, unsigned status, const char *ctype, char *body,
                        size_t len, const struct sim_header *hdrs, size_t nhdrs)
{
    struct body b = {(const unsigned char *)body, len, free, body};

    return finish(rq, status, ctype, b, hdrs, nhdrs);
}

int sim_http_reply_blob(struct sim_request *rq, unsigned status, const char *ctype,
                        struct sim_blob *blob, const struct sim_header *hdrs, size_t nhdrs)
{
    struct body b = {sim_blob_data(blob), sim_blob_len(blob), release_blob, sim_blob_ref(blob)};

    return finish(rq, status, ctype, b, hdrs, nhdrs);
}

int sim_http_reply_text(struct sim_request *rq, unsigned status, const char *text)
{
    return sim_http_reply(rq, status, "text/plain; charset=utf-8", text, strlen(text), NULL, 0);
}

int sim_http_reply_json_error(struct sim_request *rq, unsigned status, const char *code,
                              const char *message)
{
    struct sim_buf b;
    char *body;
    size_t len = 0;

    sim_buf_init(&b, 8192);
    sim_buf_puts(&b, "{\"errors\":[{\"code\":\"");
    sim_buf_json(&b, code);
    sim_buf_puts(&b, "\",\"message\":\"");
    sim_buf_json(&b, message);
    sim_buf_puts(&b, "\"}]}");
    body = sim_buf_steal(&b, &len);
    if (body == NULL)
        return -1;
    return sim_http_reply_take(rq, status, "application/json", body, len, NULL, 0);
}

void sim_http_drop(struct sim_request *rq)
{
    rq->drop = 1;
    rq->answered = 1;
    rq->status = 0;
    rq->bytes = 0;
}

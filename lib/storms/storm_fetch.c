/* storm_fetch.c: storms fetched from the service, page after page, read as
 * they arrive; the KMZ of a selection downloaded to a file (see seawx/storm.h). */
#include "seawx/storm.h"

#include "seawx/error.h"
#include "storm_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One page's storms on their way to the caller. A page whose answer breaks
 * off is asked for again (see swx_http_get_sink): the storms the first
 * attempt already handed on are skipped by their position in the page, so
 * that none is delivered twice (paging by offset already takes the answer to
 * be the same from one request to the next). */
struct page_ctx {
    swx_storm_fn fn;
    void *ud;
    long left;           /* storms still wanted; -1: no cap */
    swx_storm_reader *r; /* one reader for every page, reset between them */
    size_t seen;         /* storms of this page read by this attempt */
    size_t handled;      /* storms of this page handed on by any attempt */
    int sink_rc;         /* the reader's (or fn's) error, not the transfer's */
};

static int page_storm(void *ud, const swx_storm *s)
{
    struct page_ctx *p = ud;
    if (p->seen++ < p->handled)
        return 0;
    p->handled = p->seen;
    if (p->left == 0)
        return 0;
    if (p->left > 0)
        p->left--;
    return p->fn(p->ud, s);
}

static int page_write(void *ud, const char *data, size_t len)
{
    struct page_ctx *p = ud;
    int rc = swx_storm_reader_feed(p->r, data, len);
    if (rc)
        p->sink_rc = rc;
    return rc;
}

static int page_restart(void *ud)
{
    struct page_ctx *p = ud;
    swx_storm_reader_reset(p->r);
    p->seen = 0;
    return 0;
}

int swx_storm_fetch_held(swx_client *c, const swx_storm_query *q, swx_storm_fn fn, void *ud,
                         int *pages, size_t *held_max)
{
    int limit = q->limit ? q->limit : SWX_STORM_LIMIT_MAX;
    long offset = q->offset;
    struct page_ctx pc = {fn, ud, q->max_storms > 0 ? q->max_storms : -1, NULL, 0, 0, 0};
    swx_body_sink sink = {page_write, page_restart, &pc};
    swx_query *qs = NULL;
    swx_response *resp = NULL;
    char *url = NULL;
    int rc = swx_storm_query_check(q), npages = 0;
    if (pages)
        *pages = 0;
    if (held_max)
        *held_max = 0;
    if (rc)
        return rc;
    if ((rc = swx_storm_reader_new(&pc.r, page_storm, &pc)))
        return rc;
    for (;;) {
        swx_request req;
        if ((rc = swx_storm_request(q, 0, offset, &req, &qs)))
            goto done;
        swx_storm_reader_reset(pc.r);
        pc.seen = pc.handled = 0;
        pc.sink_rc = 0;
        rc = swx_http_get_sink(&resp, c, &req, &sink);
        if (rc && pc.sink_rc)
            url = swx_request_display_url(c, &req);
        swx_query_free(qs);
        qs = NULL;
        if (rc && !pc.sink_rc)
            goto done;
        npages++;
        if (pages)
            *pages = npages;
        if (!rc)
            rc = swx_storm_reader_finish(pc.r);
        if (rc) {
            if (rc != SWX_ECANCEL && rc != SWX_ENOMEM && rc != SWX_EIO)
                swx_error_prefix(SWX_EPARSE, "%s (page at offset %ld)",
                                 resp  ? resp->url
                                 : url ? url
                                       : SWX_STORM_JSON_PATH,
                                 offset);
            goto done;
        }
        size_t got = swx_storm_reader_count(pc.r);
        swx_response_free(resp);
        resp = NULL;
        /* A short page is the last one; a page larger than asked means the
         * service ignores limit, and is the whole answer. */
        if (got < (size_t)limit || got > (size_t)limit || pc.left == 0)
            break;
        offset += limit;
    }
done:
    if (held_max)
        *held_max = swx_storm_reader_held_max(pc.r);
    swx_storm_reader_free(pc.r);
    swx_response_free(resp);
    swx_query_free(qs);
    free(url);
    return rc;
}

int swx_storm_fetch(swx_client *c, const swx_storm_query *q, swx_storm_fn fn, void *ud, int *pages)
{
    return swx_storm_fetch_held(c, q, fn, ud, pages, NULL);
}

int swx_storm_fetch_kmz(swx_client *c, const swx_storm_query *q, const char *path)
{
    swx_request req;
    swx_query *qs = NULL;
    swx_response *resp = NULL;
    char *tmp = NULL;
    FILE *f = NULL;
    int rc = swx_storm_request(q, 1, q->offset, &req, &qs);
    if (rc)
        return rc;
    if ((rc = swx_http_get(&resp, c, &req)))
        goto done;
    if (resp->len < 4 || memcmp(resp->body, "PK\x03\x04", 4) != 0) {
        rc = swx_error_set(SWX_ESERVICE, "%s: the answer is not a KMZ (zip) file", resp->url);
        goto done;
    }
    /* A device or a pipe (/dev/stdout) is written directly, never replaced. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (!(f = fopen(path, "wb"))) {
            rc = swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
            goto done;
        }
        if (fwrite(resp->body, 1, resp->len, f) != resp->len || fflush(f) != 0)
            rc = swx_error_set(SWX_EIO, "writing %s failed: %s", path, strerror(errno));
        goto done;
    }
    size_t tl = strlen(path) + 32;
    if (!(tmp = malloc(tl))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    snprintf(tmp, tl, "%s.part%ld", path, (long)getpid());
    if (!(f = fopen(tmp, "wb"))) {
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", tmp, strerror(errno));
        goto done;
    }
    if (fwrite(resp->body, 1, resp->len, f) != resp->len || fflush(f) != 0) {
        rc = swx_error_set(SWX_EIO, "writing %s failed: %s", tmp, strerror(errno));
        goto done;
    }
    if (fclose(f) != 0) {
        f = NULL;
        rc = swx_error_set(SWX_EIO, "writing %s failed: %s", tmp, strerror(errno));
        goto done;
    }
    f = NULL;
    if (rename(tmp, path) != 0)
        rc = swx_error_set(SWX_EIO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
done:
    if (f)
        fclose(f);
    if (rc && tmp)
        unlink(tmp);
    free(tmp);
    swx_query_free(qs);
    swx_response_free(resp);
    return rc;
}

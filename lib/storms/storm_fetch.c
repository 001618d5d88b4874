/* storm_fetch.c: storms fetched from the service, page after page, read as
 * they arrive; the KMZ of a selection downloaded to a file (see seawx/storm.h). */
#include "seawx/storm.h"

#include "seawx/atomicfile.h"
#include "seawx/error.h"
#include "http_core.h"
#include "storm_priv.h"

#include <errno.h>
#include <fcntl.h>
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

int swx_storm_fetch_held(int *pages, size_t *held_max, swx_client *c, const swx_storm_query *q,
                         swx_storm_fn fn, void *ud)
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
        if ((rc = swx_storm_request(&req, &qs, q, 0, offset)))
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

int swx_storm_fetch(int *pages, swx_client *c, const swx_storm_query *q, swx_storm_fn fn, void *ud)
{
    return swx_storm_fetch_held(pages, NULL, c, q, fn, ud);
}

/* Whether the first bytes of the file at fd are a zip's local header. */
static int starts_as_zip(int fd)
{
    char magic[4];
    return pread(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
           memcmp(magic, "PK\x03\x04", 4) == 0;
}

/* Copies the whole of file `from` to the device or pipe `path`. */
static int copy_to(FILE *from, const char *path)
{
    char buf[65536];
    size_t n;
    int rc = 0;
    FILE *to = fopen(path, "wb");
    if (!to)
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
    rewind(from);
    while ((n = fread(buf, 1, sizeof buf, from)) > 0)
        if (fwrite(buf, 1, n, to) != n)
            break;
    if (ferror(from) || ferror(to) || fflush(to) != 0)
        rc = swx_error_set(SWX_EIO, "writing %s failed: %s", path, strerror(errno));
    fclose(to);
    return rc;
}

/* The KMZ goes through the download path into a file, never whole in memory:
 * an atomic file beside a regular (or new) path, so that a failure leaves the
 * old file or none; a device or a pipe (/dev/stdout) gets an unnamed
 * temporary first, copied once the answer is known to be a KMZ. */
int swx_storm_fetch_kmz(swx_client *c, const swx_storm_query *q, const char *path)
{
    swx_request req;
    swx_query *qs = NULL;
    swx_response *resp = NULL;
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    FILE *anon = NULL;
    int rc = swx_storm_request(&req, &qs, q, 1, q->offset), rd = -1;
    if (rc)
        return rc;
    int device = 0; /* a device or a pipe, written through (a KMZ is a stream of bytes) */
    if ((rc = swx_atomicfile_target(NULL, &device, path, SWX_ATOMICFILE_STREAM, NULL, 0)))
        goto done;
    if (device) {
        if (!(anon = tmpfile())) {
            rc = swx_error_set(SWX_EIO, "cannot create a temporary file for %s: %s", path,
                               strerror(errno));
            goto done;
        }
        rd = fileno(anon);
    } else {
        if ((rc = swx_atomicfile_open(&af, path, 0666, 0)))
            goto done;
        if ((rd = open(af.tmp, O_RDONLY | O_CLOEXEC)) < 0) {
            rc = swx_error_set(SWX_EIO, "cannot read %s: %s", af.tmp, strerror(errno));
            goto done;
        }
    }
    swx_download_opts dopts = {0};
    dopts.file = path; /* a write that fails names the file asked for */
    if ((rc = swx_http_download(&resp, c, &req, device ? rd : fileno(af.f), &dopts)))
        goto done;
    if (!starts_as_zip(rd)) {
        rc = swx_error_set(SWX_ESERVICE, "%s: the answer is not a KMZ (zip) file", resp->url);
        goto done;
    }
    rc = device ? copy_to(anon, path) : swx_atomicfile_commit(&af);
done:
    if (!device && rd >= 0)
        close(rd);
    if (anon)
        fclose(anon);
    swx_atomicfile_abort(&af);
    swx_query_free(qs);
    swx_response_free(resp);
    return rc;
}

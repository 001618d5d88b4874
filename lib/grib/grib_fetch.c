/* grib_fetch.c: a voyage GRIB's forecast files walked message by message
 * with small Range requests, and the messages wanted fetched whole, in
 * rounds of parallel requests; a storage host that ignores a Range gives the
 * whole file, which is walked and read from there. */
#include "grib_int.h"

#include "diskcache_io.h"
#include "http_core.h"
#include "seawx/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parts of one file asked for in one request, at most (Apache answers 200
 * ranges; a Range header of 64 stays under 1.5 kB). */
#define MAX_RANGES 64

typedef struct req_ud {
    gfile *f;
    gmsg *m;     /* the fetch of one message; NULL: a step of the walk */
    size_t part; /* the part of m asked for (grib_partial.c); NO_PART: all */
    /* several parts of f in one request: part ps[k] of message ms[k] */
    size_t n;
    gmsg *ms[MAX_RANGES];
    size_t ps[MAX_RANGES];
    int64_t ranges[2 * MAX_RANGES];
} req_ud;
#define NO_PART ((size_t)-1)

static int whole_file(gjob *j, gfile *f, const uint8_t *body, size_t len)
{
    /* The storage host ignored the Range: this is the file. Walk it here. */
    j->res.range_ignored = 1;
    for (size_t i = 0; i < f->n; i++) {
        free(f->msgs[i].head);
        free(f->msgs[i].data);
    }
    f->n = 0;
    free(f->whole);
    if (!(f->whole = malloc(len ? len : 1)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    memcpy(f->whole, body, len);
    f->whole_len = len;
    uint64_t off = 0;
    while (off < len) {
        swx_grib_head h;
        uint64_t need;
        size_t rest = len - (size_t)off;
        int rc = swx_grib_head_read(&h, &need, body + off, rest, f->id);
        if (rc == 1 || (rc == 0 && h.length > rest))
            return swx_error_set(SWX_ESERVICE, "%s: the file ends inside a message", f->id);
        if (rc)
            return rc == SWX_EPARSE ? SWX_ESERVICE : rc;
        size_t hl = rest < SWX_GRIB_HEAD_BYTES ? rest : SWX_GRIB_HEAD_BYTES;
        if ((rc = swx__grib_file_push(f, off, &h, body + off, hl)))
            return rc;
        off += h.length;
    }
    if (f->n == 0)
        return swx_error_set(SWX_ESERVICE, "%s: an empty file", f->id);
    f->size = (int64_t)len;
    f->next = len;
    f->walked = 1;
    j->progress_done++;
    return swx__grib_index_put(j, f);
}

static int walk_step(gjob *j, gfile *f, const swx_response *r)
{
    const uint8_t *body = (const uint8_t *)r->body;
    if (r->range_start < 0)
        return whole_file(j, f, body, r->len);
    if ((uint64_t)r->range_start != f->next || r->range_total <= 0)
        return swx_error_set(SWX_ESERVICE,
                             "%s: storage answered bytes from %lld for a range from %llu", f->id,
                             (long long)r->range_start, (unsigned long long)f->next);
    f->size = r->range_total;
    swx_grib_head h;
    uint64_t need;
    int rc = swx_grib_head_read(&h, &need, body, r->len, f->id);
    if (rc < 0)
        return rc == SWX_EPARSE ? SWX_ESERVICE : rc;
    if (rc == 1) {
        if (need <= r->len || f->next + need > (uint64_t)f->size)
            return swx_error_set(SWX_ESERVICE, "%s: the file ends inside a message", f->id);
        f->ask = need;
        return 0;
    }
    if (f->next + h.length > (uint64_t)f->size)
        return swx_error_set(SWX_ESERVICE, "%s: a message runs past the end of the file", f->id);
    if ((rc = swx__grib_file_push(f, f->next, &h, body, r->len)))
        return rc;
    f->next += h.length;
    f->ask = SWX_GRIB_HEAD_BYTES;
    if (f->next == (uint64_t)f->size) {
        f->walked = 1;
        j->progress_done++;
        return swx__grib_index_put(j, f);
    }
    return 0;
}

/* The storage host ignored the Range and sent the file: every message
 * wanted whole and every part still wanted of it come from here. */
static int from_whole_file(gjob *j, gfile *f, const swx_response *r)
{
    const uint8_t *body = (const uint8_t *)r->body;
    if (r->len != (uint64_t)f->size && f->size >= 0)
        return swx_error_set(SWX_ESERVICE, "%s: storage answered %zu bytes for a file of %lld",
                             f->id, r->len, (long long)f->size);
    j->res.range_ignored = 1;
    for (size_t i = 0; i < f->n; i++) {
        gmsg *o = &f->msgs[i];
        if (!o->wanted || o->data || o->is_cut)
            continue;
        if (o->off + o->h.length > r->len ||
            !swx_grib_message_whole(body + o->off, (size_t)o->h.length))
            return swx_error_set(SWX_ESERVICE, "%s: the file changed on storage", f->id);
        if (!(o->data = malloc((size_t)o->h.length)))
            return swx_error_set(SWX_ENOMEM, "out of memory");
        memcpy(o->data, body + o->off, (size_t)o->h.length);
        int rc = j->building ? swx__grib_cut_msg(j, f, o) : 0;
        if (rc)
            return rc;
    }
    return swx__grib_parts_from_file(j, f, body, r->len);
}

static int fetch_done_msg(gjob *j, gfile *f, gmsg *m, const swx_response *r)
{
    const uint8_t *body = (const uint8_t *)r->body;
    if ((uint64_t)r->range_start != m->off || r->len != m->h.length)
        return swx_error_set(SWX_ESERVICE,
                             "%s: storage answered %zu bytes from %lld for the message of %llu "
                             "bytes at %llu",
                             f->id, r->len, (long long)r->range_start,
                             (unsigned long long)m->h.length, (unsigned long long)m->off);
    if (!swx_grib_message_whole(body, r->len))
        return swx_error_set(SWX_ESERVICE, "%s: the message at %llu is not a whole GRIB2 message",
                             f->id, (unsigned long long)m->off);
    if (m->data || m->is_cut)
        return 0;
    if (!(m->data = malloc(r->len)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    memcpy(m->data, body, r->len);
    char key[400];
    if (j->o.cache && swx__grib_msg_key(key, sizeof key, f, m) == 0 &&
        swx_diskcache_put(j->o.cache, key, m->data, r->len) != 0)
        swx_error_clear();
    return j->building ? swx__grib_cut_msg(j, f, m) : 0;
}

/* The producer and consumer of one round. A walk round asks each file not
 * walked yet for its next head; a fetch round asks for each wanted message
 * not held yet. */
typedef struct fround {
    gjob *j;
    int fetch;
    size_t fi, mi, pi;
    req_ud *uds;
    size_t nuds, cap;
    char **paths;
} fround;

/* A request for file f: its path kept for the round, req cleared. */
static int file_request(fround *r, gfile *f, swx_request *req)
{
    char *path = malloc(strlen(f->id) + 32);
    if (!path)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    sprintf(path, "/forecast/file/%s", f->id);
    r->paths[r->nuds++] = path;
    memset(req, 0, sizeof *req);
    req->path = path;
    return 0;
}

/* Into u, from the round's cursor on, the parts of f's messages fetched in
 * parts that are not here yet, up to most; the cursor moves past them. */
static void gather(fround *r, gfile *f, req_ud *u, size_t most)
{
    while (r->mi < f->n && u->n < most) {
        gmsg *m = &f->msgs[r->mi];
        if (!m->nparts || m->is_cut) {
            if (m->wanted && !m->data && !m->is_cut && !m->nparts)
                return; /* a whole message: a request of its own */
            r->mi++;
            continue;
        }
        while (r->pi < m->nparts && u->n < most) {
            if (!m->parts[r->pi].done) {
                u->ms[u->n] = m;
                u->ps[u->n++] = r->pi;
            }
            r->pi++;
        }
        if (r->pi == m->nparts) {
            r->mi++;
            r->pi = 0;
        }
    }
}

/* One request for u's parts of f (several byte ranges). */
static int several(fround *r, gfile *f, req_ud *u, swx_request *req, void **user)
{
    u->f = f;
    u->m = NULL;
    u->part = NO_PART;
    for (size_t k = 0; k < u->n; k++) {
        const gpart *p = &u->ms[k]->parts[u->ps[k]];
        u->ranges[2 * k] = (int64_t)(u->ms[k]->off + p->off);
        u->ranges[2 * k + 1] = (int64_t)(u->ms[k]->off + p->off + p->len - 1);
    }
    int rc = file_request(r, f, req);
    if (rc)
        return rc;
    req->ranges = u->ranges;
    req->nranges = u->n;
    *user = u;
    return 1;
}

/* The answer to a request of several parts: each part sent is taken; the
 * ones storage left out (or all, when it began the whole file) stay wanted,
 * and the job asks for parts one at a time from then on. */
static int several_done(gjob *j, req_ud *u, const swx_response *resp)
{
    size_t missing = 0;
    for (size_t k = 0; k < u->n; k++) {
        const gpart *p = &u->ms[k]->parts[u->ps[k]];
        if (k >= resp->nparts || !resp->parts[k]) {
            missing++;
            continue;
        }
        j->res.fetched += (int64_t)p->len;
        j->progress_done++;
        int rc = swx__grib_part_take(j, u->f, u->ms[k], u->ps[k], (const uint8_t *)resp->parts[k]);
        if (rc)
            return rc;
    }
    if (missing) {
        j->one_range = 1;
        j->res.ranges_one_by_one = 1;
    }
    return 0;
}

static int round_next(void *ud, swx_request *req, void **user)
{
    fround *r = ud;
    gjob *j = r->j;
    while (r->fi < j->nfiles) {
        gfile *f = &j->files[r->fi];
        gmsg *m = NULL;
        size_t part = NO_PART;
        if (!r->fetch) {
            r->fi++;
            if (f->walked)
                continue;
        } else {
            if (f->whole || r->mi >= f->n) {
                r->fi++;
                r->mi = 0;
                continue;
            }
            m = &f->msgs[r->mi];
            if (m->nparts && !m->is_cut) {
                /* the file's parts not here yet: several in one request, or
                 * one a request from storage that does not answer several */
                if (r->nuds == r->cap)
                    return swx_error_set(SWX_ENOMEM, "out of memory");
                req_ud *u = &r->uds[r->nuds];
                u->n = 0;
                gather(r, f, u, j->one_range ? 1 : MAX_RANGES);
                if (u->n >= 2)
                    return several(r, f, u, req, user);
                if (u->n == 0)
                    continue;
                m = u->ms[0];
                part = u->ps[0];
            } else {
                r->mi++;
                r->pi = 0;
                if (!m->wanted || m->data || m->is_cut)
                    continue;
            }
        }
        if (r->nuds == r->cap)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        req_ud *u = &r->uds[r->nuds];
        u->f = f;
        u->m = m;
        u->part = part;
        u->n = 0;
        int rc = file_request(r, f, req);
        if (rc)
            return rc;
        if (m && part != NO_PART) {
            req->range_from = (int64_t)(m->off + m->parts[part].off);
            req->range_to = (int64_t)(m->off + m->parts[part].off + m->parts[part].len - 1);
        } else if (m) {
            req->range_from = (int64_t)m->off;
            req->range_to = (int64_t)(m->off + m->h.length - 1);
        } else {
            uint64_t end = f->next + (f->ask ? f->ask : SWX_GRIB_HEAD_BYTES);
            if (f->size > 0 && end > (uint64_t)f->size)
                end = (uint64_t)f->size;
            req->range_from = (int64_t)f->next;
            req->range_to = (int64_t)end - 1;
        }
        *user = u;
        return 1;
    }
    return 0;
}

static int round_done(void *ud, void *user, int rc, const swx_response *resp)
{
    fround *r = ud;
    gjob *j = r->j;
    req_ud *u = user;
    if (rc)
        return rc;
    if (u->n >= 2) {
        if ((rc = several_done(j, u, resp)))
            return rc;
        return swx__grib_report(j);
    }
    j->res.fetched += (int64_t)resp->len;
    if (!r->fetch) {
        if ((rc = walk_step(j, u->f, resp)))
            return rc;
    } else {
        if ((rc = resp->range_start < 0 ? from_whole_file(j, u->f, resp)
                  : u->part != NO_PART  ? swx__grib_part_done(j, u->f, u->m, u->part, resp)
                                        : fetch_done_msg(j, u->f, u->m, resp)))
            return rc;
        j->progress_done++;
    }
    return swx__grib_report(j);
}

int swx__grib_fetch_round(gjob *j, int fetch, size_t cap)
{
    fround r = {.j = j, .fetch = fetch, .cap = cap};
    r.uds = calloc(cap ? cap : 1, sizeof *r.uds);
    r.paths = calloc(cap ? cap : 1, sizeof *r.paths);
    int rc = r.uds && r.paths ? 0 : swx_error_set(SWX_ENOMEM, "out of memory");
    if (!rc) {
        swx_fetch_opts fo = {.max_in_flight = j->o.in_flight > 0 ? j->o.in_flight : 8,
                             .cancel = j->o.cancel};
        swx_fetch_stats st = {0};
        rc = swx_fetch_run(&st, j->c, &fo, round_next, round_done, &r);
        j->res.requests += st.requests;
    }
    for (size_t i = 0; i < r.nuds; i++)
        free(r.paths[i]);
    free(r.paths);
    free(r.uds);
    return rc;
}

int swx__grib_fetch_walk(gjob *j)
{
    size_t todo = 0;
    j->stage = "index";
    j->progress_done = 0;
    j->progress_total = j->nfiles;
    for (size_t i = 0; i < j->nfiles; i++) {
        swx__grib_index_get(j, &j->files[i]);
        if (j->files[i].walked)
            j->progress_done++;
        else
            todo++;
    }
    int rc = swx__grib_report(j);
    /* One request per file a round, as many rounds as a file has messages. */
    for (int guard = 0; !rc && todo; guard++) {
        if (guard > SWX_GRIB_MAX_ROUNDS)
            return swx_error_set(SWX_ESERVICE, "a forecast file of too many messages");
        if ((rc = swx__grib_fetch_round(j, 0, todo)))
            return rc;
        todo = 0;
        for (size_t i = 0; i < j->nfiles; i++)
            if (!j->files[i].walked)
                todo++;
    }
    return rc;
}

/* grib.c: a voyage GRIB (see seawx/grib.h): the plan (run, hours, region,
 * files), the walk of each file's messages with small Range requests, the
 * fetch of the messages wanted, the cache of both, and the build. */
#include "grib_priv.h"

#include "buf.h"
#include "diskcache_int.h"
#include "http_int.h"
#include "seawx/atomicfile.h"
#include "seawx/error.h"
#include "seawx/files.h"
#include "seawx/iso8601.h"
#include "seawx/table.h"
#include "seawx/voyage.h"

#include <bzlib.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOUR 3600
#define MAX_TIMES 512
#define MAX_REGIONS 16
/* The regions asked for when choosing the smallest that holds the area (the
 * service's regional files; docs/grib.md). A service that refuses the list
 * is asked for global files only. */
#define CANDIDATE_REGIONS "global,north-atlantic,europe,caribbean"
#define INDEX_MAGIC "SWXGI1\n"

typedef struct gmsg {
    uint64_t off;
    swx_grib_head h;
    uint8_t *head; /* the first bytes, as the walk read them (for the cache) */
    size_t head_len;
    int wanted;
    uint8_t *data;   /* the whole message once fetched */
    size_t data_len; /* its length: the message's, or the simply packed copy's */
    int simple;      /* data is the cache's simply packed copy of the field */
} gmsg;

typedef struct gfile {
    char *id;
    const char *bundle;
    size_t t; /* the valid time's index */
    int64_t size;
    gmsg *msgs;
    size_t n, cap;
    int walked;
    uint64_t next;  /* where the walk goes on */
    uint64_t ask;   /* bytes to ask for there */
    uint8_t *whole; /* the whole file, when storage ignored a Range */
    size_t whole_len;
} gfile;

typedef struct gtime {
    int64_t valid;
    int fh;
    swx_area *area; /* NULL: every point (the box cut) */
    ggrid grid;
} gtime;

typedef struct gjob {
    swx_client *c;
    const swx_grib_spec *spec;
    swx_grib_opts o;
    const gparam *params[GRIB_MAX_PARAMS];
    size_t nparams;
    const char *bundles[4];
    size_t nbundles;
    double grid;
    gtime times[MAX_TIMES];
    size_t ntimes;
    gfile *files;
    size_t nfiles, files_cap;
    swx_grib_result res;
    /* fetch rounds */
    size_t cursor, sub;
    int round_rc;
    size_t progress_done, progress_total;
    const char *stage;
} gjob;

/* ---- small helpers ---- */

static int cancelled(gjob *j)
{
    if (j->o.cancel && *j->o.cancel)
        return swx_error_set(SWX_ECANCEL, "interrupted");
    return 0;
}

static int report(gjob *j)
{
    if (j->o.progress && j->o.progress(j->o.ud, j->stage, j->progress_done, j->progress_total))
        return swx_error_set(SWX_ECANCEL, "interrupted");
    return cancelled(j);
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static int push_msg(gfile *f, uint64_t off, const swx_grib_head *h, const uint8_t *head,
                    size_t head_len)
{
    gmsg *msgs = swx_array_reserve(f->msgs, &f->cap, f->n + 1, sizeof *msgs, 8);
    if (!msgs)
        return SWX_ENOMEM;
    f->msgs = msgs;
    gmsg *m = &f->msgs[f->n];
    memset(m, 0, sizeof *m);
    m->off = off;
    m->h = *h;
    if (head_len > h->length)
        head_len = (size_t)h->length;
    if (!(m->head = malloc(head_len ? head_len : 1)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    memcpy(m->head, head, head_len);
    m->head_len = head_len;
    f->n++;
    return 0;
}

static void file_clear(gfile *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->msgs[i].head);
        free(f->msgs[i].data);
    }
    free(f->msgs);
    free(f->whole);
    free(f->id);
}

/* ---- the index cache: a file's message heads ----
 * "SWXGI1\n", the file's size (8 bytes), then per message its offset (8),
 * the length of its head (8) and the head's bytes; each head is read again
 * by the section walker, so an entry is checked as a fetched answer is. */

static int index_key(char *key, size_t n, const gfile *f)
{
    return snprintf(key, n, "seawx-grib-index 1 %s", f->id) < (int)n ? 0 : -1;
}

static int index_put(gjob *j, const gfile *f)
{
    if (!j->o.cache)
        return 0;
    size_t len = sizeof INDEX_MAGIC - 1 + 8;
    for (size_t i = 0; i < f->n; i++)
        len += 16 + f->msgs[i].head_len;
    uint8_t *b = malloc(len), *p = b;
    if (!b)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    memcpy(p, INDEX_MAGIC, sizeof INDEX_MAGIC - 1);
    p += sizeof INDEX_MAGIC - 1;
    put_u64(p, (uint64_t)f->size);
    p += 8;
    for (size_t i = 0; i < f->n; i++) {
        put_u64(p, f->msgs[i].off);
        put_u64(p + 8, f->msgs[i].head_len);
        memcpy(p + 16, f->msgs[i].head, f->msgs[i].head_len);
        p += 16 + f->msgs[i].head_len;
    }
    char key[400];
    int rc = index_key(key, sizeof key, f) ? 0 : swx_diskcache_put(j->o.cache, key, b, len);
    free(b);
    /* A cache that cannot be written costs a second fetch, not the build. */
    if (rc && rc != SWX_ENOMEM) {
        swx_error_clear();
        rc = 0;
    }
    return rc;
}

/* Reads a cached index into f (which holds no messages yet). */
static int index_read(gfile *f, const uint8_t *b, size_t len)
{
    size_t m = sizeof INDEX_MAGIC - 1;
    if (len < m + 8 || memcmp(b, INDEX_MAGIC, m) != 0)
        return swx_error_set(SWX_EPARSE, "a damaged cache entry");
    uint64_t size = get_u64(b + m), next = 0;
    size_t off = m + 8;
    while (off < len) {
        if (len - off < 16)
            return swx_error_set(SWX_EPARSE, "a damaged cache entry");
        uint64_t at = get_u64(b + off), hl = get_u64(b + off + 8);
        off += 16;
        if (hl > len - off || at != next)
            return swx_error_set(SWX_EPARSE, "a damaged cache entry");
        swx_grib_head h;
        uint64_t need;
        int rc = swx_grib_head_read(&h, &need, b + off, (size_t)hl, "a cache entry");
        if (rc != 0)
            return rc < 0 ? rc : swx_error_set(SWX_EPARSE, "a damaged cache entry");
        if ((rc = push_msg(f, at, &h, b + off, (size_t)hl)))
            return rc;
        next = at + h.length;
        off += (size_t)hl;
    }
    if (next != size || size > INT64_MAX)
        return swx_error_set(SWX_EPARSE, "a damaged cache entry");
    f->size = (int64_t)size;
    f->next = next;
    f->walked = 1;
    return 0;
}

static void index_get(gjob *j, gfile *f)
{
    char key[400];
    void *data = NULL;
    size_t len = 0;
    if (!j->o.cache || index_key(key, sizeof key, f) ||
        swx_diskcache_get(&data, &len, j->o.cache, key) != 0) {
        swx_error_clear();
        return;
    }
    if (index_read(f, data, len) != 0) {
        /* Not used: the file is walked again and the entry replaced. */
        for (size_t i = 0; i < f->n; i++)
            free(f->msgs[i].head);
        f->n = 0;
        f->walked = 0;
        f->next = 0;
        f->size = -1;
        swx_error_clear();
    }
    free(data);
}

/* The key of a field's simply packed copy (grib_cut.c), which the cache
 * keeps beside the message as fetched: a later cut decodes it several times
 * faster than the service's complex packing. */
static int field_key(char *key, size_t n, const gfile *f, const gmsg *m)
{
    return snprintf(key, n, "seawx-grib-field 1 %s %llu %llu", f->id, (unsigned long long)m->off,
                    (unsigned long long)m->h.length) < (int)n
               ? 0
               : -1;
}

static int msg_key(char *key, size_t n, const gfile *f, const gmsg *m)
{
    return snprintf(key, n, "seawx-grib-message 1 %s %llu %llu", f->id, (unsigned long long)m->off,
                    (unsigned long long)m->h.length) < (int)n
               ? 0
               : -1;
}

/* ---- walking and fetching: rounds of parallel requests ---- */

typedef struct req_ud {
    gfile *f;
    gmsg *m; /* the fetch of one message; NULL: a step of the walk */
} req_ud;

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
        if ((rc = push_msg(f, off, &h, body + off, hl)))
            return rc;
        off += h.length;
    }
    if (f->n == 0)
        return swx_error_set(SWX_ESERVICE, "%s: an empty file", f->id);
    f->size = (int64_t)len;
    f->next = len;
    f->walked = 1;
    j->progress_done++;
    return index_put(j, f);
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
    if ((rc = push_msg(f, f->next, &h, body, r->len)))
        return rc;
    f->next += h.length;
    f->ask = SWX_GRIB_HEAD_BYTES;
    if (f->next == (uint64_t)f->size) {
        f->walked = 1;
        j->progress_done++;
        return index_put(j, f);
    }
    return 0;
}

static int fetch_done_msg(gjob *j, gfile *f, gmsg *m, const swx_response *r)
{
    const uint8_t *body = (const uint8_t *)r->body;
    if (r->range_start < 0) {
        if (r->len != (uint64_t)f->size && f->size >= 0)
            return swx_error_set(SWX_ESERVICE, "%s: storage answered %zu bytes for a file of %lld",
                                 f->id, r->len, (long long)f->size);
        /* Whole file: every wanted message of it comes from here. */
        j->res.range_ignored = 1;
        for (size_t i = 0; i < f->n; i++) {
            gmsg *o = &f->msgs[i];
            if (!o->wanted || o->data)
                continue;
            if (o->off + o->h.length > r->len ||
                !swx_grib_message_whole(body + o->off, (size_t)o->h.length))
                return swx_error_set(SWX_ESERVICE, "%s: the file changed on storage", f->id);
            if (!(o->data = malloc((size_t)o->h.length)))
                return swx_error_set(SWX_ENOMEM, "out of memory");
            memcpy(o->data, body + o->off, (size_t)o->h.length);
        }
        return 0;
    }
    if ((uint64_t)r->range_start != m->off || r->len != m->h.length)
        return swx_error_set(SWX_ESERVICE,
                             "%s: storage answered %zu bytes from %lld for the message of %llu "
                             "bytes at %llu",
                             f->id, r->len, (long long)r->range_start,
                             (unsigned long long)m->h.length, (unsigned long long)m->off);
    if (!swx_grib_message_whole(body, r->len))
        return swx_error_set(SWX_ESERVICE, "%s: the message at %llu is not a whole GRIB2 message",
                             f->id, (unsigned long long)m->off);
    if (m->data)
        return 0;
    if (!(m->data = malloc(r->len)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    memcpy(m->data, body, r->len);
    char key[400];
    if (j->o.cache && msg_key(key, sizeof key, f, m) == 0 &&
        swx_diskcache_put(j->o.cache, key, m->data, r->len) != 0)
        swx_error_clear();
    return 0;
}

/* The producer and consumer of one round. A walk round asks each file not
 * walked yet for its next head; a fetch round asks for each wanted message
 * not held yet. */
typedef struct fround {
    gjob *j;
    int fetch;
    size_t fi, mi;
    req_ud *uds;
    size_t nuds, cap;
    char **paths;
} fround;

static int round_next(void *ud, swx_request *req, void **user)
{
    fround *r = ud;
    gjob *j = r->j;
    while (r->fi < j->nfiles) {
        gfile *f = &j->files[r->fi];
        gmsg *m = NULL;
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
            m = &f->msgs[r->mi++];
            if (!m->wanted || m->data)
                continue;
        }
        if (r->nuds == r->cap)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        req_ud *u = &r->uds[r->nuds];
        u->f = f;
        u->m = m;
        char *path = malloc(strlen(f->id) + 32);
        if (!path)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        sprintf(path, "/forecast/file/%s", f->id);
        r->paths[r->nuds++] = path;
        memset(req, 0, sizeof *req);
        req->path = path;
        if (m) {
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
    j->res.fetched += (int64_t)resp->len;
    if (!r->fetch) {
        if ((rc = walk_step(j, u->f, resp)))
            return rc;
    } else {
        if ((rc = fetch_done_msg(j, u->f, u->m, resp)))
            return rc;
        j->progress_done++;
    }
    return report(j);
}

static int run_round(gjob *j, int fetch, size_t cap)
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

static int walk_all(gjob *j)
{
    size_t todo = 0;
    j->stage = "index";
    j->progress_done = 0;
    j->progress_total = j->nfiles;
    for (size_t i = 0; i < j->nfiles; i++) {
        index_get(j, &j->files[i]);
        if (j->files[i].walked)
            j->progress_done++;
        else
            todo++;
    }
    int rc = report(j);
    /* One request per file a round, as many rounds as a file has messages. */
    for (int guard = 0; !rc && todo; guard++) {
        if (guard > 100000)
            return swx_error_set(SWX_ESERVICE, "a forecast file of too many messages");
        if ((rc = run_round(j, 0, todo)))
            return rc;
        todo = 0;
        for (size_t i = 0; i < j->nfiles; i++)
            if (!j->files[i].walked)
                todo++;
    }
    return rc;
}

/* ---- planning ---- */

static int bundle_index(const gjob *j, const char *b)
{
    for (size_t i = 0; i < j->nbundles; i++)
        if (strcmp(j->bundles[i], b) == 0)
            return (int)i;
    return -1;
}

typedef struct listing {
    swx_table *t;
    long c_name, c_time, c_region, c_bundle, c_fh;
} listing;

static int list_files(listing *l, gjob *j)
{
    char bundles[128] = "";
    for (size_t i = 0; i < j->nbundles; i++) {
        strcat(bundles, i ? "," : "");
        strcat(bundles, j->bundles[i]);
    }
    swx_files_query q = {.source = SWX_FILES_FORECAST, .bundles = bundles};
    q.regions = j->spec->region ? j->spec->region : CANDIDATE_REGIONS;
    int rc = swx_files_list(&l->t, j->c, &q);
    if (rc == SWX_EHTTP && !j->spec->region) {
        /* A service that knows none of the other regions: global only. */
        swx_error_clear();
        q.regions = "global";
        rc = swx_files_list(&l->t, j->c, &q);
    }
    j->res.requests++;
    if (rc)
        return rc;
    l->c_name = swx_table_find_column(l->t, "name");
    l->c_time = swx_table_find_column(l->t, "time");
    l->c_region = swx_table_find_column(l->t, "region");
    l->c_bundle = swx_table_find_column(l->t, "bundle");
    l->c_fh = swx_table_find_column(l->t, "forecast_hour");
    if (l->c_name < 0 || l->c_time < 0 || l->c_region < 0 || l->c_bundle < 0 || l->c_fh < 0)
        return swx_error_set(SWX_ESERVICE, "the forecast file listing lacks a column");
    return 0;
}

/* The row of (run, region, bundle, hour), or -1. */
static long find_row(const listing *l, int64_t run, const char *region, const char *bundle, int fh)
{
    size_t n = swx_table_rows(l->t);
    for (size_t r = 0; r < n; r++) {
        if (swx_table_is_null(l->t, r, (size_t)l->c_time) ||
            swx_table_is_null(l->t, r, (size_t)l->c_fh) ||
            swx_table_is_null(l->t, r, (size_t)l->c_region) ||
            swx_table_is_null(l->t, r, (size_t)l->c_bundle))
            continue;
        if (swx_table_get_time(l->t, r, (size_t)l->c_time) == run &&
            swx_table_get_int(l->t, r, (size_t)l->c_fh) == fh &&
            strcmp(swx_table_get_string(l->t, r, (size_t)l->c_region), region) == 0 &&
            strcmp(swx_table_get_string(l->t, r, (size_t)l->c_bundle), bundle) == 0)
            return (long)r;
    }
    return -1;
}

/* Whether every bundle has hour fh in the region. */
static int hour_listed(const gjob *j, const listing *l, int64_t run, const char *region, int fh)
{
    for (size_t b = 0; b < j->nbundles; b++)
        if (find_row(l, run, region, j->bundles[b], fh) < 0)
            return 0;
    return 1;
}

static int parse_hours(int *hours, size_t *n, const char *text, int step)
{
    /* "A-B" (every step hours) or "H,H,H" */
    *n = 0;
    const char *p = text;
    char *end;
    long a = strtol(p, &end, 10);
    if (end != p && *end == '-' && a >= 0) {
        long b = strtol(end + 1, &end, 10);
        if (*end || b < a || b > 100000)
            return swx_error_set(SWX_EINVAL, "hours '%.40s': use A-B or H,H,H (0-120, 0,24,48)",
                                 text);
        for (long h = a; h <= b && *n < MAX_TIMES; h += step)
            hours[(*n)++] = (int)h;
        return 0;
    }
    while (*p) {
        long h = strtol(p, &end, 10);
        if (end == p || h < 0 || h > 100000 || (*end && *end != ',') ||
            (*n && h <= hours[*n - 1]) || *n >= MAX_TIMES)
            return swx_error_set(
                SWX_EINVAL, "hours '%.40s': use A-B or increasing H,H,H (0-120, 0,24,48)", text);
        hours[(*n)++] = (int)h;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return swx_error_set(SWX_EINVAL, "hours '%.40s' end with a comma", text);
    }
    if (*n == 0)
        return swx_error_set(SWX_EINVAL, "no hours given");
    return 0;
}

/* The grid of an area: its bounds snapped outwards to the grid's nodes. */
static int grid_of(ggrid *g, double w, double s, double e, double n, double step)
{
    if (e < w)
        e += 360;
    double eps = 1e-9;
    double lon0 = floor(w / step + eps) * step, lon1 = ceil(e / step - eps) * step;
    double lat0 = ceil(n / step - eps) * step, lat1 = floor(s / step + eps) * step;
    if (lat0 > 90)
        lat0 = floor(90 / step + eps) * step;
    if (lat1 < -90)
        lat1 = ceil(-90 / step - eps) * step;
    if (lon1 - lon0 > 360 - step)
        lon1 = lon0 + 360 - step;
    g->lon0 = lon0;
    g->lat0 = lat0;
    g->step = step;
    g->ni = (uint32_t)lround((lon1 - lon0) / step) + 1;
    g->nj = (uint32_t)lround((lat0 - lat1) / step) + 1;
    if ((uint64_t)g->ni * g->nj > (16u << 20))
        return swx_error_set(SWX_ETOOBIG,
                             "a grid of %u x %u points: take a coarser grid or a "
                             "smaller area",
                             g->ni, g->nj);
    return 0;
}

static void grid_bounds(const ggrid *g, double *w, double *s, double *e, double *n)
{
    *w = g->lon0;
    *e = g->lon0 + (g->ni - 1) * g->step;
    *n = g->lat0;
    *s = g->lat0 - (g->nj - 1) * g->step;
}

/* Whether the file grid h holds grid g's nodes, and they fall on its nodes. */
static int holds(const swx_grib_head *h, const ggrid *g)
{
    if (h->grid_template != 0 || h->di <= 0 || h->dj <= 0 || h->ni == 0 || h->nj == 0)
        return 0;
    double w, s, e, n;
    grid_bounds(g, &w, &s, &e, &n);
    double top = h->lat1 > h->lat2 ? h->lat1 : h->lat2, bot = h->lat1 > h->lat2 ? h->lat2 : h->lat1;
    double eps = 1e-6;
    if (n > top + eps || s < bot - eps)
        return 0;
    if (h->ni * h->di >= 360 - h->di / 2)
        return 1;
    double from = fmod(w - h->lon1 + 720.0, 360.0);
    return from + (e - w) <= (h->ni - 1) * h->di + eps;
}

/* 1 when a grid of step degrees takes every k-th node of a file grid of
 * spacing d (k >= 1). */
static int multiple_of(double step, double d)
{
    double r = step / d;
    return fabs(r - lround(r)) <= 1e-6 && lround(r) >= 1;
}

static int spacing_refused(const gjob *j, double d)
{
    return swx_error_set(SWX_EINVAL,
                         "a grid of %g degrees is not a multiple of the forecast files' "
                         "spacing (%g degrees)",
                         j->grid, d);
}

static int spacing_ok(gjob *j, const swx_grib_head *h)
{
    if (!multiple_of(j->grid, h->di) || !multiple_of(j->grid, h->dj))
        return spacing_refused(j, h->di);
    return 0;
}

/* The grid spacing a file's name gives ("sof-d.20241001.t06z.0p25.basic.
 * global.f000.grib2": 0.25 degrees, as the service names its files), 0 when
 * the name gives none: read from the listing, it lets a grid that fits no
 * file be refused before any file is read. */
static double name_spacing(const char *name)
{
    for (const char *p = name; p && *p; p = strchr(p, '.'), p = p ? p + 1 : NULL) {
        size_t n = strcspn(p, ".");
        const char *q = memchr(p, 'p', n);
        if (!q || q == p || q + 1 == p + n || strspn(p, "0123456789") != (size_t)(q - p) ||
            strspn(q + 1, "0123456789") != (size_t)(p + n - q - 1))
            continue;
        char num[32];
        if (n >= sizeof num)
            continue;
        memcpy(num, p, n);
        num[n] = 0;
        num[q - p] = '.';
        return strtod(num, NULL);
    }
    return 0;
}

static int add_file(gjob *j, const char *id, const char *bundle, size_t t)
{
    gfile *f = swx_array_reserve(j->files, &j->files_cap, j->nfiles + 1, sizeof *f, 8);
    if (!f)
        return SWX_ENOMEM;
    j->files = f;
    f = &j->files[j->nfiles];
    memset(f, 0, sizeof *f);
    f->size = -1;
    f->bundle = bundle;
    f->t = t;
    if (!(f->id = strdup(id)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    j->nfiles++;
    return 0;
}

static int times_of_voyage(gjob *j, const listing *l, int64_t run, const char *region)
{
    const swx_voyage *v = j->spec->voyage;
    int64_t depart;
    double arrival;
    int rc = swx_voyage_span(&depart, &arrival, v);
    if (rc)
        return rc;
    int hours[MAX_TIMES];
    int64_t valid[MAX_TIMES];
    size_t n = 0;
    int last = -1;
    for (int fh = 0; fh <= 100000 && n<MAX_TIMES; fh += j->spec->step_h> 0
                         ? j->spec->step_h
                         : SWX_GRIB_DEFAULT_STEP) {
        if (!hour_listed(j, l, run, region, fh)) {
            /* hours past the last listed end the run */
            int later = 0;
            for (size_t r = 0; r < swx_table_rows(l->t) && !later; r++)
                later = swx_table_get_time(l->t, r, (size_t)l->c_time) == run &&
                        swx_table_get_int(l->t, r, (size_t)l->c_fh) > fh;
            if (!later)
                break;
            continue;
        }
        hours[n] = fh;
        valid[n++] = run + (int64_t)fh * HOUR;
        last = fh;
    }
    if (n == 0)
        return swx_error_set(SWX_ENOTFOUND,
                             "no forecast hour of the run is listed for every bundle");
    if (valid[n - 1] < depart)
        return swx_error_set(SWX_EINVAL,
                             "the voyage departs after the run's last forecast hour (%d)", last);
    int64_t until =
        j->spec->max_hours > 0 ? depart + (int64_t)j->spec->max_hours * HOUR : INT64_MAX;
    j->res.ends_early = arrival > (double)valid[n - 1] && until > valid[n - 1];
    for (size_t i = 0; i < n && valid[i] <= until; i++) {
        double from, to;
        if ((rc = swx_voyage_stretch(&from, &to, v, valid, n, i)) < 0)
            return rc;
        if (rc == 0)
            continue;
        /* times before departure are worth one frame: the last of them */
        if (i + 1 < n && valid[i + 1] <= depart)
            continue;
        /* a window already over */
        if (j->spec->now && i + 1 < n && (valid[i] + valid[i + 1]) / 2 < j->spec->now)
            continue;
        gtime *t = &j->times[j->ntimes];
        memset(t, 0, sizeof *t);
        t->valid = valid[i];
        t->fh = hours[i];
        if ((rc = swx_voyage_area(&t->area, v, valid, n, i, j->spec->buffer_m)))
            return rc;
        if (!t->area)
            continue;
        j->ntimes++;
    }
    return 0;
}

static int times_of_box(gjob *j, const listing *l, int64_t run, const char *region)
{
    int step = j->spec->step_h > 0 ? j->spec->step_h : SWX_GRIB_DEFAULT_STEP;
    int hours[MAX_TIMES];
    size_t n = 0;
    int max_listed = -1;
    for (size_t r = 0; r < swx_table_rows(l->t); r++)
        if (swx_table_get_time(l->t, r, (size_t)l->c_time) == run) {
            int fh = (int)swx_table_get_int(l->t, r, (size_t)l->c_fh);
            max_listed = fh > max_listed ? fh : max_listed;
        }
    int rc;
    if (j->spec->hours) {
        if ((rc = parse_hours(hours, &n, j->spec->hours, step)))
            return rc;
    } else {
        for (int fh = 0; fh <= max_listed && n < MAX_TIMES; fh += step)
            hours[n++] = fh;
    }
    for (size_t i = 0; i < n; i++) {
        if (hours[i] > max_listed)
            return swx_error_set(SWX_EINVAL, "hour %d is past the run's last forecast hour (%d)",
                                 hours[i], max_listed);
        if (!hour_listed(j, l, run, region, hours[i])) {
            if (j->spec->hours)
                return swx_error_set(SWX_ENOTFOUND,
                                     "hour %d of the run is not listed for every bundle", hours[i]);
            continue;
        }
        gtime *t = &j->times[j->ntimes];
        memset(t, 0, sizeof *t);
        t->valid = run + (int64_t)hours[i] * HOUR;
        t->fh = hours[i];
        if ((rc = swx_area_from_bbox(&t->area, j->spec->west, j->spec->south, j->spec->east,
                                     j->spec->north)))
            return rc;
        j->ntimes++;
    }
    return 0;
}

/* The head of a region's first file: its grid. */
static int region_grid(swx_grib_head *h, gjob *j, const char *id)
{
    gfile f = {0};
    f.size = -1;
    if (!(f.id = strdup(id)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    gjob sub = *j;
    sub.files = &f;
    sub.nfiles = 1;
    sub.o.progress = NULL;
    int rc = 0;
    index_get(&sub, &f);
    /* walked whole, so that its index is cached like any other file's */
    while (!rc && !f.walked)
        rc = run_round(&sub, 0, 1);
    j->res.fetched = sub.res.fetched;
    j->res.requests = sub.res.requests;
    j->res.range_ignored |= sub.res.range_ignored;
    if (!rc && f.n == 0)
        rc = swx_error_set(SWX_ESERVICE, "%s: no message", id);
    if (!rc)
        *h = f.msgs[0].h;
    file_clear(&f);
    return rc;
}

/* The spec's own rules: variables, edition, grid, hours and the box or
 * voyage. */
static int check_spec(gjob *j)
{
    const swx_grib_spec *s = j->spec;
    int rc = swx__grib_params(j->params, &j->nparams, s->vars);
    if (rc)
        return rc;
    if (s->edition != 0 && s->edition != 1 && s->edition != 2)
        return swx_error_set(SWX_EINVAL, "GRIB edition %d: 1 or 2", s->edition);
    for (size_t i = 0; i < j->nparams; i++) {
        if (s->edition == 1 && !j->params[i]->g1_param)
            return swx_error_set(
                SWX_EINVAL, "%s has no code in GRIB1's WMO table: write it as GRIB2 (edition 2)",
                j->params[i]->label);
        if (bundle_index(j, j->params[i]->bundle) < 0)
            j->bundles[j->nbundles++] = j->params[i]->bundle;
    }
    j->grid = s->grid_deg > 0 ? s->grid_deg : SWX_GRIB_DEFAULT_GRID;
    if (j->grid < 0.01 || j->grid > 10)
        return swx_error_set(SWX_EINVAL, "a grid of %g degrees (0.01 to 10)", j->grid);
    if (s->max_hours < 0)
        return swx_error_set(SWX_EINVAL, "a negative number of hours after departure");
    if (s->step_h < 0 || s->step_h > 240)
        return swx_error_set(SWX_EINVAL, "a step of %d hours (1 to 240)", s->step_h);
    if (s->cut == SWX_GRIB_CUT_BOX) {
        if (!(s->south >= -90 && s->north <= 90 && s->south < s->north))
            return swx_error_set(SWX_EINVAL,
                                 "a box from latitude %g to %g: south must be below "
                                 "north, both within -90..90 (a box cannot cross a pole)",
                                 s->south, s->north);
        if (!(s->west >= -180 && s->west <= 360 && s->east >= -180 && s->east <= 360 &&
              s->west != s->east))
            return swx_error_set(SWX_EINVAL, "a box from longitude %g to %g", s->west, s->east);
    } else if (!s->voyage) {
        return swx_error_set(SWX_EINVAL, "a voyage GRIB needs a route (or a box)");
    } else if (s->hours) {
        return swx_error_set(SWX_EINVAL,
                             "hours go with a box; a voyage takes the hours it is at sea");
    }
    return 0;
}

/* The run: the one asked for, which must be listed, or the newest listed. */
static int pick_run(int64_t *out, const gjob *j, const listing *l)
{
    size_t rows = swx_table_rows(l->t);
    int64_t run = j->spec->run, newest = INT64_MIN;
    int found = 0;
    for (size_t r = 0; r < rows; r++) {
        if (swx_table_is_null(l->t, r, (size_t)l->c_time))
            continue;
        int64_t t = swx_table_get_time(l->t, r, (size_t)l->c_time);
        newest = t > newest ? t : newest;
        found |= t == run;
    }
    if (newest == INT64_MIN)
        return swx_error_set(SWX_ENOTFOUND, "no forecast file is listed for bundle %s",
                             j->bundles[0]);
    if (!run) {
        run = newest;
    } else if (!found) {
        char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
        swx_iso8601_format(a, run);
        swx_iso8601_format(b, newest);
        return swx_error_set(SWX_ENOTFOUND,
                             "no forecast file of the run of %s is listed (the "
                             "newest run: %s)",
                             a, b);
    }
    *out = run;
    return 0;
}

/* The regions listed for the run, at most MAX_REGIONS; returns how many. */
static size_t list_regions(const char **regions, const listing *l, int64_t run)
{
    size_t nreg = 0;
    size_t rows = swx_table_rows(l->t);
    for (size_t r = 0; r < rows && nreg < MAX_REGIONS; r++) {
        if (swx_table_get_time(l->t, r, (size_t)l->c_time) != run)
            continue;
        const char *reg = swx_table_get_string(l->t, r, (size_t)l->c_region);
        int dup = 0;
        for (size_t k = 0; k < nreg && !dup; k++)
            dup = strcmp(regions[k], reg) == 0;
        if (!dup)
            regions[nreg++] = reg;
    }
    return nreg;
}

/* The grids: per time (a window each), or one for all (the box, or the
 * route's). */
static int plan_grids(gjob *j)
{
    const swx_grib_spec *s = j->spec;
    int rc;
    double uw = 0, us = 90, ue = 0, un = -90;
    for (size_t i = 0; i < j->ntimes; i++) {
        double w, so, e, n;
        if (s->cut == SWX_GRIB_CUT_BOX) {
            /* the box as given (an area's bounds stop at Web Mercator's
             * latitudes) */
            w = s->west;
            so = s->south;
            e = s->east;
            n = s->north;
        } else {
            swx_area_bounds(&w, &so, &e, &n, j->times[i].area);
        }
        if (e < w)
            e += 360;
        if (i == 0) {
            uw = w;
            ue = e;
        } else {
            /* keep longitudes continuous with the first area */
            while (w < uw - 180)
                w += 360, e += 360;
            while (w > uw + 180)
                w -= 360, e -= 360;
            uw = w < uw ? w : uw;
            ue = e > ue ? e : ue;
        }
        us = so < us ? so : us;
        un = n > un ? n : un;
        if ((rc = grid_of(&j->times[i].grid, w, so, e, n, j->grid)))
            return rc;
    }
    if (s->cut != SWX_GRIB_CUT_WINDOW) {
        ggrid all;
        if ((rc = grid_of(&all, uw, us, ue, un, j->grid)))
            return rc;
        for (size_t i = 0; i < j->ntimes; i++)
            j->times[i].grid = all;
        if (s->cut == SWX_GRIB_CUT_BOX)
            for (size_t i = 0; i < j->ntimes; i++) {
                swx_area_free(j->times[i].area);
                j->times[i].area = NULL;
            }
    }
    return 0;
}

/* The region: the smallest whose grid holds every grid; *head is its grid's. */
static int pick_region(const char **out, swx_grib_head *head, gjob *j, const listing *l,
                       int64_t run, const char *const *regions, size_t nreg)
{
    int rc;
    *out = NULL;
    uint64_t best = UINT64_MAX;
    double misfit = 0; /* the spacing of a region left out for it */
    for (size_t k = 0; k < nreg; k++) {
        long row = find_row(l, run, regions[k], j->bundles[0], j->times[0].fh);
        if (row < 0)
            continue;
        const char *name = swx_table_get_string(l->t, (size_t)row, (size_t)l->c_name);
        double d = name_spacing(name);
        if (d > 0 && !multiple_of(j->grid, d)) {
            misfit = d;
            continue;
        }
        swx_grib_head h;
        if ((rc = region_grid(&h, j, name)))
            return rc;
        int ok = 1;
        for (size_t i = 0; i < j->ntimes && ok; i++)
            ok = holds(&h, &j->times[i].grid);
        if (ok && (uint64_t)h.ni * h.nj < best) {
            best = (uint64_t)h.ni * h.nj;
            *out = regions[k];
            *head = h;
        }
    }
    if (!*out && misfit > 0)
        return spacing_refused(j, misfit);
    if (!*out)
        return swx_error_set(SWX_ENOTFOUND, "no listed forecast region holds the whole area%s%s",
                             j->spec->region ? " in " : "", j->spec->region ? j->spec->region : "");
    return 0;
}

/* The result's bounds: every time's grid, longitudes continuous with the
 * first. */
static void result_bounds(gjob *j)
{
    ggrid *g0 = &j->times[0].grid;
    double w, so, e, n;
    grid_bounds(g0, &j->res.west, &j->res.south, &j->res.east, &j->res.north);
    for (size_t i = 1; i < j->ntimes; i++) {
        grid_bounds(&j->times[i].grid, &w, &so, &e, &n);
        while (w < j->res.west - 180)
            w += 360, e += 360;
        while (w > j->res.west + 180)
            w -= 360, e -= 360;
        j->res.west = w < j->res.west ? w : j->res.west;
        j->res.east = e > j->res.east ? e : j->res.east;
        j->res.south = so < j->res.south ? so : j->res.south;
        j->res.north = n > j->res.north ? n : j->res.north;
    }
}

static int plan(gjob *j)
{
    const swx_grib_spec *s = j->spec;
    int rc;
    if ((rc = check_spec(j)))
        return rc;
    listing l = {0};
    if ((rc = list_files(&l, j)))
        goto done;
    int64_t run = 0;
    if ((rc = pick_run(&run, j, &l)))
        goto done;
    j->res.run = run;
    const char *regions[MAX_REGIONS];
    size_t nreg = list_regions(regions, &l, run);
    const char *times_region = nreg ? regions[0] : "global";
    for (size_t k = 0; k < nreg; k++)
        if (strcmp(regions[k], "global") == 0)
            times_region = regions[k];
    rc = s->cut == SWX_GRIB_CUT_BOX ? times_of_box(j, &l, run, times_region)
                                    : times_of_voyage(j, &l, run, times_region);
    if (rc)
        goto done;
    if (j->ntimes == 0) {
        rc = swx_error_set(SWX_ENOTFOUND, "no forecast hour of the run falls in the voyage");
        goto done;
    }
    if ((rc = plan_grids(j)))
        goto done;
    const char *region = NULL;
    swx_grib_head best_head = {0};
    if ((rc = pick_region(&region, &best_head, j, &l, run, regions, nreg)))
        goto done;
    if ((rc = spacing_ok(j, &best_head)))
        goto done;
    snprintf(j->res.region, sizeof j->res.region, "%s", region);
    for (size_t i = 0; i < j->ntimes; i++)
        for (size_t b = 0; b < j->nbundles; b++) {
            long row = find_row(&l, run, region, j->bundles[b], j->times[i].fh);
            if (row < 0) {
                rc = swx_error_set(SWX_ENOTFOUND, "no %s file of hour %d in %s", j->bundles[b],
                                   j->times[i].fh, region);
                goto done;
            }
            if ((rc = add_file(j, swx_table_get_string(l.t, (size_t)row, (size_t)l.c_name),
                               j->bundles[b], i)))
                goto done;
        }
    j->res.times = j->ntimes;
    j->res.first = j->times[0].valid;
    j->res.last = j->times[j->ntimes - 1].valid;
    j->res.files = j->nfiles;
    result_bounds(j);
done:
    swx_table_free(l.t);
    return rc;
}

/* The message of parameter p in the time's file of p's bundle (NULL when
 * an accumulation is absent at hour 0). */
static int find_msg(gmsg **out, gfile **fout, gjob *j, size_t t, const gparam *p)
{
    *out = NULL;
    for (size_t i = 0; i < j->nfiles; i++) {
        gfile *f = &j->files[i];
        if (f->t != t || strcmp(f->bundle, p->bundle) != 0)
            continue;
        *fout = f;
        for (size_t k = 0; k < f->n; k++)
            if (swx__grib_is(p, &f->msgs[k].h)) {
                *out = &f->msgs[k];
                return 0;
            }
        if (p->accumulate && j->times[t].fh == 0)
            return 0;
        return swx_error_set(SWX_ENOTFOUND, "%s holds no %s", f->id, p->label);
    }
    return swx_error_set(SWX_ENOTFOUND, "no %s file for hour %d", p->bundle, j->times[t].fh);
}

/* Data representation templates ecCodes decodes (simple, complex, complex
 * with spatial differencing, IEEE, JPEG 2000, PNG, spectral, CCSDS, run
 * length): a message packed otherwise is refused before it is fetched. */
static int drt_known(int drt)
{
    static const int known[] = {0, 1, 2, 3, 4, 40, 41, 42, 50, 51, 53, 61, 200};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i] == drt)
            return 1;
    return 0;
}

static int mark_wanted(gjob *j)
{
    for (size_t t = 0; t < j->ntimes; t++)
        for (size_t k = 0; k < j->nparams; k++) {
            gmsg *m;
            gfile *f = NULL;
            int rc = find_msg(&m, &f, j, t, j->params[k]);
            if (rc)
                return rc;
            if (!m)
                continue;
            if (!drt_known(m->h.drt))
                return swx_error_set(SWX_ESERVICE,
                                     "%s: its %s is packed with data representation template "
                                     "5.%d, which ecCodes does not decode",
                                     f->id, j->params[k]->label, m->h.drt);
            m->wanted = 1;
        }
    for (size_t i = 0; i < j->nfiles; i++) {
        gfile *f = &j->files[i];
        if (f->size > 0)
            j->res.files_bytes += f->size;
        for (size_t k = 0; k < f->n; k++) {
            gmsg *m = &f->msgs[k];
            if (!m->wanted)
                continue;
            if (f->whole) {
                if (!(m->data = malloc((size_t)m->h.length)))
                    return swx_error_set(SWX_ENOMEM, "out of memory");
                memcpy(m->data, f->whole + m->off, (size_t)m->h.length);
                char key[400];
                if (j->o.cache && msg_key(key, sizeof key, f, m) == 0 &&
                    swx_diskcache_put(j->o.cache, key, m->data, (size_t)m->h.length) != 0)
                    swx_error_clear();
                continue;
            }
            char key[400];
            void *data = NULL;
            size_t len = 0;
            if (j->o.cache && field_key(key, sizeof key, f, m) == 0 &&
                swx_diskcache_get(&data, &len, j->o.cache, key) == 0) {
                swx_grib_head fh;
                uint64_t need;
                if (swx_grib_message_whole(data, len) &&
                    swx_grib_head_read(&fh, &need, data, len, f->id) == 0 &&
                    swx__grib_is_same(&fh, &m->h)) {
                    m->data = data;
                    m->data_len = len;
                    m->simple = 1;
                    j->res.from_cache += (int64_t)m->h.length;
                    continue;
                }
                free(data);
                data = NULL;
            }
            swx_error_clear();
            if (j->o.cache && msg_key(key, sizeof key, f, m) == 0 &&
                swx_diskcache_get(&data, &len, j->o.cache, key) == 0) {
                if (len == m->h.length && swx_grib_message_whole(data, len)) {
                    m->data = data;
                    j->res.from_cache += (int64_t)len;
                    continue;
                }
                free(data);
            }
            swx_error_clear();
            j->res.to_fetch += (int64_t)m->h.length;
        }
    }
    return 0;
}

static void job_free(gjob *j)
{
    for (size_t i = 0; i < j->nfiles; i++)
        file_clear(&j->files[i]);
    free(j->files);
    for (size_t i = 0; i < j->ntimes; i++)
        swx_area_free(j->times[i].area);
}

static int prepare(gjob *j, swx_grib_result *res, swx_client *c, const swx_grib_spec *spec,
                   const swx_grib_opts *opts)
{
    memset(j, 0, sizeof *j);
    j->c = c;
    j->spec = spec;
    if (opts)
        j->o = *opts;
    if (res)
        memset(res, 0, sizeof *res);
    int rc = plan(j);
    if (!rc)
        rc = walk_all(j);
    if (!rc)
        rc = mark_wanted(j);
    return rc;
}

int swx_grib_quote(swx_grib_result *res, swx_client *c, const swx_grib_spec *spec,
                   const swx_grib_opts *opts)
{
    gjob *j = calloc(1, sizeof *j);
    if (!j)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    int rc = prepare(j, res, c, spec, opts);
    for (size_t t = 0; !rc && t < j->ntimes; t++) {
        uint64_t kept = swx__grib_kept(&j->times[t].grid, j->times[t].area);
        uint64_t all = (uint64_t)j->times[t].grid.ni * j->times[t].grid.nj;
        for (size_t k = 0; !rc && k < j->nparams; k++) {
            gmsg *m;
            gfile *f;
            if ((rc = find_msg(&m, &f, j, t, j->params[k])) || !m)
                continue;
            j->res.bytes += swx__grib_estimate(&m->h, &j->times[t].grid, kept, kept < all);
            j->res.messages++;
        }
    }
    if (res)
        *res = j->res;
    job_free(j);
    free(j);
    return rc;
}

/* The whole file through bzip2 at its best (900 kB blocks: a voyage GRIB is
 * one block). */
static int compress(uint8_t **data, size_t *len)
{
    if (*len > UINT_MAX / 2)
        return swx_error_set(SWX_ETOOBIG, "a file too big to compress");
    unsigned cap = (unsigned)(*len + *len / 100 + 600);
    char *z = malloc(cap);
    if (!z)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    int e = BZ2_bzBuffToBuffCompress(z, &cap, (char *)*data, (unsigned)*len, 9, 0, 0);
    if (e != BZ_OK) {
        free(z);
        return swx_error_set(e == BZ_MEM_ERROR ? SWX_ENOMEM : SWX_EIO, "bzip2 failed (%d)", e);
    }
    free(*data);
    *data = (uint8_t *)z;
    *len = cap;
    return 0;
}

int swx_grib_build(swx_grib_result *res, swx_client *c, const swx_grib_spec *spec, const char *path,
                   const swx_grib_opts *opts)
{
    char *target = NULL;
    int stream = 0;
    int rc = swx_atomicfile_target(&target, &stream, path, SWX_ATOMICFILE_STREAM, NULL, 0);
    free(target);
    if (rc)
        return rc;
    gjob *j = calloc(1, sizeof *j);
    if (!j)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    uint8_t *out = NULL;
    size_t out_len = 0, out_cap = 0;
    rc = prepare(j, res, c, spec, opts);
    if (!rc) {
        j->stage = "fetch";
        j->progress_done = 0;
        j->progress_total = 0;
        for (size_t i = 0; i < j->nfiles; i++)
            for (size_t k = 0; k < j->files[i].n; k++)
                j->progress_total += j->files[i].msgs[k].wanted && !j->files[i].msgs[k].data;
        size_t todo = j->progress_total;
        if (!(rc = report(j)) && todo)
            rc = run_round(j, 1, todo);
    }
    if (!rc) {
        j->stage = "cut";
        j->progress_done = 0;
        j->progress_total = j->ntimes * j->nparams;
    }
    for (size_t t = 0; !rc && t < j->ntimes; t++)
        for (size_t k = 0; !rc && k < j->nparams; k++) {
            gmsg *m;
            gfile *f = NULL;
            if ((rc = find_msg(&m, &f, j, t, j->params[k])) || !m)
                continue;
            if (!m->data) {
                rc = swx_error_set(SWX_ESERVICE, "%s: a message was not fetched", f->id);
                break;
            }
            char what[300], key[400];
            snprintf(what, sizeof what, "%s (%s)", f->id, j->params[k]->label);
            uint8_t *simple = NULL;
            size_t simple_len = 0;
            int keep = j->o.cache && !m->simple && field_key(key, sizeof key, f, m) == 0;
            rc = swx__grib_cut(&out, &out_len, &out_cap, m->data,
                               m->data_len ? m->data_len : (size_t)m->h.length, &j->times[t].grid,
                               j->times[t].area, j->params[k], spec->edition == 1 ? 1 : 2,
                               keep ? &simple : NULL, &simple_len, what);
            if (!rc && simple && swx_diskcache_put(j->o.cache, key, simple, simple_len) != 0)
                swx_error_clear(); /* a cache that cannot be written costs time, not the file */
            free(simple);
            if (!rc) {
                j->res.messages++;
                j->progress_done++;
                rc = report(j);
            }
            /* a message is cut once: let it go */
            free(m->data);
            m->data = NULL;
        }
    if (!rc && spec->bzip2 && out_len)
        rc = compress(&out, &out_len);
    if (!rc) {
        swx_atomicfile af = SWX_ATOMICFILE_INIT;
        rc = swx_atomicfile_open(&af, path, 0644, SWX_ATOMICFILE_STREAM);
        if (!rc && out_len && fwrite(out, 1, out_len, af.f) != out_len) {
            swx_atomicfile_abort(&af);
            rc = swx_error_set(SWX_EIO, "cannot write %s", path);
        } else if (!rc) {
            rc = swx_atomicfile_commit(&af);
        }
        j->res.bytes = (int64_t)out_len;
    }
    if (res)
        *res = j->res;
    free(out);
    job_free(j);
    free(j);
    return rc;
}

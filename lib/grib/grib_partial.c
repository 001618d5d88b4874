/* grib_partial.c: a simply packed field (template 5.0, no bitmap, as
 * ECMWF's open data is) fetched in parts. Its values sit at known bytes:
 * value k takes bits [k * bits, (k + 1) * bits) of section 7's data. So only
 * the rows, or row segments, that the cut of its time takes are asked for
 * (grib_cut.c's swx__grib_needed, the very points resample() keeps), runs
 * closer than MERGE_GAP bytes asked as one. The message is put together
 * from its head (read by the walk), those parts and zeros elsewhere, and
 * cut as a whole one: the points it keeps are the fetched ones. A part is
 * cached by its file and byte range, so a second build of the same voyage
 * fetches nothing; another voyage fetches the parts it needs.
 *
 * Any other packing, a bitmap, or a cut that takes most of the field: the
 * message is fetched whole (grib_fetch.c), as before. */
#include "grib_int.h"

#include "diskcache_io.h"
#include "http_core.h"
#include "seawx/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs closer than this are asked for as one range: a request costs more
 * than the bytes between. */
#define MERGE_GAP 2048u
/* Parts are worth it while they hold at most this share of the values. */
#define MAX_SHARE 0.5

static int part_key(char *key, size_t n, const gfile *f, const gmsg *m, const gpart *p)
{
    return snprintf(key, n, "seawx-grib-part 1 %s %llu %llu", f->id,
                    (unsigned long long)(m->off + p->off), (unsigned long long)p->len) < (int)n
               ? 0
               : -1;
}

/* m's parts, from the runs of values its cut takes; 0 parts: whole. */
static int plan(gjob *j, gfile *f, gmsg *m)
{
    const swx_grib_head *h = &m->h;
    const gtime *t = &j->times[f->t];
    if (h->drt != 0 || !h->data_at || h->bits <= 0 || h->bits > 32 ||
        (uint64_t)h->npacked != (uint64_t)h->ni * h->nj || m->head_len < h->data_at ||
        h->data_at + ((uint64_t)h->npacked * (uint64_t)h->bits + 7) / 8 > h->length - 4)
        return 0;
    uint64_t *runs = NULL;
    long nr = swx__grib_needed(&runs, h, &t->grid, t->area);
    if (nr <= 0) {
        free(runs);
        return 0;
    }
    gpart *p = malloc((size_t)nr * sizeof *p);
    if (!p) {
        free(runs);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    size_t np = 0;
    uint64_t bytes = 0, bits = (uint64_t)h->bits;
    for (long k = 0; k < nr; k++) {
        uint64_t from = h->data_at + runs[2 * k] * bits / 8;
        uint64_t to = h->data_at + (runs[2 * k + 1] * bits + 7) / 8;
        if (np && from <= p[np - 1].off + p[np - 1].len + MERGE_GAP) {
            if (to > p[np - 1].off + p[np - 1].len)
                p[np - 1].len = to - p[np - 1].off;
            continue;
        }
        p[np++] = (gpart){from, to - from, 0};
    }
    free(runs);
    for (size_t k = 0; k < np; k++)
        bytes += p[k].len;
    if ((double)bytes > MAX_SHARE * (double)h->length) {
        free(p);
        return 0;
    }
    m->parts = p;
    m->nparts = m->parts_left = np;
    return 0;
}

int swx__grib_parts_begin(gjob *j, gfile *f, gmsg *m, int64_t *cached, int64_t *to_fetch)
{
    *cached = *to_fetch = 0;
    int rc = plan(j, f, m);
    if (rc || !m->nparts)
        return rc;
    if (j->building) {
        /* the head as the walk read it, the end, zeros for what is not asked */
        if (!(m->data = calloc(1, (size_t)m->h.length)))
            return swx_error_set(SWX_ENOMEM, "out of memory");
        memcpy(m->data, m->head, (size_t)m->h.data_at);
        memcpy(m->data + m->h.length - 4, "7777", 4);
    }
    for (size_t k = 0; k < m->nparts; k++) {
        gpart *p = &m->parts[k];
        char key[400];
        void *data = NULL;
        size_t len = 0;
        if (j->o.cache && part_key(key, sizeof key, f, m, p) == 0 &&
            swx_diskcache_get(&data, &len, j->o.cache, key) == 0 && len == p->len) {
            if (m->data)
                memcpy(m->data + p->off, data, len);
            p->done = 1;
            m->parts_left--;
            *cached += (int64_t)len;
        } else {
            *to_fetch += (int64_t)p->len;
        }
        free(data);
        swx_error_clear();
    }
    return 0;
}

int swx__grib_part_take(gjob *j, gfile *f, gmsg *m, size_t k, const uint8_t *bytes)
{
    gpart *p = &m->parts[k];
    if (p->done)
        return 0;
    memcpy(m->data + p->off, bytes, (size_t)p->len);
    p->done = 1;
    m->parts_left--;
    char key[400];
    if (j->o.cache && part_key(key, sizeof key, f, m, p) == 0 &&
        swx_diskcache_put(j->o.cache, key, bytes, (size_t)p->len) != 0)
        swx_error_clear(); /* a cache that cannot be written costs time, not the file */
    return m->parts_left ? 0 : swx__grib_cut_msg(j, f, m);
}

int swx__grib_parts_from_file(gjob *j, gfile *f, const uint8_t *body, size_t len)
{
    for (size_t i = 0; i < f->n; i++) {
        gmsg *o = &f->msgs[i];
        for (size_t q = 0; o->nparts && !o->is_cut && q < o->nparts; q++) {
            if (o->off + o->parts[q].off + o->parts[q].len > len)
                return swx_error_set(SWX_ESERVICE, "%s: the file changed on storage", f->id);
            int rc = swx__grib_part_take(j, f, o, q, body + o->off + o->parts[q].off);
            if (rc)
                return rc;
        }
    }
    return 0;
}

int swx__grib_part_done(gjob *j, gfile *f, gmsg *m, size_t k, const swx_response *r)
{
    const uint8_t *body = (const uint8_t *)r->body;
    const gpart *p = &m->parts[k];
    if ((uint64_t)r->range_start != m->off + p->off || r->len != p->len)
        return swx_error_set(SWX_ESERVICE,
                             "%s: storage answered %zu bytes from %lld for the %llu bytes at %llu",
                             f->id, r->len, (long long)r->range_start, (unsigned long long)p->len,
                             (unsigned long long)(m->off + p->off));
    return swx__grib_part_take(j, f, m, k, body);
}

size_t swx__grib_requests_left(const gmsg *m)
{
    if (!m->wanted || m->is_cut)
        return 0;
    if (m->nparts)
        return m->parts_left;
    return m->data ? 0 : 1;
}

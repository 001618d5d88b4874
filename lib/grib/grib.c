/* grib.c: a voyage GRIB (see seawx/grib.h): the messages wanted, the quote
 * and the build; the plan is grib_plan.c's, the walk and the fetch
 * grib_fetch.c's, the parts grib_partial.c's, the cache grib_cache.c's, the
 * job's report and its messages cut grib_job.c's, a file's messages
 * grib_file.c's. */
#include "grib_codes.h"
#include "grib_int.h"

#include "buf.h"
#include "diskcache_io.h"
#include "seawx/atomicfile.h"
#include "seawx/error.h"

#include <errno.h>
#include <bzlib.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The message of parameter p, in any centre's encoding, in the time's file
 * of p's bundle (NULL when an accumulation is absent at hour 0). */
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
        char held[200] = "", name[48];
        for (size_t k = 0; k < f->n; k++) {
            const swx_grib_head *h = &f->msgs[k].h;
            swx__gcode_list_add(held, sizeof held,
                                swx__gcode_name2(name, sizeof name, h->discipline, h->category,
                                                 h->number, h->surface, h->level));
        }
        return swx_error_set(SWX_ENOTFOUND, "%s holds no %s (it holds: %s)", f->id, p->label,
                             *held ? held : "no message");
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

/* A message whose data is here before any fetch (the cache, a whole
 * file): a build cuts it at once; a quote needs only its head. */
static int here(gjob *j, gfile *f, gmsg *m)
{
    if (j->building) {
        int rc = swx__grib_cut_msg(j, f, m);
        j->progress_done++;
        return rc ? rc : swx__grib_report(j);
    }
    free(m->data);
    m->data = NULL;
    m->data_len = 0;
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
            m->param = k;
        }
    /* a build cuts what the cache holds here: stage "cut", of every wanted
     * message (those fetched next are cut as they come) */
    j->stage = "cut";
    j->progress_done = 0;
    j->progress_total = 0;
    for (size_t i = 0; i < j->nfiles; i++)
        for (size_t k = 0; k < j->files[i].n; k++)
            j->progress_total += j->files[i].msgs[k].wanted;
    for (size_t i = 0; i < j->nfiles; i++) {
        gfile *f = &j->files[i];
        if (f->size > 0)
            j->res.files_bytes += f->size;
        for (size_t k = 0; k < f->n; k++) {
            gmsg *m = &f->msgs[k];
            int rc;
            if (!m->wanted)
                continue;
            if (f->whole) {
                if (!(m->data = malloc((size_t)m->h.length)))
                    return swx_error_set(SWX_ENOMEM, "out of memory");
                memcpy(m->data, f->whole + m->off, (size_t)m->h.length);
                char key[400];
                if (j->o.cache && swx__grib_msg_key(key, sizeof key, f, m) == 0 &&
                    swx_diskcache_put(j->o.cache, key, m->data, (size_t)m->h.length) != 0)
                    swx_error_clear();
                if ((rc = here(j, f, m)))
                    return rc;
                continue;
            }
            char key[400];
            void *data = NULL;
            size_t len = 0;
            if (j->o.cache && swx__grib_field_key(key, sizeof key, f, m) == 0 &&
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
                    if ((rc = here(j, f, m)))
                        return rc;
                    continue;
                }
                free(data);
                data = NULL;
            }
            swx_error_clear();
            if (j->o.cache && swx__grib_msg_key(key, sizeof key, f, m) == 0 &&
                swx_diskcache_get(&data, &len, j->o.cache, key) == 0) {
                if (len == m->h.length && swx_grib_message_whole(data, len)) {
                    m->data = data;
                    j->res.from_cache += (int64_t)len;
                    if ((rc = here(j, f, m)))
                        return rc;
                    continue;
                }
                free(data);
            }
            swx_error_clear();
            int64_t cached = 0, to_fetch = 0;
            if ((rc = swx__grib_parts_begin(j, f, m, &cached, &to_fetch)))
                return rc;
            if (m->nparts) {
                j->res.from_cache += cached;
                j->res.to_fetch += to_fetch;
                if (!m->parts_left && (rc = here(j, f, m)))
                    return rc;
                continue;
            }
            j->res.to_fetch += (int64_t)m->h.length;
        }
    }
    return 0;
}

/* The spec's if_held variables that some file of the run lacks, left out
 * whole (each of a variable's fields: the current's u with its v) and named
 * in the result. */
static void drop_unheld(gjob *j)
{
    size_t k = j->nrequired;
    while (k < j->nparams) {
        const char *var = j->params[k]->var;
        int held = 1;
        for (size_t t = 0; held && t < j->ntimes; t++) {
            gmsg *m;
            gfile *f = NULL;
            held = find_msg(&m, &f, j, t, j->params[k]) == 0;
        }
        if (held) {
            k++;
            continue;
        }
        swx_error_clear();
        size_t n = j->nrequired;
        for (size_t i = j->nrequired; i < j->nparams; i++)
            if (strcmp(j->params[i]->var, var) != 0)
                j->params[n++] = j->params[i];
        j->nparams = n;
        size_t used = strlen(j->res.left_out);
        snprintf(j->res.left_out + used, sizeof j->res.left_out - used, "%s%s", used ? "," : "",
                 var);
        k = j->nrequired; /* from the first again: the list moved */
    }
}

static void job_free(gjob *j)
{
    for (size_t i = 0; i < j->nfiles; i++)
        swx__grib_file_clear(&j->files[i]);
    free(j->files);
    for (size_t i = 0; i < j->ntimes; i++)
        swx_area_free(j->times[i].area);
}

static int prepare(gjob *j, swx_grib_result *res, swx_client *c, const swx_grib_spec *spec,
                   const swx_grib_opts *opts, int building)
{
    memset(j, 0, sizeof *j);
    j->building = building;
    j->c = c;
    j->spec = spec;
    if (opts)
        j->o = *opts;
    if (res)
        memset(res, 0, sizeof *res);
    int rc = swx__grib_plan(j);
    if (!rc)
        rc = swx__grib_fetch_walk(j);
    if (!rc)
        drop_unheld(j);
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
    int rc = prepare(j, res, c, spec, opts, 0);
    for (size_t t = 0; !rc && t < j->ntimes; t++) {
        uint64_t kept = swx__grib_kept(&j->times[t].grid, j->times[t].area);
        uint64_t all = (uint64_t)j->times[t].grid.ni * j->times[t].grid.nj;
        for (size_t k = 0; !rc && k < j->nparams; k++) {
            gmsg *m;
            gfile *f;
            if ((rc = find_msg(&m, &f, j, t, j->params[k])) || !m)
                continue;
            int64_t low;
            j->res.bytes +=
                swx__grib_estimate(&m->h, &j->times[t].grid, kept, kept < all, j->params[k]->dscale,
                                   j->spec->edition == 1 ? 1 : 2, &low);
            j->res.bytes_low += low;
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

/* The requests every message of the job still needs. */
static size_t requests_left(const gjob *j)
{
    size_t n = 0;
    for (size_t i = 0; i < j->nfiles; i++)
        for (size_t k = 0; k < j->files[i].n; k++)
            n += swx__grib_requests_left(&j->files[i].msgs[k]);
    return n;
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
    rc = prepare(j, res, c, spec, opts, 1);
    if (!rc) {
        j->stage = "fetch";
        j->progress_done = 0;
        size_t todo = j->progress_total = requests_left(j);
        rc = swx__grib_report(j);
        /* A second round asks one at a time for the parts storage left out
         * of a request of several (grib_fetch.c); a third means it sent
         * less than it was asked for one range at a time. */
        for (int round = 0; !rc && todo; round++) {
            if (round == 2) {
                rc = swx_error_set(SWX_ESERVICE, "storage did not send %zu byte ranges asked for",
                                   todo);
                break;
            }
            if ((rc = swx__grib_fetch_round(j, 1, todo)))
                break;
            todo = requests_left(j);
        }
    }
    /* every field was cut as its message came: the file, in the order of
     * the times and the variables */
    for (size_t t = 0; !rc && t < j->ntimes; t++)
        for (size_t k = 0; !rc && k < j->nparams; k++) {
            gmsg *m;
            gfile *f = NULL;
            if ((rc = find_msg(&m, &f, j, t, j->params[k])) || !m)
                continue;
            if (!m->is_cut) {
                rc = swx_error_set(SWX_ESERVICE, "%s: a message was not fetched", f->id);
                break;
            }
            uint8_t *o = swx_array_reserve(out, &out_cap, out_len + m->cut_len, 1, 4096);
            if (!o) {
                rc = swx_error_set(SWX_ENOMEM, "out of memory");
                break;
            }
            out = o;
            memcpy(out + out_len, m->cut, m->cut_len);
            out_len += m->cut_len;
            free(m->cut);
            m->cut = NULL;
            j->res.messages++;
        }
    if (!rc && spec->bzip2 && out_len)
        rc = compress(&out, &out_len);
    if (!rc) {
        swx_atomicfile af = SWX_ATOMICFILE_INIT;
        rc = swx_atomicfile_open(&af, path, 0644, SWX_ATOMICFILE_STREAM);
        if (!rc && out_len && fwrite(out, 1, out_len, af.f) != out_len) {
            int e = errno ? errno : EIO;
            swx_atomicfile_abort(&af);
            rc = swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(e));
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

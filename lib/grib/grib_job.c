/* grib_job.c: what every step of a voyage GRIB's job shares (see
 * grib_int.h): its progress reported (and a stop asked for, seen), and a
 * message cut as soon as its bytes are here, then let go. */
#include "grib_int.h"

#include "diskcache_io.h"
#include "seawx/error.h"

#include <stdio.h>
#include <stdlib.h>

static int cancelled(gjob *j)
{
    if (j->o.cancel && *j->o.cancel)
        return swx_error_set(SWX_ECANCEL, "interrupted");
    return 0;
}

int swx__grib_report(gjob *j)
{
    if (j->o.progress && j->o.progress(j->o.ud, j->stage, j->progress_done, j->progress_total))
        return swx_error_set(SWX_ECANCEL, "interrupted");
    return cancelled(j);
}

int swx__grib_cut_msg(gjob *j, gfile *f, gmsg *m)
{
    const gparam *p = j->params[m->param];
    const gtime *t = &j->times[f->t];
    char what[300], key[400];
    snprintf(what, sizeof what, "%s (%s)", f->id, p->label);
    uint8_t *simple = NULL;
    size_t simple_len = 0, cap = 0;
    /* the simply packed copy of the whole field, for the next cut: not of
     * a field fetched in parts */
    int keep =
        j->o.cache && !m->simple && !m->nparts && swx__grib_field_key(key, sizeof key, f, m) == 0;
    int rc = swx__grib_cut(&m->cut, &m->cut_len, &cap, m->data,
                           m->data_len ? m->data_len : (size_t)m->h.length, &t->grid, t->area, p,
                           j->spec->edition == 1 ? 1 : 2, keep ? &simple : NULL, &simple_len, what);
    if (!rc && simple && swx_diskcache_put(j->o.cache, key, simple, simple_len) != 0)
        swx_error_clear(); /* a cache that cannot be written costs time, not the file */
    free(simple);
    /* a message is cut once: let it go */
    free(m->data);
    m->data = NULL;
    m->data_len = 0;
    if (!rc)
        m->is_cut = 1;
    return rc;
}

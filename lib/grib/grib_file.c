/* grib_file.c: the messages of one forecast file of a voyage GRIB's job, as
 * the walk, the index and the cache find them (see grib_int.h). */
#include "grib_int.h"

#include "buf.h"
#include "seawx/error.h"

#include <stdlib.h>
#include <string.h>

int swx__grib_file_push(gfile *f, uint64_t off, const swx_grib_head *h, const uint8_t *head,
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

void swx__grib_file_clear(gfile *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->msgs[i].head);
        free(f->msgs[i].data);
        free(f->msgs[i].cut);
        free(f->msgs[i].parts);
    }
    free(f->msgs);
    free(f->whole);
    free(f->id);
}

/* stats.c: request counters (see stats.h). */
#include "stats.h"

#include <stdatomic.h>
#include <stdlib.h>

#define NSTATUS 600

struct sim_stats {
    atomic_uint_fast64_t requests, getmap, getcaps;
    atomic_uint_fast64_t by_status[NSTATUS]; /* index 0: dropped, no answer */
};

int sim_stats_new(struct sim_stats **out)
{
    *out = calloc(1, sizeof(**out));
    if (*out == NULL)
        return -1;
    sim_stats_reset(*out);
    return 0;
}

void sim_stats_free(struct sim_stats *s)
{
    free(s);
}

void sim_stats_count(struct sim_stats *s, unsigned status, enum sim_wms_op op)
{
    atomic_fetch_add(&s->requests, 1);
    atomic_fetch_add(&s->by_status[status < NSTATUS ? status : 0], 1);
    if (op == SIM_OP_GETMAP)
        atomic_fetch_add(&s->getmap, 1);
    else if (op == SIM_OP_GETCAPABILITIES)
        atomic_fetch_add(&s->getcaps, 1);
}

void sim_stats_reset(struct sim_stats *s)
{
    atomic_store(&s->requests, 0);
    atomic_store(&s->getmap, 0);
    atomic_store(&s->getcaps, 0);
    for (size_t i = 0; i < NSTATUS; i++)
        atomic_store(&s->by_status[i], 0);
}

int sim_stats_json(struct sim_stats *s, struct sim_buf *out)
{
    const char *sep = "";

    sim_buf_printf(out, "{\"requests\":%llu,\"by_status\":{",
                   (unsigned long long)atomic_load(&s->requests));
    for (size_t i = 0; i < NSTATUS; i++) {
        unsigned long long n = atomic_load(&s->by_status[i]);
        if (n == 0)
            continue;
        sim_buf_printf(out, "%s\"%zu\":%llu", sep, i, n);
        sep = ",";
    }
    return sim_buf_printf(out, "},\"getmap\":%llu,\"getcapabilities\":%llu}",
                          (unsigned long long)atomic_load(&s->getmap),
                          (unsigned long long)atomic_load(&s->getcaps));
}

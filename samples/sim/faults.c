/* faults.c: the fault draw (see faults.h). */
#include "faults.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "http.h"

struct sim_faults {
    double p429, p5xx, pdrop, ptrunc, pexception;
    uint64_t seed;
    unsigned on; /* SIM_FAULTS_ON_* */
    atomic_uint_fast64_t n;
};

int sim_faults_new(const struct sim_options *o, struct sim_faults **out)
{
    struct sim_faults *f = calloc(1, sizeof(*f));

    *out = NULL;
    if (f == NULL)
        return -1;
    f->p429 = o->p429;
    f->p5xx = o->p5xx;
    f->pdrop = o->pdrop;
    f->ptrunc = o->ptrunc;
    f->pexception = o->pexception;
    f->seed = o->fault_seed;
    f->on = o->faults_on;
    atomic_init(&f->n, 0);
    *out = f;
    return 0;
}

void sim_faults_free(struct sim_faults *f)
{
    free(f);
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

enum sim_fault sim_faults_draw(struct sim_faults *f)
{
    uint64_t n;
    double u, edge;

    if (f->p429 + f->p5xx + f->pdrop + f->ptrunc + f->pexception <= 0)
        return SIM_FAULT_NONE;
    n = atomic_fetch_add_explicit(&f->n, 1, memory_order_relaxed);
    u = (double)(splitmix64(f->seed * 0x100000001B3ull + n) >> 11) / 9007199254740992.0;
    if (u < (edge = f->p429))
        return SIM_FAULT_429;
    if (u < (edge += f->p5xx))
        return SIM_FAULT_503;
    if (u < (edge += f->pdrop))
        return SIM_FAULT_DROP;
    if (u < (edge += f->ptrunc))
        return SIM_FAULT_TRUNC;
    if (u < edge + f->pexception)
        return SIM_FAULT_EXCEPTION;
    return SIM_FAULT_NONE;
}

enum sim_fault sim_faults_draw_op(struct sim_faults *f, int op)
{
    unsigned kind = op == SIM_OP_GETMAP            ? SIM_FAULTS_ON_GETMAP
                    : op == SIM_OP_GETCAPABILITIES ? SIM_FAULTS_ON_CAPS
                                                   : SIM_FAULTS_ON_OTHER;

    if ((f->on & kind) == 0)
        return SIM_FAULT_NONE;
    return sim_faults_draw(f);
}

/* field.c: the simulated weather (see field.h): an evaluation's context, and
 * the entry points.
 *
 * An evaluation is one grid at one valid time and run. Its context holds what
 * the parts read: the times, the season, the run's perturbation, scratch rows
 * and columns, and the base fields computed so far. field_base.c makes the base
 * fields (temperatures, pressure, wind, rain, cloud, swell, currents) from
 * separable pieces, each once and only when asked; field_derived.c makes the
 * fields and flows of field.h from them, point by point; field_storm.c adds
 * the active storms to the wind, pressure and sea. */
#include "field_int.h"

#include <stdlib.h>
#include <string.h>

static int ctx_init(struct ctx *c, const struct sim_grid *g, const struct sim_when *w)
{
    double days = (double)(w->valid - EPOCH_2000) / 86400.0;

    memset(c, 0, sizeof(*c));
    c->g = g;
    c->n = g->nx * g->ny;
    c->hours = (double)(w->valid - EPOCH_2000) / 3600.0;
    c->lead = (double)(w->valid - w->run) / 3600.0;
    c->run_phase = 2 * PI * u01(99, (unsigned)((uint64_t)w->run / 21600u), 0);
    c->utc = (double)(((w->valid % 86400) + 86400) % 86400) / 3600.0;
    c->doy = fmod(days, 365.2425);
    if (c->doy < 0)
        c->doy += 365.2425;
    c->season = cos(2 * PI * (c->doy - 196) / 365.2425);
    sim_field_storm_init(c, w->valid);
    c->col = malloc((g->nx + 1) * sizeof(double));
    c->col2 = malloc((g->nx + 1) * sizeof(double));
    c->row = malloc((g->ny + 1) * sizeof(double));
    c->row2 = malloc((g->ny + 1) * sizeof(double));
    return (c->col && c->col2 && c->row && c->row2) ? 0 : -1;
}

static void ctx_free(struct ctx *c)
{
    for (size_t b = 0; b < B_COUNT; b++)
        free(c->base[b]);
    free(c->col);
    free(c->col2);
    free(c->row);
    free(c->row2);
}

int sim_field_eval(enum sim_field f, const struct sim_grid *g, const struct sim_when *w, float *out)
{
    struct ctx c;
    int rc = -1;

    if (ctx_init(&c, g, w) != 0)
        goto done;
    rc = sim_field_derived_eval(&c, f, out);
done:
    ctx_free(&c);
    return rc;
}

int sim_field_vector(enum sim_vector vec, const struct sim_grid *g, const struct sim_when *w,
                     float *u, float *v)
{
    struct ctx c;
    int rc = -1;

    if (ctx_init(&c, g, w) != 0)
        goto done;
    rc = sim_field_derived_vector(&c, vec, u, v);
done:
    ctx_free(&c);
    return rc;
}

/* runs.c: the run schedule of the simulated model (see runs.h). */
#include "runs.h"

#define HOUR 3600
#define RUN_STEP (6 * HOUR)
#define PUBLISH_DELAY (4 * HOUR)

static int64_t floor_to(int64_t t, int64_t step)
{
    int64_t q = t / step;

    if (t % step != 0 && t < 0)
        q--;
    return q * step;
}

static int full_length(int64_t issued)
{
    int64_t hour = ((issued % 86400) + 86400) % 86400 / HOUR;

    return (hour == 0 || hour == 12) ? 360 : 120;
}

int sim_lead_valid(int64_t lead, int max_lead)
{
    if (lead < 0 || lead > max_lead)
        return 0;
    if (lead <= 48)
        return 1;
    if (lead <= 120)
        return lead % 3 == 0;
    return lead <= 360 && lead % 6 == 0;
}

/* Largest valid lead not above limit. */
static int last_valid(int limit)
{
    while (limit > 0 && !sim_lead_valid(limit, limit))
        limit--;
    return limit;
}

int64_t sim_runs_newest(int64_t clock)
{
    return floor_to(clock - PUBLISH_DELAY, RUN_STEP);
}

void sim_runs_at(int64_t clock, struct sim_runs *out)
{
    int64_t newest = sim_runs_newest(clock);

    out->n = SIM_RUNS;
    for (size_t i = 0; i < SIM_RUNS; i++) {
        out->issued[i] = newest - (int64_t)i * RUN_STEP;
        out->max_lead[i] = full_length(out->issued[i]);
    }
    /* The newest run is being written at about 12 forecast hours per hour of wall
     * clock since it was published; at least +0..+6 h is listed. It never looks
     * finished: 6 h after publication the next run replaces it as the newest. */
    {
        int64_t produced = (clock - newest - PUBLISH_DELAY) / HOUR * 12;
        int lim = produced < 6 ? 6 : (int)(produced > 360 ? 360 : produced);
        if (lim < out->max_lead[0])
            out->max_lead[0] = last_valid(lim);
    }
}

int sim_runs_find(const struct sim_runs *r, int64_t issued)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->issued[i] == issued)
            return (int)i;
    return -1;
}

size_t sim_leads(int max_lead, int out[SIM_RUN_MAX_TIMES])
{
    size_t n = 0;

    for (int lead = 0; lead <= max_lead && n < SIM_RUN_MAX_TIMES; lead++)
        if (sim_lead_valid(lead, max_lead))
            out[n++] = lead;
    return n;
}

int64_t sim_run_default_time(int64_t issued, int max_lead, int64_t clock)
{
    int leads[SIM_RUN_MAX_TIMES];
    size_t n = sim_leads(max_lead, leads);
    int64_t best = issued, best_d = -1;

    for (size_t i = 0; i < n; i++) {
        int64_t t = issued + (int64_t)leads[i] * HOUR;
        int64_t d = t > clock ? t - clock : clock - t;
        if (best_d < 0 || d < best_d) {
            best = t;
            best_d = d;
        }
    }
    return best;
}

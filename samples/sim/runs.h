/* runs.h: which model runs exist at a given clock, and their valid times.
 *
 * Issuances are at 00, 06, 12 and 18 UTC. A run is published 4 h after its
 * issuance; the SIM_RUNS newest published runs are listed (4 days of 4 runs).
 * Lead times: hourly +0..+48 h, 3-hourly to +120 h, 6-hourly to +360 h; the
 * 06 and 18 runs end at +120 h. The newest run is still being produced and
 * lists only part of its lead times (see sim_runs_at). */
#ifndef SIM_RUNS_H
#define SIM_RUNS_H

#include <stddef.h>
#include <stdint.h>

#define SIM_RUNS 16
/* Valid times of a finished 00/12 run: 49 + 24 + 40. */
#define SIM_RUN_MAX_TIMES 113

struct sim_runs {
    size_t n;
    int64_t issued[SIM_RUNS]; /* newest first */
    int max_lead[SIM_RUNS];   /* last listed lead time, hours */
};

/* The newest published issuance at clock: the run of the capabilities, of the
 * forecast file listing and of the point forecasts. */
int64_t sim_runs_newest(int64_t clock);
void sim_runs_at(int64_t clock, struct sim_runs *out);
/* Index of the run issued at t, or -1. */
int sim_runs_find(const struct sim_runs *r, int64_t issued);
/* Whether lead (hours) is on the schedule and at most max_lead. */
int sim_lead_valid(int64_t lead, int max_lead);
/* Writes the listed leads (hours, ascending) into out; returns their count. */
size_t sim_leads(int max_lead, int out[SIM_RUN_MAX_TIMES]);
/* The listed valid time nearest the clock (ties go to the earlier one). */
int64_t sim_run_default_time(int64_t issued, int max_lead, int64_t clock);

#endif

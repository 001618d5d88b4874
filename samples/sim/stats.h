/* stats.h: request counters for /_sim/stats (lock-free). Only service
 * requests count: not /_sim/ paths, not the storage host. */
#ifndef SIM_STATS_H
#define SIM_STATS_H

#include "buf.h"
#include "http.h"

struct sim_stats;

int sim_stats_new(struct sim_stats **out);
void sim_stats_free(struct sim_stats *s);
/* Counts a finished request: its status (0 for a dropped connection) and op. */
void sim_stats_count(struct sim_stats *s, unsigned status, enum sim_wms_op op);
void sim_stats_reset(struct sim_stats *s);
/* {"requests":N,"by_status":{"200":N,...},"getmap":N,"getcapabilities":N} */
int sim_stats_json(struct sim_stats *s, struct sim_buf *out);

#endif

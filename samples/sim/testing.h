/* testing.h: the /_sim/ endpoints that the HTTP client's tests drive (no key,
 * never faulted, not counted in the statistics):
 *   /_sim/test      scripted failures per id, then success
 *   /_sim/count     requests seen for an id
 *   /_sim/echo-auth which key forms arrived
 *   /_sim/redirect  302 chains to this host or to the storage host
 *   /_sim/stats     service request counters (JSON)
 *   /_sim/reset     zero the counters, the per-id counts and the caches
 *   /_sim/field     the value a GRIB file parameter has at a point (grib.h) */
#ifndef SIM_TESTING_H
#define SIM_TESTING_H

#include "http.h"

struct sim_testing;

int sim_testing_new(struct sim_testing **out);
void sim_testing_free(struct sim_testing *t);
int sim_testing_handle(struct sim_request *rq);

#endif
